"""What a table's public facts tell a client beyond its seats: the server's chat limit, and when the game ended.

``table.settings.chat_max_chars`` is the server's ``chat_max_chars`` (the
longest line it keeps), in ``GET /api/tables/{id}``, the websocket's ``table``
messages and a ``state``'s ``table``; ``table.finished`` is ``null`` until the
game is over, then the time it ended (as the games list has it).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from fastapi.testclient import TestClient

from rummy500.server.app import create_app

from .helpers import TableDriver, create_table, fixed_seeds, join, make_settings, receive, start


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_tables_facts_carry_the_servers_chat_limit(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, chat_max_chars=120), seed_source=fixed_seeds(3))
    with TestClient(app) as client:
        made = create_table(client, seats=2)
        table_id = made["table_id"]
        assert client.get(f"/api/tables/{table_id}").json()["settings"]["chat_max_chars"] == 120
        with client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ann:
            assert receive(ann, "table")["table"]["settings"]["chat_max_chars"] == 120  # the waiting room
            bob = join(client, table_id, "Bob")
            told = receive(ann, "table", where=lambda m: m["table"]["seats"][1]["name"] == "Bob")
            assert told["table"]["settings"] == {"turn_clock": 0, "hints": True, "public": False, "chat_max_chars": 120}
            start(client, table_id, made["token"])
            assert receive(ann, "state")["table"]["settings"]["chat_max_chars"] == 120
            with client.websocket_connect(f"/ws/tables/{table_id}?token={bob['token']}"):
                # Bob connecting changes the table: everyone is sent its facts, the limit among them.
                assert receive(ann, "table")["table"]["settings"]["chat_max_chars"] == 120
            ann.send_json({"type": "chat", "text": "x" * 200})
            assert receive(ann, "chat")["text"] == "x" * 120  # the limit shown is the one applied
        assert client.get(f"/api/tables/{table_id}").json()["settings"]["chat_max_chars"] == 120


def test_the_default_chat_limit_is_shown_too(client: TestClient) -> None:
    made = create_table(client)
    assert client.get(f"/api/tables/{made['table_id']}").json()["settings"]["chat_max_chars"] == 500


def test_finished_is_null_until_the_game_ends_then_when_it_did(client: TestClient) -> None:
    made = create_table(client, seats=2, bots={"1": "random"}, preset="quick", rules={"rounds": 1}, public=True)
    table_id = made["table_id"]
    url = f"/api/tables/{table_id}"
    assert client.get(url).json()["finished"] is None  # the waiting room
    start(client, table_id, made["token"])
    running = client.get(url).json()
    assert running["status"] == "running" and running["finished"] is None
    with client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ann:
        first = receive(ann, "state")
        assert first["table"]["finished"] is None  # a state's table while it is played
        driver = TableDriver({0: ann}, seed=2)
        driver.add(0, ann, first)
        final = driver.play()
    assert final["table"]["status"] == "finished"
    ended = client.get(url).json()
    assert ended["status"] == "finished" and ended["finished"] is not None
    created, finished = _when(ended["created"]), _when(ended["finished"])
    assert created <= finished and finished.tzinfo is not None
    # The last state says so as well (the session's own note of the moment, at most a moment apart).
    assert final["table"]["finished"] is not None
    assert abs((_when(final["table"]["finished"]) - finished).total_seconds()) < 5
    # The same time as the games list (both read storage).
    listed = next(g for g in client.get("/api/games").json() if g["id"] == table_id)
    assert _when(listed["finished"]) == finished
    # A page opened on the finished game is sent it in its first state.
    with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
        assert receive(watcher, "state")["table"]["finished"] is not None


def test_a_finished_game_reloaded_from_storage_keeps_when_it_ended(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, seed_source=fixed_seeds(5))) as client:
        made = create_table(client, seats=2, bots={"1": "random"}, preset="quick", rules={"rounds": 1})
        table_id = made["table_id"]
        start(client, table_id, made["token"])
        with client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ann:
            TableDriver({0: ann}, seed=4).play()
        finished = client.get(f"/api/tables/{table_id}").json()["finished"]
        assert finished is not None
    with TestClient(create_app(settings, seed_source=fixed_seeds(9))) as client:  # a restart
        assert client.get(f"/api/tables/{table_id}").json()["finished"] == finished
        with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
            assert _when(receive(watcher, "state")["table"]["finished"]) == _when(finished)
