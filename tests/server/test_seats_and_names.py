"""Seats in the waiting room: one name per table, leaving a seat, the creator removing a player.

What a client sees: the REST answers (statuses, error codes and messages), the
``table`` messages on the sockets at the table, the socket of a seat given
back being closed (``bad_token``, 4401), the freed seat taken again through
the invite link, and all of it kept by the database (SQLite and PostgreSQL)
and told to every server process (Redis, or the in-process bus).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummy500.server.app import create_app
from rummy500.server.bus import MemoryBroker
from rummy500.server.manager import TableManager
from rummy500.server.storage import (
    ConflictError,
    NameTakenError,
    PostgresStorage,
    SeatRow,
    SqliteStorage,
    SqlStorage,
    StorageError,
    name_key,
)

from .helpers import (
    POSTGRES_URL,
    bearer,
    create_table,
    fixed_seeds,
    join,
    make_settings,
    message_within,
    receive,
    start,
    state_within,
    ws_path,
)
from .test_scaleout import instance


def _leave(client: TestClient, table_id: str, token: str) -> Any:
    return client.post(f"/api/tables/{table_id}/leave", headers=bearer(token))


def _remove(client: TestClient, table_id: str, seat: int | str, token: str | None) -> Any:
    return client.post(f"/api/tables/{table_id}/seats/{seat}/remove", headers=bearer(token) if token else {})


def _refused(res: Any, status: int, code: str) -> str:
    assert res.status_code == status, res.text
    detail = res.json()["detail"]
    assert detail["code"] == code, detail
    assert detail["message"]
    return str(detail["message"])


def _seats(table: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(s["kind"], s["name"]) for s in table["seats"]]


def _closed_as_given_back(ws: Any) -> None:
    """The socket of a seat given back: a ``bad_token`` error, then closed with 4401."""
    err = receive(ws, "error")
    assert err["code"] == "bad_token" and err["version"] is None
    assert "no longer have a seat" in err["message"]
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    assert closed.value.code == 4401


def _refused_socket(client: TestClient, table_id: str, token: str) -> None:
    with client.websocket_connect(ws_path(table_id, token)) as ws:
        assert ws.receive_json()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


# ------------------------------------------------------------------ names
def test_a_name_already_at_the_table_is_refused_whatever_its_case_and_spaces(client: TestClient) -> None:
    made = create_table(client, seats=4)
    table_id = made["table_id"]
    message = _refused(client.post(f"/api/tables/{table_id}/join", json={"name": "  ann "}), 409, "name_taken")
    assert message == "Ann is already at this table (someone at this table is called that): choose another name"
    assert join(client, table_id, "Bob")["seat"] == 1
    for twin in ("Bob", "BOB", " bob  ", "bOb"):
        message = _refused(client.post(f"/api/tables/{table_id}/join", json={"name": twin}), 409, "name_taken")
        assert message.startswith("Bob is already at this table")
    # Nothing was taken by the refusals; other names still get the next seats.
    table = client.get(f"/api/tables/{table_id}").json()
    assert _seats(table) == [("human", "Ann"), ("human", "Bob"), ("open", None), ("open", None)]
    assert join(client, table_id, "Bobby")["seat"] == 2
    assert join(client, table_id, "Ann Marie")["seat"] == 3
    # A full table says it is full, whatever the name.
    _refused(client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}), 409, "cannot_join")


def test_a_name_that_looks_like_one_at_the_table_is_refused(client: TestClient) -> None:
    # At the table these all read "Ann": a Cyrillic А, a Braille blank or a Hangul filler after it,
    # a zero-width space, full-width letters. Each took a seat before.
    made = create_table(client, seats=3)
    table_id = made["table_id"]
    for twin in ("\u0410nn", "Ann\u2800", "Ann\u3164", "A\u200bnn", "\uff21\uff4e\uff4e"):
        message = _refused(client.post(f"/api/tables/{table_id}/join", json={"name": twin}), 409, "name_taken")
        assert message.startswith("Ann is already at this table"), (twin, message)
    # A blank-looking character is a space in the name kept, and a name of nothing else is no name.
    assert join(client, table_id, "Bo\u2800b")["seat"] == 1
    assert join(client, table_id, "\u3164")["seat"] == 2
    table = client.get(f"/api/tables/{table_id}").json()
    assert _seats(table) == [("human", "Ann"), ("human", "Bo b"), ("human", "Player")]
    # Names in other scripts stay apart; only look-alikes meet ("Мария" with Latin M, a, p is "Мария").
    assert name_key("Мария") != name_key("Марина") and name_key("José") != name_key("Jose")
    assert name_key("Мария") == name_key("Mapия")


def test_a_bot_s_name_cannot_be_taken_and_bots_never_take_a_person_s(client: TestClient) -> None:
    made = create_table(client, seats=4, bots={"2": "medium"})
    table_id = made["table_id"]
    assert _seats(client.get(f"/api/tables/{table_id}").json())[2] == ("bot", "Bot 3")
    message = _refused(client.post(f"/api/tables/{table_id}/join", json={"name": "bot 3"}), 409, "name_taken")
    assert message == "Bot 3 is already at this table (a bot at this table is called that): choose another name"
    # A person may take the name a seat still open would have had as a bot: that bot is named otherwise.
    assert join(client, table_id, "BOT 4")["seat"] == 1
    started = start(client, table_id, made["token"])
    names = [s["name"] for s in started["seats"]]
    assert names == ["Ann", "BOT 4", "Bot 3", "Bot 4'"]


def test_the_creator_s_name_follows_the_same_rules(client: TestClient) -> None:
    """The creator's name is cleaned as a joiner's; a bot chosen at creation never shares it."""
    made = create_table(client, name="  bot   2 ", seats=3, bots={"1": "easy"})
    table = client.get(f"/api/tables/{made['table_id']}").json()
    assert _seats(table) == [("human", "bot 2"), ("bot", "Bot 2'"), ("open", None)]
    _refused(client.post(f"/api/tables/{made['table_id']}/join", json={"name": "BOT 2"}), 409, "name_taken")
    _refused(client.post(f"/api/tables/{made['table_id']}/join", json={"name": "Bot 2'"}), 409, "name_taken")


# ------------------------------------------------------------------ leaving
def test_a_player_leaves_before_the_start_and_someone_else_takes_the_seat(client: TestClient) -> None:
    made = create_table(client, seats=3)
    table_id, ann = made["table_id"], made["token"]
    bob = join(client, table_id, "Bob")
    assert bob["seat"] == 1
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob["token"])) as ws_bob,
        client.websocket_connect(ws_path(table_id)) as ws_watch,
    ):
        receive(ws_ann, "table", where=lambda m: m["table"]["seats"][1]["connected"])
        res = _leave(client, table_id, bob["token"])
        assert res.status_code == 200, res.text
        answer = res.json()
        assert answer["status"] == "lobby"
        assert answer["seats"][1] == {
            "seat": 1,
            "name": None,
            "kind": "open",
            "bot_level": None,
            "connected": False,
            "autoplay": False,
        }
        # Everyone at the table is told, with the same table message as a join's.
        for ws in (ws_ann, ws_watch):
            told = receive(ws, "table", where=lambda m: m["table"]["seats"][1]["kind"] == "open")
            assert _seats(told["table"]) == [("human", "Ann"), ("open", None), ("open", None)]
        _closed_as_given_back(ws_bob)
        # The token plays here no more.
        _refused(_leave(client, table_id, bob["token"]), 403, "bad_token")
        _refused(client.post(f"/api/tables/{table_id}/start", headers=bearer(bob["token"])), 403, "bad_token")
        _refused_socket(client, table_id, bob["token"])
        # The invite link seats the next person in the freed seat; the name is free again too.
        cy = join(client, table_id, "Cy")
        assert cy["seat"] == 1
        told = receive(ws_ann, "table", where=lambda m: m["table"]["seats"][1]["name"] == "Cy")
        assert _seats(told["table"]) == [("human", "Ann"), ("human", "Cy"), ("open", None)]
        again = join(client, table_id, "bob")
        assert again["seat"] == 2
        started = start(client, table_id, ann)
        assert [s["name"] for s in started["seats"]] == ["Ann", "Cy", "bob"]
        assert state_within(ws_ann, 10)["view"]["seat"] == 0


def test_the_creator_cannot_leave(client: TestClient) -> None:
    made = create_table(client, seats=2)
    message = _refused(_leave(client, made["table_id"], made["token"]), 409, "host_cannot_leave")
    assert "creator cannot leave" in message and "deleted after 24 hours" in message
    assert _seats(client.get(f"/api/tables/{made['table_id']}").json())[0] == ("human", "Ann")


def test_leaving_needs_a_seat_token_of_that_table(client: TestClient) -> None:
    made = create_table(client, seats=2)
    other = create_table(client, seats=2)
    bob = join(client, other["table_id"], "Bob")
    res = client.post(f"/api/tables/{made['table_id']}/leave")
    assert _refused(res, 401, "bad_token") and res.headers["www-authenticate"] == "Bearer"
    _refused(_leave(client, made["table_id"], bob["token"]), 403, "bad_token")
    _refused(_leave(client, made["table_id"], "not-a-token"), 403, "bad_token")
    _refused(_leave(client, "no-such-table", bob["token"]), 404, "no_table")


def test_a_join_closes_a_socket_whose_seat_went_when_the_leave_could_not_check(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A join takes no seat away, yet it checks the sockets: the last chance before a newcomer's seat is played by another.

    Bob leaves while the database fails the check of his sockets (it is
    logged; his socket stays open); Cy then takes his seat: Bob's socket is
    closed then, before it could chat as Cy or be dealt her cards.
    """
    manager: TableManager = client.app.state.manager
    made = create_table(client, seats=3)
    table_id = made["table_id"]
    bob = join(client, table_id, "Bob")
    real_drop, real_tokens = manager.drop_stale_seats, manager.storage.seat_tokens
    failing = {"armed": True, "checking": False}

    async def drop_stale_seats(table: str) -> int:
        failing["checking"] = True
        try:
            return await real_drop(table)
        finally:
            failing["checking"] = False

    def seat_tokens(table: str) -> dict[int, str]:
        if failing["checking"] and failing["armed"]:
            failing["armed"] = False
            raise StorageError("the database went away")
        return real_tokens(table)

    monkeypatch.setattr(manager, "drop_stale_seats", drop_stale_seats)
    monkeypatch.setattr(manager.storage, "seat_tokens", seat_tokens)
    with client.websocket_connect(ws_path(table_id, bob["token"])) as bob_ws:
        receive(bob_ws, "table")
        assert _leave(client, table_id, bob["token"]).status_code == 200
        assert not failing["armed"]  # the leave's check failed: Bob's socket is still open
        receive(bob_ws, "table", where=lambda m: m["table"]["seats"][1]["kind"] == "open")
        assert join(client, table_id, "Cy")["seat"] == 1
        err = message_within(bob_ws, "error", 10)  # (no waiting for ever on a socket left open)
        assert err["code"] == "bad_token" and "no longer have a seat" in err["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                bob_ws.receive_json()
        assert closed.value.code == 4401


# ------------------------------------------------------------------ removing
def test_the_creator_removes_a_player_who_went_away(client: TestClient) -> None:
    made = create_table(client, seats=4, bots={"3": "easy"})
    table_id, ann = made["table_id"], made["token"]
    bob = join(client, table_id, "Bob")
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob["token"])) as ws_bob,
    ):
        receive(ws_ann, "table", where=lambda m: m["table"]["seats"][1]["connected"])
        res = _remove(client, table_id, 1, ann)
        assert res.status_code == 200, res.text
        assert _seats(res.json()) == [("human", "Ann"), ("open", None), ("open", None), ("bot", "Bot 4")]
        told = receive(ws_ann, "table", where=lambda m: m["table"]["seats"][1]["kind"] == "open")
        assert told["table"]["seats"][1]["connected"] is False
        _closed_as_given_back(ws_bob)
    _refused_socket(client, table_id, bob["token"])
    _refused(_leave(client, table_id, bob["token"]), 403, "bad_token")
    assert join(client, table_id, "Bob")["seat"] == 1


