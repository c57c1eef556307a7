"""The master of one live match: the only code that changes a game's state.

A :class:`MatchSession` knows no sockets and no SQL. It receives actions (from
people through the hub, or from its own bots), runs the fixed chain of checks,
and for each accepted action:

1. appends it to the stored log (the :class:`ActionStore`) and waits until the
   write is durable,
2. applies it to the :class:`~rummy500.server.engine.LiveGame`,
3. tells its listeners, who send every seat its own view.

So nobody is ever told of an action that a crash could lose. Actions are
processed one at a time under an :class:`asyncio.Lock`; every state carries the
version number (how many actions were accepted) so a client acting on an old
state is refused with ``stale_version``.

The session also drives the bots: bot seats, and seats whose player has been
away longer than the grace period, are played after a short delay; bot seats
are also asked, once per position, whether they call Rummy out of turn. An
away seat is only played while at least one seated person is connected: a
table everybody has left waits for them instead of playing itself out.

When several server processes serve the same tables (``shared``), each holds
its own session of a game and the stored log is the only truth: before
checking an action the session catches up on actions the others appended; if
another process wins the race for an action number the action is refused as
``stale_version`` after catching up. Only the session whose process holds the
table's lease is ``driving``: it alone plays bots and stand-ins. Connections
held by the other processes are counted in ``SeatInfo.remote``. What the
others must hear of (a stored action, a chat line, the driver's stand-ins) goes
to the :class:`SessionRelay`; the session itself never touches the bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from rummy500.server.bots import Bot, ask_bot, make_bot, settle_choice
from rummy500.server.engine import Action, IllegalAction, LiveGame, parse_action
from rummy500.server.hints import hint_for
from rummy500.server.pace import Pace, TableSettings
from rummy500.server.storage import ConflictError, StorageError, StoredAction

__all__ = [
    "ActionStore",
    "MatchSession",
    "SeatInfo",
    "SessionError",
    "SessionListener",
    "SessionRelay",
    "clean_text",
]

log = logging.getLogger(__name__)


class SessionError(Exception):
    """A refused request, with a stable code for the client (see docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


class ActionStore(Protocol):
    """The part of the storage a session writes to (blocking calls, run in a thread)."""

    def append_action(self, game_id: str, seq: int, seat: int, action: dict[str, Any]) -> None:
        """Append one action durably; raise ``ConflictError`` if ``seq`` is taken."""

    def finish(self, game_id: str, *, record: dict[str, Any], result: dict[str, Any]) -> None:
        """Store the finished game's record and result."""

    def actions_since(self, game_id: str, seq: int) -> list[StoredAction]:
        """The stored actions numbered ``seq`` and on (only shared sessions ask)."""


class SessionListener(Protocol):
    """Who is told when a session changes (the hub)."""

    def state_changed(self, session: MatchSession) -> None:
        """A new version was accepted: send every connection its view."""

    def table_changed(self, session: MatchSession) -> None:
        """Presence changed (someone connected, left, or a bot took over)."""

    def chat(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        """A seated player said something."""


class SessionRelay(Protocol):
    """Who tells the other server processes (only shared sessions have one)."""

    def committed(self, session: MatchSession) -> None:
        """This process stored a new version."""

    def said(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        """A player connected here said something."""

    def autoplay_changed(self, session: MatchSession, seats: tuple[int, ...]) -> None:
        """The driving session's stand-ins changed (``seats`` are played by bots now)."""


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
    """

    seat: int
    name: str
    kind: str
    bot_level: str | None = None
    connections: int = 0
    away_since: float | None = None
    remote: int = 0

    @property
    def present(self) -> bool:
        """Whether the seat has a connection in any process."""
        return self.connections + self.remote > 0


def clean_text(text: str, limit: int) -> str:
    """Chat text with control characters removed, trimmed to ``limit`` characters."""
    kept = "".join(ch for ch in text if ch in " " or not unicodedata.category(ch).startswith("C"))
    return " ".join(kept.split())[:limit]


class MatchSession:
    """One live match: the lock, the checks, the log, the bots and the listeners."""

    def __init__(
        self,
        *,
        game_id: str,
        title: str,
        rules: dict[str, Any],
        seats: list[SeatInfo],
        game: LiveGame,
        store: ActionStore,
        events: list[dict[str, Any]] | None = None,
        bot_delay: float = 0.8,
        grace_seconds: float = 60.0,
        log_length: int = 40,
        default_bot_level: str = "random",
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
        shared: bool = False,
        settings: TableSettings | None = None,
        call_window: float = 0.0,
        summary_seconds: float = 0.0,
        chat_history: int = 50,
    ) -> None:
        """Set up a session around a dealt (or rebuilt) game.

        Args:
            game_id: The table id.
            title: The table name.
            rules: The public rules mapping.
            seats: Every seat, in order.
            game: The game, already at its current version.
            store: Where accepted actions are appended.
            events: Public events so far (from a replay), for the log.
            bot_delay: Seconds a bot waits before acting.
            grace_seconds: How long a person may be away before a bot plays for them.
            log_length: Public events kept for the state messages.
            default_bot_level: Level of a bot standing in for an away person.
            rng: Randomness for the bots (seeded from ``secrets`` by the server).
            clock: Monotonic clock (tests may replace it).
            shared: Other server processes play this game too: catch up from
                the store before each action, and drive bots only once
                :meth:`set_driving` says so.
            settings: The table's settings (turn clock, hints, public).
            call_window: Seconds every seat gets to call Rummy! when a person
                could call (0: no call windows; bots claim at once).
            summary_seconds: Longest time a round summary holds the table
                (0: the next round is played at once).
            chat_history: Chat lines kept for people who (re)connect.
        """
        self.game_id = game_id
        self.title = title
        self.rules = dict(rules)
        self.seats = seats
        self.game = game
        self.store = store
        self.bot_delay = bot_delay
        self.grace_seconds = grace_seconds
        self.default_bot_level = default_bot_level
        self.spectators = 0
        self.listeners: list[SessionListener] = []
        self.lock = asyncio.Lock()
        self.broken: str | None = None
        self._rng = rng or random.Random()
        self._clock = clock
        self._log: deque[dict[str, Any]] = deque(maxlen=max(log_length, 1))
        self._log_length = log_length
        self._bots: dict[int, Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._closed = False
        self._stuck_logged = False
        self._asked_version = -1
        self._asked: set[int] = set()
        self.shared = shared
        #: Whether this session plays the bots and stand-ins (always, unless shared).
        self.driving = not shared
        #: Tells the other processes (set by the manager on shared sessions).
        self.relay: SessionRelay | None = None
        #: Spectators connected to other processes.
        self.remote_spectators = 0
        #: Actions this session's bots played (bot seats and stand-ins).
        self.bot_actions = 0
        self._remote_autoplay: frozenset[int] = frozenset()
        self._published_autoplay: tuple[int, ...] | None = None
        self.settings = settings or TableSettings()
        self.pace = Pace(
            self.settings, call_window=call_window, short_window=bot_delay, summary_seconds=summary_seconds
        )
        self._chat: deque[dict[str, Any]] = deque(maxlen=max(chat_history, 1))
        now = clock()
        for s in self.seats:
            if s.kind == "human" and not s.present and s.away_since is None:
                s.away_since = now
        for event in events or []:
            self._add_event(event)
        self.pace.summary = game.last_summary
        self._new_position()

    def __repr__(self) -> str:
        return f"MatchSession({self.game_id!r}, version={self.version})"

    # ------------------------------------------------------------------ reads
    @property
    def version(self) -> int:
        """Number of accepted actions."""
        return self.game.version

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.game.is_over

    @property
    def status(self) -> str:
        """``running`` or ``finished``."""
        return "finished" if self.finished else "running"

    def autoplayed(self, seat: int) -> bool:
        """Whether a bot is standing in for this person's seat now.

        The driving session decides by its clock; the others repeat what the
        driver announced.
        """
        info = self.seats[seat]
        if info.kind != "human" or info.present or info.away_since is None:
            return False
        if not any(s.kind == "human" and s.present for s in self.seats):
            return False
        if not self.driving:
            return seat in self._remote_autoplay
        return self._clock() - info.away_since >= self.grace_seconds

    def table_info(self) -> dict[str, Any]:
        """Public facts about the table: seats, presence, status (no cards)."""
        return {
            "id": self.game_id,
            "title": self.title,
            "status": self.status,
            "rules": self.rules,
            "version": self.version,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "bot_level": s.bot_level,
                    "connected": s.present,
                    "autoplay": self.autoplayed(s.seat),
                }
                for s in self.seats
            ],
            "spectators": self.spectators + self.remote_spectators,
            "settings": self.settings.to_mapping(),
        }

    def log(self) -> list[dict[str, Any]]:
        """The recent public events (the current round, and the last round's result)."""
        return list(self._log) if self._log_length else []

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message for a seat (``None``: a spectator).

        ``rounds`` is the whole score sheet (every finished round), so a page
        opened mid-game shows every round, not only those in the recent log.
        """
        return {
            "type": "state",
            "version": self.version,
            "view": self.game.view_dict(seat),
            "table": self.table_info(),
            "log": self.log(),
            "rounds": self.game.score_sheet(),
            "table_points": self.game.table_points() if not self.finished else None,
            "pace": self.pace_info(),
            "last_round": self.pace.summary,
        }

    def pace_info(self) -> dict[str, Any]:
        """The public timers: call window, turn clock (or an away player's grace), round summary."""
        now = self._clock()
        clock_seat: int | None = None
        away: tuple[int, float] | None = None
        actors = self.game.actors()
        if actors and self.pace.hold is None:
            seat = actors[0]
            info = self.seats[seat]
            if info.kind == "human":
                if info.present:
                    clock_seat = seat
                elif info.away_since is not None and any(s.kind == "human" and s.present for s in self.seats):
                    left = info.away_since + self.grace_seconds - now
                    if left > 0:
                        away = (seat, left)
        return self.pace.public(now, clock_seat=clock_seat, away=away)

    def chat_history(self) -> list[dict[str, Any]]:
        """The recent chat lines, oldest first (for a page that (re)connects)."""
        return list(self._chat)

    def _new_position(self) -> None:
        """Start the timers of the position just reached."""
        if self.finished:
            self.pace.new_position(self._clock(), window=False, person_could_call=False, turn=None)
            return
        window = self.game.call_chance()
        person = window and any(self.seats[s].kind == "human" for s in self.game.may_call())
        self.pace.new_position(
            self._clock(),
            window=window,
            person_could_call=person,
            turn=(self.game.match.round_index, self.game.to_move),
        )

    def _after_apply(self, events: list[dict[str, Any]]) -> None:
        """Timers after accepted actions: a new position, and a round summary when a round ended."""
        self._new_position()
        if any(e["kind"] == "round_over" for e in events) and self.game.last_summary is not None:
            waiting = set() if self.finished else {s.seat for s in self.seats if s.kind == "human" and s.present}
            self.pace.round_ended(self._clock(), self.game.last_summary, waiting)

    def _held(self) -> None:
        """Raise if the round summary or a call window keeps ``seat`` from acting now (lock held)."""
        if self.pace.expire(self._clock()):
            self._announce()
        if self.pace.hold is not None:
            raise SessionError("not_your_turn", "the round summary is showing: play resumes when everyone is ready")

    def ready(self, seat: int | None) -> None:
        """A person has read the round summary; the next round starts once all have."""
        if seat is None:
            raise SessionError("not_seated", "only players at the table say they are ready")
        if self.pace.ready(seat, self._clock()):
            self._announce()
            self.kick()

    async def hint(self, seat: int | None) -> dict[str, Any]:
        """A suggested move for ``seat`` from a strong bot, with a one-line reason (its own view only).

        Raises:
            SessionError: Hints are off at this table, or the seat has nothing to do.
        """
        if seat is None:
            raise SessionError("not_seated", "only players at the table get hints")
        if not self.settings.hints:
            raise SessionError("bad_message", "the host turned hints off at this table")
        if self.finished or not self.game.legal(seat):
            raise SessionError("not_your_turn", "you have no move to make now")
        view = self.game.view(seat)
        version = self.version
        found = await asyncio.to_thread(hint_for, view, self.default_bot_level, self._rng.getrandbits(64))
        return {"type": "hint", "version": version, **found}

    def _announce(self) -> None:
        for listener in list(self.listeners):
            listener.state_changed(self)

    # ---------------------------------------------------------------- actions
    async def submit(self, seat: int | None, version: Any, record: Any) -> None:
        """Run the chain of checks on a person's action and, if it passes, play it.

        The checks, in order: well-formed, a seat, the game running, not stale,
        the seat may act now, legal. Each failure raises :class:`SessionError`
        with its code and leaves the game unchanged.

        Args:
            seat: The seat the connection's token belongs to (``None``: spectator).
            version: The version the client saw when choosing the action.
            record: The action, a RECORD.md verb without ``p``.

        Raises:
            SessionError: The action was refused.
        """
        try:
            action = parse_action(record)
        except ValueError as exc:
            raise SessionError("bad_message", str(exc)) from exc
        if seat is None:
            raise SessionError("not_seated", "spectators cannot act; join a seat to play")
        async with self.lock:
            if self.broken:
                raise SessionError("unavailable", self.broken)
            if self.shared:
                await self._catch_up_locked()
            if self.finished:
                raise SessionError("not_running", "the game is over")
            if version != self.version:
                raise SessionError(
                    "stale_version",
                    f"the game is at version {self.version}, your action was for {version}",
                )
            if seat not in self.game.actors():
                raise SessionError("not_your_turn", f"{self.game.names[self.game.to_move]} is to move")
            self._held()
            window = self.pace.window_left(self._clock())
            if window is not None and seat == self.game.to_move:
                raise SessionError(
                    "not_your_turn", f"wait {window:.0f} s: the other players may call Rummy! first"
                )
            try:
                self.game.check(seat, action)
            except (IllegalAction, ValueError) as exc:
                raise SessionError("illegal_action", str(exc)) from exc
            await self._commit(seat, action, auto=False)

    async def _commit(self, seat: int, action: Action, *, auto: bool) -> None:
        """Store, apply and announce an action already checked (lock held)."""
        record = action.to_record()
        try:
            await asyncio.to_thread(self.store.append_action, self.game_id, self.version, seat, record)
        except ConflictError as exc:
            if self.shared:
                # Another process stored this action number first: catch up and
                # let the player choose again on the new state.
                await self._catch_up_locked()
                raise SessionError("stale_version", f"the game moved on to version {self.version} meanwhile") from exc
            # Another server wrote this action number: this copy is out of date.
            self.broken = "this game is being played elsewhere; reload the page"
            log.error("game %s: %s", self.game_id, exc)
            raise SessionError("unavailable", self.broken) from exc
        except StorageError as exc:
            log.error("game %s: could not store an action: %s", self.game_id, exc)
            raise SessionError("unavailable", "the game could not be saved; try again") from exc
        try:
            events = self.game.apply(seat, action)
        except Exception as exc:
            # Stored but refused by the engine: an engine bug. Stop this table
            # rather than let memory and storage disagree.
            self.broken = "the game hit an internal error; it will resume after a restart"
            log.exception("game %s: a stored %s could not be applied", self.game_id, type(action).__name__)
            raise SessionError("unavailable", self.broken) from exc
        if auto:
            self.bot_actions += 1
        for event in events:
            if event["kind"] == "action":
                event["name"] = self.game.names[seat]
                event["auto"] = auto or self.seats[seat].kind == "bot"
            self._add_event(event)
        self._after_apply(events)
        if self.finished:
            try:
                await asyncio.to_thread(
                    self.store.finish,
                    self.game_id,
                    record=self.game.record(),
                    result=self.game.result(),
                )
            except StorageError as exc:  # replayed and finished again at restart
                log.error("game %s: could not store its end: %s", self.game_id, exc)
        for listener in list(self.listeners):
            listener.state_changed(self)
        if self.relay is not None:
            self.relay.committed(self)
        self.kick()

    async def catch_up(self) -> int:
        """Apply the actions other server processes stored since this session's version.

        Returns:
            How many actions were applied (listeners hear of them as one new state).

        Raises:
            SessionError: ``unavailable`` when the log cannot be read or replayed.
        """
        async with self.lock:
            if self.broken or self._closed:
                return 0
            return await self._catch_up_locked()

    async def _catch_up_locked(self) -> int:
        try:
            stored = await asyncio.to_thread(self.store.actions_since, self.game_id, self.version)
        except StorageError as exc:
            log.error("game %s: could not read the log: %s", self.game_id, exc)
            raise SessionError("unavailable", "the game could not be read; try again") from exc
        applied = 0
        for item in stored:
            if item.seq != self.version:
                continue  # already applied, or a gap the next catch-up fills
            try:
                events = self.game.apply(item.seat, parse_action(dict(item.action)))
            except Exception as exc:
                self.broken = "the game hit an internal error; it will resume after a restart"
                log.exception("game %s: stored action %d could not be applied", self.game_id, item.seq)
                raise SessionError("unavailable", self.broken) from exc
            applied += 1
            self._after_apply(events)
            for event in events:
                if event["kind"] == "action":
                    seat = event["seat"]
                    event["name"] = self.game.names[seat]
                    event["auto"] = self.seats[seat].kind == "bot" or seat in self._remote_autoplay
                self._add_event(event)
        if applied:
            for listener in list(self.listeners):
                listener.state_changed(self)
            self.kick()
        return applied

    def _add_event(self, event: dict[str, Any]) -> None:
        if event["kind"] == "action" and self._log and self._log[-1]["kind"] == "round_over":
            # A new round's first action: the log starts afresh, keeping only
            # the last round's result, so it stays about the current deal.
            last = self._log[-1]
            self._log.clear()
            self._log.append(last)
        self._log.append(event)

    # ------------------------------------------------------------------- chat
    def chat(self, seat: int | None, text: Any, limit: int = 500) -> None:
        """Pass a seated player's chat line to the listeners.

        Raises:
            SessionError: Not seated, or the text is empty or not a string.
        """
        if seat is None:
            raise SessionError("not_seated", "only seated players can chat")
        if not isinstance(text, str):
            raise SessionError("bad_message", "chat text must be a string")
        clean = clean_text(text, limit)
        if not clean:
            raise SessionError("bad_message", "empty chat message")
        self._chat.append({"type": "chat", "seat": seat, "from": self.seats[seat].name, "text": clean})
        for listener in list(self.listeners):
            listener.chat(self, self.seats[seat].name, seat, clean)
        if self.relay is not None:
            self.relay.said(self, self.seats[seat].name, seat, clean)

    # --------------------------------------------------------------- presence
    def connect(self, seat: int | None) -> None:
        """A connection for ``seat`` (``None``: a spectator) opened."""
        if seat is None:
            self.spectators += 1
        else:
            info = self.seats[seat]
            info.connections += 1
            info.away_since = None
        self._presence_changed()

    def disconnect(self, seat: int | None) -> None:
        """A connection for ``seat`` (``None``: a spectator) closed."""
        if seat is None:
            self.spectators = max(0, self.spectators - 1)
        else:
            info = self.seats[seat]
            info.connections = max(0, info.connections - 1)
            if not info.present:
                info.away_since = self._clock()
                if self.pace.left_table(seat, self._clock()):
                    self._announce()
        self._presence_changed()

    def set_remote_presence(self, seated: dict[int, int], spectators: int, autoplay: Iterable[int] = ()) -> bool:
        """Take in what the other server processes report (shared sessions).

        Args:
            seated: Their open connections per seat.
            spectators: Their spectators.
            autoplay: Seats the driving process says a bot stands in for.

        Returns:
            Whether anything shown at the table changed (listeners were told).
        """
        before = self.table_info()
        now = self._clock()
        for info in self.seats:
            was = info.present
            info.remote = max(0, int(seated.get(info.seat, 0)))
            if was and not info.present:
                info.away_since = now
            elif info.present:
                info.away_since = None
        self.remote_spectators = max(0, spectators)
        self._remote_autoplay = frozenset(autoplay)
        if self.table_info() == before:
            return False
        self._presence_changed()
        return True

    def set_driving(self, driving: bool) -> None:
        """Start or stop playing the bots and stand-ins (the manager holds the table's lease)."""
        if driving == self.driving:
            return
        self.driving = driving
        if driving:
            self._published_autoplay = None
            self._table_changed()
            self.kick()
        else:
            self._wake.set()

    def _presence_changed(self) -> None:
        self._table_changed()
        self.kick()

    def _table_changed(self) -> None:
        for listener in list(self.listeners):
            listener.table_changed(self)
        if self.relay is not None and self.driving and not self.finished:
            current = tuple(s.seat for s in self.seats if self.autoplayed(s.seat))
            if current != self._published_autoplay:
                self._published_autoplay = current
                self.relay.autoplay_changed(self, current)

    # ------------------------------------------------------------------- bots
    def start(self) -> None:
        """Start playing the bots' turns (call from the event loop)."""
        self.kick()

    def kick(self) -> None:
        """Make the bot driver look again at whose turn it is."""
        if self._closed or self.finished or not self.driving:
            return
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"bots-{self.game_id[:8]}")
        else:
            self._wake.set()

    async def close(self) -> None:
        """Stop the bot driver."""
        self._closed = True
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver

    def _next_auto(self) -> tuple[int | None, float | None, bool]:
        """Which seat a bot should play now, else how long until one might.

        Returns:
            ``(seat, None, out_of_turn)`` when a bot should act for ``seat``;
            ``(None, seconds, False)`` when a timer (round summary, call
            window, turn clock, an away player's grace period) runs out in
            ``seconds``; ``(None, None, False)`` when no bot has anything to do
            until the state or the presence changes.
        """
        if self.broken or not self.driving:
            return None, None, False
        actors = self.game.actors()
        if not actors:
            return None, None, False
        now = self._clock()
        held = self.pace.held(now)
        if held is not None:
            return None, max(held, 0.01), False
        window = self.pace.window_left(now)
        if window is not None:
            # Every seat gets the same window to call Rummy!; bots decide at its end.
            return None, window, False
        if self._asked_version != self.version:
            self._asked_version, self._asked = self.version, set()
        # Bot seats may claim out of turn (calling Rummy!) before the seat to
        # move acts; each is asked once per position and may decline.
        for other in actors[1:]:
            if self.seats[other].kind == "bot" and other not in self._asked:
                return other, None, True
        seat = actors[0]
        info = self.seats[seat]
        if not self.game.legal(seat):
            # The engine offers the seat to move nothing: a stuck position. Never
            # spin on it; people at the table still see the state.
            if not self._stuck_logged:
                self._stuck_logged = True
                log.error("game %s: seat %d to move has no legal action", self.game_id, seat)
            return None, None, False
        if info.kind == "bot":
            return seat, None, False
        if info.present or info.away_since is None:
            # A connected person: their bot plays the turn once the turn clock runs out.
            left = self.pace.turn_left(now) if info.present else None
            if left is None:
                return None, None, False
            return (seat, None, False) if left <= 0 else (None, left, False)
        if not any(s.kind == "human" and s.present for s in self.seats):
            return None, None, False
        left = info.away_since + self.grace_seconds - self._clock()
        if left <= 0:
            return seat, None, False
        return None, left, False

    async def _sleep(self, seconds: float) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout=seconds)

    async def _drive(self) -> None:
        announced: set[int] = set()
        while not self._closed and not self.finished:
            if self.pace.expire(self._clock()):  # the round summary's time is up
                self._announce()
            announced = {s for s in announced if self.autoplayed(s)}
            step = self._next_auto()
            seat, wait, out_of_turn = step
            if seat is None:
                if wait is None:
                    return
                await self._sleep(wait)
                continue
            if self.seats[seat].kind == "human" and self.autoplayed(seat) and seat not in announced:
                # A bot just took over an away seat: show it at the table.
                announced.add(seat)
                self._table_changed()
            # A pause before each move so people can follow (and call Rummy
            # first); a bot's out-of-turn claim is decided at once.
            await asyncio.sleep(0 if out_of_turn else self.bot_delay)
            async with self.lock:
                if self.shared and not self._closed:
                    try:
                        await self._catch_up_locked()
                    except SessionError as exc:
                        log.warning("game %s: bots wait: %s", self.game_id, exc.message)
                        await asyncio.sleep(max(self.bot_delay, 1.0))
                        continue
                if self._closed or self.finished or self._next_auto() != step:
                    continue
                action = await self._bot_action(seat, out_of_turn)
                if action is None:
                    self._asked.add(seat)
                    continue
                try:
                    await self._commit(seat, action, auto=True)
                except SessionError as exc:
                    if exc.code == "stale_version":  # another process moved first: look again
                        continue
                    log.warning("game %s: bot action refused: %s", self.game_id, exc)
                    await asyncio.sleep(max(self.bot_delay, 1.0))

    async def _bot_action(self, seat: int, out_of_turn: bool) -> Action | None:
        """The bot's choice for ``seat`` (lock held); ``None``: no out-of-turn claim."""
        bot = self._bots.get(seat)
        if bot is None:
            info = self.seats[seat]
            bot = make_bot(info.bot_level or self.default_bot_level, self._rng.getrandbits(64))
            self._bots[seat] = bot
        view = self.game.view(seat)
        legal = list(view.legal)
        rng = random.Random(self._rng.getrandbits(64))
        # Strong bots search for a second or more: think in a worker thread on
        # the (immutable) view so other tables keep playing meanwhile.
        choice = await asyncio.to_thread(ask_bot, bot, view, rng)
        return settle_choice(choice, legal, rng, lambda a: self.game.check(seat, a), may_decline=out_of_turn)
