"""Readable positions for the review tests."""

from __future__ import annotations

from typing import Any


def layoff_position(last: list[dict[str, Any]]) -> dict[str, Any]:
    """Bob melds three kings; Ann holds KS and draws 4D: laying off KS, then discarding 4D, goes out.

    ``last`` are the actions after Ann's draw (move 5 on).
    """
    return {
        "rules": {"preset": "standard"},
        "players": ["Ann", "Bob"],
        "dealer": 0,
        "deal": {
            "hands": [["KS"], ["KH", "KD", "KC", "QS", "QH", "JD", "9C", "8H", "7S"]],
            "stock": ["2C", "4D", "6C", "3D", "5S", "8C", "TD", "2H", "9S", "4C"],
            "discard": ["3C"],
        },
        "actions": [
            {"p": 1, "draw": "stock"},
            {"p": 1, "meld": ["KH", "KD", "KC"]},
            {"p": 1, "discard": "2C"},
            {"p": 0, "draw": "stock"},
            *last,
        ],
    }