def test_only_the_creator_removes_and_only_another_taken_seat(client: TestClient) -> None:
    made = create_table(client, seats=4, bots={"3": "easy"})
    table_id, ann = made["table_id"], made["token"]
    bob = join(client, table_id, "Bob")
    _refused(_remove(client, table_id, 1, None), 401, "bad_token")
    assert "creator" in _refused(_remove(client, table_id, 1, bob["token"]), 403, "bad_token")
    _refused(_remove(client, table_id, 1, "not-a-token"), 403, "bad_token")
    assert "yourself" in _refused(_remove(client, table_id, 0, ann), 409, "cannot_remove")
    assert "open already" in _refused(_remove(client, table_id, 2, ann), 409, "cannot_remove")
    assert "no seat 9" in _refused(_remove(client, table_id, 9, ann), 409, "cannot_remove")
    _refused(_remove(client, table_id, -1, ann), 409, "cannot_remove")
    assert "seat" in _refused(_remove(client, table_id, "x", ann), 422, "bad_request")
    _refused(_remove(client, "no-such-table", 1, ann), 404, "no_table")
    # Nothing changed.
    assert _seats(client.get(f"/api/tables/{table_id}").json()) == [
        ("human", "Ann"),
        ("human", "Bob"),
        ("open", None),
        ("bot", "Bot 4"),
    ]


