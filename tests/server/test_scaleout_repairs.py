"""Scale-out repairs: what a client sees when a notice between processes is late, lost, or raced.

Two instances (apps on one PostgreSQL schema and one Redis prefix, as in
tests/server/test_scaleout.py). A notice "lost" is one the sending instance
never sends (its cluster's method is replaced by a no-op): what a process
killed between storing a change and telling the others leaves, or a Redis
drop while it was sent. What must hold:

- a socket whose seat was given back before the start is never sent that
  seat's cards, whichever process it is on and whichever started the game; it
  is closed (``bad_token``, 4401), at the start at the latest, and anything it
  says before is refused the same way;
- a lost "next table" notice reaches the sockets within a sweep, at once on a
  ``sync``, and when the bus comes back;
- every process shows the ``finished`` time the database keeps.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummy500.server.bus import Notice

from .helpers import TableDriver, bearer, create_table, join, message_within, receive, start, ws_path
from .test_scaleout import Instance, instance

pytestmark = pytest.mark.postgres


@contextlib.contextmanager
def _two(tmp_path: Path, pg_schema: str, prefix: str, **settings: Any) -> Iterator[tuple[Instance, Instance]]:
    """Two instances, A and B, on one PostgreSQL schema and one Redis prefix (``settings``: both's)."""
    with (
        instance(tmp_path / "a", pg_schema, prefix=prefix, **settings) as a,
        instance(tmp_path / "b", pg_schema, prefix=prefix, **settings) as b,
    ):
        yield a, b


def _until_closed(ws: Any, seconds: float) -> tuple[list[dict[str, Any]], int | None]:
    """Every message a socket gets until it is closed, and its close code (``None``: still open after ``seconds``)."""
    box: queue.Queue[dict[str, Any] | int] = queue.Queue()

    def read() -> None:
        try:
            while True:
                box.put(ws.receive_json())
        except WebSocketDisconnect as closed:
            box.put(closed.code)
        except BaseException:  # noqa: BLE001 - the test's end closes it
            box.put(-1)

    threading.Thread(target=read, daemon=True).start()
    got: list[dict[str, Any]] = []
    try:
        while True:
            item = box.get(timeout=seconds)
            if isinstance(item, int):
                return got, item
            got.append(item)
    except queue.Empty:
        return got, None


def _read_until(ws: Any, done: Callable[[dict[str, Any]], bool], seconds: float) -> list[dict[str, Any]]:
    """Every message up to the first one ``done`` accepts (fails if none comes within ``seconds``)."""
    got: list[dict[str, Any]] = []
    box: queue.Queue[bool] = queue.Queue()

    def read() -> None:
        while True:
            got.append(ws.receive_json())
            if done(got[-1]):
                box.put(True)
                return

    threading.Thread(target=read, daemon=True).start()
    try:
        box.get(timeout=seconds)
    except queue.Empty:
        raise AssertionError(f"not within {seconds} s; got {got}") from None
    return got


def _given_back(got: list[dict[str, Any]], code: int | None) -> None:
    """A socket of a seat given back: no state (no cards), a ``bad_token`` error, closed with 4401."""
    assert [m for m in got if m["type"] == "state"] == [], "the seat's view reached a socket whose seat was given back"
    assert code == 4401, (code, got)
    errors = [m for m in got if m["type"] == "error"]
    assert errors and errors[-1]["code"] == "bad_token" and "no longer have a seat" in errors[-1]["message"]


def _lose(monkeypatch: pytest.MonkeyPatch, at: Instance, notice: str) -> list[str]:
    """Make one instance never send a kind of notice (``lobby_changed``, ``table_changed``); the tables it left out."""
    lost: list[str] = []
    monkeypatch.setattr(at.manager.cluster, notice, lost.append)
    return lost


def _in_loop(at: Instance, call: Callable[[], None]) -> None:
    """Run ``call`` in an instance's event loop."""

    async def run() -> None:
        call()

    at.client.portal.call(run)  # type: ignore[union-attr]


def _quiet(*instances: Instance, seconds: float = 10.0) -> None:
    """Wait until the instances have nothing left to send or handle (the sockets' presence written and read).

    A presence write makes its process look at the lobby once more (and close
    a socket whose seat went): a test of a lost notice waits for those first,
    so that nothing but the repair under test can close the socket.
    """
    deadline = time.monotonic() + seconds
    calm_since: float | None = None
    while time.monotonic() < deadline:
        busy = any(
            not c._outbox.empty() or c._presence_queued or c._workers or c._pending
            for c in (i.manager.cluster for i in instances)
        )
        if busy:
            calm_since = None
        elif calm_since is None:
            calm_since = time.monotonic()
        elif time.monotonic() - calm_since > 0.3:
            return
        time.sleep(0.02)
    raise AssertionError("the instances never settled")


def _resync(at: Instance) -> None:
    """What an instance's bus says when it is back after Redis went away (notices may have been lost)."""
    _in_loop(at, lambda: at.manager.cluster._on_notice(Notice("resync", "")))


# ------------------------------------------------------------- seats given back
@pytest.mark.parametrize("start_on", ["A", "B"])
def test_a_seat_given_back_through_one_process_is_never_dealt_to_its_socket_on_the_other(
    tmp_path: Path, pg_schema: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch, start_on: str
) -> None:
    """Bob waits on B and leaves through A, whose notice B has not had when the game starts.

    Started through B, B's own start checks its sockets; started through A, B
    loads the game on A's notice and checks them then. Either way Bob's socket
    on B is closed, never sent seat 1's hand (a bot's now), and cannot play it.
    """
    with _two(tmp_path, pg_schema, redis_prefix, lease=30.0) as (a, b):
        made = create_table(a.client, seats=3)
        table_id, ann = made["table_id"], made["token"]
        bob = join(a.client, table_id, "Bob")["token"]
        with (
            b.client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
            b.client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        ):
            receive(ws_bob, "table")
            receive(ws_ann, "table", where=lambda m: m["table"]["seats"][1]["connected"])
            _quiet(a, b)
            lost = _lose(monkeypatch, a, "lobby_changed")
            assert a.client.post(f"/api/tables/{table_id}/leave", headers=bearer(bob)).status_code == 200
            assert lost == [table_id]  # B never hears of it before the start
            started = start((a if start_on == "A" else b).client, table_id, ann)
            assert [s["kind"] for s in started["seats"]] == ["human", "bot", "bot"]
            first = receive(ws_ann, "state")
            assert first["view"]["seat"] == 0
            got, code = _until_closed(ws_bob, 10)
            _given_back(got, code)
        # Its token is no one's at the game, on either process.
        for via in (a, b):
            with via.client.websocket_connect(ws_path(table_id, bob)) as ws:
                assert ws.receive_json()["code"] == "bad_token"


def test_a_socket_whose_seat_went_through_a_process_that_never_told_says_nothing_more(
    tmp_path: Path, pg_schema: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's socket on A, his seat given back through B, which died before telling A: his next line is refused."""
    with _two(tmp_path, pg_schema, redis_prefix, lease=30.0) as (a, b):
        made = create_table(a.client, seats=3)
        table_id, ann = made["table_id"], made["token"]
        bob = join(a.client, table_id, "Bob")["token"]
        with (
            a.client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
            a.client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        ):
            receive(ws_bob, "table")
            receive(ws_ann, "table", where=lambda m: all(s["connected"] for s in m["table"]["seats"][:2]))
            _quiet(a, b)
            _lose(monkeypatch, b, "lobby_changed")
            assert b.client.post(f"/api/tables/{table_id}/seats/1/remove", headers=bearer(ann)).status_code == 200
            ws_bob.send_json({"type": "chat", "text": "still here as seat 1"})
            _given_back(*_until_closed(ws_bob, 10))
            # Ann hears no line from the seat, and sees it open, nobody there (Bob's socket went).
            got = _read_until(
                ws_ann,
                lambda m: m["type"] == "table" and m["table"]["seats"][1]["kind"] == "open"
                and not m["table"]["seats"][1]["connected"],
                10,
            )
            assert [m for m in got if m["type"] in ("chat", "error", "state")] == []


@pytest.mark.parametrize("repair", ["sweep", "resync"])
def test_a_lost_seat_notice_is_repaired_by_the_sweep_and_when_the_bus_comes_back(
    tmp_path: Path, pg_schema: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch, repair: str
) -> None:
    """Bob's socket on A stays silent: A closes it all the same, within a sweep, or once its bus is back."""
    lease = 1.5 if repair == "sweep" else 60.0  # (no sweep in this test's time for the resync)
    with _two(tmp_path, pg_schema, redis_prefix, lease=lease) as (a, b):
        made = create_table(a.client, seats=3)
        table_id = made["table_id"]
        bob = join(a.client, table_id, "Bob")["token"]
        with a.client.websocket_connect(ws_path(table_id, bob)) as ws_bob:
            receive(ws_bob, "table")
            _quiet(a, b)
            _lose(monkeypatch, b, "lobby_changed")
            assert b.client.post(f"/api/tables/{table_id}/leave", headers=bearer(bob)).status_code == 200
            if repair == "resync":
                _resync(a)
            _given_back(*_until_closed(ws_bob, 10))


# ------------------------------------------------------------------ next table
def _finished_across(a: Instance, b: Instance) -> tuple[str, str, str, list[dict[str, Any]]]:
    """A finished game: Ann (via A) and Bob (via B) played it, a bot at seat 2; id, tokens, Ann's messages."""
    made = create_table(a.client, seats=3, rules={"rounds": 1}, bots={"2": "random"}, public=True)
    table_id, ann = made["table_id"], made["token"]
    bob = join(b.client, table_id, "Bob")["token"]
    start(a.client, table_id, ann)
    with (
        a.client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        b.client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
    ):
        driver = TableDriver({0: ws_ann, 1: ws_bob}, seed=4)
        final = driver.play()
        assert final["table"]["status"] == "finished"
        driver.catch_up(final["version"])
    return table_id, ann, bob, driver.received[0] + driver.received[1]


@pytest.mark.parametrize("repair", ["sweep", "sync", "resync"])
def test_a_lost_next_table_notice_reaches_the_sockets_of_the_other_process(
    tmp_path: Path, pg_schema: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch, repair: str
) -> None:
    """Bob presses Play again through B, whose notice is lost: the sockets on A learn ``next_table`` all the same."""
    lease = 1.5 if repair == "sweep" else 60.0
    with _two(tmp_path, pg_schema, redis_prefix, lease=lease) as (a, b):
        table_id, ann, bob, _ = _finished_across(a, b)
        with (
            a.client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
            a.client.websocket_connect(ws_path(table_id)) as ws_watcher,
        ):
            for ws in (ws_ann, ws_watcher):
                assert receive(ws, "state")["table"]["next_table"] is None
            _quiet(a, b)
            lost = _lose(monkeypatch, b, "table_changed")
            res = b.client.post(f"/api/tables/{table_id}/again", json={}, headers=bearer(bob))
            assert res.status_code == 201, res.text
            assert lost == [table_id]
            next_id = res.json()["table_id"]
            if repair == "sync":
                ws_watcher.send_json({"type": "sync"})
            elif repair == "resync":
                _resync(a)
            told = message_within(ws_ann, "table", 10, lambda m: m["table"]["next_table"] is not None)
            assert told["table"]["next_table"] == next_id
            if repair == "sync":  # (the players are told; the spectator who asked gets its state, without it)
                assert message_within(ws_watcher, "state", 5)["table"]["next_table"] is None


# -------------------------------------------------------------------- finished
def test_every_process_shows_the_finished_time_the_database_keeps(
    tmp_path: Path, pg_schema: str, redis_prefix: str
) -> None:
    """The game ends on A (Ann's or the bot's move) or on B (Bob's): every live ``state`` says the stored time."""
    with _two(tmp_path, pg_schema, redis_prefix) as (a, b):
        table_id, _, _, received = _finished_across(a, b)
        stored = a.client.get(f"/api/tables/{table_id}").json()["finished"]
        assert stored is not None and b.client.get(f"/api/tables/{table_id}").json()["finished"] == stored
        assert a.client.get("/api/games?status=finished").json()[0]["finished"] == stored
        shown = {m["table"]["finished"] for m in received if m["type"] == "state" and m["table"]["status"] == "finished"}
        assert shown == {stored}
        with b.client.websocket_connect(ws_path(table_id)) as ws:
            assert receive(ws, "state")["table"]["finished"] == stored


def test_one_process_shows_the_finished_time_the_database_keeps(client: TestClient) -> None:
    made = create_table(client, seats=2, rules={"rounds": 1}, bots={"1": "random"})
    table_id, ann = made["table_id"], made["token"]
    start(client, table_id, ann)
    with client.websocket_connect(ws_path(table_id, ann)) as ws:
        final = TableDriver({0: ws}, seed=1).play()
    assert final["table"]["finished"] is not None
    assert final["table"]["finished"] == client.get(f"/api/tables/{table_id}").json()["finished"]


# ------------------------------------------------------------------- last guard
def test_a_socket_whose_token_is_not_its_seat_s_is_closed_on_its_next_message(client: TestClient) -> None:
    """The last guard: whatever let such a socket stay, it never plays the seat, nor gets its view again."""
    made = create_table(client, seats=2, bots={"1": "random"})
    table_id, ann = made["table_id"], made["token"]
    start(client, table_id, ann)
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id)) as ws_watcher,
    ):
        first = receive(ws_ann, "state")
        receive(ws_watcher, "state")
        session = client.app.state.manager.sessions[table_id]  # type: ignore[attr-defined]
        assert session.seat_tokens is not None and set(session.seat_tokens) == {0}
        session.seat_tokens = {0: "someone else's"}
        ws_ann.send_json({"type": "action", "version": first["version"], "action": first["view"]["legal"][0]})
        got, code = _until_closed(ws_ann, 10)
        _given_back(got, code)
        ws_watcher.send_json({"type": "sync"})  # (spectators are never refused)
        assert receive(ws_watcher, "state")["version"] == first["version"]  # the move was never played
