"""Fixtures for the browser tests: the real server on a free port, and Chromium.

The server runs as ``python -m rummy500.server`` in a subprocess with a fresh
SQLite database in a temporary folder and a short bot delay. The browser is
Debian's Chromium (``apt-get install chromium-headless-shell``, or ``chromium``) driven by Playwright for
Python (``pip install playwright``; its own browser download is not used).
Without either, these tests fail with the reason (``bash scripts/test.sh`` installs both):
a skipped browser test would hide a broken client.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

try:
    import playwright.sync_api as sync_api
except ModuleNotFoundError as exc:  # pragma: no cover - the test script installs it
    raise RuntimeError("the browser tests need Playwright for Python: pip install -e '.[test]'") from exc

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
#: Debian's headless shell (``apt-get install chromium-headless-shell``), else its full Chromium:
#: the shell opens a page for about a third of the CPU (see ``scripts/test.sh``).
CHROMIUM = (
    os.environ.get("RUMMY500_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium-headless-shell"
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: How much faster than a player sees them the pages of ``new_page`` run their animations.
ANIMATION_SPEED = 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def in_thread(app: Any, name: str) -> Iterator[tuple[str, Any]]:
    """Serve ``app`` with uvicorn in a thread on a free loopback port: its base URL and the uvicorn server."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the in-process server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", server
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def _get_json(url: str) -> object:
    with urllib.request.urlopen(url, timeout=5) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real rummy500 server; yields its base URL (``http://127.0.0.1:PORT``)."""
    data = tmp_path_factory.mktemp("server")
    port = _free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    # Reviews at the smallest budget: the browser tests check the review view, not its depth.
    env.setdefault("RUMMY500_REVIEW_SAMPLES", "2")
    env.setdefault("RUMMY500_REVIEW_EXTEND", "0")
    cmd = [
        sys.executable,
        "-m",
        "rummy500.server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{(data / 'rummy500.sqlite3').as_posix()}",
        "--data-dir",
        str(data),
        "--bot-delay",
        "0.05",
        "--call-window",
        "2",
        "--summary",
        "30",
        # Every browser test of a worker opens its tables from this one client: no rate limit
        # (the limits have their own tests, tests/server/test_limits.py).
        "--table-rate",
        "1000",
        "--tables-per-client",
        "1000",
        "--log-level",
        "warning",
    ]
    log_path = data / "server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                if proc.poll() is not None:
                    pytest.fail(f"the server exited ({proc.returncode}):\n{log_path.read_text()}")
                with contextlib.suppress(OSError, ValueError):
                    _get_json(base + "/api/rules")
                    break
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not start in 30 s:\n{log_path.read_text()}")
                time.sleep(0.2)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@dataclass
class SeededServer:
    """The app served from this process, dealing from seeds the test queues.

    ``url`` is its base URL; each started table takes the next seed of
    ``seeds`` (a fresh secret one when the queue is empty). Only tests can do
    this: the real server has no way to choose a seed.
    """

    url: str
    seeds: collections.deque[int]
    app: Any = None
    loop: asyncio.AbstractEventLoop | None = None

    def call(self, make: Callable[[Any], Coroutine[Any, Any, T]], timeout: float = 10) -> T:
        """Run ``make(app)`` (a coroutine) on the server's event loop and return its result.

        Tests use it to let time pass at a table (see ``test_web_play``): the
        server itself has no way to do that from outside.
        """
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(make(self.app), self.loop).result(timeout)


@pytest.fixture(scope="session")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeededServer]:
    """The same server, run in-process (uvicorn in a thread) with a seed source the test controls.

    Variant tests use it to deal known cards (a Rummy call, a player melding
    out), then play the other seats themselves over websockets.
    """

    from rummy500.server.app import create_app
    from rummy500.server.config import Settings

    data = tmp_path_factory.mktemp("seeded")
    seeds: collections.deque[int] = collections.deque()
    settings = Settings(
        db_url=f"sqlite:///{(data / 'rummy500.sqlite3').as_posix()}",
        data_dir=data,
        bot_delay=0.05,
        grace_seconds=3600,
        call_window=2.0,
        summary_seconds=30.0,
        table_rate_per_minute=1000.0,
        tables_per_client=1000,
    )
    app = create_app(settings, seed_source=lambda: seeds.popleft() if seeds else secrets.randbits(128))
    with in_thread(app, "seeded-server") as (base, server):
        yield SeededServer(base, seeds, app, server.servers[0].get_loop())


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium-headless-shell (bash scripts/test.sh does)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser, request):
    """Make pages in fresh browser contexts (separate localStorage: separate people).

    Console errors and uncaught exceptions of every page fail the test.
    """
    contexts = []
    problems: list[str] = []

    def make(width: int = 1280, height: int = 800, touch: bool = False):
        ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch)
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        page = ctx.new_page()
        # The page's card movements run, ANIMATION_SPEED times faster (Chromium's DevTools protocol):
        # the tests still tap a hand that has just moved, and wait less for it to settle.
        ctx.new_cdp_session(page).send("Animation.setPlaybackRate", {"playbackRate": ANIMATION_SPEED})
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: (
                problems.append(f"console {m.type}: {m.text}")
                if m.type == "error" and "Failed to load resource" not in m.text
                else None
            ),
        )
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def artifacts() -> Path:
    """Folder for screenshots (ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
