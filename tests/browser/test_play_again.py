"""Play again: the game-over banner's way to the next game with the same people.

A seated player's *Play again* (``POST /api/tables/{id}/again`` with the finished table's seat
token) opens the next table (the first press: its creator, at seat 0, with the same rules, seats,
bots and settings) or takes a seat at it (later presses, with the old name); the page stores the
seat as a join does and opens ``/t/{next}``, its focus on the waiting room's heading. Once
``next_table`` is set, the others' button reads *Join the next game* (no reload: the socket's
``table`` message), a line says who started it (said once to screen readers, in the moves' live
region), and a spectator gets *Watch the next game*. Refusals are said in words beside the
button, which never sends twice. Against the real server; screenshots at 1366×768 and 390×844 go
to ``tests/browser/artifacts`` (and to ``RUMMY500_SHOTS`` when set).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

from browser_ui import (
    play_simple_turn,
    play_until_round_over,
    post_json,
    round_over_visible,
    shot,
    state,
    wait_settled,
)
from playwright.sync_api import Page, expect
from test_table_ux import VIEWPORTS

#: One round on the 32-card pack, no Rummy! calls (no call windows to wait out): a game of a few turns.
SHORT = {"rounds": 1, "short_pack": True, "calling_rummy": "off"}
NEWS = "Ann started the next game with the same rules."




def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=5) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())



def _shots(page: Page, artifacts: Path, name: str) -> None:
    """The game-over banner at both sizes (the page goes back to the laptop's)."""
    for size, (w, hgt) in VIEWPORTS.items():
        page.set_viewport_size({"width": w, "height": hgt})
        page.get_by_test_id("round-over").evaluate("el => el.scrollIntoView({block: 'start'})")
        assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        expect(page.locator(".game-over-links")).to_be_in_viewport()
        shot(page, artifacts, f"{name}-{size}.png", full_page=False)
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS["laptop"], strict=True)))


def _seat_page(new_page, server: str, tid: str, seat: dict | None) -> Page:
    """A browser of its own at the table, holding ``seat`` (or none: a spectator)."""
    page = new_page(*VIEWPORTS["laptop"])
    if seat is not None:
        page.goto(server + "/")
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{tid}", json.dumps(seat)])
    page.goto(f"{server}/t/{tid}")
    return page


def _stored(page: Page, tid: str) -> dict | None:
    raw = page.evaluate("(k) => localStorage.getItem(k)", f"rummy500.seat.{tid}")
    return json.loads(raw) if raw else None


#: A page whose seat may play now: a state in hand, no move in flight, no call window, legal moves.
_READY = (
    "() => !!(window.rummy && !window.rummy.pending && !window.rummy.waiting && window.rummy.view"
    " && window.rummy.view.to_move === window.rummy.view.seat && window.rummy.view.legal.length > 0)"
)


def _play_to_the_end(players: dict[int, Page], deadline_s: float = 120) -> None:
    """Play the people's turns (the bots play theirs) until the game-over banner shows.

    Each page is asked whether its own seat may move now (not another page's picture of whose turn
    it is, which may be a state behind).
    """
    first = next(iter(players.values()))
    t0 = time.monotonic()
    while not round_over_visible(first):
        assert time.monotonic() - t0 < deadline_s, "the game took too long"
        page = next((p for p in players.values() if p.evaluate(_READY)), None)
        if page is None:  # a bot's turn, or a state on its way
            first.wait_for_timeout(50)
            continue
        if play_simple_turn(page) == "nothing":
            wait_settled(page, state(page)["version"])
    for page in players.values():
        expect(page.get_by_test_id("round-over")).to_contain_text("Game over")


def _finished_pair(server: str, new_page):
    """Ann (creator) and Bob play a short game with a bot at seat 3, Cal watching; returns their pages."""
    made = post_json(
        server,
        "/api/tables",
        {
            "name": "Ann",
            "seats": 3,
            "title": "Friday game",
            "rules": SHORT,
            "bots": {"2": "random"},
            "hints": False,
        },
    )
    tid = made["table_id"]
    joined = post_json(server, f"/api/tables/{tid}/join", {"name": "Bob"})
    ann = _seat_page(new_page, server, tid, {"seat": 0, "token": made["token"], "name": "Ann", "creator": True})
    bob = _seat_page(
        new_page, server, tid, {"seat": joined["seat"], "token": joined["token"], "name": "Bob", "creator": False}
    )
    cal = _seat_page(new_page, server, tid, None)
    for page in (ann, bob, cal):
        expect(page.get_by_test_id("conn-status")).to_have_text("connected")
    post_json(server, f"/api/tables/{tid}/start", {}, made["token"])
    _play_to_the_end({0: ann, joined["seat"]: bob})
    expect(cal.get_by_test_id("round-over")).to_contain_text("Game over")
    return tid, ann, bob, cal


