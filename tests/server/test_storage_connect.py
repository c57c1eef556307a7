"""Opening storage: its modules import on their own, and a silent database host is given up on.

Both found after the storage-outage fix of 8 December 2026: importing
``rummy500.server.storage`` before anything else failed on a circular import
(the session module took ``WouldWait`` from ``storage.sql``), and a PostgreSQL
host that accepts a connection and never answers held the caller for ever.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from rummy500.server.storage.base import StorageError
from rummy500.server.storage.sql import PostgresStorage


@pytest.mark.parametrize(
    "module", ["rummy500.server.storage", "rummy500.server.storage.sql", "rummy500.server.session"]
)
def test_each_storage_module_imports_first(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_database_host_that_never_answers_is_refused_after_the_connect_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # the kernel completes the handshake; nobody ever speaks
    monkeypatch.setattr(PostgresStorage, "connect_timeout", 1)
    start = time.monotonic()
    try:
        with pytest.raises(StorageError, match="cannot open the database"):
            PostgresStorage(f"postgresql://postgres@127.0.0.1:{silent.getsockname()[1]}/game")
    finally:
        silent.close()
    assert time.monotonic() - start < 30  # (a hang guard: without the timeout it never returns)
