"""The client's tidy-up: dates of finished games, a Leave in another tab, the rules catalogue once, the chat limit.

- "Your tables" (lobby), "Your finished games" and the public list (replays) and a replay's heading
  date a finished game by when it finished (TableInfo / GameSummary ``finished``), else by when its
  table was made.
- Two tabs of one browser at one seat: a Leave in one makes the other say that this browser left
  (the leaving tab notes the seat in localStorage), not that the creator freed the seat.
- The rules catalogue (``GET /api/rules``) is asked for once a page load, by the lobby and the table.
- The chat box counts towards the table's own limit (``settings.chat_max_chars``).

At 1366×768 and 390×844; screenshots go to ``tests/browser/artifacts`` (and ``RUMMY500_SHOTS`` when set).
"""

from __future__ import annotations

import json
import secrets
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_ui import assert_fits_width, post_json, shot
from playwright.sync_api import expect
from test_table_ux import VIEWPORTS
from test_waiting_room_seats import _guest, _host, _stored

from conftest import in_thread


def _words(page, iso: str) -> str:
    """The date as the page says it (lobby.js whenWords)."""
    return page.evaluate(
        "(iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })", iso
    )


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=5) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


# ------------------------------------------------------------ dates of finished games
def _info(tid: str, title: str, status: str, created: str, finished: str | None) -> dict[str, Any]:
    """A table's facts as GET /api/tables/{id} gives them (Ann against a bot)."""
    return {
        "id": tid,
        "title": title,
        "status": status,
        "rules": {"preset": "standard"},
        "seats": [
            {"seat": 0, "kind": "human", "name": "Ann", "connected": False},
            {"seat": 1, "kind": "bot", "name": "Bot 2", "bot": "medium", "connected": True},
        ],
        "settings": {"turn_clock": 0, "hints": True, "public": False, "chat_max_chars": 500},
        "version": 3,
        "spectators": 0,
        "created": created,
        "finished": finished,
    }


# Made a year before they finished: a date shown is plainly one or the other.
TABLES = {
    "tidy-done": _info("tidy-done", "Long game", "finished", "2024-01-02T10:00:00Z", "2025-03-04T18:30:00Z"),
    "tidy-older": _info("tidy-older", "Older game", "finished", "2023-05-06T09:15:00Z", None),
    "tidy-wait": _info("tidy-wait", "Sunday lunch", "lobby", "2025-06-07T12:45:00Z", None),
}
PUBLIC = {
    "id": "tidy-public",
    "title": "Public game",
    "status": "finished",
    "players": ["Cal", "Bot 2"],
    "rules": {"preset": "standard"},
    "created": "2022-02-03T08:00:00Z",
    "started": "2022-02-03T08:01:00Z",
    "finished": "2024-11-12T21:05:00Z",
    "actions": 40,
    "totals": [510, 220],
    "winner": 0,
}


