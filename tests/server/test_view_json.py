"""The server's fast view JSON is the engine's ``View.to_dict`` (less declines), exactly, in every kind of position."""

from __future__ import annotations

import random

import pytest

from rummy500.rules import PRESETS
from rummy500.server.engine import LiveGame, RulesError, parse_rules, view_json


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_view_json_equals_the_engines_to_dict(preset: str) -> None:
    try:
        players, rules = 3, parse_rules({"preset": preset}, 3)
    except RulesError:  # the partnership presets: four seats
        players, rules = 4, parse_rules({"preset": preset}, 4)
    game = LiveGame(rules, [f"P{i}" for i in range(players)], seed=11)
    rng = random.Random(5)
    checked = 0
    while not game.is_over and game.version < 250:
        for seat in [*range(players), None]:
            view = game.view(seat)
            # Less the engine's declines, which no client may send (test_audit_fixes.py).
            expected = view.to_dict()
            expected["legal"] = [a for a in expected["legal"] if "decline" not in a]
            assert view_json(view) == expected, f"{preset} version {game.version} seat {seat}"
            checked += 1
        actor = game.actors()[0]
        game.apply(actor, rng.choice(game.legal(actor)))
    assert checked > 100
    # Key order too: the JSON text a socket gets is the same.
    assert list(view_json(game.view(0))) == list(game.view(0).to_dict())
