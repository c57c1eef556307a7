"""Monte Carlo check of the exact house edge: basic strategy over many rounds of the real game.

Plays ``--hands`` rounds (default 10 million) of the game engine by the computed
basic strategy from a continuous shuffler, on ``--jobs`` processes (at most 2 on
the shared machine; run it under ``nice``), and prints the simulated house edge
with its 95% interval beside the exact figure, the rounds per second and the
wall time.

Usage: ``nice python benchmarks/casino_simulate.py [--hands 10000000] [--jobs 2] [--seed 1]``
"""

from __future__ import annotations

import argparse
import sys
import time

from rummy500.casino.rules import BENCHMARK
from rummy500.casino.simulate import simulate
from rummy500.casino.strategy import chart_for


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=10_000_000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    ns = p.parse_args()
    chart = chart_for(BENCHMARK)
    assert chart is not None
    t0 = time.perf_counter()
    res = simulate(BENCHMARK, chart, ns.hands, ns.seed, ns.jobs)
    secs = time.perf_counter() - t0
    exact = chart.edge if chart.basic_edge is None else chart.basic_edge
    inside = abs(res.edge - exact) <= res.half_width
    print(f"exact (optimal play)     {chart.edge:.4f}%")
    print(f"exact (playing the chart) {exact:.4f}%")
    print(f"simulated (basic strat.) {res.edge:.4f}% \u00b1 {res.half_width:.4f} (95%), sd {res.sd:.4f}, bonuses {100 * res.bonus / res.rounds:.4f}%")
    print(f"{res.rounds} rounds on {ns.jobs} processes in {secs:.0f} s ({res.rounds / secs:,.0f} rounds/s)")
    print("the exact figure for the chart is inside the interval" if inside else "the exact figure is OUTSIDE the interval")
    return 0 if inside else 1


if __name__ == "__main__":
    sys.exit(main())
