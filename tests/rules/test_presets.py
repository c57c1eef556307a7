"""Presets (RULES.md Part 3) and the refusal of options that make no sense together."""

from __future__ import annotations

import re

import pytest

from rummy500.record import RecordError, load_record
from rummy500.rules import OPTIONS, PRESETS, Rules, RulesError

# What each preset is, in RULES.md's words, as the options that differ from the standard game.
EXPECTED = {
    "standard": {},
    "popular": {"calling_rummy": "pile"},
    "hoyle": {"jokers": 0, "hand_size": 10, "first_discard": "first_player", "first_dealer": "low_card"},
    "boathouse": {"going_out": "discard_required", "stock_draw_count": 2},
    "quick": {"card_values": "flat", "score_divisor": 5, "target": 100},
    "partnership": {"partnership": True, "players": 4},
    "persian": {
        "partnership": True, "players": 4, "jokers": 4, "joker_value": 20, "joker_use": "joker_sets_only",
        "four_of_a_kind_double": True, "going_out_bonus": 25, "rounds": 2, "final_bonus": 50,
    },
    # 54 cards (2 jokers), dealt and played anticlockwise, to 250
    "dealers_gambit": {"dealers_gambit": True, "target": 250, "direction": "anticlockwise", "jokers": 2},
}


def _changed(rules: Rules) -> dict:
    return {
        name: getattr(rules, name)
        for name, spec in OPTIONS.items()
        if getattr(rules, name) != spec.default or type(getattr(rules, name)) is not type(spec.default)
    }


def test_every_preset_of_part_3_is_known():
    assert list(PRESETS) == list(EXPECTED)


@pytest.mark.parametrize("preset", list(EXPECTED))
def test_each_preset_resolves_to_its_options(preset):
    rules = Rules.from_mapping({"preset": preset})
    assert _changed(rules) == EXPECTED[preset]
    assert rules.preset == preset
    assert Rules.from_mapping(rules.to_mapping()) == rules  # round-trips through a record's rules


def test_the_resolved_values_of_the_presets():
    assert Rules.preset_rules("standard") == Rules()
    hoyle = Rules.preset_rules("hoyle")
    assert (hoyle.n_jokers, hoyle.n_hand, hoyle.pack_size) == (0, 10, 52)
    gambit = Rules.preset_rules("dealers_gambit")
    assert (gambit.pack_size, gambit.step) == (54, -1)
    persian = Rules.preset_rules("persian")
    assert (persian.n_jokers, persian.pack_size, persian.n_sides, persian.jokers_wild) == (4, 56, 2, False)
    assert Rules.preset_rules("partnership").n_hand == 7


@pytest.mark.parametrize(
    ("preset", "override"),
    [("popular", {"calling_rummy": "top_card"}), ("quick", {"target": 200}), ("persian", {"rounds": 3}), ("hoyle", {"hand_size": 7})],
)
def test_further_options_override_a_preset(preset, override):
    rules = Rules.from_mapping({"preset": preset, **override})
    assert _changed(rules) == {**EXPECTED[preset], **override}


def test_a_record_may_name_a_preset():
    rec = load_record({"rules": {"preset": "quick"}, "players": 3})
    assert rec.rules.card_values == "flat" and rec.rules.players == 3
    with pytest.raises(RecordError, match="unknown preset"):
        load_record({"rules": {"preset": "canasta"}, "players": 2})


# ------------------------------------------------------- combinations refused
COMBINATIONS = [
    ({"partnership": True, "players": 3}, "partnership", "players"),
    ({"layoff_onto": "own_and_partner"}, "layoff_onto", "partnership"),
    ({"joker_use": "joker_sets_only"}, "joker_use", "jokers"),
    ({"joker_use": "joker_sets_only", "jokers": 4, "joker_swap": True}, "joker_swap", "joker_use"),
    ({"joker_use": "joker_sets_only", "jokers": 4, "joker_value": "represented"}, "joker_value", "joker_use"),
    ({"joker_swap": True, "jokers": 0}, "joker_swap", "jokers"),
    ({"dealers_gambit": True, "jokers": 0}, "dealers_gambit", "jokers"),
    ({"dealers_gambit": True, "jokers": 4}, "dealers_gambit", "jokers"),
    ({"dealers_gambit": True, "jokers": 1}, "dealers_gambit", "jokers"),
    ({"dealers_gambit": True, "joker_swap": True}, "dealers_gambit", "joker_swap"),
    ({"calling_rummy": "pile", "discard_draw": "top_only"}, "calling_rummy", "discard_draw"),
    ({"discard_back": True, "must_use_taken": "always"}, "discard_back", "must_use_taken"),
    ({"rummy_card_value": 15}, "rummy_card_value", "calling_rummy"),
    ({"rummy_after_going_out": True}, "rummy_after_going_out", "calling_rummy"),
    ({"rounds": 2, "must_go_out_to_win": True}, "must_go_out_to_win", "rounds"),
    ({"discard_count": "match_drawn", "going_out": "floating"}, "discard_count", "going_out"),
    ({"discard_count": "match_drawn", "going_out": "unplayable_discard"}, "discard_count", "going_out"),
    ({"short_pack": True, "around_the_corner": True}, "around_the_corner", "short_pack"),
    ({"set_suits": "any"}, "set_suits", "decks"),
    ({"set_suits": "any", "players": 6, "decks": 1}, "set_suits", "decks"),
    ({"players": 8, "decks": 1}, "players", "decks"),
    ({"players": 4, "hand_size": 13, "jokers": 0}, "hand_size", "decks"),
    ({"short_pack": True, "players": 3, "hand_size": 12}, "hand_size", "decks"),
]


