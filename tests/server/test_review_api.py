"""The review of a finished game over HTTP: players only, computed in a worker process, queued."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from rummy500.review import Budget
from rummy500.server.api.review import ReviewQueue

from .helpers import TableDriver, create_table, start


def _finished_game(client: TestClient) -> tuple[str, str, int]:
    made = create_table(client, seats=2, rules={"rounds": 1}, bots={"1": "random"})
    table_id = made["table_id"]
    start(client, table_id, made["token"])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ws:
        final = TableDriver({0: ws}, seed=3).play()
    return table_id, made["token"], final["version"]


def _poll(client: TestClient, path: str, token: str) -> dict:
    deadline = time.monotonic() + 300  # a generous bound, not a speed test
    while True:
        body = client.get(path, headers={"Authorization": f"Bearer {token}"}).json()
        if body["status"] in ("done", "failed") or time.monotonic() > deadline:
            return body
        time.sleep(0.2)


def test_players_get_the_review_of_their_finished_game(client: TestClient) -> None:
    client.app.state.review_queue = ReviewQueue(Budget(samples=2, extend=0))
    table_id, token, steps = _finished_game(client)
    path = f"/api/games/{table_id}/review"
    auth = {"Authorization": f"Bearer {token}"}
    none = {"status": "none", "ahead": 0, "done": 0, "total": 0, "review": None, "error": None}
    assert client.get(path, headers=auth).json() == none
    asked = client.post(path, headers=auth)
    assert asked.status_code == 202 and asked.json()["status"] in ("queued", "running")
    again = client.post(path, headers=auth)  # asked twice: still one review
    assert again.json()["status"] in ("queued", "running", "done")
    body = _poll(client, path, token)
    assert body["status"] == "done", body
    review = body["review"]
    assert [p["name"] for p in review["players"]] == ["Ann", "Bot 2"]
    assert review["budget"]["samples"] == 2
    assert review["decisions"], "a played round has decisions with a choice"
    for d in review["decisions"]:
        assert 1 <= d["step"] <= steps
        assert d["verdict"] in ("good", "inaccuracy", "mistake", "blunder")
        assert d["played"] in d["values"] and d["best"] in d["values"]
        assert d["hindsight"] is None
    client.app.state.review_queue.close()


def test_only_players_may_ask_for_a_review(client: TestClient) -> None:
    client.app.state.review_queue = ReviewQueue(Budget(samples=2, extend=0))
    table_id, token, _ = _finished_game(client)
    other = create_table(client, seats=2, bots={"1": "random"})
    path = f"/api/games/{table_id}/review"
    assert client.post(path).status_code == 401
    refused = client.post(path, headers={"Authorization": f"Bearer {other['token']}"})
    assert refused.status_code == 403 and refused.json()["detail"]["code"] == "bad_token"
    assert client.get(path, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.post("/api/games/nosuchgame/review", headers={"Authorization": f"Bearer {token}"}).status_code == 404
    # A game still in its lobby has no review (nor record) yet.
    lobby = f"/api/games/{other['table_id']}/review"
    assert client.post(lobby, headers={"Authorization": f"Bearer {other['token']}"}).status_code == 409
    assert client.app.state.review_queue.jobs == {}


def test_the_server_budget_is_the_default_unless_the_environment_sets_it(monkeypatch):
    from rummy500.review import DEFAULT_BUDGET
    from rummy500.server.api.review import server_budget

    monkeypatch.delenv("RUMMY500_REVIEW_SAMPLES", raising=False)
    monkeypatch.delenv("RUMMY500_REVIEW_EXTEND", raising=False)
    assert server_budget() == DEFAULT_BUDGET
    monkeypatch.setenv("RUMMY500_REVIEW_SAMPLES", "4")
    monkeypatch.setenv("RUMMY500_REVIEW_EXTEND", "63")
    assert (server_budget().samples, server_budget().extend) == (4, 63)
    # Out of range is clamped (2 to 64 guesses a batch, at most 511 further batches); garbage is ignored.
    monkeypatch.setenv("RUMMY500_REVIEW_SAMPLES", "1")
    monkeypatch.setenv("RUMMY500_REVIEW_EXTEND", "100000")
    assert (server_budget().samples, server_budget().extend) == (2, 511)
    monkeypatch.setenv("RUMMY500_REVIEW_SAMPLES", "lots")
    monkeypatch.setenv("RUMMY500_REVIEW_EXTEND", "-3")
    assert server_budget() == DEFAULT_BUDGET


def test_a_running_review_says_how_far_it_has_come() -> None:
    """The worker counts the decisions it has reviewed; the status of the running review shows the count."""
    import multiprocessing

    from rummy500 import Rules
    from rummy500.server.api import review as review_api
    from rummy500.sim.runner import play_game

    record = play_game(["random", "random"], Rules.preset_rules("standard", rounds=1), 4, keep_record=True).record
    assert record is not None
    shared = multiprocessing.get_context("spawn").Array("i", 2)
    review_api._progress = shared
    try:
        done = review_api.compute_review(record, Budget(samples=2, extend=0))
    finally:
        review_api._progress = None
    assert shared[1] > 0 and shared[0] == shared[1]  # every decision counted, the last report says all done
    assert shared[1] >= len(done["decisions"])
    queue = ReviewQueue(Budget(samples=2, extend=0))
    queue.jobs["g"] = review_api._Job(record, status="running")
    queue._progress[:] = [7, 40]
    status = queue.status("g")
    assert (status.status, status.done, status.total) == ("running", 7, 40)
    queue.jobs["g"].status = "done"
    assert (queue.status("g").done, queue.status("g").total) == (0, 0)  # the counts belong to the running review


def test_the_queue_position_counts_the_review_running_now() -> None:
    """A review queued behind one running and one queued has two ahead of it, not one."""
    from rummy500.server.api.review import _Job

    queue = ReviewQueue(Budget(samples=2, extend=0))
    queue.jobs["running"] = _Job({})
    queue.jobs["running"].status = "running"
    for gid in ("first", "second"):
        queue.jobs[gid] = _Job({})
        queue.order.append(gid)
    assert queue.status("first").ahead == 1
    assert queue.status("second").ahead == 2
    assert queue.status("running").ahead == 0
    # Nothing running: only the queued ones before it.
    queue.jobs["running"].status = "done"
    assert queue.status("second").ahead == 1
