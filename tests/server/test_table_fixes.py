"""Fixes from the scale, operations and social audits: what a player or an operator sees.

1. A person's turn the computer played (turn clock run out, away, idle) shows
   as ``auto`` on every server process, on a page opened later and after a
   restart: the flag is stored with the action (older databases get the column).
2. The SQLite folder and files the server creates are its user's alone.
3. Every write to SQLite is checkpointed into the database file, lobby writes too.
4. A damaged SQLite file is refused when it opens: ``serve`` says so in one line.
5. One seat cannot flood the chat: a few lines at once, then one a second.
6. The creator frees a bot's seat before the start, for a friend to join.
7. Without a turn clock, a connected but idle person's turn is played for them
   after :data:`~rummy500.server.pace.IDLE_TURN_SECONDS`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import shutil
import sqlite3
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from rummy500.cli.serve import serve_main
from rummy500.server.app import create_app
from rummy500.server.engine import LiveGame, parse_rules
from rummy500.server.pace import IDLE_TURN_SECONDS, TableSettings
from rummy500.server.session import MatchSession, SeatInfo
from rummy500.server.session.guards import ChatRate
from rummy500.server.storage import PostgresStorage, SeatRow, SqliteStorage, SqlStorage, StorageError

from .helpers import (
    POSTGRES_URL,
    bearer,
    create_table,
    fixed_seeds,
    join,
    make_settings,
    receive,
    run_async,
    start,
    ws_path,
)
from .test_pace import Clock, find_position, make_session, settle


# ------------------------------------------------------------- 1: auto everywhere
@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """A database for a whole test, several stores opened on it: ``(url, PostgreSQL schema or None)``."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}", None
    else:
        yield POSTGRES_URL, request.getfixturevalue("pg_schema")


def _open(db: tuple[str, str | None]) -> SqlStorage:
    url, schema = db
    return PostgresStorage(url, schema=schema) if schema else SqliteStorage(url)


def _auto_of(log: list[dict[str, Any]]) -> dict[int, tuple[int, bool]]:
    """Each action event of a log: version to (seat, auto)."""
    return {e["version"]: (e["seat"], e["auto"]) for e in log if e["kind"] == "action"}


def test_a_turn_played_for_a_connected_person_shows_as_auto_on_every_process_and_after_a_restart(
    db: tuple[str, str | None], tmp_path: Path
) -> None:
    # The audit: Bob's turn clock ran out on the process driving the table; the pages on another
    # process, and every page after a restart, showed the computer's moves as his own.
    store = _open(db)
    store.create_table(
        game_id="g",
        title="t",
        rules={"players": 2},
        seats=[SeatRow(0, "human", "Ann"), SeatRow(1, "open")],
        creator_token_hash="h-ann",
        settings={"turn_clock": 30},
    )
    store.join("g", "Bob", "h-bob")
    row = store.start("g", seed=11, bot_level="random")
    rules = parse_rules(row.rules, 2)
    clock = Clock()

    def process() -> MatchSession:
        return MatchSession(
            game_id="g",
            title="t",
            rules=row.rules,
            seats=[SeatInfo(0, "Ann", "human"), SeatInfo(1, "Bob", "human")],
            game=LiveGame(rules, row.players, 11),
            store=store,
            shared=True,
            settings=TableSettings(turn_clock=30),
            bot_delay=0.0,
            clock=clock,
        )

    async def run() -> dict[int, tuple[int, bool]]:
        driving, other = process(), process()
        driving.set_driving(True)
        driving.connect(0)  # both connected (on the driving process): nobody is away
        driving.connect(1)
        mover = driving.game.to_move
        clock.now += 31  # the mover's turn clock runs out: the computer plays that turn
        driving.kick()
        for _ in range(500):
            if driving.game.to_move != mover or driving.finished:
                break
            await asyncio.sleep(0.01)
        played = _auto_of(driving.log())
        assert played and all(seat == mover and auto for seat, auto in played.values()), played
        # The other process catches up from the log: the same marks.
        assert await other.catch_up() == driving.version
        assert _auto_of(other.log()) == played
        await driving.close()
        await other.close()
        return played

    try:
        played = run_async(run())
        # The flag travels beside the log, never in it: the record is what it was.
        assert all(set(a.action) & {"auto", "p"} == set() for a in store.actions("g"))
        assert [a.auto for a in store.actions("g")] == [True] * len(played)
    finally:
        store.close()
    # A restarted server (a fresh page on it): the same marks again.
    again = _open(db)
    app = create_app(make_settings(tmp_path / "restart", db_url=db[0]), storage=again, seed_source=fixed_seeds(1))
    try:
        with TestClient(app) as client, client.websocket_connect(ws_path("g")) as watcher:
            state = receive(watcher, "state")
            assert _auto_of(state["log"]) == played
    finally:
        again.close()


