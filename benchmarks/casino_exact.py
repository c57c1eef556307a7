"""Full exact analysis of Costa Rican Rummy: every shipped rule set, and the readings.

Recomputes the house edge of the benchmark rules and of each of the seed's
variants from nothing (the tests recompute only the dealer-ten part), prints each
beside the published figure with the time it took, checks the result against the
shipped charts (``src/rummy500/casino/data/charts.json``), and then prints the
edge under each alternative reading of what the seed leaves open.

Usage: ``python benchmarks/casino_exact.py [--no-readings]``
"""

from __future__ import annotations

import argparse
import sys
import time

from rummy500.casino.exact import house_edge
from rummy500.casino.rules import BENCHMARK, VARIANTS
from rummy500.casino.strategy import build_chart, chart_for

READINGS = (
    ("A-2-3 is not a straight", {"ace_low_straight": False}),
    ("Q-K-A is not a straight", {"ace_high_straight": False}),
    ("neither A-2-3 nor Q-K-A", {"ace_low_straight": False, "ace_high_straight": False}),
    ("a bonus replaces the hand's result", {"bonus_adds": False}),
)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-readings", action="store_true", help="skip the alternative readings")
    ns = p.parse_args()
    ok = True
    t0 = time.perf_counter()
    base = build_chart(BENCHMARK)
    secs = time.perf_counter() - t0
    print(f"{'rules':<32}{'published':>10}{'exact':>10}{'seconds':>9}  shipped")
    shipped = chart_for(BENCHMARK, compute=False)
    same = shipped is not None and abs(shipped.ev - base.ev) < 1e-12 and shipped.rows == base.rows
    ok &= same and abs(base.edge - 1.00) <= 0.02
    print(f"{'benchmark (edge)':<32}{1.00:>9.2f}%{base.edge:>9.4f}%{secs:>9.1f}  {'same' if same else 'DIFFERENT'}")
    for name, rules, published in VARIANTS:
        t0 = time.perf_counter()
        chart = build_chart(rules)
        secs = time.perf_counter() - t0
        effect = chart.edge - base.edge
        shipped = chart_for(rules, compute=False)
        same = shipped is not None and abs(shipped.ev - chart.ev) < 1e-12 and shipped.rows == chart.rows
        ok &= same and abs(effect - published) <= 0.02
        print(f"{name + ' (effect)':<32}{published:>+9.2f}%{effect:>+9.4f}%{secs:>9.1f}  {'same' if same else 'DIFFERENT'}")
    if not ns.no_readings:
        print(f"\n{'reading (otherwise benchmark)':<40}{'edge':>9}{'vs chosen':>11}")
        for name, options in READINGS:
            res = house_edge(BENCHMARK.with_options(**options))
            print(f"{name:<40}{res.edge:>8.4f}%{res.edge - base.edge:>+10.4f}")
    print("all within 0.02 of the published figures and as shipped" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