def _route_tables(page) -> None:
    """The server's answers for this browser's (made-up) tables, and one public game."""

    def table(route) -> None:
        tid = route.request.url.rsplit("/", 1)[1]
        if tid in TABLES:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(TABLES[tid]))
        else:
            route.continue_()

    page.route("**/api/tables/tidy-*", table)
    page.route(
        "**/api/games?status=finished",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps([PUBLIC])),
    )


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_finished_games_are_dated_by_when_they_finished(server, new_page, size, artifacts):
    # The server sends `finished` with a table's facts: null until the game is over.
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 2, "bots": {"1": "random"}})
    info = _get(server, f"/api/tables/{made['table_id']}")
    assert "finished" in info and info["finished"] is None, info

    page = new_page(*VIEWPORTS[size], touch=size == "phone")
    _route_tables(page)
    page.goto(server + "/")
    for at, tid in enumerate(TABLES, start=1):
        seat = {
            "seat": 0,
            "token": f"tok-{tid}",
            "name": "Ann",
            "creator": True,
            "title": TABLES[tid]["title"],
            "at": at,
        }
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{tid}", json.dumps(seat)])
    done_at, done_made = _words(page, "2025-03-04T18:30:00Z"), _words(page, "2024-01-02T10:00:00Z")
    older_made = _words(page, "2023-05-06T09:15:00Z")
    wait_made = _words(page, "2025-06-07T12:45:00Z")
    assert len({done_at, done_made, older_made, wait_made}) == 4

    # The lobby's "Your tables": a finished game by when it finished, a waiting one by when it was made.
    page.goto(server + "/")
    done, older, waiting = (page.get_by_test_id(f"your-table-{t}") for t in TABLES)
    expect(done).to_have_attribute("data-status", "finished")
    expect(done.locator(".yt-facts")).to_have_text(f"{done_at} \u00b7 Ann, Bot 2")
    expect(older.locator(".yt-facts")).to_have_text(f"{older_made} \u00b7 Ann, Bot 2")  # no `finished`: made
    expect(waiting.locator(".yt-facts")).to_have_text(f"{wait_made} \u00b7 Ann, Bot 2")
    assert_fits_width(page)
    page.get_by_test_id("your-tables").scroll_into_view_if_needed()
    shot(page, artifacts, f"tidy-your-tables-{size}.png")

    # Replays: this browser's finished games and the public list, dated the same way.
    page.goto(server + "/#replays")
    mine = page.get_by_test_id("your-games")
    expect(mine.locator("li")).to_have_count(2)
    expect(page.get_by_test_id("your-table-tidy-done").locator(".yt-facts")).to_have_text(
        f"{done_at} \u00b7 Ann, Bot 2"
    )
    expect(page.get_by_test_id("your-table-tidy-older").locator(".yt-facts")).to_contain_text(older_made)
    totals = page.get_by_test_id("game-totals-tidy-public")
    expect(totals).to_have_text(f"Cal 510 \u00b7 Bot 2 220 \u00b7 {_words(page, PUBLIC['finished'])}")
    assert_fits_width(page)
    shot(page, artifacts, f"tidy-replays-{size}.png")

    # A replay's heading: the date it finished too.
    page.get_by_test_id("your-games").get_by_role("link", name="Long game").click()
    expect(page.get_by_test_id("replay-title")).to_have_text("Replay: Long game")
    expect(page.get_by_test_id("replay-meta")).to_contain_text(done_at)
    expect(page.get_by_test_id("replay-meta")).not_to_contain_text(done_made)


# ------------------------------------------------------------ a Leave in another tab
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_leave_in_one_tab_is_said_as_this_browsers_in_the_other(server, new_page, size, artifacts):
    ann, tid, _ = _host(server, new_page, size)
    bob = _guest(server, new_page, size, tid)
    # A second tab of Bob's browser (the same localStorage): the same seat.
    other = bob.context.new_page()
    problems: list[str] = []
    other.on("pageerror", lambda e: problems.append(str(e)))
    other.goto(f"{server}/t/{tid}")
    expect(other.get_by_test_id("leave-seat")).to_be_visible()
    expect(other.get_by_test_id("conn-status")).to_have_text("connected")

    # A refused Leave leaves no note behind (a later removal by the creator is said as hers).
    if size == "laptop":
        refused = {"detail": {"code": "not_in_lobby", "message": "the game has started"}}
        bob.route(
            f"**/api/tables/{tid}/leave",
            lambda route: route.fulfill(status=409, content_type="application/json", body=json.dumps(refused)),
        )
        bob.get_by_test_id("leave-seat").click()
        expect(bob.get_by_test_id("leave-error")).to_have_text("the game has started")
        assert bob.evaluate("(k) => localStorage.getItem(k)", f"rummy500.left.{tid}") is None
        bob.unroute(f"**/api/tables/{tid}/leave")

    bob.get_by_test_id("leave-seat").click()
    expect(bob.get_by_test_id("seat-note")).to_have_text("You left your seat. You can join again with the link.")
    # The other tab: this browser left, in words that say so (not an alert of the creator's doing).
    note = other.get_by_test_id("seat-note")
    expect(note).to_have_text("You left this table in another tab: you can join again with your name.")
    expect(note).to_have_class("seat-note")
    expect(other.get_by_test_id("join-name")).to_have_value("Bob")
    expect(other.get_by_test_id("leave-seat")).to_have_count(0)
    expect(other.get_by_test_id("conn-status")).to_have_text("connected")
    expect(other.get_by_test_id("error-banner")).to_be_hidden()
    assert _stored(other, tid) is None
    expect(ann.get_by_test_id("seat-list").locator("li").nth(1)).to_have_text("open seat")
    assert_fits_width(other)
    shot(other, artifacts, f"tidy-left-in-another-tab-{size}.png")
    assert not problems, problems

    # Joined again in the other tab and removed by the creator: that is said as hers.
    other.get_by_test_id("join-table").click()
    expect(other.get_by_test_id("leave-seat")).to_be_visible()
    ann.get_by_role("button", name="Remove Bob").click()
    ann.get_by_role("button", name="Yes, remove Bob").click()
    expect(other.get_by_test_id("seat-note")).to_have_text(
        "The table's creator freed your seat: you can join again with your name."
    )


