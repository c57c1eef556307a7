"""Decisions in order, declines, events, is_legal and the one decision loop."""

from __future__ import annotations

import random

import pytest

from rummy500 import Match, Rules
from rummy500.actions import Decline, Draw, Meld, parse_action
from rummy500.drive import AgentError, PolicyAgent, drive
from rummy500.events import Dealt, Declined, Discarded, Drew, GameOver, RoundOver, Took, events_seen_by
from rummy500.record import RecordError, load_record, match_from_record
from rummy500.state import DecisionKind, Phase

from .helpers import cards, deal, play


def _out_of_turn_table():
    """Seat 0 to move; seats 1 and 2 each hold a set they may meld out of turn."""
    return deal(
        ["AS 2S 3S 9D", "4C 4D 4S KD", "9H 9S 9C QC"],
        stock="QD 7S 8D 2H",
        discard="TC",
        meld_out_of_turn=True,
    )


def test_offers_go_around_the_table_from_the_seat_to_move_before_it_decides():
    s = _out_of_turn_table()
    d = s.decision()
    assert d is not None and d.kind is DecisionKind.OFFER and d.seat == 1
    assert d.legal == (Meld(tuple(cards("4C 4D 4S"))), Decline())
    assert s.apply(Decline(), 1) == [Declined(1)]
    d = s.decision()
    assert d is not None and (d.kind, d.seat) == (DecisionKind.OFFER, 2)
    play(s, "p2: decline")
    d = s.decision()
    assert d is not None and (d.kind, d.seat) == (DecisionKind.TURN, 0) and Draw() in d.legal
    assert Decline() not in d.legal


def test_a_decline_lasts_until_the_position_changes():
    s = _out_of_turn_table()
    play(s, "p1: decline", "p2: decline")
    assert s.public.declined == {1, 2} and s.public.to_move == 0
    assert s.legal_actions(1) == [Meld(tuple(cards("4C 4D 4S")))]  # it may still call: no second decline
    play(s, "draw")
    assert s.public.declined == frozenset()
    d = s.decision()
    assert d is not None and (d.kind, d.seat) == (DecisionKind.OFFER, 1)


def test_a_play_by_the_seat_to_move_passes_over_pending_offers():
    s = _out_of_turn_table()
    play(s, "draw")  # records hold no declines: the seat to move may act at once
    assert s.public.phase is Phase.PLAY


def test_is_legal_agrees_with_the_legal_list():
    s = _out_of_turn_table()
    assert s.is_legal(Draw()) and s.is_legal(parse_action("take 1"))
    assert not s.is_legal(parse_action("discard 9D"))
    assert s.is_legal(Decline(), 1) and not s.is_legal(Decline(), 0)
    assert s.is_legal(parse_action("meld 9H 9S 9C"), 2)
    assert not s.is_legal(parse_action("meld 9H 9S 9C"), 1)


def test_events_say_what_happened_and_hide_a_drawn_card_from_the_others():
    s = _out_of_turn_table()
    (drew,) = play_events(s, "draw")
    assert drew == Drew(0, 1, tuple(cards("QD")))
    assert drew.seen_by(0).to_dict()["cards"] == ["QD"]
    assert drew.seen_by(1).to_dict() == {"event": "drew", "seat": 0, "count": 1, "cards": None}
    assert events_seen_by([drew], None)[0]["cards"] is None
    (disc,) = play_events(s, "discard QD")
    assert disc.seen_by(2) == disc  # discards are public
    (took,) = play_events(s, "take 1")
    assert took == Took(1, tuple(cards("QD"))) and took.seen_by(0) == took


def play_events(state, move):
    return state.apply(parse_action(move), None)


def test_the_round_over_event_carries_the_scores_and_every_hand():
    s = deal(["AS 2S 3S", "4C 4D 4S KD"], stock="QD 7S", discard="TC")
    play(s, "draw", "meld AS 2S 3S")
    events = s.apply(parse_action("discard QD"))
    assert [type(e) for e in events] == [Discarded, RoundOver]
    over = events[-1]
    assert isinstance(over, RoundOver) and over.went_out == 0
    assert list(over.round_scores) == s.round_scores()
    assert over.hands[1] == tuple(s.hands[1])


def _random_agents(n: int) -> list[PolicyAgent]:
    return [PolicyAgent(lambda view, rng: rng.choice(view.legal), offers=True)] * n


@pytest.mark.parametrize("preset", ["popular", "persian", "dealers_gambit"])
def test_drive_plays_a_match_and_its_record_replays_without_the_declines(preset: str):
    rules = Rules.preset_rules(preset, players=4)
    match = Match(rules, seed=11)
    seen: list[object] = []
    drive(match, _random_agents(4), random.Random(5), observe=lambda d, a, e: seen.extend(e))
    assert match.is_over
    assert isinstance(seen[-1], GameOver) and seen[-1].totals == tuple(match.totals)
    assert sum(isinstance(e, Dealt) for e in seen) == len(match.rounds) - 1
    assert sum(isinstance(e, RoundOver) for e in seen) == len(match.rounds)
    record = match.record()
    assert all("decline" not in a for r in record["rounds"] for a in r["actions"])
    again = match_from_record(record)
    assert again.totals == match.totals and again.winner == match.winner


def test_records_refuse_a_decline_verb():
    match = Match(Rules.preset_rules("popular", players=3), seed=1)
    record = match.record()
    record["rounds"][0]["actions"] = [{"p": 1, "decline": True}]
    with pytest.raises(RecordError, match="decline"):
        load_record(record)


def test_drive_refuses_an_agent_answer_outside_the_legal_list_and_applies_nothing():
    match = Match(Rules.preset_rules("standard", players=2), seed=3)
    before = match.record()
    bad = PolicyAgent(lambda view, rng: parse_action("discard JK"))
    with pytest.raises(AgentError, match="not among its legal actions"):
        drive(match, [bad, bad], random.Random(0))
    assert match.record() == before