def test_once_the_game_started_nobody_leaves_or_is_removed(client: TestClient) -> None:
    made = create_table(client, seats=3)
    table_id, ann = made["table_id"], made["token"]
    bob = join(client, table_id, "Bob")
    start(client, table_id, ann)
    assert "started" in _refused(_leave(client, table_id, bob["token"]), 409, "not_in_lobby")
    assert "started" in _refused(_remove(client, table_id, 1, ann), 409, "not_in_lobby")
    _refused(_leave(client, table_id, ann), 409, "not_in_lobby")
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "running"
    assert _seats(info) == [("human", "Ann"), ("human", "Bob"), ("bot", "Bot 3")]
    with client.websocket_connect(ws_path(table_id, bob["token"])) as ws:
        assert state_within(ws, 10)["view"]["seat"] == 1  # Bob still plays his seat


# ------------------------------------------------------------------ restarts
def test_a_seat_given_back_stays_open_after_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, seed_source=fixed_seeds(5))) as client:
        made = create_table(client, seats=4)
        table_id, ann = made["table_id"], made["token"]
        bob = join(client, table_id, "Bob")
        cy = join(client, table_id, "Cy")
        assert _leave(client, table_id, bob["token"]).status_code == 200
        assert _remove(client, table_id, 2, ann).status_code == 200
    with TestClient(create_app(settings, seed_source=fixed_seeds(6))) as client:
        info = client.get(f"/api/tables/{table_id}").json()
        assert _seats(info) == [("human", "Ann"), ("open", None), ("open", None), ("open", None)]
        for gone in (bob, cy):
            _refused_socket(client, table_id, gone["token"])
        dee = join(client, table_id, "Dee")
        assert dee["seat"] == 1
        started = start(client, table_id, ann)
        assert [s["kind"] for s in started["seats"]] == ["human", "human", "bot", "bot"]
        with client.websocket_connect(ws_path(table_id, dee["token"])) as ws:
            assert state_within(ws, 10)["view"]["seat"] == 1


