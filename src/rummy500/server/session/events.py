"""The public log of a table: the recent events every state message carries."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container, Iterable
from typing import Any

import orjson

__all__ = ["EventLog", "dumps", "label_actions"]


def dumps(value: Any) -> bytes:
    """Compact JSON bytes of ``value``, as sent on a socket (a dict with non-``str`` keys is allowed).

    >>> dumps({"seat": 1, "scores": {0: 5}})
    b'{"seat":1,"scores":{"0":5}}'
    """
    try:
        return orjson.dumps(value)
    except TypeError:  # a key that is not a string: orjson's slower mode that allows them
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def label_actions(
    events: Iterable[dict[str, Any]],
    names: list[str],
    auto: Callable[[int], bool],
    played_for: Container[int] = frozenset(),
) -> None:
    """Add the actor's ``name`` and whether the computer played it (``auto``) to each action event.

    Args:
        events: Events from the engine door (changed in place).
        names: Display names by seat.
        auto: Whether a bot played the action of a seat.
        played_for: Versions (an action event's ``version``) the computer
            played whatever the seat (a person's turn played for them), as stored.

    >>> events = [{"kind": "action", "seat": 0, "version": 1}, {"kind": "action", "seat": 0, "version": 2}]
    >>> label_actions(events, ["Ann"], lambda seat: False, played_for={2})
    >>> [(e["name"], e["auto"]) for e in events]
    [('Ann', False), ('Ann', True)]
    """
    for event in events:
        if event["kind"] == "action":
            seat = event["seat"]
            event["name"] = names[seat]
            event["auto"] = auto(seat) or event.get("version") in played_for


class EventLog:
    """The last ``length`` public events: the current round, and the last round's result."""

    def __init__(self, length: int, events: Iterable[dict[str, Any]] = ()) -> None:
        """An empty log keeping ``length`` events (0: none shown), filled with ``events``."""
        self.length = length
        self._log: deque[dict[str, Any]] = deque(maxlen=max(length, 1))
        #: Each kept event's JSON, encoded once when it is added (events never change after).
        self._json: deque[bytes] = deque(maxlen=max(length, 1))
        for event in events:
            self.add(event)

    def add(self, event: dict[str, Any]) -> None:
        """Append an event; a new round's first action starts the log afresh."""
        if event["kind"] == "action" and self._log and self._log[-1]["kind"] == "round_over":
            # A new round's first action: the log starts afresh, keeping only
            # the last round's result, so it stays about the current deal.
            last, last_json = self._log[-1], self._json[-1]
            self._log.clear()
            self._json.clear()
            self._log.append(last)
            self._json.append(last_json)
        self._log.append(event)
        self._json.append(dumps(event))

    def recent(self) -> list[dict[str, Any]]:
        """The events shown with a state."""
        return list(self._log) if self.length else []

    def recent_json(self) -> bytes:
        """:meth:`recent` as JSON (each event's text kept from when it was added)."""
        return b"[" + b",".join(self._json) + b"]" if self.length else b"[]"
