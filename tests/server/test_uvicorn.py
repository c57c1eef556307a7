"""The server under uvicorn as ``rummy500 serve`` runs it: what reaches the socket before the app.

Oversized messages, frames that are not UTF-8 and oversized handshakes are
handled by uvicorn's websocket implementation before the app sees them; these
tests hold the options :func:`rummy500.cli.serve.uvicorn_options` gives it.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rummy500.cli.serve import uvicorn_options
from rummy500.server.app import create_app

from .helpers import fixed_seeds, make_settings


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """A server on a free loopback port, with the command's uvicorn options; yields its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = make_settings(tmp_path, port=port, ws_max_message_bytes=4096)
    options = uvicorn_options(settings, "warning")
    server = uvicorn.Server(uvicorn.Config(create_app(settings, seed_source=fixed_seeds(2)), **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _table(base: str) -> str:
    made = httpx.post(f"http://{base}/api/tables", json={"name": "Ann", "bots": {"1": "random"}}).json()
    httpx.post(
        f"http://{base}/api/tables/{made['table_id']}/start", headers={"Authorization": f"Bearer {made['token']}"}
    ).raise_for_status()
    return str(made["table_id"])


def test_an_oversized_message_gets_bad_message_and_the_socket_stays_open(served: str) -> None:
    table_id = _table(served)
    with connect(f"ws://{served}/ws/tables/{table_id}") as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "state"
        ws.send(json.dumps({"type": "chat", "text": "x" * 20_000}))
        error = json.loads(ws.recv(timeout=5))
        assert error["type"] == "error" and error["code"] == "bad_message"
        ws.send(json.dumps({"type": "sync"}))
        assert json.loads(ws.recv(timeout=5))["type"] == "state"


def test_a_frame_over_the_cap_closes_the_socket_with_1009(served: str) -> None:
    """Past ``FRAME_CAP`` (or 4 x the message limit) the frame never reaches the app: the socket closes (1009).

    Only the frame's header goes out: it announces ``FRAME_CAP + 1`` bytes, which
    is what the server judges. Sending the megabyte too would race the close: the
    server shuts its socket with the payload unread, and the reset that follows
    can reach the client before the close frame does.
    """
    from rummy500.cli.serve import FRAME_CAP

    table_id = _table(served)
    with connect(f"ws://{served}/ws/tables/{table_id}") as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "state"
        header = bytes([0x81, 0x80 | 127]) + (FRAME_CAP + 1).to_bytes(8, "big") + b"mask"
        with ws.send_context():
            ws.socket.sendall(header)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_frame_that_is_not_utf8_closes_quietly(served: str, caplog: pytest.LogCaptureFixture) -> None:
    table_id = _table(served)
    with caplog.at_level(logging.WARNING), connect(f"ws://{served}/ws/tables/{table_id}") as ws:
        ws.recv(timeout=5)
        with ws.send_context():
            ws.protocol.send_text(b"\xff\xfe not text")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    time.sleep(0.2)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_an_oversized_handshake_is_answered_at_once(served: str) -> None:
    host, port = served.split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        path = "/ws/tables/x?token=" + "a" * 10_000
        s.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {served}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        answer = s.recv(100)
    assert answer.startswith(b"HTTP/1.1 4")


def test_the_newer_websocket_implementation_is_used_and_only_bad_text_is_silenced(tmp_path: Path) -> None:
    """``websockets-sansio`` (less CPU per message); its one traceback for non-UTF-8 frames is dropped, nothing else."""
    from rummy500.cli.serve import QuietBadText

    settings = make_settings(tmp_path)
    assert uvicorn_options(settings)["ws"] == "websockets-sansio"
    uvicorn_options(settings)
    logger = logging.getLogger("uvicorn.error")
    assert sum(isinstance(f, QuietBadText) for f in logger.filters) == 1  # installed once

    def record(msg: str) -> logging.LogRecord:
        return logger.makeRecord("uvicorn.error", logging.ERROR, __file__, 1, msg, (), None)

    assert not logger.filter(record("Invalid UTF-8 sequence received from client."))
    assert logger.filter(record("Exception in ASGI application\n"))


def test_at_debug_level_no_websocket_frame_is_logged(served: str, caplog: pytest.LogCaptureFixture) -> None:
    """``--log-level debug`` logs the connection's steps, never a frame: a refused meld names hidden cards."""
    made = httpx.post(f"http://{served}/api/tables", json={"name": "Ann", "bots": {"1": "random"}}).json()
    table_id, token = made["table_id"], made["token"]
    httpx.post(f"http://{served}/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    with caplog.at_level(logging.DEBUG, logger="uvicorn.error"), connect(f"ws://{served}/ws/tables/{table_id}?token={token}") as ws:
        state = json.loads(ws.recv(timeout=5))
        assert state["type"] == "state" and state["view"]["hand"]
        ws.send(json.dumps({"type": "action", "version": state["version"], "action": {"meld": ["2C", "3D", "6H"]}}))
        while json.loads(ws.recv(timeout=5))["type"] != "error":
            pass
    said = [r.getMessage() for r in caplog.records if r.name == "uvicorn.error"]
    assert any("connection is" in line for line in said)  # debug logging was on for the socket
    assert not any("meld" in line or "TEXT" in line or "hand" in line for line in said), said
