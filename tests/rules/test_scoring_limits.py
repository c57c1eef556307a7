"""Scoring at the edges of three options: the Master's Hand's seven cards, a joker as a low ace, Persian's four jokers.

Each case is played as a one-round record (see :mod:`.scenario`) and checked
against the round scores a player would read.
"""

from __future__ import annotations

import pytest

from .scenario import play

# ------------------------------------------------------------------ masters_hand
# docs/rules.md: "a run of 7+ cards laid down at once in the same turn as the going-out
# discard scores 500 for the round". Six cards are not enough, and a lay-off that takes a
# run to seven was not laid down at once.
#
# The engine lays a meld by one of two paths: a player already opened takes the short one;
# a player still to reach ``first_meld_min`` takes the general one. Both are played.
PATHS = pytest.mark.parametrize(
    "opening", [{}, {"first_meld_min": 30}], ids=["opened", "still-to-open"]
)
SIX = ["3H 4H 5H 6H 7H 8H", "KD QD 2S"]
SEVEN = ["3H 4H 5H 6H 7H 8H 9H", "KD QD 2S"]


@PATHS
def test_masters_hand_is_not_won_by_a_six_card_run(opening):
    actions = ["0 draw", "0 meld 3H 4H 5H 6H 7H 8H", "0 discard KS"]
    out = play({"masters_hand": True, **opening}, SIX, "KS", "8D", actions)
    assert out.ok and out.over and out.went_out == 0, out.message
    assert out.scores == [3 + 4 + 5 + 6 + 7 + 8, -22] == [33, -22]


@PATHS
def test_masters_hand_is_won_by_a_seven_card_run_on_either_path(opening):
    # The counterpart of the six-card run: the same turn with one more card scores 500.
    actions = ["0 draw", "0 meld 3H 4H 5H 6H 7H 8H 9H", "0 discard KS"]
    out = play({"masters_hand": True, **opening}, SEVEN, "KS", "8D", actions)
    assert out.ok and out.over and out.went_out == 0, out.message
    assert out.scores == [500, -22]


@PATHS
def test_masters_hand_is_not_won_by_laying_off_the_seventh_card(opening):
    # Six laid at once, the seventh laid off in the same turn: seven on the table, but not laid at once.
    actions = ["0 draw", "0 meld 3H 4H 5H 6H 7H 8H", "0 layoff 9H on 0", "0 discard KS"]
    out = play({"masters_hand": True, **opening}, SEVEN, "KS", "8D", actions)
    assert out.ok and out.over and out.went_out == 0, out.message
    assert out.meld(0) == ["3H", "4H", "5H", "6H", "7H", "8H", "9H"]
    assert out.scores == [42, -22]


# --------------------------------------------------------- a joker as a low ace
# A melded joker that "counts as the card it stands for" (joker_value: represented, and
# card_values: ace_11) standing for the ace of A 2 3 is a low ace: 1 (RULES.md Part 1:
# "1 when it is the low end of a run"), or whatever low_ace_value says; never a high ace.
LOW = ["JK 2H 3H", "KD QD 2S"]
LOW_OUT = ["0 draw", "0 meld JK=AH 2H 3H", "0 discard 9C"]
HIGH = ["JK QH KH", "KD QD 2S"]
HIGH_OUT = ["0 draw", "0 meld QH KH JK=AH", "0 discard 9C"]


@pytest.mark.parametrize(
    ("rules", "low_run", "high_run"),
    [
        # the joker as a low ace 1, as a high ace 15 (standard values)
        ({"joker_value": "represented"}, 1 + 2 + 3, 10 + 10 + 15),
        # ace_11: 1 when low, 11 when high
        ({"card_values": "ace_11"}, 1 + 2 + 3, 10 + 10 + 11),
        ({"card_values": "ace_11", "joker_value": "represented"}, 1 + 2 + 3, 10 + 10 + 11),
        # low_ace_value overrides the low ace, the joker standing for one included
        ({"joker_value": "represented", "low_ace_value": 5}, 5 + 2 + 3, 10 + 10 + 15),
    ],
    ids=["represented", "ace_11", "ace_11-represented", "represented-low_ace_5"],
)
def test_a_joker_standing_for_a_low_ace_counts_as_a_low_ace(rules, low_run, high_run):
    low = play(rules, LOW, "9C", "8D", LOW_OUT)
    assert low.ok and low.over and low.meld(0) == ["JK=AH", "2H", "3H"], low.message
    assert low.scores == [low_run, -22]
    high = play(rules, HIGH, "9C", "8D", HIGH_OUT)
    assert high.ok and high.over, high.message
    assert high.scores == [high_run, -22]


def test_a_joker_standing_for_a_low_ace_counts_15_without_represented():
    # The contrast: with the standard values a melded joker is 15, whatever it stands for.
    assert play({}, LOW, "9C", "8D", LOW_OUT).scores == [15 + 2 + 3, -22]


# ------------------------------------------------------- Persian: four jokers
# docs/rules.md: "a four-joker Persian set counts 160" (four 20-point jokers laid at once,
# doubled); laid three and then one, they count their plain 80.
PERSIAN_HANDS = ["JK JK JK JK", "KD QD 2S", "4C 9D", "AS 3S"]


def test_persian_a_set_of_four_jokers_laid_at_once_counts_160():
    out = play({"preset": "persian"}, PERSIAN_HANDS, "4D 9C", "8D", ["0 draw", "0 meld JK JK JK JK", "0 discard 4D"])
    assert out.ok and out.over and out.went_out == 0, out.message
    assert out.meld(0) == ["JK", "JK", "JK", "JK"]
    # the set 160, the going-out bonus 25; the others' hands as usual
    assert out.scores == [160 + 25, -(10 + 10 + 2), -(4 + 9), -(15 + 3)]


def test_persian_four_jokers_laid_three_then_one_count_80():
    actions = ["0 draw", "0 meld JK JK JK", "0 layoff JK on 0", "0 discard 4D"]
    out = play({"preset": "persian"}, PERSIAN_HANDS, "4D 9C", "8D", actions)
    assert out.ok and out.over and out.went_out == 0, out.message
    assert out.scores == [4 * 20 + 25, -(10 + 10 + 2), -(4 + 9), -(15 + 3)]
