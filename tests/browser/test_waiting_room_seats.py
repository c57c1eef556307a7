"""The waiting room's seat buttons: Leave this seat, the creator's Remove, and a name already taken.

While a table waits (status ``lobby``) a seated person who did not create it may give their seat
back (``POST /api/tables/{id}/leave``), and the creator may free another person's seat
(``POST /api/tables/{id}/seats/{seat}/remove``): the seat opens for everyone, and the page that
held it becomes a visitor's page with the join form (its socket is closed with 4401: it must not
try again with the dead token). A join with a name already at the table is refused with 409
``name_taken``: the words show next to the name, which stays for editing. None of it once the game
has started. Against the real server, at 1366×768 and 390×844; screenshots go to
``tests/browser/artifacts`` (and to ``RUMMY500_SHOTS`` when set).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from browser_ui import assert_fits_width, post_json, shot
from playwright.sync_api import expect
from test_table_ux import VIEWPORTS


def _refusal(base: str, path: str, token: str) -> tuple[int, str]:
    """The status and code of a refused bodiless POST."""
    try:
        post_json(base, path, None, token)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())["detail"]["code"]
    raise AssertionError(f"{path} was not refused")




def _host(server: str, new_page, size: str, seats: int = 3, bots: dict | None = None):
    """Ann creates a table (REST) and opens it in her browser; returns (page, table id, her token)."""
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": seats, "title": "Friday game", "bots": bots or {}})
    tid = made["table_id"]
    ann = new_page(*VIEWPORTS[size], touch=size == "phone")
    ann.goto(server + "/")
    seat = {"seat": 0, "token": made["token"], "name": "Ann", "creator": True, "title": "Friday game"}
    ann.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{tid}", json.dumps(seat)])
    ann.goto(f"{server}/t/{tid}")
    expect(ann.get_by_test_id("presence-0")).to_have_text(", here")
    return ann, tid, made["token"]


def _guest(server: str, new_page, size: str, tid: str, name: str = "Bob"):
    """``name`` opens the invite link in a browser of their own and joins through the form."""
    page = new_page(*VIEWPORTS[size], touch=size == "phone")
    page.goto(f"{server}/t/{tid}")
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-table").click()
    expect(page.get_by_test_id("leave-seat")).to_be_visible()
    return page


def _stored(page, tid: str) -> Any:
    return page.evaluate("(k) => localStorage.getItem(k)", f"rummy500.seat.{tid}")


def _sockets(page) -> list[str]:
    """The websocket addresses the page opens from now on."""
    opened: list[str] = []
    page.on("websocket", lambda ws: opened.append(ws.url))
    return opened


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_guest_leaves_the_seat_and_the_host_sees_it_open(server, new_page, size, artifacts):
    ann, tid, _ = _host(server, new_page, size)
    bob = _guest(server, new_page, size, tid)
    seats = ann.get_by_test_id("seat-list").locator("li")
    expect(seats.nth(1)).to_contain_text("Bob")
    # Ann created the table: no Leave for her (the server would refuse it); Bob has no Remove.
    expect(ann.get_by_test_id("leave-seat")).to_have_count(0)
    expect(bob.locator("[data-testid^=remove-seat-]")).to_have_count(0)
    expect(bob.get_by_role("button", name="Leave this seat")).to_be_visible()
    expect(bob.get_by_test_id("conn-status")).to_have_text("connected")
    assert_fits_width(bob)
    shot(bob, artifacts, f"fix4-leave-button-{size}.png")

    # A refusal is said in words beside the button, which keeps the focus (Bob is still seated).
    if size == "laptop":
        refused = {
            "detail": {"code": "not_in_lobby", "message": "the game has started: a seat can no longer be given back"}
        }
        bob.route(
            f"**/api/tables/{tid}/leave",
            lambda route: route.fulfill(status=409, content_type="application/json", body=json.dumps(refused)),
        )
        bob.get_by_test_id("leave-seat").click()
        expect(bob.get_by_test_id("leave-error")).to_have_text(refused["detail"]["message"])
        expect(bob.get_by_test_id("leave-seat")).to_be_focused()
        assert json.loads(_stored(bob, tid))["seat"] == 1
        bob.unroute(f"**/api/tables/{tid}/leave")

    opened = _sockets(bob)
    bob.get_by_test_id("leave-seat").click()
    # Bob: a visitor again, told so (the words take the focus), with his name ready in the join form.
    note = bob.get_by_test_id("seat-note")
    expect(note).to_have_text("You left your seat. You can join again with the link.")
    expect(note).to_be_focused()
    expect(bob.get_by_test_id("join-name")).to_have_value("Bob")
    expect(bob.get_by_test_id("leave-seat")).to_have_count(0)
    expect(bob.get_by_test_id("visitor-heading")).to_be_visible()
    assert _stored(bob, tid) is None, "the dead seat token is still stored"
    expect(bob.get_by_test_id("conn-status")).to_have_text("connected")
    expect(bob.get_by_test_id("chat-input")).to_be_disabled()
    # Ann: the seat is open again, without a reload.
    expect(seats.nth(1)).to_have_text("open seat")
    expect(ann.get_by_test_id("remove-seat-1")).to_have_count(0)
    expect(bob.get_by_test_id("seat-list").locator("li").nth(1)).to_have_text("open seat")
    # One socket, as a visitor (no token): not a loop of tries with the dead one.
    assert len(opened) == 1 and "token=" not in opened[0], opened
    assert_fits_width(bob)
    shot(bob, artifacts, f"fix4-left-{size}.png")

    # He joins again: the same seat, and the Leave button is back; the focus is on the room's heading.
    bob.get_by_test_id("join-table").click()
    expect(bob.get_by_test_id("leave-seat")).to_be_visible()
    expect(bob.get_by_test_id("waiting-heading")).to_be_focused()
    expect(bob.get_by_test_id("seat-note")).to_have_count(0)
    expect(seats.nth(1)).to_contain_text("Bob")
    assert json.loads(_stored(bob, tid))["seat"] == 1


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_host_removes_a_guest_who_becomes_a_visitor_and_joins_again(server, new_page, size, artifacts):
    ann, tid, token = _host(server, new_page, size, seats=4, bots={"2": "random"})
    bob = _guest(server, new_page, size, tid)
    bob_token = json.loads(_stored(bob, tid))["token"]
    # Remove beside the other person only: not Ann's own seat, not the bot, not the open seat.
    remove = ann.get_by_role("button", name="Remove Bob")
    expect(remove).to_be_visible()
    expect(ann.locator("[data-testid^=remove-seat-]")).to_have_count(1)
    expect(ann.get_by_test_id("remove-seat-1")).to_have_text("Remove")
    assert_fits_width(ann)
    shot(ann, artifacts, f"fix4-remove-buttons-{size}.png")

    # The first press asks (on the page, not in a browser dialog); Keep puts things back.
    remove.click()
    confirm = ann.get_by_role("button", name="Yes, remove Bob")
    expect(confirm).to_be_focused()
    expect(ann.get_by_test_id("seat-list")).to_contain_text("Free Bob's seat?")
    assert_fits_width(ann)
    shot(ann, artifacts, f"fix4-remove-confirm-{size}.png")
    ann.get_by_role("button", name="Keep Bob").click()
    expect(ann.get_by_test_id("confirm-remove-1")).to_have_count(0)
    expect(ann.get_by_test_id("remove-seat-1")).to_be_focused()
    # Escape cancels too; then the keyboard confirms (Enter on the focused "Yes, remove").
    ann.keyboard.press("Enter")
    expect(confirm).to_be_focused()
    ann.keyboard.press("Escape")
    expect(ann.get_by_test_id("remove-seat-1")).to_be_focused()
    ann.keyboard.press("Enter")
    expect(confirm).to_be_focused()
    opened = _sockets(bob)
    ann.keyboard.press("Enter")

    seats = ann.get_by_test_id("seat-list").locator("li")
    expect(seats.nth(1)).to_have_text("open seat")
    note = ann.get_by_test_id("seat-note")
    expect(note).to_contain_text("Bob's seat is open again")
    expect(note).to_be_focused()
    expect(ann.locator("[data-testid^=remove-seat-]")).to_have_count(0)
    # Bob's page: told in words, a visitor with the join form, the dead token forgotten, no loop.
    bob_note = bob.get_by_test_id("seat-note")
    expect(bob_note).to_have_text("The table's creator freed your seat: you can join again with your name.")
    expect(bob.get_by_test_id("join-name")).to_have_value("Bob")
    expect(bob.get_by_test_id("leave-seat")).to_have_count(0)
    expect(bob.get_by_test_id("conn-status")).to_have_text("connected")
    assert _stored(bob, tid) is None
    assert len(opened) == 1 and "token=" not in opened[0], opened
    expect(bob.get_by_test_id("error-banner")).to_be_hidden()
    assert_fits_width(bob)
    shot(bob, artifacts, f"fix4-removed-{size}.png")
    # The removed token is dead at the server too, and the seat is open (nothing left to remove).
    assert _refusal(server, f"/api/tables/{tid}/leave", bob_token) == (403, "bad_token")
    assert _refusal(server, f"/api/tables/{tid}/seats/1/remove", token) == (409, "cannot_remove")

    # He joins again with his name (given back, it is free): seat 2 once more, and Ann's note goes.
    bob.get_by_test_id("join-table").click()
    expect(bob.get_by_test_id("leave-seat")).to_be_visible()
    expect(seats.nth(1)).to_contain_text("Bob")
    expect(ann.get_by_test_id("seat-note")).to_have_count(0)
    expect(ann.get_by_test_id("remove-seat-1")).to_be_visible()


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_name_already_at_the_table_is_said_next_to_the_name(server, new_page, size, artifacts):
    _, tid, _ = _host(server, new_page, size, bots={"2": "random"})
    cal = new_page(*VIEWPORTS[size], touch=size == "phone")
    cal.goto(f"{server}/t/{tid}")
    name, error = cal.get_by_test_id("join-name"), cal.get_by_test_id("join-error")
    expect(error).to_be_hidden()
    name.fill("  ANN ")
    cal.get_by_test_id("join-table").click()
    expect(error).to_have_text(
        "Ann is already at this table (someone at this table is called that): choose another name"
    )
    # The typed name stays, focused for editing, marked invalid and described by the words.
    expect(name).to_have_value("  ANN ")
    expect(name).to_be_focused()
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_have_attribute("aria-describedby", "join-error")
    assert _stored(cal, tid) is None
    assert_fits_width(cal)
    shot(cal, artifacts, f"fix4-name-taken-{size}.png")
    # A bot's name too.
    name.fill("bot 3")
    expect(error).to_be_hidden()
    expect(name).not_to_have_attribute("aria-invalid", "true")
    cal.get_by_test_id("join-table").click()
    expect(error).to_contain_text("Bot 3 is already at this table")
    name.press("End")
    name.press_sequentially("x")
    expect(error).to_be_hidden()
    cal.get_by_test_id("join-table").click()
    expect(cal.get_by_test_id("leave-seat")).to_be_visible()
    expect(cal.get_by_test_id("seat-list").locator("li").nth(1)).to_contain_text("bot 3x")


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_no_leave_or_remove_once_the_game_has_started(server, new_page, size):
    ann, tid, _ = _host(server, new_page, size)
    bob = _guest(server, new_page, size, tid)
    expect(ann.get_by_test_id("remove-seat-1")).to_be_visible()
    ann.get_by_test_id("start-game").click()
    expect(ann.get_by_test_id("hand")).to_be_visible()
    expect(bob.get_by_test_id("hand")).to_be_visible()
    for page in (ann, bob):
        expect(page.get_by_test_id("waiting-room")).to_be_hidden()
        expect(page.get_by_test_id("leave-seat")).to_have_count(0)
        expect(page.locator("[data-testid^=remove-seat-]")).to_have_count(0)
        expect(page.get_by_test_id("seat-note")).to_have_count(0)
    # And the server says no as well: Bob's seat is his for the game.
    bob_token = json.loads(_stored(bob, tid))["token"]
    assert _refusal(server, f"/api/tables/{tid}/leave", bob_token) == (409, "not_in_lobby")
