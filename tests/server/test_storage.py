"""The storage contract, run on both adapters: SQLite and PostgreSQL.

PostgreSQL tests run by default against ``$RUMMY500_TEST_POSTGRES_URL``
(default ``postgresql://postgres@127.0.0.1:5432/test``), each in a fresh
schema dropped afterwards. If the server cannot be reached they fail, saying
so: CI starts PostgreSQL, and a skipped adapter would hide a broken one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rummy500.server.app import create_app
from rummy500.server.storage import (
    ChatLine,
    ConflictError,
    PostgresStorage,
    SeatRow,
    SqliteStorage,
    SqlStorage,
    StorageError,
    open_storage,
)

from .helpers import POSTGRES_URL, TableDriver, create_table, fixed_seeds, join, make_settings, start


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqlStorage]:
    """Each adapter in turn, on an empty database."""
    if request.param == "sqlite":
        store: SqlStorage = SqliteStorage(f"sqlite:///{tmp_path / 'sub' / 'db.sqlite3'}")
    else:
        schema = request.getfixturevalue("pg_schema")
        store = PostgresStorage(POSTGRES_URL, schema=schema)
    try:
        yield store
    finally:
        store.close()


def _table(store: SqlStorage, game_id: str = "g1", seats: int = 3) -> None:
    store.create_table(
        game_id=game_id,
        title="Friday",
        rules={"players": seats, "target": 100},
        seats=[SeatRow(0, "human", "Ann"), SeatRow(1, "open"), *[SeatRow(i, "open") for i in range(2, seats)]],
        creator_token_hash="h-ann",
    )


def test_a_table_from_lobby_to_finish(storage: SqlStorage) -> None:
    _table(storage)
    assert storage.join("g1", "Bob", "h-bob") == 1
    assert storage.seat_of_token("g1", "h-bob") == 1
    assert storage.seat_of_token("g1", "h-ann") == 0
    assert storage.seat_of_token("g2", "h-ann") is None
    row = storage.start("g1", seed=2**127 + 3, bot_level="random")
    assert row.status == "running" and row.seed == 2**127 + 3
    assert [(s.kind, s.name) for s in row.seats] == [("human", "Ann"), ("human", "Bob"), ("bot", "Bot 3")]
    assert row.players == ["Ann", "Bob", "Bot 3"]
    assert "170141183460469231731687303715884105731" not in repr(row)  # the seed stays out of logs
    with pytest.raises(ConflictError):
        storage.join("g1", "Late", "h-late")
    with pytest.raises(ConflictError):
        storage.start("g1", seed=1, bot_level="random")
    storage.append_action("g1", 0, 1, {"draw": "stock"})
    storage.append_action("g1", 1, 1, {"discard": "KS"})
    with pytest.raises(ConflictError):
        storage.append_action("g1", 1, 2, {"draw": "stock"})  # two servers can never fork a game
    assert [(a.seq, a.seat, a.action) for a in storage.actions("g1")] == [
        (0, 1, {"draw": "stock"}),
        (1, 1, {"discard": "KS"}),
    ]
    assert [(a.seq, a.seat, a.action) for a in storage.actions_since("g1", 1)] == [(1, 1, {"discard": "KS"})]
    assert storage.actions_since("g1", 2) == []
    assert storage.running_ids() == ["g1"]
    storage.finish("g1", record={"players": ["Ann", "Bob", "Bot 3"]}, result={"totals": [1, 2, 3], "winner": 2})
    with pytest.raises(ConflictError):
        storage.append_action("g1", 2, 0, {"draw": "stock"})
    done = storage.get_game("g1", with_record=True)
    assert done is not None and done.status == "finished" and done.actions == 2
    assert done.record == {"players": ["Ann", "Bob", "Bot 3"]}
    assert done.result == {"totals": [1, 2, 3], "winner": 2}
    assert storage.running_ids() == []
    assert [g.id for g in storage.list_games("finished")] == ["g1"]
    assert storage.list_games("lobby") == []


def test_joins_fill_seats_in_order_until_full(storage: SqlStorage) -> None:
    _table(storage, seats=3)
    assert storage.join("g1", "Bob", "h1") == 1
    assert storage.join("g1", "Cy", "h2") == 2
    with pytest.raises(ConflictError):
        storage.join("g1", "Di", "h3")
    with pytest.raises(ConflictError):
        storage.join("nope", "Di", "h4")
    assert storage.get_game("nope") is None


def test_chat_lines_are_kept_in_order_and_read_back_last_first_cut(storage: SqlStorage) -> None:
    _table(storage, seats=2)
    storage.create_table(
        game_id="g2",
        title="Other",
        rules={"players": 2},
        seats=[SeatRow(0, "human", "Ann"), SeatRow(1, "bot", "Bot", "easy")],
        creator_token_hash="h-ann2",
    )
    storage.join("g1", "Bob", "h-bob")
    storage.start("g1", seed=5, bot_level="random")
    assert storage.chat_lines("g1") == []
    said = [ChatLine(0, "Ann", "hi"), ChatLine(1, "Bob", "hello 👋"), ChatLine(0, "Ann", "x" * 500)]
    for line in said:
        storage.append_chat("g1", line)
    storage.append_chat("g2", ChatLine(0, "Ann", "another table"))
    assert storage.chat_lines("g1") == said
    assert storage.chat_lines("g1", limit=2) == said[1:]  # the last two, oldest first
    assert storage.chat_lines("g1", limit=0) == []
    assert storage.chat_lines("g2") == [ChatLine(0, "Ann", "another table")]
    assert storage.chat_lines("nope") == []
    with pytest.raises(StorageError, match="no game nope"):
        storage.append_chat("nope", ChatLine(0, "Ann", "into the void"))
    storage.finish("g1", record={}, result={"totals": [0, 0], "winner": 0})
    storage.append_chat("g1", ChatLine(1, "Bob", "good game"))  # said over the final position
    assert storage.chat_lines("g1", limit=1) == [ChatLine(1, "Bob", "good game")]


def test_a_database_made_before_chat_was_kept_gets_its_chat_table(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    first = SqliteStorage(f"sqlite:///{path}")
    _table(first, seats=2)
    first.close()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE chat")
    store = SqliteStorage(f"sqlite:///{path}")
    try:
        assert store.get_game("g1") is not None  # the old tables are untouched
        store.append_chat("g1", ChatLine(0, "Ann", "hello"))
        assert store.chat_lines("g1") == [ChatLine(0, "Ann", "hello")]
    finally:
        store.close()


def test_open_storage_refuses_unknown_urls() -> None:
    with pytest.raises(StorageError):
        open_storage("mysql://localhost/x")


@pytest.mark.postgres
def test_a_whole_game_on_postgres_with_a_restart(pg_schema: str, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, db_url=POSTGRES_URL)
    store = PostgresStorage(POSTGRES_URL, schema=pg_schema)
    try:
        with TestClient(create_app(settings, storage=store, seed_source=fixed_seeds(4))) as client:
            made = create_table(client, seats=3, rules={"target": 80}, bots={"2": "random"})
            table_id = made["table_id"]
            bob = join(client, table_id, "Bob")
            start(client, table_id, made["token"])
            ws_urls = [f"/ws/tables/{table_id}?token={t}" for t in (made["token"], bob["token"])]
            with client.websocket_connect(ws_urls[0]) as ws0, client.websocket_connect(ws_urls[1]) as ws1:
                acknowledged = TableDriver({0: ws0, 1: ws1}, seed=3).play(max_actions=10)["version"]
        with TestClient(create_app(settings, storage=store, seed_source=fixed_seeds(40))) as client:
            with client.websocket_connect(ws_urls[0]) as ws0, client.websocket_connect(ws_urls[1]) as ws1:
                driver = TableDriver({0: ws0, 1: ws1}, seed=4)
                assert driver.catch_up(0)[0]["version"] == acknowledged
                final = driver.play()
            assert final["table"]["status"] == "finished"
            record = client.get(f"/api/games/{table_id}/record").json()
            assert record["players"] == ["Ann", "Bob", "Bot 3"]
            assert client.get(f"/api/games/{table_id}/replay/{final['version']}").status_code == 200
    finally:
        store.close()


def test_a_malformed_database_url_is_refused_without_its_password() -> None:
    for url in ("postgresql://ann:sekret@db.example:notaport/games", "sqlite://ann:sekret@x:y/z"):
        with pytest.raises(StorageError, match="malformed database URL") as refused:
            open_storage(url)
        assert "sekret" not in str(refused.value)
    with pytest.raises(StorageError) as refused:
        open_storage("mysql://ann:sekret@db.example/games")
    assert "sekret" not in str(refused.value) and "***@db.example" in str(refused.value)


@pytest.mark.postgres
def test_while_postgres_is_down_every_call_fails_as_a_storage_error_and_works_again_after(
    pg_schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"rummy500-outage-{pg_schema}"
    store = PostgresStorage(f"{POSTGRES_URL}?application_name={name}", schema=pg_schema)
    admin = create_engine(make_url(POSTGRES_URL).set(drivername="postgresql+psycopg"))
    try:
        _table(store, seats=2)
        store.join("g1", "Bob", "h-bob")
        store.start("g1", seed=5, bot_level="random")
        store.append_action("g1", 0, 0, {"draw": "stock"})  # the hot connection is open now

        # PostgreSQL goes away: this storage's connections are cut, and new ones are
        # refused by the driver itself (as the pool's pre-ping reconnect meets them).
        def refused(*_args: object, **_kwargs: object) -> None:
            raise psycopg.OperationalError("connection refused: the server is down")

        monkeypatch.setattr(store.engine.dialect, "connect", refused)
        with admin.begin() as conn:
            cut = conn.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :name"),
                {"name": name},
            ).all()
        assert cut
        for _ in range(3):  # each try fails the same way: the cut connection, then refused reconnects
            with pytest.raises(StorageError):
                store.append_action("g1", 1, 0, {"discard": "2C"})
        calls = [
            lambda: store.actions_since("g1", 0),
            lambda: store.actions("g1"),
            lambda: store.get_game("g1"),
            lambda: store.seat_of_token("g1", "h-bob"),
            lambda: store.chat_lines("g1"),
            lambda: store.append_chat("g1", ChatLine(0, "Ann", "anyone there?")),
            lambda: store.running_ids(),
            lambda: store.list_games(),
        ]
        for call in calls:
            with pytest.raises(StorageError):
                call()

        monkeypatch.undo()  # PostgreSQL is back
        store.append_action("g1", 1, 0, {"discard": "2C"})
        assert [a.seq for a in store.actions_since("g1", 0)] == [0, 1]
        game = store.get_game("g1")
        assert game is not None and game.actions == 2
    finally:
        store.close()
        admin.dispose()
