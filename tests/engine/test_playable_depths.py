"""The whole-pile fast path of ``fastmeld.playable_depths`` answers as the depth-by-depth one."""

import random

import pytest

from rummy500 import fastmeld
from rummy500.rules import Rules
from rummy500.state import Phase, RoundState


@pytest.mark.parametrize("preset", ["standard", "popular", "persian", "hoyle", "dealers_gambit"])
def test_whole_pile_matches_depth_by_depth(preset):
    rules = Rules.preset_rules(preset)
    t = fastmeld.tables(rules)
    rng = random.Random(7)
    compared = 0
    for _ in range(6):
        state = RoundState.new(rules, 0, rng)
        while not state.is_over:
            p = state.public
            if p.phase is Phase.SHUFFLE:
                state.apply(state.chance_reshuffle(rng))
                continue
            if p.discard:
                every = range(1, len(p.discard) + 1)
                assert fastmeld.playable_depths(t, p.melds, p.discard, every) == fastmeld.playable_depths(
                    t, p.melds, p.discard, list(every)
                )
                compared += 1
            seat = state.actors()[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert compared > 100
