"""Away players: a bot plays their seat after the grace period, until they come back."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from rummy500.server.app import create_app

from .helpers import (
    TableDriver,
    act,
    create_table,
    fixed_seeds,
    join,
    make_settings,
    receive,
    start,
)


def _ws(table_id: str, token: str) -> str:
    return f"/ws/tables/{table_id}?token={token}"


def test_a_bot_stands_in_for_an_away_player_until_they_return(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, grace_seconds=0.3)
    with TestClient(create_app(settings, seed_source=fixed_seeds(21))) as client:
        made = create_table(client, seats=2, rules={"target": 200})
        table_id = made["table_id"]
        bob = join(client, table_id, "Bob")
        start(client, table_id, made["token"])
        with client.websocket_connect(_ws(table_id, made["token"])) as ws0:
            # Bob never connected: after the grace period his turns are played.
            driver = TableDriver({0: ws0}, seed=2)
            state = driver.play(max_actions=4)
            autoplayed = [
                e
                for m in driver.received[0]
                if m["type"] == "state"
                for e in m["log"]
                if e.get("seat") == 1 and e["kind"] == "action"
            ]
            assert autoplayed and all(e["auto"] for e in autoplayed)
            tables = [m["table"] for m in driver.received[0] if m["type"] == "table"]
            assert any(t["seats"][1]["autoplay"] for t in tables)
            assert state["view"]["to_move"] == 0
            with client.websocket_connect(_ws(table_id, bob["token"])) as ws1:
                back = receive(ws1, "state")
                assert back["version"] == state["version"]
                assert back["table"]["seats"][1]["autoplay"] is False
                # Ann plays her whole turn; then Bob is to move and nobody plays for him.
                driver.add(1, ws1, back)
                version = state["version"]
                while True:
                    mine = driver.catch_up(version)[0]
                    if mine["view"]["to_move"] != 0:
                        break
                    act(ws0, version, mine["view"]["legal"][-1])
                    version += 1
                time.sleep(0.8)
                ws1.send_json({"type": "sync"})
                still = receive(ws1, "state", version=version)
                assert still["version"] == version and still["view"]["to_move"] == 1
                assert still["view"]["legal"]


def test_a_table_everybody_left_waits_for_them(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, grace_seconds=0.1)
    with TestClient(create_app(settings, seed_source=fixed_seeds(5))) as client:
        made = create_table(client, seats=2)
        table_id = made["table_id"]
        join(client, table_id, "Bob")
        start(client, table_id, made["token"])
        time.sleep(0.5)
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["version"] == 0
        assert not any(s["autoplay"] for s in info["seats"])
