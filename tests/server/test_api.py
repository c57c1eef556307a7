"""The lobby's REST API: rules catalogue, creating, joining, starting, listing, pages."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .helpers import create_table, join, start


def test_rules_catalogue_lists_every_option_with_a_description(client: TestClient) -> None:
    data = client.get("/api/rules").json()
    names = {o["name"] for o in data["options"]}
    assert {"calling_rummy", "target", "players", "dealers_gambit"} <= names
    assert all(o["description"] for o in data["options"])
    presets = {p["name"]: p for p in data["presets"]}
    assert presets["popular"]["options"] == {"calling_rummy": "pile"}
    # Each preset is named in a player's words for the lobby's list.
    assert presets["dealers_gambit"]["label"] == "Dealer's Gambit" and presets["persian"]["label"] == "Persian Rummy"
    assert all(p["label"] and "_" not in p["label"] for p in presets.values())
    assert data["bot_levels"]


def test_the_rules_endpoint_gives_every_value_a_label_and_a_description(client: TestClient) -> None:
    options = {o["name"]: o for o in client.get("/api/rules").json()["options"]}
    assert options["hand_size"]["choices"] == [
        {"value": "auto", "label": "Automatic", "description": "13 cards each for 2 players, 7 for 3 or more"}
    ]
    assert options["hand_size"]["number"] == {"min": 7, "max": 13, "label": "Cards each", "description": "deal this many cards to each player"}
    assert [c["value"] for c in options["jokers"]["choices"]] == ["auto", 0, 1, 2, 4]
    assert [c["value"] for c in options["stock_out_penalty"]["choices"]] == [True, False]
    assert options["players"]["number"]["min"] == 2 and options["players"]["number"]["max"] == 8
    assert options["decks"]["default"] == "auto" and options["rounds"]["default"] == "to_target"
    for o in options.values():
        for c in o["choices"]:
            assert c["label"] and c["description"], (o["name"], c)


def test_create_table_gives_seat_zero_a_token_and_an_invite_link(client: TestClient) -> None:
    made = create_table(client, name="Ann", seats=3, preset="popular", title="Friday")
    assert made["seat"] == 0
    assert len(made["token"]) >= 24 and len(made["table_id"]) >= 16
    assert made["invite_url"].endswith(f"/t/{made['table_id']}")
    info = client.get(f"/api/tables/{made['table_id']}").json()
    assert info["status"] == "lobby"
    assert info["title"] == "Friday"
    assert info["rules"]["calling_rummy"] == "pile" and info["rules"]["players"] == 3
    assert [s["kind"] for s in info["seats"]] == ["human", "open", "open"]
    assert made["token"] not in str(info)


def test_table_ids_are_unguessable_and_distinct(client: TestClient) -> None:
    ids = {create_table(client)["table_id"] for _ in range(5)}
    assert len(ids) == 5
    assert client.get("/api/tables/0").status_code == 404


def test_bad_rules_are_refused_with_every_problem(client: TestClient) -> None:
    res = client.post(
        "/api/tables",
        json={"name": "Ann", "seats": 2, "rules": {"target": -5, "no_such_option": 1}},
    )
    assert res.status_code == 422
    detail = res.json()["detail"]
    assert detail["code"] == "bad_rules"
    assert len(detail["problems"]) == 2


def test_an_opening_minimum_past_the_servers_limit_is_refused_and_the_editor_knows_the_limit(client: TestClient) -> None:
    """The engine plays any first_meld_min; this server hosts up to 150 (higher makes each turn slow to work out)."""
    res = client.post("/api/tables", json={"name": "Ann", "seats": 2, "rules": {"first_meld_min": 300}})
    assert res.status_code == 422
    detail = res.json()["detail"]
    assert detail["code"] == "bad_rules"
    assert detail["problems"] == ["first_meld_min: at most 150 at this server (got 300): a larger minimum makes each turn slow to work out"]
    made = client.post("/api/tables", json={"name": "Ann", "seats": 2, "rules": {"first_meld_min": 150}})
    assert made.status_code == 201
    assert client.get(f"/api/tables/{made.json()['table_id']}").json()["rules"]["first_meld_min"] == 150
    option = next(o for o in client.get("/api/rules").json()["options"] if o["name"] == "first_meld_min")
    assert option["number"]["max"] == 150


def test_bad_requests_are_refused(client: TestClient) -> None:
    assert client.post("/api/tables", json={"name": "Ann", "seats": 9}).status_code == 422
    assert client.post("/api/tables", json={"name": "", "seats": 2}).status_code == 422
    assert client.post("/api/tables", json={"name": "A", "extra": 1}).status_code == 422
    res = client.post("/api/tables", json={"name": "A", "seats": 2, "bots": {"0": "random"}})
    assert res.status_code == 422 and res.json()["detail"]["code"] == "bad_bots"
    res = client.post("/api/tables", json={"name": "A", "seats": 2, "bots": {"1": "genius?"}})
    assert res.status_code == 422 and res.json()["detail"]["code"] == "bad_bots"


def test_join_fills_open_seats_then_refuses(client: TestClient) -> None:
    made = create_table(client, seats=3, bots={"2": "random"})
    bob = join(client, made["table_id"], "Bob")
    assert bob["seat"] == 1 and bob["token"] != made["token"]
    res = client.post(f"/api/tables/{made['table_id']}/join", json={"name": "Cy"})
    assert res.status_code == 409 and res.json()["detail"]["code"] == "cannot_join"
    res = client.post("/api/tables/nope/join", json={"name": "Cy"})
    assert res.status_code == 404


def test_only_the_creator_can_start(client: TestClient) -> None:
    made = create_table(client, seats=3)
    bob = join(client, made["table_id"], "Bob")
    url = f"/api/tables/{made['table_id']}/start"
    assert client.post(url).status_code == 401
    assert client.post(url, headers={"Authorization": "Basic xyz"}).status_code == 401
    res = client.post(url, headers={"Authorization": f"Bearer {bob['token']}"})
    assert res.status_code == 403
    res = client.post(url, headers={"Authorization": "Bearer not-a-token"})
    assert res.status_code == 403
    info = start(client, made["table_id"], made["token"])
    assert info["status"] == "running"
    # The open seat became a bot.
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
    res = client.post(url, headers={"Authorization": f"Bearer {made['token']}"})
    assert res.status_code == 409
    res = client.post(f"/api/tables/{made['table_id']}/join", json={"name": "Late"})
    assert res.status_code == 409


def test_record_and_replay_are_hidden_until_the_game_is_over(client: TestClient) -> None:
    made = create_table(client)
    join(client, made["table_id"], "Bob")
    start(client, made["table_id"], made["token"])
    gid = made["table_id"]
    for path in (f"/api/games/{gid}/record", f"/api/games/{gid}/replay/0", f"/api/games/{gid}/seed"):
        res = client.get(path)
        assert res.status_code == 409, path
        assert res.json()["detail"]["code"] == "not_finished"
    assert client.get("/api/games/nope/record").status_code == 404
    # Only finished games are listed: a table's id is its invitation.
    assert client.get("/api/games").json() == []
    assert client.get("/api/games", params={"status": "finished"}).json() == []
    for status in ("running", "lobby", "bogus"):
        assert client.get("/api/games", params={"status": status}).status_code == 422


def test_pages_serve_the_client(client: TestClient) -> None:
    home = client.get("/")
    assert home.status_code == 200 and "<html" in home.text.lower()
    invite = client.get("/t/some-table-id")
    assert invite.status_code == 200 and invite.text == home.text
    assert client.get("/api/rules").headers["cache-control"] == "no-store"
    assert client.get("/nope").status_code == 404
    script = client.get("/static/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/static/../config.py").status_code == 404
