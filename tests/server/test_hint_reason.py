"""The web hint's reason: the move in words, and what a search found when it overruled the rule of thumb."""

from __future__ import annotations

import pytest

from rummy500.actions import Discard
from rummy500.bots.hinting import Hint
from rummy500.cards import parse_card, parse_cards
from rummy500.rules import Rules
from rummy500.server import hints
from rummy500.state import RoundState


def _view_with_a_meld():
    # Ann holds 10♣ Q♣ and a joker (a meld she may lay) and a loose 7♥, having drawn.
    state = RoundState.from_deal(Rules(), 1, [parse_cards("TC QC JK 7H 2D"), parse_cards("KD 3S 4S")], parse_cards("8D 9S"), parse_cards("QD"))
    state.apply(next(a for a in state.legal_actions(0) if str(a) == "draw"), 0)
    return state.view(0)


def test_holding_a_meld_back_says_what_the_search_found(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _view_with_a_meld()
    throw = Discard((parse_card("7H"),))
    assert throw in view.legal and any(str(a).startswith("meld") for a in view.legal)
    found = "discard 7H: played out 48 times a few turns ahead, over guesses of the hidden cards, it ended 8 points better on average than meld TC QC JK=JC, the first choice by rule of thumb"
    monkeypatch.setattr(hints, "strongest_hint", lambda v, seed, budget: Hint(throw, "expert", found, 0.1))
    got = hints.hint_for(view, 1)
    assert got["action"] == {"discard": "7H"} and got["level"] == "expert"
    assert got["reason"] == (
        "Discard 7\u2665: it fits nothing you hold and is the card you can best spare. Played out 48 times a few turns "
        "ahead, over guesses of the hidden cards, it ended 8 points better on average than meld 10\u2663 Q\u2663 "
        "joker (as J\u2663), the first choice by rule of thumb."
    )


def test_a_rule_of_thumb_move_keeps_the_plain_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _view_with_a_meld()
    throw = Discard((parse_card("7H"),))
    monkeypatch.setattr(hints, "strongest_hint", lambda v, seed, budget: Hint(throw, "medium", "discard 7H", 0.0))
    assert hints.hint_for(view, 1)["reason"] == "Discard 7\u2665: it fits nothing you hold and is the card you can best spare."
