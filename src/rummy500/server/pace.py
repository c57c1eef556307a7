"""The pace of a table: its settings, the turn clock, the Rummy-call window and the round summary.

A :class:`MatchSession` owns one :class:`Pace`. It knows no sockets: the
session tells it when a new position begins (:meth:`Pace.new_position`) and a
round ends (:meth:`Pace.round_ended`), and asks it who may act and how long
everybody waits. Times are on the session's monotonic clock; the messages give
seconds *left*, so a browser's own clock never matters.

Three timers, all public (the same for every seat, so none tells anyone about a
hand):

* **Call window.** After a discard that leaves a card in the pile that could be
  laid off on a table meld or melded from the pile (facts everyone sees), every
  seat gets the same window to call Rummy! before the next player may draw. A
  person may call at once; bots decide when the window closes, so a person who
  calls inside it is never beaten by a bot's reflexes. The window is long
  (``call_window`` seconds) when a person could call (a person's seat other
  than the discarder's and the seat to move), short (the bot delay) otherwise.
* **Turn clock** (table setting ``turn_clock``: 0 = off, 30, 60 or 120 s). It
  starts when a person's turn starts (after the call window) and covers the
  whole turn. When it runs out, the seat's bot plays the rest of that turn, for
  a connected but idle player too.
* **Idle limit** (tables without a turn clock). A person who has not
  finished their turn :data:`IDLE_TURN_SECONDS` after it started (five
  minutes: long enough for anyone thinking, or fetching a drink) has the rest
  of that turn played by the computer, as a turn clock would, marked ``auto``
  in the log; their next turn is theirs again. It counts whether they stay
  connected or not, across disconnects and reconnects. So one idle page, or
  one that closes and reconnects now and then, never stalls the table for
  ever. (An away person is played for sooner when the grace period, counted
  from their first disconnect in the turn, ends first; as with a clock. A
  table where no seated person is connected waits for them.)
* **Round summary.** When a round ends and the game goes on, the table holds
  (nobody acts, bots wait) until every connected person has said ``ready`` or
  ``summary_seconds`` pass. The summary (each seat's melded and in-hand points,
  the melds and the hands left) is public: the hands are shown at the table
  when a round is scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["IDLE_TURN_SECONDS", "TURN_CLOCKS", "Pace", "TableSettings"]

#: The turn clocks a table may have, in seconds (0: no clock).
TURN_CLOCKS: tuple[int, ...] = (0, 30, 60, 120)

#: Seconds a person may take over one turn at a table without a turn clock, connected or not, before
#: the computer plays the rest of it for them (a server setting: the same at every table).
IDLE_TURN_SECONDS = 300.0


@dataclass(frozen=True)
class TableSettings:
    """How a table is run (not the rules of the game).

    Attributes:
        turn_clock: Seconds a person has for a turn before their bot plays it
            (0: no clock).
        hints: Whether players may ask for a hint.
        public: Whether the finished game is listed among the public replays
            (a private table's replay opens only with a seat's token or the
            table's invite link).
    """

    turn_clock: int = 0
    hints: bool = True
    public: bool = False

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any] | None) -> TableSettings:
        """Settings from their stored form (missing keys take their defaults).

        Raises:
            ValueError: A value out of range, naming it.
        """
        m = dict(mapping or {})
        clock = m.get("turn_clock", 0)
        if isinstance(clock, bool) or clock not in TURN_CLOCKS:
            raise ValueError(f"turn_clock must be one of {', '.join(map(str, TURN_CLOCKS))} (seconds; 0 is off)")
        for key in ("hints", "public"):
            if key in m and not isinstance(m[key], bool):
                raise ValueError(f"{key} must be true or false")
        return cls(turn_clock=int(clock), hints=bool(m.get("hints", True)), public=bool(m.get("public", False)))

    def to_mapping(self) -> dict[str, Any]:
        """The stored (and public) form."""
        return {"turn_clock": self.turn_clock, "hints": self.hints, "public": self.public}


@dataclass
class _Hold:
    """A round summary holding the table."""

    summary: dict[str, Any]
    until: float
    waiting: set[int]
    ready: set[int] = field(default_factory=set)


class Pace:
    """The timers of one table (see the module docstring)."""

    def __init__(
        self,
        settings: TableSettings,
        *,
        call_window: float,
        short_window: float,
        summary_seconds: float,
        idle_turn: float = IDLE_TURN_SECONDS,
    ) -> None:
        """Set up the timers.

        Args:
            settings: The table's settings (its turn clock).
            call_window: Seconds of a Rummy-call window when a person could call
                (0: no windows at all).
            short_window: Seconds of a window when only bots could call.
            summary_seconds: Longest hold of a round summary (0: no hold).
            idle_turn: The idle limit of a turn without a turn clock (seconds).
        """
        self.settings = settings
        self.idle_turn = idle_turn
        self.call_window = call_window
        self.short_window = short_window
        self.summary_seconds = summary_seconds
        self.window_until: float | None = None
        self.window_seconds = 0.0
        self.turn_seat: int | None = None
        self.turn_key: tuple[int, int] | None = None
        self.turn_since = 0.0
        self.hold: _Hold | None = None
        #: The last round's summary (kept after the hold, for pages opened later).
        self.summary: dict[str, Any] | None = None

    # --------------------------------------------------------------- changes
    def new_position(self, now: float, *, window: bool, person_could_call: bool, turn: tuple[int, int] | None) -> None:
        """A new position was reached.

        Args:
            now: The clock.
            window: A card in the pile could be claimed (public facts).
            person_could_call: A person's seat is among those who may call.
            turn: ``(round, seat to move)``; a change starts the turn clock anew.
        """
        seconds = (self.call_window if person_could_call else self.short_window) if window else 0.0
        if self.call_window <= 0:
            seconds = 0.0
        self.window_seconds = seconds
        self.window_until = now + seconds if seconds > 0 else None
        if turn != self.turn_key:
            self.turn_key = turn
            self.turn_seat = turn[1] if turn is not None else None
            self.turn_since = now + seconds

    def round_ended(self, now: float, summary: dict[str, Any], waiting: set[int]) -> None:
        """A round was scored: hold the table for the people in ``waiting`` (if any)."""
        self.summary = summary
        if self.summary_seconds > 0 and waiting:
            self.hold = _Hold(summary=summary, until=now + self.summary_seconds, waiting=set(waiting))
            # The next turn's clock starts once the summary is gone.
            self.turn_since = max(self.turn_since, now + self.summary_seconds)

    def ready(self, seat: int, now: float) -> bool:
        """``seat`` has read the summary; returns whether the hold ended."""
        hold = self.hold
        if hold is None:
            return False
        hold.ready.add(seat)
        if hold.waiting <= hold.ready:
            self._release(now)
            return True
        return False

    def left_table(self, seat: int, now: float) -> bool:
        """A person left: nobody waits for them; returns whether the hold ended."""
        hold = self.hold
        if hold is None:
            return False
        hold.waiting.discard(seat)
        if not hold.waiting or hold.waiting <= hold.ready:
            self._release(now)
            return True
        return False

    def _release(self, now: float) -> None:
        self.hold = None
        if self.turn_key is not None:
            self.turn_since = now + max(0.0, (self.window_until or now) - now)

    def moved_on(self, now: float) -> bool:
        """Someone acted after the summary (through another process): the hold is over; returns whether one ended."""
        if self.hold is None:
            return False
        self._release(now)
        return True

    def expire(self, now: float) -> bool:
        """End a hold whose time is up; returns whether it ended."""
        if self.hold is not None and now >= self.hold.until:
            self._release(now)
            return True
        return False

    # --------------------------------------------------------------- queries
    def held(self, now: float) -> float | None:
        """Seconds the round summary still holds the table, or ``None``."""
        if self.hold is None:
            return None
        return max(0.0, self.hold.until - now)

    def window_left(self, now: float) -> float | None:
        """Seconds left of the call window, or ``None`` when none is open."""
        if self.window_until is None or now >= self.window_until:
            return None
        return self.window_until - now

    def turn_left(self, now: float) -> float | None:
        """Seconds left on the turn clock of the seat to move, or ``None`` without a clock."""
        if not self.settings.turn_clock or self.turn_seat is None:
            return None
        return self.turn_since + self.settings.turn_clock - now

    def idle_left(self, now: float) -> float | None:
        """Seconds left of the idle limit of the seat to move, or ``None`` (the table has a turn clock, or no turn).

        Only for tables without a turn clock: the limit counts from when the
        turn started, as a turn clock would (after a call window, after a
        round summary).
        """
        if self.settings.turn_clock or self.turn_seat is None:
            return None
        return self.turn_since + self.idle_turn - now

    def person_clock(self, now: float, *, present: bool, grace: float | None) -> tuple[str, float] | None:
        """The clock that runs for a person to move: ``("turn" or "away", seconds left)``, or ``None``.

        A connected person has their turn clock (if the table has one). For an
        away person it is the one that runs out first: their turn clock, or
        their grace (``grace``: :meth:`Presence.grace_left`; ``None``: no bot may
        stand in), shortened to the idle limit at a table without a clock (an
        ``away`` clock too: the limit counts whether they are connected or
        not). Leaving never lengthens a turn. When it runs out (seconds
        ``<= 0``) their bot plays for them; a grace already up stays ``away``.

        Args:
            now: The clock.
            present: The person has a connection.
            grace: Seconds until a bot stands in for them (away only).
        """
        turn = self.turn_left(now)
        if present:
            return None if turn is None else ("turn", turn)
        if grace is None:
            return None
        idle = self.idle_left(now)
        if idle is not None and idle < grace:
            grace = idle  # the idle limit counts away from the table too
        if turn is not None and turn <= grace and grace > 0:
            return "turn", turn
        return "away", grace

    def public(self, now: float, *, clock_seat: int | None, away: tuple[int, float] | None) -> dict[str, Any]:
        """The ``pace`` of a state message: what every seat sees of the timers.

        Args:
            now: The clock.
            clock_seat: The person whose turn clock runs (``None``: no clock shown).
            away: ``(seat, seconds)`` until a bot plays for an away person.
        """
        out: dict[str, Any] = {"turn_clock": self.settings.turn_clock, "hints": self.settings.hints}
        window = self.window_left(now)
        out["call_window"] = {"left": round(window, 2), "seconds": self.window_seconds} if window is not None else None
        clock = None
        if clock_seat is not None:
            left = self.turn_left(now)
            if left is not None:
                clock = {
                    "seat": clock_seat,
                    "left": round(max(0.0, left), 2),
                    "seconds": self.settings.turn_clock,
                    "kind": "turn",
                }
        if away is not None:
            clock = {"seat": away[0], "left": round(max(0.0, away[1]), 2), "kind": "away"}
        out["clock"] = clock
        held = self.held(now)
        if self.hold is not None and held is not None:
            out["summary"] = {
                **self.hold.summary,
                "left": round(held, 2),
                "ready": sorted(self.hold.ready),
                "waiting": sorted(self.hold.waiting - self.hold.ready),
            }
        else:
            out["summary"] = None
        return out
