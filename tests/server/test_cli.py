"""``rummy500 serve``: options, and a real uvicorn server on a free local port."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

import rummy500
from rummy500.cli.serve import serve_main


def test_bad_options_exit_with_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve_main(["--port", "not-a-number"]) == 2
    assert capsys.readouterr().err == "rummy500 serve: --port must be a whole number (got 'not-a-number')\n"
    assert serve_main(["--db", "mysql://x/y", "--data-dir", str(tmp_path)]) == 2
    assert "unsupported database URL" in capsys.readouterr().err
    assert serve_main(["--grace", "-1", "--data-dir", str(tmp_path)]) == 2


def test_a_database_that_cannot_be_opened_exits_with_status_2_saying_why_without_the_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("")
    cases = [
        (["--db", "postgresql://ann:sekret@db.example:notaport/games"], "malformed database URL"),
        (["--db", "mysql://ann:sekret@db.example/games"], "unsupported database URL 'mysql://***@db.example/games'"),
        (["--data-dir", str(not_a_folder / "data")], "cannot create the folder"),
    ]
    for args, says in cases:
        assert serve_main([*args, "--data-dir", str(tmp_path)] if "--db" in args else args) == 2, args
        err = capsys.readouterr().err
        assert says in err, err
        assert "sekret" not in err and "Traceback" not in err
    # The data folder named by the environment instead.
    monkeypatch.setenv("RUMMY500_DATA_DIR", str(not_a_folder / "data"))
    assert serve_main([]) == 2
    assert "cannot create the folder" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_runs_on_a_laptop_with_sqlite_in_the_data_folder(tmp_path: Path) -> None:
    port = _free_port()
    src = str(Path(rummy500.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [
        sys.executable,
        "-m",
        "rummy500.server",
        "--port",
        str(port),
        "--data-dir",
        str(tmp_path / "data"),
        "--bot-delay",
        "0",
        "--log-level",
        "info",
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(f"{base}/api/rules", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server did not come up")
        assert (tmp_path / "data" / "rummy500.sqlite3").exists()
        made = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seats": 2, "bots": {"1": "random"}}).json()
        assert made["invite_url"] == f"{base}/t/{made['table_id']}"
        assert "<html" in httpx.get(made["invite_url"]).text.lower()
        start = httpx.post(
            f"{base}/api/tables/{made['table_id']}/start", headers={"Authorization": f"Bearer {made['token']}"}
        )
        assert start.status_code == 200
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{made['table_id']}?token={made['token']}") as ws:
            state = json.loads(ws.recv(timeout=5))
            while state["type"] != "state":
                state = json.loads(ws.recv(timeout=5))
            assert state["view"]["seat"] == 0 and len(state["view"]["hand"]) == 13
            ws.send("garbage")
            while (msg := json.loads(ws.recv(timeout=5)))["type"] != "error":
                pass
            assert msg["code"] == "bad_message"
            # Over the size limit: uvicorn closes this socket, the game carries on.
            with pytest.raises(Exception):  # noqa: B017 - the close, whichever class (the send itself may meet it)
                ws.send("x" * 100_000)
                for _ in range(1000):
                    ws.recv(timeout=5)
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{made['table_id']}") as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "state"
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    # uvicorn shuts down cleanly, then serve closes the database: SIGTERM is a clean stop.
    assert proc.returncode == 0, out
    assert "Application shutdown complete" in out
    assert "WebSocket" in out  # the socket was logged ...
    assert made["token"] not in out  # ... without its token


def test_the_start_up_lines_never_show_a_password() -> None:
    """A password in the URL's user part or in a libpq ``password=`` parameter is masked in what serve prints first."""
    from rummy500.cli.serve import startup_lines
    from rummy500.server.config import Settings

    settings = Settings(
        db_url="postgresql://127.0.0.1:5432/games?user=ann&password=Pw0rdX&sslmode=require",
        redis_url="redis://:R3disPw@127.0.0.1:6379/5?password=R3disPw",
        port=8123,
    )
    lines = startup_lines(settings)
    text = "\n".join(lines)
    assert "Pw0rdX" not in text and "R3disPw" not in text
    assert lines[0] == "rummy500: games kept in postgresql://127.0.0.1:5432/games?user=ann&password=***&sslmode=require"
    assert lines[1].startswith("rummy500: tables shared through Redis at redis://***@127.0.0.1:6379/5")
    assert lines[-1] == "rummy500: open http://127.0.0.1:8123/"


@pytest.mark.parametrize("how", ["option", "environment"])
def test_the_chat_limit_is_set_by_an_option_or_the_environment(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--chat-max-chars N`` (or ``$RUMMY500_CHAT_MAX_CHARS``): tables say the limit, and a longer line is cut to it."""
    import uvicorn
    from fastapi.testclient import TestClient

    seen: dict[str, object] = {}

    def run(app: object, **_: object) -> None:  # instead of serving: what a page of this server sees
        with TestClient(app) as client:  # type: ignore[arg-type]
            made = client.post("/api/tables", json={"name": "Ann", "seats": 2}).json()
            seen["limit"] = client.get(f"/api/tables/{made['table_id']}").json()["settings"]["chat_max_chars"]
            with client.websocket_connect(f"/ws/tables/{made['table_id']}?token={made['token']}") as ws:
                ws.send_json({"type": "chat", "text": "x" * 50})
                while (msg := ws.receive_json())["type"] != "chat":
                    pass
                seen["said"] = msg["text"]

    monkeypatch.setattr(uvicorn, "run", run)
    args = ["--data-dir", str(tmp_path), "--workers", "0", "--port", "0"]  # serve binds its port first: any free one
    if how == "option":
        monkeypatch.setenv("RUMMY500_CHAT_MAX_CHARS", "99")  # the option wins
        args += ["--chat-max-chars", "37"]
    else:
        monkeypatch.setenv("RUMMY500_CHAT_MAX_CHARS", "37")
    assert serve_main(args) == 0
    assert seen == {"limit": 37, "said": "x" * 37}


def test_a_chat_limit_below_one_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve_main(["--chat-max-chars", "0", "--data-dir", str(tmp_path)]) == 2
    assert "--chat-max-chars must be 1 or more (got 0)" in capsys.readouterr().err
