"""Helpers of the server tests: settings on a temporary SQLite file, lobby calls, a table driver.

Games here are dealt from fixed seeds (``create_app(seed_source=...)``) so each
test plays the same cards every time; live servers draw seeds from ``secrets``.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import queue
import random
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from fastapi.testclient import TestClient

from rummy500.server.config import Settings

T = TypeVar("T")

POSTGRES_URL = os.environ.get("RUMMY500_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("RUMMY500_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def ws_path(table_id: str, token: str | None = None) -> str:
    """The websocket path of a table: a seat's with its ``token``, a spectator's without."""
    return f"/ws/tables/{table_id}" + (f"?token={token}" if token else "")


def bearer(token: str) -> dict[str, str]:
    """The header that shows a seat token."""
    return {"Authorization": f"Bearer {token}"}


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    """Test settings: a SQLite file under ``tmp_path``, instant bots, a long grace."""
    fields: dict[str, Any] = {
        "db_url": f"sqlite:///{tmp_path / 'games.sqlite3'}",
        "data_dir": tmp_path,
        "bot_delay": 0.0,
        "grace_seconds": 3600.0,
        # No call windows or round-summary holds unless a test asks (tests/server/test_pace.py).
        "call_window": 0.0,
        "summary_seconds": 0.0,
        "ws_rate_per_second": 1000.0,
        "ws_rate_burst": 1000,
        "client_rate_per_second": 1000.0,
        "client_rate_burst": 1000,
        "sockets_per_client": 1000,
        "tables_per_client": 1000,
        "table_rate_per_minute": 60_000.0,
        "workers": 0,
    }
    fields.update(overrides)
    return Settings(**fields)


def fixed_seeds(start: int = 1) -> Callable[[], int]:
    """A seed source giving start, start+1, ... (tests only)."""
    counter = itertools.count(start)
    return lambda: next(counter)


def create_table(client: TestClient, **body: Any) -> dict[str, Any]:
    """POST /api/tables with sensible defaults; returns the answer."""
    payload = {"name": "Ann", "seats": 2}
    payload.update(body)
    res = client.post("/api/tables", json=payload)
    assert res.status_code == 201, res.text
    return res.json()


def join(client: TestClient, table_id: str, name: str) -> dict[str, Any]:
    """POST /api/tables/{id}/join."""
    res = client.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert res.status_code == 200, res.text
    return res.json()


def start(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """POST /api/tables/{id}/start with the creator's token."""
    res = client.post(f"/api/tables/{table_id}/start", headers=bearer(token))
    assert res.status_code == 200, res.text
    return res.json()


