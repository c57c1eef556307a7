"""What a hostile client could do to other people's tables, and what they see now that it cannot.

1. **Idle evasion.** At a table without a turn clock a player closed the page
   and reconnected for a moment every 50 s: the away grace started again at
   every disconnect, and the idle limit only counted while connected, so the
   table waited for ever. Now, within a turn, the grace counts from the first
   disconnect and the idle limit counts connected or not.
2. **A rematch reachable by strangers.** A public finished game's
   ``next_table`` (the rematch waiting in the lobby) was shown to anyone: the
   REST answer, the spectators' sockets. A stranger could take a real
   player's seat in it. Now only the people seated at the finished table see it.
3. **Presence flood.** Every spectator socket that opened or closed sent a
   ``table`` message to everyone at the table (and in the lobby read the
   database): one client churning sockets flooded a seated player. Now such
   messages go out at most once per short gap per table, the last count always.
4. **A locked database froze the server.** SQLite appends (actions, chat
   lines) were written on the event loop and waited out the busy timeout
   there: every table and every request stalled while another process held
   the write lock. Now they never wait on the loop; a move that cannot be
   saved is still refused as ``unavailable``, the game unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import uvicorn
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from rummy500.server.app import create_app
from rummy500.server.manager import TableManager
from rummy500.server.pace import IDLE_TURN_SECONDS
from rummy500.server.session import MatchSession
from rummy500.server.storage import PostgresStorage, SqliteStorage

from .helpers import (
    POSTGRES_URL,
    TableDriver,
    act,
    bearer,
    create_table,
    fixed_seeds,
    join,
    make_settings,
    message_within,
    receive,
    run_async,
    start,
    two_player_table,
    ws_path,
)
from .test_pace import Clock, find_position, make_session, settle


# ------------------------------------------------------------- 1: idle evasion
def _anns_turn_to_draw() -> tuple[int, list[tuple[int, Any]]]:
    return find_position("standard", 2, lambda g: g.to_move == 0 and g.match.state.public.phase.value == "draw")


def _played_for(session: MatchSession, since: int, seat: int = 0) -> list[dict[str, Any]]:
    return [e for e in session.log() if e["kind"] == "action" and e["version"] > since and e["seat"] == seat]


def test_reconnecting_for_a_moment_now_and_then_no_longer_stalls_a_table_for_ever() -> None:
    """Ann leaves on her turn and comes back for 0.2 s every 50 s: she is played for once 60 s have passed since she left."""
    seed, played = _anns_turn_to_draw()

    async def run() -> None:
        clock = Clock()
        # Two people, no turn clock; Bob stays connected (a table everybody left waits).
        session = make_session("standard", ["human", "human"], seed, played, clock, grace_seconds=60.0)
        session.start()
        await settle()
        left = clock.now
        session.disconnect(0)
        when = None
        for step in range(1, 41):  # 400 s of the evasion, looked at every 10 s
            clock.now = left + 10 * step
            if step % 5 == 0:  # every 50 s: the page reconnects for a moment
                session.connect(0)
                clock.now += 0.2
                session.disconnect(0)
                # The countdown the others see goes on from her first disconnect, not from 60 again.
                shown = session.state_message(1)["pace"]["clock"]
                if session.version == len(played):
                    assert shown is not None and shown["kind"] == "away" and shown["seat"] == 0
                    assert shown["left"] <= 60 - 10 * step + 0.5, shown
            session.kick()
            await settle()
            if session.version > len(played):
                when = clock.now - left
                break
        assert when is not None, "the table waited for ever"
        assert when <= 60 + 10  # the grace from her first disconnect (looked at every 10 s)
        mine = _played_for(session, len(played))
        assert mine and all(e["auto"] for e in mine)  # marked as the computer's, as before
        await session.close()

    run_async(run())


def test_the_idle_limit_counts_whether_the_person_is_connected_or_not() -> None:
    """Ann thinks for 290 s, then closes the page: the computer plays her turn at the idle limit, not 60 s later."""
    seed, played = _anns_turn_to_draw()

    async def run() -> None:
        clock = Clock()
        session = make_session("standard", ["human", "human"], seed, played, clock, grace_seconds=60.0)
        session.start()
        await settle()
        start_at = clock.now
        clock.now = start_at + IDLE_TURN_SECONDS - 10
        session.disconnect(0)
        session.kick()
        await settle()
        assert session.version == len(played)  # still her time
        shown = session.state_message(1)["pace"]["clock"]
        assert shown["kind"] == "away" and shown["left"] == pytest.approx(10, abs=0.01)  # the idle limit, first
        clock.now = start_at + IDLE_TURN_SECONDS + 1
        session.kick()
        await settle()
        mine = _played_for(session, len(played))
        assert mine and all(e["auto"] for e in mine)
        await session.close()

    run_async(run())


def test_a_person_who_plays_within_the_limits_is_never_played_for() -> None:
    """A dropped connection, back 10 s later, then a long think: her moves are hers; her next turn's grace starts afresh."""
    seed, played = _anns_turn_to_draw()

    async def run() -> None:
        clock = Clock()
        session = make_session("standard", ["human", "human"], seed, played, clock, grace_seconds=60.0)
        session.start()
        await settle()
        start_at = clock.now
        clock.now += 5
        session.disconnect(0)
        clock.now += 10
        session.connect(0)
        clock.now = start_at + IDLE_TURN_SECONDS - 5  # a long think, connected: her turn
        session.kick()
        await settle()
        assert session.version == len(played)
        # Ann plays her whole turn herself.
        while session.game.to_move == 0 and not session.finished:
            legal = session.game.legal(0)
            action = next((a for a in legal if "discard" in a.to_record()), legal[0])
            await session.submit(0, session.version, action.to_record())
        assert _played_for(session, len(played)) and not any(e["auto"] for e in _played_for(session, len(played)))
        # Bob's turn, then Ann's next: her drop in the last turn counts for nothing now.
        while session.game.to_move == 1 and not session.finished:
            legal = session.game.legal(1)
            action = next((a for a in legal if "discard" in a.to_record()), legal[0])
            await session.submit(1, session.version, action.to_record())
        if session.finished or session.game.to_move != 0:
            pytest.skip("the round ended; no next turn of Ann's to look at")
        version = session.version
        clock.now += 10
        session.disconnect(0)
        clock.now += 55  # 55 s away: within the grace of this turn
        session.kick()
        await settle()
        assert session.version == version
        clock.now += 6
        session.kick()
        await settle()
        assert session.version > version and all(e["auto"] for e in _played_for(session, version))
        await session.close()

    run_async(run())


