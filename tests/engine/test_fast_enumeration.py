"""The memoised enumeration returns exactly what the plain one returned.

``old_melds.py`` is the enumeration as it was before :mod:`rummy500.fastmeld`
(kept verbatim as the oracle). ``find_melds`` (with every ``containing``
filter) and ``find_layoffs`` must return the same lists, in the same order,
for random hands under random rule variants (Hypothesis) and for every hand
and table meld met in seeded random playouts of every preset.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rummy500.melds as new_melds
from rummy500.cards import JOKER, Card, declared, natural_cards
from rummy500.melds import MeldError, find_layoffs, find_melds, fits_alone, make_meld
from rummy500.rules import Rules, preset_names
from rummy500.state import Phase, RoundState

from . import old_melds
from .old_enumeration import OldRound

NATURALS = natural_cards()

VARIANTS = st.fixed_dictionaries(
    {
        "around_the_corner": st.booleans(),
        "short_pack": st.booleans(),
        "set_suits": st.sampled_from(["distinct", "any"]),
        "min_run": st.sampled_from([3, 4]),
        "joker_use": st.sampled_from(["wild", "joker_sets_only"]),
        "decks": st.sampled_from([1, 2]),
        "jokers": st.sampled_from([0, 2, 4]),
    }
)


def rules_of(variant: dict[str, object]) -> Rules:
    # Built directly: the enumeration is defined for every combination, even those a game refuses.
    return Rules._any_combination(players=6 if variant["decks"] == 2 else 2, **variant)


def pack(rules: Rules) -> list[Card]:
    cards = [c for c in NATURALS if not rules.short_pack or c.rank == 1 or c.rank >= 7]
    return cards * rules.n_decks + [JOKER] * max(rules.n_jokers, 2)


def same_melds(hand: list[Card], rules: Rules, extra: int) -> None:
    for containing in [None, JOKER, *sorted(set(hand) - {JOKER})]:
        new = find_melds(hand, rules, extra, containing=containing)
        old = old_melds.find_melds(hand, rules, extra, containing=containing)
        assert new == old, (hand, containing, extra)


def same_layoffs(meld, hand: list[Card], rules: Rules, extra: int) -> None:  # noqa: ANN001
    assert find_layoffs(meld, hand, rules, extra) == old_melds.find_layoffs(meld, hand, rules, extra), (meld, hand, extra)


@settings(max_examples=150, deadline=None)
@given(variant=VARIANTS, data=st.data())
def test_find_melds_matches_the_plain_enumeration(variant, data):
    rules = rules_of(variant)
    cards = pack(rules)
    hand = data.draw(st.lists(st.sampled_from(cards), min_size=0, max_size=14))
    extra = data.draw(st.integers(0, 1))
    same_melds(hand, rules, extra)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(variant=VARIANTS, data=st.data())
def test_find_layoffs_matches_the_plain_enumeration(variant, data):
    rules = rules_of(variant)
    cards = pack(rules)
    source = data.draw(st.lists(st.sampled_from(cards), min_size=3, max_size=12))
    melds = old_melds.find_melds(source, rules, 1)
    if not melds:
        melds = [(JOKER, JOKER, JOKER)] if not rules.jokers_wild else []
    assume(melds)  # (counted by Hypothesis as no example, so it draws another)
    chosen = data.draw(st.sampled_from(melds))
    meld = make_meld(chosen, rules, 0, 0)
    hand = data.draw(st.lists(st.sampled_from(cards), min_size=0, max_size=12))
    extra = data.draw(st.integers(0, 1))
    same_layoffs(meld, hand, rules, extra)
    for c in [*NATURALS, JOKER]:
        assert fits_alone(meld, c, rules) == (not isinstance(extended(meld, [c], rules, old_melds), str)), (meld, c)


def extended(meld, cards: list[Card], rules: Rules, module) -> object:  # noqa: ANN001
    """What ``extend_meld`` builds, or the refusal's message."""
    try:
        return module.extend_meld(meld, cards, rules, 1, claimed=True)
    except (MeldError, old_melds.MeldError) as exc:
        return str(exc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(variant=VARIANTS, data=st.data())
def test_extend_meld_builds_and_refuses_as_before(variant, data):
    rules = rules_of(variant)
    cards = pack(rules)
    source = data.draw(st.lists(st.sampled_from(cards), min_size=3, max_size=12))
    melds = old_melds.find_melds(source, rules, 1)
    assume(melds)
    meld = make_meld(data.draw(st.sampled_from(melds)), rules, 0, 0)
    if rules.jokers_wild:
        cards = cards + [declared(c) for c in NATURALS]
    new = data.draw(st.lists(st.sampled_from(cards), min_size=1, max_size=3))
    assert extended(meld, new, rules, new_melds) == extended(meld, new, rules, old_melds)


def test_every_position_of_seeded_playouts_of_every_preset_enumerates_the_same():
    rng = random.Random(1)
    checked = 0
    for preset in preset_names():
        rules = Rules.preset_rules(preset)
        state = RoundState.new(rules, 0, rng)
        steps = 0
        while not state.is_over and steps < 400:
            steps += 1
            if state.public.phase is Phase.SHUFFLE:
                state.apply(state.chance_reshuffle(rng))
                continue
            seat = state.public.to_move
            hand = state.hands[seat]
            extra = state._meld_extra(seat)
            same_melds(hand, rules, extra)
            same_melds(state.public.discard[-6:], rules, 0)
            for meld in state.public.melds:
                same_layoffs(meld, hand, rules, extra)
                same_layoffs(meld, state.public.discard[-1:], rules, 0)
            checked += 1
            state.apply(rng.choice(state.legal_actions()), check=False)
    assert checked > 300


#: Option sets that reach every branch of the enumeration (on top of each preset).
VARIANT_OPTIONS: list[dict[str, object]] = [
    {},
    {"first_meld_min": 30, "layoff_needs_own_meld": True},
    {"must_use_taken": "always", "taken_card_use": "new_meld", "joker_swap": True},
    {"discard_back": True, "going_out": "discard_required", "meld_out_of_turn": True},
    {"stock_draw_count": 2, "discard_count": "match_drawn", "around_the_corner": True, "set_suits": "any", "decks": 2},
    {"going_out": "floating", "stock_out": "play_on", "layoff_onto": "own", "calling_rummy": "steal"},
    {"discard_draw": "top_only", "going_out": "unplayable_discard", "rummy_after_going_out": True, "calling_rummy": "top_card"},
    {"short_pack": True, "min_run": 4, "calling_rummy": "top_card", "stock_out": "reshuffle"},
]


def test_seeded_playouts_of_every_preset_list_the_same_legal_actions_as_the_old_enumeration():
    rng = random.Random(7)
    compared = 0
    for preset in preset_names():
        for options in VARIANT_OPTIONS:
            try:
                rules = Rules.preset_rules(preset, **options)
            except ValueError:
                continue  # a combination this preset refuses
            state = RoundState.new(rules, rng.randrange(rules.players), rng)
            for _ in range(60):
                if state.is_over:
                    break
                if state.public.phase is Phase.SHUFFLE:
                    state.apply(state.chance_reshuffle(rng))
                    continue
                for seat in range(state.n):
                    assert state.legal_actions(seat) == OldRound.of(state).legal_actions(seat), (preset, options, seat)
                    compared += 1
                actors = state.actors()
                seat = actors[0] if len(actors) == 1 or rng.random() < 0.7 else rng.choice(actors[1:])
                state.apply(rng.choice(state.legal_actions(seat)), seat, check=False)
    assert compared > 2000