def test_a_database_made_before_the_flag_was_kept_gets_its_column(db: tuple[str, str | None]) -> None:
    first = _open(db)
    first.create_table(
        game_id="g",
        title="t",
        rules={"players": 2},
        seats=[SeatRow(0, "human", "Ann"), SeatRow(1, "open")],
        creator_token_hash="h",
    )
    first.start("g", seed=3, bot_level="random")
    first.append_action("g", 0, 0, {"draw": "stock"})
    first.close()
    url, schema = db
    # The old schema: the actions table without the column.
    if schema is None:
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            conn.execute("ALTER TABLE actions DROP COLUMN auto")
    else:
        engine = create_engine(make_url(url).set(drivername="postgresql+psycopg"))
        with engine.begin() as conn:
            conn.execute(text(f'ALTER TABLE "{schema}".actions DROP COLUMN auto'))
        engine.dispose()
    store = _open(db)
    try:
        store.append_action("g", 1, 0, {"discard": "2C"}, auto=True)
        # The old action reads as a person's own; the new one as the computer's.
        assert [(a.seq, a.auto) for a in store.actions("g")] == [(0, False), (1, True)]
        assert [(a.seq, a.auto) for a in store.actions_since("g", 0)] == [(0, False), (1, True)]
        assert store.actions("g")[1].action == {"discard": "2C"}
    finally:
        store.close()


# ------------------------------------------------------------ 2: private files
def test_the_sqlite_folder_and_files_the_server_creates_are_its_users_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    before = os.umask(0o022)  # the usual umask: files 0644 and folders 0755 unless asked otherwise
    try:
        data = tmp_path / "data"
        store = SqliteStorage(f"sqlite:///{data / 'rummy500.sqlite3'}")
        try:
            store.create_table(
                game_id="g",
                title="t",
                rules={"players": 2},
                seats=[SeatRow(0, "human", "Ann"), SeatRow(1, "open")],
                creator_token_hash="h",
            )
            store.start("g", seed=2**100, bot_level="random")  # a secret deal now sits in these files
            made = {p.name: stat.S_IMODE(p.stat().st_mode) for p in data.iterdir()}
        finally:
            store.close()
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        assert made == {"rummy500.sqlite3": 0o600, "rummy500.sqlite3-wal": 0o600, "rummy500.sqlite3-shm": 0o600}
        # A file made readable by others (an older version made it so) is used, with a warning.
        old = tmp_path / "old.sqlite3"
        shutil.copy(data / "rummy500.sqlite3", old)
        old.chmod(0o644)
        with caplog.at_level(logging.WARNING):
            SqliteStorage(f"sqlite:///{old}").close()
        assert any("chmod 600" in r.getMessage() for r in caplog.records)
    finally:
        os.umask(before)


# ------------------------------------------------------------ 3: checkpoints
class QuickCheckpoints(SqliteStorage):
    """Checkpoints every 20 ms (the server's: every second)."""

    checkpoint_every = 0.02


def _in_file_alone(path: Path, tmp_path: Path) -> set[str]:
    """The table ids the database file holds without its WAL (what a copy of the file alone has)."""
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(path, copy)
    conn = sqlite3.connect(copy)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM games")}
    except sqlite3.Error:  # not even the tables yet
        return set()
    finally:
        conn.close()
        copy.unlink()


