"""Who is at a table: connections per seat here and in other processes, and who is away.

A person whose last connection closed is *away*; once away longer than the
grace period a bot stands in for them, but only while at least one seated
person is connected (a table everybody left waits for them instead of playing
itself out). With several server processes the driving one decides by its
clock and the others repeat the stand-ins it announced.

Within one turn the grace counts from the person's *first* disconnect in it
(or, for a person away since before the turn began, from when they left, until
they come back): a brief reconnect does not start it again
(:meth:`Presence.new_turn` begins a turn's count). So a page that closes and
comes back for a moment now and then cannot hold a table for ever, while a
person back for good is not played for until they leave again and the grace
of that turn ends (or the idle limit of :mod:`~rummy500.server.pace` does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Presence", "SeatInfo"]


@dataclass
class SeatInfo:
    """A seat as the session sees it.

    Attributes:
        seat: Seat number.
        name: Display name.
        kind: ``human`` or ``bot``.
        bot_level: Level of a bot seat (also used when a bot stands in).
        connections: Open connections of this seat in this process.
        away_since: Monotonic time the seat's last connection closed (``None``
            while connected).
        remote: Open connections of this seat in other server processes.
        left_in_turn: Monotonic time of the person's first disconnect in the
            current turn (:meth:`Presence.new_turn`), kept when they come back
            for a while: the grace counts from it (``None``: none in this turn).
    """

    seat: int
    name: str
    kind: str
    bot_level: str | None = None
    connections: int = 0
    away_since: float | None = None
    remote: int = 0
    left_in_turn: float | None = None

    @property
    def present(self) -> bool:
        """Whether the seat has a connection in any process."""
        return self.connections + self.remote > 0


class Presence:
    """The seats' connections, the spectators, and the away players' grace periods."""

    def __init__(self, seats: list[SeatInfo], *, grace_seconds: float, clock: Callable[[], float]) -> None:
        """Start counting; a person with no connection is away from now.

        Args:
            seats: Every seat, in order (kept and updated in place).
            grace_seconds: How long a person may be away before a bot plays for them.
            clock: Monotonic clock.
        """
        self.seats = seats
        self.grace_seconds = grace_seconds
        self.clock = clock
        #: Spectators connected to this process.
        self.spectators = 0
        #: Spectators connected to other processes.
        self.remote_spectators = 0
        #: Seats the driving process announced a bot stands in for (followers only).
        self.remote_autoplay: frozenset[int] = frozenset()
        now = clock()
        for s in seats:
            if s.kind == "human" and not s.present and s.away_since is None:
                s.away_since = now

    def new_turn(self) -> None:
        """A new turn began: nobody has disconnected in it yet (an away person's grace counts from when they left)."""
        for s in self.seats:
            s.left_in_turn = None

    def _left(self, info: SeatInfo, now: float) -> None:
        """``info``'s person has no connection any more (since ``now``)."""
        info.away_since = now
        if info.left_in_turn is None:
            info.left_in_turn = now

    def connect(self, seat: int | None) -> None:
        """A connection for ``seat`` (``None``: a spectator) opened."""
        if seat is None:
            self.spectators += 1
        else:
            info = self.seats[seat]
            info.connections += 1
            info.away_since = None

    def disconnect(self, seat: int | None) -> None:
        """A connection for ``seat`` (``None``: a spectator) closed."""
        if seat is None:
            self.spectators = max(0, self.spectators - 1)
        else:
            info = self.seats[seat]
            info.connections = max(0, info.connections - 1)
            if not info.present:
                self._left(info, self.clock())

    def set_remote(self, seated: dict[int, int], spectators: int, autoplay: Iterable[int]) -> None:
        """Take in the other processes' connections and the driver's stand-ins."""
        now = self.clock()
        for info in self.seats:
            was = info.present
            info.remote = max(0, int(seated.get(info.seat, 0)))
            if was and not info.present:
                self._left(info, now)
            elif info.present:
                info.away_since = None
        self.remote_spectators = max(0, spectators)
        self.remote_autoplay = frozenset(autoplay)

    def anyone_seated(self) -> bool:
        """Whether a seated person has a connection in any process."""
        return any(s.kind == "human" and s.present for s in self.seats)

    def grace_left(self, seat: int) -> float | None:
        """Seconds until a bot stands in for an away person (``<= 0``: it does now).

        The grace counts from the person's first disconnect in the current
        turn (:attr:`SeatInfo.left_in_turn`; away since before the turn: from
        when they left): coming back for a moment and leaving again does not
        start it anew.

        ``None`` when no bot may stand in: a bot seat, a person who is
        connected, or nobody seated connected at all.
        """
        info = self.seats[seat]
        if info.kind != "human" or info.present or info.away_since is None:
            return None
        if not self.anyone_seated():
            return None
        since = info.away_since if info.left_in_turn is None else info.left_in_turn
        return since + self.grace_seconds - self.clock()

    def autoplayed(self, seat: int, *, driving: bool) -> bool:
        """Whether a bot is standing in for this person's seat now.

        The driving session decides by its clock; the others repeat what the
        driver announced.
        """
        left = self.grace_left(seat)
        if left is None:
            return False
        if not driving:
            return seat in self.remote_autoplay
        return left <= 0

    def seats_public(self, *, driving: bool) -> list[dict[str, Any]]:
        """The seats as the table shows them (names, kinds, connected, stand-ins)."""
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot_level": s.bot_level,
                "connected": s.present,
                "autoplay": self.autoplayed(s.seat, driving=driving),
            }
            for s in self.seats
        ]

    @property
    def watching(self) -> int:
        """Spectators in every process."""
        return self.spectators + self.remote_spectators
