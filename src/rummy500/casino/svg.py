"""The basic-strategy chart as a standalone SVG image (no dependencies)."""

from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape

from rummy500.casino.strategy import UPS, Chart

__all__ = ["chart_svg"]

_COLOURS = {"H": "#f4f4f4", "S": "#f7d54a", "D": "#6cc36c", "P": "#6aa6e8", "R": "#e07b6a"}
_UP = {1: "A", 10: "10"}


def _rows(chart: Chart) -> list[tuple[str, str]]:
    rows = [(f"H{t}", f"{t}") for t in range(5, 20)]
    rows += [(f"S{t}", f"A,{t - 11}") for t in range(13, 21)]
    rows += [(f"P{v}", f"{_UP.get(v, str(v))},{_UP.get(v, str(v))}") for v in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)]
    return [(k, label) for k, label in rows if k in chart.rows]


def chart_svg(chart: Chart) -> str:
    """The chart: two-card rows against each up-card, coloured by action, then the suited exceptions.

    >>> from rummy500.casino.strategy import chart_for
    >>> chart_svg(chart_for()).startswith('<svg')
    True
    """
    cw, ch, left = 44, 22, 64
    described = textwrap.wrap(chart.rules.describe(), 75)
    top = 62 + 16 * len(described)
    rows = _rows(chart)
    notes = chart.exception_lines()
    width = left + cw * len(UPS) + 20
    grid_bottom = top + ch * len(rows)
    height = grid_bottom + 70 + 16 * len(notes)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="10" y="20" font-size="15" font-weight="bold">Costa Rican Rummy basic strategy (house edge {chart.edge:.2f}%)</text>',
        *(f'<text x="10" y="{38 + 16 * i}">{escape(line)}</text>' for i, line in enumerate(described)),
        f'<text x="10" y="{top - 8}">hand</text>',
    ]
    for j, up in enumerate(UPS):
        x = left + j * cw + cw / 2
        out.append(f'<text x="{x}" y="{top - 8}" text-anchor="middle" font-weight="bold">{_UP.get(up, str(up))}</text>')
    for i, (key, label) in enumerate(rows):
        y = top + i * ch
        if key in ("S13", "P2"):
            out.append(f'<line x1="10" y1="{y}" x2="{width - 10}" y2="{y}" stroke="black"/>')
        out.append(f'<text x="12" y="{y + 15}">{label}</text>')
        for j, up in enumerate(UPS):
            code = chart.cell(key, up)
            x = left + j * cw
            out.append(f'<rect x="{x}" y="{y}" width="{cw}" height="{ch}" fill="{_COLOURS[code[0]]}" stroke="#888"/>')
            out.append(f'<text x="{x + cw / 2}" y="{y + 15}" text-anchor="middle">{code}</text>')
    y = grid_bottom + 18
    legend = "H hit  S stand  P split  Dh/Ds double, else hit/stand  Rh/Rs/Rp surrender, else hit/stand/split"
    out.append(f'<text x="10" y="{y}">{escape(legend)}</text>')
    out.append(f'<text x="10" y="{y + 24}" font-weight="bold">Suited two-card exceptions (bonus draws):</text>')
    for k, line in enumerate(notes):
        out.append(f'<text x="16" y="{y + 42 + 16 * k}">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
