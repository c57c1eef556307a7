"""Instructions per decision under ``valgrind --tool=callgrind``: a speed figure that load cannot move.

Wall-clock and even CPU-time figures swing by tens of percent on a shared
2-core machine. Callgrind counts the instructions the interpreter executes,
which are the same on every run of the same code and input. This script plays
the same seeded random rounds as ``benchmarks/speed.py`` (full enumeration of
the legal actions at every decision) twice, at two lengths, and reports the
difference per decision, so interpreter start-up and imports cancel out.
With ``--baseline OTHER/src`` the other engine plays the same rounds in the
same way; both must make the same number of decisions (the same game).
``--bots`` adds lines for the ``medium`` bots (every seat, seeded rounds
played by :func:`rummy500.drive.drive`, per decision, the engine's share
included): their heuristics are the playout policy of ``hard``'s search and
of ``rummy500 review``, and the quick bots' thinking in the server.
``--ours DIR`` measures another build as this one (``build/compiled``, the
compiled engine of ``scripts/build_compiled.py``), and ``--env`` adds a line
for the PettingZoo environment (``rummy500.env.raw_env``, the standard game,
one round per episode) driven as ``benchmarks/env_speed.py`` drives it, per
token step (the ``research`` extra). OpenBLAS is held to one thread (its
spinning threads add instructions at random). ``--ours`` and ``--baseline``
take a checkout or its ``src`` (or a compiled build); a folder with no
``rummy500`` package, or one a child process does not import rummy500 from,
is refused with one line (exit 2) before callgrind runs.

Usage::

    python benchmarks/instructions.py --baseline /path/to/before/src
    python benchmarks/instructions.py --env --ours build/compiled --baseline /path/to/before/build/compiled

Needs ``valgrind`` (Debian: ``apt-get install valgrind``). Takes about a
minute: callgrind runs Python some 50 times slower.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_folder import checked_engine  # noqa: E402

SRC = Path(__file__).resolve().parents[1] / "src"
LINES = (("standard", 2, 10, 30), ("popular", 4, 5, 15))
#: The ``--bots`` lines: (preset, players, short run's rounds, long run's rounds) of medium bots.
BOT_LINES = (("standard", 2, 5, 15), ("popular", 4, 3, 9))
#: Episodes of the environment's line (``--env``): the short run and the long one.
ENV_GAMES = (10, 40)


def play(preset: str, players: int, rounds: int, seed: int = 1) -> int:
    """Play ``rounds`` seeded random rounds as ``speed.py`` does; return the number of decisions."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from speed import play_round

    from rummy500.rules import Rules
    from rummy500.state import RoundState

    rules = Rules.preset_rules(preset, players=players)
    rng = random.Random(seed)
    return sum(play_round(RoundState.new(rules, game % players, rng), rng, players > 2) for game in range(rounds))


def play_bots(preset: str, players: int, rounds: int, seed: int = 7) -> int:
    """Play ``rounds`` seeded rounds of ``medium`` bots in every seat; return the number of decisions (reshuffles too)."""
    from rummy500.bots import make_bot
    from rummy500.drive import drive
    from rummy500.rules import Rules
    from rummy500.state import RoundState

    rules = Rules.preset_rules(preset, players=players)
    bots = [make_bot("medium", seed + i) for i in range(players)]
    rng = random.Random(seed)
    return sum(drive(RoundState.new(rules, game % players, rng), bots, rng) for game in range(rounds))


def play_env(games: int, seed: int = 1) -> int:
    """Play ``games`` seeded episodes of ``raw_env`` as ``env_speed.py`` does; return the number of token steps."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from env_speed import play_episode

    from rummy500.env import raw_env

    env = raw_env(rules={"preset": "standard", "rounds": 1})
    rng = random.Random(seed)
    steps = 0
    for game in range(games):
        env.reset(seed=seed + game)
        steps += play_episode(env, rng)[0]
    return steps


def count(src: Path, play_args: list[str]) -> tuple[int, int]:
    """(instructions, decisions or steps) of one run of ``--play``/``--play-env`` under callgrind with ``src`` first on the path."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(src), "OPENBLAS_NUM_THREADS": "1"}
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={tmp}/cg.out",
            sys.executable,
            __file__,
            *play_args,
        ]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    decisions = re.search(r"decisions (\d+)", done.stdout)
    if not found or not decisions:
        raise SystemExit(f"callgrind gave no count:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(decisions.group(1))


def per_decision(src: Path, short: list[str], long: list[str]) -> tuple[float, int]:
    """Instructions per decision (the long run minus the short one) and the long run's decisions."""
    i1, d1 = count(src, short)
    i2, d2 = count(src, long)
    return (i2 - i1) / (d2 - d1), d2


def main(argv: list[str] | None = None) -> int:
    """Print instructions per decision for this engine (and a baseline's)."""
    parser = argparse.ArgumentParser(prog="instructions.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="another engine's checkout or src folder, measured the same way")
    parser.add_argument("--ours", type=Path, default=SRC, help="the engine measured (default: this checkout's src)")
    parser.add_argument("--env", action="store_true", help="add the PettingZoo environment, per token step")
    parser.add_argument("--bots", action="store_true", help="add medium bots in every seat, per decision")
    parser.add_argument("--play", nargs=3, metavar=("PRESET", "PLAYERS", "ROUNDS"), help=argparse.SUPPRESS)
    parser.add_argument("--play-env", type=int, metavar="GAMES", help=argparse.SUPPRESS)
    parser.add_argument("--play-bots", nargs=3, metavar=("PRESET", "PLAYERS", "ROUNDS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play:
        print("decisions", play(args.play[0], int(args.play[1]), int(args.play[2])))
        return 0
    if args.play_bots:
        print("decisions", play_bots(args.play_bots[0], int(args.play_bots[1]), int(args.play_bots[2])))
        return 0
    if args.play_env is not None:
        print("decisions", play_env(args.play_env))
        return 0
    ours = checked_engine(parser, "--ours", args.ours)
    baseline = checked_engine(parser, "--baseline", args.baseline)
    assert ours is not None
    lines = [
        (
            f"{preset} {players}p",
            ["--play", preset, str(players), str(short)],
            ["--play", preset, str(players), str(long)],
        )
        for preset, players, short, long in LINES
    ]
    if args.bots:
        lines += [
            (
                f"medium {preset} {players}p",
                ["--play-bots", preset, str(players), str(short)],
                ["--play-bots", preset, str(players), str(long)],
            )
            for preset, players, short, long in BOT_LINES
        ]
    if args.env:
        lines.append(("raw_env token step", ["--play-env", str(ENV_GAMES[0])], ["--play-env", str(ENV_GAMES[1])]))
    print(f"{'line':<22}{'instructions/decision':>24}{'baseline':>12}{'ratio':>8}")
    for name, short, long in lines:
        mine, decisions = per_decision(ours, short, long)
        base_text = ratio = ""
        if baseline is not None:
            base, base_decisions = per_decision(baseline, short, long)
            if base_decisions != decisions:
                print(f"  note: the baseline made {base_decisions} decisions, this engine {decisions}")
            base_text, ratio = f"{base:,.0f}", f"{mine / base:.3f}"
        print(f"{name:<22}{mine:>24,.0f}{base_text:>12}{ratio:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
