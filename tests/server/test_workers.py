"""Bots think and games replay in worker processes, never in the event loop's process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummy500.server.app import create_app
from rummy500.server.bots import make_bot, thinks_long
from rummy500.server.engine import Action, LiveGame, parse_action, parse_rules
from rummy500.server.session import MatchSession, SeatInfo, driver
from rummy500.server.workers import Workers

from .helpers import create_table, fixed_seeds, make_settings, receive, run_async, start
from .test_session import Store


class WhereBot:
    """A medium bot that notes which process did its thinking."""

    def __init__(self) -> None:
        self.inner = make_bot("medium", 1)
        self.pids: set[int] = set()
        self.niceness: set[int] = set()

    def act(self, view: Any, rng: random.Random) -> Action | None:
        self.pids.add(os.getpid())
        self.niceness.add(os.nice(0))
        return self.inner.act(view, rng)


def test_only_searching_bots_are_sent_to_workers() -> None:
    assert thinks_long("hard")
    assert not any(thinks_long(level) for level in ("random", "easy", "medium"))


def test_a_bot_thinks_in_another_process_and_keeps_its_memory() -> None:
    async def run() -> None:
        workers = Workers(1)
        try:
            game = LiveGame(parse_rules({"preset": "standard"}, 2), ["A", "B"], 3)
            bot = WhereBot()
            seat = game.actors()[0]
            choice, bot = await workers.think(bot, game.view(seat), random.Random(1))  # type: ignore[assignment]
            assert isinstance(choice, Action)
            game.check(seat, choice)
            assert bot.pids and os.getpid() not in bot.pids
            # At a lower priority: on a busy machine the event loop goes first.
            assert bot.niceness == {min(19, os.nice(0) + 10)}
            # The bot that came back is the one asked next time: its memory carries over.
            game.apply(seat, choice)
            seat = game.actors()[0]
            _, again = await workers.think(bot, game.view(seat), random.Random(2))
            assert len(again.pids) == 1 and again.pids == bot.pids  # type: ignore[attr-defined]
        finally:
            workers.close()

    run_async(run())


def test_a_table_of_bots_plays_to_the_end_with_its_bots_in_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only searching levels go to the workers; here every level does.
    monkeypatch.setattr(driver, "thinks_long", lambda level: True)

    async def run() -> None:
        workers = Workers(1)
        store = Store()
        rules = parse_rules({"preset": "standard", "target": 100}, 2)
        session = MatchSession(
            game_id="g",
            title="t",
            rules=rules.to_mapping(),
            seats=[SeatInfo(0, "M", "bot", "medium"), SeatInfo(1, "E", "bot", "easy")],
            game=LiveGame(rules, ["M", "E"], 9),
            store=store,
            bot_delay=0.0,
            rng=random.Random(4),
            think=workers.think,
        )
        try:
            session.start()
            for _ in range(6000):
                if session.finished:
                    break
                await asyncio.sleep(0.01)
            assert session.finished
            # Every stored action replays to the same end: nothing was lost or doubled.
            replay = LiveGame(rules, ["M", "E"], 9)
            for seq, seat, record in store.actions:
                assert seq == replay.version
                replay.apply(seat, parse_action(record))
            assert replay.is_over and replay.result() == session.game.result()
        finally:
            await session.close()
            workers.close()

    run_async(run())


def test_replays_and_reloads_are_computed_in_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = make_settings(tmp_path, workers=1)
    with TestClient(create_app(settings, seed_source=fixed_seeds(5))) as client:
        made = create_table(client, bots={"1": "random"}, rules={"target": 50})
        start(client, made["table_id"], made["token"])
        table_id = made["table_id"]
        manager = client.app.state.manager
        session = manager.sessions[table_id]
        assert client.portal is not None

        async def finish() -> None:
            while not session.finished:
                seat = session.game.actors()[0]
                if session.seats[seat].kind == "bot":
                    await asyncio.sleep(0.01)
                    continue
                legal = list(session.game.view(seat).legal)
                await session.submit(seat, session.version, random.Random(session.version).choice(legal).to_record())

        client.portal.call(finish)
        # From here on no action is applied in this process: the replays happen in the worker.
        applied: list[int] = []
        real_apply = LiveGame.apply

        def counted(self: LiveGame, seat: int, action: Action) -> list[dict[str, Any]]:
            applied.append(seat)
            return real_apply(self, seat, action)

        monkeypatch.setattr(LiveGame, "apply", counted)
        steps = client.get(f"/api/games/{table_id}/replay/0").json()["steps"]
        assert steps == session.version
        last_step = client.get(f"/api/games/{table_id}/replay/{steps}").json()
        assert last_step["view"] == session.game.view_dict(None)
        assert client.get(f"/api/games/{table_id}/replay/{steps + 1}").status_code == 404
        manager.sessions.clear()  # forget it: opening the table rebuilds it in a worker
        with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            assert receive(spectator, "state")["view"] == session.game.view_dict(None)
        assert applied == []


def test_the_searching_levels_think_through_the_workers_and_the_others_never_do() -> None:
    """The driver hands ``hard`` decisions to the server's thinker (its worker processes), nothing else."""
    asked: list[str] = []

    async def thinker(bot: Any, view: Any, rng: random.Random) -> tuple[Any, Any]:
        asked.append(getattr(bot, "level", "?"))
        return await driver.think_in_thread(bot, view, rng)

    async def run() -> None:
        rules = parse_rules({"preset": "standard", "target": 100}, 3)
        session = MatchSession(
            game_id="g",
            title="t",
            rules=rules.to_mapping(),
            seats=[
                SeatInfo(0, "H", "bot", "hard"),
                SeatInfo(1, "R", "bot", "random"),
                SeatInfo(2, "M", "bot", "medium"),
            ],
            game=LiveGame(rules, ["H", "R", "M"], 9),
            store=Store(),
            bot_delay=0.0,
            rng=random.Random(4),
            think=thinker,
        )
        try:
            session.start()
            for _ in range(3000):
                if session.version >= 8:
                    break
                await asyncio.sleep(0.01)
            assert session.version >= 8
            by_seat = {e["seat"] for e in session.log() if e["kind"] == "action"}
            assert {0, 1, 2} <= by_seat  # every bot played
            assert asked and set(asked) == {"hard"}
        finally:
            await session.close()

    run_async(run())


