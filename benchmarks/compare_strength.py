"""Compare two ``strength.py --out`` runs played on the same seed, deal by deal.

Two runs of ``benchmarks/strength.py`` with the same ``--seed``, ``--games``,
``--duplicate`` and cells before the one compared play the same deals (every round of game ``i`` is dealt
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

Cells are matched on (preset, level, opponent, table). Each cell of a run is
dealt from its own seed (``--seed`` plus the cell's place in the run), so two
runs deal a cell alike only when the same cells come before it: a pair of
cells whose seed, duplicate deals or target differ is refused (exit 2, one
line), as are two files with no cell in common.

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


#: The settings two cells must share to be dealt the same cards and played to the same end.
SAME = ("seed", "duplicate", "target")


def cell_key(cell: dict[str, Any]) -> tuple[str, str, str, str]:
    """A cell's (preset, level, opponent, table); a file from before presets is all ``standard``."""
    return (str(cell.get("preset") or "standard"), str(cell["level"]), str(cell["opponent"]), str(cell["table"]))


def cell_label(key: tuple[str, str, str, str]) -> str:
    """``hard vs medium at 2p, preset standard``."""
    preset, level, opponent, table = key
    return f"{level} vs {opponent} at {table}, preset {preset}"


def settings_differ(a: dict[str, Any], b: dict[str, Any], run_seeds: tuple[Any, Any]) -> str | None:
    """Why cells ``a`` and ``b`` were not dealt the same games (None when they were).

    Each cell of a ``strength.py`` run is dealt from its own seed (the run's
    ``--seed`` plus the cell's place in the run), so the same ``--seed`` with
    other ``--pairs``, ``--tables`` or ``--presets`` before a cell deals it
    other cards. A cell without a seed (an old file) falls back on its run's.
    """
    for field in SAME:
        x, y = a.get(field), b.get(field)
        if field == "seed" and x is None and y is None:
            x, y = run_seeds
        if field == "duplicate":
            x, y = max(1, int(x or 1)), max(1, int(y or 1))
        if x != y:
            return f"{field} ({x!r} and {y!r})"
    return None


def main(argv: list[str] | None = None) -> int:
    """Print the comparison of two ``strength.py --out`` files (exit 2, one line, on a bad file or cells that differ)."""
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
        try:
            by_key = {cell_key(c): c for c in run["cells"]}
        except (KeyError, TypeError, AttributeError):
            parser.error(f"{path} is not a strength.py --out file (a cell without level, opponent and table)")
        runs.append((run, by_key))
    (first, cells), (second, others) = runs
    common = [key for key in cells if key in others]
    if not common:
        print(f"compare_strength.py: error: no cells in common: {args.base} and {args.candidate} measured no same pair, table and preset", file=sys.stderr)
        return 2
    for key in common:
        why = settings_differ(cells[key], others[key], (first["seed"], second["seed"]))
        if why is not None:
            print(
                f"compare_strength.py: error: {cell_label(key)}: the cells differ in {why}: not the same games "
                "(a cell is dealt from --seed plus its place in the run)",
                file=sys.stderr,
            )
            return 2
    for path, (run, _) in zip((args.base, args.candidate), runs, strict=True):
        if run.get("oracle"):
            print(f"{path}: {run['oracle']}")
    for key in common:
        print(cell_label(key))
        for line in compare(cells[key], others[key]):
            print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
