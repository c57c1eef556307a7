"""Search benchmark: the ``hard`` bot's playouts per second and decision times, and copy() + view().

``hard`` (seat 0) plays seeded 2-player standard rounds against ``medium``
with a fixed number of playouts per searched decision, so two runs of this
script -- one per version of the engine -- do the same work and differ only
in speed. Printed, as medians over the run:

* playouts per second over the searched decisions (each playout copies a
  determinized position and plays it out with the medium heuristics);
* ``hard``'s decision time, over every decision it made on its turn, over
  the searched ones and over those with at most two cards in hand;
* the engine actions applied per second inside the searches (the candidates
  and every move of their playouts: a measure of search speed that does not
  depend on how long a version's playouts are);
* the cost of ``RoundState.copy()`` and of ``RoundState.view(seat)``, the two
  calls search makes constantly, measured apart on the positions met.

The figures move with the machine's load: compare versions within one sitting
(run them back to back, or alternate), never against a number written down.
``--compiled DIR`` runs the same games on the compiled build of
``scripts/build_compiled.py`` (``build/compiled``) in a child process, right
after this process's pure-Python run, and prints both columns; a fingerprint
of every action played shows that the games were the same. ``--baseline DIR``
runs another version's ``src`` folder the same way (its bots may play other
games: compare the rates, not the games). Either folder may be a checkout
(its ``src`` is used); one without a ``rummy500`` package, or one a child
process does not import rummy500 from, is refused (one line, exit 2).
``--to-end`` plays every playout to the end of the round, as ``hard`` did before its 4-turn horizon, so that
an old version and this one do the same kind of work; without it each
version plays out as far as its default says (the ``playouts`` line names it).

Usage: ``python benchmarks/search.py [--rounds 4] [--iterations 24] [--seed 0] [--to-end] [--compiled DIR] [--baseline DIR]``
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_folder import checked_engine  # noqa: E402

from rummy500.bots import make_bot  # noqa: E402
from rummy500.bots.hard import HardBot  # noqa: E402
from rummy500.rules import Rules  # noqa: E402
from rummy500.state import Phase, RoundState  # noqa: E402


def _public(state: RoundState) -> Any:
    """The state's public part: a field, a method in older versions, the state itself in the oldest."""
    pub = getattr(state, "public", state)
    return pub() if callable(pub) else pub


def measure(rounds: int, iterations: int, seed: int, *, to_end: bool = False) -> dict[str, Any]:
    """Play ``rounds`` rounds of ``hard`` (seat 0) against ``medium``; return the medians.

    ``to_end``: playouts run to the end of the round (in a version whose
    ``hard`` has a horizon; before it had one they always did).
    """
    rules = Rules.preset_rules("standard", players=2)
    options: dict[str, Any] = {"iterations": iterations}
    has_horizon = "horizon" in inspect.signature(HardBot.__init__).parameters
    if to_end and has_horizon:
        options["horizon"] = None
    hard = make_bot("hard", seed, **options)
    horizon = getattr(hard, "horizon", None) if has_horizon else None
    turns_ahead = getattr(hard, "turns_ahead", None)
    ahead = horizon if horizon is None or turns_ahead is None else turns_ahead(rules)
    medium = make_bot("medium", seed + 1)
    # Every action applied (by the game and by the searches) is counted; the wrapper costs
    # every version alike.
    applied = [0]
    apply = RoundState.apply

    def counted(self: RoundState, *args: Any, **kwargs: Any) -> None:
        applied[0] += 1
        apply(self, *args, **kwargs)

    RoundState.apply = counted
    try:
        return _play(rounds, seed, rules, hard, medium, applied) | {"playouts": "to the end" if ahead is None else f"{ahead} turns"}
    finally:
        RoundState.apply = apply


def _play(rounds: int, seed: int, rules: Rules, hard: Any, medium: Any, applied: list[int]) -> dict[str, Any]:
    rng = random.Random(seed)
    decisions: list[float] = []
    trivial: list[float] = []
    searched: list[float] = []
    rates: list[float] = []
    action_rates: list[float] = []
    search_actions = 0
    search_playouts = 0
    positions: list[RoundState] = []
    pc = time.perf_counter
    played = hashlib.sha256()
    for r in range(rounds):
        state = RoundState.new(rules, r % 2, rng)
        while not state.is_over:
            if _public(state).phase is Phase.SHUFFLE:
                state.apply(state.chance_reshuffle(rng))
                continue
            seat = _public(state).to_move
            positions.append(state.copy())
            if seat == 0:
                hard.last_stats = {}
                before = applied[0]
                t0 = pc()
                action = hard.act(state.view(0), rng)
                spent = pc() - t0
                decisions.append(spent)
                if len(state.hands[0]) <= 2:
                    trivial.append(spent)
                stats = hard.last_stats
                if stats.get("playouts"):
                    searched.append(spent)
                    rates.append(stats["playouts"] / max(stats["seconds"], 1e-9))
                    action_rates.append((applied[0] - before) / max(stats["seconds"], 1e-9))
                    search_actions += applied[0] - before
                    search_playouts += int(stats["playouts"])
            else:
                action = medium.act(state.view(seat), rng)
            assert action is not None
            played.update(f"{seat}:{action};".encode())
            state.apply(action, seat)
    copies: list[float] = []
    views: list[float] = []
    for p in positions:
        t0 = pc()
        for _ in range(10):
            p.copy()
        t1 = pc()
        for _ in range(10):
            p.view(_public(p).to_move)
            p._legal_cache = None  # a fresh position each time, as in a playout
        t2 = pc()
        copies.append((t1 - t0) / 10)
        views.append((t2 - t1) / 10)
    return {
        "decisions": len(decisions),
        "searched": len(searched),
        "playouts_per_s": statistics.median(rates) if rates else 0.0,
        "actions_per_s": statistics.median(action_rates) if action_rates else 0.0,
        "search_actions": search_actions,
        "search_playouts": search_playouts,
        "decision_ms": statistics.median(decisions) * 1e3,
        "trivial": len(trivial),
        "trivial_ms": statistics.median(trivial) * 1e3 if trivial else 0.0,
        "searched_ms": statistics.median(searched) * 1e3 if searched else 0.0,
        "copy_us": statistics.median(copies) * 1e6,
        "view_us": statistics.median(views) * 1e6,
        "games": played.hexdigest()[:16],
    }


