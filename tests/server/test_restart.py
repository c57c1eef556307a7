"""Restarts: every unfinished game is rebuilt from storage and goes on; nothing acknowledged is lost."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from rummy500.record import match_from_record
from rummy500.server.app import create_app
from rummy500.server.storage import open_storage

from .helpers import TableDriver, create_table, fixed_seeds, join, make_settings, receive, start, two_player_table


def _ws(table_id: str, token: str) -> str:
    return f"/ws/tables/{table_id}?token={token}"


def test_a_game_survives_a_restart_and_finishes(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    rules = {"target": 60}
    with TestClient(create_app(settings, seed_source=fixed_seeds(11))) as client:
        made = create_table(client, seats=3, rules=rules, bots={"2": "random"}, public=True)
        table_id = made["table_id"]
        bob = join(client, table_id, "Bob")
        start(client, table_id, made["token"])
        tokens = {0: made["token"], 1: bob["token"]}
        with (
            client.websocket_connect(_ws(table_id, tokens[0])) as ws0,
            client.websocket_connect(_ws(table_id, tokens[1])) as ws1,
        ):
            driver = TableDriver({0: ws0, 1: ws1}, seed=5)
            before = driver.play(max_actions=15)
            acknowledged = before["version"]
            views_before = {s: m["view"] for s, m in driver.catch_up(acknowledged).items()}
        assert acknowledged > 15 and before["table"]["status"] == "running"
    # Everything acknowledged is in the file.
    storage = open_storage(settings.database_url())
    assert len(storage.actions(table_id)) >= acknowledged
    storage.close()

    with TestClient(create_app(settings, seed_source=fixed_seeds(99))) as client:
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "running" and info["version"] == acknowledged
        with (
            client.websocket_connect(_ws(table_id, tokens[0])) as ws0,
            client.websocket_connect(_ws(table_id, tokens[1])) as ws1,
        ):
            driver = TableDriver({0: ws0, 1: ws1}, seed=6)
            # A person was to move when the server stopped: nothing moved since.
            resumed = driver.catch_up(0)
            for seat in (0, 1):
                assert resumed[seat]["version"] == acknowledged
                assert resumed[seat]["view"] == views_before[seat]
            final = driver.play()
        assert final["table"]["status"] == "finished"
        record = client.get(f"/api/games/{table_id}/record").json()
        games = client.get("/api/games", params={"status": "finished"}).json()
        assert [g["id"] for g in games] == [table_id]
    # The record replays to the same result through the engine.
    match = match_from_record(record)
    assert match.is_over
    assert list(match.totals) == games[0]["totals"]
    assert sum(len(r["actions"]) for r in record["rounds"]) >= final["version"]


def test_each_state_is_stored_before_it_is_sent(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, seed_source=fixed_seeds(3))) as client:
        made = create_table(client, seats=2)
        bob = join(client, made["table_id"], "Bob")
        start(client, made["table_id"], made["token"])
        reader = open_storage(settings.database_url())
        with (
            client.websocket_connect(_ws(made["table_id"], made["token"])) as ws0,
            client.websocket_connect(_ws(made["table_id"], bob["token"])) as ws1,
        ):
            driver = TableDriver({0: ws0, 1: ws1}, seed=1)
            for _ in range(12):
                state = driver.play(max_actions=1)
                # Read through a separate connection the moment the state arrives.
                assert len(reader.actions(made["table_id"])) >= state["version"]
        reader.close()


def test_what_was_said_at_a_table_is_still_there_after_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, seed_source=fixed_seeds(5))) as client:
        table_id, ann, bob = two_player_table(client)
        with (
            client.websocket_connect(_ws(table_id, ann)) as ws_ann,
            client.websocket_connect(_ws(table_id, bob)) as ws_bob,
        ):
            receive(ws_ann, "state")
            receive(ws_bob, "state")
            ws_ann.send_json({"type": "chat", "text": "good luck"})
            receive(ws_bob, "chat", text="good luck")
            ws_bob.send_json({"type": "chat", "text": "you too!"})
            receive(ws_ann, "chat", text="you too!")
    said = [
        {"type": "chat", "seat": 0, "from": "Ann", "text": "good luck"},
        {"type": "chat", "seat": 1, "from": "Bob", "text": "you too!"},
    ]
    with TestClient(create_app(settings, seed_source=fixed_seeds(6))) as client:
        # A spectator (no token) gets the table's chat too: it is public there.
        for url in (_ws(table_id, bob), f"/ws/tables/{table_id}"):
            with client.websocket_connect(url) as ws:
                receive(ws, "state")
                assert receive(ws, "chat_history")["messages"] == said
