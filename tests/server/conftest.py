"""Fixtures of the server tests: an app on a temporary SQLite file."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from rummy500.server.app import create_app
from rummy500.server.config import Settings

from .helpers import POSTGRES_URL, REDIS_URL, fixed_seeds, make_settings


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


def pytest_configure(config: pytest.Config) -> None:
    """Register the server tests' markers."""
    config.addinivalue_line("markers", "postgres: needs the PostgreSQL server of $RUMMY500_TEST_POSTGRES_URL")


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh schema on the test PostgreSQL server, dropped afterwards."""
    url = make_url(POSTGRES_URL).set(drivername="postgresql+psycopg")
    engine = create_engine(url)
    schema = f"rummy500_test_{secrets.token_hex(6)}"
    try:
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # noqa: BLE001
        engine.dispose()
        pytest.fail(
            f"PostgreSQL is not reachable at {POSTGRES_URL} ({type(exc).__name__}: {exc}). "
            "Start it, or point RUMMY500_TEST_POSTGRES_URL at one.",
            pytrace=False,
        )
    try:
        yield schema
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own on the test Redis; every key under it is deleted afterwards."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    try:
        client.ping()
    except Exception as exc:  # noqa: BLE001
        client.close()
        pytest.fail(
            f"Redis is not reachable at {REDIS_URL} ({type(exc).__name__}: {exc}). "
            "Start it (redis-server), or point RUMMY500_TEST_REDIS_URL at one.",
            pytrace=False,
        )
    prefix = f"rummy500test:{secrets.token_hex(6)}:"
    try:
        yield prefix
    finally:
        keys = list(client.scan_iter(match=prefix + "*", count=500))
        if keys:
            client.delete(*keys)
        client.close()
