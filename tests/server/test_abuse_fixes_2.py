"""What a hostile client could do, and no longer can (the second audit): what an operator or a player observes.

1. The log at its default level names a table by the first 8 characters of its
   id only (uvicorn's access and websocket lines included), and never shows a
   seat token, however its query key is spelt (``?%74oken=``).
2. A name or a chat line that only differs by invisible characters (default
   ignorable code points) from another is that other; one left with nothing
   visible is no name (the default one is given) or no line (refused).
3. A request whose body never comes is answered 408 and closed after the
   header timeout, instead of holding its connection for ever.
"""

from __future__ import annotations

import doctest
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

import rummy500
from rummy500.cli import serve
from rummy500.cli.serve import listen, uvicorn_options
from rummy500.server.app import create_app
from rummy500.server.session.guards import chat_text, clean_name, clean_text
from rummy500.server.session.ids import short_id
from rummy500.server.storage import name_key

from .helpers import create_table, fixed_seeds, join, make_settings, ws_path

# ------------------------------------------------------------------ 1. the log


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_log_shows_short_table_ids_and_no_seat_token_however_the_url_is_spelt(tmp_path: Path) -> None:
    """``rummy500 serve`` at its default level: every line naming the table names it as the app's own lines do."""
    port = _free_port()
    src = str(Path(rummy500.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "rummy500.server", "--port", str(port), "--data-dir", str(tmp_path)]
    cmd += ["--workers", "0", "--bot-delay", "0"]  # the default log level: info
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/api/rules", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not come up"
                time.sleep(0.05)
        made = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seats": 3}).json()
        table_id, token = made["table_id"], made["token"]
        with httpx.Client(base_url=base) as client:
            assert client.get(f"/t/{table_id}").status_code == 200
            assert client.get(f"/api/tables/{table_id}").status_code == 200
            # The app decodes the path: these reach the table too.
            assert client.get(f"/api/%74ables/{table_id}").status_code == 200
            assert client.get(f"/api/tables/{table_id[:4]}%{ord(table_id[4]):02X}{table_id[5:]}").status_code == 200
            bob = client.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}).json()
            assert client.get(f"/api/games/{table_id}/record").status_code == 409
            assert client.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}).is_success
        # A seat token under a percent-encoded key still opens the seat ...
        with connect(f"{ws_base}/ws/tables/{table_id}?%74oken={token}") as ws:
            while (msg := json.loads(ws.recv(timeout=5)))["type"] != "state":
                pass
            assert msg["view"]["seat"] == 0
        with connect(f"{ws_base}/ws/tables/{table_id}?token={bob['token']}") as ws:
            while (msg := json.loads(ws.recv(timeout=5)))["type"] != "state":
                pass
            assert msg["view"]["seat"] == 1
        time.sleep(0.3)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    lines = out.splitlines()
    # ... and the log shows neither the table's whole id nor either token, on any line.
    assert not [line for line in lines if table_id in line or token in line or bob["token"] in line], out
    short = short_id(table_id)
    for said in (
        f'"GET /t/{short} HTTP/1.1" 200',
        f'"GET /api/tables/{short} HTTP/1.1" 200',
        f'"POST /api/tables/{short}/join HTTP/1.1" 200',
        f'"POST /api/tables/{short}/start HTTP/1.1" 200',
        f'"GET /api/games/{short}/record HTTP/1.1" 409',
        f'"WebSocket /ws/tables/{short}?%74oken=***" [accepted]',
        f'"WebSocket /ws/tables/{short}?token=***" [accepted]',
    ):
        assert any(said in line for line in lines), (said, out)
    assert sum(f"/api/tables/{short} " in line for line in lines) == 3, out  # the spellings that were decoded
    # A socket opened is said once (the access line), not three times: "connection open/closed" are debug lines.
    assert not [line for line in lines if "connection open" in line or "connection closed" in line], out


