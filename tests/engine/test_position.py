"""The position notation round-trips, for whole rounds and for views, in every preset."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy500 import Match, Rules
from rummy500.actions import Decline
from rummy500.position import PositionError, parse_position
from rummy500.rules import PRESETS
from rummy500.state import DecisionKind, RoundState, view_from_position

from .helpers import deal, play, snapshot


def _decisions(rules: Rules, seed: int, steps: int):
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    for _ in range(steps):
        d = match.decision()
        if d is None:
            return
        assert d.seat is not None and d.kind is not DecisionKind.CHANCE
        yield match.state, d.seat
        choice = rng.choice(d.legal)
        if d.kind is DecisionKind.OFFER and rng.random() < 0.5:
            choice = Decline()
        match.apply(d.seat, choice)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_positions_of_rounds_and_views_read_back_the_same(preset: str) -> None:
    rules = Rules.preset_rules(preset, players=4)
    checked = 0
    for state, seat in _decisions(rules, 3, 90):
        text = state.position()
        again = RoundState.from_position(rules, text)
        assert again.position() == text == str(state)
        assert snapshot(again) == snapshot(state)
        view = state.view(seat)
        back = view_from_position(rules, view.position())
        assert sorted(map(str, back.legal)) == sorted(map(str, view.legal))
        assert replace(back, legal=()) == replace(view, legal=())
        checked += 1
    assert checked > 30


def test_a_position_is_readable_and_a_finished_round_is_scored_again() -> None:
    s = deal(["AS 2S 3S", "4C 4D 4S KD"], stock="QD 7S", discard="TC")
    play(s, "draw", "meld AS 2S 3S", "discard QD")
    text = s.position()
    assert "phase=round_over" in text and "hands=-|4C.4D.4S.KD" in text and "discard=TC.QD" in text
    again = RoundState.from_position(s.rules, text)
    assert again.round_scores() == s.round_scores()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty position"),
        ("dealer=1 color=red", "unknown position field 'color'"),
        ("dealer=1 dealer=0", "given twice"),
        ("dealer=x hands=AS|2S", "'dealer'"),
        ("dealer=1 hands=ZZ|2S", "'hands'"),
        ("dealer=1 opened=12 hands=AS|2S", "'opened'"),
    ],
)
def test_bad_positions_are_refused_with_the_token_named(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        RoundState.from_position(Rules.preset_rules("standard"), text)


def test_a_round_needs_its_hands_and_the_right_number_of_them() -> None:
    rules = Rules.preset_rules("standard")
    with pytest.raises(PositionError, match="needs 'hands'"):
        RoundState.from_position(rules, "dealer=1")
    with pytest.raises(PositionError, match="3 hands but the rules have 2 players"):
        RoundState.from_position(rules, "dealer=1 hands=AS|2S|3S")


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(alphabet="=|.;:-0123456789ASHDCJKTQ dealerhandsstockphase_", max_size=60))
def test_any_text_reads_as_a_position_or_is_refused_cleanly(text: str) -> None:
    try:
        parse_position(text)
    except PositionError as exc:
        assert "\n" not in str(exc)


def test_replay_position_prints_where_the_record_stopped(tmp_path, capsys) -> None:
    import json

    from rummy500.cli.replay_cmd import main

    match = Match(Rules.preset_rules("standard"), seed=1)
    match.apply(match.state.public.to_move, match.state.legal_actions()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(match.record()))
    assert main([str(path), "--position"]) == 0
    text = capsys.readouterr().out.strip()
    assert RoundState.from_position(match.rules, text).position() == match.state.position()
