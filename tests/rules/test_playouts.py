"""Random-playout invariants for every preset and for random option combinations.

See :mod:`.playout` for what is checked at every step.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rummy500.rules import OPTIONS, PRESETS, Rules, RulesError

from .playout import play_match

# Values to draw for each option: every named value of the catalogue (so a new
# value is played out as soon as it is declared), plus a few numbers for the
# options that also take a free number, and objects for ``custom_values``.
FREE: dict[str, list] = {
    "players": list(range(2, 9)),
    "hand_size": list(range(7, 14)),
    "first_meld_min": [50],
    "low_ace_value": [5],
    "going_out_bonus": [25],
    "target": [100],
    "rounds": [1, 2],
    "final_bonus": [50],
    "custom_values": [{}, {"QS": 40}, {"A": 20, "JK": 50}],
}
VALUES: dict[str, list] = {
    name: [choice.value for choice in spec.choices] + FREE.get(name, []) for name, spec in OPTIONS.items()
}


#: What an option's value needs beside it to be played (the catalogue refuses it alone).
COMPANIONS: dict[tuple[str, object], dict] = {
    ("set_suits", "any"): {"decks": 2},
    ("joker_use", "joker_sets_only"): {"jokers": 4},
    ("layoff_onto", "own_and_partner"): {"partnership": True, "players": 4},
    ("rummy_card_value", 15): {"calling_rummy": "pile"},
    ("rummy_after_going_out", True): {"calling_rummy": "pile"},
    ("partnership", True): {"players": 4},
}
_DEFAULTS = Rules().to_mapping(full=True)
#: Every value of every option that is not the standard game's, each to be played out on its own.
ONE_BY_ONE: list[tuple[str, object]] = [
    (name, value) for name, values in VALUES.items() for value in values if value != _DEFAULTS.get(name)
]


def test_the_values_cover_every_option_of_the_catalogue():
    # Every named value of every option but the standard game's is played out on its own below.
    for name, spec in OPTIONS.items():
        for choice in spec.choices:
            assert choice.value == _DEFAULTS.get(name) or (name, choice.value) in ONE_BY_ONE, (name, choice.value)
    # Every option that takes a free number (or an object) gets some drawn here.
    assert {name for name, spec in OPTIONS.items() if spec.number is not None or not spec.choices} <= set(FREE)
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


@pytest.mark.parametrize(("name", "value"), ONE_BY_ONE, ids=[f"{n}={v}" for n, v in ONE_BY_ONE])
def test_random_playouts_keep_the_invariants_for_every_value_of_every_option(name, value):
    """One round per value, every seat's view checked: a random draw of combinations (below) may miss a value."""
    needs = next((extra for (n, v), extra in COMPANIONS.items() if n == name and v == value), {})
    rules = Rules.from_mapping({name: value, **needs})
    play_match(rules, 7, max_rounds=1, views_every=3)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_keep_the_invariants_for_every_preset(preset, seed):
    play_match(Rules.preset_rules(preset), seed)


def _other_table_sizes(preset: str) -> list[int]:
    """The largest table the preset allows and a middle one (3 players), where they differ from its own."""
    legal = []
    for n in range(2, 9):
        try:
            Rules.preset_rules(preset, players=n)
        except RulesError:
            continue
        legal.append(n)
    return sorted({max(legal), *(n for n in legal if n == 3)} - {Rules.preset_rules(preset).players})


OTHER_SIZES = [(preset, n) for preset in PRESETS for n in _other_table_sizes(preset)]


def test_the_other_table_sizes_reach_every_presets_largest_table():
    assert ("standard", 8) in OTHER_SIZES and ("dealers_gambit", 7) in OTHER_SIZES and ("hoyle", 3) in OTHER_SIZES
    assert not [p for p, n in OTHER_SIZES if p in ("partnership", "persian")]  # four seats only


@pytest.mark.parametrize(("preset", "players"), OTHER_SIZES, ids=[f"{p}-{n}" for p, n in OTHER_SIZES])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_keep_the_invariants_for_every_preset_at_other_table_sizes(preset, players, seed):
    play_match(Rules.preset_rules(preset, players=players), 10 * players + seed, max_rounds=2)


@pytest.mark.parametrize(("preset", "players"), [("standard", 3), ("standard", 5), ("standard", 8), ("partnership", 4)])
def test_random_playouts_keep_the_invariants_at_other_table_sizes_with_calls_out_of_turn(preset, players):
    rules = Rules.preset_rules(preset, players=players, calling_rummy="pile", meld_out_of_turn=True)
    play_match(rules, players, max_rounds=1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=option_sets(), seed=st.integers(0, 2**16))
def test_random_playouts_keep_the_invariants_for_random_option_combinations(rules, seed):
    play_match(rules, seed, max_rounds=1, views_every=6, apply_limit=8)
