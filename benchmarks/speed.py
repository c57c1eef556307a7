"""Speed benchmark: random legal play of complete 2-player standard rounds.

At every decision the player to move chooses uniformly among
``legal_actions()`` -- enumeration is part of what is timed, as are the deal
and ``apply``. Prints rounds/s, decisions/s and µs per decision (median of at
least 5 repetitions). With the ``bench`` extra installed
(``pip install -e '.[bench]'``) the same run measures OpenSpiel's
``gin_rummy`` and RLCard's gin-rummy engine and prints the ratios.

Usage: ``python benchmarks/speed.py [--seconds 2] [--reps 5] [--no-peers] [--profile]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import _result, measure_openspiel, measure_rlcard, median_of  # noqa: E402

from rummy500.rules import Rules  # noqa: E402
from rummy500.state import RoundState  # noqa: E402


def measure_rummy500(seconds: float, seed: int, preset: str = "standard") -> dict[str, Any]:
    """Random playouts of complete 2-player rounds for about ``seconds``."""
    rules = Rules.preset_rules(preset, players=2)
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = RoundState.new(rules, games % 2, rng)
        while not state.is_over:
            acts = state.legal_actions()
            state.apply(rng.choice(acts), check=False)
            decisions += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    return _result(f"rummy500 ({preset})", games, decisions, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per repetition")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (>= 5); the median is reported")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-peers", action="store_true", help="measure rummy500 only")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one repetition instead")
    args = parser.parse_args(argv)
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        res = measure_rummy500(args.seconds, args.seed)
        prof.disable()
        print(f"{res['us_per_decision']:.1f} µs/decision under the profiler")
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return 0
    rows = [("rummy500 standard", measure_rummy500)]
    if not args.no_peers:
        rows += [("OpenSpiel gin_rummy", measure_openspiel), ("RLCard gin-rummy", measure_rlcard)]
    print(f"random legal play, median of {args.reps} reps of ~{args.seconds:g} s (Python {sys.version.split()[0]})")
    header = f"{'engine':<22} {'µs/decision':>12} {'min':>8} {'max':>8} {'decisions/s':>12} {'rounds/s':>9}"
    print(header)
    print("-" * len(header))
    ours = None
    results = {}
    for name, fn in rows:
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
        if ours is None:
            ours = res["us_per_decision"]
    if ours is not None and len(results) > 1:
        print()
        for name, res in list(results.items())[1:]:
            ratio = ours / res["us_per_decision"]
            print(f"rummy500 / {name}: {ratio:.2f}x the time per decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
