"""What a client is answered in the corners of the protocol (findings of a protocol audit).

Hints are found beside the socket, once per version; every frame counts against
the rate limit, oversized ones too; every REST error has the documented
object shape; an empty token is a bad token; ``ready`` and ``hint`` on a game
with nothing to answer get the documented codes; and the ``table`` of socket
messages has the keys of ``GET /api/tables/{id}``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummy500.server.app import create_app
from rummy500.server.session import match

from .helpers import TableDriver, act, create_table, fixed_seeds, make_settings, receive, start, two_player_table


def _ws(table_id: str, token: str | None = None) -> str:
    return f"/ws/tables/{table_id}" + (f"?token={token}" if token is not None else "")


def _until(ws: Any, kind: str, **match_: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read up to the first message of ``kind`` (fields as ``match_``); also return those read before it."""
    before: list[dict[str, Any]] = []
    for _ in range(1000):
        msg = ws.receive_json()
        if msg["type"] == kind and all(msg.get(k) == v for k, v in match_.items()):
            return msg, before
        before.append(msg)
    raise AssertionError(f"no {kind} message matching {match_}")


# ------------------------------------------------------------------ hints
def _held_hints(monkeypatch: Any) -> tuple[list[int], threading.Event]:
    """Hints that wait until the returned event is set; the list gets each search's hand size."""
    searched: list[int] = []
    release = threading.Event()
    real = match.hint_for

    def slow_hint(view: Any, seed: int, budget: float) -> dict[str, Any]:
        searched.append(len(view.hand))
        release.wait(20)  # bounded: each test lets it go as soon as its asks and moves are in
        return real(view, seed, 0.2)

    monkeypatch.setattr(match, "hint_for", slow_hint)
    return searched, release


@contextlib.contextmanager
def _seat_to_move(tmp_path: Path) -> Iterator[Any]:
    """The socket of the player to move at a fresh two-player table (with a turn clock, so hints are on)."""
    with TestClient(create_app(make_settings(tmp_path), seed_source=fixed_seeds(7))) as client:
        table_id, ann, bob = two_player_table(client, turn_clock=30)
        with (
            client.websocket_connect(_ws(table_id, ann)) as ws_ann,
            client.websocket_connect(_ws(table_id, bob)) as ws_bob,
        ):
            first = receive(ws_ann, "state")
            receive(ws_bob, "state")
            yield ws_ann if first["view"]["to_move"] == 0 else ws_bob


def test_hints_are_found_beside_the_socket_and_once_per_version(tmp_path: Path, monkeypatch: Any) -> None:
    """Hints asked again and again never hold up the seat's move; one search answers every ask of a version."""
    searched, release = _held_hints(monkeypatch)
    with _seat_to_move(tmp_path) as ws:
        try:
            for _ in range(5):
                ws.send_json({"type": "hint"})
            act(ws, 0, {"draw": "stock"})
            # The move is played while the search still runs: its state comes first.
            moved, before = _until(ws, "state", version=1)
            assert all(m["type"] not in ("hint", "error") for m in before), before
        finally:
            release.set()
        # Every ask is answered, each by the hint of version 0 (the client drops it: it shows version 1).
        hints = [_until(ws, "hint")[0] for _ in range(5)]
        assert {h["version"] for h in hints} == {0}
        assert all(h == hints[0] for h in hints)
        assert searched == [13]  # one search for the five asks
        # On the new position: one new search, then the same hint again at once.
        ws.send_json({"type": "hint"})
        fresh = _until(ws, "hint")[0]
        assert fresh["version"] == moved["version"] == 1
        assert fresh["action"] in moved["view"]["legal"]
        ws.send_json({"type": "hint"})
        assert _until(ws, "hint")[0] == fresh
        assert searched == [13, 14]


def test_a_hint_asked_while_an_older_search_runs_waits_for_it_and_is_searched_once(tmp_path: Path, monkeypatch: Any) -> None:
    """One search at a time per seat: asks at the new position wait for the old search, then share one."""
    searched, release = _held_hints(monkeypatch)
    with _seat_to_move(tmp_path) as ws:
        try:
            ws.send_json({"type": "hint"})
            act(ws, 0, {"draw": "stock"})
            _until(ws, "state", version=1)
            ws.send_json({"type": "hint"})  # version 1, while version 0's search runs
            ws.send_json({"type": "hint"})
        finally:
            release.set()
        hints = [_until(ws, "hint")[0] for _ in range(3)]
        assert [h["version"] for h in hints] == [0, 1, 1]
        assert hints[1] == hints[2]
        assert searched == [13, 14]  # the two later asks shared one search, after the first