@pytest.mark.parametrize(("mapping", "first", "second"), COMBINATIONS)
def test_a_combination_that_makes_no_sense_is_refused_naming_both_options(mapping, first, second):
    with pytest.raises(RulesError) as info:
        Rules.from_mapping(mapping)
    (problem,) = info.value.problems
    assert re.search(rf"\b{first}\b", problem) and re.search(rf"\b{second}\b", problem), problem
    with pytest.raises(RecordError, match=first):
        load_record({"rules": mapping})


def test_dealers_gambit_refuses_joker_sets_and_a_pack_of_four_jokers_both_named():
    with pytest.raises(RulesError) as info:
        Rules.from_mapping({"dealers_gambit": True, "jokers": 4, "joker_use": "joker_sets_only"})
    assert info.value.problems == [
        "jokers: 4 cannot be used with dealers_gambit: true (it plays one 54-card pack: 2 jokers)",
        "dealers_gambit: true needs joker_use: wild (got joker_use: joker_sets_only)",
    ]


def test_every_problem_is_listed_at_once():
    with pytest.raises(RulesError) as info:
        Rules.from_mapping({"min_run": 5, "colour": "red", "rummy_after_going_out": True, "preset": "canasta"})
    assert len(info.value.problems) == 3  # a bad value, an unknown option, an unknown preset
    with pytest.raises(RulesError) as info:
        Rules.from_mapping({"rummy_card_value": 15, "rummy_after_going_out": True, "short_pack": True, "around_the_corner": True})
    assert len(info.value.problems) == 3


@pytest.mark.parametrize(
    ("name", "value"),
    [("players", 9), ("players", 1), ("decks", 3), ("jokers", 3), ("hand_size", 6), ("hand_size", 14), ("min_run", 5),
     ("short_pack", "yes"), ("score_divisor", 10), ("rummy_card_value", 10), ("target", 0), ("first_meld_min", -5),
     ("custom_values", {"ZZ": 3}), ("custom_values", {"QS": "forty"}), ("rounds", 0), ("joker_value", 7), ("players", True)],
)
def test_a_value_outside_the_catalogue_is_refused(name, value):
    with pytest.raises(RulesError, match=name):
        Rules.from_mapping({name: value})


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"custom_values": {"ZZ": 3}}, "option 'custom_values' cannot hold 'ZZ': a key is a card (QS) or a rank (Q, 10, A, JK)"),
        ({"custom_values": {"A": 20, "QS": "forty"}}, "option 'custom_values' cannot give QS 'forty': a value is a whole number (numbers run from -1000000 to 1000000)"),
        ({"custom_values": {"A": 2**53}}, "option 'custom_values' cannot give A 9007199254740992: a value is a whole number (numbers run from -1000000 to 1000000)"),
        ({"going_out_bonus": 10**9}, "option 'going_out_bonus' cannot be 1000000000: numbers run from -1000000 to 1000000"),
        ({"target": 2**60}, "option 'target' cannot be 1152921504606846976: numbers run from -1000000 to 1000000"),
        ({"low_ace_value": -(10**7)}, "option 'low_ace_value' cannot be -10000000: numbers run from -1000000 to 1000000"),
    ],
)
def test_a_bad_house_value_or_a_number_beyond_any_table_is_named(mapping, message):
    # A total past what a record may hold (2**53 - 1) could otherwise be scored, then refused when read back.
    with pytest.raises(RulesError) as info:
        Rules.from_mapping(mapping)
    assert str(info.value) == message


def test_the_largest_numbers_an_option_takes_are_accepted():
    rules = Rules.from_mapping({"custom_values": {"QS": 1_000_000}, "going_out_bonus": -1_000_000, "target": 1_000_000})
    assert rules.custom_values == {"QS": 1_000_000} and rules.going_out_bonus == -1_000_000 and rules.target == 1_000_000


@pytest.mark.parametrize("name", list(OPTIONS))
def test_naming_an_options_default_is_the_standard_game(name):
    rules = Rules.from_mapping({name: OPTIONS[name].default})
    assert rules == Rules() and rules.to_mapping() == {"players": 2}