def test_lobby_writes_are_copied_into_the_database_file(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = QuickCheckpoints(f"sqlite:///{path}")
    try:
        store.create_table(
            game_id="lobby-only",
            title="t",
            rules={"players": 2},
            seats=[SeatRow(0, "human", "Ann"), SeatRow(1, "open")],
            creator_token_hash="h",
        )
        deadline = time.monotonic() + 10
        while "lobby-only" not in _in_file_alone(path, tmp_path) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert "lobby-only" in _in_file_alone(path, tmp_path)
    finally:
        store.close()


# ------------------------------------------------------------ 4: damaged file
def _damaged(tmp_path: Path) -> Path:
    """A database whose header and schema are fine and whose data pages are not (as the audit made it)."""
    path = tmp_path / "data" / "rummy500.sqlite3"
    store = SqliteStorage(f"sqlite:///{path}")
    for i in range(100):
        store.create_table(
            game_id=f"g{i}",
            title="t" * 80,
            rules={"players": 2, "note": "x" * 300},
            seats=[SeatRow(0, "human", "Ann"), SeatRow(1, "open")],
            creator_token_hash=f"h{i}",
        )
    store.close()  # checkpointed: everything is in the file
    with path.open("r+b") as f:
        f.seek(8192)
        f.write(random.Random(1).randbytes(20_000))
    return path


class BigFile(SqliteStorage):
    """Any file counts as big: only the tables the lobby reads are checked."""

    check_whole_below = 0


def test_a_damaged_sqlite_file_is_refused_when_it_opens_and_serve_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _damaged(tmp_path)
    with pytest.raises(StorageError, match="is damaged") as refused:
        SqliteStorage(f"sqlite:///{path}")
    assert str(path) in str(refused.value) and "backup" in str(refused.value)
    # A big file has only its tables of tables and seats checked (these are damaged here too).
    with pytest.raises(StorageError, match="is damaged"):
        BigFile(f"sqlite:///{path}")
    assert serve_main(["--port", "0", "--data-dir", str(path.parent)]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "is damaged" in said[0], said


# ------------------------------------------------------------ 5: chat rate
def _said_or_refused(ws: Any) -> dict[str, Any]:
    """The next chat line or error a socket gets (presence news and states skipped)."""
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("chat", "error"):
            return msg


def test_one_seat_may_say_a_few_lines_at_once_then_one_a_second(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path), seed_source=fixed_seeds(7))
    clock = Clock()
    with TestClient(app) as client:
        app.state.manager.chat_rate = ChatRate(clock=clock)
        made = create_table(client, seats=3)
        table_id, ann = made["table_id"], made["token"]
        bob = join(client, table_id, "Bob")["token"]
        with (
            client.websocket_connect(ws_path(table_id, ann)) as ann_ws,
            client.websocket_connect(ws_path(table_id, bob)) as bob_ws,
        ):
            receive(ann_ws, "table")
            receive(bob_ws, "table")
            # The waiting room: five lines go, the sixth is refused and said to nobody.
            for i in range(6):
                ann_ws.send_json({"type": "chat", "text": f"wait {i}"})
            for i in range(5):
                assert receive(ann_ws, "chat")["text"] == f"wait {i}"
                assert receive(bob_ws, "chat")["text"] == f"wait {i}"
            refused = _said_or_refused(ann_ws)
            assert refused["type"] == "error", refused
            assert refused["code"] == "rate_limited" and "chat is limited" in refused["message"]
            # Bob has lines of his own; a second later Ann may say one more.
            bob_ws.send_json({"type": "chat", "text": "hi all"})
            assert receive(ann_ws, "chat")["text"] == "hi all"
            clock.now += 1.0
            start(client, table_id, ann)
            receive(ann_ws, "state")
            receive(bob_ws, "state")
            # In the game too (the same bucket): one line after a second, then refused again.
            ann_ws.send_json({"type": "chat", "text": "good luck"})
            ann_ws.send_json({"type": "chat", "text": "spam"})
            assert receive(bob_ws, "chat")["text"] == "good luck"
            assert receive(ann_ws, "chat")["text"] == "good luck"
            assert _said_or_refused(ann_ws)["code"] == "rate_limited"
            bob_ws.send_json({"type": "sync"})
            receive(bob_ws, "state")  # (anything said meanwhile would have come first)
        # A page opening later gets only the lines said: no "wait 5", no "spam".
        with client.websocket_connect(ws_path(table_id)) as watcher:
            history = receive(watcher, "chat_history")["messages"]
        assert [m["text"] for m in history] == [*(f"wait {i}" for i in range(5)), "hi all", "good luck"]


# ------------------------------------------------------------ 6: free a bot's seat
def test_the_creator_frees_a_bots_seat_before_the_start_for_a_friend(client: TestClient) -> None:
    made = create_table(client, seats=3, bots={"1": "easy", "2": "easy"})
    table_id, ann = made["table_id"], made["token"]
    full = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
    assert full.status_code == 409 and full.json()["detail"]["code"] == "cannot_join"
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ann_ws,
        client.websocket_connect(ws_path(table_id)) as watcher,
    ):
        receive(ann_ws, "table")
        receive(watcher, "table")
        res = client.post(f"/api/tables/{table_id}/seats/2/remove", headers=bearer(ann))
        assert res.status_code == 200, res.text
        seats = res.json()["seats"]
        assert [(s["kind"], s["name"], s["bot_level"]) for s in seats] == [
            ("human", "Ann", None),
            ("bot", "Bot 2", "easy"),
            ("open", None, None),
        ]
        for ws in (ann_ws, watcher):
            receive(ws, "table", where=lambda m: m["table"]["seats"][2]["kind"] == "open")
        # The friend with the invite link gets the seat.
        assert join(client, table_id, "Bob")["seat"] == 2
        # Only the creator, never seat 0, never a seat open already.
        bob = client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
        assert bob.status_code == 409
        assert client.post(f"/api/tables/{table_id}/seats/0/remove", headers=bearer(ann)).status_code == 409
        start(client, table_id, ann)
        # Once started, nothing is removed.
        late = client.post(f"/api/tables/{table_id}/seats/1/remove", headers=bearer(ann))
        assert late.status_code == 409 and late.json()["detail"]["code"] == "not_in_lobby"