# ------------------------------------------------------------ the rules catalogue once a page load
def test_the_rules_catalogue_is_asked_for_once_by_the_lobby_and_the_table(server, new_page):
    page = new_page(*VIEWPORTS["laptop"])
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.split("?")[0].endswith("/api/rules") else None)
    page.goto(server + "/")
    expect(page.get_by_test_id("preset").locator("option")).not_to_have_count(0)
    expect(page.get_by_test_id("create-table")).to_be_enabled()
    page.get_by_test_id("name-input").fill("Ann")
    page.get_by_test_id("play-computer").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    expect(page.get_by_test_id("table-rules")).to_contain_text("First to 500 points wins.")
    page.go_back()
    expect(page.get_by_test_id("preset").locator("option")).not_to_have_count(0)
    assert len(asked) == 1, asked
    # A reload is a new page load: asked again.
    page.reload()
    expect(page.get_by_test_id("preset").locator("option")).not_to_have_count(0)
    assert len(asked) == 2, asked


# ------------------------------------------------------------ the table's chat limit
@pytest.fixture(scope="module")
def short_chat_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server (in this process) with 40-character chat lines; yields its base URL."""

    from rummy500.server.app import create_app
    from rummy500.server.config import Settings

    data = tmp_path_factory.mktemp("short-chat")
    settings = Settings(
        db_url=f"sqlite:///{(data / 'rummy500.sqlite3').as_posix()}",
        data_dir=data,
        bot_delay=0.05,
        call_window=2.0,
        summary_seconds=30.0,
        table_rate_per_minute=1000.0,
        tables_per_client=1000,
        chat_max_chars=40,
    )
    app = create_app(settings, seed_source=lambda: secrets.randbits(128))
    with in_thread(app, "short-chat-server") as (base, _):
        yield base


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_chat_box_counts_to_the_tables_own_limit(short_chat_server, new_page, size):
    base = short_chat_server
    made = post_json(base, "/api/tables", {"name": "Ann", "seats": 2, "bots": {"1": "random"}})
    tid = made["table_id"]
    assert _get(base, f"/api/tables/{tid}")["settings"]["chat_max_chars"] == 40
    page = new_page(*VIEWPORTS[size], touch=size == "phone")
    page.goto(base + "/")
    seat = {"seat": 0, "token": made["token"], "name": "Ann", "creator": True}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{tid}", json.dumps(seat)])
    page.goto(f"{base}/t/{tid}")
    expect(page.get_by_test_id("conn-status")).to_have_text("connected")
    chat, count, note = (page.get_by_test_id(x) for x in ("chat-input", "chat-count", "chat-note"))
    lines = page.get_by_test_id("chat-list").locator("li")
    # No maxlength (a longer line is kept and refused with words); the count shows near this limit.
    assert chat.get_attribute("maxlength") is None
    chat.fill("x" * 30)
    expect(count).to_be_hidden()
    chat.fill("x" * 35)
    expect(count).to_have_text("35/40")
    chat.fill("y" * 45)
    expect(count).to_have_text("45/40: 5 too many")
    chat.press("Enter")
    expect(note).to_have_text("Too long to send: 45 characters, at most 40. Shorten it, then send it.")
    expect(chat).to_have_value("y" * 45)
    # 40 go whole (the server keeps 40).
    chat.fill("z" * 37 + "END")
    expect(note).to_be_hidden()
    chat.press("Enter")
    expect(lines.last).to_have_text("Ann: " + "z" * 37 + "END")
    expect(chat).to_have_value("")
