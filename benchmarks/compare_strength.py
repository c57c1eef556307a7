"""Compare two ``strength.py --out`` runs played on the same seed, deal by deal.

Two runs of ``benchmarks/strength.py`` with the same ``--seed``, ``--games``
and ``--duplicate`` play the same deals (every round of game ``i`` is dealt
the same cards in both runs as long as the match lasts that long); only the
settings of the bots differ. This prints, per cell both runs measured:

* each run's wins, win rate and 95% Wilson interval, and its mean round
  margin (the level's round score less the opponents', per round) with a 95%
  interval over deals;
* the paired differences (second run less first): win rate over the games
  both played, and round margin over the rounds both played (round ``k`` of
  game ``i`` in one run against round ``k`` of game ``i`` in the other), each
  with a 95% interval over deals (a deal's games are one unit, so their
  correlation is accounted for).

Usage: ``python benchmarks/compare_strength.py base.json candidate.json``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any

from rummy500.sim.stats import wilson


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% interval."""
    if not xs:
        return 0.0, 0.0
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("inf")
    return m, 1.96 * statistics.stdev(xs) / len(xs) ** 0.5


def _deals(n: int, per_deal: int) -> list[list[int]]:
    return [list(range(i, min(n, i + per_deal))) for i in range(0, n, per_deal)]


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Lines describing cell ``a`` against cell ``b`` (``b`` less ``a``)."""
    per = max(1, int(a.get("duplicate") or 1))
    n = min(len(a["outcomes"]), len(b["outcomes"]))
    lines = []
    for name, c in (("first", a), ("second", b)):
        lo, hi = wilson(c["wins"], c["games"])
        by_deal = [
            statistics.fmean(m for g in d for m in c["round_margins"][g])
            for d in _deals(len(c["round_margins"]), per)
            if any(c["round_margins"][g] for g in d)
        ]
        mm, mh = _mean_ci(by_deal)
        lines.append(
            f"{name}: {c['wins']:g}/{c['games']} = {c['win_rate']:.1%} [{lo:.1%}, {hi:.1%}], "
            f"round margin {mm:+.1f} ± {mh:.1f}, median decision {c['median_decision_s'] * 1000:.0f} ms"
        )
    win_diff = []
    margin_diff = []
    for d in _deals(n, per):
        win_diff.append(statistics.fmean(b["outcomes"][g] - a["outcomes"][g] for g in d))
        ds: list[float] = []
        for g in d:
            ra, rb = a["round_margins"][g], b["round_margins"][g]
            ds.extend(rb[k] - ra[k] for k in range(min(len(ra), len(rb))))
        if ds:
            margin_diff.append(statistics.fmean(ds))
    wm, wh = _mean_ci(win_diff)
    mm, mh = _mean_ci(margin_diff)
    lines.append(f"second - first over {n} games ({len(win_diff)} deals): win rate {wm:+.1%} ± {wh:.1%}, round margin {mm:+.1f} ± {mh:.1f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the comparison of two ``strength.py --out`` files (exit 2, one line, on a bad file)."""
    parser = argparse.ArgumentParser(
        prog="compare_strength.py", description=__doc__.splitlines()[0], epilog="The second run is compared against the first."
    )
    parser.add_argument("base", help="the first run's strength.py --out file")
    parser.add_argument("candidate", help="the second run's strength.py --out file, played on the same seed")
    args = parser.parse_args(argv)
    runs = []
    for path in (args.base, args.candidate):
        try:
            with open(path) as f:
                run = json.load(f)
        except OSError as exc:
            parser.error(f"cannot read {path}: {exc.strerror or exc}")
        except ValueError as exc:
            parser.error(f"{path} is not JSON: {exc}")
        if not isinstance(run, dict) or not isinstance(run.get("cells"), list) or "seed" not in run:
            parser.error(f"{path} is not a strength.py --out file (no seed and cells)")
        runs.append(run)
    if runs[0]["seed"] != runs[1]["seed"]:
        print(f"compare_strength: different seeds ({runs[0]['seed']} and {runs[1]['seed']}): the deals differ", file=sys.stderr)
    cells = {(c["level"], c["opponent"], c["table"]): c for c in runs[0]["cells"]}
    for c in runs[1]["cells"]:
        key = (c["level"], c["opponent"], c["table"])
        if key in cells:
            print(" ".join(key))
            for line in compare(cells[key], c):
                print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
