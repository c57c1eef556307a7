"""Recompute the shipped Costa Rican Rummy charts (src/rummy500/casino/data/charts.json).

Runs the exact analysis for the benchmark rules and each of the seed's variants
(several minutes) and writes the charts with their exact figures (for the
benchmark rules also the exact edge of playing the chart). The benchmark
``benchmarks/casino_exact.py`` recomputes them and checks they are unchanged.

Usage: ``python scripts/casino_precompute.py``
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rummy500.casino.rules import BENCHMARK
from rummy500.casino.strategy import build_chart, shipped_rules

OUT = Path(__file__).resolve().parent.parent / "src/rummy500/casino/data/charts.json"


def main(argv: list[str] | None = None) -> None:
    """Recompute and write every shipped chart (``--help`` says so and computes nothing)."""
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0] + " Takes several minutes.").parse_args(argv)
    charts = []
    for rules in shipped_rules():
        t0 = time.perf_counter()
        chart = build_chart(rules, basic=rules == BENCHMARK)
        charts.append(chart.to_dict())
        basic = "" if chart.basic_edge is None else f", playing the chart {chart.basic_edge:.4f}%"
        print(f"{rules.describe()}: {chart.edge:.4f}%{basic} ({time.perf_counter() - t0:.0f} s)", flush=True)
    OUT.write_text(json.dumps({"charts": charts}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
