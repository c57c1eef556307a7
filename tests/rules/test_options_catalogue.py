"""Options as data: every enumerated option's values come with words, and code compares members, not strings."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rummy500
from rummy500.rules import OPTIONS, Rules, RulesError, StockOut
from rummy500.server.engine import rules_catalogue


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


def test_no_code_compares_an_enumerated_option_with_a_bare_string():
    found = []
    for path in sorted(Path(rummy500.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr in _ENUMERATED for s in sides) and any(
                isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert not found, "compare enum members (rules.stock_out is StockOut.PLAY_ON), not strings: " + ", ".join(found)
