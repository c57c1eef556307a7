"""Two hardenings of what the server lets out: seats checked closed, table ids kept out of the logs.

- **The seat check fails closed.** A seat given back in the waiting room
  whose sockets could not be checked then (the database away) must not be
  shown to them at the start either, even when the start cannot read the
  seats' tokens: while the tokens are not known no seat's view goes to any
  seated socket; once they can be read again the rightful holders get theirs
  and the others are closed (``bad_token``, 4401).
- **No full table id in a log line.** A table's id is its invite: whoever
  reads the logs could watch the table or take a seat in its waiting room. The
  server's own log lines name a table by the first characters of its id only
  (uvicorn's access log, which prints request paths, is configured apart).
"""

from __future__ import annotations

import doctest
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummy500.server.api import review as review_api
from rummy500.server.manager import TableManager
from rummy500.server.session import ids, short_id
from rummy500.server.storage import ChatLine, StorageError

from .helpers import act, bearer, create_table, join, receive, run_async, start, state_within, ws_path


class _Listener:
    """Reads every message a socket gets, in its own thread, until the socket is closed."""

    def __init__(self, ws: Any) -> None:
        self.messages: list[dict[str, Any]] = []
        self.code: int | None = None
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(ws,), daemon=True)
        self._thread.start()

    def _read(self, ws: Any) -> None:
        code = -1
        try:
            while True:
                msg = ws.receive_json()
                with self._changed:
                    self.messages.append(msg)
                    self._changed.notify_all()
        except WebSocketDisconnect as closed:
            code = closed.code
        except BaseException:  # noqa: BLE001 - the test's end closes it
            code = -1
        with self._changed:
            self.code = code
            self._changed.notify_all()

    def states(self) -> list[dict[str, Any]]:
        """The ``state`` messages received so far."""
        with self._changed:
            return [m for m in self.messages if m["type"] == "state"]

    def wait(self, done: Callable[[], bool], seconds: float) -> bool:
        """Whether ``done`` holds within ``seconds`` (looked at each time a message comes or the socket closes)."""
        end = time.monotonic() + seconds
        with self._changed:
            while not done():
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True


