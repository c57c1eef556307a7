"""Finished games: the list, the record, the seed and stepping through the replay."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rummy500.record import match_from_record
from rummy500.server.engine import LiveGame, parse_action, parse_rules

from .helpers import TableDriver, create_table, receive, start


def test_a_finished_game_can_be_listed_downloaded_and_stepped_through(client: TestClient) -> None:
    made = create_table(client, seats=2, rules={"target": 100}, bots={"1": "random"}, public=True)
    table_id = made["table_id"]
    start(client, table_id, made["token"])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ws:
        final = TableDriver({0: ws}, seed=9).play()
    steps = final["version"]
    assert final["view"]["phase"] in ("round_over", "game_over")
    # A private table (the default), finished later: never listed, yet its own link replays it.
    private = create_table(client, seats=2, rules={"target": 60}, bots={"1": "random"})
    start(client, private["table_id"], private["token"])
    with client.websocket_connect(f"/ws/tables/{private['table_id']}?token={private['token']}") as ws:
        TableDriver({0: ws}, seed=4).play()
    assert client.get(f"/api/games/{private['table_id']}/replay/0").status_code == 200

    games = client.get("/api/games", params={"status": "finished"}).json()
    assert len(games) == 1 and games[0]["id"] == table_id
    assert games[0]["winner"] in (0, 1) and len(games[0]["totals"]) == 2
    assert games[0]["actions"] == steps

    record = client.get(f"/api/games/{table_id}/record").json()
    assert record["players"] == ["Ann", "Bot 2"]
    match = match_from_record(record)
    assert match.is_over and list(match.totals) == games[0]["totals"]

    seed = int(client.get(f"/api/games/{table_id}/seed").json()["seed"])
    dealt = LiveGame(parse_rules(record["rules"], 2), record["players"], seed)
    assert dealt.record()["rounds"][0]["deal"] == record["rounds"][0]["deal"]

    first = client.get(f"/api/games/{table_id}/replay/0").json()
    assert first["step"] == 0 and first["steps"] == steps and first["action"] is None
    assert first["view"]["seat"] is None and first["view"]["hand"] is None
    assert sorted(first["hands"][0]) == sorted(record["rounds"][0]["deal"]["hands"][0])
    one = client.get(f"/api/games/{table_id}/replay/1").json()
    assert one["action"]["version"] == 1 and one["action"]["name"] in ("Ann", "Bot 2")
    last = client.get(f"/api/games/{table_id}/replay/{steps}").json()
    assert last["view"]["scores"] == games[0]["totals"]
    # The last step says how the game ended; no other step does.
    assert last["game_over"] == {"totals": games[0]["totals"], "winner": games[0]["winner"]}
    assert first["game_over"] is None and one["game_over"] is None
    # The end of each round is a step of its own: the round's summary, before the next deal.
    game = LiveGame(parse_rules(record["rules"], 2), record["players"], seed)
    ends = []
    for item in client.app.state.manager.storage.actions(table_id):
        if any(e["kind"] == "round_over" for e in game.apply(item.seat, parse_action(item.action))):
            ends.append(item.seq + 1)
    assert ends and ends[-1] == steps
    # Every step names them, so a viewer can jump to a round's start or its end.
    assert first["round_ends"] == last["round_ends"] == ends
    assert len(ends) == len(record["rounds"])
    end = client.get(f"/api/games/{table_id}/replay/{ends[0]}").json()
    assert end["round"] == 0 and end["round_over"]["round"] == 0
    assert all(x["round_score"] == x["melded"] - x["in_hand"] for x in end["round_over"]["seats"])
    if len(ends) > 1:
        after = client.get(f"/api/games/{table_id}/replay/{ends[0] + 1}").json()
        assert after["round"] == 1 and after["round_over"] is None
    assert client.get(f"/api/games/{table_id}/replay/{steps + 1}").status_code == 404
    assert client.get(f"/api/games/{table_id}/replay/-1").status_code == 404


def test_a_finished_table_still_opens_on_its_final_position(client: TestClient) -> None:
    made = create_table(client, seats=2, rules={"target": 60}, bots={"1": "random"})
    table_id = made["table_id"]
    start(client, table_id, made["token"])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ws:
        final = TableDriver({0: ws}, seed=4).play()
    manager = client.app.state.manager
    assert table_id not in manager.sessions  # released once nobody watches
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        again = ws.receive_json()
        assert again["type"] == "state" and again["version"] == final["version"]
        assert again["table"]["status"] == "finished"
        assert again["view"]["final_hands"] is not None
        ws.send_json({"type": "action", "version": final["version"], "action": {"draw": "stock"}})
        assert receive(ws, "error")["code"] == "not_seated"
    with client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "version": final["version"], "action": {"draw": "stock"}})
        assert receive(ws, "error")["code"] == "not_running"
