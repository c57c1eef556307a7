"""The replay viewer's steps (``workers.replay_steps``) carry every seat's true hand.

A Dealer's Gambit deal lies face down until the dealer nominates: no seat's view
holds its cards then, but the replay of a finished game shows every hand.
"""

from __future__ import annotations

import random
from typing import Any

from rummy500.server.engine import LiveGame, parse_action, parse_rules
from rummy500.server.workers import replay_steps

NAMES = ["Ann", "Bob", "Cy"]
GAMBIT: dict[str, Any] = {"preset": "dealers_gambit", "rounds": 2}


def _played(rules: dict[str, Any], seed: int) -> list[tuple[int, dict[str, Any]]]:
    """A game played to its end by a quick policy (a meld or a lay-off when there is one): its stored actions."""
    rng = random.Random(seed)
    game = LiveGame(parse_rules(rules, len(NAMES)), NAMES, seed)
    actions: list[tuple[int, dict[str, Any]]] = []
    while not game.is_over:
        assert len(actions) < 5000, "the game should end"
        seat = game.actors()[0]
        legal = [a.to_record() for a in game.legal(seat)]
        record = rng.choice([a for a in legal if "meld" in a or "layoff" in a] or legal)
        game.apply(seat, parse_action(record))
        actions.append((seat, record))
    return actions


def _true_hands(rules: dict[str, Any], seed: int, actions: list[tuple[int, dict[str, Any]]], upto: int) -> list[list[str]]:
    game = LiveGame.replay(parse_rules(rules, len(NAMES)), NAMES, seed, actions, upto=upto)
    assert game.match.state is not None
    return [[str(c) for c in sorted(hand)] for hand in game.match.state.hands]


def test_a_gambit_deal_before_the_nomination_shows_every_hand() -> None:
    actions = _played(GAMBIT, 5)
    steps = replay_steps(GAMBIT, NAMES, 5, actions)
    deals = [0] + [i for i, s in enumerate(steps) if s["round_over"] and not s["game_over"]]
    assert len(deals) >= 2, "the game should have a second round"
    for i in deals:
        view = steps[i]["view"]
        assert view["phase"] == "nominate"  # the deal lies face down ...
        assert view["hand"] is None or view["hand"] == []
        # ... yet the replay shows each seat's cards: the match's, as many as the seat holds.
        assert [len(h) for h in steps[i]["hands"]] == view["hand_sizes"]
        assert all(steps[i]["hands"]), i
        assert steps[i]["hands"] == _true_hands(GAMBIT, 5, actions, i)
    # Every other step too: the true hands, as the view counts them.
    for i, s in enumerate(steps):
        assert [len(h) for h in s["hands"]] == s["view"]["hand_sizes"], i


def test_hands_are_the_seats_own_views_where_those_show_them() -> None:
    rules: dict[str, Any] = {"rounds": 1}
    actions = _played(rules, 3)
    steps = replay_steps(rules, NAMES, 3, actions)
    game = LiveGame(parse_rules(rules, len(NAMES)), NAMES, 3)

    def views() -> list[list[str]]:
        return [list(game.view_dict(s).get("hand") or []) for s in range(len(NAMES))]

    assert steps[0]["hands"] == views()
    for i, (seat, record) in enumerate(actions[:30], start=1):
        game.apply(seat, parse_action(record))
        assert steps[i]["hands"] == views(), i