def test_the_log_redaction_of_a_request_target() -> None:
    """Whatever reaches a route: decoded as the app decodes it, written back encoded (no line breaks)."""
    from rummy500.cli.serve import redact_target, redact_text

    tid = "AbCdEfGhIjKlMnOpQrStUv"
    assert redact_target(f"/api%2Ftables%2F{tid}/join") == "/api/tables/AbCdEfGh/join"
    assert redact_target(f"/T/{tid}/") == "/T/AbCdEfGh/"
    assert redact_target(f"/nowhere/x{tid}y") == "/nowhere/xAbCdEfG"
    assert redact_target(f"/t/{tid}%0AINFO%20forged%22") == "/t/AbCdEfGh"
    assert redact_target("/t/a%0Ab%22c") == "/t/a%0Ab%22c"
    assert redact_target("/static/app.js?v=1") == "/static/app.js?v=1"
    assert redact_target(f"/ws/tables/{tid}?ToKeN=abc&%74%6F%6B%65%6E=def&x=1&token") == (
        "/ws/tables/AbCdEfGh?ToKeN=***&%74%6F%6B%65%6E=***&x=1&***"
    )
    assert redact_text("a line with token=abc and %74oken=def") == "a line with token=*** and %74oken=***"
    # Request targets are uvicorn's; the app's own arguments (file paths) are left alone, but secrets.
    redact = serve.RedactTokens()
    access = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s "%s"', ("c", f"/t/{tid}"), None)
    own = logging.LogRecord("rummy500", logging.INFO, __file__, 1, "%s %s", (f"/data/{tid}.db", "token=x"), None)
    assert redact.filter(access) and access.getMessage() == 'c "/t/AbCdEfGh"'
    assert redact.filter(own) and own.getMessage() == f"/data/{tid}.db token=***"
    failures, attempted = doctest.testmod(serve, raise_on_error=False)
    assert attempted > 0 and failures == 0


# ------------------------------------------------------------------ 2. invisible characters, look-alikes

#: Each reads "Ann" at the table: a combining grapheme joiner, VS16, a supplementary variation
#: selector, a Khmer inherent vowel, a Mongolian variation selector, a soft hyphen, a word joiner,
#: a language tag, an unassigned default-ignorable (U+2065); Cherokee A, Latin alpha, Armenian vo.
ANN_TWINS = [
    "Ann\u034f",
    "Ann\ufe0f",
    "Ann\U000e0100",
    "Ann\u17b4",
    "Ann\u180b",
    "An\u00adn",
    "A\u2060nn",
    "\U000e0001Ann",
    "Ann\u2065",
    "\u13aann",
    "\u0251nn",
    "An\u0578",
]


def test_a_name_that_only_differs_by_invisible_characters_or_look_alikes_is_refused(client: TestClient) -> None:
    made = create_table(client, seats=3)
    table_id = made["table_id"]
    for twin in ANN_TWINS:
        res = client.post(f"/api/tables/{table_id}/join", json={"name": twin})
        assert res.status_code == 409, (ascii(twin), res.text)
        detail = res.json()["detail"]
        assert detail["code"] == "name_taken" and detail["message"].startswith("Ann is already at this table"), detail
    # Nothing was taken; a name with invisible characters is kept without them.
    assert join(client, table_id, "Bo\u034fb\ufe0f\u17b5")["seat"] == 1
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob", None]


