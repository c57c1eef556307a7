"""The public log of a table: the recent events every state message carries."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["EventLog", "label_actions"]


def label_actions(events: Iterable[dict[str, Any]], names: list[str], auto: Callable[[int], bool]) -> None:
    """Add the actor's ``name`` and whether a bot played it (``auto``) to each action event.

    Args:
        events: Events from the engine door (changed in place).
        names: Display names by seat.
        auto: Whether a bot played the action of a seat.
    """
    for event in events:
        if event["kind"] == "action":
            seat = event["seat"]
            event["name"] = names[seat]
            event["auto"] = auto(seat)


class EventLog:
    """The last ``length`` public events: the current round, and the last round's result."""

    def __init__(self, length: int, events: Iterable[dict[str, Any]] = ()) -> None:
        """An empty log keeping ``length`` events (0: none shown), filled with ``events``."""
        self.length = length
        self._log: deque[dict[str, Any]] = deque(maxlen=max(length, 1))
        for event in events:
            self.add(event)

    def add(self, event: dict[str, Any]) -> None:
        """Append an event; a new round's first action starts the log afresh."""
        if event["kind"] == "action" and self._log and self._log[-1]["kind"] == "round_over":
            # A new round's first action: the log starts afresh, keeping only
            # the last round's result, so it stays about the current deal.
            last = self._log[-1]
            self._log.clear()
            self._log.append(last)
        self._log.append(event)

    def recent(self) -> list[dict[str, Any]]:
        """The events shown with a state."""
        return list(self._log) if self.length else []
