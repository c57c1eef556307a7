"""Options as data: every option's values come with words, and code compares members or numbers, never strings.

The catalogue in ``rummy500.rules`` is the one source of parsing, of
``rummy500 rules``, of ``GET /api/rules`` and of docs/rules.md's tables.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rummy500
from rummy500.cli import main as cli_main
from rummy500.rules import (
    OPTIONS,
    Auto,
    JokerValue,
    Rounds,
    Rules,
    RulesError,
    RummyCardValue,
    StockOut,
    update_generated,
)
from rummy500.server.engine import rules_catalogue

ROOT = Path(__file__).resolve().parents[2]


def test_every_enumerated_option_lists_its_values_with_a_label_and_a_description():
    enumerated = [spec for spec in OPTIONS.values() if spec.kind is not None]
    assert len(enumerated) >= 16
    for spec in enumerated:
        assert [c.value for c in spec.choices] == [v.strip() for v in spec.values.split(",")]
        for choice in spec.choices:
            assert choice.label and choice.description, f"{spec.name}: {choice.value} needs words"
    assert spec.default in {c.value for c in spec.choices}


def test_parsing_gives_enum_members_and_a_typo_raises():
    rules = Rules.from_mapping({"stock_out": "play_on"})
    assert rules.stock_out is StockOut.PLAY_ON
    assert rules.to_mapping()["stock_out"] == "play_on" and type(rules.to_mapping()["stock_out"]) is str
    with pytest.raises(RulesError, match="'stock_out' cannot be 'playon'"):
        Rules.from_mapping({"stock_out": "playon"})
    with pytest.raises(AttributeError):
        _ = StockOut.PLAYON  # type: ignore[attr-defined]


def test_the_rules_endpoint_serves_the_choices_for_the_web_form():
    options = {o["name"]: o for o in rules_catalogue()["options"]}
    assert {c["value"] for c in options["calling_rummy"]["choices"]} == {"off", "pile", "top_card", "steal"}
    assert options["players"]["choices"] == []


_ENUMERATED = {name for name, spec in OPTIONS.items() if spec.kind is not None}
#: Options whose values include a word: enums, and the mixed word/number ones.
_WORDS = {name for name, spec in OPTIONS.items() if spec.kind is not None or spec.words is not None}


def test_no_code_compares_an_option_that_takes_words_with_a_bare_string():
    found = []
    for path in sorted(Path(rummy500.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr in _WORDS for s in sides) and any(
                isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert not found, (
        "compare enum members (rules.stock_out is StockOut.PLAY_ON) or use an accessor (rules.n_decks), not strings: "
        + ", ".join(found)
    )


def test_the_lint_sees_a_string_comparison_of_a_mixed_option():
    # The lint above must be able to fail: the code it forbids is found.
    tree = ast.parse('if rules.decks == "auto" or "to_target" != rules.rounds: pass')
    hits = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Compare)
        and any(isinstance(s, ast.Attribute) and s.attr in _WORDS for s in [n.left, *n.comparators])
    ]
    assert len(hits) == 2
    assert {"decks", "jokers", "hand_size", "low_ace_value", "joker_value", "rummy_card_value", "rounds"} <= _WORDS


# Bots see the game only through their View: the per-seat rule facts it
# carries and the engine's accessors (rules.n_decks, rules.may_lay_off_on...),
# never an option's value. These plain facts are the exceptions.
_BOT_MAY_READ = {"players", "short_pack"}


def _option_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """Where code reads an option's value: ``x.stock_out``, ``x["stock_out"]``, ``getattr(x, "stock_out")``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in OPTIONS and node.attr not in _BOT_MAY_READ:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Subscript | ast.Call):
            args = [node.slice] if isinstance(node, ast.Subscript) else node.args
            for a in args:
                if isinstance(a, ast.Constant) and a.value in OPTIONS and a.value not in _BOT_MAY_READ:
                    found.append((node.lineno, a.value))
    return found


def test_bots_read_no_option_value():
    found = []
    for path in sorted((Path(rummy500.__file__).parent / "bots").rglob("*.py")):
        found += [f"{path.name}:{line} reads option {name}" for line, name in _option_reads(ast.parse(path.read_text()))]
    assert not found, "bots must use the view's rule facts or the Rules accessors: " + "; ".join(found)


