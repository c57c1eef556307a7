"""Speed benchmark: random legal play of complete rounds, with enumeration of every legal action.

Three lines for rummy500:

* ``standard`` 2 players: at every decision the player to move chooses
  uniformly among ``legal_actions()``;
* ``popular`` 4 players (jokers, calling Rummy on the pile): at every decision
  every seat with an action is asked for its legal actions (the out-of-turn
  Rummy calls included, as a table asks every seat), one of those seats is
  picked at random and plays a random legal action;
* ``std 2p lazy``: the standard line again, choosing with
  ``legal_count()`` and ``legal_action(i)`` (no copy of the legal list), as a
  search playout does. An engine without them (an older ``--baseline``) skips it.

Each line is run once, untimed, before it is measured, so that the engine's
memo tables (meld shapes, lay-offs) are warm, as in a long search.

Enumeration is part of what is timed, as are the deal and ``apply``. Prints
µs per decision (median of at least 5 repetitions). With the ``bench`` extra
installed (``pip install -e '.[bench]'``) the same run measures OpenSpiel's
``gin_rummy`` and RLCard's gin-rummy engine and prints the ratios. With
``--baseline DIR`` the same run also measures the engine found in ``DIR``
(another version's checkout or its ``src`` folder, e.g. ``git archive main
src | tar -x -C /tmp/main``) in a subprocess, and prints this version's
figures against it. ``--compiled DIR`` measures the compiled build of
``scripts/build_compiled.py`` (``build/compiled``) the same way, in the same
run, and prints its ratios to the peers and to the pure-Python engine (which
is what this process runs). A folder with no ``rummy500`` package in it (nor
in its ``src/``), or one a child process does not import rummy500 from, is
refused with one line (exit 2) before anything is measured: the child would
otherwise run the installed rummy500, this checkout, under the other label.

Usage: ``python benchmarks/speed.py [--seconds 2] [--reps 5] [--no-peers] [--baseline DIR] [--compiled DIR] [--cpu] [--profile]``

``--cpu`` times the CPU seconds of the process instead of wall time: on a
machine shared with other work it is the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from operator import attrgetter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers  # noqa: E402
from engine_folder import checked_engine  # noqa: E402
from peers import _result, measure_openspiel, measure_rlcard, median_of  # noqa: E402

from rummy500.rules import Rules  # noqa: E402
from rummy500.state import Phase, RoundState  # noqa: E402

# The phase of a round: one immutable public value since issue 8 (a --baseline
# run may measure an older engine, with the phase an attribute of the round).
phase_of = attrgetter("public.phase") if "public" in getattr(RoundState, "__slots__", ("public",)) else attrgetter("phase")

#: The rummy500 lines: (label, preset, players, lazy).
LINES = [
    ("rummy500 standard 2p", "standard", 2, False),
    ("rummy500 popular 4p", "popular", 4, False),
    ("rummy500 std 2p lazy", "standard", 2, True),
]
#: Seconds each line is played untimed first (memo tables warm).
WARM_S = 0.5


def play_round(state: RoundState, rng: random.Random, everyone: bool, lazy: bool = False) -> int:
    """Play one round to its end at random, enumerating every legal action; return its decisions.

    With ``everyone`` every actor is asked (a random one of them acts), else only the seat to move;
    ``lazy``: the seat to move chooses by index (``legal_count`` / ``legal_action``).
    """
    decisions = 0
    while not state.is_over:
        if phase_of(state) is Phase.SHUFFLE:
            state.apply(state.chance_reshuffle(rng))
            continue
        if everyone:
            offers = [(s, state.legal_actions(s)) for s in state.actors()]
            seat, acts = offers[0] if len(offers) == 1 else rng.choice(offers)
            state.apply(rng.choice(acts), seat, check=False)
        elif lazy:
            state.apply(state.legal_action(rng.randrange(state.legal_count())), check=False)
        else:
            acts = state.legal_actions()
            state.apply(rng.choice(acts), check=False)
        decisions += 1
    return decisions


def measure_rummy500(seconds: float, seed: int, preset: str = "standard", players: int = 2, lazy: bool = False) -> dict[str, Any]:
    """Random playouts of complete rounds for about ``seconds``.

    With 2 players only the seat to move is asked; with more, every actor is
    (see the module docstring).
    """
    rules = Rules.preset_rules(preset, players=players)
    rng = random.Random(seed)
    everyone = players > 2
    games = decisions = 0
    clock = peers.CLOCK[0]
    start = clock()
    deadline = start + seconds
    while True:
        decisions += play_round(RoundState.new(rules, games % players, rng), rng, everyone, lazy)
        games += 1
        if clock() >= deadline:
            break
    return _result(f"rummy500 ({preset} {players}p{' lazy' if lazy else ''})", games, decisions, clock() - start)


def _line(preset: str, players: int, lazy: bool = False) -> Any:
    def fn(seconds: float, seed: int) -> dict[str, Any]:
        return measure_rummy500(seconds, seed, preset, players, lazy)

    return fn


def _measured(lines: list[tuple[str, str, int, bool]]) -> list[tuple[str, str, int, bool]]:
    """The lines this engine can run (an older engine has no ``legal_count``)."""
    return [line for line in lines if not line[3] or hasattr(RoundState, "legal_count")]


def _warm(preset: str, players: int, lazy: bool, seed: int) -> None:
    """Play a line untimed for :data:`WARM_S` seconds (memo tables filled)."""
    measure_rummy500(WARM_S, seed + 1000, preset, players, lazy)


def _baseline(src: Path, seconds: float, reps: int, seed: int, cpu: bool = False) -> dict[str, float]:
    """µs per decision of each line for the engine in ``src`` (checked by :func:`engine_folder.engine_src`), measured in a subprocess."""
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [sys.executable, __file__, "--json", "--no-peers", "--seconds", str(seconds), "--reps", str(reps), "--seed", str(seed)]
        + (["--cpu"] if cpu else []),
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark table."""
    parser = argparse.ArgumentParser(prog="speed.py", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per repetition")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (>= 5); the median is reported")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-peers", action="store_true", help="measure rummy500 only")
    parser.add_argument("--baseline", metavar="DIR", help="also measure the engine in DIR (a checkout or its src folder) and compare")
    parser.add_argument("--compiled", metavar="DIR", help="also measure the compiled build in DIR (scripts/build_compiled.py)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one repetition instead")
    parser.add_argument("--cpu", action="store_true", help="time CPU seconds of the process, not wall time (steadier on a loaded machine)")
    args = parser.parse_args(argv)
    if args.reps < peers.MIN_REPS:
        parser.error(f"--reps must be at least {peers.MIN_REPS} (the median of fewer is too noisy), not {args.reps}")
    if not args.seconds > 0:  # (NaN too)
        parser.error(f"--seconds must be more than 0, not {args.seconds:g}")
    baseline = checked_engine(parser, "--baseline", args.baseline)
    compiled_src = checked_engine(parser, "--compiled", args.compiled)
    if args.cpu:
        peers.use_cpu_clock()
    if args.profile:
        import cProfile
        import pstats

        _warm("standard", 2, False, args.seed)
        prof = cProfile.Profile()
        prof.enable()
        res = measure_rummy500(args.seconds, args.seed)
        prof.disable()
        print(f"{res['us_per_decision']:.1f} µs/decision under the profiler")
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return 0
    if args.json:
        found = {}
        for name, p, n, lazy in _measured(LINES):
            _warm(p, n, lazy, args.seed)
            found[name] = median_of(_line(p, n, lazy), args.reps, seconds=args.seconds, seed=args.seed)
        print(json.dumps({name: res["us_per_decision"] for name, res in found.items()}))
        return 0
    rows: list[tuple[str, Any]] = []
    for name, p, n, lazy in _measured(LINES):
        _warm(p, n, lazy, args.seed)
        rows.append((name, _line(p, n, lazy)))
    if not args.no_peers:
        rows += [("OpenSpiel gin_rummy", measure_openspiel), ("RLCard gin-rummy", measure_rlcard)]
    clock = "CPU time" if args.cpu else "wall time"
    print(f"random legal play, median of {args.reps} reps of ~{args.seconds:g} s of {clock} (Python {sys.version.split()[0]})")
    header = f"{'engine':<22} {'µs/decision':>12} {'min':>8} {'max':>8} {'decisions/s':>12} {'rounds/s':>9}"
    print(header)
    print("-" * len(header))
    results = {}
    before = compiled = None
    for i, (name, fn) in enumerate(rows):
        if i == 1 and baseline is not None:
            # Measured between our two lines, so that both versions see the same load.
            before = _baseline(baseline, args.seconds, args.reps, args.seed, args.cpu)
            for bname, us in before.items():
                print(f"{'(baseline) ' + bname.removeprefix('rummy500 '):<22} {us:>12.2f}")
        if i == 1 and compiled_src is not None:
            compiled = _baseline(compiled_src, args.seconds, args.reps, args.seed, args.cpu)
            for bname, us in compiled.items():
                print(f"{'(compiled) ' + bname.removeprefix('rummy500 '):<22} {us:>12.2f}")
        try:
            res = median_of(fn, args.reps, seconds=args.seconds, seed=args.seed)
        except ModuleNotFoundError as exc:
            print(f"{name:<22} not measured: {exc}")
            continue
        results[name] = res
        spread = res["us_per_decision_reps"]
        print(
            f"{name:<22} {res['us_per_decision']:>12.2f} {min(spread):>8.2f} {max(spread):>8.2f} "
            f"{res['decisions_per_s']:>12,.0f} {res['games_per_s']:>9.1f}"
        )
    print()
    ours = results.get(LINES[0][0])
    if ours is not None:
        for name, res in results.items():
            if name.startswith("rummy500"):
                continue
            ratio = ours["us_per_decision"] / res["us_per_decision"]
            print(f"rummy500 standard 2p / {name}: {ratio:.2f}x the time per decision")
            if compiled and LINES[0][0] in compiled:
                ratio = compiled[LINES[0][0]] / res["us_per_decision"]
                print(f"(compiled) standard 2p / {name}: {ratio:.2f}x the time per decision")
    if before:
        for name, *_ in LINES:
            if name in results and name in before:
                ratio = results[name]["us_per_decision"] / before[name]
                print(f"{name} / baseline: {ratio:.2f}x the time per decision ({1 / ratio:.2f}x as fast)")
    if compiled:
        for name, *_ in LINES:
            if name in results and name in compiled:
                ratio = compiled[name] / results[name]["us_per_decision"]
                print(f"(compiled) {name.removeprefix('rummy500 ')} / pure Python: {ratio:.2f}x the time per decision ({1 / ratio:.2f}x as fast)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
