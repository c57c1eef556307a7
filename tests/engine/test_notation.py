"""Card notation, action text/record forms and rules parsing: everything round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy500 import (
    JOKER,
    ActionError,
    CardError,
    Discard,
    Draw,
    LayOff,
    Meld,
    Pass,
    Rules,
    RulesError,
    Take,
    action_from_record,
    parse_action,
    parse_card,
    parse_cards,
)
from rummy500.cards import declared, format_cards, natural_cards
from rummy500.rules import OPTIONS, PRESETS

# ---------------------------------------------------------------- cards


def test_every_natural_card_round_trips_through_its_text():
    texts = [str(c) for c in natural_cards()]
    assert len(set(texts)) == 52
    for c in natural_cards():
        assert parse_card(str(c)) is c
    assert "TH" in texts and "10H" not in texts


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10H", "TH"), ("10h", "TH"), ("th", "TH"), (" AS ", "AS"), ("jk", "JK"), ("JK=10D", "JK=TD"), ("jk=7h", "JK=7H")],
)
def test_input_forms_are_accepted_and_written_in_the_standard_notation(text, expected):
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["1X", "1H", "11H", "ZZ", "", "A", "AHH", "JK=JK", "JK=", "J K", "0S", "AX"])
def test_unknown_cards_are_refused_with_a_card_error(text):
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert isinstance(info.value, ValueError)
    assert "card" in str(info.value)


@pytest.mark.parametrize("value", [None, 7, 1.5, ["AS"], b"AS"])
def test_non_strings_are_not_cards(value):
    with pytest.raises(CardError):
        parse_card(value)


def test_a_declared_joker_prints_what_it_stands_for_and_is_a_joker():
    jk = parse_card("JK=7H")
    assert str(jk) == "JK=7H"
    assert jk.is_joker and jk.is_declared
    assert str(jk.natural) == "7H" and jk.rank == 7 and jk.suit == 2
    assert jk.bare is JOKER
    assert declared(parse_card("7H")) is jk
    assert not JOKER.is_declared and JOKER.is_joker and str(JOKER) == "JK"


def test_card_lists_parse_from_spaces_or_commas_and_format_back():
    assert format_cards(parse_cards("AS, 10D  JK=QH")) == ["AS", "TD", "JK=QH"]
    assert format_cards(parse_cards(["ah", "2h"])) == ["AH", "2H"]


# -------------------------------------------------------------- actions

TEXT_FORMS = [
    ("draw", Draw(), {"draw": "stock"}),
    ("take 1", Take(1), {"take": 1}),
    ("take 3", Take(3), {"take": 3}),
    ("meld 5H 6H JK=7H", Meld(tuple(parse_cards("5H 6H JK=7H"))), {"meld": ["5H", "6H", "JK=7H"]}),
    ("layoff 8H 9H on 4", LayOff(tuple(parse_cards("8H 9H")), 4), {"layoff": ["8H", "9H"], "on": 4}),
    ("discard KS", Discard((parse_card("KS"),)), {"discard": "KS"}),
    ("pass", Pass(), {"pass": True}),
]


@pytest.mark.parametrize(("text", "action", "record"), TEXT_FORMS)
def test_actions_round_trip_between_text_record_and_value(text, action, record):
    assert parse_action(text) == action
    assert str(action) == text
    assert action.to_record() == record
    assert action_from_record(record) == action
    assert action_from_record({"p": 1, **record}) == action


def test_card_order_inside_an_action_does_not_matter_and_10_is_written_T():
    a = parse_action("meld 10H 9H JH")
    assert a == parse_action("meld JH TH 9H")
    assert str(a) == "meld 9H TH JH"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "foo",
        "take",
        "take 0",
        "take x",
        "take -1",
        "layoff 8H",
        "layoff 8H on",
        "layoff 8H on x",
        "discard",
        "discard 1X",
        "meld",
        "meld AS 2S 1X",
        "draw stock please",
        "swap on 2",
    ],
)
def test_malformed_action_text_is_refused_with_an_action_error(text):
    with pytest.raises(ActionError) as info:
        parse_action(text)
    assert isinstance(info.value, ValueError) and str(info.value)


@pytest.mark.parametrize(
    "record",
    [
        {},
        {"p": 0},
        {"draw": "pile"},
        {"take": 0},
        {"take": True},
        {"take": "3"},
        {"meld": []},
        {"meld": "AS 2S 3S"},
        {"meld": ["AS", "2S", "1X"]},
        {"layoff": ["8H"]},
        {"layoff": ["8H"], "on": -1},
        {"layoff": ["8H"], "on": "0"},
        {"discard": 5},
        {"discard": "KS", "on": 1},
        {"pass": False},
        {"fly": True},
        {"draw": "stock", "take": 1},
        {"draw": "stock", "extra": 1},
        ["draw"],
        "draw",
    ],
)
def test_malformed_action_records_are_refused(record):
    with pytest.raises(ActionError):
        action_from_record(record)


@settings(deadline=None)
@given(st.sampled_from(natural_cards()), st.sampled_from(natural_cards()), st.integers(0, 30))
def test_layoff_text_round_trips_for_any_cards_and_meld_id(a, b, on):
    action = LayOff((a, b), on)
    assert parse_action(str(action)) == action
    assert action_from_record(action.to_record()) == action


# ---------------------------------------------------------------- rules


def test_the_default_rules_are_the_standard_game():
    rules = Rules.from_mapping({})
    assert rules == Rules() == Rules.from_mapping({"preset": "standard"}) == Rules.from_mapping(None)
    assert rules.players == 2 and rules.target == 500 and rules.min_run == 3
    assert rules.around_the_corner is False and rules.discard_back is False
    assert rules.discard_draw == "any_depth" and rules.must_use_taken == "if_several"
    assert rules.to_mapping() == {"players": 2}


def test_unknown_options_and_values_are_all_listed_at_once():
    with pytest.raises(RulesError) as info:
        Rules.from_mapping({"preset": "nope", "colour": "red", "players": 9, "decks": 3, "min_run": "3"})
    problems = info.value.problems
    assert len(problems) == 5
    text = str(info.value)
    for word in ("nope", "colour", "players", "decks", "min_run"):
        assert word in text
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "mapping",
    [
        {"players": True},
        {"players": 1},
        {"players": 2.0},
        {"target": 0},
        {"target": "500"},
        {"around_the_corner": 1},
        {"jokers": 3},
        {"hand_size": 6},
        {"custom_values": {"XX": 5}},
        {"custom_values": {"AS": "5"}},
        {"custom_values": []},
    ],
)
def test_bad_option_values_are_refused_never_silently_defaulted(mapping):
    with pytest.raises(RulesError) as info:
        Rules.from_mapping(mapping)
    assert list(mapping)[0] in str(info.value)


def test_a_nonsensical_combination_names_both_options():
    with pytest.raises(RulesError) as info:
        Rules.from_mapping({"players": 2, "partnership": True})
    assert "partnership" in str(info.value) and "players" in str(info.value)


def test_rules_must_be_a_mapping():
    with pytest.raises(RulesError):
        Rules.from_mapping(["standard"])  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_parses_and_round_trips_through_to_mapping(name):
    rules = Rules.from_mapping({"preset": name})
    for option, value in PRESETS[name].items():
        assert getattr(rules, option) == value
    assert Rules.from_mapping(rules.to_mapping()) == rules
    assert Rules.from_mapping(rules.to_mapping(full=True)) == rules


def test_options_override_a_preset():
    rules = Rules.from_mapping({"preset": "popular", "calling_rummy": "top_card", "players": 3})
    assert rules.calling_rummy == "top_card" and rules.players == 3
    assert Rules.from_mapping({"preset": "quick"}).target == 100


def test_every_option_has_its_default_on_the_rules_object():
    rules = Rules()
    for name, spec in OPTIONS.items():
        assert getattr(rules, name) == spec.default, name
        assert spec.check(spec.default), name