# ------------------------------------------------------------------ storage
@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqlStorage]:
    """Each adapter in turn, on an empty database."""
    if request.param == "sqlite":
        store: SqlStorage = SqliteStorage(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    else:
        store = PostgresStorage(POSTGRES_URL, schema=request.getfixturevalue("pg_schema"))
    try:
        yield store
    finally:
        store.close()


def _table(store: SqlStorage, seats: int = 4, game_id: str = "g1") -> None:
    store.create_table(
        game_id=game_id,
        title="Friday",
        rules={"players": seats},
        seats=[
            SeatRow(0, "human", "Ann"),
            *[SeatRow(i, "open") for i in range(1, seats - 1)],
            SeatRow(seats - 1, "bot", "Bot 4", "easy"),
        ],
        creator_token_hash="h-ann",
    )


def test_the_storage_keeps_names_unique_and_opens_seats_again(storage: SqlStorage) -> None:
    _table(storage)
    with pytest.raises(NameTakenError) as taken:
        storage.join("g1", "BOT 4", "h-x")
    assert (taken.value.name, taken.value.kind) == ("Bot 4", "bot")
    assert storage.join("g1", "Bob", "h-bob") == 1
    assert storage.join("g1", "Cy", "h-cy") == 2
    # Leaving checks the token; the creator's seat and open seats never open, a bot only for the creator.
    with pytest.raises(ConflictError):
        storage.vacate("g1", 1, "h-cy")
    with pytest.raises(ConflictError):
        storage.vacate("g1", 3, "h-cy")
    for seat in (0, 7):
        with pytest.raises(ConflictError):
            storage.vacate("g1", seat)
    storage.vacate("g1", 1, "h-bob")
    with pytest.raises(ConflictError):
        storage.vacate("g1", 1, "h-bob")  # given back already
    assert storage.seat_of_token("g1", "h-bob") is None
    storage.vacate("g1", 2)  # removed by the creator
    assert storage.seat_of_token("g1", "h-cy") is None
    row = storage.get_game("g1")
    assert row is not None
    assert [(s.kind, s.name) for s in row.seats] == [("human", "Ann"), ("open", None), ("open", None), ("bot", "Bot 4")]
    assert storage.join("g1", "bob", "h-bob2") == 1
    started = storage.start("g1", seed=3, bot_level="easy")
    assert started.players == ["Ann", "bob", "Bot 3", "Bot 4"]
    with pytest.raises(ConflictError):
        storage.vacate("g1", 1, "h-bob2")
    with pytest.raises(ConflictError):
        storage.vacate("nope", 1)
    assert storage.seat_of_token("g1", "h-bob2") == 1


def test_two_joins_with_one_name_at_once_seat_one_person(storage: SqlStorage) -> None:
    seats = 8
    storage.create_table(
        game_id="g1",
        title="Rush",
        rules={"players": seats},
        seats=[SeatRow(0, "human", "Ann"), *[SeatRow(i, "open") for i in range(1, seats)]],
        creator_token_hash="h-ann",
    )
    barrier = threading.Barrier(6)
    results: list[int | str] = []
    lock = threading.Lock()

    def join_as_bob(i: int) -> None:
        barrier.wait()
        try:
            got: int | str = storage.join("g1", "Bob" if i % 2 else "bob", f"h{i}")
        except NameTakenError:
            got = "taken"
        with lock:
            results.append(got)

    threads = [threading.Thread(target=join_as_bob, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results, key=str) == [1, *["taken"] * 5]


# ------------------------------------------------------------------ scale-out


@pytest.mark.postgres
@pytest.mark.parametrize("bus", ["redis", "memory"])
def test_a_seat_given_back_on_one_process_is_told_by_every_process(
    tmp_path: Path, pg_schema: str, redis_prefix: str, bus: str
) -> None:
    """Bob waits on B and leaves through A; Cy, removed by Ann through B, waits on A: each socket is closed where it is."""
    shared: dict[str, Any] = {"prefix": redis_prefix} if bus == "redis" else {"broker": MemoryBroker()}
    with instance(tmp_path / "a", pg_schema, **shared) as a, instance(tmp_path / "b", pg_schema, **shared) as b:
        made = create_table(a.client, seats=4)
        table_id, ann = made["table_id"], made["token"]
        bob = join(a.client, table_id, "Bob")
        cy = join(b.client, table_id, "Cy")
        _refused(b.client.post(f"/api/tables/{table_id}/join", json={"name": "cy"}), 409, "name_taken")
        with (
            b.client.websocket_connect(ws_path(table_id, ann)) as ws_ann_b,
            b.client.websocket_connect(ws_path(table_id, bob["token"])) as ws_bob_b,
            a.client.websocket_connect(ws_path(table_id, cy["token"])) as ws_cy_a,
        ):
            receive(ws_ann_b, "table", where=lambda m: all(s["connected"] for s in m["table"]["seats"][:3]))
            assert _leave(a.client, table_id, bob["token"]).status_code == 200
            _closed_as_given_back(ws_bob_b)
            told = receive(ws_ann_b, "table", where=lambda m: m["table"]["seats"][1]["kind"] == "open")
            assert told["table"]["seats"][2]["name"] == "Cy"
            assert _remove(b.client, table_id, 2, ann).status_code == 200
            _closed_as_given_back(ws_cy_a)
            receive(
                ws_ann_b,
                "table",
                where=lambda m: [s["kind"] for s in m["table"]["seats"]] == ["human", "open", "open", "open"],
            )
        for gone, via in ((bob, a), (cy, b)):
            _refused_socket(via.client, table_id, gone["token"])
        # The database is the truth for both: the freed seats are taken again, through either.
        assert join(b.client, table_id, "Dee")["seat"] == 1
        assert join(a.client, table_id, "Bob")["seat"] == 2
        assert [s["name"] for s in start(b.client, table_id, ann)["seats"]] == ["Ann", "Dee", "Bob", "Bot 4"]


@pytest.mark.postgres
def test_a_whole_lobby_on_postgres_across_a_restart(tmp_path: Path, pg_schema: str) -> None:
    """Names and seats given back, on PostgreSQL, as a restarted server finds them."""
    with instance(tmp_path / "a", pg_schema) as a:
        made = create_table(a.client, seats=3)
        table_id, ann = made["table_id"], made["token"]
        bob = join(a.client, table_id, "Bob")
        assert _leave(a.client, table_id, bob["token"]).status_code == 200
    with instance(tmp_path / "b", pg_schema) as b:
        assert _seats(b.client.get(f"/api/tables/{table_id}").json()) == [
            ("human", "Ann"),
            ("open", None),
            ("open", None),
        ]
        _refused_socket(b.client, table_id, bob["token"])
        assert join(b.client, table_id, "Cy")["seat"] == 1
        _refused(b.client.post(f"/api/tables/{table_id}/join", json={"name": "CY"}), 409, "name_taken")
        start(b.client, table_id, ann)
