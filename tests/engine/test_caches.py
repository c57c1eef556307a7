"""What the state remembers between actions (hand indexes, the legal list) always matches the position."""

from __future__ import annotations

import random

import pytest

from rummy500 import fastmeld
from rummy500.rules import PRESETS, Rules
from rummy500.state import Phase, RoundState


def _playout(preset: str, seed: int) -> list[RoundState]:
    """Every position of one random round of ``preset``, asking every seat for its actions as a table does."""
    rules = Rules.preset_rules(preset)
    rng = random.Random(seed)
    state = RoundState.new(rules, seed % rules.players, rng)
    seen = [state.copy()]
    while not state.is_over:
        if state.public.phase is Phase.SHUFFLE:
            state.apply(state.chance_reshuffle(rng))
        else:
            offers = [(s, acts) for s in range(state.n) if (acts := state.legal_actions(s))]
            seat, acts = rng.choice(offers)
            state.apply(rng.choice(acts), seat, check=False)
        seen.append(state)
        state = state.copy()
    return seen


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hand_indexes_match_the_hands(preset: str) -> None:
    for state in _playout(preset, seed=3):
        for seat in range(state.n):
            got = state._index(seat)
            want = fastmeld.scan(state._meld_hand(seat))
            assert (got.mask, got.jokers, got.dups) == (want.mask, want.jokers, want.dups)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_legal_count_and_legal_action_index_the_legal_list(preset: str) -> None:
    for state in _playout(preset, seed=5):
        for seat in range(state.n):
            fresh = state.copy()
            count = fresh.legal_count(seat)
            assert [fresh.legal_action(i, seat) for i in range(count)] == state.legal_actions(seat)
        assert state.legal_count() == len(state.legal_actions())
        with pytest.raises(IndexError):
            state.legal_action(state.legal_count())


def test_forget_caches_after_editing_a_hand() -> None:
    state = RoundState.new(Rules.preset_rules("standard"), 0, random.Random(1))
    seat = state.public.to_move
    state.legal_actions(seat)
    before = state._index(seat).mask
    state.hands[seat], state.stock = state.stock[: len(state.hands[seat])], state.stock[len(state.hands[seat]) :] + state.hands[seat]
    state.forget_caches()
    assert state._index(seat).mask == fastmeld.scan(state.hands[seat]).mask != before
