"""The chain of checks on a request: each refusal is a :class:`SessionError` with a stable code.

An action goes through, in order: well-formed (:func:`parse_request`), a seat
(:func:`seat_of`), then under the session's lock the game running, not stale,
the seat may act now, and legal (:func:`check_move`). A chat line must come
from a seat and hold some text (:func:`chat_text`). Every check leaves the game
unchanged; the codes are listed in docs/protocol.md.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from rummy500.server.engine import Action, IllegalAction, LiveGame, parse_action

__all__ = ["SessionError", "chat_text", "check_move", "clean_text", "parse_request", "seat_of"]


class SessionError(Exception):
    """A refused request, with a stable code for the client (see docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


def clean_text(text: str, limit: int) -> str:
    """Chat text with control characters removed, trimmed to ``limit`` characters."""
    kept = "".join(ch for ch in text if ch in " " or not unicodedata.category(ch).startswith("C"))
    return " ".join(kept.split())[:limit]


def parse_request(record: Any) -> Action:
    """The action a client sent, a RECORD.md verb without ``p``.

    Raises:
        SessionError: ``bad_message`` when it is not a well-formed action.
    """
    try:
        return parse_action(record)
    except ValueError as exc:
        raise SessionError("bad_message", str(exc)) from exc


def seat_of(seat: int | None, doing: str) -> int:
    """The seat of a connection that wants to act or chat.

    Args:
        seat: The connection's seat (``None``: a spectator).
        doing: What is refused to a spectator, for the message.

    Raises:
        SessionError: ``not_seated`` for a spectator.
    """
    if seat is None:
        raise SessionError("not_seated", doing)
    return seat


def check_move(game: LiveGame, seat: int, version: Any, action: Action) -> None:
    """The checks on an action that need the game (the session's lock held).

    Args:
        game: The game at its current version.
        seat: The acting seat.
        version: The version the client saw when choosing the action.
        action: The parsed action.

    Raises:
        SessionError: ``not_running``, ``stale_version``, ``not_your_turn`` or
            ``illegal_action``.
    """
    # A move chosen on an earlier position is stale even when the game has
    # ended since (another seat's Rummy! call can end it out of turn): the
    # client is told the game moved on, and is sent where it went.
    if version != game.version:
        raise SessionError(
            "stale_version",
            f"the game is at version {game.version}, your action was for {version}",
        )
    if game.is_over:
        raise SessionError("not_running", "the game is over")
    if seat not in game.actors():
        raise SessionError("not_your_turn", f"{game.names[game.to_move]} is to move")
    try:
        game.check(seat, action)
    except (IllegalAction, ValueError) as exc:
        raise SessionError("illegal_action", str(exc)) from exc


def chat_text(seat: int | None, text: Any, limit: int) -> tuple[int, str]:
    """The seat and cleaned text of a chat line.

    Raises:
        SessionError: ``not_seated`` for a spectator; ``bad_message`` when the
            text is not a string or nothing is left of it.
    """
    speaker = seat_of(seat, "only seated players can chat")
    if not isinstance(text, str):
        raise SessionError("bad_message", "chat text must be a string")
    clean = clean_text(text, limit)
    if not clean:
        raise SessionError("bad_message", "empty chat message")
    return speaker, clean
