"""Away players: a bot plays their seat after the grace period, until they come back."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

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
    state_within,
    two_player_table,
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


def test_the_others_see_the_away_countdown_when_the_player_to_move_leaves_and_its_end_when_they_return(
    tmp_path: Path,
) -> None:
    # The away clock travels in `pace`, and `pace` only with states: before 8 December the person to
    # move closing their tab sent the others a `table` message ("away") and no state, so nobody saw
    # the countdown to the computer playing for them until it had played.
    settings = make_settings(tmp_path, grace_seconds=60.0)
    with TestClient(create_app(settings, seed_source=fixed_seeds(3))) as client:
        table_id, ann, bob = two_player_table(client)
        tokens = {0: ann, 1: bob}
        with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            mover = receive(spectator, "state")["view"]["to_move"]

        def clock(m: dict[str, Any]) -> dict[str, Any] | None:
            return m["pace"]["clock"]

        with client.websocket_connect(_ws(table_id, tokens[1 - mover])) as other:
            with client.websocket_connect(_ws(table_id, tokens[mover])):
                # Both here: no countdown (no turn clock at this table).
                other.send_json({"type": "sync"})
                receive(other, "state", where=lambda m: clock(m) is None)
            # The person to move closed the tab: the other sees the countdown at once.
            away = state_within(other, 5, where=lambda m: clock(m) is not None)
            assert clock(away) is not None and clock(away)["kind"] == "away", away["pace"]
            assert clock(away)["seat"] == mover and 55 < clock(away)["left"] <= 60
            assert away["view"]["to_move"] == mover
            assert away["table"]["seats"][mover]["connected"] is False
            # They come back: the countdown goes, for everyone.
            with client.websocket_connect(_ws(table_id, tokens[mover])):
                back = state_within(other, 5, where=lambda m: clock(m) is None)
                assert back["version"] == away["version"]
                assert back["table"]["seats"][mover]["connected"] is True
