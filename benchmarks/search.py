"""Search benchmark: the ``hard`` bot's playouts per second and decision times, and copy() + view().

``hard`` (seat 0) plays seeded 2-player standard rounds against ``medium``
with a fixed number of playouts per searched decision, so two runs of this
script -- one per version of the engine -- do the same work and differ only
in speed. Printed, as medians over the run:

* playouts per second over the searched decisions (each playout copies a
  determinized position and plays it out with the medium heuristics);
* ``hard``'s decision time, over every decision it made on its turn, over
  the searched ones and over those with at most two cards in hand;
* the cost of ``RoundState.copy()`` and of ``RoundState.view(seat)``, the two
  calls search makes constantly, measured apart on the positions met.

The figures move with the machine's load: compare versions within one sitting
(run them back to back, or alternate), never against a number written down.
``--compiled DIR`` runs the same games on the compiled build of
``scripts/build_compiled.py`` (``build/compiled``) in a child process, right
after this process's pure-Python run, and prints both columns; a fingerprint
of every action played shows that the games were the same.

Usage: ``python benchmarks/search.py [--rounds 4] [--iterations 24] [--seed 0] [--compiled DIR]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rummy500.bots import make_bot
from rummy500.rules import Rules
from rummy500.state import Phase, RoundState


def measure(rounds: int, iterations: int, seed: int) -> dict[str, Any]:
    """Play ``rounds`` rounds of ``hard`` (seat 0) against ``medium``; return the medians."""
    rules = Rules.preset_rules("standard", players=2)
    hard = make_bot("hard", seed, iterations=iterations)
    medium = make_bot("medium", seed + 1)
    rng = random.Random(seed)
    decisions: list[float] = []
    trivial: list[float] = []
    searched: list[float] = []
    rates: list[float] = []
    positions: list[RoundState] = []
    pc = time.perf_counter
    played = hashlib.sha256()
    for r in range(rounds):
        state = RoundState.new(rules, r % 2, rng)
        while not state.is_over:
            if state.public.phase is Phase.SHUFFLE:
                state.apply(state.chance_reshuffle(rng))
                continue
            seat = state.public.to_move
            positions.append(state.copy())
            if seat == 0:
                hard.last_stats = {}
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
            p.view(p.public.to_move)
            p._legal_cache = None  # a fresh position each time, as in a playout
        t2 = pc()
        copies.append((t1 - t0) / 10)
        views.append((t2 - t1) / 10)
    return {
        "decisions": len(decisions),
        "searched": len(searched),
        "playouts_per_s": statistics.median(rates) if rates else 0.0,
        "decision_ms": statistics.median(decisions) * 1e3,
        "trivial": len(trivial),
        "trivial_ms": statistics.median(trivial) * 1e3 if trivial else 0.0,
        "searched_ms": statistics.median(searched) * 1e3 if searched else 0.0,
        "copy_us": statistics.median(copies) * 1e6,
        "view_us": statistics.median(views) * 1e6,
        "games": played.hexdigest()[:16],
    }


def measure_in(folder: str, rounds: int, iterations: int, seed: int) -> dict[str, Any]:
    """:func:`measure` for the engine in ``folder`` (first on the path of a child process)."""
    env = dict(os.environ, PYTHONPATH=str(Path(folder).resolve()))
    cmd = [sys.executable, __file__, "--json", "--rounds", str(rounds), "--iterations", str(iterations), "--seed", str(seed)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    found: dict[str, Any] = json.loads(out.stdout)
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4, help="rounds of hard against medium")
    parser.add_argument("--iterations", type=int, default=24, help="hard's playouts per searched decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compiled", metavar="DIR", help="also run the compiled build in DIR (scripts/build_compiled.py)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    res = measure(args.rounds, args.iterations, args.seed)
    if args.json:
        print(json.dumps(res))
        return 0
    print(f"hard vs medium, {args.rounds} standard rounds, {args.iterations} playouts a search (Python {sys.version.split()[0]})")
    if args.compiled:
        return _side_by_side(res, measure_in(args.compiled, args.rounds, args.iterations, args.seed))
    print(f"  hard decisions           {res['decisions']:>10} ({res['searched']} searched)")
    print(f"  playouts/s (median)      {res['playouts_per_s']:>10.0f}")
    print(f"  decision time, median    {res['decision_ms']:>10.2f} ms (searched: {res['searched_ms']:.1f} ms)")
    print(f"  2-card hands, median     {res['trivial_ms']:>10.2f} ms ({res['trivial']} decisions)")
    print(f"  copy()                   {res['copy_us']:>10.2f} µs")
    print(f"  view(seat) with legal    {res['view_us']:>10.2f} µs")
    return 0


def _side_by_side(pure: dict[str, Any], compiled: dict[str, Any]) -> int:
    """Print the pure-Python and the compiled figures in two columns; fail if the games differed."""
    rows = [
        ("hard decisions", "decisions", "{:.0f}"),
        ("searched decisions", "searched", "{:.0f}"),
        ("playouts/s (median)", "playouts_per_s", "{:.0f}"),
        ("decision time, median ms", "decision_ms", "{:.2f}"),
        ("searched decision, median ms", "searched_ms", "{:.1f}"),
        ("2-card hands, median ms", "trivial_ms", "{:.2f}"),
        ("copy() µs", "copy_us", "{:.2f}"),
        ("view(seat) with legal µs", "view_us", "{:.2f}"),
    ]
    print(f"  {'':30}{'pure Python':>14}{'compiled':>12}{'ratio':>8}")
    for label, key, fmt in rows:
        ratio = compiled[key] / pure[key] if pure[key] else float("nan")
        print(f"  {label:30}{fmt.format(pure[key]):>14}{fmt.format(compiled[key]):>12}{ratio:>7.2f}x")
    same = pure["games"] == compiled["games"]
    print(f"  games played: {pure['games']} / {compiled['games']} ({'the same' if same else 'DIFFERENT'})")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
