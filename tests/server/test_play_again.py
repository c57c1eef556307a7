"""Play again with the same people: ``POST /api/tables/{id}/again`` and the finished table's ``next_table``.

What a client sees: the first player to press makes the next table with the
finished one's settings and sits at seat 0 as its creator; the next ones join
it with their names; every socket at the finished table (in every server
process) is sent the ``table`` message with ``next_table``, except that at a
public game (its replay listed for anyone) only the seated sockets are: no
spectator and no anonymous caller is shown it there (the next table waits in
the lobby: whoever had its id could take a player's seat);
two presses at once make one table; refusals say why. Both databases keep the
link, and a database made before it existed is brought up to date.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummy500.server.bus import MemoryBroker
from rummy500.server.storage import (
    AlreadyJoinedError,
    ConflictError,
    NameTakenError,
    NewTable,
    PostgresStorage,
    SeatRow,
    SqliteStorage,
    SqlStorage,
)

from .helpers import POSTGRES_URL, TableDriver, bearer, create_table, join, message_within, receive, start, ws_path
from .test_scaleout import instance


def _again(client: TestClient, table_id: str, token: str | None, body: dict[str, Any] | None = None) -> Any:
    return client.post(f"/api/tables/{table_id}/again", headers=bearer(token) if token else {}, json=body)


def _refused(res: Any, status: int, code: str) -> dict[str, Any]:
    assert res.status_code == status, res.text
    detail: dict[str, Any] = res.json()["detail"]
    assert detail["code"] == code, detail
    assert detail["message"]
    return detail


def _told(ws: Any, seconds: float = 10.0) -> dict[str, Any]:
    """The next ``table`` message with a ``next_table``; fails, instead of waiting for ever, if none comes in time."""
    return message_within(ws, "table", seconds, lambda m: m["table"]["next_table"] is not None)


def _seats(table: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
    return [(s["kind"], s["name"], s["bot_level"]) for s in table["seats"]]


def _play_out(client: TestClient, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play a started table to its end over the people's sockets (closed afterwards); the last state."""
    with contextlib.ExitStack() as stack:
        opened = {seat: stack.enter_context(client.websocket_connect(ws_path(table_id, t))) for seat, t in tokens.items()}
        final = TableDriver(opened, seed=5).play()
    assert final["table"]["status"] == "finished"
    return final


OPTIONS: dict[str, Any] = {
    "title": "Friday game",
    "preset": "quick",
    "rules": {"rounds": 1},
    "turn_clock": 60,
    "hints": False,
    "public": True,
}


def _friday(client: TestClient) -> tuple[str, dict[int, str]]:
    """A finished 4-seat game: Ann, Bob and Cy, and a medium bot at seat 3; its id and the seat tokens."""
    made = create_table(client, seats=4, bots={"3": "medium"}, **OPTIONS)
    table_id = made["table_id"]
    tokens = {0: made["token"], 1: join(client, table_id, "Bob")["token"], 2: join(client, table_id, "Cy")["token"]}
    start(client, table_id, tokens[0])
    return table_id, tokens