# ------------------------------------------------------------- rate limit
def test_oversized_frames_count_against_the_rate_limit(tmp_path: Path) -> None:
    """A flood of frames over 16 KiB gets ``rate_limited`` once, not one ``bad_message`` per frame."""
    settings = make_settings(tmp_path, ws_rate_per_second=0.001, ws_rate_burst=3)
    with TestClient(create_app(settings, seed_source=fixed_seeds())) as client:
        table_id, ann, _bob = two_player_table(client)
        with client.websocket_connect(_ws(table_id, ann)) as ws:
            receive(ws, "state")
            big = "x" * 17_000
            for _ in range(20):
                ws.send_text(big)
            ws.send_json({"type": "sync"})  # over the rate too: no answer
            codes = [ws.receive_json()["code"] for _ in range(4)]
            assert codes == ["bad_message"] * 3 + ["rate_limited"]


# ------------------------------------------------------------- REST errors
@pytest.mark.parametrize(
    "body",
    [
        b'{"name":"\xff\xfe"}',  # not UTF-8
        b'{"name":"Ann","rules":' + b"[" * 20_000 + b"]" * 20_000 + b"}",  # nested too deep
        b'{"name":"Ann","seats":' + b"9" * 5_000 + b"}",  # a number too long
    ],
    ids=["not-utf8", "deep", "long-number"],
)
def test_unreadable_bodies_are_a_422_bad_request(client: TestClient, body: bytes) -> None:
    res = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert res.status_code == 422
    detail = res.json()["detail"]
    assert detail["code"] == "bad_request" and detail["message"] and detail["problems"]


def test_unknown_routes_and_methods_answer_the_documented_shape(client: TestClient) -> None:
    table_id = create_table(client)["table_id"]
    for path in ("/api/nothing-here", "/nothing-here", "/static/no-such-file.js"):
        res = client.get(path)
        assert res.status_code == 404, path
        assert res.json()["detail"]["code"] == "not_found" and res.json()["detail"]["message"], path
    res = client.delete(f"/api/tables/{table_id}")
    assert res.status_code == 405
    assert res.json()["detail"]["code"] == "method_not_allowed" and res.json()["detail"]["message"]
    assert "GET" in res.headers["allow"]
    # The routes' own errors keep their codes (and headers).
    assert client.get("/api/tables/no-such-table").json()["detail"]["code"] == "no_table"
    refused = client.post(f"/api/tables/{table_id}/start")
    assert refused.status_code == 401 and refused.json()["detail"]["code"] == "bad_token"
    assert refused.headers["www-authenticate"] == "Bearer"


# ------------------------------------------------------------- empty token
def test_an_empty_token_is_a_bad_token(client: TestClient) -> None:
    made = create_table(client)
    running, _ann, _bob = two_player_table(client)
    for table_id in (made["table_id"], running):  # in the lobby and in play
        with client.websocket_connect(_ws(table_id, "")) as ws:
            assert ws.receive_json()["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401


# --------------------------------------------------------- ready and hints
def _answer(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` then a ``sync``: the answer to ``message`` (if any) comes before the sync's state."""
    ws.send_json(message)
    ws.send_json({"type": "sync"})
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("error", "state"):
            return msg


def test_ready_without_a_round_summary_and_on_a_finished_game_is_answered(client: TestClient) -> None:
    table_id, ann, _bob = two_player_table(client)
    with client.websocket_connect(_ws(table_id, ann)) as ws:
        first = receive(ws, "state")
        err = _answer(ws, {"type": "ready"})  # mid-turn: no summary holds the table
        assert err["type"] == "error", err
        assert err["code"] == "nothing_to_ready" and err["version"] == first["version"]
        assert receive(ws, "state")["version"] == first["version"]
    made = create_table(client, seats=2, rules={"rounds": 1}, bots={"1": "random"})
    start(client, made["table_id"], made["token"])
    with client.websocket_connect(_ws(made["table_id"], made["token"])) as ws:
        final = TableDriver({0: ws}, seed=3).play()
        assert final["table"]["status"] == "finished"
        for kind in ("ready", "hint"):
            err = _answer(ws, {"type": kind})
            assert err["type"] == "error", (kind, err)
            assert err["code"] == "not_running" and err["version"] == final["version"], kind
            assert receive(ws, "state")["version"] == final["version"]


# ------------------------------------------------------------ table object
def test_the_table_of_socket_messages_is_the_rest_table(client: TestClient) -> None:
    table_id, ann, bob = two_player_table(client)
    with client.websocket_connect(_ws(table_id, ann)) as ws_ann:
        receive(ws_ann, "state")
        with client.websocket_connect(_ws(table_id, bob)) as ws_bob:
            state = receive(ws_bob, "state")
            table_msg = receive(ws_ann, "table", where=lambda m: m["table"]["seats"][1]["connected"])
            rest = client.get(f"/api/tables/{table_id}").json()
            for table in (state["table"], table_msg["table"]):
                assert set(table) == set(rest)
                assert table["invite_path"] == rest["invite_path"] == f"/t/{table_id}"
                assert table["created"] == rest["created"] and rest["created"] is not None
            assert table_msg["table"] == rest
