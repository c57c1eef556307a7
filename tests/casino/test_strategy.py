"""The computed basic strategy, as the chart prints it and as the hint gives it."""

from __future__ import annotations

from rummy500.casino.cards import parse_card
from rummy500.casino.strategy import advise, chart_for, row_of

CHART = chart_for(compute=False)


def cards(text: str) -> list:
    return [parse_card(t) for t in text.split()]


def test_classic_plays_come_out_of_the_computation() -> None:
    assert CHART is not None
    assert CHART.cell("H11", 6) == "Dh"
    assert CHART.cell("H16", 10) == "Rh"  # no blackjack to check: surrender is early
    assert CHART.cell("P8", 6) == "P"
    assert CHART.cell("P10", 6) == "S"
    assert CHART.cell("H13", 4) == "S"
    assert CHART.cell("S18", 9) == "H"
    assert CHART.hit_stand["H16"][10] == "H" and CHART.hit_stand["H17"][10] == "S"


def test_suited_exceptions_chase_the_straight_flush() -> None:
    assert CHART is not None
    # 6-7 totals 13 and stands against a 4, but suited it hits for a 5 or an 8 of its suit (6-7-8 pays 5 to 1).
    assert CHART.rows["H13"][4][0] == "S"
    assert CHART.exceptions["6,7"][4][0] == "H"
    lines = CHART.exception_lines()
    assert any(line.startswith("suited 67: H against") for line in lines)


def test_advice_follows_the_chart_and_what_is_allowed() -> None:
    assert CHART is not None
    assert advise(CHART, cards("6H 7H"), 4, ["H", "S", "D", "R"], original=True) == "H"
    assert advise(CHART, cards("6H 7S"), 4, ["H", "S", "D", "R"], original=True) == "S"
    # After a split the bonus is gone: the same suited cards play the row.
    assert advise(CHART, cards("6H 7H"), 4, ["H", "S", "D"], original=False) == "S"
    # Double not allowed: the chart's next choice.
    assert advise(CHART, cards("6H 5S"), 6, ["H", "S"], original=False) == "H"
    assert advise(CHART, cards("TH 6S"), 10, ["H", "S"], original=False) == "H"
    # Three cards: the total-dependent hit/stand table.
    assert advise(CHART, cards("TH 2S 4C"), 6, ["H", "S"], original=True) == "S"
    assert advise(CHART, cards("AH 2S 4C"), 6, ["H", "S"], original=True) == "H"
    assert row_of(1, 1) == "P1"


def test_playing_the_chart_never_beats_optimal_play_against_a_ten() -> None:
    """The exact expectation of the basic-strategy chart (played through ``Chart.advise``)
    against a ten up-card is a little below optimal composition-dependent play, never above."""
    from rummy500.casino.exact import house_edge
    from rummy500.casino.rules import BENCHMARK

    basic = house_edge(BENCHMARK, ups=(10,), chart=CHART).ev
    optimal = house_edge(BENCHMARK, ups=(10,)).ev
    assert optimal - 1e-3 < basic <= optimal + 1e-12
