"""What an operator sees: a clean stop on SIGTERM, one-line refusals, guarded connections, caching, quiet outages."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import rummy500
from rummy500.cli.serve import listen, serve_main, uvicorn_options
from rummy500.server.app import CSP, create_app
from rummy500.server.bus import MemoryBroker, MemoryBus
from rummy500.server.cluster import Cluster
from rummy500.server.config import Settings
from rummy500.server.hub import Hub

from .helpers import create_table, make_settings


def _server(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    """``rummy500 serve`` in a child process on a free port, once it answers; its base URL."""
    src = str(Path(rummy500.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "rummy500.server", "--port", str(port), "--data-dir", str(tmp_path), *args]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/rules", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the server did not come up: {proc.communicate()[0]}")


# ------------------------------------------------------------------ 1. SIGTERM, 9. pools


def test_sigterm_stops_cleanly_closing_the_database_and_the_worker_pool(tmp_path: Path) -> None:
    """``systemctl stop``: sockets told 1012, status 0, no -wal/-shm left, no leaked semaphores."""
    proc, base = _server(tmp_path, "--bot-delay", "0", "--workers", "1", "--log-level", "warning")
    try:
        made = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seats": 2, "bots": {"1": "hard"}}).json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        assert httpx.post(f"{base}/api/tables/{made['table_id']}/start", headers=auth).status_code == 200
        url = base.replace("http", "ws") + f"/ws/tables/{made['table_id']}?token={made['token']}"
        with connect(url) as ws:
            # Play until the hard bot (in the worker pool) has moved too.
            deadline = time.monotonic() + 30
            version = 0
            while version < 5 and time.monotonic() < deadline:
                msg = json.loads(ws.recv(timeout=10))
                if msg["type"] != "state":
                    continue
                version = msg["version"]
                legal = msg["view"]["legal"]
                if legal and not msg.get("pace", {}).get("summary"):
                    ws.send(json.dumps({"type": "action", "version": version, "action": legal[0]}))
            assert version >= 5
            proc.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=15)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        out, _ = proc.communicate(timeout=30)  # (the resource tracker's warning would come before its EOF)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, out
    assert "leaked" not in out and "Traceback" not in out, out
    db = tmp_path / "rummy500.sqlite3"
    assert not (tmp_path / "rummy500.sqlite3-wal").exists() and not (tmp_path / "rummy500.sqlite3-shm").exists()
    # The file alone (a copy of it, as a backup would take) holds the game.
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(db.read_bytes())
    with sqlite3.connect(copy) as conn:
        assert conn.execute("select count(*) from games").fetchone()[0] >= 1


# ------------------------------------------------------------------ 2, 4, 5. one-line refusals


@pytest.fixture(autouse=True)
def _never_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value that is not refused fails its test instead of serving for ever."""
    import uvicorn

    def run(*_: object, **__: object) -> None:
        raise AssertionError("accepted: the server would have started")

    monkeypatch.setattr(uvicorn, "run", run)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert serve_main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and captured.out == "", captured
    return lines[0]


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--idle-days", "1000000", "--idle-days must be more than 0 and at most 36500 (got 1e+06)"),
        ("--idle-days", "inf", "--idle-days must be more than 0 and at most 36500 (got inf)"),
        ("--lobby-expiry", "1e8", "--lobby-expiry must be more than 0 and at most 87600 (got 1e+08)"),
        ("--lobby-expiry", "inf", "--lobby-expiry must be more than 0 and at most 87600 (got inf)"),
        ("--bot-delay", "1e308", "--bot-delay must be from 0 to 60 (got 1e+308)"),
        ("--bot-delay", "inf", "--bot-delay must be from 0 to 60 (got inf)"),
        ("--grace", "inf", "--grace must be from 0 to 604800 (got inf)"),
        ("--grace", "nan", "--grace must be from 0 to 604800 (got nan)"),
        ("--client-rate", "inf", "--client-rate must be more than 0 (got inf)"),
        ("--header-timeout", "0", "--header-timeout must be more than 0 and at most 300 (got 0)"),
    ],
)
def test_numbers_that_would_break_the_server_later_are_refused_at_once(
    option: str, value: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _refused([option, value, "--data-dir", str(tmp_path)], capsys) == f"rummy500 serve: {says}"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--public-url", "cards.example.org"),
        ("--public-url", "not a url"),
        ("--public-url", "javascript:alert(1)"),
        ("--public-url", "ftp://x"),
        ("--public-url", "https://"),
        ("--public-url", "https://cards.example.org:99999"),
        ("--allow-origin", "friends.example.org"),
        ("--allow-origin", "ftp://x"),
        ("--allow-origin", "https://friends.example.org/play"),
    ],
)
def test_urls_that_are_not_web_addresses_are_refused(
    option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _refused([option, value, "--data-dir", str(tmp_path)], capsys)
    assert said.startswith(f"rummy500 serve: {option} must be ") and said.endswith(f"(got {value!r})"), said


def test_web_addresses_are_accepted_and_origins_kept_as_browsers_send_them() -> None:
    settings = Settings(
        public_url="https://cards.example.org/rummy/",
        allowed_origins=("HTTPS://Friends.example.org:8443/", "http://192.168.1.20:8000"),
    )
    assert settings.public_url == "https://cards.example.org/rummy/"
    assert settings.allowed_origins == ("https://friends.example.org:8443", "http://192.168.1.20:8000")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--port", "abc"], "--port must be a whole number (got 'abc')"),
        (["--bot-delay", "soon"], "--bot-delay must be a number (got 'soon')"),
        (["--port"], "--port: expected one argument"),
        (["--nope"], "unrecognized arguments: --nope (rummy500 serve --help lists the options)"),
        (["--log-level", "loud"], "--log-level: invalid choice: 'loud'"),
    ],
)
def test_every_bad_option_is_one_line_without_the_usage(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _refused([*argv, "--data-dir", str(tmp_path)] if argv != ["--port"] else argv, capsys)
    assert said.startswith(f"rummy500 serve: {says}"), said
    assert "usage" not in said


def test_a_bad_value_from_the_environment_names_the_variable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMY500_CHAT_MAX_CHARS", "abc")
    said = _refused(["--data-dir", str(tmp_path)], capsys)
    assert said == "rummy500 serve: $RUMMY500_CHAT_MAX_CHARS must be a whole number, 1 or more (got 'abc')"
    # The option wins over the variable, and is named when it is the bad one.
    assert "--chat-max-chars must be" in _refused(["--chat-max-chars", "0", "--data-dir", str(tmp_path)], capsys)
    monkeypatch.delenv("RUMMY500_CHAT_MAX_CHARS")
    # Scale-out without PostgreSQL, the Redis URL from the environment.
    monkeypatch.setenv("RUMMY500_REDIS_URL", "redis://127.0.0.1:1/0")
    said = _refused(["--data-dir", str(tmp_path)], capsys)
    assert said.startswith("rummy500 serve: $RUMMY500_REDIS_URL shares the tables"), said
    said = _refused(["--redis", "redis://127.0.0.1:1/0", "--data-dir", str(tmp_path)], capsys)
    assert said.startswith("rummy500 serve: --redis shares the tables"), said


# ------------------------------------------------------------------ 3. connections


def test_serve_passes_uvicorn_the_connection_guards(tmp_path: Path) -> None:
    options = uvicorn_options(Settings(data_dir=tmp_path, header_timeout=7, connections_per_client=9))
    assert options["timeout_keep_alive"] == 5
    guarded = options["http"]
    assert isinstance(guarded, type) and guarded.__name__ == "GuardedHTTP"


@pytest.fixture
def guarded_server(tmp_path: Path) -> Iterator[int]:
    """A real uvicorn server (in a thread) with a 0.3 s header timeout and 3 connections per client."""
    import uvicorn

    settings = make_settings(tmp_path, workers=0, header_timeout=0.3, connections_per_client=3)
    sock = listen("127.0.0.1", 0)
    options = uvicorn_options(settings, "warning")
    del options["host"], options["port"]
    server = uvicorn.Server(uvicorn.Config(create_app(settings), **options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _closed_within(conn: socket.socket, seconds: float, trickle: bytes = b"") -> bool:
    """Whether the server closes ``conn`` within ``seconds`` (sending ``trickle`` every 0.05 s meanwhile)."""
    conn.settimeout(0.05)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if trickle:
                conn.sendall(trickle)
            if conn.recv(1024) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


def test_idle_and_trickling_connections_are_closed_and_one_client_holds_a_few(guarded_server: int) -> None:
    port = guarded_server
    base = f"http://127.0.0.1:{port}"
    with socket.create_connection(("127.0.0.1", port)) as silent, socket.create_connection(("127.0.0.1", port)) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        with socket.create_connection(("127.0.0.1", port)) as third, socket.create_connection(("127.0.0.1", port)) as fourth:
            # Over the client's 3 connections: answered 503 and closed at once.
            fourth.settimeout(5)
            answer = fourth.recv(4096)
            assert answer.startswith(b"HTTP/1.1 503 "), answer
            assert b"too many connections" in answer
            third.close()
        assert _closed_within(silent, 5)
        assert _closed_within(slow, 5, trickle=b"X-a: b\r\n")
    # A websocket outlives the header timeout; ordinary requests still work.
    made = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seats": 2}).json()
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{made['table_id']}?token={made['token']}") as ws:
        assert json.loads(ws.recv(timeout=5))["type"] in ("lobby", "state", "table")
        time.sleep(0.6)
        ws.send(json.dumps({"type": "chat", "text": "still here"}))
        while (msg := json.loads(ws.recv(timeout=5)))["type"] != "chat":
            pass
        assert msg["text"] == "still here"
    with httpx.Client() as client:  # kept alive, then a second request on it
        assert client.get(f"{base}/api/rules").status_code == 200
        assert client.get(f"{base}/api/rules").status_code == 200


# ------------------------------------------------------------------ 6, 7. headers


def test_static_files_and_the_page_are_revalidated_after_an_upgrade(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        for path in ("/", "/t/abc", "/static/app.js", "/static/style.css"):
            res = client.get(path)
            assert res.status_code == 200, path
            assert res.headers["cache-control"] == "no-cache", path
        res = client.get("/static/app.js")
        again = client.get("/static/app.js", headers={"If-None-Match": res.headers["etag"]})
        assert again.status_code == 304


def test_head_answers_where_get_does(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        for path in ("/", "/t/abc", "/static/app.js"):
            res = client.head(path)
            assert res.status_code == 200, path
            assert res.content == b""
            assert res.headers["content-type"].startswith(("text/html", "text/javascript", "application/javascript"))


def test_a_body_too_large_carries_the_same_headers_as_other_answers(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        res = client.post("/api/tables", content=b"x" * 70_000, headers={"content-type": "application/json"})
        assert res.status_code == 413
        assert res.json()["detail"]["code"] == "too_large"
        assert res.headers["cache-control"] == "no-store"
        assert res.headers["content-security-policy"] == CSP
        assert res.headers["x-frame-options"] == "DENY"
        assert res.headers["x-content-type-options"] == "nosniff"
        assert res.headers["referrer-policy"] == "same-origin"
        # As an ordinary API error does.
        other = create_table(client)
        assert client.get(f"/api/tables/{other['table_id']}").headers["cache-control"] == "no-store"


# ------------------------------------------------------------------ 8. quiet Redis outages


class _FlakyBus(MemoryBus):
    """A shared in-process bus that fails every call while ``down`` (as Redis away does)."""

    down = False
    failures = 0

    def _check(self) -> None:
        if self.down:
            self.failures += 1
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def _flaky(name: str) -> Any:
    async def call(self: _FlakyBus, *args: Any) -> Any:
        self._check()
        return await getattr(MemoryBus, name)(self, *args)

    return call


for _name in (
    "heartbeat",
    "hold",
    "hold_many",
    "versions",
    "holders",
    "live_nodes",
    "presence",
    "set_presence",
    "publish",
    "publish_versions",
    "chat_history",
):
    setattr(_FlakyBus, _name, _flaky(_name))


class _Storage:
    def running_ids(self, since: datetime) -> list[str]:
        return []


class _Tables:
    """The few parts of a table manager the cluster uses, with no tables."""

    def __init__(self) -> None:
        self.hub = Hub()
        self.storage = _Storage()
        self.sessions: dict[str, Any] = {}

    async def session(self, table_id: str) -> None:
        return None

    def prune(self) -> None:
        pass

    def active_since(self) -> datetime:
        return datetime.now(UTC)


def test_a_redis_outage_is_logged_once_per_kind_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="rummy500.server.cluster")
    bus = _FlakyBus(MemoryBroker(), lease_seconds=0.3, heartbeat_seconds=0.3)

    async def until(check: Any, what: str) -> None:
        deadline = time.monotonic() + 20
        while not check():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            await asyncio.sleep(0.02)

    async def scenario() -> None:
        cluster = Cluster(_Tables(), bus)  # type: ignore[arg-type]
        await cluster.start()
        try:
            bus.down = True
            for _ in range(3):
                cluster.presence_changed("t1")  # a notice to send
                await cluster.presence("t1")
                await cluster.chat_history("t1")
            # Many beats and sweeps (a sweep every 0.1 s, an orphan scan every third one).
            await until(lambda: bus.failures >= 40, "beats and sweeps to fail")
            down = [r for r in caplog.records if r.levelno >= logging.WARNING]
            steps = {r.getMessage().split(" failed:")[0] for r in down}
            assert len(down) == len(steps), [r.getMessage() for r in down]
            assert {"cluster: heartbeat", "cluster: reading the announced versions"} <= steps
            assert {"cluster: reading presence", "cluster: sending notices", "cluster: reading the chat history"} <= steps
            caplog.clear()
            bus.down = False
            await cluster.presence("t1")
            await cluster.chat_history("t1")
            cluster.presence_changed("t1")
            await until(lambda: not cluster.failing, "every step to work again")
            back = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO and "works again" in r.getMessage()]
            assert len(back) == len(set(back)) and "cluster: heartbeat works again" in back, back
            caplog.clear()
            await asyncio.sleep(0.3)  # a few more beats: nothing more to say
            assert not [r for r in caplog.records if r.levelno >= logging.INFO], caplog.records
        finally:
            await cluster.stop()
            await cluster.close()

    asyncio.run(scenario())


def test_the_bus_listener_says_a_redis_outage_once_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    # It logged a warning at every reconnection try (one every 5 s at most) for the whole outage.
    from rummy500.server.bus import RedisBus

    class Down(ConnectionError):
        pass

    class FakePubSub:
        def __init__(self, owner: FakeSub) -> None:
            self.owner = owner

        async def subscribe(self, channel: str) -> None:
            self.owner.tries += 1
            if self.owner.tries <= 4:
                raise Down("Connection refused")

        async def get_message(self, **_: object) -> None:
            bus._closing = True  # back and listening: the test is over
            return None

        async def aclose(self) -> None:
            return None

    class FakeSub:
        tries = 0

        def pubsub(self, **_: object) -> FakePubSub:
            return FakePubSub(self)

    bus = RedisBus("redis://127.0.0.1:1/0", node="quiet")  # nothing connects until start()
    bus._sub = FakeSub()  # type: ignore[assignment]

    async def listen() -> None:
        ready = asyncio.Event()
        await asyncio.wait_for(bus._listen(ready), timeout=10)
        assert ready.is_set()

    with caplog.at_level(logging.DEBUG, logger="rummy500.server.bus.redis_bus"):
        asyncio.run(listen())
    said = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "rummy500.server.bus.redis_bus"]
    warnings = [m for level, m in said if level == logging.WARNING]
    assert len(warnings) == 1 and warnings[0].startswith("bus: lost Redis (Connection refused); reconnecting in"), said
    assert [m for level, m in said if level == logging.INFO] == ["bus: Redis is back"]
    assert len([m for level, m in said if level == logging.DEBUG and "lost Redis" in m]) == 3
