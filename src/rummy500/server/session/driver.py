"""The bot driver of a table: plays bot seats and stand-ins for away players.

Bot seats, seats whose player has been away longer than the grace period
(counted from their first disconnect in the turn: a brief reconnect does not
start it again), and a person's turn once their turn clock (or, without one,
the idle limit of :data:`~rummy500.server.pace.IDLE_TURN_SECONDS`, connected or
not) runs out, are played after a short delay; bot seats are also asked, once
per position, whether they call Rummy out of turn. The driver only runs while its table is
``driving`` (with several server processes, only the lease holder's is).

The seam with the agents is :func:`choose_action`: given a table's game and a
seat, it asks that seat's agent for an action. The rest is when to ask.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import random
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from rummy500.server.bots import Bot, ask_bot, make_bot, settle_choice, thinks_instantly, thinks_long
from rummy500.server.engine import Action, Decline, LiveGame
from rummy500.server.pace import Pace
from rummy500.server.session.guards import SessionError
from rummy500.server.session.ids import short_id, without_id
from rummy500.server.session.presence import Presence, SeatInfo

__all__ = [
    "BOT_BEAT",
    "RETRY_FIRST",
    "RETRY_MAX",
    "THINKING",
    "BotDriver",
    "DrivenTable",
    "Thinker",
    "ThinkingThreads",
    "bot_pause",
    "choose_action",
    "pause_end",
    "think_at_once",
    "think_in_thread",
]

log = logging.getLogger(__name__)

#: Seconds a driver waits after its first failed write (or read) before trying again; each
#: failure in a row doubles the wait, up to :data:`RETRY_MAX` (the database may be down a while).
RETRY_FIRST = 0.25
#: The longest wait between two tries while the database stays unavailable.
RETRY_MAX = 15.0

#: Bots' pauses end on a beat of the event loop's clock (seconds), at most a quarter of the pause:
#: the tables whose bots are due within one beat move together, their decisions back to back in
#: the thinking thread instead of each on a wake-up of its own (docs/deploy.md, "Bots on a beat").
BOT_BEAT = 0.1


def pause_end(now: float, delay: float, beat: float = BOT_BEAT) -> float:
    """When a pause of ``delay`` seconds begun at ``now`` ends: on a beat of the clock.

    The beat is ``beat`` or a quarter of ``delay``, whichever is shorter; the
    end is rounded to the nearest multiple of it, so a pause keeps within an
    eighth of its length (on average its length) and the pauses of many
    tables end on the same ticks. A pause of 0 (or a beat of 0) ends at
    ``now + delay``, unrounded.

    >>> [round(pause_end(start, 0.8), 6) for start in (1000.013, 1000.049, 1000.07)]
    [1000.8, 1000.8, 1000.9]
    """
    beat = min(beat, delay / 4)
    if beat <= 0:
        return now + max(delay, 0)
    return round((now + delay) / beat) * beat  # after now: the rounding moves it by beat / 2 at most


async def bot_pause(delay: float) -> None:
    """Sleep until :func:`pause_end` of a pause of ``delay`` seconds begun now (the loop's clock)."""
    now = asyncio.get_running_loop().time()
    await asyncio.sleep(pause_end(now, delay) - now)


class DrivenTable(Protocol):
    """What the driver needs of a table (a :class:`~rummy500.server.session.MatchSession`)."""

    game_id: str
    game: LiveGame
    seats: list[SeatInfo]
    presence: Presence
    pace: Pace
    lock: asyncio.Lock
    broken: str | None
    driving: bool
    shared: bool
    bot_delay: float
    default_bot_level: str

    @property
    def finished(self) -> bool:
        """Whether the game is over."""

    @property
    def version(self) -> int:
        """Number of accepted actions."""

    @property
    def behind(self) -> bool:
        """Whether another process announced a version not applied here."""

    def autoplayed(self, seat: int) -> bool:
        """Whether a bot stands in for this person now."""

    def announce_table(self) -> None:
        """Tell everybody the table changed (a bot took over a seat)."""

    async def catch_up_locked(self) -> int:
        """Apply what other processes stored (lock held)."""

    async def commit_locked(self, seat: int, action: Action, *, auto: bool) -> None:
        """Store, apply and announce a checked action (lock held)."""

    def announce_state(self) -> None:
        """Send every connection the state again (a timer changed what they see)."""


#: Runs a bot on a view off the event loop; returns its answer and the bot with its memory updated.
Thinker = Callable[[Bot, Any, random.Random], Awaitable[tuple[Action | BaseException | None, Bot]]]


class ThinkingThreads:
    """A few threads of this process that run the quick bots' decisions, taken from one queue.

    Cheaper per decision than ``asyncio.to_thread`` (no context copy, no
    executor bookkeeping, no chained futures): a job goes on a queue, one
    idle thread takes it, its answer comes back through the event loop's
    ``call_soon_threadsafe``. The decisions take milliseconds and hold the
    interpreter lock while they think, so more threads would not decide any
    sooner; there are several only so that one decision that never ends (a
    bot bug) does not hold up the other tables' bots. The threads start on
    first use (again in a forked child) and live as long as the process.
    """

    def __init__(self, threads: int = 4) -> None:
        """Idle threads-to-be (``threads`` of them)."""
        self.size = threads
        self._jobs: queue.SimpleQueue[
            tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]
        ] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._start = threading.Lock()

    def run(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``fn(*args)`` in one of the threads; a future of the calling event loop, for its result."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        if not self._threads or not self._threads[0].is_alive():
            self._spawn()
        self._jobs.put((loop, done, fn, args))
        return done

    def _spawn(self) -> None:
        with self._start:
            if self._threads and self._threads[0].is_alive():
                return
            self._jobs = queue.SimpleQueue()  # a forked child's: nothing of the parent's
            self._threads = [
                threading.Thread(target=self._work, args=(self._jobs,), name=f"bot-thinking-{i}", daemon=True)
                for i in range(self.size)
            ]
            for thread in self._threads:
                thread.start()

    @staticmethod
    def _work(jobs: queue.SimpleQueue[Any]) -> None:
        while True:
            loop, done, fn, args = jobs.get()
            try:
                result, failed = fn(*args), None
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
                result, failed = None, exc
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
                loop.call_soon_threadsafe(_settle, done, result, failed)
            del loop, done, fn, args, result, failed


def _settle(done: asyncio.Future[Any], result: Any, failed: BaseException | None) -> None:
    if done.cancelled():
        return
    if failed is not None:
        done.set_exception(failed)
    else:
        done.set_result(result)


#: The threads where ``easy`` and ``medium`` bots think.
THINKING = ThinkingThreads()


async def think_in_thread(bot: Bot, view: Any, rng: random.Random) -> tuple[Action | BaseException | None, Bot]:
    """The simplest :data:`Thinker`: the process's bot-thinking threads (:data:`THINKING`)."""
    return await THINKING.run(ask_bot, bot, view, rng), bot


async def think_at_once(bot: Bot, view: Any, rng: random.Random) -> tuple[Action | BaseException | None, Bot]:
    """The :data:`Thinker` of the instant levels (a random pick): in the event loop, no thread hop."""
    return ask_bot(bot, view, rng), bot


async def choose_action(
    game: LiveGame,
    seat: int,
    bot: Bot,
    rng: random.Random,
    *,
    may_decline: bool,
    think: Thinker = think_in_thread,
) -> tuple[Action | None, Bot]:
    """Ask ``bot`` for ``seat``'s action in ``game``'s current position.

    Args:
        game: The game (not changed).
        seat: The seat the bot plays.
        bot: The agent.
        rng: Randomness for this decision.
        may_decline: An out-of-turn offer: the bot may pass.
        think: Where the bot thinks (strong bots search for a second or
            more: never in the event loop, so other tables keep playing).

    Returns:
        A legal action (or ``None`` when the bot declines an out-of-turn
        offer), and the bot to keep for the seat's next decision.
    """
    view = game.view(seat)
    legal = list(view.legal)
    choice, bot = await think(bot, view, rng)
    if isinstance(choice, Decline):
        choice = None  # no call: nothing to store
    legal = [a for a in legal if not isinstance(a, Decline)]
    return settle_choice(choice, legal, rng, lambda a: game.check(seat, a), may_decline=may_decline), bot


class BotDriver:
    """One table's bot task: whose turn is it, wait, ask the agent, commit."""

    def __init__(self, table: DrivenTable, rng: random.Random, think: Thinker = think_in_thread) -> None:
        """A driver for ``table``, idle until :meth:`kick`.

        Args:
            table: The table it plays for.
            rng: Randomness for the bots (seeded from ``secrets`` by the server).
            think: Where searching bots think (the server's worker processes);
                the quick levels think in a thread (``random`` in the event loop).
        """
        self.table = table
        self._rng = rng
        self._think = think
        self._bots: dict[int, Bot] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._closed = False
        self._stuck_logged = False
        self._asked_version = -1
        self._asked: set[int] = set()
        self._failures = 0  # failed writes (or reads) in a row

    @property
    def idle(self) -> bool:
        """Whether no driver task is running."""
        return self._task is None or self._task.done()

    def kick(self) -> None:
        """Look again at whose turn it is (call from the event loop)."""
        t = self.table
        if self._closed or t.finished or not t.driving:
            return
        if self.idle:
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"bots-{short_id(t.game_id)}")
        else:
            self._wake.set()

    def wake(self) -> None:
        """Interrupt the driver's wait (it then sees it should stop)."""
        self._wake.set()

    def stop(self) -> None:
        """Stop for good (the task, if any, is cancelled; :meth:`close` also waits for it)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()

    async def close(self) -> None:
        """Stop the driver task and wait for it."""
        self.stop()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def next_auto(self) -> tuple[int | None, float | None, bool]:
        """Which seat a bot should play now, else how long until one might.

        Returns:
            ``(seat, None, out_of_turn)`` when a bot should act for ``seat``;
            ``(None, seconds, False)`` when a timer (the round summary, a call
            window, a person's turn clock or idle limit, an away player's grace
            period) runs out in ``seconds``; ``(None, None, False)`` when no bot has anything
            to do until the state or the presence changes.
        """
        t = self.table
        if t.broken or not t.driving:
            return None, None, False
        now = t.presence.clock()
        held = t.pace.held(now)
        if held is not None:
            return None, max(held, 0.01), False
        window = t.pace.window_left(now)
        if window is not None:
            # Every seat gets the same window to call Rummy!; bots decide at its end.
            return None, window, False
        if self._asked_version != t.version:
            self._asked_version, self._asked = t.version, set()
        # The engine's decision order: bot seats offered an out-of-turn claim
        # (calling Rummy!) are asked before the seat to move, once per
        # position (a decline lasts until the position changes). People are
        # never waited for: they call whenever they like.
        people = {i for i, info in enumerate(t.seats) if info.kind != "bot"}
        decision = t.game.decision(skip=self._asked | people)
        if decision is None or decision.seat is None:
            return None, None, False
        seat = decision.seat
        if decision.kind == "offer":
            return seat, None, True
        if not decision.legal:
            # The engine offers the seat to move nothing: a stuck position. Never
            # spin on it; people at the table still see the state.
            if not self._stuck_logged:
                self._stuck_logged = True
                log.error("game %s: seat %d to move has no legal action", short_id(t.game_id), seat)
            return None, None, False
        if t.seats[seat].kind == "bot":
            return seat, None, False
        # A person: their bot plays the turn once their clock runs out (the turn
        # clock, or for an away person the grace period, counted from their first
        # disconnect in this turn, if that ends first).
        present = t.seats[seat].present
        clock = t.pace.person_clock(now, present=present, grace=t.presence.grace_left(seat))
        if clock is None and present:
            # No turn clock: a person idle past the idle limit is played for all the same (when
            # away, person_clock counts it too: reconnecting now and then never stalls a table).
            idle = t.pace.idle_left(now)
            clock = None if idle is None else ("idle", idle)
        if clock is None:
            return None, None, False
        left = clock[1]
        return (seat, None, False) if left <= 0 else (None, left, False)

    async def _sleep(self, seconds: float) -> None:
        """Wait ``seconds`` or until :meth:`kick` or :meth:`wake` (a timer on the event, no task per wait)."""
        self._wake.clear()
        timer = asyncio.get_running_loop().call_later(seconds, self._wake.set)
        try:
            await self._wake.wait()
        finally:
            timer.cancel()

    async def _drive(self) -> None:
        t = self.table
        announced: set[int] = set()
        while not self._closed and not t.finished:
            if t.pace.expire(t.presence.clock()):  # the round summary's time is up
                t.announce_state()
            announced = {s for s in announced if t.autoplayed(s)}
            step = self.next_auto()
            seat, wait, out_of_turn = step
            if seat is None:
                if wait is None:
                    return
                await self._sleep(wait)
                continue
            if t.seats[seat].kind == "human" and t.autoplayed(seat) and seat not in announced:
                # A bot just took over an away seat: show it at the table.
                announced.add(seat)
                t.announce_table()
            # A pause before each move so people can follow (and call Rummy
            # first); a bot's out-of-turn claim is decided at once.
            await bot_pause(0 if out_of_turn else t.bot_delay)
            failure: str | None = None
            async with t.lock:
                if t.shared and t.behind and not self._closed:
                    try:
                        await t.catch_up_locked()
                    except SessionError as exc:
                        failure = exc.message
                    else:
                        self._recovered()
                if failure is None:
                    if self._closed or t.finished or self.next_auto() != step:
                        continue
                    try:
                        failure = await self._play(seat, out_of_turn)
                    except Exception as exc:  # noqa: BLE001 - the task must outlive any failure, or the bots stop for good
                        log.exception("game %s: a bot's move failed", short_id(t.game_id))
                        failure = type(exc).__name__
            if failure is not None:
                # Outside the lock: people's own actions are refused as
                # ``unavailable`` meanwhile, not held up behind this wait.
                await self._sleep(self._failed(failure))

    async def _play(self, seat: int, out_of_turn: bool) -> str | None:
        """Choose and commit a bot's action for ``seat`` (lock held).

        Returns:
            ``None`` when the action was stored (or declined, or another
            process moved first: the driver looks again at once), else why the
            commit failed (the driver waits, then tries again).
        """
        t = self.table
        bot, level = self._bot(seat)
        if thinks_long(level):
            # A process gets its own randomness (the driver's stays here).
            think, rng = self._think, random.Random(self._rng.getrandbits(64))
        else:
            think, rng = (think_at_once if thinks_instantly(level) else think_in_thread), self._rng
        action, self._bots[seat] = await choose_action(t.game, seat, bot, rng, may_decline=out_of_turn, think=think)
        if action is None:
            self._asked.add(seat)
            return None
        try:
            await t.commit_locked(seat, action, auto=True)
        except SessionError as exc:
            if exc.code == "stale_version":  # another process moved first: look again
                return None
            return exc.message
        self._recovered()
        return None

    def _recovered(self) -> None:
        """A write (or read) went through: end a run of failures (logged once)."""
        if self._failures:
            log.info("game %s: bots play again after %d failed tries", short_id(self.table.game_id), self._failures)
            self._failures = 0

    def _failed(self, why: str) -> float:
        """Count a failed try (logged only when a run of failures begins); the seconds to wait before the next.

        The wait doubles with each failure in a row, from :data:`RETRY_FIRST`
        up to :data:`RETRY_MAX` (:meth:`kick`, after a move of the people's
        was stored, cuts it short), so a table whose database is down for
        minutes neither spins nor gives up: its bots move again at the first
        try after the database is back.
        """
        self._failures += 1
        if self._failures == 1:
            log.warning(
                "game %s: a bot's move could not be stored; trying again until it is: %s",
                short_id(self.table.game_id),
                without_id(why, self.table.game_id),
            )
        return min(RETRY_FIRST * 2 ** min(self._failures - 1, 16), RETRY_MAX)

    def _bot(self, seat: int) -> tuple[Bot, str]:
        """The agent of a seat (made on first use, kept for the game) and its level."""
        level = self.table.seats[seat].bot_level or self.table.default_bot_level
        bot = self._bots.get(seat)
        if bot is None:
            bot = make_bot(level, self._rng.getrandbits(64))
            self._bots[seat] = bot
        return bot, level
