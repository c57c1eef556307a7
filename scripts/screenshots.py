"""Take the screenshots in docs/img/ from a seeded game: the lobby, its house rules, a turn, a deep take, the round summary, a phone.

Usage: ``python scripts/screenshots.py [--out docs/img] [--seed N]``

The server runs in this process (as the browser tests' ``seeded_server``) and
deals from the seed given; two medium bots, run here on the same deal, choose
a line of play for Ann and Bob, which the script plays over their websockets
while a Chromium page (Debian's, through Playwright) sits at Ann's seat and is
photographed at the moments worth showing.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rummy500.bots import make_bot  # noqa: E402
from rummy500.server.engine import LiveGame, parse_rules  # noqa: E402

#: Debian's Chromium: its headless shell where installed (what the browser tests use), else the full browser.
CHROMIUM = (
    os.environ.get("RUMMY500_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium-headless-shell"
)
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


def plan_game(seed: int) -> tuple[list[tuple[int, dict[str, Any]]], int, int, int] | None:
    """Medium bots' line of play on ``seed``: (actions, deep-take version, its depth, round-end version)."""
    game = LiveGame(parse_rules({"preset": "standard"}, 2), ["Ann", "Bob"], seed)
    bots = [make_bot("medium", seed), make_bot("medium", seed + 1)]
    rng = random.Random(seed)
    plan: list[tuple[int, dict[str, Any]]] = []
    deep: tuple[int, int] | None = None
    while game.match.round_index == 0 and len(plan) < 400:
        seat = game.to_move
        if seat == 0 and deep is None and len(game.match.state.public.melds) >= 3:
            takes = [a.n for a in game.legal(0) if type(a).__name__ == "Take" and a.n >= 3]
            if takes:
                deep = (game.version, max(takes))
        action = bots[seat].act(game.view(seat), rng)
        game.apply(seat, action)
        plan.append((seat, action.to_record()))
    if deep is None or game.match.round_index == 0:
        return None
    return plan, deep[0], deep[1], len(plan)


class Seat:
    """A player over its own websocket."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(f"{base.replace('http', 'ws', 1)}/ws/tables/{table_id}?token={token}", legacy=True)
        self.version = -1

    def wait(self, version: int) -> None:
        while self.version < version:
            msg = json.loads(self.ws.recv(timeout=15))
            if msg["type"] == "state":
                self.version = msg["version"]

    def act(self, version: int, action: dict[str, Any]) -> None:
        self.wait(version)
        self.ws.send(json.dumps({"type": "action", "version": version, "action": action}))
        self.wait(version + 1)


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots; returns 0."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    p.add_argument("--seed", type=int, default=0, help="first seed tried (default 0: search from 1)")
    args = p.parse_args(argv)
    import tempfile

    import uvicorn
    from playwright.sync_api import sync_playwright

    from rummy500.server.app import create_app
    from rummy500.server.config import Settings

    found = None
    for seed in range(args.seed or 1, (args.seed or 1) + 200):
        found = plan_game(seed)
        if found:
            break
    assert found, "no seed gives a deep take and a round end"
    plan, deep_version, depth, end_version = found
    print(f"seed {seed}: deep take of {depth} at move {deep_version}, round over at move {end_version}")

    tmp = Path(tempfile.mkdtemp(prefix="rummy500-shots-"))
    seeds = collections.deque([seed])
    settings = Settings(
        db_url=f"sqlite:///{tmp / 'shots.sqlite3'}", data_dir=tmp, bot_delay=0.05, call_window=0, summary_seconds=60
    )
    app = create_app(settings, seed_source=lambda: seeds.popleft() if seeds else 1)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_context(viewport=LAPTOP, device_scale_factor=1).new_page()
            page.goto(base + "/")
            page.get_by_test_id("name-input").fill("Ann")
            page.wait_for_selector("[data-testid=preset] option", state="attached")
            page.screenshot(path=str(args.out / "lobby.png"))
            # The house rules: each value in words, with what the selected one means.
            page.get_by_test_id("house-rules").locator("summary").click()
            page.locator("[data-option=discard_draw]").scroll_into_view_if_needed()
            page.evaluate("() => window.scrollBy(0, 180)")
            page.wait_for_timeout(200)
            page.screenshot(path=str(args.out / "house-rules.png"))
            page.set_viewport_size(PHONE)
            page.locator("[data-option=discard_draw]").scroll_into_view_if_needed()
            page.wait_for_timeout(200)
            page.screenshot(path=str(args.out / "house-rules-phone.png"))
            page.set_viewport_size(LAPTOP)

            made = _post(base, "/api/tables", {"name": "Ann", "seats": 2, "title": "Friday game"})
            table_id = made["table_id"]
            bob = _post(base, f"/api/tables/{table_id}/join", {"name": "Bob"})
            _post(base, f"/api/tables/{table_id}/start", {}, made["token"])
            seat = {"seat": 0, "token": made["token"], "name": "Ann", "creator": True, "title": "Friday game"}
            page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{table_id}", json.dumps(seat)])
            page.evaluate("() => localStorage.setItem('rummy500.muted', '1')")
            page.goto(f"{base}/t/{table_id}")
            players = {0: Seat(base, table_id, made["token"]), 1: Seat(base, table_id, bob["token"])}
            for version, (who, action) in enumerate(plan[:deep_version]):
                players[who].act(version, action)
            try:
                page.wait_for_function("(v) => window.rummy && window.rummy.version === v", arg=deep_version, polling=200)
            except Exception:
                print("page at", page.evaluate("() => [window.rummy && window.rummy.version, location.href]"))
                page.screenshot(path="/tmp/web_fail.png")
                raise
            page.wait_for_timeout(400)
            page.screenshot(path=str(args.out / "turn.png"))
            page.get_by_test_id(f"pile-card-{depth}").click(position={"x": 6, "y": 20})
            page.wait_for_timeout(200)
            page.screenshot(path=str(args.out / "deep-take.png"))
            page.get_by_test_id("btn-take-cancel").click()
            page.set_viewport_size(PHONE)
            page.wait_for_timeout(300)
            page.screenshot(path=str(args.out / "phone.png"))
            page.set_viewport_size(LAPTOP)
            for version, (who, action) in enumerate(plan[deep_version:], start=deep_version):
                players[who].act(version, action)
            page.wait_for_selector("[data-testid=round-summary]")
            page.wait_for_timeout(300)
            page.get_by_test_id("round-over").scroll_into_view_if_needed()
            page.screenshot(path=str(args.out / "round-summary.png"))
            for s in players.values():
                s.ws.close()
            browser.close()
    finally:
        server.should_exit = True
    for name in ("lobby", "house-rules", "house-rules-phone", "turn", "deep-take", "phone", "round-summary"):
        print(args.out / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
