"""The table websocket: own views only, the chain of checks, garbage, chat, reconnecting."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .helpers import act, create_table, join, receive, start, two_player_table, ws_path


def test_two_seats_and_a_spectator_each_see_only_their_own_view(client: TestClient) -> None:
    table_id, ann, bob = two_player_table(client)
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
        client.websocket_connect(ws_path(table_id)) as ws_spec,
    ):
        s_ann = receive(ws_ann, "state")
        s_bob = receive(ws_bob, "state")
        s_spec = receive(ws_spec, "state")
        assert s_ann["version"] == s_bob["version"] == s_spec["version"] == 0
        assert s_ann["view"]["seat"] == 0 and s_bob["view"]["seat"] == 1
        assert s_spec["view"]["seat"] is None and s_spec["view"]["hand"] is None
        ann_hand, bob_hand = s_ann["view"]["hand"], s_bob["view"]["hand"]
        assert len(ann_hand) == len(bob_hand) == 13
        assert not set(ann_hand) & set(bob_hand)
        # Nobody's message names a card of the other hand (one pack: cards are unique).
        for msg, hidden in ((s_ann, bob_hand), (s_bob, ann_hand), (s_spec, ann_hand + bob_hand)):
            text = str({k: v for k, v in msg.items() if k != "table"})
            assert not [c for c in hidden if f"'{c}'" in text]
        # Only the seat to move has legal actions; the spectator has none.
        mover = s_ann["view"]["to_move"]
        views = {0: s_ann["view"], 1: s_bob["view"]}
        assert views[mover]["legal"] and not views[1 - mover]["legal"]
        assert s_spec["view"]["legal"] == []
        # An action reaches everyone as version 1, each in their own view.
        ws_mover = ws_ann if mover == 0 else ws_bob
        act(ws_mover, 0, {"draw": "stock"})
        after = [receive(w, "state", version=1) for w in (ws_ann, ws_bob, ws_spec)]
        assert [m["view"]["seat"] for m in after] == [0, 1, None]
        assert after[mover]["view"]["phase"] == "play"
        assert len(after[mover]["view"]["hand"]) == 14
        assert after[1 - mover]["view"]["hand"] == views[1 - mover]["hand"]
        assert after[2]["log"][-1]["action"] == {"draw": "stock"}
        assert after[2]["log"][-1]["name"] == ["Ann", "Bob"][mover]


def test_stale_version_is_refused_and_followed_by_the_current_state(client: TestClient) -> None:
    table_id, ann, bob = two_player_table(client)
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
    ):
        first = receive(ws_ann, "state")
        receive(ws_bob, "state")
        mover = first["view"]["to_move"]
        ws = ws_ann if mover == 0 else ws_bob
        act(ws, 0, {"draw": "stock"})
        state = receive(ws, "state", version=1)
        discard = state["view"]["hand"][0]
        act(ws, 0, {"discard": discard})  # chosen on version 0: stale
        err = receive(ws, "error")
        assert err["code"] == "stale_version" and err["version"] == 1
        again = receive(ws, "state")
        assert again["version"] == 1
        act(ws, 1, {"discard": discard})
        assert receive(ws, "state", version=2)["view"]["discard"][-1] == discard


def test_wrong_tokens_are_refused(client: TestClient) -> None:
    table_id, ann, _bob = two_player_table(client)
    other = create_table(client)
    for token in ("not-a-token", other["token"]):
        with client.websocket_connect(ws_path(table_id, token)) as ws:
            err = ws.receive_json()
            assert err == {
                "type": "error",
                "code": "bad_token",
                "message": "this token has no seat here",
                "version": None,
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
    with client.websocket_connect(ws_path("no-such-table", ann)) as ws:
        assert ws.receive_json()["code"] == "no_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_token_acts_only_for_its_seat(client: TestClient) -> None:
    table_id, ann, bob = two_player_table(client)
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
        client.websocket_connect(ws_path(table_id)) as ws_spec,
    ):
        state = receive(ws_ann, "state")
        receive(ws_spec, "state")
        mover = state["view"]["to_move"]
        waiting = ws_bob if mover == 0 else ws_ann
        receive(waiting, "state")
        act(waiting, 0, {"draw": "stock"})
        assert receive(waiting, "error")["code"] == "not_your_turn"
        act(ws_spec, 0, {"draw": "stock"})
        assert receive(ws_spec, "error")["code"] == "not_seated"
        ws_spec.send_json({"type": "chat", "text": "hi"})
        assert receive(ws_spec, "error")["code"] == "not_seated"
        # Nothing changed: a sync still shows version 0.
        waiting.send_json({"type": "sync"})
        assert receive(waiting, "state")["version"] == 0


GARBAGE = [
    "not json",
    "[]",
    "{}",
    '{"type": "action"}',
    '{"type": "action", "version": 0, "action": {"draw": "stock"}, "extra": 1}',
    '{"type": "action", "version": "zero", "action": {"draw": "stock"}}',
    '{"type": "action", "version": "0", "action": {"draw": "stock"}}',
    '{"type": "action", "version": false, "action": {"draw": "stock"}}',
    '{"type": "action", "version": 0, "action": {"fly": "away"}}',
    '{"type": "action", "version": 0, "action": {"meld": ["ZZ", "1X"]}}',
    '{"type": "action", "version": 0, "action": {"p": 1, "draw": "stock"}}',
    '{"type": "action", "version": 0, "action": {"reshuffle": ["AS"]}}',
    '{"type": "action", "version": 0, "action": "draw"}',
    '{"type": "chat", "text": 5}',
    '{"type": "chat", "text": "\\u0000\\u0007"}',
    '{"type": "nope"}',
    "x" * 20000,
    "\u00ff" * 10,
    '{"type": "chat", "text": "' + "a" * 20000 + '"}',
]


def test_garbage_is_refused_without_closing_the_socket_or_the_game(client: TestClient) -> None:
    table_id, ann, bob = two_player_table(client)
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
    ):
        state = receive(ws_ann, "state")
        receive(ws_bob, "state")
        mover = state["view"]["to_move"]
        ws = ws_ann if mover == 0 else ws_bob
        for junk in GARBAGE:
            ws.send_text(junk)
            err = receive(ws, "error")
            assert err["code"] == "bad_message", (junk[:60], err)
        ws.send_bytes(b"\x00\x01binary")
        assert receive(ws, "error")["code"] == "bad_message"
        # An illegal but well-formed action: the engine's reason comes back.
        act(ws, 0, {"discard": state["view"]["discard"][-1]})
        err = receive(ws, "error")
        assert err["code"] in ("illegal_action", "not_your_turn") and err["message"]
        # The socket and the game carry on.
        act(ws, 0, {"draw": "stock"})
        assert receive(ws, "state", version=1)["version"] == 1


def test_rate_limit(tmp_path) -> None:
    from rummy500.server.app import create_app

    from .helpers import fixed_seeds, make_settings

    settings = make_settings(tmp_path, ws_rate_per_second=0.001, ws_rate_burst=3)
    with TestClient(create_app(settings, seed_source=fixed_seeds())) as client:
        table_id, ann, _bob = two_player_table(client)
        with client.websocket_connect(ws_path(table_id, ann)) as ws:
            receive(ws, "state")
            for _ in range(10):
                ws.send_json({"type": "sync"})
            for _ in range(3):
                receive(ws, "state")
            assert receive(ws, "error")["code"] == "rate_limited"


def test_chat_reaches_the_table_as_plain_text(client: TestClient) -> None:
    table_id, ann, bob = two_player_table(client)
    with (
        client.websocket_connect(ws_path(table_id, ann)) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob)) as ws_bob,
        client.websocket_connect(ws_path(table_id)) as ws_spec,
    ):
        for ws in (ws_ann, ws_bob, ws_spec):
            receive(ws, "state")  # registered at the table
        ws_ann.send_json({"type": "chat", "text": "good\u0007 luck <b>Bob</b>"})
        for ws in (ws_ann, ws_bob, ws_spec):
            msg = receive(ws, "chat")
            assert msg == {"type": "chat", "seat": 0, "from": "Ann", "text": "good luck <b>Bob</b>"}


def _seat_connected(seat: int, connected: bool):
    return lambda msg: msg["table"]["seats"][seat]["connected"] is connected


def test_reconnecting_returns_to_the_same_seat_with_the_full_view(client: TestClient) -> None:
    table_id, ann, bob = two_player_table(client)
    with client.websocket_connect(ws_path(table_id, ann)) as ws_ann:
        first = receive(ws_ann, "state")
        mover = first["view"]["to_move"]
        with client.websocket_connect(ws_path(table_id, bob)) as ws_bob:
            receive(ws_bob, "state")
            receive(ws_ann, "table", _seat_connected(1, True))
            ws = ws_ann if mover == 0 else ws_bob
            act(ws, 0, {"draw": "stock"})
            receive(ws_ann, "state", version=1)
        receive(ws_ann, "table", _seat_connected(1, False))  # Bob dropped
        with client.websocket_connect(ws_path(table_id, bob)) as ws_bob:
            back = receive(ws_bob, "state")
            assert back["version"] == 1 and back["view"]["seat"] == 1
            assert len(back["view"]["hand"]) == (14 if mover == 1 else 13)
            receive(ws_ann, "table", _seat_connected(1, True))


def test_lobby_watchers_see_joins_and_the_start(client: TestClient) -> None:
    made = create_table(client, seats=3)
    table_id = made["table_id"]
    with client.websocket_connect(ws_path(table_id, made["token"])) as ws:
        lobby = receive(ws, "table")
        assert lobby["table"]["status"] == "lobby"
        ws.send_json({"type": "action", "version": 0, "action": {"draw": "stock"}})
        assert receive(ws, "error")["code"] == "not_running"
        client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
        joined = receive(ws, "table")
        while joined["table"]["seats"][1]["name"] != "Bob":
            joined = receive(ws, "table")
        client.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {made['token']}"})
        state = receive(ws, "state")
        assert state["view"]["seat"] == 0 and state["table"]["status"] == "running"
        assert state["table"]["seats"][0]["connected"] is True


def test_every_message_matches_the_protocol_models(client: TestClient) -> None:
    from rummy500.server.protocol import ChatMessage, ErrorMessage, StateMessage, TableMessage

    from .helpers import TableDriver

    made = create_table(client, seats=3, rules={"target": 100}, bots={"2": "random"})
    table_id = made["table_id"]
    with client.websocket_connect(ws_path(table_id, made["token"])) as ws:
        assert TableMessage.model_validate(receive(ws, "table")).table.status == "lobby"
        client.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {made['token']}"})
        driver = TableDriver({0: ws}, seed=3)
        driver.play(max_actions=12)
        ws.send_json({"type": "chat", "text": "hello"})
        ws.send_text("{}")
        driver.received[0].append(receive(ws, "chat"))
        driver.received[0].append(receive(ws, "error"))
    models = {"state": StateMessage, "table": TableMessage, "error": ErrorMessage, "chat": ChatMessage}
    kinds = set()
    for message in driver.received[0]:
        models[message["type"]].model_validate(message)
        kinds.add(message["type"])
    assert kinds == {"state", "table", "chat", "error"}


def test_chat_survives_the_game_being_forgotten_while_nobody_watched(client: TestClient) -> None:
    """A reload whose old socket closes first lets the server forget the idle game: its chat comes back with it."""
    import time

    table_id, ann, _bob = two_player_table(client)
    with client.websocket_connect(ws_path(table_id, ann)) as ws_ann:
        receive(ws_ann, "state")
        ws_ann.send_json({"type": "chat", "text": "back in a minute"})
        receive(ws_ann, "chat")
    manager = client.app.state.manager
    deadline = time.monotonic() + 10
    while table_id in manager.sessions and time.monotonic() < deadline:
        manager.release(table_id)  # what the last socket's closing does (once the server has counted it gone)
        time.sleep(0.02)
    assert table_id not in manager.sessions  # forgotten: nobody watches and nothing can happen
    with client.websocket_connect(ws_path(table_id, ann)) as ws_ann:
        receive(ws_ann, "state")  # rebuilt from the record
        said = [{"type": "chat", "seat": 0, "from": "Ann", "text": "back in a minute"}]
        assert manager.sessions[table_id].chat_history() == said
        assert receive(ws_ann, "chat_history")["messages"] == said


def test_people_waiting_for_the_start_can_talk_and_the_game_keeps_what_they_said(client: TestClient) -> None:
    made = create_table(client, seats=3)
    table_id = made["table_id"]
    bob = join(client, table_id, "Bob")
    with (
        client.websocket_connect(ws_path(table_id, made["token"])) as ws_ann,
        client.websocket_connect(ws_path(table_id, bob["token"])) as ws_bob,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws_watcher,
    ):
        for ws in (ws_ann, ws_bob, ws_watcher):
            receive(ws, "table")
        ws_ann.send_json({"type": "chat", "text": "waiting for Cy?"})
        for ws in (ws_ann, ws_bob, ws_watcher):
            assert receive(ws, "chat") == {"type": "chat", "seat": 0, "from": "Ann", "text": "waiting for Cy?"}
        ws_watcher.send_json({"type": "chat", "text": "hello"})
        assert receive(ws_watcher, "error")["code"] == "not_seated"
        ws_bob.send_json({"type": "chat", "text": "   "})
        assert receive(ws_bob, "error")["code"] == "bad_message"
        ws_bob.send_json({"type": "chat", "text": "no, let a bot play"})
        receive(ws_ann, "chat", text="no, let a bot play")
    said = [
        {"type": "chat", "seat": 0, "from": "Ann", "text": "waiting for Cy?"},
        {"type": "chat", "seat": 1, "from": "Bob", "text": "no, let a bot play"},
    ]
    # A page that opens in the waiting room reads what was said there ...
    with client.websocket_connect(ws_path(table_id, bob["token"])) as ws_bob:
        receive(ws_bob, "table")
        assert receive(ws_bob, "chat_history")["messages"] == said
    start(client, table_id, made["token"])
    # ... and the game keeps it.
    with client.websocket_connect(ws_path(table_id, made["token"])) as ws_ann:
        receive(ws_ann, "state")
        assert receive(ws_ann, "chat_history")["messages"] == said
        ws_ann.send_json({"type": "chat", "text": "good luck"})
        receive(ws_ann, "chat", text="good luck")
        assert client.app.state.manager.sessions[table_id].chat_history() == [
            *said,
            {"type": "chat", "seat": 0, "from": "Ann", "text": "good luck"},
        ]