# ------------------------------------------------------------------ one server
def test_the_first_press_makes_the_same_table_the_next_join_it_and_everyone_is_told(client: TestClient) -> None:
    table_id, tokens = _friday(client)
    with contextlib.ExitStack() as stack:
        people = {seat: stack.enter_context(client.websocket_connect(ws_path(table_id, t))) for seat, t in tokens.items()}
        final = TableDriver(people, seed=5).play()
        assert final["table"]["status"] == "finished" and final["table"]["next_table"] is None
        old = client.get(f"/api/tables/{table_id}").json()
        assert old["status"] == "finished" and old["next_table"] is None
        watcher = stack.enter_context(client.websocket_connect(ws_path(table_id)))
        assert receive(watcher, "state")["table"]["next_table"] is None

        # Bob (seat 1) presses first: the same table, with him at seat 0 as its creator.
        bob = _again(client, table_id, tokens[1])
        assert bob.status_code == 201, bob.text
        made = bob.json()
        next_id = made["table_id"]
        assert next_id != table_id and made["seat"] == 0 and made["created"] is True
        assert made["invite_url"].endswith(f"/t/{next_id}")
        table = made["table"]
        assert table["id"] == next_id and table["status"] == "lobby" and table["next_table"] is None
        assert table["title"] == "Friday game"
        assert table["rules"] == old["rules"]
        assert table["settings"] == {"turn_clock": 60, "hints": False, "public": True, "chat_max_chars": 500} == old["settings"]
        assert _seats(table) == [
            ("human", "Bob", None),
            ("open", None, None),
            ("open", None, None),
            ("bot", "Bot 4", "medium"),
        ]

        # Everyone seated at the finished table hears of it; the spectator and anonymous callers never do.
        for ws in people.values():
            told = _told(ws)
            assert told["table"]["next_table"] == next_id and told["table"]["status"] == "finished"
        watcher.send_json({"type": "sync"})
        assert receive(watcher, "state")["table"]["next_table"] is None
        assert client.get(f"/api/tables/{table_id}").json()["next_table"] is None
        # A player's page opened now is told in its first state; a spectator's is not.
        with client.websocket_connect(ws_path(table_id, tokens[2])) as late:
            assert receive(late, "state")["table"]["next_table"] == next_id
        with client.websocket_connect(ws_path(table_id)) as late:
            assert receive(late, "state")["table"]["next_table"] is None

    # Cy (seat 2) joins it in her old seat, Ann (seat 0, Bob's now) in the lowest open one.
    cy = _again(client, table_id, tokens[2])
    assert cy.status_code == 200, cy.text
    assert (cy.json()["table_id"], cy.json()["seat"], cy.json()["created"]) == (next_id, 2, False)
    ann = _again(client, table_id, tokens[0], {})
    assert ann.status_code == 200, ann.text
    assert (ann.json()["seat"], ann.json()["created"]) == (1, False)
    assert _seats(ann.json()["table"]) == [
        ("human", "Bob", None),
        ("human", "Ann", None),
        ("human", "Cy", None),
        ("bot", "Bot 4", "medium"),
    ]

    # The new tokens act at the next table: Bob (its creator) starts it, and each plays their seat.
    nxt = {0: made["token"], 1: ann.json()["token"], 2: cy.json()["token"]}
    # Ann is no longer the creator.
    _refused(client.post(f"/api/tables/{next_id}/start", headers=bearer(nxt[1])), 403, "bad_token")
    started = start(client, next_id, nxt[0])
    assert started["status"] == "running" and started["settings"]["turn_clock"] == 60
    with client.websocket_connect(ws_path(next_id, nxt[1])) as ws:
        assert receive(ws, "state")["view"]["seat"] == 1
    # The old tokens act only at the old table.
    _refused(client.post(f"/api/tables/{next_id}/leave", headers=bearer(tokens[0])), 403, "bad_token")


