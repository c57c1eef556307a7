"""The score sheet in every state message, and who owns each meld on the table."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rummy500.server.protocol import StateMessage

from .helpers import TableDriver, create_table, receive, start


def _round_overs(states: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The ``round_over`` events seen in the states' logs, by round."""
    seen: dict[int, dict[str, Any]] = {}
    for msg in states:
        for event in msg["log"]:
            if event["kind"] == "round_over":
                seen[event["round"]] = event
    return seen


def _play(client: TestClient, **body: Any) -> tuple[str, str, list[dict[str, Any]]]:
    made = create_table(client, public=True, **body)
    table_id = made["table_id"]
    start(client, table_id, made["token"])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ws:
        driver = TableDriver({0: ws}, seed=5)
        final = driver.play()
    assert final["table"]["status"] == "finished"
    states = [m for m in driver.received[0] if m["type"] == "state"]
    return table_id, made["token"], states


def test_every_state_carries_the_whole_score_sheet(client: TestClient) -> None:
    table_id, token, states = _play(client, seats=2, rules={"rounds": 3}, bots={"1": "random"})
    ends = _round_overs(states)
    assert len(ends) >= 3
    # Each state's sheet holds exactly the rounds finished by its version.
    for msg in states:
        StateMessage.model_validate(msg)
        finished = sorted(r for r, e in ends.items() if e["version"] <= msg["version"])
        assert [r["round"] for r in msg["rounds"]] == finished

    record = client.get(f"/api/games/{table_id}/record").json()
    result = client.get("/api/games").json()[0]
    # A page opened afterwards (a reload) gets every round, not only the recent log's.
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        again = receive(ws, "state")
    rounds = again["rounds"]
    assert len(rounds) == len(record["rounds"]) == len(ends)
    assert sum(1 for e in again["log"] if e["kind"] == "round_over") == 1
    for entry, rec in zip(rounds, record["rounds"], strict=True):
        event = ends[entry["round"]]
        assert entry["dealer"] == rec["dealer"]
        assert entry["went_out"] == event["went_out"]
        assert entry["round_scores"] == event["round_scores"]
        assert entry["totals"] == event["totals"]
        assert "bonus" not in entry
    assert rounds[-1]["totals"] == result["totals"] == again["view"]["scores"]
    # Running totals add up round by round.
    running = [0, 0]
    for entry in rounds:
        running = [t + s for t, s in zip(running, entry["round_scores"], strict=True)]
        assert entry["totals"] == running
    # Spectators see the same sheet.
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws, "state")["rounds"] == rounds


def test_partnership_sheet_with_final_bonus(client: TestClient) -> None:
    table_id, token, states = _play(
        client,
        seats=4,
        preset="persian",
        bots={"1": "random", "2": "random", "3": "random"},
    )
    rounds = states[-1]["rounds"]
    assert len(rounds) >= 2
    last = rounds[-1]
    bonus = last["bonus"]
    assert bonus["points"] == 50 and bonus["seat"] in (0, 1)
    before = rounds[-2]["totals"]
    expected = [t + s for t, s in zip(before, last["round_scores"], strict=True)]
    expected[bonus["seat"]] += 50
    assert last["totals"] == expected == states[-1]["view"]["scores"]
    sides = [last["totals"][0] + last["totals"][2], last["totals"][1] + last["totals"][3]]
    winner = client.get("/api/games").json()[0]["winner"]
    assert sorted(winner) == ([0, 2] if sides[0] > sides[1] else [1, 3])
    # The last round's summary names both bonuses: its numbers add up.
    summary = states[-1]["last_round"]
    assert summary["round"] == last["round"] and summary["final_bonus"] == bonus
    for row in summary["seats"]:
        assert row["bonus"] == (25 if row["seat"] == summary["went_out"] else 0)
        assert row["total"] == last["totals"][row["seat"]]
        if summary["went_out"] is not None:
            assert row["round_score"] == row["melded"] - row["in_hand"] + row["bonus"]


def test_melds_carry_the_seat_that_laid_them_down(client: TestClient) -> None:
    _, _, states = _play(client, seats=3, rules={"rounds": 2}, bots={"1": "random", "2": "random"})
    owners: dict[tuple[int, int], int] = {}
    checked_layoffs = 0
    for msg in states:
        melds = msg["view"]["melds"]
        actions = [e for e in msg["log"] if e["kind"] == "action" and e["version"] == msg["version"]]
        for meld in melds:
            assert meld["owner"] in range(3)
        # (a meld that went out ended its round: the state then shows the next deal's empty table)
        if actions and "meld" in actions[-1]["action"] and melds:
            newest = max(melds, key=lambda m: m["id"])
            assert newest["owner"] == actions[-1]["seat"]
        # The round on the table: the next one is dealt at once, unless the game is over.
        current = len(msg["rounds"]) - (msg["table"]["status"] == "finished")
        for meld in melds:
            key = (current, meld["id"])
            owners.setdefault(key, meld["owner"])
            assert meld["owner"] == owners[key], "a meld's owner never changes"
            if any(by != meld["owner"] for by in meld["laid_by"]):
                checked_layoffs += 1
    assert owners, "no meld was laid down"
    assert checked_layoffs, "no meld got a card from another seat"
