"""Fixtures of the server tests: an app on a temporary SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rummy500.server.app import create_app
from rummy500.server.config import Settings

from .helpers import fixed_seeds, make_settings


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
