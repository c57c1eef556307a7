"""RULES.md Part 1, Going out, stock exhaustion, and scoring a finished round."""

from __future__ import annotations

import pytest

from rummy500 import Phase
from rummy500.scoring import card_value, hand_value

from .helpers import cards, deal, legal, play, refused, standard

# ------------------------------------------------------------ going out


def test_going_out_by_discarding_the_last_card_ends_the_round_at_once():
    s = deal(["AS 2S 3S", "4H 5H 6H 9C"], stock="QD 7S", discard="TC")
    play(s, "draw", "meld AS 2S 3S", "discard QD")
    assert s.is_over and s.public.went_out == 0 and s.public.phase is Phase.ROUND_OVER
    # Seat 0: A(1) + 2 + 3 on the table; seat 1 holds 4 + 5 + 6 + 9.
    assert s.round_scores() == [6, -24]


def test_going_out_by_melding_every_card_needs_no_discard():
    s = deal(["AS 2S 3S 7C 7H", "4H 5H 6H 9C"], stock="7D", discard="TC")
    play(s, "draw", "meld AS 2S 3S")
    assert not s.is_over and s.public.to_move == 0
    play(s, "meld 7C 7D 7H")
    assert s.is_over and s.public.went_out == 0 and s.hands[0] == []
    assert s.round_scores() == [6 + 21, -24]


def test_going_out_by_laying_off_the_last_cards():
    s = deal(["4H 5H 6H 9C", "7H 8H"], stock="KD 3C", discard="TC")
    play(s, "draw", "meld 4H 5H 6H", "discard KD")
    play(s, "draw")
    assert "layoff 7H 8H on 0" in legal(s)
    play(s, "layoff 7H 8H on 0")
    assert not s.is_over  # the 3C is still in hand
    play(s, "discard 3C")
    assert s.is_over and s.public.went_out == 1
    s2 = deal(["4H 5H 6H 9C", "7H 8H"], stock="3C 9H", discard="TC")
    play(s2, "draw", "meld 4H 5H 6H", "discard 9C")
    play(s2, "draw", "layoff 7H 8H 9H on 0")
    assert s2.is_over and s2.public.went_out == 1
    assert s2.round_scores() == [15 - 3, 24]


def test_nobody_may_meld_or_lay_off_once_a_player_went_out():
    s = deal(["AS 2S 3S", "4H 5H 6H 9C"], stock="QD 7S", discard="TC")
    play(s, "draw", "meld AS 2S 3S", "discard QD")
    assert "round is over" in refused(s, "p1: meld 4H 5H 6H")
    assert s.round_scores() == [6, -24]


# ------------------------------------------------------ stock exhausted


def test_when_the_stock_is_empty_the_player_may_take_from_the_pile_or_pass():
    s = deal(["4H 5H 9C", "7H 3H KS"], stock="2C", discard="QS 6H")
    play(s, "draw", "discard 9C")
    assert s.stock == []
    assert legal(s) == {"take 1", "pass"}  # the 9C alone; taking 2 reaches the unusable 6H
    assert "stock is empty" in refused(s, "draw")
    play(s, "take 1", "discard KS")
    assert legal(s) == {"take 1", "take 2", "pass"}  # take 2 reaches the 6H for 4H 5H 6H


def test_passing_on_an_empty_stock_ends_the_round_with_hands_counted():
    s = deal(["4H 5H 9C", "7H 3H KS"], stock="2C", discard="QS 6H")
    play(s, "draw", "discard 9C", "pass")
    assert s.is_over and s.public.went_out is None
    assert s.round_scores() == [-(4 + 5 + 2), -(7 + 3 + 10)]
    assert "round is over" in refused(s, "p0: take 1")


def test_a_player_who_cannot_take_may_only_pass():
    s = deal(["4H 5H", "7C 3D"], stock="", discard="")
    assert legal(s) == {"pass"}
    play(s, "pass")
    assert s.is_over and s.round_scores() == [-9, -10]


def test_take_from_an_empty_stock_round_continues_until_someone_passes():
    s = deal(["4H 5H 9C", "6H 3D KS"], stock="", discard="QS 2C")
    play(s, "take 1", "discard 9C")
    assert not s.is_over and s.public.to_move == 1
    play(s, "take 1")
    play(s, "discard KS")
    assert s.public.to_move == 0 and legal(s) == {"take 1", "pass"}
    play(s, "pass")
    assert s.is_over and s.public.went_out is None


# -------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("card", "value"),
    [("AS", 15), ("KS", 10), ("QD", 10), ("JC", 10), ("TH", 10), ("9H", 9), ("5C", 5), ("2D", 2), ("JK", 15)],
)
def test_card_values_in_hand(card, value):
    assert card_value(cards(card)[0], standard(), in_hand=True) == value


def test_scores_low_ace_high_ace_set_of_aces_jokers_and_hand():
    s = deal(["AS 2S 3S AD AC AH QH KH JK 4C 6C", "5D 7D"], stock="8C 9D", discard="TC")
    play(s, "draw", "meld AS 2S 3S", "meld AC AD AH", "meld QH KH JK=AH", "discard 8C")
    # Seat 0 table: A(1)+2+3, three aces 45, Q K 10+10 + joker 15 = 86; hand 4C 6C = 10.
    play(s, "p1: draw", "p1: discard 9D")
    play(s, "pass")
    assert s.round_scores() == [86 - 10, -12]
    assert s.result is not None and s.result.table_points == [86, 0] and s.result.hand_points == [10, 12]


def test_a_high_ace_scores_15_and_a_joker_in_hand_counts_15():
    s = deal(["QH KH AH 9C", "JK 2D"], stock="8C", discard="TC")
    play(s, "draw", "meld QH KH AH", "discard 9C", "pass")
    assert s.round_scores() == [35 - 8, -17]


def test_a_low_ace_laid_off_scores_1_for_the_layer():
    s = deal(["2D 3D 4D KC", "AD"], stock="8C 9C", discard="TC")
    play(s, "draw", "meld 2D 3D 4D", "discard 8C")
    play(s, "draw", "layoff AD on 0", "discard 9C")
    assert s.is_over and s.public.went_out == 1
    assert s.round_scores() == [9 - 10, 1]


def test_a_joker_standing_for_a_low_ace_scores_15():
    s = deal(["2D 3D JK KC", "5C"], stock="8C", discard="TC")
    play(s, "draw", "meld 2D 3D JK=AD", "discard 8C", "pass")
    assert s.round_scores() == [15 + 2 + 3 - 10, -5]


def test_round_scores_may_be_negative():
    s = deal(["AS 2S 3S", "KD KC QH JK AH"], stock="8C", discard="TC")
    play(s, "draw", "meld AS 2S 3S", "discard 8C")
    assert s.round_scores() == [6, -(10 + 10 + 10 + 15 + 15)]
    assert hand_value(s.hands[1], standard()) == 60
