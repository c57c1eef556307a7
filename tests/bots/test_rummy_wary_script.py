"""``benchmarks/rummy_wary.py``: the bot that looks at the pile before going out, against one that does not."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
try:
    import rummy_wary
finally:
    sys.path.pop(0)


def test_the_wary_seat_leaves_fewer_rummies_on_the_same_deals() -> None:
    got = rummy_wary.measure(20)
    assert len(got.margins) == 20
    # Over these deals the plain bot went out into a Rummy twice, the wary one never.
    assert (got.left_wary, got.left_plain) == (0, 2)
    mean, half = got.summary()
    assert half > 0 and abs(mean) < 50


def test_without_the_rule_nobody_leaves_a_rummy_and_both_seats_play_alike() -> None:
    got = rummy_wary.measure(4, options={"rummy_after_going_out": False})
    assert (got.left_wary, got.left_plain) == (0, 0)
    assert got.margins == [0.0] * 4  # the flag changes nothing: each deal scores the same from both seats