def test_the_bot_lint_sees_every_way_of_reading_an_option():
    code = 'a = view.rules.stock_out; b = rules.to_mapping()["calling_rummy"]; c = getattr(rules, "decks"); d = rules.n_decks'
    assert [name for _, name in _option_reads(ast.parse(code))] == ["stock_out", "calling_rummy", "decks"]


@pytest.mark.parametrize(
    ("mapping", "attr", "typed", "accessor", "resolved"),
    [
        ({}, "decks", Auto.AUTO, "n_decks", 1),
        ({"players": 5}, "decks", Auto.AUTO, "n_decks", 2),
        ({"players": 3, "decks": 2}, "decks", 2, "n_decks", 2),
        ({}, "jokers", Auto.AUTO, "n_jokers", 2),
        ({"jokers": 0}, "jokers", 0, "n_jokers", 0),
        ({"players": 3}, "hand_size", Auto.AUTO, "n_hand", 7),
        ({"hand_size": 10}, "hand_size", 10, "n_hand", 10),
        ({}, "rounds", Rounds.TO_TARGET, "fixed_rounds", None),
        ({"rounds": 2}, "rounds", 2, "fixed_rounds", 2),
        ({}, "low_ace_value", Auto.AUTO, "low_ace_points", None),
        ({"low_ace_value": 5}, "low_ace_value", 5, "low_ace_points", 5),
        ({"calling_rummy": "pile"}, "rummy_card_value", RummyCardValue.NORMAL, "claimed_card_points", None),
        ({"calling_rummy": "pile", "rummy_card_value": 15}, "rummy_card_value", 15, "claimed_card_points", 15),
    ],
)
def test_mixed_options_are_parsed_once_into_a_word_member_or_an_int(mapping, attr, typed, accessor, resolved):
    rules = Rules.from_mapping(mapping)
    value = getattr(rules, attr)
    assert value == typed and type(value) is type(typed)
    assert getattr(rules, accessor) == resolved
    # The record keeps the value exactly as written: a plain string or int.
    full = rules.to_mapping(full=True)[attr]
    assert full == (typed.value if isinstance(typed, Auto | Rounds | RummyCardValue) else typed)
    assert type(full) in (str, int)
    assert Rules.from_mapping(rules.to_mapping()) == rules


def test_joker_value_keeps_its_words_and_numbers_apart():
    assert Rules.from_mapping({"joker_value": "represented"}).joker_value is JokerValue.REPRESENTED
    assert Rules.from_mapping({"joker_value": 20}).joker_value == 20
    assert Rules().joker_value is JokerValue.AUTO


@pytest.mark.parametrize(
    ("name", "bad", "allowed"),
    [
        ("decks", 3, "auto, 1 or 2"),
        ("decks", "2", "auto, 1 or 2"),
        ("jokers", "Auto", "auto, 0, 1, 2 or 4"),
        ("jokers", True, "auto, 0, 1, 2 or 4"),
        ("hand_size", 14, "auto or a whole number from 7 to 13"),
        ("rounds", "3", "to_target or a whole number of at least 1"),
        ("rounds", 0, "to_target or a whole number of at least 1"),
        ("joker_value", "15", "auto, 0, 15, 20 or represented"),
        ("rummy_card_value", 10, "normal or 15"),
        ("low_ace_value", "low", "auto or any whole number"),
        ("target", 0, "500 or a whole number of at least 1"),
    ],
)
def test_a_bad_mixed_value_is_refused_naming_the_option_and_what_it_accepts(name, bad, allowed):
    with pytest.raises(RulesError) as info:
        Rules.from_mapping({name: bad})
    assert str(info.value) == f"option {name!r} cannot be {bad!r} (values: {allowed})"
    # Built directly, the same check applies: no object holds a value parsing refuses.
    with pytest.raises(RulesError, match=f"option '{name}' cannot be"):
        Rules(**{name: bad})


