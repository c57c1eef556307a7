"""The master of one live match: the guard chain, the commit, and what the others are told.

For each accepted action a :class:`MatchSession`

1. appends it to the stored log (the :class:`ActionStore`) and waits until the
   write is durable,
2. applies it to the :class:`~rummy500.server.engine.LiveGame`,
3. tells its listeners, who send every seat its own view.

So nobody is ever told of an action that a crash could lose. Actions are
processed one at a time under an :class:`asyncio.Lock`; every state carries the
version number (how many actions were accepted) so a client acting on an old
state is refused with ``stale_version``.

The checks are in :mod:`~rummy500.server.session.guards`, the seats'
connections in :mod:`~rummy500.server.session.presence`, the bots in
:mod:`~rummy500.server.session.driver` and the public log in
:mod:`~rummy500.server.session.events`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any, Protocol

from rummy500.bots.hinting import hint_budget
from rummy500.server.config import CHAT_MAX_CHARS
from rummy500.server.engine import Action, LiveGame, parse_action
from rummy500.server.hints import SEARCHES, hint_for
from rummy500.server.pace import Pace, TableSettings
from rummy500.server.session.driver import BotDriver, Thinker, think_in_thread
from rummy500.server.session.events import EventLog, dumps, label_actions
from rummy500.server.session.guards import SessionError, chat_text, check_move, parse_request, seat_of
from rummy500.server.session.ids import short_id, without_id
from rummy500.server.session.presence import Presence, SeatInfo
from rummy500.server.storage import ChatLine, ConflictError, StorageError, StoredAction
from rummy500.server.storage.base import WouldWait
from rummy500.views import View

__all__ = [
    "ActionStore",
    "HintSearch",
    "MatchSession",
    "SessionListener",
    "SessionRelay",
    "keep_chat_line",
    "search_hint",
]

log = logging.getLogger(__name__)


def _iso(when: datetime | None) -> str | None:
    """A time as the JSON of a table's ``created`` and ``finished`` (UTC written ``Z``).

    >>> _iso(datetime(2026, 11, 29, 23, 40, tzinfo=UTC)), _iso(None)
    ('2026-11-29T23:40:00Z', None)
    """
    return when.isoformat().replace("+00:00", "Z") if when is not None else None


def _seen(task: asyncio.Task[Any]) -> None:
    """Mark a shared task's exception as retrieved (an asker that went away leaves no warning)."""
    if not task.cancelled():
        task.exception()


#: Finds a hint off the event loop: ``(view, seed, budget)`` to :func:`~rummy500.server.hints.hint_for`'s answer.
HintSearch = Callable[[View, int, float], Awaitable[dict[str, Any]]]


async def search_hint(view: View, seed: int, budget: float) -> dict[str, Any]:
    """The default :data:`HintSearch`: the process's own hint threads (:data:`~rummy500.server.hints.SEARCHES`).

    Never the default executor, which storage calls run in: a burst of hints
    waits for a free hint thread instead of holding up every table's storage.
    """
    return await SEARCHES.run(hint_for, view, seed, budget)


class ActionStore(Protocol):
    """The part of the storage a session writes to (blocking calls, run in a thread).

    A store whose ``quick_appends`` attribute is true (SQLite) takes
    ``at_once=True`` in :meth:`append_action`: a call that never waits (for a
    lock, or the disk), made directly on the event loop; when it raises
    :class:`~rummy500.server.storage.sql.WouldWait` (another connection holds
    the write lock) the append is made again, without it, in a thread. Nothing
    a session stores ever waits on the event loop.
    """

    def append_action(
        self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool = False
    ) -> datetime | None:
        """Append one action durably, with whether the computer played it (returning the time stored with it, if known).

        Raises ``ConflictError`` if ``seq`` is taken.
        """

    def finish(self, game_id: str, *, record: dict[str, Any], result: dict[str, Any]) -> datetime | None:
        """Store the finished game's record and result (returning the stored ``finished`` time, if known)."""

    def actions_since(self, game_id: str, seq: int) -> list[StoredAction]:
        """The stored actions numbered ``seq`` and on (only shared sessions ask)."""

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        """Keep a chat line said at the game (raise ``StorageError`` if it cannot)."""


async def keep_chat_line(store: ActionStore, table_id: str, line: ChatLine) -> None:
    """Store a chat line said at a table (in its waiting room too).

    Always in a thread: a chat line is rare, and its write may wait for a lock
    (SQLite's busy timeout) that must never hold up the event loop. A store
    that fails is logged, without the line's text, and the caller sends the
    line all the same: only that line is not kept.
    """
    try:
        await asyncio.to_thread(store.append_chat, table_id, line)
    except StorageError as exc:
        log.warning("table %s: could not keep a chat line: %s", short_id(table_id), without_id(exc, table_id))


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

    def ready(self, session: MatchSession, seat: int) -> None:
        """A person connected here has read the round summary of the session's version."""


