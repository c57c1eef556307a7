"""The review of a finished game (:mod:`rummy500.review`), computed in the background.

``POST /api/games/{id}/review`` asks for it and ``GET /api/games/{id}/review``
reports where it stands: ``queued`` (with how many reviews are ahead),
``running`` (with how many decisions of how many are reviewed), ``done``
(with the review) or ``failed`` (with the reason).
Only the players of the game may ask: the request carries one of its seat
tokens (``Authorization: Bearer TOKEN``). The server has no public tables;
every table is invite-only, so nobody else may.

A review costs seconds of CPU, so it never runs on the event loop: each
server process keeps one queue and one worker process
(:class:`~concurrent.futures.ProcessPoolExecutor` of one, ``spawn``), and
reviews one game at a time in the order asked. Finished reviews are kept in
memory (the last :data:`KEEP` games) and a game asked for twice is reviewed
once. ``RUMMY500_REVIEW_SAMPLES`` and ``RUMMY500_REVIEW_EXTEND`` set the
budget's ``samples`` and ``extend`` (default :data:`rummy500.review.DEFAULT_BUDGET`).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from multiprocessing.sharedctypes import SynchronizedArray
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from rummy500.review import DEFAULT_BUDGET, MAX_SAMPLES, Budget, ReviewError, review_record
from rummy500.server.api.deps import BearerToken, ManagerDep
from rummy500.server.manager import LobbyError
from rummy500.server.session import short_id
from rummy500.server.workers import start_worker

__all__ = ["KEEP", "ReviewQueue", "ReviewStatus", "router"]

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/games", tags=["review"])

#: Finished reviews kept in memory per process.
KEEP = 64


class ReviewStatus(BaseModel):
    """Where a game's review stands."""

    status: Literal["none", "queued", "running", "done", "failed"]
    ahead: int = 0
    done: int = Field(default=0, description="while running: the decisions reviewed so far")
    total: int = Field(default=0, description="while running: the decisions to review (0 until counted)")
    review: dict[str, Any] | None = None
    error: str | None = None


#: In the review worker process: where it writes how far the review has come (done, total).
_progress: SynchronizedArray[int] | None = None


def _start_review_worker(parent: int, progress: SynchronizedArray[int]) -> None:
    """The review worker's initializer: :func:`start_worker`, and the shared progress counters."""
    global _progress  # noqa: PLW0603 - one per worker process, set once at its start
    _progress = progress
    start_worker(parent)


def _report(done: int, total: int) -> None:
    if _progress is not None:
        _progress[0], _progress[1] = done, total


def compute_review(record: dict[str, Any], budget: Budget) -> dict[str, Any]:
    """Review a record (runs in the worker process), counting the decisions reviewed as it goes."""
    _report(0, 0)
    return review_record(record, budget=budget, progress=_report).to_dict()


def _env_int(name: str, default: int, lo: int, hi: int) -> int:
    raw = os.environ.get(name, "")
    return max(lo, min(hi, int(raw))) if raw.isdigit() else default


def server_budget() -> Budget:
    """The default budget, or ``RUMMY500_REVIEW_SAMPLES`` / ``RUMMY500_REVIEW_EXTEND`` where set."""
    return replace(
        DEFAULT_BUDGET,
        samples=_env_int("RUMMY500_REVIEW_SAMPLES", DEFAULT_BUDGET.samples, 2, MAX_SAMPLES),
        extend=_env_int("RUMMY500_REVIEW_EXTEND", DEFAULT_BUDGET.extend, 0, 511),
    )


@dataclass
class _Job:
    record: dict[str, Any]
    status: str = "queued"
    review: dict[str, Any] | None = None
    error: str | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


