"""``joker_swap``: the joker a swap puts in a hand is public, so ``known`` holds it until it is played.

Everybody saw the joker go from the meld into the swapper's hand (the
``swapped`` event is public), so the swapper's ``known`` cards list it, as
they list a card taken from the pile, and every guess at the hidden cards
(:func:`~rummy500.state.state_from_view`, the bots' determinization, OpenSpiel's
resampling) deals it to the swapper, until the swapper melds, lays off or
discards it.
"""

from __future__ import annotations

import random

import pytest

from rummy500.bots.determinize import determinize
from rummy500.cards import JOKER
from rummy500.env.encoding import HAND_KINDS, card_index
from rummy500.env.observation import encode_view, layout_for
from rummy500.state import RoundState, state_from_view

from .helpers import cards, deal, play

# Seat 0 melds 5H 6H JK=7H; seat 1 wins the joker with its 7H and keeps it.
HANDS = ["5H 6H JK 9C", "7H KD QD 2S 4C"]
SETUP = ["draw", "meld 5H 6H JK=7H", "discard 9C", "draw", "swap 7H on 0"]
WORLDS = 60


def swapped() -> RoundState:
    return play(deal(HANDS, stock="2C 3C 5C 8S", discard="8D", joker_swap=True), *SETUP)


def jokers_dealt_to(state: RoundState, seat: int, guesser: int) -> int:
    """In how many guesses of ``guesser`` at the hidden cards ``seat`` holds a joker."""
    view = state.view(guesser)
    return sum(JOKER in state_from_view(view, random.Random(i)).hands[seat] for i in range(WORLDS))


def test_the_swapped_joker_is_known_held_by_the_swapper() -> None:
    s = swapped()
    assert JOKER in s.hands[1]
    assert s.public.known == ((), (JOKER,))
    assert s.view(0).known[1] == (JOKER,)


def test_every_guess_at_the_hidden_cards_deals_the_joker_to_the_swapper() -> None:
    s = swapped()
    assert jokers_dealt_to(s, 1, guesser=0) == WORLDS
    view = s.view(0)
    assert all(JOKER in determinize(view, random.Random(i)).hands[1] for i in range(WORLDS))


def test_the_known_field_of_the_observation_holds_the_swapped_joker() -> None:
    s = swapped()
    obs = encode_view(s.view(0))
    known = layout_for(s.rules).offset("known") + 1 * HAND_KINDS  # relative seat 1: the swapper
    assert obs[known + card_index(JOKER)] == 1
    assert obs[known : known + HAND_KINDS].sum() == 1


@pytest.mark.parametrize(
    "moves",
    [
        ["meld KD QD JK=JD"],  # melded
        ["meld KD QD JK=JD", "discard 2S"],  # melded, then the turn ends
        ["discard JK"],  # discarded
    ],
    ids=["meld", "meld-discard", "discard"],
)
def test_the_joker_leaves_known_when_it_leaves_the_hand(moves: list[str]) -> None:
    s = play(swapped(), *moves)
    assert JOKER not in s.hands[1]
    assert JOKER not in s.public.known[1]


def test_a_laid_off_joker_leaves_known() -> None:
    # Seat 1 wins the joker, then lays it off on its own run.
    hands = ["5H 6H JK 9C", "7H 2D 3D 4D 9S KS"]
    s = deal(hands, stock="2C 3C 5C 8S", discard="8D", joker_swap=True)
    play(s, *SETUP, "meld 2D 3D 4D")
    assert s.public.known[1] == (JOKER,)
    play(s, "lay JK=5D on 1")
    assert s.public.known[1] == ()


def test_a_swap_with_a_card_taken_from_the_pile_trades_it_for_the_joker_in_known() -> None:
    # Seat 1 takes the 7H from the pile (known), then gives it for the joker.
    s = deal(["5H 6H JK 9C 7H", "KD QD JD 2S 4C"], stock="2C 3C 5C", discard="8D", joker_swap=True)
    play(s, "draw", "meld 5H 6H JK=7H", "discard 7H")
    play(s, "take 1")
    assert s.public.known[1] == tuple(cards("7H"))
    play(s, "swap 7H on 0")
    assert s.public.known[1] == (JOKER,)
    assert jokers_dealt_to(s, 1, guesser=0) == WORLDS
