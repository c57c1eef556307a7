"""A long-running server lets go of what it no longer needs (a lifecycle audit, 8 December 2026).

- A game restored at start-up and then dropped from memory (everyone left) is
  really freed: the collector was frozen after the restore, so a restored
  session, held in a cycle with its bot driver, stayed for the life of the
  process, every restart adding more.
- Stopping the server ends a review that is running (pure computation): the
  interpreter's exit waited for it, 97 s for a long game, past systemd's 90 s.
"""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from pathlib import Path

from fastapi.testclient import TestClient

from rummy500 import Rules
from rummy500.review import Budget
from rummy500.server.api.review import ReviewQueue
from rummy500.server.app import create_app
from rummy500.sim.runner import play_game

from .helpers import create_table, fixed_seeds, make_settings, run_async, start


def test_a_restored_game_nobody_watches_is_freed(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, seed_source=fixed_seeds(3))) as client:
        made = create_table(client, seats=2, bots={"1": "random"})
        table_id = made["table_id"]
        start(client, table_id, made["token"])  # Ann to move; she never comes: the bot waits
    app = create_app(settings, seed_source=fixed_seeds(4))
    with TestClient(app):
        manager = app.state.manager
        session = manager.sessions.get(table_id)
        assert session is not None, "the running game is restored at start-up"
        alive = weakref.ref(session)
        del session
        manager.release(table_id)  # nobody watches and its bot waits for a person who left
        assert table_id not in manager.sessions
        gc.collect()
        assert alive() is None, "the restored session stayed in memory"


def test_closing_the_review_queue_ends_the_review_running() -> None:
    record = play_game(["random", "random"], Rules.preset_rules("standard"), 7, keep_record=True).record
    assert record is not None

    async def go() -> tuple[list[object], float]:
        queue = ReviewQueue(Budget(samples=64, extend=4))  # minutes of work for a whole game
        queue.submit("long", record)
        deadline = time.monotonic() + 60
        while not (queue._pool is not None and queue._pool._processes and queue.status("long").status == "running"):
            assert time.monotonic() < deadline, "the review never started"
            await asyncio.sleep(0.05)
        workers = list(queue._pool._processes.values())
        closed = time.monotonic()
        queue.close()
        while any(p.is_alive() for p in workers) and time.monotonic() - closed < 30:
            await asyncio.sleep(0.05)
        return workers, time.monotonic() - closed

    workers, took = run_async(go())
    assert workers and not any(p.is_alive() for p in workers), f"the review worker still ran {took:.1f} s after close"
