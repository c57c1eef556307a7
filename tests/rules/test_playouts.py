"""Random-playout invariants for every preset and for random option combinations.

See :mod:`.playout` for what is checked at every step.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rummy500.rules import OPTIONS, PRESETS, Rules, RulesError

from .playout import play_match

# Values to draw for each option: every catalogue value, a few for the open-ended ones.
VALUES: dict[str, list] = {
    "players": list(range(2, 9)),
    "decks": ["auto", 1, 2],
    "jokers": ["auto", 0, 1, 2, 4],
    "short_pack": [False, True],
    "hand_size": ["auto", *range(7, 14)],
    "first_discard": ["upcard", "first_player"],
    "first_dealer": ["high_card", "low_card"],
    "next_dealer": ["left", "round_winner"],
    "direction": ["clockwise", "anticlockwise"],
    "min_run": [3, 4],
    "around_the_corner": [False, True],
    "set_suits": ["distinct", "any"],
    "joker_use": ["wild", "joker_sets_only"],
    "joker_swap": [False, True],
    "first_meld_min": [0, 30, 50],
    "layoff_needs_own_meld": [False, True],
    "layoff_onto": ["any", "own", "own_and_partner"],
    "meld_out_of_turn": [False, True],
    "discard_draw": ["any_depth", "top_only"],
    "must_use_taken": ["if_several", "always"],
    "taken_card_use": ["meld_or_layoff", "new_meld"],
    "discard_back": [False, True],
    "stock_draw_count": [1, 2],
    "discard_count": ["one", "match_drawn"],
    "going_out": ["any", "discard_required", "floating", "unplayable_discard"],
    "stock_out": ["end_round", "immediate", "reshuffle", "play_on"],
    "stock_out_penalty": [True, False],
    "calling_rummy": ["off", "pile", "top_card", "steal"],
    "rummy_card_value": ["normal", 15],
    "rummy_after_going_out": [False, True],
    "card_values": ["standard", "flat", "ace_25", "pip_rank", "ace_11"],
    "low_ace_value": ["auto", 5],
    "joker_value": ["auto", 0, 15, 20, "represented"],
    "custom_values": [{}, {"QS": 40}, {"A": 20, "JK": 50}],
    "four_aces_bonus": [False, True],
    "four_of_a_kind_double": [False, True],
    "score_divisor": [1, 5],
    "hand_penalty": ["own", "to_goer"],
    "going_out_bonus": [0, 25],
    "masters_hand": [False, True],
    "target": [500, 100],
    "must_go_out_to_win": [False, True],
    "rounds": ["to_target", 1, 2],
    "final_bonus": [0, 50],
    "partnership": [False, True],
    "dealers_gambit": [False, True],
}


def test_the_values_cover_every_option_of_the_catalogue():
    assert set(VALUES) == set(OPTIONS)
    for name, values in VALUES.items():
        assert all(OPTIONS[name].check(v) for v in values), name


@st.composite
def option_sets(draw: st.DrawFn) -> Rules:
    """Some options changed at random (companions added where an option needs one)."""
    names = draw(st.lists(st.sampled_from(sorted(VALUES)), min_size=1, max_size=10, unique=True))
    mapping = {name: draw(st.sampled_from(VALUES[name])) for name in names}
    if mapping.get("partnership") or mapping.get("layoff_onto") == "own_and_partner":
        mapping.update(partnership=True, players=4)
    if mapping.get("calling_rummy", "off") == "off" and (
        mapping.get("rummy_card_value", "normal") != "normal" or mapping.get("rummy_after_going_out")
    ):
        mapping["calling_rummy"] = draw(st.sampled_from(["pile", "top_card", "steal"]))
    try:
        rules = Rules.from_mapping(mapping)
    except RulesError:
        assume(False)
    return rules


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_keep_the_invariants_for_every_preset(preset, seed):
    play_match(Rules.preset_rules(preset), seed)


@pytest.mark.parametrize(("preset", "players"), [("standard", 3), ("standard", 5), ("standard", 8), ("partnership", 4)])
def test_random_playouts_keep_the_invariants_at_other_table_sizes_with_calls_out_of_turn(preset, players):
    rules = Rules.preset_rules(preset, players=players, calling_rummy="pile", meld_out_of_turn=True)
    play_match(rules, players, max_rounds=1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=option_sets(), seed=st.integers(0, 2**16))
def test_random_playouts_keep_the_invariants_for_random_option_combinations(rules, seed):
    play_match(rules, seed, max_rounds=1, views_every=6, apply_limit=8)
