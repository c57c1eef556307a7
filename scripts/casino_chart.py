"""Write docs/casino-strategy.svg, the computed basic-strategy chart of the benchmark rules.

Usage: ``python scripts/casino_chart.py``
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rummy500.casino.strategy import chart_for
from rummy500.casino.svg import chart_svg

OUT = Path(__file__).resolve().parent.parent / "docs/casino-strategy.svg"


def main(argv: list[str] | None = None) -> None:
    """Render the shipped benchmark chart (``--help`` says so and writes nothing)."""
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    chart = chart_for()
    assert chart is not None
    OUT.write_text(chart_svg(chart), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