class ReviewQueue:
    """One process's reviews: a FIFO queue in front of a single worker process."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget if budget is not None else server_budget()
        self.jobs: OrderedDict[str, _Job] = OrderedDict()
        self.order: list[str] = []
        self._queue: asyncio.Queue[str] | None = None
        self._worker: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._ctx = multiprocessing.get_context("spawn")
        #: The running review's decisions done and to do, written by the worker process.
        self._progress: SynchronizedArray[int] = self._ctx.Array("i", 2)

    def status(self, game_id: str) -> ReviewStatus:
        """The state of ``game_id``'s review."""
        job = self.jobs.get(game_id)
        if job is None:
            return ReviewStatus(status="none")
        # Ahead of a queued review: those queued before it and the one running now.
        ahead = 0
        if job.status == "queued" and game_id in self.order:
            ahead = self.order.index(game_id) + sum(j.status == "running" for j in self.jobs.values())
        done, total = self._progress[:] if job.status == "running" else (0, 0)
        return ReviewStatus(
            status=job.status,  # type: ignore[arg-type]
            ahead=ahead,
            done=done,
            total=total,
            review=job.review,
            error=job.error,
        )

    def submit(self, game_id: str, record: dict[str, Any]) -> ReviewStatus:
        """Queue ``game_id`` unless it is queued, running or done (a failed one is retried)."""
        job = self.jobs.get(game_id)
        if job is None or job.status == "failed":
            self.jobs[game_id] = _Job(record)
            self._ensure_worker()
            assert self._queue is not None
            self.order.append(game_id)
            self._queue.put_nowait(game_id)
            self._trim()
        return self.status(game_id)

    async def wait(self, game_id: str) -> ReviewStatus:
        """Wait until ``game_id``'s review is done or failed (tests and tools)."""
        await self.jobs[game_id].done.wait()
        return self.status(game_id)

    def _ensure_worker(self) -> None:
        loop = asyncio.get_running_loop()
        if self._worker is None or self._worker.done() or self._loop is not loop:
            self._loop = loop
            self._queue = asyncio.Queue()
            for gid in self.order:
                self._queue.put_nowait(gid)
            self._worker = loop.create_task(self._run(), name="rummy500-review")

    async def _run(self) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        while True:
            game_id = await self._queue.get()
            job = self.jobs.get(game_id)
            if game_id in self.order:
                self.order.remove(game_id)
            if job is None or job.status != "queued":
                continue
            self._progress[:] = [0, 0]
            job.status = "running"
            try:
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(
                        max_workers=1,
                        mp_context=self._ctx,
                        initializer=_start_review_worker,  # no orphaned reviews after a kill -9
                        initargs=(os.getpid(), self._progress),
                    )
                job.review = await loop.run_in_executor(self._pool, compute_review, job.record, self.budget)
                job.status = "done"
            except ReviewError as exc:
                job.status, job.error = "failed", str(exc)
            except Exception as exc:  # noqa: BLE001 - a broken worker must not stop the queue
                log.exception("review of %s failed", short_id(game_id))
                job.status, job.error = "failed", f"the review failed ({type(exc).__name__})"
                if self._pool is not None:
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
            job.record = {}
            job.done.set()

    def _trim(self) -> None:
        finished = [g for g, j in self.jobs.items() if j.status in ("done", "failed")]
        for g in finished[: max(0, len(finished) - KEEP)]:
            del self.jobs[g]

    def close(self) -> None:
        """Stop the worker task and the worker process (a review running is ended: it is pure computation)."""
        if self._worker is not None:
            self._worker.cancel()
        if self._pool is not None:
            # (The executor has no public way to end a call already running, and the interpreter's
            # exit waits for it: a review of a long game held a SIGTERM for 97 s.)
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def review_queue(request: Request) -> ReviewQueue:
    """The app's review queue (made on first use)."""
    q = getattr(request.app.state, "review_queue", None)
    if q is None:
        q = request.app.state.review_queue = ReviewQueue()
    return q


async def _player_record(game_id: str, token: str, manager: ManagerDep) -> dict[str, Any]:
    """The record of a finished game, for one of its players only."""
    try:
        row = await manager.finished_game(game_id)
    except LobbyError as exc:
        raise HTTPException(exc.status, detail=exc.detail()) from exc
    if row is None:
        raise HTTPException(404, detail={"code": "no_table", "message": "no such game"})
    if await manager.authenticate(game_id, token) is None:
        raise HTTPException(
            403, detail={"code": "bad_token", "message": "only the players of this game may ask for its review"}
        )
    assert row.record is not None
    return row.record


@router.post("/{game_id}/review", response_model=ReviewStatus, status_code=202)
async def ask_review(game_id: str, token: BearerToken, manager: ManagerDep, request: Request) -> ReviewStatus:
    """Queue the review of a finished game (a player's token); answers where it stands."""
    record = await _player_record(game_id, token, manager)
    return review_queue(request).submit(game_id, record)


@router.get("/{game_id}/review", response_model=ReviewStatus)
async def get_review(game_id: str, token: BearerToken, manager: ManagerDep, request: Request) -> ReviewStatus:
    """Where the review of a finished game stands, with the review once done."""
    await _player_record(game_id, token, manager)
    return review_queue(request).status(game_id)