def test_every_named_value_has_words_and_is_accepted():
    for spec in OPTIONS.values():
        for choice in spec.choices:
            assert choice.label and choice.description, f"{spec.name}: {choice.value!r} needs words"
            assert spec.check(choice.value), f"{spec.name}: {choice.value!r} is named but refused"
        labels = [c.label for c in spec.choices]
        assert len(labels) == len(set(labels)), f"{spec.name}: two values share a label"
        if spec.number is not None:
            assert spec.number.label and spec.number.description
        else:
            # Every value an option accepts is named (custom_values is an object).
            assert spec.choices or spec.name == "custom_values", spec.name
    # Members of different enums with the same value keep their own words.
    assert OPTIONS["set_suits"].choices[1].label == "Suits may repeat"
    assert OPTIONS["layoff_onto"].choices[1].label == "Own melds"


def test_docs_rules_md_tables_are_generated_from_the_catalogue():
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "<!-- BEGIN GENERATED options" in doc and "<!-- BEGIN GENERATED presets" in doc
    assert update_generated(doc) == doc, "docs/rules.md differs from the catalogue: run python scripts/rules_doc.py"


def test_the_doc_check_notices_a_hand_edit():
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    edited = doc.replace("| | `auto` | Automatic | 2 jokers per pack |", "| | `auto` | Automatic | 3 jokers per pack |")
    assert edited != doc
    assert update_generated(edited) == doc


def test_rummy500_rules_prints_the_catalogue(capsys):
    assert cli_main(["rules"]) == 0
    out = capsys.readouterr().out
    for spec in OPTIONS.values():
        assert spec.name in out
        for choice in spec.choices:
            assert f"{choice.label}: {choice.description}" in out
    assert cli_main(["rules", "--markdown"]) == 0
    assert "| | `auto` | Automatic | 2 jokers per pack |" in capsys.readouterr().out


def test_no_option_is_described_by_one_of_its_choices():
    """An option says what it is about, not what one of its values means: `rummy500 rules --show standard`
    once explained first_discard "upcard" as "First player discards: no upcard; ..."."""
    for name, spec in OPTIONS.items():
        for choice in spec.choices:
            assert f"{choice.label}:" not in spec.description, (name, choice.value)


def test_every_option_has_a_players_label_and_says_what_the_engine_implies():
    """Labels in a player's words; ``implied`` and a choice's ``players`` agree with the engine itself."""
    from rummy500.cards import parse_card
    from rummy500.rules import CardValues, choice_players
    from rummy500.scoring import natural_value

    served = {o["name"]: o for o in rules_catalogue()["options"]}
    for name, spec in OPTIONS.items():
        assert spec.label and "_" not in spec.label and spec.label[0].isupper(), name
        assert served[name]["label"] == spec.label
    assert served["first_meld_min"]["label"] == "First meld minimum"
    assert served["dealers_gambit"]["label"] == "Dealer's Gambit"
    # No description sends a player to an option by its code name.
    for spec in OPTIONS.values():
        texts = [spec.description] + [c.description for c in spec.choices]
        for text in texts:
            assert not any(f" {other}" in text for other in OPTIONS if "_" in other), (spec.name, text)
    # direction: the value from_mapping puts in when the record leaves it out.
    (gambit,) = served["direction"]["implied"]
    assert Rules.from_mapping(gambit["when"]).direction == gambit["value"]
    assert Rules.from_mapping({**gambit["when"], "direction": "clockwise"}).direction == "clockwise"
    # low_ace_value: the number "From the card values" comes to, for every table of values.
    low = {i["when"]["card_values"]: i["value"] for i in served["low_ace_value"]["implied"]}
    assert set(low) == {c.value for c in CardValues}
    for values, points in low.items():
        assert natural_value(parse_card("AS"), Rules.from_mapping({"card_values": values}), low=True) == points
    # The seats a choice can be played at, only where some count cannot.
    seats = {(o["name"], c["value"]): c["players"] for o in served.values() for c in o["seats"]}
    assert seats["partnership", True] == [4] and seats["dealers_gambit", True] == [2, 3, 4, 5, 6, 7]
    assert seats["decks", 1] == [2, 3, 4, 5, 6, 7] and ("set_suits", "any") not in seats
    with pytest.raises(RulesError):
        Rules.from_mapping({"decks": 1}, players=8)
    assert choice_players("dealers_gambit", False) is None