def test_only_the_creator_frees_a_bots_seat(client: TestClient) -> None:
    made = create_table(client, seats=3, bots={"2": "easy"})
    table_id = made["table_id"]
    bob = join(client, table_id, "Bob")["token"]
    res = client.post(f"/api/tables/{table_id}/seats/2/remove", headers=bearer(bob))
    assert res.status_code == 403 and res.json()["detail"]["code"] == "bad_token"
    assert client.get(f"/api/tables/{table_id}").json()["seats"][2]["kind"] == "bot"


# ------------------------------------------------------------ 7: idle limit
def test_without_a_turn_clock_an_idle_connected_player_is_played_for_after_the_idle_limit() -> None:
    seed, played = find_position("standard", 2, lambda g: g.to_move == 0 and g.match.state.public.phase.value == "draw")

    async def run() -> None:
        clock = Clock()
        session = make_session("standard", ["human", "bot"], seed, played, clock)  # no turn clock
        session.start()
        await settle()
        assert session.version == len(played)
        assert session.state_message(1)["pace"]["clock"] is None  # no clock shown
        clock.now += IDLE_TURN_SECONDS - 1
        session.kick()
        await settle()
        assert session.version == len(played)  # Ann may still think
        clock.now += 2
        session.kick()
        await settle()
        # The computer played Ann's whole turn for her, marked as such; the bot's turn followed.
        mine = [e for e in session.log() if e["kind"] == "action" and e["version"] > len(played) and e["seat"] == 0]
        assert mine and all(e["auto"] for e in mine)
        assert "discard" in mine[-1]["action"] or session.game.match.round_index > 0
        if session.game.to_move == 0:  # Ann's next turn is hers again: nothing is played for her
            version = session.version
            clock.now += IDLE_TURN_SECONDS - 1
            session.kick()
            await settle()
            assert session.version == version
        await session.close()

    run_async(run())


def test_the_idle_limit_never_plays_for_a_person_at_a_table_with_a_turn_clock_nor_for_one_away() -> None:
    seed, played = find_position("standard", 2, lambda g: g.to_move == 0 and g.match.state.public.phase.value == "draw")

    async def run() -> None:
        clock = Clock()
        # A turn clock: its own time, as before (120 s here), and nothing else.
        timed = make_session("standard", ["human", "bot"], seed, played, clock, settings=TableSettings(turn_clock=120))
        assert timed.driver.next_auto()[:2] == (None, pytest.approx(120))
        await timed.close()
        # Away (with nobody seated connected): nobody to wait for, nothing is played.
        away = make_session("standard", ["human", "bot"], seed, played, clock)
        away.disconnect(0)
        clock.now += IDLE_TURN_SECONDS + 1
        assert away.driver.next_auto()[:2] == (None, None)
        await away.close()

    run_async(run())