# ------------------------------------------------- 2: the rematch and strangers
def _told_next(ws: Any, seconds: float = 10.0) -> dict[str, Any]:
    return message_within(ws, "table", seconds, lambda m: m["table"]["next_table"] is not None)


def _until_state(ws: Any) -> list[dict[str, Any]]:
    """Every message up to the next ``state`` (included)."""
    seen = []
    while True:
        seen.append(ws.receive_json())
        if seen[-1]["type"] == "state":
            return seen


def test_a_public_games_rematch_is_shown_only_to_the_people_who_played_it(client: TestClient) -> None:
    made = create_table(client, seats=2, preset="quick", rules={"rounds": 1}, public=True)
    table_id, ann = made["table_id"], made["token"]
    bob = join(client, table_id, "Bob")["token"]
    start(client, table_id, ann)
    with contextlib.ExitStack() as stack:
        people = {
            s: stack.enter_context(client.websocket_connect(ws_path(table_id, t))) for s, t in ((0, ann), (1, bob))
        }
        assert TableDriver(people, seed=5).play()["table"]["status"] == "finished"
        watcher = stack.enter_context(client.websocket_connect(ws_path(table_id)))
        receive(watcher, "state")

        # Ann presses Play again: the rematch waits in the lobby for Bob.
        again = client.post(f"/api/tables/{table_id}/again", headers=bearer(ann))
        assert again.status_code == 201, again.text
        next_id = again.json()["table_id"]

        # The players are told, at once, on their sockets.
        for ws in people.values():
            assert _told_next(ws)["table"]["next_table"] == next_id
        # The spectator is not: nothing it is sent names the rematch (its next state neither).
        watcher.send_json({"type": "sync"})
        seen = _until_state(watcher)
        assert seen and all(m.get("table", {}).get("next_table") is None for m in seen), seen
        assert next_id not in json.dumps(seen)
        # A player's page opened now finds it in its first state; a stranger's does not.
        with client.websocket_connect(ws_path(table_id, bob)) as again_bob:
            assert receive(again_bob, "state")["table"]["next_table"] == next_id
        with client.websocket_connect(ws_path(table_id)) as stranger_ws:
            first = receive(stranger_ws, "state")
            assert first["table"]["next_table"] is None and next_id not in json.dumps(first)

    # A stranger finds the public game among the replays, and opens it: no way to the rematch.
    games = client.get("/api/games")
    assert any(g["id"] == table_id for g in games.json()) and next_id not in games.text
    for path in (f"/api/tables/{table_id}", f"/api/games/{table_id}/record", f"/api/games/{table_id}/replay/0"):
        res = client.get(path)
        assert res.status_code == 200, (path, res.text)
        assert next_id not in res.text, path
    # The manager tells it to a caller whose token holds a seat there (what a route with the token asks).
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    assert client.portal is not None
    info = client.portal.call(functools.partial(manager.table_info, table_id, bob))
    assert info is not None and info.next_table == next_id
    for token in (None, "made-up", again.json()["token"]):  # (a token of the rematch is not one of this table)
        info = client.portal.call(functools.partial(manager.table_info, table_id, token))
        assert info is not None and info.next_table is None

    # Bob still joins it with Play again.
    joined = client.post(f"/api/tables/{table_id}/again", headers=bearer(bob))
    assert joined.status_code == 200 and joined.json()["table_id"] == next_id