def measure_in(folder: Path, rounds: int, iterations: int, seed: int, *, to_end: bool = False) -> dict[str, Any]:
    """:func:`measure` for the engine in ``folder`` (checked by :func:`engine_folder.engine_src`), first on the path of a child process."""
    env = dict(os.environ, PYTHONPATH=str(folder))
    cmd = [sys.executable, __file__, "--json", "--rounds", str(rounds), "--iterations", str(iterations), "--seed", str(seed)]
    if to_end:
        cmd.append("--to-end")
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"search.py: the run on {folder} failed:\n{out.stderr[-2000:]}")
    found: dict[str, Any] = json.loads(out.stdout)
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark lines."""
    parser = argparse.ArgumentParser(prog="search.py", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4, help="rounds of hard against medium")
    parser.add_argument("--iterations", type=int, default=24, help="hard's playouts per searched decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--to-end", action="store_true", help="play every playout to the end of the round")
    other = parser.add_mutually_exclusive_group()
    other.add_argument("--compiled", metavar="DIR", help="also run the compiled build in DIR (scripts/build_compiled.py)")
    other.add_argument("--baseline", metavar="DIR", help="also run the engine and bots of another version's src folder")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    if args.iterations < 1:
        parser.error(f"--iterations must be at least 1, not {args.iterations}")
    flag = "--compiled" if args.compiled else "--baseline"
    folder = checked_engine(parser, flag, args.compiled or args.baseline)
    res = measure(args.rounds, args.iterations, args.seed, to_end=args.to_end)
    if args.json:
        print(json.dumps(res))
        return 0
    print(f"hard vs medium, {args.rounds} standard rounds, {args.iterations} playouts a search (Python {sys.version.split()[0]})")
    if folder is not None:
        other_res = measure_in(folder, args.rounds, args.iterations, args.seed, to_end=args.to_end)
        if args.compiled:
            return _side_by_side(("pure Python", res), ("compiled", other_res), same_games=True)
        return _side_by_side(("baseline", other_res), ("this version", res), same_games=False)
    print(f"  hard decisions           {res['decisions']:>10} ({res['searched']} searched)")
    print(f"  playouts                 {res['playouts']:>10}")
    print(f"  playouts/s (median)      {res['playouts_per_s']:>10.0f}")
    print(f"  actions/s in searches    {res['actions_per_s']:>10.0f} (median; {res['search_actions']} in all)")
    print(f"  decision time, median    {res['decision_ms']:>10.2f} ms (searched: {res['searched_ms']:.1f} ms)")
    print(f"  2-card hands, median     {res['trivial_ms']:>10.2f} ms ({res['trivial']} decisions)")
    print(f"  copy()                   {res['copy_us']:>10.2f} µs")
    print(f"  view(seat) with legal    {res['view_us']:>10.2f} µs")
    return 0


def _side_by_side(first: tuple[str, dict[str, Any]], second: tuple[str, dict[str, Any]], *, same_games: bool) -> int:
    """Print two versions' figures in two columns and their ratio (second / first).

    ``same_games``: the two must have played the same games (pure and
    compiled: the same code); the run fails if they did not. Two versions
    whose bots differ play other games: their rates compare, not their games.
    """
    (name_a, a), (name_b, b) = first, second
    rows = [
        ("hard decisions", "decisions", "{:.0f}"),
        ("searched decisions", "searched", "{:.0f}"),
        ("playouts/s (median)", "playouts_per_s", "{:.0f}"),
        ("actions/s in searches (median)", "actions_per_s", "{:.0f}"),
        ("decision time, median ms", "decision_ms", "{:.2f}"),
        ("searched decision, median ms", "searched_ms", "{:.1f}"),
        ("2-card hands, median ms", "trivial_ms", "{:.2f}"),
        ("copy() µs", "copy_us", "{:.2f}"),
        ("view(seat) with legal µs", "view_us", "{:.2f}"),
    ]
    print(f"  {'':32}{name_a:>14}{name_b:>14}{'ratio':>8}")
    print(f"  {'playouts':32}{a['playouts']:>14}{b['playouts']:>14}")
    for label, key, fmt in rows:
        ratio = b[key] / a[key] if a[key] else float("nan")
        print(f"  {label:32}{fmt.format(a[key]):>14}{fmt.format(b[key]):>14}{ratio:>7.2f}x")
    same = a["games"] == b["games"]
    print(f"  games played: {a['games']} / {b['games']} ({'the same' if same else 'DIFFERENT' if same_games else 'other games'})")
    return 0 if same or not same_games else 1


if __name__ == "__main__":
    raise SystemExit(main())
