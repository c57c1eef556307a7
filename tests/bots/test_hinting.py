"""Hints come from the strongest level that answers within the time budget, and say which."""

from __future__ import annotations

import random

from rummy500 import Match, Rules
from rummy500.bots import make_bot
from rummy500.bots.hinting import HINT_LEVELS, hint_budget, strongest_hint
from rummy500.views import View

from .conftest import FAST
from .test_contract import _poisoned


def _positions(count: int) -> list[tuple[View, View]]:
    """Views of the player to move at several points of a medium-vs-medium game, each with a choice.

    Each comes with its twin: the same view of a position whose unseen cards are dealt differently.
    """
    match = Match(Rules.from_mapping({"preset": "popular"}), seed=21)
    movers = [make_bot("medium", 1), make_bot("medium", 2)]
    rng = random.Random(5)
    out: list[tuple[View, View]] = []
    for step in range(200):
        seat = match.state.public.to_move
        view = match.view(seat)
        if step % 5 == 2 and len(view.legal) > 1 and len(view.hand) > 2:
            twin = _poisoned(match.state, seat, random.Random(step))
            out.append((view, twin.view(seat, match.totals)))
            if len(out) == count:
                break
        match.apply(seat, movers[seat].act(view, rng))
        if match.is_over:
            break
    return out


def test_with_time_enough_the_strongest_level_answers_and_is_named() -> None:
    for view, _ in _positions(3):
        hint = strongest_hint(view, 7, budget=1e9, options=FAST)
        assert hint.level == HINT_LEVELS[0] == "expert"
        assert hint.action in view.legal


def test_with_no_time_left_the_quick_level_answers() -> None:
    for view, _ in _positions(3):
        hint = strongest_hint(view, 7, budget=0.0, options=FAST)
        assert hint.level == "medium"
        assert hint.action in view.legal


def test_a_search_cut_short_by_the_clock_falls_back_to_a_weaker_level() -> None:
    """A budget far below one playout: expert's search stops unfinished, so it does not answer."""
    fell_back = 0
    for view, _ in _positions(4):
        hint = strongest_hint(view, 7, budget=1e-7, levels=("expert", "medium"), options=FAST)
        assert hint.level in ("expert", "medium")  # expert answers only a decision it does not search
        fell_back += hint.level == "medium"
    assert fell_back >= 1


def test_the_hint_budget_follows_the_turn_clock() -> None:
    assert hint_budget(None) == hint_budget(0) == 2.0
    assert hint_budget(120) == 2.0
    assert hint_budget(5) == 0.5


def test_poisoned_hidden_cards_change_no_hint() -> None:
    """The hint sees the asker's view only: dealing the unseen cards differently changes nothing."""
    for view, twin_view in _positions(3):
        assert twin_view == view
        a = strongest_hint(view, 11, budget=1e9, options=FAST)
        b = strongest_hint(twin_view, 11, budget=1e9, options=FAST)
        assert (a.action, a.level) == (b.action, b.level)