# ---------------------------------------------------------- the seat check
def test_a_seat_given_back_is_never_shown_while_the_seats_tokens_cannot_be_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob leaves and the check of his socket fails; the start cannot read the tokens either: his socket sees no cards.

    While the tokens cannot be read no seated socket is sent its seat's view
    (Ann's neither: the server cannot tell a given-back seat's socket from
    hers), and a ``sync`` from a seated socket is answered ``unavailable``;
    spectators go on watching. Once the database answers again Ann gets her
    view without doing anything, and Bob's socket is closed as a seat given back.
    """
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    made = create_table(client, seats=2)
    table_id, ann = made["table_id"], made["token"]
    bob = join(client, table_id, "Bob")
    real_tokens = manager.storage.seat_tokens
    failing = threading.Event()
    reads = {"failed": 0}

    def seat_tokens(table: str) -> dict[int, str]:
        if failing.is_set():
            reads["failed"] += 1
            raise StorageError("the database went away")
        return real_tokens(table)

    monkeypatch.setattr(manager.storage, "seat_tokens", seat_tokens)
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob["token"])) as ws_bob,
        client.websocket_connect(ws_path(table_id)) as ws_watcher,
    ):
        receive(ws_ann, "table", where=lambda m: m["table"]["seats"][1]["connected"])
        receive(ws_bob, "table")
        receive(ws_watcher, "table")
        failing.set()
        assert client.post(f"/api/tables/{table_id}/leave", headers=bearer(bob["token"])).status_code == 200
        assert reads["failed"] == 1  # the leave's check failed: Bob's socket is still open
        ann_seen, bob_seen = _Listener(ws_ann), _Listener(ws_bob)
        start(client, table_id, ann)  # seat 1 is a bot's now; the start could not read whose tokens hold the seats
        assert reads["failed"] >= 2
        # Spectators are never held back: the game is on.
        assert state_within(ws_watcher, 10)["table"]["status"] == "running"
        ws_bob.send_json({"type": "sync"})  # asks for the seat's view: refused while the tokens are unknown
        assert bob_seen.wait(lambda: any(m["type"] in ("error", "state") for m in bob_seen.messages), 10)
        assert bob_seen.states() == [], "the seat's view reached a socket whose seat was given back"
        refused = [m for m in bob_seen.messages if m["type"] == "error"][0]
        assert refused["code"] == "unavailable", refused
        time.sleep(1.5)  # a few tries to read the tokens again, all failing
        assert reads["failed"] >= 3, reads  # they are tried again, without anyone asking
        assert bob_seen.states() == [] and ann_seen.states() == []
        assert bob_seen.code is None  # not closed for good: the server does not know yet
        failing.clear()
        # The database is back: Ann gets her seat's view, Bob's socket is closed (never a state).
        assert ann_seen.wait(lambda: bool(ann_seen.states()), 10), ann_seen.messages
        assert ann_seen.states()[0]["view"]["seat"] == 0
        assert bob_seen.wait(lambda: bob_seen.code is not None, 10), bob_seen.messages
        assert bob_seen.states() == [], "the seat's view reached a socket whose seat was given back"
        assert bob_seen.code == 4401
        assert bob_seen.messages[-1]["code"] == "bad_token"
        assert "no longer have a seat" in bob_seen.messages[-1]["message"]
        # Ann plays on as usual.
        first = ann_seen.states()[-1]
        if first["view"]["to_move"] == 0:
            act(ws_ann, first["version"], first["view"]["legal"][0])
            assert ann_seen.wait(lambda: ann_seen.states()[-1]["version"] > first["version"], 10)


def test_a_game_loaded_while_the_tokens_cannot_be_read_shows_a_seat_only_once_they_can(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game loaded while the tokens cannot be read: a seat's socket gets no view until they can.

    Its connect is refused as "unavailable" and closed with 1013 (the page
    tries again); spectators watch meanwhile; the next connect once the database
    answers reads the tokens and gets the seat's view.
    """
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    made = create_table(client, seats=2, bots={"1": "random"})
    table_id, ann = made["table_id"], made["token"]
    start(client, table_id, ann)
    real_tokens = manager.storage.seat_tokens
    failing = threading.Event()

    def seat_tokens(table: str) -> dict[int, str]:
        if failing.is_set():
            raise StorageError("the database went away")
        return real_tokens(table)

    async def forget() -> None:  # as a session nobody watched: it loads again from storage
        manager.sessions.pop(table_id).retire()

    monkeypatch.setattr(manager.storage, "seat_tokens", seat_tokens)
    client.portal.call(forget)  # type: ignore[union-attr]
    failing.set()
    with client.websocket_connect(ws_path(table_id)) as ws_watcher:
        assert receive(ws_watcher, "state")["view"]["seat"] is None  # a spectator's view, tokens or not
        assert manager.sessions[table_id].seat_tokens is None
        with client.websocket_connect(ws_path(table_id, ann)) as ws_refused:
            # Never a state: one error naming the outage, then a close the page retries after.
            error = ws_refused.receive_json()
            assert error["type"] == "error" and error["code"] == "unavailable"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws_refused.receive_json()
            assert closed.value.code == 1013
        failing.clear()
        with client.websocket_connect(ws_path(table_id, ann)) as ws_ann:
            assert state_within(ws_ann, 10)["view"]["seat"] == 0
        assert manager.sessions[table_id].seat_tokens is not None