# ------------------------------------------------------------ 3: presence flood
class _Tables:
    """A listener keeping the spectator count of each ``table`` message."""

    def __init__(self) -> None:
        self.spectators: list[int] = []

    def state_changed(self, session: MatchSession) -> None:
        pass

    def table_changed(self, session: MatchSession) -> None:
        self.spectators.append(session.table_info()["spectators"])

    def chat(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        pass


def test_spectators_coming_and_going_send_the_table_at_most_once_per_gap_and_always_the_last_count() -> None:
    seed, played = _anns_turn_to_draw()

    async def run() -> None:
        session = make_session("standard", ["human", "human"], seed, played, Clock())
        told = _Tables()
        gap = getattr(session, "presence_table_gap", 0.25)
        await asyncio.sleep(2 * gap + 0.05)  # (the people's own connections were told meanwhile)
        session.listeners.append(told)
        # After a quiet while, the first change is told at once.
        session.connect(None)
        assert told.spectators == [1]
        loop = asyncio.get_running_loop()
        began = loop.time()
        churned = 0
        while loop.time() - began < 1.0:  # one client opening and closing spectator sockets
            session.connect(None)
            session.disconnect(None)
            churned += 1
            await asyncio.sleep(0.002)
        session.disconnect(None)
        await asyncio.sleep(gap + 0.1)
        seconds = loop.time() - began
        assert churned > 100
        assert len(told.spectators) <= seconds / gap + 3, (churned, len(told.spectators))
        assert told.spectators[-1] == 0  # the last count always goes out
        await session.close()

    run_async(run())


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The app under uvicorn on a free loopback port (a socket's close reaches the app as it does live); its address and the app."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(make_settings(tmp_path), seed_source=fixed_seeds(2))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(10)


def _messages_until_chat(ws: Any) -> list[dict[str, Any]]:
    seen = []
    while True:
        seen.append(json.loads(ws.recv(timeout=10)))
        if seen[-1]["type"] == "chat":
            return seen


@pytest.mark.parametrize("where", ["lobby", "game"])
def test_a_client_churning_spectator_sockets_no_longer_floods_a_seated_player(
    served: tuple[str, Any], where: str
) -> None:
    base, app = served
    made = httpx.post(f"http://{base}/api/tables", json={"name": "Ann", "seats": 2}).json()
    table_id, ann = made["table_id"], made["token"]
    httpx.post(f"http://{base}/api/tables/{table_id}/join", json={"name": "Bob"}).raise_for_status()
    if where == "game":
        httpx.post(f"http://{base}/api/tables/{table_id}/start", headers=bearer(ann)).raise_for_status()
    storage = app.state.manager.storage
    reads = [0]
    real_get_game = storage.get_game

    def get_game(*args: Any, **kwargs: Any) -> Any:
        reads[0] += 1
        return real_get_game(*args, **kwargs)

    with connect(f"ws://{base}{ws_path(table_id, ann)}") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == ("state" if where == "game" else "table")
        time.sleep(0.5)
        storage.get_game = get_game
        try:
            churns = 60
            began = time.monotonic()
            for _ in range(churns):  # a client opening and closing spectator sockets (no token needed)
                with connect(f"ws://{base}{ws_path(table_id)}") as spectator:
                    spectator.recv(timeout=10)
            seconds = time.monotonic() - began
            time.sleep(0.6)
            ws.send(json.dumps({"type": "chat", "text": "still here"}))
            seen = _messages_until_chat(ws)
        finally:
            del storage.get_game
    tables = [m["table"] for m in seen if m["type"] == "table"]
    # At most one per 0.25 s (and one at once after a quiet while), never two per socket.
    assert len(tables) <= seconds / 0.25 + 3, (len(tables), churns, seconds)
    assert tables and tables[-1]["spectators"] == 0, [t["spectators"] for t in tables]  # the last count
    if where == "lobby":
        # Each socket's own reads of the table as it opens remain (two, in the websocket route);
        # the broadcasts to everyone add at most one per gap, not two per socket.
        assert reads[0] <= 2 * churns + seconds / 0.25 + 4, (reads[0], churns, seconds)


# --------------------------------------------------- 4: a locked database
@contextlib.contextmanager
def _sqlite_write_lock(path: Path) -> Iterator[None]:
    """Another process's transaction holding the SQLite file's write lock (a backup tool, a ``sqlite3`` shell)."""
    other = sqlite3.connect(path, isolation_level=None, timeout=5)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("CREATE TABLE IF NOT EXISTS elsewhere (x)")
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def _timed_rules(client: TestClient) -> float:
    began = time.monotonic()
    assert client.get("/api/rules").status_code == 200
    return time.monotonic() - began


def _movers_draw(client: TestClient, table_id: str, tokens: dict[int, str], stack: contextlib.ExitStack) -> Any:
    sockets = {s: stack.enter_context(client.websocket_connect(ws_path(table_id, t))) for s, t in tokens.items()}
    states = {s: receive(ws, "state") for s, ws in sockets.items()}
    mover = states[0]["view"]["to_move"]
    draw = next(a for a in states[mover]["view"]["legal"] if "draw" in a)
    return sockets[mover], states[mover]["version"], draw


def test_a_sqlite_file_locked_elsewhere_never_freezes_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SqliteStorage, "busy_timeout", 1.0, raising=False)  # (5 s when served)
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, seed_source=fixed_seeds(3))) as client:
        table_id, ann, bob = two_player_table(client)
        with contextlib.ExitStack() as stack:
            ws, version, draw = _movers_draw(client, table_id, {0: ann, 1: bob}, stack)
            with _sqlite_write_lock(tmp_path / "games.sqlite3"):
                # A move while the file is locked: the rest of the server answers at once meanwhile.
                act(ws, version, draw)
                time.sleep(0.1)
                assert _timed_rules(client) < 0.5
                # The move could not be saved: refused as before, the game unchanged.
                refused = message_within(ws, "error", 10)
                assert (refused["code"], refused["version"]) == ("unavailable", version)
                ws.send_json({"type": "sync"})
                assert receive(ws, "state")["version"] == version
                # A chat line: the server does not wait for its write either; the line is still said.
                ws.send_json({"type": "chat", "text": "still here?"})
                time.sleep(0.1)
                assert _timed_rules(client) < 0.5
                assert message_within(ws, "chat", 10)["text"] == "still here?"
            # The lock is gone: the same move is saved, then sent.
            act(ws, version, draw)
            assert receive(ws, "state", version=version + 1)["version"] == version + 1
    store = SqliteStorage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        assert [a.seq for a in store.actions(table_id)] == list(range(version + 1))
    finally:
        store.close()