def test_a_name_of_invisible_characters_only_is_no_name(client: TestClient) -> None:
    """Tag characters alone, or a combining grapheme joiner alone: the default name, as for an empty one."""
    made = create_table(client, name="\U000e0041\U000e0062", seats=4)
    table_id = made["table_id"]
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["seats"][0]["name"] == "Player 1" and table["title"] == "Player 1's table"
    assert join(client, table_id, "\u034f")["seat"] == 1
    # A second one is answered as a second empty name is: "Player" is taken.
    for nothing in ("\ufe0f\u200d", " "):
        res = client.post(f"/api/tables/{table_id}/join", json={"name": nothing})
        assert res.status_code == 409 and res.json()["detail"]["message"].startswith("Player is already"), res.text
    names = [s["name"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]
    assert names == ["Player 1", "Player", None, None]
    titled = create_table(client, name="Cy", title="\u2060\U000e0020\u180e")
    assert client.get(f"/api/tables/{titled['table_id']}").json()["title"] == "Cy's table"


def test_a_chat_line_that_shows_nothing_is_refused_and_emoji_keep_what_draws_them(client: TestClient) -> None:
    made = create_table(client)
    with client.websocket_connect(ws_path(made["table_id"], made["token"])) as ws:
        for blank in ("\U000e0041\U000e0042\U000e0043", "\u034f", "\ufe0f", "\u200d\u200c", "\u3164 \u2800"):
            ws.send_json({"type": "chat", "text": blank})
            while (msg := ws.receive_json())["type"] not in ("chat", "error"):
                pass
            assert msg["type"] == "error" and msg["code"] == "bad_message", (ascii(blank), msg)
        flag = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
        said = [
            ("hi\U000e0041\u034f there\ufe0f", "hi there"),
            (
                f"\u2764\ufe0f \U0001f469\u200d\U0001f4bb 1\ufe0f\u20e3 {flag}",
                f"\u2764\ufe0f \U0001f469\u200d\U0001f4bb 1\ufe0f\u20e3 {flag}",
            ),
            ("x\U000e0067\U000e0062 \u2800\u28ff\u2800", "x \u2800\u28ff\u2800"),
        ]
        for text, shown in said:
            ws.send_json({"type": "chat", "text": text})
            while (msg := ws.receive_json())["type"] not in ("chat", "error"):
                pass
            assert msg["type"] == "chat" and msg["text"] == shown, (ascii(text), msg)


def test_what_is_dropped_and_what_is_kept() -> None:
    for ch in "\u00ad\u034f\u061c\u17b4\u17b5\u180b\u180e\u180f\u200b\u200e\u202a\u2060\u2065\u206f\ufe00\ufeff":
        assert clean_text(f"a{ch}b", 40) == "ab", ascii(ch)
    for ch in ("\U0001bca0", "\U0001d173", "\U000e0000", "\U000e0041", "\U000e0100", "\U000e0fff", "\u3164", "\uffa0"):
        assert clean_text(f"a{ch}b", 40) == "ab", ascii(ch)
        assert name_key(f"a{ch}b") in ("ab", "a b"), ascii(ch)
    assert clean_name("An\u3164n", 40) == "An n"  # blank-looking: a space in a name
    # Kept: joiners inside text, a flag's tags, the presentation selector of an emoji or a keycap.
    for kept in (
        "\u0645\u06cc\u200c\u062e",
        "a\u200db",
        "\U0001f3f4\U000e0067\U000e007f",
        "\u2764\ufe0f",
        "#\ufe0f\u20e3",
    ):
        assert clean_text(kept, 40) == kept, ascii(kept)
    assert clean_text("\U0001f3f4 \U000e0067", 40) == "\U0001f3f4"  # tags not right after the flag
    with pytest.raises(Exception) as refused:
        chat_text(0, "\U000e0067\U000e0062", 500)
    assert getattr(refused.value, "code", None) == "bad_message"
    # The look-alikes added are few; names of other scripts stay apart.
    assert name_key("\u13aa\u13f4\u13df") == name_key("ABC") and name_key("\uab7a") == name_key("a")
    assert name_key("\u0555\u0578") == name_key("on") and name_key("\u0261\u0251") == name_key("ga")
    assert name_key("Мария") != name_key("Марина") and name_key("José") != name_key("Jose")
    assert name_key("Jose\u034f\u0301") == name_key("José")


# ------------------------------------------------------------------ 3. a body that never comes


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[int]:
    """``rummy500 serve``'s uvicorn (in a thread) with a 0.5 s header timeout; yields its port."""
    import uvicorn

    settings = make_settings(tmp_path, header_timeout=0.5)
    sock = listen("127.0.0.1", 0)
    options = uvicorn_options(settings, "warning")
    del options["host"], options["port"]
    server = uvicorn.Server(uvicorn.Config(create_app(settings, seed_source=fixed_seeds(5)), **options))
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


def _answer(conn: socket.socket, within: float) -> tuple[bytes, bool, float]:
    """What the server sends on ``conn`` within ``within`` seconds, whether it closed it, and when it last sent."""
    conn.settimeout(0.05)
    got, start = b"", time.monotonic()
    last = start
    while time.monotonic() - start < within:
        try:
            chunk = conn.recv(4096)
        except TimeoutError:
            continue
        except OSError:
            return got, True, last - start
        if not chunk:
            return got, True, time.monotonic() - start
        got += chunk
        last = time.monotonic()
    return got, False, last - start


_HEAD = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"


def test_a_request_whose_body_never_comes_is_answered_408_and_closed(
    quick_server: int, caplog: pytest.LogCaptureFixture
) -> None:
    """t09b: a whole head announcing 1000 bytes, then one byte: the connection was held for ever."""
    body = json.dumps({"name": "Ann", "seats": 2}).encode()
    with socket.create_connection(("127.0.0.1", quick_server)) as stalled:
        stalled.sendall(_HEAD % 1000 + b"{")
        answer, closed, when = _answer(stalled, 5)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert b"did not all arrive in time" in answer
    assert closed and 0.3 < when < 3, (closed, when)
    # Trickling does not buy more time: the deadline counts from the end of the head.
    with socket.create_connection(("127.0.0.1", quick_server)) as trickling:
        trickling.sendall(_HEAD % len(body))
        answer, closed, start = b"", False, time.monotonic()
        for byte in body[:-1]:  # a byte every 0.1 s: the whole body would take 2.5 s
            try:
                trickling.sendall(bytes([byte]))
            except OSError:
                closed = True
            got, closed, _ = _answer(trickling, 0.1)
            answer += got
            if closed:
                break
        took = time.monotonic() - start
    assert answer.startswith(b"HTTP/1.1 408 ") and closed and took < 1.5, (answer, took)
    # A body that comes in time, even in pieces, is served, and the connection is kept for the next request.
    with socket.create_connection(("127.0.0.1", quick_server)) as slow:
        slow.sendall(_HEAD % len(body) + body[:3])
        time.sleep(0.2)
        slow.sendall(body[3:])
        answer, closed, _ = _answer(slow, 1.5)
    assert answer.startswith(b"HTTP/1.1 201 ") and not closed, answer
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], caplog.text
