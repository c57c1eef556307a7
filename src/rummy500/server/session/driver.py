"""The bot driver of a table: plays bot seats and stand-ins for away players.

Bot seats, and seats whose player has been away longer than the grace period,
are played after a short delay; bot seats are also asked, once per position,
whether they call Rummy out of turn. The driver only runs while its table is
``driving`` (with several server processes, only the lease holder's is).

The seam with the agents is :func:`choose_action`: given a table's game and a
seat, it asks that seat's agent for an action. The rest is when to ask.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Protocol

from rummy500.server.bots import Bot, ask_bot, make_bot, settle_choice
from rummy500.server.engine import Action, LiveGame
from rummy500.server.session.guards import SessionError
from rummy500.server.session.presence import Presence, SeatInfo

__all__ = ["BotDriver", "DrivenTable", "choose_action"]

log = logging.getLogger(__name__)


class DrivenTable(Protocol):
    """What the driver needs of a table (a :class:`~rummy500.server.session.MatchSession`)."""

    game_id: str
    game: LiveGame
    seats: list[SeatInfo]
    presence: Presence
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

    def autoplayed(self, seat: int) -> bool:
        """Whether a bot stands in for this person now."""

    def announce_table(self) -> None:
        """Tell everybody the table changed (a bot took over a seat)."""

    async def catch_up_locked(self) -> int:
        """Apply what other processes stored (lock held)."""

    async def commit_locked(self, seat: int, action: Action, *, auto: bool) -> None:
        """Store, apply and announce a checked action (lock held)."""


async def choose_action(
    game: LiveGame, seat: int, bot: Bot, rng: random.Random, *, may_decline: bool
) -> Action | None:
    """Ask ``bot`` for ``seat``'s action in ``game``'s current position.

    Args:
        game: The game (not changed).
        seat: The seat the bot plays.
        bot: The agent.
        rng: Randomness for this decision.
        may_decline: An out-of-turn offer: the bot may pass.

    Returns:
        A legal action, or ``None`` when the bot declines an out-of-turn offer.
    """
    view = game.view(seat)
    legal = list(view.legal)
    # Strong bots search for a second or more: think in a worker thread on
    # the (immutable) view so other tables keep playing meanwhile.
    choice = await asyncio.to_thread(ask_bot, bot, view, rng)
    return settle_choice(choice, legal, rng, lambda a: game.check(seat, a), may_decline=may_decline)


class BotDriver:
    """One table's bot task: whose turn is it, wait, ask the agent, commit."""

    def __init__(self, table: DrivenTable, rng: random.Random) -> None:
        """A driver for ``table``, idle until :meth:`kick`.

        Args:
            table: The table it plays for.
            rng: Randomness for the bots (seeded from ``secrets`` by the server).
        """
        self.table = table
        self._rng = rng
        self._bots: dict[int, Bot] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._closed = False
        self._stuck_logged = False
        self._asked_version = -1
        self._asked: set[int] = set()

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
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"bots-{t.game_id[:8]}")
        else:
            self._wake.set()

    def wake(self) -> None:
        """Interrupt the driver's wait (it then sees it should stop)."""
        self._wake.set()

    async def close(self) -> None:
        """Stop the driver task."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def next_auto(self) -> tuple[int | None, float | None, bool]:
        """Which seat a bot should play now, else how long until one might.

        Returns:
            ``(seat, None, out_of_turn)`` when a bot should act for ``seat``;
            ``(None, seconds, False)`` when an away player's grace period runs
            out in ``seconds``; ``(None, None, False)`` when no bot has anything
            to do until the state or the presence changes.
        """
        t = self.table
        if t.broken or not t.driving:
            return None, None, False
        actors = t.game.actors()
        if not actors:
            return None, None, False
        if self._asked_version != t.version:
            self._asked_version, self._asked = t.version, set()
        # Bot seats may claim out of turn (calling Rummy!) before the seat to
        # move acts; each is asked once per position and may decline.
        for other in actors[1:]:
            if t.seats[other].kind == "bot" and other not in self._asked:
                return other, None, True
        seat = actors[0]
        if not t.game.legal(seat):
            # The engine offers the seat to move nothing: a stuck position. Never
            # spin on it; people at the table still see the state.
            if not self._stuck_logged:
                self._stuck_logged = True
                log.error("game %s: seat %d to move has no legal action", t.game_id, seat)
            return None, None, False
        if t.seats[seat].kind == "bot":
            return seat, None, False
        left = t.presence.grace_left(seat)
        if left is None:
            return None, None, False
        if left <= 0:
            return seat, None, False
        return None, left, False

    async def _sleep(self, seconds: float) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout=seconds)

    async def _drive(self) -> None:
        t = self.table
        announced: set[int] = set()
        while not self._closed and not t.finished:
            announced = {s for s in announced if t.autoplayed(s)}
            step = self.next_auto()
            seat, wait, out_of_turn = step
            if seat is None:
                if wait is None:
                    return
                await self._sleep(wait)
                continue
            if t.seats[seat].kind == "human" and seat not in announced:
                # A bot just took over an away seat: show it at the table.
                announced.add(seat)
                t.announce_table()
            # A pause before each move so people can follow (and call Rummy
            # first); a bot's out-of-turn claim is decided at once.
            await asyncio.sleep(0 if out_of_turn else t.bot_delay)
            async with t.lock:
                if t.shared and not self._closed:
                    try:
                        await t.catch_up_locked()
                    except SessionError as exc:
                        log.warning("game %s: bots wait: %s", t.game_id, exc.message)
                        await asyncio.sleep(max(t.bot_delay, 1.0))
                        continue
                if self._closed or t.finished or self.next_auto() != step:
                    continue
                action = await choose_action(
                    t.game, seat, self._bot(seat), random.Random(self._rng.getrandbits(64)), may_decline=out_of_turn
                )
                if action is None:
                    self._asked.add(seat)
                    continue
                try:
                    await t.commit_locked(seat, action, auto=True)
                except SessionError as exc:
                    if exc.code == "stale_version":  # another process moved first: look again
                        continue
                    log.warning("game %s: bot action refused: %s", t.game_id, exc)
                    await asyncio.sleep(max(t.bot_delay, 1.0))

    def _bot(self, seat: int) -> Bot:
        """The agent of a seat (made on first use, kept for the game)."""
        bot = self._bots.get(seat)
        if bot is None:
            info = self.table.seats[seat]
            bot = make_bot(info.bot_level or self.table.default_bot_level, self._rng.getrandbits(64))
            self._bots[seat] = bot
        return bot