def _again_requests(page: Page) -> list[str]:
    """The Play again requests the page sends from now on (their bodies)."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.post_data or "") if r.url.endswith("/again") else None)
    return sent


def test_two_players_play_again_and_a_spectator_watches(server, new_page, artifacts):
    tid, ann, bob, cal = _finished_pair(server, new_page)
    before = _get(server, f"/api/tables/{tid}")
    assert before["next_table"] is None
    # The players: Play again first (the primary choice), then the replay, its review, the record and New game.
    for page in (ann, bob):
        links = page.get_by_test_id("round-over").locator(".game-over-links > :visible")
        expect(links).to_have_text(["Play again", "Replay this game", "Review your moves", "Download record", "New game"])
        expect(page.get_by_test_id("play-again")).to_have_class(re.compile(r"\bprimary\b"))
        expect(page.get_by_test_id("game-over-replay")).not_to_have_class(re.compile(r"\bprimary\b"))
        expect(page.get_by_test_id("game-over-new")).to_have_attribute("href", "/")
        expect(page.get_by_test_id("again-news")).to_be_hidden()
    # A spectator: no Play again (no seat), nothing to watch yet.
    expect(cal.get_by_test_id("play-again")).to_be_hidden()
    expect(cal.get_by_test_id("watch-next")).to_be_hidden()
    expect(cal.get_by_test_id("game-over-review")).to_have_count(0)  # only a player's moves are reviewed
    expect(cal.get_by_test_id("game-over-replay")).to_have_class(re.compile(r"\bprimary\b"))
    _shots(ann, artifacts, "again-banner")

    # Ann presses twice in a row: one request, one table; she lands in its waiting room as its creator.
    sent = _again_requests(ann)
    ann.get_by_test_id("play-again").dblclick()
    ann.wait_for_url(re.compile(r"/t/(?!" + re.escape(tid) + r"$)[^/]+$"))
    nid = ann.url.rsplit("/", 1)[1]
    expect(ann.get_by_test_id("waiting-heading")).to_be_focused()
    expect(ann.get_by_test_id("start-game")).to_be_visible()
    expect(ann.get_by_test_id("seat-list").locator("li").nth(0)).to_contain_text("Ann (you)")
    assert sent == [""], sent
    mine = _stored(ann, nid)
    assert mine and mine["seat"] == 0 and mine["creator"] is True and mine["name"] == "Ann" and mine["token"]
    after = _get(server, f"/api/tables/{tid}")
    assert after["next_table"] == nid
    nxt = _get(server, f"/api/tables/{nid}")
    assert nxt["status"] == "lobby" and nxt["title"] == "Friday game"
    assert nxt["rules"] == before["rules"] and nxt["settings"] == before["settings"]
    assert [(s["kind"], s["name"]) for s in nxt["seats"]] == [("human", "Ann"), ("open", None), ("bot", "Bot 3")]

    # Bob sees it without a reload: the button says Join the next game, a line says who started it,
    # and screen readers hear it once (the moves' live region; the line itself is not live).
    again = bob.get_by_test_id("play-again")
    expect(again).to_have_text("Join the next game")
    expect(bob.get_by_test_id("again-news")).to_have_text(NEWS)
    expect(bob.get_by_test_id("again-news")).not_to_have_attribute("aria-live", re.compile("."))
    expect(bob.get_by_test_id("live-moves")).to_have_text(NEWS)
    assert bob.locator("[aria-live], [role=alert], [role=status]").filter(has_text=NEWS).count() == 1
    # Cal (watching): the same line, and a link to watch the next game.
    watch = cal.get_by_test_id("watch-next")
    expect(watch).to_have_text("Watch the next game")
    expect(watch).to_have_attribute("href", f"/t/{nid}")
    expect(cal.get_by_test_id("again-news")).to_have_text(NEWS)
    expect(cal.get_by_test_id("play-again")).to_be_hidden()
    _shots(bob, artifacts, "again-join-next")
    _shots(cal, artifacts, "again-watch-next")

    # Bob, from the keyboard: seated at the next table with his name, the focus on the room's heading.
    again.focus()
    bob.keyboard.press("Enter")
    bob.wait_for_url(f"{server}/t/{nid}")
    expect(bob.get_by_test_id("waiting-heading")).to_be_focused()
    expect(bob.get_by_test_id("leave-seat")).to_be_visible()
    seat = _stored(bob, nid)
    assert seat and seat["name"] == "Bob" and seat["creator"] is False and seat["seat"] == 1
    expect(bob.get_by_test_id("seat-list").locator("li").nth(1)).to_contain_text("Bob (you)")
    expect(ann.get_by_test_id("seat-list").locator("li").nth(1)).to_contain_text("Bob")
    # The finished table's seats still act there (its review, its chat).
    assert _stored(bob, tid) is not None

    # Cal follows the link: a visitor at the next table, which Bob's join filled (Ann, Bob and the
    # bot): told so and that the game shows here, with no join form.
    watch.click()
    cal.wait_for_url(f"{server}/t/{nid}")
    expect(cal.get_by_test_id("table-full")).to_contain_text("This table is full")
    expect(cal.get_by_test_id("join-name")).to_have_count(0)


def test_refusals_are_said_and_a_lost_seat_is_asked_for_again(server, new_page, artifacts):
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 2, "rules": SHORT, "bots": {"1": "random"}})
    tid = made["table_id"]
    page = _seat_page(new_page, server, tid, {"seat": 0, "token": made["token"], "name": "Ann", "creator": True})
    expect(page.get_by_test_id("conn-status")).to_have_text("connected")
    post_json(server, f"/api/tables/{tid}/start", {}, made["token"])
    play_until_round_over(page)
    again, error = page.get_by_test_id("play-again"), page.get_by_test_id("again-error")
    expect(again).to_have_text("Play again")
    route = f"**/api/tables/{tid}/again"

    # While the request runs: "Starting…", aria-disabled (still focusable, the focus stays), and a
    # second press sends nothing. Then a rate limit: said in words, the button ready again.
    held: list[Any] = []
    page.route(route, lambda r: held.append(r))
    sent = _again_requests(page)
    again.focus()
    page.keyboard.press("Enter")
    expect(again).to_have_attribute("aria-disabled", "true")
    expect(again).to_have_text("Starting\u2026")
    expect(again).to_be_focused()
    page.keyboard.press("Enter")
    again.click(force=True)  # (Playwright waits for an aria-disabled button to be enabled: a person does not)
    assert len(held) == 1 and len(sent) == 1, (held, sent)
    limited = {"detail": {"code": "rate_limited", "message": "too many tables: wait a minute"}}
    held[0].fulfill(status=429, content_type="application/json", body=json.dumps(limited))
    expect(error).to_have_text("Too many new tables from here just now: try again shortly.")
    expect(again).not_to_have_attribute("aria-disabled", "true")
    expect(again).to_have_text("Play again")
    expect(again).to_be_focused()
    page.unroute(route)

    # The next table is full or has started: said, with a link to watch it.
    full = {
        "detail": {"code": "cannot_join", "message": "the next table is full: open it to watch", "table_id": "Zr8full"}
    }
    page.route(route, lambda r: r.fulfill(status=409, content_type="application/json", body=json.dumps(full)))
    again.click()
    expect(error).to_have_text("The next game is full or has started.")
    expect(page.get_by_test_id("watch-next")).to_have_attribute("href", "/t/Zr8full")
    _shots(page, artifacts, "again-refused")
    page.unroute(route)

    # For real now: the next table, Ann its creator.
    again.click()
    page.wait_for_url(re.compile(r"/t/(?!" + re.escape(tid) + r"$)[^/]+$"))
    nid = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("start-game")).to_be_visible()
    first = _stored(page, nid)
    # Back at the finished table in this browser (which holds the next seat): Join goes straight there.
    page.goto(f"{server}/t/{tid}")
    expect(again).to_have_text("Join the next game")
    expect(page.get_by_test_id("again-news")).to_have_text("You started the next game with the same rules.")
    sent = _again_requests(page)
    again.click()
    page.wait_for_url(f"{server}/t/{nid}")
    expect(page.get_by_test_id("start-game")).to_be_visible()
    assert sent == []
    # The answer was lost (no token for the next table here): refused as already_joined, the page
    # asks once more with reissue and gets the same seat with a new token.
    page.goto(f"{server}/t/{tid}")
    page.evaluate("(k) => localStorage.removeItem(k)", f"rummy500.seat.{nid}")
    expect(again).to_have_text("Join the next game")
    sent = _again_requests(page)
    again.click()
    page.wait_for_url(f"{server}/t/{nid}")
    expect(page.get_by_test_id("start-game")).to_be_visible()
    assert [json.loads(b) if b else None for b in sent] == [None, {"reissue": True}], sent
    second = _stored(page, nid)
    assert second and second["seat"] == 0 and second["creator"] is True and second["token"] != first["token"]
    expect(error).to_have_count(0)
