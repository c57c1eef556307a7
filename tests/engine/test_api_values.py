"""The API takes what a caller may reasonably pass, and records only the engine's own values.

An action only *equal* to a legal one (plain ints for cards, numpy integers) is played as the
engine's own action; bools and floats are refused with a reason; a seat is a whole number.
A record may stop anywhere (between rounds, before a reshuffle) and plays on from there.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from rummy500.actions import CallRummy, Draw, LayOff, Meld, Take
from rummy500.cards import parse_card, parse_cards
from rummy500.drive import PolicyAgent, drive
from rummy500.match import Match
from rummy500.record import match_from_record, replay
from rummy500.rules import Rules
from rummy500.state import IllegalAction, RoundState


def _deal(rules: Rules, dealer: int, hands: list[str], stock: str, discard: str) -> RoundState:
    return RoundState.from_deal(rules, dealer, [parse_cards(h) for h in hands], parse_cards(stock), parse_cards(discard))


def _snapshot(state: RoundState) -> tuple:
    return (state.position(), [list(h) for h in state.hands], list(state.stock), state.public)


def test_a_meld_written_as_plain_ints_is_played_as_cards_and_the_round_goes_on():
    state = _deal(Rules(), 1, ["5H 5S JK 9C KD", "2C 3D 4S"], "8D 7C", "QD")
    state.apply(Draw(), 0)
    plain = Meld(tuple(int(c) for c in (parse_card("5H"), parse_card("5S"), parse_card("JK=5C"))))
    state.apply(plain, 0)
    assert [str(c) for c in state.public.melds[0].cards] == ["5H", "5S", "JK=5C"]
    assert state.legal_actions(0) and state.decision() is not None and state.view(0).to_dict()["melds"]


@pytest.mark.parametrize("bad", [Take(True), Take(1.0), Take(np.float64(1.0))], ids=["bool", "float", "numpy-float"])
def test_bools_and_floats_are_refused_with_a_reason_and_nothing_changes(bad):
    state = _deal(Rules(), 1, ["5H 9C", "2C 3D"], "8D 7C", "QD")
    before = _snapshot(state)
    assert not state.is_legal(bad, 0)  # as apply says
    with pytest.raises(IllegalAction, match="cards and whole numbers"):
        state.apply(bad, 0)
    assert _snapshot(state) == before


def test_a_steal_with_a_float_meld_id_takes_no_card_out_of_play():
    state = _deal(Rules(players=3, calling_rummy="steal"), 2, ["5H 6H 7H 8H 9C", "KD QD 2S 3S", "TC 4D 4S"], "2C 3C 3D", "JS")
    for action in (Draw(), Meld(tuple(parse_card(c) for c in ("5H", "6H", "7H")))):
        state.apply(action, 0)
    state.apply(next(a for a in state.legal_actions(0) if str(a) == "discard 8H"), 0)
    before = _snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(CallRummy(1, on=0.0), 2)  # type: ignore[arg-type]
    assert _snapshot(state) == before
    state.apply(CallRummy(1, on=np.int64(0)), 2)  # type: ignore[arg-type]
    assert [str(c) for c in state.public.melds[0].cards] == ["5H", "6H", "7H", "8H"]


@pytest.mark.parametrize("seat", ["0", True, 0.0, None])
def test_a_seat_is_a_whole_number(seat):
    match = Match(Rules(), ["a", "b"], rng=random.Random(1))
    with pytest.raises(IllegalAction, match="a seat is a whole number from 0 to 1"):
        match.apply(seat, Draw())  # type: ignore[arg-type]
    assert match.rounds[0].actions == []


def test_numpy_integers_are_recorded_as_plain_numbers():
    match = Match(Rules(), ["a", "b"], rng=random.Random(1))
    seat = match.state.public.to_move
    match.apply(np.int64(seat), Take(np.int64(1)))  # type: ignore[arg-type]
    text = json.dumps(match.record())
    assert replay(json.loads(text))["ok"]
    assert json.loads(text)["rounds"][0]["actions"] == [{"p": seat, "take": 1}]


def test_a_lay_off_written_with_plain_ints_is_recorded_in_the_notation():
    state = _deal(Rules(), 1, ["5H 6H 7H 8H 9C", "2C 3D"], "8D 7C", "QD")
    state.apply(Draw(), 0)
    state.apply(Meld(tuple(parse_card(c) for c in ("5H", "6H", "7H"))), 0)
    state.apply(LayOff((int(parse_card("8H")),), 0), 0)  # type: ignore[arg-type]
    assert [str(c) for c in state.public.melds[0].cards] == ["5H", "6H", "7H", "8H"]


# ------------------------------------------------------------ records that stop anywhere
_EMPTY_STOCK = {"hands": [["AS", "2S", "3S", "9D"], ["4H", "5H", "6H", "8C"]], "stock": [], "discard": ["5C", "6C", "7C", "KD"]}


def test_a_deal_with_no_stock_replays_to_the_reshuffle_its_record_holds():
    rec = {"rules": {"stock_out": "reshuffle"}, "players": 2, "rounds": [{"dealer": 1, "deal": _EMPTY_STOCK, "actions": []}]}
    out = replay(rec)
    assert out["ok"] and out["state"]["phase"] == "shuffle" and out["state"]["stock_count"] == 0
    rec["rounds"][0]["actions"] = [{"p": 0, "reshuffle": ["7C", "5C", "6C"]}, {"p": 0, "draw": "stock"}]
    out = replay(rec)
    assert out["ok"], out["error"]
    assert out["state"]["hands"][0] == ["AS", "2S", "3S", "9D", "7C"]  # the reshuffle as recorded, top card first


def test_a_match_rebuilt_from_a_record_plays_on_from_a_reshuffle_due_or_between_rounds():
    rec = {"rules": {"stock_out": "reshuffle"}, "players": 2, "rounds": [{"dealer": 1, "deal": _EMPTY_STOCK, "actions": []}]}
    match = match_from_record(rec)
    assert match.decision() is not None and match.decision().kind.value == "chance"
    match.continue_play()
    assert match.state.public.phase.value == "draw" and len(match.state.stock) == 3
    # Between two rounds: a record of one finished round (not the end of the game).
    played = Match(Rules(), ["a", "b"], rng=random.Random(4))
    agents = [PolicyAgent(lambda v, r: r.choice(v.legal))] * 2
    drive(played, agents, random.Random(4), until=lambda: len(played.rounds) > 1)
    one = played.record()
    one["rounds"] = one["rounds"][:1]
    rebuilt = match_from_record(one)
    assert rebuilt.decision() is None and not rebuilt.is_over
    rebuilt.rng = random.Random(5)
    assert drive(rebuilt, agents, random.Random(5)) > 0 and rebuilt.is_over
