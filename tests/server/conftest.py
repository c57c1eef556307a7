"""Fixtures of the server tests: an app on a temporary SQLite file, and play helpers.

Games here are dealt from fixed seeds (``create_app(seed_source=...)``) so each
test plays the same cards every time; live servers draw seeds from ``secrets``.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummy500.server.app import create_app
from rummy500.server.config import Settings

POSTGRES_URL = os.environ.get(
    "RUMMY500_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    """Test settings: a SQLite file under ``tmp_path``, instant bots, a long grace."""
    fields: dict[str, Any] = {
        "db_url": f"sqlite:///{tmp_path / 'games.sqlite3'}",
        "data_dir": tmp_path,
        "bot_delay": 0.0,
        "grace_seconds": 3600.0,
        "ws_rate_per_second": 1000.0,
        "ws_rate_burst": 1000,
    }
    fields.update(overrides)
    return Settings(**fields)


def fixed_seeds(start: int = 1) -> Callable[[], int]:
    """A seed source giving start, start+1, ... (tests only)."""
    counter = itertools.count(start)
    return lambda: next(counter)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings on a fresh SQLite file."""
    return make_settings(tmp_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A running app (lifespan entered) on a fresh SQLite file."""
    app = create_app(settings, seed_source=fixed_seeds(7))
    with TestClient(app) as c:
        yield c


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
    res = client.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}
    )
    assert res.status_code == 200, res.text
    return res.json()


def two_player_table(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """A started two-person table: (table_id, Ann's token, Bob's token)."""
    made = create_table(client, **body)
    bob = join(client, made["table_id"], "Bob")
    start(client, made["table_id"], made["token"])
    return made["table_id"], made["token"], bob["token"]


def receive(ws: Any, kind: str, **match: Any) -> dict[str, Any]:
    """Read messages until one of ``type == kind`` whose fields match ``match``.

    ``version`` in ``match`` accepts any version at least that high.
    """
    for _ in range(10_000):
        msg = ws.receive_json()
        if msg["type"] != kind:
            continue
        if "version" in match and msg.get("version", -1) < match["version"]:
            continue
        if all(msg.get(k) == v for k, v in match.items() if k != "version"):
            return msg
    raise AssertionError(f"no {kind} message matching {match}")


def act(ws: Any, version: int, action: dict[str, Any]) -> None:
    """Send an action message."""
    ws.send_json({"type": "action", "version": version, "action": action})
