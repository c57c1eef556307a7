"""A review's move numbers are the replay viewer's steps, reshuffles or not."""

from __future__ import annotations

import random
from typing import Any

from rummy500.bots.random_bot import RandomBot
from rummy500.review import Budget, review_record
from rummy500.server.engine import LiveGame, parse_rules
from rummy500.server.workers import replay_steps

RULES: dict[str, Any] = {"preset": "standard", "stock_out": "reshuffle", "rounds": 1}
NAMES = ["A", "B"]
QUICK = Budget(samples=2, horizon=1, extend=0, settle_after=1, confirm=1, confirm_guesses=2, prune_after=1)


def _played(seed: int) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """A game played at a server table by random bots: its record, and the players' actions as the server stores them."""
    game = LiveGame(parse_rules(RULES, len(NAMES)), NAMES, seed)
    bots = [RandomBot(0), RandomBot(1)]
    rng = random.Random(seed)
    stored: list[tuple[int, dict[str, Any]]] = []
    while not game.match.is_over:
        assert game.match.state is not None
        seat = game.match.state.public.to_move
        action = bots[seat].act(game.match.view(seat), rng)
        game.apply(seat, action)
        stored.append((seat, action.to_record()))
    return game.record(), stored


def test_moves_after_a_reshuffle_are_numbered_as_the_replay_viewer_numbers_them() -> None:
    record, stored = _played(1)
    actions = [a for r in record["rounds"] for a in r["actions"]]
    assert any("reshuffle" in a for a in actions), "the game should hold a reshuffle"
    steps = replay_steps(RULES, NAMES, 1, stored)
    # Which decisions there are, in order (select is asked about each), then the last two reviewed.
    asked: list[tuple[int, int]] = []
    review_record(record, budget=QUICK, select=lambda s, n: asked.append((s, n)) is not None)
    last = set(asked[-2:])
    review = review_record(record, budget=QUICK, select=lambda s, n: (s, n) in last)
    assert len(review.decisions) == 2
    assert review.steps == len(steps) - 1 == len(stored)
    for d in review.decisions:
        # The viewer's step d.step shows the position after this move (review.js: goTo(d.step - 1) shows it before).
        shown = steps[d.step]["action"]
        assert (shown["seat"], shown["action"]) == (d.seat, d.played_action), d.step
