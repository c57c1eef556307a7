"""Rounds of Costa Rican Rummy dealt from stacked shoes, checked as a player sees them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy500.casino.cards import Shoe, bonus_multiple, hand_total, parse_card
from rummy500.casino.game import GameError, Round
from rummy500.casino.rules import CasinoRules, RulesError

from .helpers import deal


def cards(text: str) -> list:
    return [parse_card(t) for t in text.split()]


@pytest.mark.parametrize(
    ("three", "pays"),
    [
        ("9S 9H 9D", 3),  # three of a kind, unsuited
        ("9S 9S 9S", 5),  # suited (six decks hold six of each card)
        ("7S 7H 7D", 5),  # totals 21
        ("KC KD KH", 3),  # same rank, not just ten-valued
        ("TC JD QH", 0),
        ("4H 2H 3H", 3),  # straight flush, any order
        ("AH 2H 3H", 3),  # ace low counts
        ("QH KH AH", 5),  # ace high counts, and Q-K-A totals 21
        ("KH AH 2H", 0),  # no wrap
        ("6D 8D 7D", 5),  # straight flush totalling 21
        ("6D 8C 7D", 0),  # a plain straight pays nothing
        ("9S 9H 8S", 0),
    ],
)
def test_bonus_table(three: str, pays: int) -> None:
    assert bonus_multiple(cards(three), CasinoRules()) == pays


def test_straight_readings_are_options() -> None:
    no_ends = CasinoRules(ace_low_straight=False, ace_high_straight=False)
    assert bonus_multiple(cards("AH 2H 3H"), no_ends) == 0
    assert bonus_multiple(cards("QH KH AH"), no_ends) == 0
    assert bonus_multiple(cards("2H 3H 4H"), no_ends) == 3


def test_totals() -> None:
    assert hand_total(cards("AS KD")) == 21
    assert hand_total(cards("AS AD")) == 12
    assert hand_total(cards("AS 6D 9C")) == 16


def test_bonus_is_paid_even_when_the_third_card_busts() -> None:
    r = deal("8S 5D 8H 8D  9C")  # player 8 8, dealer 5 up; hit 8D; dealer hole 9
    r.act("hit")
    assert r.finished
    assert r.hands[0].busted
    assert r.bonus_paid == 30 and r.net == 20  # +3 to 1 bonus, -1 for the bust
    assert len(r.dealer) == 2  # nobody left to play against: the dealer only turns the hole card


def test_bonus_after_a_double_is_on_the_whole_bet() -> None:
    r = deal("6H 9S 8H 7H  8C")  # 6H 8H vs 9, double, 7H: suited 6-7-8 is 21; dealer 9 8 = 17
    r.act("D")
    assert r.hands[0].bet == 20 and r.hands[0].total == 21
    assert r.bonus_paid == 100  # 5 to 1 on 20
    assert r.net == 120  # plus the doubled hand's win


def test_bonus_adds_to_the_hand_result_and_play_goes_on() -> None:
    r = deal("2C TD 2H 2D  5S 7S")  # 2 2 vs T; hit 2 (trips, 3:1), hit 5 (11), then stand... dealer T 7
    r.act("H")
    assert r.bonus_paid == 30 and not r.finished
    r.act("H")
    r.act("S")
    assert r.finished and r.hands[0].result == -10 and r.net == 20


def test_replace_reading_ends_the_hand_with_the_bonus() -> None:
    r = deal("2C TD 2H 2D  7S", bonus_adds=False)
    r.act("H")
    assert r.finished and r.net == 30 and r.hands[0].result == 0


def test_a_split_voids_the_bonus() -> None:
    r = deal("7S 6D 7H 7D 5C  9C  TH 9S", max_hands=2)  # split 7s; 7S+7D (no re-split left), 7H+9C
    r.act("P")
    assert r.hand.cards == cards("7S 7D")
    r.act("H")  # 7 7 5: three cards, but a split hand has no bonus
    assert r.bonus_paid == 0 and r.hands[0].total == 19
    r.act("S")
    r.act("S")  # 7H 9C = 16
    assert r.finished and r.dealer == cards("6D TH 9S") and r.net == 20


def test_dealer_plays_out_and_21_pushes_21() -> None:
    r = deal("TS AD AS  KD")  # player T A = 21, dealer A up, hole K: 21 too; no blackjack, a push
    assert r.finished and r.net == 0
    r = deal("TS 6D 9S  QD 5C")  # 19 vs dealer 6 Q = 16, draws 5: 21
    r.act("S")
    assert r.dealer == cards("6D QD 5C") and r.net == -10


def test_soft_17_stands_unless_h17() -> None:
    r = deal("TS AD 8S  6C 3C")
    r.act("S")
    assert r.dealer == cards("AD 6C") and r.net == 10
    r = deal("TS AD 8S  6C 3C", h17=True)
    r.act("S")
    assert r.dealer == cards("AD 6C 3C") and r.net == -10


def test_surrender_is_the_first_decision_only() -> None:
    r = deal("TS TD 6S  9C")
    r.act("R")
    assert r.finished and r.net == -5
    r = deal("5S TD 3S  2C 9C")
    r.act("H")
    with pytest.raises(GameError, match="surrender is only the first decision"):
        r.act("R")
    assert r.hand.cards == cards("5S 3S 2C")  # unchanged
    r = deal("TS TD 6S", surrender=False)
    with pytest.raises(GameError, match="no surrender at this table"):
        r.act("surrender")


def test_split_aces_get_one_card_and_resplit_to_four_hands() -> None:
    r = deal("AS 9D AH AD 5C AC 3C 4C  TS")
    r.act("P")  # AS+AD: an ace again, may re-split
    assert r.legal_actions() == ["S", "P"]
    r.act("P")  # AS+5C done; AD+AC: again
    r.act("P")  # AD+3C, AC+4C and AH+TS... four hands, no more splits
    assert len(r.hands) == 4 and r.finished
    assert [h.total for h in r.hands] == [16, 14, 15, 21]


def test_no_resplit_aces_variant() -> None:
    r = deal("AS 9D AH AD 5C  TS", resplit_aces=False)
    r.act("P")
    assert r.finished  # AS+AD stands as 12: no re-split, no draw
    assert [h.total for h in r.hands] == [12, 16]


def test_draw_to_split_aces_variant() -> None:
    r = deal("AS 9D AH 5D 4C  TS 8C", draw_split_aces=True)
    r.act("P")
    assert "H" in r.legal_actions() and "D" in r.legal_actions()
    r.act("H")  # A 5 4 = 20
    r.act("S")  # second hand: A + T = 21 stands by itself
    assert r.finished and r.net == 20


def test_double_after_split_and_its_variant() -> None:
    r = deal("8S 6D 8H 3C TC 2C")
    r.act("P")
    r.act("D")  # 8 3 doubled, draws T
    assert r.hands[0].bet == 20 and r.hands[0].total == 21
    r = deal("8S 6D 8H 3C 2C", das=False)
    r.act("P")
    with pytest.raises(GameError, match="no double after a split"):
        r.act("D")


def test_four_hands_at_most() -> None:
    r = deal("8S 6D 8H 8C 8D 8C 2C 3C 4C 5C")
    r.act("P")
    r.act("P")
    r.act("P")
    assert len(r.hands) == 4
    with pytest.raises(GameError, match="at most 4 hands"):
        r.act("P")


def test_bad_input_is_refused_with_a_reason() -> None:
    r = deal("TS 6D 9S  QD 5C")
    with pytest.raises(GameError, match="unknown action 'fold'"):
        r.act("fold")
    with pytest.raises(GameError, match="only two cards of the same value split"):
        r.act("P")
    with pytest.raises(GameError, match="bet must be positive"):
        deal("TS 6D 9S", bet=0)
    with pytest.raises(RulesError, match="unknown rule option"):
        CasinoRules().with_options(jokers=True)
    with pytest.raises(ValueError, match="not a card"):
        parse_card("1X")
    r.act("S")
    with pytest.raises(GameError, match="the round is over"):
        r.act("H")


@given(st.integers(0, 2**32 - 1), st.sampled_from([CasinoRules(), CasinoRules(draw_split_aces=True, h17=True, decks=4)]))
def test_random_play_keeps_the_books(seed: int, rules: CasinoRules) -> None:
    rng = random.Random(seed)
    shoe = Shoe(rules.decks, rng)
    for _ in range(20):
        r = Round(rules, shoe, 10)
        while not r.finished:
            r.act(rng.choice(r.legal_actions()))
        assert 1 <= len(r.hands) <= rules.max_hands
        for h in r.hands:
            assert h.result in (-h.bet, -h.bet / 2, 0.0, h.bet)
            assert h.bonus == 0 or (not h.from_split and len(h.cards) >= 3)
        assert r.net == sum(h.result + h.bonus for h in r.hands)
        if shoe.needs_shuffle:
            shoe.shuffle()
