"""The database going away mid-game: people are told ``unavailable``, the bots wait, play resumes after.

The outage is simulated under the storage adapter, where a real one shows: the
driver's own ``OperationalError`` (``sqlite3`` or ``psycopg``) on the
statements of connections already open and on every new connection (what a
pool reconnecting meets while the server is down). Each adapter in turn.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummy500.server.app import create_app
from rummy500.server.storage import PostgresStorage, SqliteStorage, SqlStorage

from .helpers import POSTGRES_URL, act, create_table, fixed_seeds, make_settings, receive, start, state_within


class Outage:
    """Makes a storage's database fail, as its driver reports it, while ``left`` failures remain.

    Every statement of the hot path (appends, log reads) and every new
    connection fails with the driver's ``OperationalError`` while the outage
    lasts. :meth:`when_seat_writes` starts one later: at the first append of
    an action by that seat.
    """

    def __init__(self, store: SqlStorage, monkeypatch: pytest.MonkeyPatch) -> None:
        self.error: type[Exception] = store.engine.dialect.loaded_dbapi.OperationalError
        self.left = 0
        self.failed = 0
        self._seat: int | None = None
        self._pending = 0
        self._lock = threading.Lock()
        real_connect = store.engine.raw_connection
        real_hot = store._hot

        def raw_connection() -> Any:
            self.check()
            return real_connect()

        monkeypatch.setattr(store.engine, "raw_connection", raw_connection)
        monkeypatch.setattr(store, "_hot", lambda: _Connection(real_hot(), self))

    def down(self, failures: int = 1_000_000) -> None:
        """The database goes away now, for the next ``failures`` statements or connections."""
        with self._lock:
            self.left = failures

    def up(self) -> None:
        """The database is back."""
        with self._lock:
            self.left = 0

    def when_seat_writes(self, seat: int, failures: int) -> None:
        """Go down (for ``failures`` tries) when ``seat``'s next action is appended."""
        with self._lock:
            self._seat, self._pending = seat, failures

    def check(self, sql: str = "", params: Any = ()) -> None:
        """Raise the driver's error if the database is down (a statement or a connection)."""
        with self._lock:
            if self._seat is not None and sql.startswith("INSERT") and params[2] == self._seat:
                self._seat, self.left = None, self._pending
            if self.left <= 0:
                return
            self.left -= 1
            self.failed += 1
        raise self.error("server closed the connection unexpectedly")


class _Connection:
    """A hot driver connection whose statements go through :meth:`Outage.check`."""

    def __init__(self, raw: Any, outage: Outage) -> None:
        self._raw, self._outage = raw, outage

    def cursor(self) -> _Cursor:
        return _Cursor(self._raw.cursor(), self._outage)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class _Cursor:
    def __init__(self, cur: Any, outage: Outage) -> None:
        self._cur, self._outage = cur, outage

    def execute(self, sql: str, params: Any = ()) -> Any:
        self._outage.check(sql, params)
        return self._cur.execute(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cur, name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqlStorage]:
    """Each adapter in turn, on an empty database."""
    if request.param == "sqlite":
        made: SqlStorage = SqliteStorage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    else:
        made = PostgresStorage(POSTGRES_URL, schema=request.getfixturevalue("pg_schema"))
    try:
        yield made
    finally:
        made.close()


def _annes_turn(state: dict[str, Any]) -> bool:
    return state["view"]["to_move"] == 0 and bool(state["view"]["legal"])


def _moves_by(state: dict[str, Any], seat: int) -> list[int]:
    return [e["version"] for e in state["log"] if e["kind"] == "action" and e["seat"] == seat]


def test_an_outage_refuses_moves_as_unavailable_and_the_bot_plays_on_once_it_is_over(
    store: SqlStorage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    outage = Outage(store, monkeypatch)
    caplog.set_level(logging.INFO, logger="rummy500.server.session")
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, storage=store, seed_source=fixed_seeds(3))) as client:
        made = create_table(client, seats=2, bots={"1": "random"})
        table_id, ann = made["table_id"], made["token"]
        start(client, table_id, ann)
        with client.websocket_connect(f"/ws/tables/{table_id}?token={ann}") as ws:
            mine = state_within(ws, 30.0, _annes_turn)
            version = mine["version"]

            # Ann's turn, and the database is down: each try is refused as
            # ``unavailable`` (a message the page can show), and nothing changes.
            outage.down()
            for _ in range(3):
                act(ws, version, {"draw": "stock"})
                refused = receive(ws, "error")
                assert (refused["code"], refused["version"]) == ("unavailable", version)
            assert outage.failed >= 3

            # Back: the same move is taken; then the bot's first write meets an
            # outage of a few tries, which it outlives.
            outage.up()
            act(ws, version, {"draw": "stock"})
            drawn = receive(ws, "state", version=version + 1)
            outage.when_seat_writes(1, failures=3)
            discard = next(a for a in drawn["view"]["legal"] if "discard" in a)
            act(ws, version + 1, discard)
            receive(ws, "state", version=version + 2)
            moved = state_within(ws, 30.0, lambda m: any(v > version + 1 for v in _moves_by(m, 1)))
            assert outage.failed >= 6  # the bot's write failed three times before it went through
            assert moved["table"]["status"] == "running"

            # The game goes on: Ann is to move again and her moves are stored.
            again = moved if _annes_turn(moved) else state_within(ws, 30.0, _annes_turn)
            act(ws, again["version"], {"draw": "stock"})
            receive(ws, "state", version=again["version"] + 1)
        # Logged once per outage, not once per try.
        waits = [r for r in caplog.records if "could not be stored; trying again" in r.getMessage()]
        assert len(waits) == 1
        assert any("bots play again" in r.getMessage() for r in caplog.records)
    rows = store.actions(table_id)
    assert [a.seq for a in rows] == list(range(len(rows)))
    assert {a.seat for a in rows[version:]} == {0, 1}


def test_the_rest_api_answers_503_unavailable_while_the_database_is_away(
    store: SqlStorage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # It answered a plain-text 500 and logged a traceback per request; the page could not say "try again".
    outage = Outage(store, monkeypatch)
    with TestClient(create_app(make_settings(tmp_path), storage=store, seed_source=fixed_seeds(3))) as client:
        made = create_table(client, seats=2)
        store.engine.dispose()  # no pooled connection outlives the outage: each request opens one
        outage.down()
        with caplog.at_level(logging.WARNING, logger="rummy500.server.app"):
            for method, path, body in (
                ("GET", f"/api/tables/{made['table_id']}", None),
                ("POST", "/api/tables", {"name": "Bob", "seats": 2}),
                ("POST", f"/api/tables/{made['table_id']}/join", {"name": "Cy"}),
                ("GET", "/api/games", None),
            ):
                res = client.request(method, path, json=body)
                assert res.status_code == 503, (path, res.status_code, res.text)
                assert res.headers["retry-after"] == "5"
                assert res.json() == {"detail": {"code": "unavailable", "message": "the games' database is unavailable; try again shortly"}}
        logged = [r.getMessage() for r in caplog.records if r.name == "rummy500.server.app"]
        assert len(logged) == 4 and all("storage unavailable" in m and made["table_id"] not in m for m in logged), logged
        assert not any(r.exc_info for r in caplog.records)
        outage.up()
        assert client.get(f"/api/tables/{made['table_id']}").status_code == 200