# ------------------------------------------------------------------ logs
def test_no_log_line_of_the_server_names_a_table_in_full(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A table is started, its bot moves, writes fail and come back, the game ends, a review fails: no full id logged."""
    caplog.set_level(logging.DEBUG, logger="rummy500")
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    made = create_table(client, seats=2, bots={"1": "random"}, rules={"rounds": 1})
    table_id, ann = made["table_id"], made["token"]
    store = manager.storage
    real_append, real_tokens = store.append_action, store.seat_tokens
    fail = {"tokens": 1, 0: 0, 1: 0}  # the start cannot read the seats' tokens (they are read again soon after)

    def append_action(game_id: str, seq: int, seat: int, *args: Any, **kwargs: Any) -> Any:
        if fail[seat]:  # one write of Ann's action and one of the bot's fail: logged, then their recovery
            fail[seat] -= 1
            raise StorageError(f"could not store action {seq} of game {game_id}")  # a message naming the table
        return real_append(game_id, seq, seat, *args, **kwargs)

    def seat_tokens(game_id: str) -> dict[int, str]:
        if fail["tokens"]:
            fail["tokens"] -= 1
            raise StorageError(f"could not read the seats of {game_id}")
        return real_tokens(game_id)

    monkeypatch.setattr(store, "append_action", append_action)
    monkeypatch.setattr(store, "seat_tokens", seat_tokens)
    rng = random.Random(5)
    moved = 0
    with client.websocket_connect(ws_path(table_id, ann)) as ws:
        receive(ws, "table")
        seen = _Listener(ws)
        start(client, table_id, ann)
        fail[0] = fail[1] = 1
        read, deadline = 0, time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "the game did not end"
            assert seen.wait(lambda: len(seen.messages) > read, 10), seen.messages[-3:]  # noqa: B023
            msg, read = seen.messages[read], read + 1
            if msg["type"] == "error":  # Ann's write that failed on purpose, or a bot moved first
                assert msg["code"] in ("unavailable", "stale_version"), msg
                ws.send_json({"type": "sync"})
            elif msg["type"] == "state":
                if msg["table"]["status"] == "finished":
                    break
                if msg["view"]["to_move"] == 0 and msg["view"]["legal"]:
                    act(ws, msg["version"], rng.choice(msg["view"]["legal"]))
                    moved += 1
    assert moved >= 2
    # A review that fails on a broken worker.

    class Broken:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise RuntimeError("the review worker could not start")

    monkeypatch.setattr(review_api, "ProcessPoolExecutor", Broken)

    async def review() -> str | None:
        reviews = review_api.ReviewQueue()
        reviews.submit(table_id, {})
        return (await reviews.wait(table_id)).status

    assert run_async(review()) == "failed"
    records = [r for r in caplog.records if r.name.startswith("rummy500")]
    said = {r.getMessage() for r in records}
    # The paths above were taken (their lines name the table by its short id).
    for line in (
        "could not read its seats' tokens",
        "could not store an action",
        "actions are stored again",
        "a bot's move could not be stored",
        "bots play again",
        "review of",
    ):
        assert any(line in text and short_id(table_id) in text for text in said), (line, said)
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    leaked = [formatter.format(r) for r in records if table_id in formatter.format(r)]
    assert leaked == []


def test_short_ids_are_the_first_characters_only() -> None:
    """What the log lines show of a table id, and of a message that names the table."""
    from rummy500.server.session import without_id

    table_id = "AbCdEfGhIjKlMnOpQrStUv"
    assert short_id(table_id) == "AbCdEfGh"
    assert without_id(f"no game {table_id} to chat at", table_id) == "no game AbCdEfGh to chat at"
    assert without_id(RuntimeError("nothing to hide"), table_id) == "nothing to hide"
    failures, attempted = doctest.testmod(ids, raise_on_error=False)
    assert attempted > 0 and failures == 0


def test_the_storages_refusals_name_a_table_by_its_short_id(tmp_path: Any) -> None:
    """A refusal of the storage goes into log lines and, for some, to a client: the full id is the invite."""
    from rummy500.server.storage import ConflictError, SeatRow, open_storage

    table_id = "AbCdEfGhIjKlMnOpQrStUv"
    storage = open_storage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        seats = [SeatRow(0, "human", "Ann"), SeatRow(1, "open")]
        storage.create_table(game_id=table_id, title="t", rules={}, seats=seats, creator_token_hash="h")
        refusals = []
        for attempt in (
            lambda: storage.create_table(game_id=table_id, title="t", rules={}, seats=seats, creator_token_hash="h"),
            lambda: storage.append_action(table_id, 1, 0, {"d": None}),  # the game has not started
            lambda: storage.append_chat("Zz" + table_id, ChatLine(0, "Ann", "hello")),  # no such game
        ):
            with pytest.raises(StorageError) as info:
                attempt()
            refusals.append(str(info.value))
    finally:
        storage.close()
    assert isinstance(ConflictError("x"), StorageError)
    assert refusals == [
        "table AbCdEfGh already exists",
        "game AbCdEfGh is not running",
        "no game ZzAbCdEf to chat at",
    ]