_SERVER = """
import asyncio, os, sys
from rummy500.server.workers import Workers

async def main():
    workers = Workers(2)
    pids = set(await asyncio.gather(*(workers.call(os.getpid) for _ in range(4))))
    print(" ".join(map(str, sorted(pids))), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for every purpose but its exit status.
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z"):
            return False
    return True


def test_workers_exit_when_the_server_process_is_killed() -> None:
    # A server killed with SIGKILL cannot shut its pool down: its workers notice and exit.
    server = subprocess.Popen([sys.executable, "-c", _SERVER], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        pids = [int(p) for p in server.stdout.readline().split()]
        assert pids and server.pid not in pids
        assert all(_alive(pid) for pid in pids)
        server.send_signal(signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in pids), "a worker outlived the server"
    finally:
        server.kill()
        server.wait()


def test_the_thinking_threads_answer_each_loop_and_survive_failures_cancellations_and_a_stuck_bot() -> None:
    """Quick bots think in a few threads of the process: answers, errors and abandoned waits, from any event loop."""
    thinking = driver.ThinkingThreads(threads=2)
    stuck = threading.Event()

    def boom() -> None:
        raise ValueError("bot bug")

    async def run(base: int) -> list[int]:
        hung = thinking.run(stuck.wait)  # a decision that does not end holds up one thread, not the others
        got = [await thinking.run(lambda k=k: base + k) for k in range(3)]
        with pytest.raises(ValueError, match="bot bug"):
            await thinking.run(boom)
        slow = thinking.run(time.sleep, 0.05)
        slow.cancel()  # nobody waits for it any more: its answer is dropped
        got.append(await thinking.run(lambda: base + 9))
        stuck.set()
        assert await hung is True
        stuck.clear()
        return got

    assert run_async(run(0)) == [0, 1, 2, 9]
    assert run_async(run(100)) == [100, 101, 102, 109]  # a second event loop, the same threads


def test_a_dead_worker_is_replaced_and_its_call_answered() -> None:
    """A worker killed (out of memory, an operator) costs no bot move, replay or hint: the pool is made anew."""
    from rummy500.server.hints import HintSearches

    async def run() -> None:
        workers, searches = Workers(1), HintSearches(1, processes=True)
        try:
            for call in (workers.call, searches.run):
                first = await call(os.getpid)
                assert first != os.getpid()
                os.kill(first, signal.SIGKILL)
                await asyncio.sleep(0.2)  # the pool notices its worker is gone
                second = await call(os.getpid)  # in a new pool's worker
                assert second not in (first, os.getpid())
            # A bot asked after its worker died still answers with a legal move, in a new worker.
            os.kill(await workers.call(os.getpid), signal.SIGKILL)
            await asyncio.sleep(0.2)
            game = LiveGame(parse_rules({"preset": "standard"}, 2), ["A", "B"], 3)
            seat = game.actors()[0]
            choice, bot = await workers.think(WhereBot(), game.view(seat), random.Random(1))
            assert isinstance(choice, Action)
            game.check(seat, choice)
            assert os.getpid() not in bot.pids  # type: ignore[attr-defined]
        finally:
            workers.close()
            searches.close()

    run_async(run())


def test_players_hints_are_searched_in_the_servers_hint_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummy500.server.session import match as match_module

    def not_here(*args: Any) -> Any:
        raise AssertionError("a hint searched in the server's own process")

    monkeypatch.setattr(match_module, "hint_for", not_here)  # the threads' search, in this process
    with TestClient(create_app(make_settings(tmp_path, workers=1), seed_source=fixed_seeds(5))) as client:
        made = create_table(client, bots={"1": "random"})
        start(client, made["table_id"], made["token"])
        session = client.app.state.manager.sessions[made["table_id"]]
        assert client.portal is not None

        async def hint() -> dict[str, Any]:
            while session.game.actors() != [0]:
                await asyncio.sleep(0.01)  # the bot's turn first, if it deals first
            return await session.hint(0)

        answer = client.portal.call(hint)
        legal = [a.to_record() for a in session.game.view(0).legal]
        assert answer["action"] in legal and answer["level"] in ("medium", "hard", "expert")
