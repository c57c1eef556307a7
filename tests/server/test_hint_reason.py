"""The web hint's reason: the move in words, and what a search found when it overruled the rule of thumb."""

from __future__ import annotations

import pytest

from rummy500.actions import Discard, parse_action
from rummy500.bots.hard import Searched
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
    meld = next(a for a in view.legal if str(a) == "meld TC QC JK=JC")
    found = Searched(throw, meld, 8.2, 48, 3.0)
    monkeypatch.setattr(hints, "strongest_hint", lambda v, seed, budget: Hint(throw, "expert", found.words(str), 0.1, found))
    got = hints.hint_for(view, 1)
    assert got["action"] == {"discard": "7H"} and got["level"] == "expert"
    # The page shows the move ("Hint: Discard 7♥."): the reason does not repeat it, and names the other move in words.
    assert got["reason"] == (
        "It fits nothing you hold and is the card you can best spare. In 48 trial games a few turns ahead, "
        "with the hidden cards guessed, it did 8 points better on average than melding 10\u2663 Q\u2663 "
        "joker (as J\u2663), the obvious move."
    )


def test_a_lay_off_the_search_passed_over_is_named_with_its_meld_counted_from_1(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _view_with_a_meld()
    throw = Discard((parse_card("7H"),))
    found = Searched(throw, parse_action("layoff 5S on 2"), 0.3, 96, 1.0)
    monkeypatch.setattr(hints, "strongest_hint", lambda v, seed, budget: Hint(throw, "expert", found.words(str), 0.1, found))
    assert hints.hint_for(view, 1)["reason"].endswith(
        "it did less than a point better on average than laying off 5\u2660 on meld 3, the obvious move."
    )


def test_a_rule_of_thumb_move_keeps_the_plain_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _view_with_a_meld()
    throw = Discard((parse_card("7H"),))
    monkeypatch.setattr(hints, "strongest_hint", lambda v, seed, budget: Hint(throw, "medium", "discard 7H", 0.0))
    assert hints.hint_for(view, 1)["reason"] == "It fits nothing you hold and is the card you can best spare."


def test_a_quick_game_hint_counts_in_the_game_s_own_points() -> None:
    # Quick divides every score by 5: 10♣ Q♣ and a joker (35 card points) are 7 of the game's points.
    state = RoundState.from_deal(
        Rules.preset_rules("quick"), 1, [parse_cards("TC QC JK 7H 2D"), parse_cards("KD 3S 4S")], parse_cards("8D 9S"), parse_cards("QD")
    )
    state.apply(next(a for a in state.legal_actions(0) if str(a) == "draw"), 0)
    view = state.view(0)
    meld = next(a for a in view.legal if str(a) == "meld TC QC JK=JC")
    assert hints.reason(view, meld) == "7 points are safe on the table before anyone goes out."


def test_the_last_card_s_throw_says_it_goes_out() -> None:
    state = RoundState.from_deal(Rules(), 1, [parse_cards("5H 6H 7H"), parse_cards("KD 3S 4S")], parse_cards("8D 2D"), parse_cards("QD"))
    for move in ("draw", "meld 5H 6H 7H"):
        state.apply(next(a for a in state.legal_actions(0) if str(a) == move), 0)
    view = state.view(0)
    assert hints.reason(view, Discard((parse_card("8D"),))) == "It is your last card: throwing it takes you out."