def two_player_table(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """A started two-person table: (table_id, Ann's token, Bob's token)."""
    made = create_table(client, **body)
    bob = join(client, made["table_id"], "Bob")
    start(client, made["table_id"], made["token"])
    return made["table_id"], made["token"], bob["token"]


def receive(ws: Any, kind: str, where: Callable[[dict[str, Any]], bool] | None = None, **match: Any) -> dict[str, Any]:
    """Read messages until one of ``type == kind`` whose fields match ``match``.

    ``version`` in ``match`` accepts any version at least that high; ``where``
    is a further test on the message.
    """
    for _ in range(10_000):
        msg = ws.receive_json()
        if msg["type"] == "error" and kind != "error":
            raise AssertionError(f"expected a {kind} message, got {msg}")
        if msg["type"] != kind:
            continue
        if "version" in match and msg.get("version", -1) < match["version"]:
            continue
        if all(msg.get(k) == v for k, v in match.items() if k != "version") and (where is None or where(msg)):
            return msg
    raise AssertionError(f"no {kind} message matching {match}")


def state_within(ws: Any, seconds: float, where: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
    """The next ``state`` message (one ``where`` accepts); fails, instead of waiting for ever, if none comes within ``seconds``."""
    return message_within(ws, "state", seconds, where)


def message_within(
    ws: Any, kind: str, seconds: float, where: Callable[[dict[str, Any]], bool] | None = None
) -> dict[str, Any]:
    """The next message of ``kind`` (one ``where`` accepts); fails, instead of waiting for ever, if none comes within ``seconds``."""
    box: queue.Queue[dict[str, Any] | BaseException] = queue.Queue()

    def read() -> None:
        try:
            box.put(receive(ws, kind, where=where))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box.put(exc)

    threading.Thread(target=read, daemon=True).start()
    try:
        got = box.get(timeout=seconds)
    except queue.Empty:
        raise AssertionError(f"no such {kind} message within {seconds} s") from None
    if isinstance(got, BaseException):
        raise got
    return got


def act(ws: Any, version: int, action: dict[str, Any]) -> None:
    """Send an action message."""
    ws.send_json({"type": "action", "version": version, "action": action})


class TableDriver:
    """Plays the people's seats of a running table over their websockets.

    ``sockets`` maps each person's seat to its open websocket; the first one
    is also the observer that follows every state. When a person is to move,
    their action is chosen at random (seeded) from their view's legal list
    and sent with the version it was chosen on; bots play by themselves (and
    may call Rummy first, making that action stale: it is simply refused).
    Every message received is kept per seat for later checks.
    """

    def __init__(self, sockets: dict[int, Any], seed: int = 0) -> None:
        self.sockets = sockets
        self.rng = random.Random(seed)
        self.observer = next(iter(sockets))
        self.latest: dict[int, dict[str, Any]] = {}
        self.received: dict[int, list[dict[str, Any]]] = {s: [] for s in sockets}

    def _read_state(self, seat: int, min_version: int = -1) -> dict[str, Any]:
        while True:
            msg = self.sockets[seat].receive_json()
            self.received[seat].append(msg)
            if msg["type"] == "error" and msg["code"] != "stale_version":
                raise AssertionError(f"seat {seat} got {msg}")
            if msg["type"] == "state" and msg["version"] >= min_version:
                self.latest[seat] = msg
                return msg

    def add(self, seat: int, ws: Any, first_state: dict[str, Any]) -> None:
        """Take over another person's socket (its first state already read)."""
        self.sockets[seat] = ws
        self.received[seat] = [first_state]
        self.latest[seat] = first_state

    def catch_up(self, version: int) -> dict[int, dict[str, Any]]:
        """Read every socket up to ``version``; return each seat's state there."""
        for seat in self.sockets:
            mine = self.latest.get(seat)
            if mine is None or mine["version"] < version:
                self._read_state(seat, version)
        return dict(self.latest)

    def play(self, max_actions: int | None = None) -> dict[str, Any]:
        """Play until the game is over (or ``max_actions`` people's actions); return the last state."""
        cur = self.latest.get(self.observer) or self._read_state(self.observer)
        done = 0
        while cur["table"]["status"] != "finished" and cur["view"]["phase"] != "game_over":
            view = cur["view"]
            mover = view["to_move"]
            if mover in self.sockets:
                if max_actions is not None and done >= max_actions:
                    return cur
                mine = self.latest.get(mover)
                if mine is None or mine["version"] < cur["version"]:
                    mine = self._read_state(mover, cur["version"])
                if mine["version"] > cur["version"]:
                    cur = mine  # a bot claimed out of turn (called Rummy) meanwhile
                    continue
                legal = mine["view"]["legal"]
                assert legal, f"seat {mover} is to move with no legal action at {cur['version']}"
                # Refused as stale if a bot calls Rummy first; the game goes on.
                act(self.sockets[mover], cur["version"], self.rng.choice(legal))
                done += 1
            cur = self._read_state(self.observer, cur["version"] + 1)
        return cur


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end on a fresh event loop in its own thread.

    Not ``asyncio.run`` in the test's thread: another suite's fixtures (the
    browser tests' Playwright) may keep an event loop running there.
    """
    box: dict[str, Any] = {}

    def main() -> None:
        try:
            box["result"] = asyncio.run(coro)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            box["error"] = exc

    worker = threading.Thread(target=main, name="server-test-loop")
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]
