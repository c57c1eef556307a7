"""Monte Carlo check of the exact house edge: basic strategy over many rounds of the real game.

Plays ``--hands`` rounds (default 10 million) of the game engine by the computed
basic strategy from a continuous shuffler, on ``--jobs`` processes (at most 2 on
the shared machine; run it under ``nice``), and prints the simulated house edge
with its 95% interval beside the exact figure, the rounds per second and the
wall time (under 1000 rounds it says the interval is too short to compare).
``--hands`` and ``--jobs`` below 1, or a negative ``--seed``, are refused
with one line (exit 2).

Usage: ``nice python benchmarks/casino_simulate.py [--hands 10000000] [--jobs 2] [--seed 1]``
"""

from __future__ import annotations

import argparse
import sys
import time

from rummy500.casino.rules import BENCHMARK
from rummy500.casino.simulate import MIN_ROUNDS, simulate
from rummy500.casino.strategy import chart_for


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="casino_simulate.py", description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=10_000_000, help="rounds to play, at least 1 (default 10000000)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes, at least 1 (default 2)")
    p.add_argument("--seed", type=int, default=1, help="0 or more (default 1)")
    ns = p.parse_args(argv)
    for flag, value, least in (("--hands", ns.hands, 1), ("--jobs", ns.jobs, 1), ("--seed", ns.seed, 0)):
        if value < least:
            p.error(f"{flag} must be at least {least}, not {value}")
    chart = chart_for(BENCHMARK)
    assert chart is not None
    t0 = time.perf_counter()
    res = simulate(BENCHMARK, chart, ns.hands, ns.seed, ns.jobs)
    secs = time.perf_counter() - t0
    exact = chart.edge if chart.basic_edge is None else chart.basic_edge
    inside = res.agrees(exact)  # None: too few rounds (or all alike) for the interval to mean anything
    print(f"exact (optimal play)     {chart.edge:.4f}%")
    print(f"exact (playing the chart) {exact:.4f}%")
    print(f"simulated (basic strat.) {res.edge:.4f}% \u00b1 {res.half_width:.4f} (95%), sd {res.sd:.4f}, bonuses {100 * res.bonus / res.rounds:.4f}%")
    print(f"{res.rounds} rounds on {ns.jobs} processes in {secs:.0f} s ({res.rounds / secs:,.0f} rounds/s)")
    if inside is None:
        print(f"too few rounds to compare (an interval needs at least {MIN_ROUNDS} rounds, not all alike)")
        return 0
    print("the exact figure for the chart is inside the interval" if inside else "the exact figure is OUTSIDE the interval")
    return 0 if inside else 1


if __name__ == "__main__":
    sys.exit(main())
