"""The planner's bit-mask search finds exactly what the card-tuple search finds.

A hand without two copies of a natural card is searched as a bit mask and a
joker count (``PlanContext.masked``); any other hand by the tuple search. Both
must give the same plans, in every preset, for the whole hand, for parts of it,
with table melds already used and with a card that must be laid.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy500 import Rules
from rummy500.bots.heuristics import Analysis, PlanContext, Planner
from rummy500.cards import Card
from rummy500.match import Match
from rummy500.rules import PRESETS
from rummy500.state import RoundState

_SEATS = {"partnership": 4, "persian": 4}


def _position(preset: str, players: int, seed: int, steps: int) -> RoundState | None:
    """A position reached by random legal play (None when the round ended first)."""
    rules = Rules.from_mapping({"preset": preset, "players": players})
    rng = random.Random(seed)
    state = Match(rules, seed=seed).state
    assert state is not None
    for _ in range(steps):
        if state.is_over:
            return None
        seat = state.public.to_move
        legal = state.legal_actions(seat)
        # Lay melds and lay-offs whenever there are some, so the table fills up.
        lays = [a for a in legal if type(a).__name__ in ("Meld", "LayOff")]
        state.apply(rng.choice(lays or legal), seat)
    return None if state.is_over else state


def _both(planner: Planner, hand: list[Card]) -> tuple[PlanContext, PlanContext]:
    """Two search contexts of the hand: the bit-mask search, and the tuple search forced."""
    masked = PlanContext(planner, hand)
    plain = PlanContext(planner, hand)
    plain.masked = False
    return masked, plain


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    players=st.sampled_from([2, 4, 6]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 40),
)
def test_mask_search_equals_tuple_search(preset: str, players: int, seed: int, steps: int) -> None:
    players = _SEATS.get(preset, players)
    state = _position(preset, players, seed, steps)
    if state is None:
        return
    seat = state.public.to_move
    an = Analysis(state.view(seat))
    hand = list(an.plan_hand)
    masked, plain = _both(an.planner, hand)
    assert masked.best() == plain.best()
    assert masked.nodes == plain.nodes
    rng = random.Random(seed)
    ids = [m.id for m in state.public.melds]
    for _ in range(6):
        part = rng.sample(hand, rng.randint(0, len(hand)))
        used = frozenset(rng.sample(ids, rng.randint(0, len(ids)))) if ids else frozenset()
        assert masked.best(part, used=used) == plain.best(part, used=used)
    for card in set(hand):
        assert masked.best(must_use=card) == plain.best(must_use=card)


def test_a_hand_with_two_copies_of_a_card_takes_the_tuple_search() -> None:
    rules = Rules.from_mapping({"preset": "standard", "players": 6})
    assert rules.n_decks == 2
    state = _position("standard", 6, 3, 0)
    assert state is not None
    an = Analysis(state.view(0))
    twice = [*an.plan_hand[:3], an.plan_hand[0]]
    ctx = an.planner.context(twice)
    assert not ctx.masked
    assert an.planner.context(an.plan_hand[:3]).masked
