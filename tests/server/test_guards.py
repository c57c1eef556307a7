"""The session's checks on a move, on a game that ended while a move was on its way."""

from __future__ import annotations

import random

import pytest

from rummy500.server.engine import LiveGame, parse_rules
from rummy500.server.session.guards import SessionError, check_move


def _finished_game() -> tuple[LiveGame, int]:
    """A one-round 2-player game played to its end by random legal moves; returns it and its last mover."""
    game = LiveGame(parse_rules({"rounds": 1}, 2), ["Ann", "Bob"], 5)
    rng = random.Random(5)
    last = 0
    while not game.is_over:
        last = game.actors()[0]
        game.apply(last, rng.choice(game.legal(last)))
    return game, last


def test_a_move_made_before_the_game_ended_is_refused_as_stale() -> None:
    """A move sent for an earlier version (another seat's call ended the game meanwhile)
    is told the game moved on, with the version, rather than that no game is played."""
    game, last = _finished_game()
    with pytest.raises(SessionError) as err:
        check_move(game, 1 - last, game.version - 1, object())  # type: ignore[arg-type]
    assert err.value.code == "stale_version"
    assert f"version {game.version}" in err.value.message


def test_a_move_on_the_final_position_is_refused_as_not_running() -> None:
    game, last = _finished_game()
    with pytest.raises(SessionError) as err:
        check_move(game, last, game.version, object())  # type: ignore[arg-type]
    assert err.value.code == "not_running"