class MatchSession:
    """One live match: the lock, the checks, the log, the bots and the listeners."""

    #: The least time (seconds) between two states re-sent to everyone because the clock shown
    #: changed when someone came or went (:meth:`_resend_clock`): rapid reconnects flood no one.
    presence_resend_gap = 0.25
    #: The least time (seconds) between two ``table`` messages sent because someone came or went
    #: (:meth:`_announce_presence`): a client opening and closing sockets (spectators need no
    #: token) floods nobody; the last count always goes out.
    presence_table_gap = 0.25

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
        think: Thinker = think_in_thread,
        created: datetime | None = None,
        hint_search: HintSearch = search_hint,
        ended: datetime | None = None,
        chat_max_chars: int = CHAT_MAX_CHARS,
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
            think: Where the bots think (the server's worker processes).
            created: When the table was opened (shown in :meth:`table_info`).
            hint_search: Where hints are searched (a bounded pool of their own,
                never the threads storage calls use).
            ended: When the game ended, as stored (``None``: not over, or not
                known yet: the session notes the time it ends).
            chat_max_chars: The server's longest chat line (shown in
                :meth:`table_info`'s settings).
        """
        self.game_id = game_id
        self.title = title
        self.rules = dict(rules)
        self.seats = seats
        self.game = game
        self.store = store
        self.bot_delay = bot_delay
        self.default_bot_level = default_bot_level
        self.presence = Presence(seats, grace_seconds=grace_seconds, clock=clock)
        self.listeners: list[SessionListener] = []
        self.lock = asyncio.Lock()
        self.broken: str | None = None
        self.events = EventLog(log_length, events or [])
        self.shared = shared
        #: Whether this session plays the bots and stand-ins (always, unless shared).
        self.driving = not shared
        #: Tells the other processes (set by the manager on shared sessions).
        self.relay: SessionRelay | None = None
        #: Actions this session's bots played (bot seats and stand-ins).
        self.bot_actions = 0
        self.driver = BotDriver(self, rng or random.Random(), think)
        self._hint_search = hint_search
        self._closed = False
        self._published_autoplay: tuple[int, ...] | None = None
        self._clock = clock
        self._hint_rng = random.Random()  # hints only: the bots keep their own seeded randomness
        self.settings = settings or TableSettings()
        #: The table's timers: call window, turn clock, round-summary hold.
        self.pace = Pace(
            self.settings, call_window=call_window, short_window=bot_delay, summary_seconds=summary_seconds
        )
        self.pace.summary = game.last_summary
        self._chat: deque[dict[str, Any]] = deque(maxlen=max(chat_history, 1))
        self._chat_lock = asyncio.Lock()
        #: ``ready`` heard from other processes for a version not applied here yet.
        self._early_ready: dict[int, set[int]] = {}
        self._new_position()
        #: The highest version another process announced (shared sessions).
        self._announced = 0
        #: Whether the last write of an action failed (an outage is logged once, not per try).
        self._store_failing = False
        #: When the table was opened (``None``: not known to this session).
        self.created = created
        #: When the game ended (``None`` until it does).
        self.ended = ended
        self.chat_max_chars = chat_max_chars
        #: The table its players opened to play again once the game was over (set by the manager).
        self.next_table: str | None = None
        #: The stored token hash of each person's seat, final once the game started (set by the
        #: manager; ``None``: not known yet, the database could not be read: no seated socket
        #: may see its seat until it is). See :meth:`seat_check`.
        self.seat_tokens: dict[int, str] | None = None
        #: Each seat's last hint (it stands for that seat's view at its ``version``).
        self._hint_answers: dict[int, dict[str, Any]] = {}
        #: Each seat's latest hint task and the version it was asked at (each waits for the one before).
        self._hint_tasks: dict[int, tuple[int, asyncio.Task[dict[str, Any]]]] = {}
        #: The coalesced re-send of a clock that someone coming or going changed (:meth:`_resend_clock`).
        self._resend_timer: asyncio.TimerHandle | None = None
        self._resent_at = -math.inf
        #: The coalesced ``table`` message of someone coming or going (:meth:`_announce_presence`).
        self._table_timer: asyncio.TimerHandle | None = None
        self._tabled_at = -math.inf

    def __repr__(self) -> str:
        return f"MatchSession({short_id(self.game_id)!r}, version={self.version})"  # (never the whole id: the invite)

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

    def seat_check(self, seat: int | None, token_hash: str | None) -> bool | None:
        """Whether a connection with this seat and token may see the seat's cards and play it (``None``: not known yet).

        A seat given back before the start (left, or its person removed) may
        have been checked on one process while a socket that held it waits on
        another: its token is then not the seat's any more (the seat is a bot's,
        or someone else's). Spectators, and connections whose token is not
        known (tests), always may. While the seats' tokens could not be read
        (:attr:`seat_tokens` is ``None``) a seated connection's answer is
        ``None``: it is shown nothing of its seat until they are (fail closed).
        """
        if seat is None or token_hash is None:
            return True
        if self.seat_tokens is None:
            return None
        return self.seat_tokens.get(seat) == token_hash

    def holds_seat(self, seat: int | None, token_hash: str | None) -> bool:
        """:meth:`seat_check`, for a request that must be answered now: ``False`` means the seat was given back.

        Raises:
            StorageError: The seats' tokens are not known yet (the database
                could not be read): nothing of the seat may be shown or played
                until they are, and the request may be made again shortly.
        """
        held = self.seat_check(seat, token_hash)
        if held is None:
            raise StorageError("the seats of this table could not be checked yet")
        return held

    def autoplayed(self, seat: int) -> bool:
        """Whether a bot is standing in for this person's seat now."""
        return self.presence.autoplayed(seat, driving=self.driving)

    def table_info(self, *, seated: bool = False) -> dict[str, Any]:
        """Public facts about the table: seats, presence, status (no cards).

        The same keys as ``GET /api/tables/{id}`` (:class:`~rummy500.server.protocol.TableInfo`),
        so a ``state``'s table and a ``table`` message look alike; ``created`` is
        ``None`` when the session was not told it, ``finished`` until the game ends.

        Args:
            seated: For a person seated at this table (their token checked):
                with ``next_table``, the rematch its players opened. At a
                public game anyone else (spectators, anyone who found it in the
                replays) is never told it: it is still in the lobby, and
                whoever knows its id may take a seat meant for a player. At a
                private table everyone is told: its link is its key, and
                whoever holds it could have joined the table itself.
        """
        return {
            "id": self.game_id,
            "title": self.title,
            "status": self.status,
            "rules": self.rules,
            "version": self.version,
            "seats": self.presence.seats_public(driving=self.driving),
            "spectators": self.presence.watching,
            "settings": {**self.settings.to_mapping(), "chat_max_chars": self.chat_max_chars},
            "created": _iso(self.created),
            "finished": _iso(self.ended),
            "invite_path": f"/t/{self.game_id}",
            "next_table": self.next_table if seated or not self.settings.public else None,
        }

    def log(self) -> list[dict[str, Any]]:
        """The recent public events (the current round, and the last round's result)."""
        return self.events.recent()

    def state_message(self, seat: int | None, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for a seat (``None``: a spectator).

        ``rounds`` is the whole score sheet (every finished round), so a page
        opened mid-game shows every round, not only those in the recent log.

        Args:
            seat: The seat whose view is sent (its ``table`` has ``next_table``:
                :meth:`table_info`; the caller checked the seat's token).
            shared: :meth:`shared_state` of this version, when several seats
                are sent the same state (built once for all of them; a
                spectator's, for a seat the session builds its own if it differs).
        """
        if shared is None or (seat is not None and self.next_table is not None):
            shared = self.shared_state(seated=seat is not None)
        return {"type": "state", "version": self.version, "view": self.game.view_dict(seat), **shared}

    def state_text(self, seat: int | None, shared: bytes | None = None) -> str:
        """:meth:`state_message` as the JSON text sent on a socket (the same text ``hub.encode`` makes of it).

        Built from pieces: the log's events are encoded once each when they
        happen, and the parts every seat shares once per broadcast.

        Args:
            seat: The seat whose view is sent (see :meth:`state_message`).
            shared: :meth:`shared_json` of this version (built once for several
                seats: a spectator's; for a seat the session builds its own
                when they differ, after a finished game's rematch was opened).
        """
        if shared is None or (seat is not None and self.next_table is not None):
            shared = self.shared_json(seated=seat is not None)
        head = b'{"type":"state","version":%d,"view":' % self.version
        return (head + dumps(self.game.view_dict(seat)) + b"," + shared[1:]).decode()

    def shared_json(self, *, seated: bool = False) -> bytes:
        """:meth:`shared_state` as JSON text (bytes), the log spliced in from its kept pieces."""
        table = dumps({"table": self.table_info(seated=seated)})
        rest = dumps(
            {
                "rounds": self.game.score_sheet(),
                "table_points": self.game.table_points() if not self.finished else None,
                "pace": self.pace_info(),
                "last_round": self.pace.summary,
            }
        )
        return table[:-1] + b',"log":' + self.events.recent_json() + b"," + rest[1:]

    def shared_state(self, *, seated: bool = False) -> dict[str, Any]:
        """The parts of a ``state`` message that every seat is sent alike (all public; ``seated``: :meth:`table_info`'s)."""
        return {
            "table": self.table_info(seated=seated),
            "log": self.log(),
            "rounds": self.game.score_sheet(),
            "table_points": self.game.table_points() if not self.finished else None,
            "pace": self.pace_info(),
            "last_round": self.pace.summary,
        }

    def pace_info(self) -> dict[str, Any]:
        """The public timers: call window, turn clock (or an away player's grace), round summary.

        For a person to move who is away, the clock shown is the one that runs
        out first: their turn clock (``kind: "turn"``) or their grace
        (``kind: "away"``); a bot plays for them when it does.
        """
        shown = self._running_clock()
        if shown is None:
            return self.pace.public(self._clock(), clock_seat=None, away=None)
        seat, kind, left = shown
        if kind == "turn":
            return self.pace.public(self._clock(), clock_seat=seat, away=None)
        return self.pace.public(self._clock(), clock_seat=None, away=(seat, left))

    def _running_clock(self) -> tuple[int, str, float] | None:
        """The person whose clock the table shows, its kind (``turn``, ``away``) and its seconds left.

        ``None`` during a round summary, on a bot's move, and for an away person
        whose grace is up (their bot plays now).
        """
        actors = self.game.actors()
        if not actors or self.pace.hold is not None:
            return None
        seat = actors[0]
        if self.seats[seat].kind != "human":
            return None
        clock = self.pace.person_clock(
            self._clock(), present=self.seats[seat].present, grace=self.presence.grace_left(seat)
        )
        if clock is None or (clock[0] == "away" and clock[1] <= 0):
            return None
        return seat, *clock

    def remember_chat(self, sender: str, seat: int, text: str) -> None:
        """Keep a chat line said before this session was loaded, or through another process (for pages that reconnect here)."""
        self._chat.append(ChatLine(seat, sender, text).message())

    def chat_history(self) -> list[dict[str, Any]]:
        """The recent chat lines, oldest first (for a page that (re)connects)."""
        return list(self._chat)

    # ----------------------------------------------------------------- timers
    def _new_position(self) -> None:
        """Start the timers of the position just reached (and, on a new turn, the count of who left during it)."""
        turn = self.pace.turn_key
        if self.finished:
            self.pace.new_position(self._clock(), window=False, person_could_call=False, turn=None)
        else:
            window = self.game.call_chance()
            person = window and any(self.seats[s].kind == "human" for s in self.game.may_call())
            self.pace.new_position(
                self._clock(),
                window=window,
                person_could_call=person,
                turn=(self.game.match.round_index, self.game.to_move),
            )
        if self.pace.turn_key != turn:
            self.presence.new_turn()

    def _after_apply(self, events: list[dict[str, Any]], stored_at: datetime | None = None) -> None:
        """Timers after accepted actions: a new position, and a round summary when a round ended; the time of the end.

        The game ends at the time stored with its last action (``stored_at``),
        which the storage keeps as its ``finished``: every process shows the
        same time (this clock's only where the store does not say).
        """
        if self.finished and self.ended is None:
            self.ended = stored_at if isinstance(stored_at, datetime) else datetime.now(UTC)
        self._new_position()
        if any(e["kind"] == "round_over" for e in events) and self.game.last_summary is not None:
            waiting = set() if self.finished else {s.seat for s in self.seats if s.kind == "human" and s.present}
            self.pace.round_ended(self._clock(), self.game.last_summary, waiting)
            for seat in self._early_ready.pop(self.version, ()):  # read elsewhere before this process caught up
                self.pace.ready(seat, self._clock())
        if self._early_ready:
            self._early_ready = {v: s for v, s in self._early_ready.items() if v > self.version}

    def _check_pace(self, seat: int) -> None:
        """Refuse a move the timers do not allow yet (lock held): behind a round summary, or in a call window.

        Raises:
            SessionError: ``not_your_turn``, saying what everybody waits for.
        """
        if self.pace.expire(self._clock()):
            self.announce_state()
        if self.pace.hold is not None:
            raise SessionError("not_your_turn", "the round summary is showing: play resumes when everyone is ready")
        window = self.pace.window_left(self._clock())
        if window is not None and seat == self.game.to_move:
            raise SessionError("not_your_turn", f"wait {window:.0f} s: the other players may call Rummy! first")

    def ready(self, seat: int | None) -> None:
        """A person has read the round summary; the next round starts once all have.

        A second ``ready`` for the same summary changes nothing.

        Raises:
            SessionError: ``not_seated`` for a spectator, ``not_running`` once
                the game is over, ``nothing_to_ready`` when no round summary
                holds the table.
        """
        reader = seat_of(seat, "only players at the table say they are ready")
        if self.finished:
            raise SessionError("not_running", "the game is over")
        if self.pace.hold is None:
            raise SessionError("nothing_to_ready", "no round summary is holding the table: play is on")
        if self.relay is not None and self.pace.hold is not None:
            self.relay.ready(self, reader)  # the other processes hold the table for this person too
        self._ready(reader)

    def _ready(self, seat: int) -> None:
        """Record a person's ``ready``: everybody sees who is still waited for; the last one ends the hold."""
        hold = self.pace.hold
        if hold is None or seat in hold.ready:
            return
        ended = self.pace.ready(seat, self._clock())
        self.announce_state()
        if ended:
            self.kick()

    def remote_ready(self, seat: int, version: int) -> None:
        """A person connected to another process has read the round summary shown at ``version``."""
        if not 0 <= seat < len(self.seats) or version < self.version:
            return  # the table has moved on since
        if version > self.version:
            self._early_ready.setdefault(version, set()).add(seat)  # applied when this copy gets there
            return
        self._ready(seat)

    # ------------------------------------------------------------------ hints
    def _check_hint(self, seat: int) -> None:
        """Refuse a hint the seat may not have now.

        Raises:
            SessionError: ``bad_message`` (hints off), ``not_running`` (the game
                is over) or ``not_your_turn`` (the seat has nothing to do).
        """
        if not self.settings.hints:
            raise SessionError("bad_message", "the host turned hints off at this table")
        if self.finished:
            raise SessionError("not_running", "the game is over")
        if not self.game.legal(seat):
            raise SessionError("not_your_turn", "you have no move to make now")

    def ask_hint(self, seat: int | None) -> asyncio.Future[dict[str, Any]]:
        """Ask for a hint for ``seat`` without waiting for it (call from the event loop).

        A seat has at most one search in flight. A request for the version
        already searched (or found) shares that answer: the hint of a version
        is found once. A request that comes while the seat's search for an
        older version runs waits for it to end and is then answered by one
        search on the position of that moment (its ``version`` says which;
        further requests meanwhile share it). The returned future is shared:
        await it through :func:`asyncio.shield`.

        Returns:
            A future of the ``hint`` message (already done when the hint of this
            version was found before).

        Raises:
            SessionError: Not seated, hints off, the game over, or nothing to do
                (checked again before a waiting request's search).
        """
        asker = seat_of(seat, "only players at the table get hints")
        self._check_hint(asker)
        loop = asyncio.get_running_loop()
        answer = self._hint_answers.get(asker)
        if answer is not None and answer["version"] == self.version:
            done: asyncio.Future[dict[str, Any]] = loop.create_future()
            done.set_result(answer)
            return done
        asked_at, last = self._hint_tasks.get(asker, (-1, None))
        if last is not None and not last.done():
            if asked_at == self.version:
                return last
            # A search for an older version runs: this one waits, then searches the position of then.
            task = loop.create_task(self._find_hint(asker, after=last))
        else:
            # The position of this moment (the seat's move may be applied before the task starts).
            task = loop.create_task(self._find_hint(asker, position=(self.version, self.game.view(asker))))
        task.add_done_callback(_seen)
        self._hint_tasks[asker] = (self.version, task)
        return task

    async def hint(self, seat: int | None) -> dict[str, Any]:
        """A suggested move for ``seat`` from a strong bot, with a one-line reason (from its own view only).

        See :meth:`ask_hint`; this waits for the answer.

        Raises:
            SessionError: Hints are off at this table, the game is over, or the seat has nothing to do.
        """
        return await asyncio.shield(self.ask_hint(seat))

    async def _find_hint(
        self, seat: int, position: tuple[int, View] | None = None, after: asyncio.Task[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The hint of ``position``, or of the seat's position once the search ``after`` has ended."""
        if after is not None:
            await asyncio.wait([after])  # one search at a time per seat, whatever its outcome
        if position is None:
            self._check_hint(seat)  # the game may have moved on while the last search ran
            answer = self._hint_answers.get(seat)
            if answer is not None and answer["version"] == self.version:
                return answer
            position = (self.version, self.game.view(seat))
        version, view = position
        # Its own bounded pool: a search waits there for a free thread, and storage's threads stay free.
        found = await self._hint_search(view, self._hint_rng.getrandbits(64), hint_budget(self.settings.turn_clock))
        answer = {"type": "hint", "version": version, **found}
        self._hint_answers[seat] = answer
        return answer

    def announce_state(self) -> None:
        """Send every connection the state (a new version, or a timer changed what they see).

        A re-send of the clock still due (:meth:`_resend_clock`) is not needed any more: this state shows it.
        """
        self._cancel_resend()
        for listener in list(self.listeners):
            listener.state_changed(self)

    # ---------------------------------------------------------------- actions
    async def submit(self, seat: int | None, version: Any, record: Any) -> None:
        """Run the chain of checks on a person's action and, if it passes, play it.

        The checks, in order: well-formed, a seat, not stale, the game running,
        the seat may act now, legal. Each failure raises :class:`SessionError`
        with its code and leaves the game unchanged.

        Args:
            seat: The seat the connection's token belongs to (``None``: spectator).
            version: The version the client saw when choosing the action.
            record: The action, a RECORD.md verb without ``p``.

        Raises:
            SessionError: The action was refused.
        """
        action = parse_request(record)
        actor = seat_of(seat, "spectators cannot act; join a seat to play")
        async with self.lock:
            if self.broken:
                raise SessionError("unavailable", self.broken)
            if self.shared and (version != self.version or self.behind):
                # Read the log only when this copy may be behind: another
                # process announced more, or the client saw more (it was on
                # another process). A lost announcement costs a conflict on
                # append, which catches up then.
                await self.catch_up_locked()
            check_move(self.game, actor, version, action)
            self._check_pace(actor)
            await self.commit_locked(actor, action, auto=False)

    async def _append(self, seat: int, record: dict[str, Any], *, auto: bool) -> datetime | None:
        """Store an action at this version; never waits on the event loop (lock held).

        An embedded database that never waits for the disk (SQLite in WAL
        mode) is written on the event loop, where a thread would cost more
        than the write, but only by a call that never waits for a lock either:
        while another connection holds the write lock the append goes to a
        thread, which waits (up to the busy timeout) while every other table
        and request goes on. Any other store is written in a thread.

        Raises:
            ConflictError: The action number is taken.
            StorageError: The store failed (or its lock was not freed in time).
        """
        if getattr(self.store, "quick_appends", False):
            append_now: Callable[..., datetime | None] = self.store.append_action  # (it takes at_once: see ActionStore)
            try:
                return append_now(self.game_id, self.version, seat, record, auto=auto, at_once=True)
            except WouldWait:
                pass  # locked by another connection: wait in a thread, never here
        return await asyncio.to_thread(self.store.append_action, self.game_id, self.version, seat, record, auto=auto)

    def note_version(self, version: int) -> None:
        """Another process announced this version (it is stored)."""
        self._announced = max(self._announced, version)

    @property
    def behind(self) -> bool:
        """Whether another process announced a version this copy has not applied."""
        return self._announced > self.version

    async def commit_locked(self, seat: int, action: Action, *, auto: bool) -> None:
        """Store, apply and announce an action already checked (lock held).

        Raises:
            SessionError: ``stale_version`` when another process stored this
                action number first (shared), ``unavailable`` when the store
                fails or the engine refuses a stored action.
        """
        record = action.to_record()
        try:
            stored_at = await self._append(seat, record, auto=auto)
        except ConflictError as exc:
            if self.shared:
                # Another process stored this action number first: catch up and
                # let the player choose again on the new state.
                await self.catch_up_locked()
                raise SessionError("stale_version", f"the game moved on to version {self.version} meanwhile") from exc
            # Another server wrote this action number: this copy is out of date.
            self.broken = "this game is being played elsewhere; reload the page"
            log.error("game %s: %s", short_id(self.game_id), without_id(exc, self.game_id))
            raise SessionError("unavailable", self.broken) from exc
        except StorageError as exc:
            if not self._store_failing:
                self._store_failing = True
                log.error(
                    "game %s: could not store an action: %s", short_id(self.game_id), without_id(exc, self.game_id)
                )
            raise SessionError("unavailable", "the game could not be saved; try again") from exc
        if self._store_failing:
            self._store_failing = False
            log.info("game %s: actions are stored again", short_id(self.game_id))
        try:
            events = self.game.apply(seat, action, check=False)  # checked once, before storing
        except Exception as exc:
            # Stored but refused by the engine: an engine bug. Stop this table
            # rather than let memory and storage disagree.
            self.broken = "the game hit an internal error; it will resume after a restart"
            log.exception("game %s: a stored %s could not be applied", short_id(self.game_id), type(action).__name__)
            raise SessionError("unavailable", self.broken) from exc
        if auto:
            self.bot_actions += 1
        label_actions(events, self.game.names, lambda s: auto or self.seats[s].kind == "bot")
        for event in events:
            self.events.add(event)
        self._after_apply(events, stored_at)
        if self.finished:
            try:
                stored_end = await asyncio.to_thread(
                    self.store.finish,
                    self.game_id,
                    record=self.game.record(),
                    result=self.game.result(),
                )
            except StorageError as exc:  # replayed and finished again at restart
                log.error("game %s: could not store its end: %s", short_id(self.game_id), without_id(exc, self.game_id))
            else:
                if isinstance(stored_end, datetime):  # announce the time stored, never another
                    self.ended = stored_end
        self.announce_state()
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
            return await self.catch_up_locked()

    async def catch_up_locked(self) -> int:
        """:meth:`catch_up` with the lock already held."""
        try:
            stored = await asyncio.to_thread(self.store.actions_since, self.game_id, self.version)
        except StorageError as exc:
            log.error("game %s: could not read the log: %s", short_id(self.game_id), without_id(exc, self.game_id))
            raise SessionError("unavailable", "the game could not be read; try again") from exc
        applied = 0
        for item in stored:
            if item.seq != self.version:
                continue  # already applied, or a gap the next catch-up fills
            # Someone acted after a round summary: the table is no longer held for it.
            self.pace.moved_on(self._clock())
            try:
                events = self.game.apply(item.seat, parse_action(dict(item.action)))
            except Exception as exc:
                self.broken = "the game hit an internal error; it will resume after a restart"
                log.exception("game %s: stored action %d could not be applied", short_id(self.game_id), item.seq)
                raise SessionError("unavailable", self.broken) from exc
            applied += 1
            self._after_apply(events, getattr(item, "created", None))
            # Marked as stored by the process that played it (a person's turn played for them included).
            played_for = {self.version} if getattr(item, "auto", False) else frozenset()
            label_actions(events, self.game.names, lambda s: self.seats[s].kind == "bot", played_for)
            for event in events:
                self.events.add(event)
        if applied:
            self.announce_state()
            self.kick()
        return applied

    # ------------------------------------------------------------------- chat
    async def chat(self, seat: int | None, text: Any, limit: int = 500) -> None:
        """Keep a seated player's chat line and pass it to the listeners.

        The line is stored first (so a reload, or a server restarted, shows it
        again), then sent; lines at one table are stored and sent in one order.
        A store that fails is logged and the line is sent all the same: the
        table goes on talking, only that line is not kept.

        Raises:
            SessionError: Not seated, or the text is empty or not a string.
        """
        speaker, clean = chat_text(seat, text, limit)
        name = self.seats[speaker].name
        async with self._chat_lock:
            line = ChatLine(speaker, name, clean)
            await keep_chat_line(self.store, self.game_id, line)
            self._chat.append(line.message())
            for listener in list(self.listeners):
                listener.chat(self, name, speaker, clean)
            if self.relay is not None:
                self.relay.said(self, name, speaker, clean)

    # --------------------------------------------------------------- presence
    def connect(self, seat: int | None) -> None:
        """A connection for ``seat`` (``None``: a spectator) opened."""
        shown = self._clock_shown()
        self.presence.connect(seat)
        self._presence_changed(shown)

    def connect_many(self, seats: Iterable[int | None]) -> None:
        """Several connections opened at once (a game starting or loading under watchers).

        The table is announced once for all of them, so a table watched by many
        sockets does not send each of them one message per socket.
        """
        opened = list(seats)
        shown = self._clock_shown()
        for seat in opened:
            self.presence.connect(seat)
        if opened:
            self._presence_changed(shown)

    def disconnect(self, seat: int | None) -> None:
        """A connection for ``seat`` (``None``: a spectator) closed."""
        shown = self._clock_shown()
        self.presence.disconnect(seat)
        # Nobody waits for a person who left the summary: everyone is told if that ended it.
        released = seat is not None and not self.seats[seat].present and self.pace.left_table(seat, self._clock())
        self._presence_changed(shown, resend=released)

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
        shown = self._clock_shown()
        was_present = {s.seat for s in self.seats if s.present}
        self.presence.set_remote(seated, spectators, autoplay)
        if self.table_info() == before:
            return False
        gone = [s for s in was_present if not self.seats[s].present]
        # Nobody waits for a person who left the summary: everyone is told if that ended it.
        released = any([self.pace.left_table(s, self._clock()) for s in gone])
        self._presence_changed(shown, resend=released)
        return True

    def set_driving(self, driving: bool) -> None:
        """Start or stop playing the bots and stand-ins (the manager holds the table's lease)."""
        if driving == self.driving:
            return
        self.driving = driving
        if driving:
            self._published_autoplay = None
            self.announce_table()
            self.kick()
        else:
            self.driver.wake()

    def _clock_shown(self) -> tuple[int | None, str | None]:
        """Whose clock the table shows and its kind (``turn``, ``away``): what a seat coming or going can change."""
        shown = self._running_clock()
        return (None, None) if shown is None else shown[:2]

    def _presence_changed(self, shown: tuple[int | None, str | None] | None = None, *, resend: bool = False) -> None:
        """Tell the table who is here; the state too when ``resend``, or when the clock differs from ``shown``.

        The away clock (``pace.clock`` of kind ``away``) travels with states: when the
        person to move leaves, or comes back, everyone gets the state again (the same
        version) so that the countdown starts, or goes, on every screen at once
        (at most one such state every :attr:`presence_resend_gap` seconds: :meth:`_resend_clock`).
        The ``table`` message goes out at most once every :attr:`presence_table_gap`
        seconds (:meth:`_announce_presence`).
        """
        if resend:
            self.announce_state()
        elif shown is not None and self._clock_shown() != shown:
            self._resend_clock()
        self._announce_presence()
        self.kick()

    def _announce_presence(self) -> None:
        """:meth:`announce_table` for someone coming or going: at most one every :attr:`presence_table_gap` s.

        Each socket that opens or closes changes the table's counts, and
        anyone may open spectator sockets: one message per socket would let one
        client flood every socket at the table. The first change after a quiet
        gap goes out at once; changes within the gap after a ``table`` message
        go out together when the gap ends, once, with the counts of that moment
        (the final count always arrives).
        """
        if self._table_timer is not None:
            return  # one is due: it sends the counts of its moment
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # outside the event loop (a test's direct call): at once
            self.announce_table()
            return
        wait = self._tabled_at + self.presence_table_gap - loop.time()
        if wait <= 0:
            self.announce_table()
        else:
            self._table_timer = loop.call_later(wait, self._announce_due)

    def _announce_due(self) -> None:
        """The coalesced ``table`` message of :meth:`_announce_presence`."""
        self._table_timer = None
        if not self._closed:
            self.announce_table()

    def _resend_clock(self) -> None:
        """Send everyone the state again because the clock shown changed: at most one every :attr:`presence_resend_gap` s.

        Someone closing and opening sockets in quick succession (the person to
        move reconnecting, again and again) would otherwise send every watcher
        two states per reconnect. A change within the gap after the last
        re-send is sent when the gap ends, once, with the clock of that moment
        (nothing more if a new state went out meanwhile: it showed the clock).
        """
        if self._resend_timer is not None:
            return  # one is due: it sends the clock of its moment
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # outside the event loop (a test's direct call): at once
            self._send_clock()
            return
        wait = self._resent_at + self.presence_resend_gap - loop.time()
        if wait <= 0:
            self._send_clock()
        else:
            self._resend_timer = loop.call_later(wait, self._send_clock)

    def _send_clock(self) -> None:
        """The re-send of :meth:`_resend_clock`: everyone gets the state, with the clock of now."""
        self._resend_timer = None
        if self._closed:
            return
        with contextlib.suppress(RuntimeError):
            self._resent_at = asyncio.get_running_loop().time()
        self.announce_state()

    def _cancel_resend(self) -> None:
        if self._resend_timer is not None:
            self._resend_timer.cancel()
            self._resend_timer = None

    def _cancel_timers(self) -> None:
        """Forget the coalesced messages still due (the session is closing)."""
        self._cancel_resend()
        if self._table_timer is not None:
            self._table_timer.cancel()
            self._table_timer = None

    def announce_table(self) -> None:
        """Tell the listeners the table changed; the driver also tells the others its stand-ins.

        A coalesced ``table`` message still due (:meth:`_announce_presence`) is not needed any more.
        """
        if self._table_timer is not None:
            self._table_timer.cancel()
            self._table_timer = None
        with contextlib.suppress(RuntimeError):
            self._tabled_at = asyncio.get_running_loop().time()
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
        self.driver.kick()

    def idle(self) -> bool:
        """Whether nothing can happen here until someone connects: nobody watches, the bots wait."""
        if any(s.present for s in self.seats) or self.presence.watching:
            return False
        return self.driver.idle and self.driver.next_auto()[:2] == (None, None)

    def retire(self) -> None:
        """Stop the bot driver without waiting (a session forgotten while its bots are idle)."""
        self._closed = True
        self._stop_hints()
        self._cancel_timers()
        self.driver.stop()

    async def close(self) -> None:
        """Stop the bot driver and the hint searches."""
        self._closed = True
        self._stop_hints()
        self._cancel_timers()
        await self.driver.close()

    def _stop_hints(self) -> None:
        """Stop answering hints (their requests are cancelled; a search already in a thread ends by itself)."""
        for _, task in self._hint_tasks.values():
            task.cancel()
