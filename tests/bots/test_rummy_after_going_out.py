"""The bots and ``rummy_after_going_out``: they look at the pile before going out."""

from __future__ import annotations

import random

import pytest

from rummy500 import Rules, parse_cards
from rummy500.actions import Action, Discard, Draw, LayOff, parse_action
from rummy500.bots import make_bot
from rummy500.bots.heuristics import Analysis
from rummy500.events import Event, LeftRummy
from rummy500.state import RoundState

RULES = Rules.from_mapping({"calling_rummy": "pile", "rummy_after_going_out": True})


def _after_draw(pile: str, drawn: str, rules: Rules = RULES, thrown: str = "QC") -> RoundState:
    """Seat 1 has laid 5H 6H 7H, thrown ``thrown`` and holds two cards; seat 0 holds the 4H and draws ``drawn``.

    The 3H lies in the pile: once the 4H is laid off on the run, it is playable.
    """
    state = RoundState.from_position(
        rules, f"dealer=0 to_move=1 phase=draw discard={pile} hands=4H|5H.6H.7H.QD.{thrown} stock=2S.{drawn}.TC.JD.AS"
    )
    for text in ("draw", "meld 5H 6H 7H", f"discard {thrown}"):
        state.apply(parse_action(text), 1)
    state.apply(Draw(), 0)
    return state


def _play_turn(state: RoundState, level: str) -> tuple[list[Action], list[Event]]:
    bot = make_bot(level, seed=3)
    if level == "easy":
        bot.miss_layoff = 0.0  # type: ignore[attr-defined]  # it sees the lay-off this time
    actions: list[Action] = []
    events: list[Event] = []
    while state.public.to_move == 0 and not state.is_over:
        action = bot.act(state.view(0), random.Random(4))
        assert action is not None
        actions.append(action)
        events += state.apply(action, 0)
    return actions, events


def test_the_analysis_foresees_the_cards_a_going_out_throw_brings_back() -> None:
    an = Analysis(_after_draw("KS.3H.9C", "8D").view(0))
    plan = an.base()[1]
    assert [(str(g.cards[0]), g.on) for g in plan] == [("4H", 0)]
    # Laying off the 4H makes the 3H playable: throwing the 8D brings back the 9C, QC and 8D.
    assert an.left_rummy(plan, parse_cards("8D")) == tuple(parse_cards("9C QC 8D"))
    # Without the lay-off the pile holds nothing playable: the throw goes out.
    assert an.left_rummy((), parse_cards("8D")) is None


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_a_bot_keeps_its_lay_off_rather_than_take_back_three_cards(level: str) -> None:
    state = _after_draw("KS.3H.9C", "8D")
    actions, events = _play_turn(state, level)
    # It throws the 8D and keeps the 4H: nothing comes back, the 3H stays dead in the pile.
    assert actions == [Discard(tuple(parse_cards("8D")))]
    assert not any(isinstance(e, LeftRummy) for e in events)
    assert state.hands[0] == parse_cards("4H")


def test_the_easy_bot_goes_out_without_looking_and_takes_the_cards_back() -> None:
    state = _after_draw("KS.3H.9C", "8D")
    actions, events = _play_turn(state, "easy")
    assert actions[0] == LayOff(tuple(parse_cards("4H")), 0)
    left = [e for e in events if isinstance(e, LeftRummy)]
    assert [(str(e.card), [str(c) for c in e.cards]) for e in left] == [("3H", ["9C", "QC", "8D"])]
    assert sorted(state.hands[0]) == sorted(parse_cards("9C QC 8D"))


def test_a_cheap_rummy_is_still_worth_going_out_into() -> None:
    # Seat 1 threw the 3H itself: only the 2C (the throw) would come back, and laying off the
    # 4H now is worth more than holding it.
    state = _after_draw("KS", "2C", thrown="3H")
    actions, events = _play_turn(state, "medium")
    assert actions == [LayOff(tuple(parse_cards("4H")), 0), Discard(tuple(parse_cards("2C")))]
    assert [[str(c) for c in e.cards] for e in events if isinstance(e, LeftRummy)] == [["2C"]]
    assert state.hands[0] == parse_cards("2C") and state.public.discard[-1] == parse_cards("3H")[0]


def test_without_the_rule_the_bot_goes_out() -> None:
    rules = Rules.from_mapping({"calling_rummy": "pile"})
    state = _after_draw("KS.3H.9C", "8D", rules)
    actions, _ = _play_turn(state, "medium")
    assert actions == [LayOff(tuple(parse_cards("4H")), 0), Discard(tuple(parse_cards("8D")))]
    assert state.is_over and state.result is not None and state.result.went_out == 0
