"""``hard`` and ``expert`` answer trivial decisions from the heuristics, without a search."""

from __future__ import annotations

import random

import pytest

from rummy500.actions import Discard
from rummy500.bots import make_bot
from rummy500.rules import Rules
from rummy500.state import RoundState

# Seat 0 drew and holds two cards it cannot lay: which one to throw is all that is left.
TWO_CARDS = "dealer=1 to_move=0 phase=play discard=TC hands=KS.3D|4C.4D.4S.KD.9H.8C.2S stock=QD.7S.5C"
# Seat 0 holds five loose cards: a real discard choice, searched.
FIVE_CARDS = "dealer=1 to_move=0 phase=play discard=TC hands=KS.3D.9C.6H.QH|4C.4D.4S.KD.9H.8C.2S stock=QD.7S.5C"


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_two_card_hand_is_answered_without_playouts(level: str) -> None:
    state = RoundState.from_position(Rules(), TWO_CARDS)
    view = state.view(0)
    assert len([a for a in view.legal if isinstance(a, Discard)]) == 2
    bot = make_bot(level, 1, iterations=40)
    action = bot.act(view, random.Random(2))
    assert action in view.legal and isinstance(action, Discard)
    assert bot.last_stats == {}  # type: ignore[attr-defined]


def test_a_close_discard_with_a_bigger_hand_is_searched() -> None:
    state = RoundState.from_position(Rules(), FIVE_CARDS)
    view = state.view(0)
    bot = make_bot("hard", 1, iterations=12, margin=100.0, horizon=2)
    action = bot.act(view, random.Random(2))
    assert action in view.legal
    assert bot.last_stats["playouts"] > 0  # type: ignore[attr-defined]