def test_a_second_press_is_already_joined_and_reissue_gives_the_seat_a_new_token(client: TestClient) -> None:
    made = create_table(client, seats=3, rules={"rounds": 1}, bots={"2": "random"})
    table_id, ann_old = made["table_id"], made["token"]
    bob_old = join(client, table_id, "Bob")["token"]
    start(client, table_id, ann_old)
    _play_out(client, table_id, {0: ann_old, 1: bob_old})

    first = _again(client, table_id, ann_old).json()
    assert first["created"] and first["seat"] == 0 and first["table"]["title"] == "Ann's table"
    next_id = first["table_id"]
    bob = _again(client, table_id, bob_old).json()
    assert (bob["seat"], bob["created"]) == (1, False)

    # Pressed again (a double click, another tab): refused, saying where the seat is; nothing changes.
    for token in (ann_old, bob_old):
        detail = _refused(_again(client, table_id, token), 409, "already_joined")
        assert detail["table_id"] == next_id and "use the token you got" in detail["message"]
    assert _refused(_again(client, table_id, bob_old), 409, "already_joined")["seat"] == 1
    assert client.post(f"/api/tables/{next_id}/leave", headers=bearer(bob["token"])).status_code == 200

    # Bob gave his seat back: pressing again seats him again (his old seat is open: the same one).
    bob = _again(client, table_id, bob_old).json()
    assert (bob["seat"], bob["created"]) == (1, False)

    # The answer was lost: asking with reissue gives the same seat a new token; the lost one plays no more.
    with client.websocket_connect(ws_path(next_id, bob["token"])) as ws_lost:
        receive(ws_lost, "table")
        again = _again(client, table_id, bob_old, {"reissue": True})
        assert again.status_code == 200, again.text
        renewed = again.json()
        assert (renewed["table_id"], renewed["seat"], renewed["created"]) == (next_id, 1, False)
        assert renewed["token"] != bob["token"]
        err = receive(ws_lost, "error")
        assert err["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws_lost.receive_json()
        assert closed.value.code == 4401
    _refused(client.post(f"/api/tables/{next_id}/leave", headers=bearer(bob["token"])), 403, "bad_token")
    assert client.post(f"/api/tables/{next_id}/leave", headers=bearer(renewed["token"])).status_code == 200
    # The creator's lost answer too: seat 0 again, and the new token starts the table.
    creator = _again(client, table_id, ann_old, {"reissue": True}).json()
    assert (creator["seat"], creator["created"]) == (0, False)
    _refused(client.post(f"/api/tables/{next_id}/start", headers=bearer(first["token"])), 403, "bad_token")
    start(client, next_id, creator["token"])
    # Once the next game started nobody else comes in through the finished table, reissue or not.
    for body in (None, {"reissue": True}):
        detail = _refused(_again(client, table_id, bob_old, body), 409, "cannot_join")
        assert detail["table_id"] == next_id and "started" in detail["message"]


def test_refusals(client: TestClient) -> None:
    made = create_table(client, seats=3, rules={"rounds": 1}, bots={"2": "random"})
    table_id, ann = made["table_id"], made["token"]
    bob = join(client, table_id, "Bob")["token"]
    # Not over: in the lobby, and while it is played.
    _refused(_again(client, table_id, ann), 409, "not_finished")
    start(client, table_id, ann)
    _refused(_again(client, table_id, bob), 409, "not_finished")
    other = create_table(client, name="Zed")
    _refused(_again(client, "no-such-table", ann), 404, "no_table")
    _play_out(client, table_id, {0: ann, 1: bob})
    # Spectators (no token) and other tables' tokens have no seat here.
    assert _refused(_again(client, table_id, None), 401, "bad_token")
    _refused(_again(client, table_id, other["token"]), 403, "bad_token")
    _refused(_again(client, table_id, "made-up"), 403, "bad_token")
    res = client.post(f"/api/tables/{table_id}/again", headers=bearer(ann), json={"reissue": "yes"})
    _refused(res, 422, "bad_request")
    res = client.post(f"/api/tables/{table_id}/again", headers=bearer(ann), json={"seat": 3})
    _refused(res, 422, "bad_request")
    assert client.get(f"/api/tables/{table_id}").json()["next_table"] is None  # nothing was made

    # A stranger joined the next table through its invite link as "bob": Bob must choose another name.
    next_id = _again(client, table_id, ann).json()["table_id"]
    join(client, next_id, "BOB")
    detail = _refused(_again(client, table_id, bob), 409, "name_taken")
    assert "BOB is already at the next table" in detail["message"]


def test_the_next_table_full_refuses_with_where_it_is(client: TestClient) -> None:
    made = create_table(client, seats=2, rules={"rounds": 1})
    table_id, ann = made["table_id"], made["token"]
    bob = join(client, table_id, "Bob")["token"]
    start(client, table_id, ann)
    _play_out(client, table_id, {0: ann, 1: bob})
    next_id = _again(client, table_id, ann).json()["table_id"]
    join(client, next_id, "Cy")  # through the invite link
    detail = _refused(_again(client, table_id, bob), 409, "cannot_join")
    assert detail["table_id"] == next_id and "full" in detail["message"]


def test_two_presses_at_once_make_one_table(client: TestClient) -> None:
    made = create_table(client, seats=4, rules={"rounds": 1}, bots={"3": "easy"})
    table_id, ann = made["table_id"], made["token"]
    tokens = {0: ann, 1: join(client, table_id, "Bob")["token"], 2: join(client, table_id, "Cy")["token"]}
    start(client, table_id, ann)
    _play_out(client, table_id, tokens)
    barrier = threading.Barrier(3)
    answers: dict[int, Any] = {}

    def press(seat: int) -> None:
        barrier.wait()
        answers[seat] = _again(client, table_id, tokens[seat])

    threads = [threading.Thread(target=press, args=(seat,)) for seat in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(a.status_code for a in answers.values()) == [200, 200, 201], [a.text for a in answers.values()]
    ids = {a.json()["table_id"] for a in answers.values()}
    assert len(ids) == 1
    (next_id,) = ids
    assert client.get(f"/api/tables/{table_id}").json()["next_table"] == next_id  # (a private table: its link is its key)
    seats = client.get(f"/api/tables/{next_id}").json()["seats"]
    assert sorted(s["name"] for s in seats if s["kind"] == "human") == ["Ann", "Bob", "Cy"]
    assert sorted(a.json()["seat"] for a in answers.values()) == [0, 1, 2]


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


def _finished(store: SqlStorage, game_id: str = "g1", humans: int = 3) -> None:
    """A finished table: people at seats 0..humans-1 (tokens ``h0``...), a bot at the last seat."""
    store.create_table(
        game_id=game_id,
        title="Friday",
        rules={"players": humans + 1},
        seats=[
            SeatRow(0, "human", "P0"),
            *[SeatRow(i, "open") for i in range(1, humans)],
            SeatRow(humans, "bot", "Bot", "easy"),
        ],
        creator_token_hash="h0",
    )
    for i in range(1, humans):
        store.join(game_id, f"P{i}", f"h{i}")
    store.start(game_id, seed=1, bot_level="easy")
    store.finish(game_id, record={}, result={"totals": [0] * (humans + 1), "winner": 0})


def _new(seat: int, name: str, humans: int = 3, table_id: str | None = None) -> NewTable:
    return NewTable(
        id=table_id or f"next-{seat}",
        title="Friday",
        rules={"players": humans + 1},
        settings={"turn_clock": 30, "hints": True, "public": False},
        seats=[
            SeatRow(0, "human", name),
            *[SeatRow(i, "open") for i in range(1, humans)],
            SeatRow(humans, "bot", "Bot", "easy"),
        ],
    )


def test_the_storage_links_the_next_table_and_seats_each_person_once(storage: SqlStorage) -> None:
    _finished(storage)
    with pytest.raises(ConflictError):
        storage.play_again("nope", 0, "n", new_table=_new(0, "P0"))
    first = storage.play_again("g1", 2, "n2", new_table=_new(2, "P2"))
    assert (first.table_id, first.seat, first.created) == ("next-2", 0, True)
    row = storage.get_game("g1")
    assert row is not None and row.next_table == "next-2"
    made = storage.get_game("next-2")
    assert made is not None and made.status == "lobby" and made.next_table is None
    assert made.settings == {"turn_clock": 30, "hints": True, "public": False}
    assert storage.seat_of_token("next-2", "n2") == 0
    joined = storage.play_again("g1", 1, "n1", new_table=_new(1, "P1"))
    assert (joined.table_id, joined.seat, joined.created) == ("next-2", 1, False)
    assert storage.get_game("next-1") is None  # never made
    with pytest.raises(AlreadyJoinedError) as already:
        storage.play_again("g1", 2, "n2b", new_table=_new(2, "P2"))
    assert (already.value.table_id, already.value.seat) == ("next-2", 0)
    again = storage.play_again("g1", 2, "n2b", new_table=_new(2, "P2"), reissue=True)
    assert (again.seat, again.reissued) == (0, True)
    assert storage.seat_of_token("next-2", "n2") is None and storage.seat_of_token("next-2", "n2b") == 0
    # The next table's own lobby rules: a name taken there, a full table.
    storage.join("next-2", "p0", "stranger")
    with pytest.raises(NameTakenError):
        storage.play_again("g1", 0, "n0", new_table=_new(0, "P0"))
    storage.vacate("next-2", 2, "stranger")
    assert storage.play_again("g1", 0, "n0", new_table=_new(0, "P0")).seat == 2
    storage.vacate("next-2", 1, "n1")  # given back: the seat forgets where it came from
    assert storage.play_again("g1", 1, "n1b", new_table=_new(1, "P1")).seat == 1
    storage.start("next-2", seed=2, bot_level="easy")
    with pytest.raises(ConflictError) as started:
        storage.play_again("g1", 1, "x", new_table=_new(1, "P1"), reissue=True)
    assert not isinstance(started.value, AlreadyJoinedError) and "started" in str(started.value)


def test_a_next_table_never_started_and_expired_lets_them_make_another(storage: SqlStorage) -> None:
    from datetime import UTC, datetime, timedelta

    _finished(storage)
    assert storage.play_again("g1", 1, "n1", new_table=_new(1, "P1")).created
    assert storage.expire_lobby(datetime.now(UTC) + timedelta(seconds=1)) == 1
    row = storage.get_game("g1")
    assert row is not None and row.next_table is None
    made = storage.play_again("g1", 0, "n0", new_table=_new(0, "P0", table_id="another"))
    assert (made.table_id, made.seat, made.created) == ("another", 0, True)


def test_the_storage_makes_one_next_table_of_many_presses_at_once(storage: SqlStorage) -> None:
    humans = 6
    _finished(storage, humans=humans)
    barrier = threading.Barrier(humans)
    results: list[tuple[str, int, bool]] = []
    lock = threading.Lock()

    def press(seat: int) -> None:
        barrier.wait()
        got = storage.play_again("g1", seat, f"n{seat}", new_table=_new(seat, f"P{seat}", humans=humans))
        with lock:
            results.append((got.table_id, got.seat, got.created))

    threads = [threading.Thread(target=press, args=(seat,)) for seat in range(humans)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(results) == humans
    assert len({r[0] for r in results}) == 1
    assert sum(r[2] for r in results) == 1
    assert sorted(r[1] for r in results) == list(range(humans))
    row = storage.get_game("g1")
    assert row is not None and row.next_table == results[0][0]


def _drop_new_columns(run: Any, schema: str = "") -> None:
    """Make a database as the version before "play again" did: without its two columns."""
    prefix = f'"{schema}".' if schema else ""
    run(f"ALTER TABLE {prefix}games DROP COLUMN next_table")
    run(f"ALTER TABLE {prefix}seats DROP COLUMN again_from")


def test_a_sqlite_database_made_before_play_again_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    first = SqliteStorage(f"sqlite:///{path}")
    _finished(first)
    first.close()
    with sqlite3.connect(path) as conn:
        _drop_new_columns(conn.execute)
    store = SqliteStorage(f"sqlite:///{path}")
    try:
        row = store.get_game("g1")
        assert row is not None and row.status == "finished" and row.next_table is None
        assert store.play_again("g1", 1, "n1", new_table=_new(1, "P1")).created
        assert store.play_again("g1", 0, "n0", new_table=_new(0, "P0")).seat == 1
    finally:
        store.close()


@pytest.mark.postgres
def test_a_postgres_database_made_before_play_again_is_brought_up_to_date(pg_schema: str) -> None:
    from sqlalchemy import text

    first = PostgresStorage(POSTGRES_URL, schema=pg_schema)
    _finished(first)
    with first.engine.begin() as conn:
        _drop_new_columns(lambda sql: conn.execute(text(sql)), pg_schema)
    first.close()
    store = PostgresStorage(POSTGRES_URL, schema=pg_schema)
    try:
        row = store.get_game("g1")
        assert row is not None and row.next_table is None
        assert store.play_again("g1", 2, "n2", new_table=_new(2, "P2")).created
        assert store.play_again("g1", 1, "n1", new_table=_new(1, "P1")).seat == 1
    finally:
        store.close()


# ------------------------------------------------------------------ scale-out


@pytest.mark.postgres
@pytest.mark.parametrize("bus", ["redis", "memory"])
def test_every_process_tells_its_sockets_of_the_next_table(
    tmp_path: Path,
    pg_schema: str,
    redis_prefix: str,
    bus: str,
) -> None:
    """The game ends with Ann on A and a spectator on B; Bob presses through A: B's sockets are told too."""
    shared: dict[str, Any] = {"prefix": redis_prefix} if bus == "redis" else {"broker": MemoryBroker()}
    with instance(tmp_path / "a", pg_schema, **shared) as a, instance(tmp_path / "b", pg_schema, **shared) as b:
        made = create_table(a.client, seats=3, rules={"rounds": 1}, bots={"2": "random"}, title="Across")
        table_id, ann = made["table_id"], made["token"]
        bob = join(b.client, table_id, "Bob")["token"]
        start(a.client, table_id, ann)
        with (
            a.client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
            b.client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
            b.client.websocket_connect(ws_path(table_id)) as ws_watcher_b,
        ):
            final = TableDriver({0: ws_ann, 1: ws_bob}, seed=2).play()
            assert final["table"]["status"] == "finished"
            receive(ws_watcher_b, "state", where=lambda m: m["table"]["status"] == "finished")
            res = _again(a.client, table_id, bob)
            assert res.status_code == 201, res.text
            next_id = res.json()["table_id"]
            for ws in (ws_watcher_b, ws_bob, ws_ann):  # (a private table: whoever has its link is told)
                told = _told(ws)
                assert told["table"]["next_table"] == next_id
            assert b.client.get(f"/api/tables/{table_id}").json()["next_table"] == next_id
            # Ann joins it through B, and Bob (its creator, seated through A) sees her there.
            with a.client.websocket_connect(ws_path(next_id, res.json()["token"])) as ws_next:
                receive(ws_next, "table")
                ann_next = _again(b.client, table_id, ann)
                assert ann_next.status_code == 200, ann_next.text
                assert ann_next.json()["seat"] == 1
                receive(ws_next, "table", where=lambda m: m["table"]["seats"][1]["name"] == "Ann")
            _refused(_again(b.client, table_id, ann), 409, "already_joined")
            assert start(b.client, next_id, res.json()["token"])["title"] == "Across"