@pytest.mark.postgres
def test_a_postgres_table_locked_elsewhere_refuses_the_move_in_time_and_never_freezes_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pg_schema: str
) -> None:
    monkeypatch.setattr(PostgresStorage, "lock_timeout", 1.0, raising=False)  # (5 s when served)
    store = PostgresStorage(POSTGRES_URL, schema=pg_schema)
    locker = psycopg.connect(POSTGRES_URL)
    try:
        with TestClient(create_app(make_settings(tmp_path), storage=store, seed_source=fixed_seeds(3))) as client:
            table_id, ann, bob = two_player_table(client)
            with contextlib.ExitStack() as stack:
                ws, version, draw = _movers_draw(client, table_id, {0: ann, 1: bob}, stack)
                # A migration (or anyone) holds the log's table.
                locker.execute(f'LOCK TABLE "{pg_schema}".actions IN ACCESS EXCLUSIVE MODE')
                try:
                    act(ws, version, draw)
                    time.sleep(0.1)
                    assert _timed_rules(client) < 0.5
                    refused = message_within(ws, "error", 4)  # not held until the lock goes
                    assert (refused["code"], refused["version"]) == ("unavailable", version)
                finally:
                    locker.rollback()
                act(ws, version, draw)
                assert receive(ws, "state", version=version + 1)["version"] == version + 1
        assert [a.seq for a in store.actions(table_id)] == list(range(version + 1))
    finally:
        locker.rollback()
        locker.close()
        store.close()
