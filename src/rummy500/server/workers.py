"""Work that would block the event loop, done in worker processes: bot thinking and replays (and hints).

A strong bot searches for a second or more, and replaying a long game's log
takes a few hundred milliseconds; in the event loop's process either holds
the interpreter lock, so every other table of the process waits. A
:class:`Workers` pool runs them in separate processes (``workers`` in the
settings; ``0`` runs them in a thread of this process instead, which is what
tests and tiny installs use). What crosses over is small and picklable: a
seat's view and its bot (sent back with its memory updated), or a game's rules,
names, seed and action log (sent back as the rebuilt game).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from rummy500.server.affinity import unpin
from rummy500.server.bots import Bot, ask_bot
from rummy500.server.engine import Action, LiveGame, parse_action, parse_rules

__all__ = ["RenewingPool", "Workers", "rebuild", "replay_steps", "think", "worker_pool"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How much lower the workers' scheduling priority is than the server's.
WORKER_NICENESS = 10


def think(bot: Bot, view: Any, rng: random.Random) -> tuple[Action | BaseException | None, Bot]:
    """Run a bot on a view (in a worker); return its answer and the bot, whose memory it updated."""
    choice = ask_bot(bot, view, rng)
    if isinstance(choice, BaseException):
        # The exception's type only: its text might name the bot's cards, and
        # an exception of a bot's own class might not cross back.
        choice = RuntimeError(type(choice).__name__)
    return choice, bot


def rebuild(
    rules: dict[str, Any], names: list[str], seed: int, actions: list[tuple[int, dict[str, Any]]]
) -> tuple[LiveGame, list[dict[str, Any]]]:
    """A game replayed from its log (in a worker), with the public events of the replay."""
    events: list[dict[str, Any]] = []
    game = LiveGame.replay(parse_rules(rules, len(names)), names, seed, actions, events=events)
    return game, events


def replay_steps(
    rules: dict[str, Any], names: list[str], seed: int, actions: list[tuple[int, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Every step of a finished game: after each action, its event, the spectator view and every hand.

    A step whose action ended a round carries that round's summary (``round_over``)
    and that round's number, so a viewer shows each round's end before the next deal;
    its ``view`` and ``hands`` are already the next round's deal (the position before
    that round's first move), except at the game's last step.
    The step that ended the game carries its result too (``game_over``: totals and winner).

    ``hands`` are the true hands (:meth:`LiveGame.hands`): not what a seat's view
    holds, which is empty while a Dealer's Gambit deal lies face down before the
    nomination (the game is over, so every hand may be shown).
    """
    game = LiveGame(parse_rules(rules, len(names)), names, seed)
    steps: list[dict[str, Any]] = [
        {"action": None, "view": game.view_dict(None), "hands": game.hands(), "round": 0, "round_over": None, "game_over": None}
    ]
    for seat, record in actions:
        events = game.apply(seat, parse_action(record))
        ended = game.last_summary if any(e["kind"] == "round_over" for e in events) else None
        steps.append(
            {
                "action": dict(events[0], name=names[seat]),
                "view": game.view_dict(None),
                "hands": game.hands(),
                "round": ended["round"] if ended else game.match.round_index,
                "round_over": ended,
                "game_over": game.result() if any(e["kind"] == "game_over" for e in events) else None,
            }
        )
    return steps


#: How often (seconds) a worker checks that the server process is still there.
PARENT_CHECK_S = 0.5


def _watch_parent(parent: int) -> None:
    """Exit this worker as soon as the process that started it is gone.

    A server killed with SIGKILL cannot shut its pool down; its workers would
    otherwise live on (orphans holding memory, a bot's search running on).
    When the parent dies, the worker is re-parented and ``getppid`` changes.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="worker-parent-watch", daemon=True).start()


def start_worker(parent: int) -> None:
    """Start a worker process of the server (a pool's initializer): on every CPU, ending with the server.

    ``rummy500 serve --cpu`` pins the server's own threads, not its workers:
    they get back every CPU the server could use.
    """
    unpin()
    _watch_parent(parent)


def _init_worker(parent: int) -> None:
    """Start a bot worker: at a lower priority, and as :func:`start_worker`.

    On a busy machine the event loop's process goes first; the worker ends with the server.
    """
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    start_worker(parent)


def worker_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of ``processes`` worker processes of the server (bots' thinking, replays, hints).

    Spawned: a fresh interpreter, never a fork of a process with an event loop,
    threads and open sockets. Each runs at a lower priority and ends with the
    server (:func:`_init_worker`).
    """
    return ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(os.getpid(),),
    )


class RenewingPool:
    """An executor made on first use (again in a forked child), and made anew when a worker died.

    A process pool whose worker was killed (the out-of-memory killer, an
    operator) is broken for good: every later call fails at once. Here the
    call that met the broken pool is tried once more in a new pool, so one
    dead worker costs no answer. Only pure work belongs here (a bot's
    thinking, a replay, a hint search): it may run twice.
    """

    def __init__(self, make: Callable[[], Executor]) -> None:
        """A pool-to-be, made by ``make()`` when first needed."""
        self._make = make
        self._pool: Executor | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def _executor(self) -> Executor:
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                self._pool = self._make()
                self._pid = os.getpid()
            return self._pool

    def _forget(self, pool: Executor) -> None:
        """Drop a broken pool: the next call starts a new one."""
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool (tried once more in a new pool if a worker died).

        Raises:
            BrokenExecutor: The new pool broke too.
            Exception: Whatever ``fn`` raised.
        """
        loop = asyncio.get_running_loop()
        for tries_left in (1, 0):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenExecutor:
                self._forget(pool)
                if not tries_left:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        """Stop the pool (work still queued is dropped; a later call starts a new one)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class Workers:
    """A pool of worker processes (or one thread), started on first use, renewed if a worker died."""

    def __init__(self, processes: int) -> None:
        """Prepare a pool of ``processes`` (``0``: a thread of this process)."""
        self.processes = processes
        self._pool = RenewingPool(lambda: worker_pool(processes)) if processes > 0 else None

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` off the event loop and return its result.

        A call that finds a worker dead is run again in a new pool (:class:`RenewingPool`).

        Raises:
            Exception: Whatever ``fn`` raised, or the pool's error if the new pool broke too.
        """
        if self._pool is None:
            return await asyncio.to_thread(fn, *args)
        return await self._pool.run(fn, *args)

    async def think(self, bot: Bot, view: Any, rng: random.Random) -> tuple[Action | BaseException | None, Bot]:
        """A bot's answer on a view, and the bot as it is after answering (see :func:`think`)."""
        try:
            return await self.call(think, bot, view, rng)
        except Exception as exc:  # noqa: BLE001 - a dead worker or an unpicklable answer: the bot failed
            return exc, bot

    def close(self) -> None:
        """Stop the worker processes (work still queued is dropped)."""
        if self._pool is not None:
            self._pool.close()
