"""RULES.md Part 1, Cards and Deal: pack sizes, hand sizes, dealing order, the upcard, the first player."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummy500 import JOKER, Match, Phase, RoundState
from rummy500.cards import natural_cards
from rummy500.state import build_pack

from .helpers import all_cards, standard


@pytest.mark.parametrize(
    ("players", "packs", "jokers", "hand"),
    [(2, 1, 2, 13), (3, 1, 2, 7), (4, 1, 2, 7), (5, 2, 4, 7), (6, 2, 4, 7), (7, 2, 4, 7), (8, 2, 4, 7)],
)
def test_pack_and_hand_sizes_follow_the_number_of_players(players, packs, jokers, hand):
    rules = standard(players)
    pack = Counter(build_pack(rules))
    assert sum(pack.values()) == 52 * packs + jokers
    assert pack[JOKER] == jokers
    for c in natural_cards():
        assert pack[c] == packs  # two packs hold identical duplicates

    state = RoundState.new(rules, 0, random.Random(players))
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.public.discard) == 1  # the upcard starts the pile
    assert len(state.stock) == 52 * packs + jokers - players * hand - 1
    assert all_cards(state) == pack


def _deck(n: int):
    """A deck of n distinct cards (top first) so the deal order can be read off."""
    return natural_cards()[:n]


@pytest.mark.parametrize("dealer", [0, 1])
def test_two_players_are_dealt_13_cards_one_at_a_time_starting_left_of_the_dealer(dealer):
    deck = natural_cards() + [JOKER, JOKER]
    state = RoundState.from_deck(standard(2), dealer, deck)
    first = (dealer + 1) % 2
    assert state.hands[first] == deck[0:26:2]
    assert state.hands[dealer] == deck[1:26:2]
    assert state.public.discard == (deck[26],)  # the next card is turned up
    assert state.stock_top_first() == deck[27:]  # the rest is the stock, top first
    assert state.public.to_move == first
    assert state.public.phase is Phase.DRAW


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_players_are_dealt_7_cards_clockwise_from_the_dealers_left(dealer):
    deck = natural_cards() + [JOKER, JOKER]
    state = RoundState.from_deck(standard(4), dealer, deck)
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        assert state.hands[seat] == deck[i:28:4], seat
    assert state.public.discard == (deck[28],)
    assert state.stock_top_first() == deck[29:]
    assert state.public.to_move == (dealer + 1) % 4


def test_eight_players_deal_seven_each_from_two_packs():
    rules = standard(8)
    deck = build_pack(rules)
    random.Random(8).shuffle(deck)
    state = RoundState.from_deck(rules, 5, deck)
    assert state.hands[6] == deck[0:56:8]
    assert state.hands[5] == deck[7:56:8]  # the dealer is dealt last
    assert state.public.discard == (deck[56],)
    assert len(state.stock) == 108 - 57
    assert state.public.to_move == 6


def test_a_deck_too_small_for_the_deal_is_refused():
    with pytest.raises(ValueError):
        RoundState.from_deck(standard(2), 0, _deck(20))


def test_the_first_dealer_is_cut_for_and_the_player_to_the_dealers_left_moves_first():
    dealers = set()
    for seed in range(40):
        match = Match(standard(3), seed=seed)
        state = match.state
        assert state is not None
        dealers.add(state.public.dealer)
        assert state.public.to_move == (state.public.dealer + 1) % 3
    assert dealers == {0, 1, 2}


def test_a_constructed_deal_is_taken_as_given():
    state = RoundState.from_deal(
        standard(2), 0, [natural_cards()[:3], natural_cards()[3:5]], natural_cards()[5:7], [JOKER]
    )
    assert [len(h) for h in state.hands] == [3, 2]
    assert state.stock_top_first() == natural_cards()[5:7]
    assert state.public.to_move == 1


def test_a_constructed_deal_needs_one_hand_per_seat_and_a_real_dealer():
    with pytest.raises(ValueError):
        RoundState.from_deal(standard(3), 0, [[], []], [], [])
    with pytest.raises(ValueError):
        RoundState.from_deal(standard(2), 2, [[], []], [], [])
