"""The accessibility audit of the waiting room, the chat and the page changes (keyboard, screen reader, phone).

1. The chat's history, sent again at every (re)connection, is drawn but not read out: only new
   lines are said (``chat-live``); the list itself is no live region.
2. An old chat line keeps the name it was said under (``from``), not the seat's holder now.
3. The "seat is open again" note is said once (focused, or in the page's live region), never
   rebuilt as an alert at each redraw of the room.
4. The room says who joined, left, is not here (after a moment) and is back, once each.
5. The focus falls back to the room's heading when the control that had it goes (Remove beside a
   person who left meanwhile).
6. A change of page in the app (lobby to table, lobby to replays to a replay, replays to Your
   tables) moves the focus to the new page's heading; the waiting room names the table in the tab.
7. On a phone the seat chips, the unread count and the links of Your tables are 44 px tall.
8. The unread button's name starts with the words it shows.
9. Copy keeps the focus; Send is closed with the box; the invite field is named by its label; two
   tables of one name are told apart; the Replays page links to Your tables itself.

Against the real server; screenshots go to ``tests/browser/artifacts`` (and ``RUMMY500_SHOTS``).
"""

from __future__ import annotations

import json
import re
import time

from browser_ui import post_json, set_option, shot
from playwright.sync_api import expect
from test_client_tidy import PUBLIC, _info, _words
from test_table_ux import VIEWPORTS
from test_waiting_room_seats import _guest, _stored

#: Records every text put into a live region (or an alert or status) from the page's start:
#: ``window.said`` holds [region, text] pairs, each a thing a screen reader would read out.
RECORD_SAID = """
window.said = [];
const region = (n) => {
  const el = n.nodeType === 1 ? n : n.parentElement;
  return el?.closest('[aria-live]:not([aria-live=off]), [role=alert], [role=status], [role=log]');
};
new MutationObserver((ms) => {
  for (const m of ms) {
    for (const n of m.type === 'characterData' ? [m.target] : [...m.addedNodes]) {
      const r = region(n);
      const text = (n.textContent || '').trim();
      if (r && text && !r.closest('[aria-hidden=true]')) window.said.push([r.dataset.testid || r.className, text]);
    }
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""

PHONE, LAPTOP = VIEWPORTS["phone"], VIEWPORTS["laptop"]
FOCUSED = "() => { const a = document.activeElement; return !a || a === document.body ? 'BODY' : (a.dataset.testid || a.id || a.tagName); }"
#: 44 CSS px (2.75rem), the least a finger should have to hit.
TOUCH = 44



def _said(page, text: str | None = None) -> list[list[str]]:
    """What was read out since the page loaded (holding ``text``, when given)."""
    said = page.evaluate("() => window.said || []")
    return [s for s in said if text is None or text in s[1]]


def _host(server: str, new_page, size=LAPTOP, seats: int = 3, title: str = "Friday game", touch: bool = False):
    """Ann's table (REST), open in her browser, which records what is read out; (page, table id, token)."""
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": seats, "title": title, "bots": {}})
    tid = made["table_id"]
    ann = new_page(*size, touch=touch)
    ann.add_init_script(RECORD_SAID)
    ann.goto(server + "/")
    seat = {"seat": 0, "token": made["token"], "name": "Ann", "creator": True, "title": title}
    ann.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{tid}", json.dumps(seat)])
    ann.goto(f"{server}/t/{tid}")
    expect(ann.get_by_test_id("presence-0")).to_have_text(", here")
    expect(ann.get_by_test_id("conn-status")).to_have_text("connected")
    return ann, tid, made["token"]


def _guest_recorded(server: str, new_page, tid: str, name: str = "Bob"):
    """``name`` opens the invite link (what is read out recorded) and joins through the form."""
    page = new_page(*LAPTOP)
    page.add_init_script(RECORD_SAID)
    page.goto(f"{server}/t/{tid}")
    expect(page.get_by_test_id("conn-status")).to_have_text("connected")
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-table").click()
    expect(page.get_by_test_id("leave-seat")).to_be_visible()
    return page


def _chat(page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")
    expect(page.get_by_test_id("chat-list").locator("li").last).to_contain_text(text)


def _height(locator) -> float:
    """The element's height once it is laid out: the room may draw it again between two reads (a seat's news)."""
    deadline = time.monotonic() + 5
    while (box := locator.bounding_box()) is None:
        assert time.monotonic() < deadline, "not shown"
        locator.page.wait_for_timeout(50)
    return box["height"]


# ------------------------------------------------------------ 1: the history is not read out again
def test_the_chat_history_is_not_read_out_again_at_each_connection(server, new_page):
    ann, tid, _ = _host(server, new_page)
    bob = _guest_recorded(server, new_page, tid)
    _chat(ann, "Hi Bob, ready?")
    _chat(ann, "Second line")
    expect(bob.get_by_test_id("chat-list").locator("li")).to_have_count(2)
    # Bob's page loads again: the two lines are back in the list, and nothing of them is read out.
    bob.reload()
    expect(bob.get_by_test_id("chat-list").locator("li")).to_have_text(["Ann: Hi Bob, ready?", "Ann: Second line"])
    expect(bob.get_by_test_id("conn-status")).to_have_text("connected")
    bob.wait_for_timeout(300)
    assert _said(bob, "Hi Bob") == [] and _said(bob, "Second line") == [], _said(bob)
    # The socket drops and comes back (the server sends the history again): still not read out.
    bob.evaluate("() => window.rummyConnection.ws.close()")
    expect(bob.get_by_test_id("conn-status")).not_to_have_text("connected")
    expect(bob.get_by_test_id("conn-status")).to_have_text("connected")
    expect(bob.get_by_test_id("chat-list").locator("li")).to_have_count(2)
    bob.wait_for_timeout(300)
    assert _said(bob, "Hi Bob") == [], _said(bob)
    assert bob.get_by_test_id("chat-list").evaluate(
        "el => !el.closest('[aria-live]:not([aria-live=off]), [role=log], [role=status]')"
    )
    # A line said now is read out, once.
    _chat(ann, "Third line")
    expect(bob.get_by_test_id("chat-live")).to_contain_text("Ann: Third line")
    assert _said(bob, "Third line") == [["chat-live", "Ann: Third line"]], _said(bob)


# ------------------------------------------------------------ 2: a line keeps who said it
def test_an_old_chat_line_keeps_the_name_it_was_said_under(server, new_page):
    ann, tid, _ = _host(server, new_page)
    bob = _guest(server, new_page, "laptop", tid)
    _chat(bob, "Yes!")
    bob.get_by_test_id("leave-seat").click()
    expect(ann.get_by_test_id("seat-list").locator("li").nth(1)).to_have_text("open seat")
    post_json(server, f"/api/tables/{tid}/join", {"name": "Cal"})
    expect(ann.get_by_test_id("seat-list").locator("li").nth(1)).to_contain_text("Cal")
    ann.reload()
    expect(ann.get_by_test_id("chat-list").locator("li")).to_have_text(["Bob: Yes!"])
    # Cal, in seat 2 now, is not said to have said it.
    expect(ann.get_by_test_id("chat-list")).not_to_contain_text("Cal")


# ------------------------------------------------------------ 4: the room's news, once each
def test_the_room_says_who_comes_and_goes_once_each(server, new_page):
    ann, tid, _ = _host(server, new_page)
    live = ann.get_by_test_id("live-moves")
    bob = _guest_recorded(server, new_page, tid)
    expect(live).to_have_text("Bob joined.")
    bob.get_by_test_id("leave-seat").click()
    expect(live).to_have_text("Bob left.")
    # Bob's own page says what he did (its note, focused), not "Bob left".
    expect(bob.get_by_test_id("seat-note")).to_be_focused()
    bob.get_by_test_id("join-table").click()
    expect(live).to_have_text("Bob joined.")
    expect(bob.get_by_test_id("waiting-heading")).to_be_focused()
    # His own page says nothing of his coming and going: he did it.
    assert _said(bob, "Bob joined") == [] and _said(bob, "Bob left") == [], _said(bob)

    # Bob closes the page: after a moment Ann hears he is not here; he comes back: that he is back.
    # (First Ann sees him here: who is connected is told at most every 0.25 s, so a page closed
    # sooner after joining is only ever seen not here, and nothing is said of it.)
    expect(ann.get_by_test_id("presence-1")).to_have_text(", here")
    bob_context = bob.context
    bob.close()
    expect(ann.get_by_test_id("presence-1")).to_have_text(", not here")
    expect(live).to_have_text("Bob is not here.", timeout=10_000)
    bob = bob_context.new_page()
    bob.goto(f"{server}/t/{tid}")
    expect(ann.get_by_test_id("presence-1")).to_have_text(", here")
    expect(live).to_have_text("Bob is back.")
    # Cal joins by the link (another browser): said too.
    post_json(server, f"/api/tables/{tid}/join", {"name": "Cal"})
    expect(live).to_have_text("Cal joined.")
    for words, times in (("Bob joined.", 2), ("Bob left.", 1), ("Bob is not here.", 1), ("Bob is back.", 1)):
        assert len(_said(ann, words)) == times, (words, _said(ann))


# ------------------------------------------------------------ 3: the note, said once
def test_the_seat_note_is_said_once_not_at_every_redraw(server, new_page, artifacts):
    ann, tid, _ = _host(server, new_page)
    bob = _guest_recorded(server, new_page, tid)
    # Ann removes Bob while his keyboard is on the sound switch (outside the room): his page says
    # it once, in its live region, and the note is no alert read out again at every redraw.
    bob.get_by_test_id("mute").focus()
    ann.get_by_role("button", name="Remove Bob").click()
    ann.get_by_role("button", name="Yes, remove Bob").click()
    freed = "The table's creator freed your seat: you can join again with your name."
    expect(bob.get_by_test_id("seat-note")).to_have_text(freed)
    # Ann's note took her focus (read out there), and no "Bob left" is said beside it.
    note = ann.get_by_test_id("seat-note")
    expect(note).to_be_focused()
    expect(note).to_contain_text("Bob's seat is open again")
    post_json(server, f"/api/tables/{tid}/join", {"name": "Dan"})  # seat 2: Ann's note goes
    expect(bob.get_by_test_id("seat-list").locator("li").nth(1)).to_contain_text("Dan")
    post_json(server, f"/api/tables/{tid}/join", {"name": "Eve"})  # seat 3: more redraws
    expect(bob.get_by_test_id("seat-list").locator("li").nth(2)).to_contain_text("Eve")
    expect(ann.get_by_test_id("seat-list").locator("li").nth(2)).to_contain_text("Eve")
    bob.wait_for_timeout(300)
    assert len(_said(bob, freed)) == 1, _said(bob)
    assert _said(ann, "seat is open again") == [] and _said(ann, "Bob left") == [], _said(ann)
    expect(bob.get_by_test_id("seat-note")).to_have_text(freed)
    expect(bob.get_by_test_id("seat-note")).not_to_have_attribute("role", re.compile("."))
    expect(bob.get_by_test_id("mute")).to_be_focused()
    expect(bob.get_by_test_id("live-moves")).to_have_text("Eve joined.")
    expect(ann.get_by_test_id("live-moves")).to_have_text("Eve joined.")
    assert len(_said(ann, "Dan joined.")) == 1
    shot(bob, artifacts, "a11y-freed-note-laptop.png")


# ------------------------------------------------------------ 5: the focus does not drop to the page
def test_the_focus_falls_back_to_the_heading_when_its_control_goes(server, new_page):
    ann, tid, _ = _host(server, new_page)
    # Bob (seat 2) leaves while Ann's keyboard is on "Remove Bob".
    bob = post_json(server, f"/api/tables/{tid}/join", {"name": "Bob"})
    ann.get_by_test_id("remove-seat-1").focus()
    post_json(server, f"/api/tables/{tid}/leave", None, bob["token"])
    expect(ann.get_by_test_id("seat-list").locator("li").nth(1)).to_have_text("open seat")
    expect(ann.get_by_test_id("waiting-heading")).to_be_focused()
    # He joins again and leaves while Ann is asked "Free Bob's seat?" (her focus on Yes, remove).
    bob = post_json(server, f"/api/tables/{tid}/join", {"name": "Bob"})
    ann.get_by_test_id("remove-seat-1").click()
    expect(ann.get_by_test_id("confirm-remove-1")).to_be_focused()
    post_json(server, f"/api/tables/{tid}/leave", None, bob["token"])
    expect(ann.get_by_test_id("confirm-remove-1")).to_have_count(0)
    expect(ann.get_by_test_id("waiting-heading")).to_be_focused()
    assert ann.evaluate(FOCUSED) == "waiting-heading"


# ------------------------------------------------------------ 6: a new page takes the focus to its heading
def test_a_change_of_page_moves_the_focus_to_its_heading(server, new_page):
    page = new_page(*LAPTOP)
    page.route(
        "**/api/games?status=finished",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps([PUBLIC])),
    )
    page.goto(server + "/")
    page.get_by_test_id("name-input").fill("Ann")
    page.get_by_test_id("title-input").fill("Friday game")
    page.get_by_test_id("seats").select_option("3")
    expect(page.get_by_test_id("preset").locator("option")).not_to_have_count(0)
    page.get_by_test_id("house-rules").locator("summary").click()
    set_option(page, "rounds", 1)
    page.get_by_test_id("create-table").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    # Lobby -> the table: its waiting room's heading, and the tab names the table.
    expect(page.get_by_test_id("waiting-heading")).to_be_focused()
    expect(page).to_have_title("Waiting room: Friday game \u2014 rummy500")

    # Lobby -> Replays -> a replay, and back: each page's heading takes the focus.
    page.goto(server + "/")
    page.get_by_test_id("nav-replays").click()
    expect(page.locator("main.replays h1")).to_be_focused()
    page.get_by_test_id("game-tidy-public").click()
    expect(page.get_by_test_id("replay-title")).to_be_focused()
    page.go_back()
    expect(page.locator("main.replays h1")).to_be_focused()
    # The Replays page's "Your tables" goes to that part of the lobby, its heading focused.
    page.get_by_test_id("replays-note").get_by_role("link", name="Your tables").click()
    heading = page.locator("#your-tables h2")
    expect(heading).to_have_text("Your tables")
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport()
    # The skip link moves the focus without drawing the page again (a name typed is kept).
    page.get_by_test_id("name-input").fill("Ann B")
    page.evaluate("() => document.querySelector('.skip').focus()")
    page.keyboard.press("Enter")
    expect(page.locator("#app")).to_be_focused()
    expect(page.get_by_test_id("name-input")).to_have_value("Ann B")


def test_a_visitor_reads_the_table_in_the_tab(server, new_page):
    _, tid, _ = _host(server, new_page)
    visitor = new_page(*PHONE, touch=True)
    visitor.goto(f"{server}/t/{tid}")
    expect(visitor.get_by_test_id("visitor-heading")).to_be_visible()
    expect(visitor).to_have_title("Waiting room: Friday game \u2014 rummy500")


# ------------------------------------------------------------ 7, 8: touch targets, the unread button's name
#: The deal of the unread-count test below.
SEED_UNREAD = 1


def test_the_seat_chips_and_the_unread_count_are_big_enough_to_tap(seeded_server, new_page, artifacts):
    # A known deal: how far down the phone's page the chat sits depends on the cards (a random deal
    # left it half in view now and then, and the page then rightly counts nothing unread).
    seeded_server.seeds.append(SEED_UNREAD)
    server = seeded_server.url
    ann, tid, _ = _host(server, new_page, PHONE, touch=True)
    bob = _guest(server, new_page, "phone", tid)
    remove = ann.get_by_test_id("remove-seat-1")
    expect(remove).to_be_visible()
    assert _height(remove) >= TOUCH
    shot(ann, artifacts, "a11y-remove-phone.png")
    remove.tap()
    for testid in ("confirm-remove-1", "cancel-remove-1"):
        assert _height(ann.get_by_test_id(testid)) >= TOUCH, testid
    shot(ann, artifacts, "a11y-remove-confirm-phone.png")
    ann.get_by_test_id("cancel-remove-1").tap()

    # In the game Bob's chat (a few lines said while they waited) is below the table on a phone:
    # Ann's new lines count on a button over his hand.
    # (Three: a seat says 5 lines at once, then 1 a second; two more follow at the start, and a
    # sixth after a second's pause below.)
    for n in range(3):
        _chat(ann, f"line {n + 1} while we wait")
    ann.get_by_test_id("start-game").tap()
    expect(bob.get_by_test_id("hand")).to_be_visible()
    bob.evaluate("() => window.scrollTo(0, 0)")
    expect(bob.get_by_test_id("chat-panel")).not_to_be_in_viewport(ratio=0.5)
    _chat(ann, "Hi Bob")
    _chat(ann, "good luck")
    unread = bob.get_by_test_id("chat-unread")
    expect(unread).to_have_text("\u2709 Chat: 2 new")
    # Its name starts with the words it shows (a voice command says what it sees).
    expect(unread).to_have_accessible_name("Chat: 2 new messages, show the chat")
    assert _height(unread) >= TOUCH
    bob.screenshot(path=str(artifacts / "a11y-unread-game-phone.png"))
    unread.tap()
    expect(unread).to_be_hidden()
    bob.evaluate("() => window.scrollTo(0, 0)")
    expect(bob.get_by_test_id("chat-panel")).not_to_be_in_viewport(ratio=0.5)
    ann.wait_for_timeout(1100)  # Ann's sixth line: a second after her burst of five, or it is refused
    _chat(ann, "one more")
    expect(unread).to_have_accessible_name("Chat: 1 new message, show the chat")


# ------------------------------------------------------------ 7, 9: Your tables
def _twins(page, base: str) -> tuple[str, str]:
    """This browser's two tables named "Friday game" (a game and its Play again table); their dates."""
    done = _info("a11y-done", "Friday game", "finished", "2025-03-04T18:00:00Z", "2025-03-04T19:10:00Z")
    again = _info("a11y-again", "Friday game", "lobby", "2025-03-04T19:12:00Z", None)
    tables = {t["id"]: t for t in (done, again)}

    def table(route) -> None:
        tid = route.request.url.rsplit("/", 1)[1]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(tables[tid]))

    page.route("**/api/tables/a11y-*", table)
    page.route(
        "**/api/games?status=finished",
        lambda route: route.fulfill(status=200, content_type="application/json", body="[]"),
    )
    page.goto(base + "/")
    for at, tid in enumerate(tables, start=1):
        seat = {"seat": 0, "token": f"tok-{tid}", "name": "Ann", "creator": True, "title": "Friday game", "at": at}
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{tid}", json.dumps(seat)])
    return _words(page, done["finished"]), _words(page, again["created"])


def test_your_tables_tells_two_tables_of_one_name_apart_and_fits_a_finger(server, new_page, artifacts):
    page = new_page(*PHONE, touch=True)
    done_at, again_at = _twins(page, server)
    page.goto(server + "/")
    done, again = page.get_by_test_id("your-table-a11y-done"), page.get_by_test_id("your-table-a11y-again")
    expect(done).to_have_attribute("data-status", "finished")
    expect(again).to_have_attribute("data-status", "lobby")
    # Both read "Friday game"; their links say which is which, the words shown first.
    expect(done.get_by_role("link").first).to_have_accessible_name(f"Friday game (finished, {done_at})")
    expect(again.get_by_role("link")).to_have_accessible_name(f"Friday game (waiting for players, {again_at})")
    replay = page.get_by_test_id("your-replay-a11y-done")
    expect(replay).to_have_text("Replay")
    expect(replay).to_have_accessible_name(f"Replay of Friday game, {done_at}")
    for link in (*done.get_by_role("link").all(), again.get_by_role("link")):
        assert _height(link) >= TOUCH, link.text_content()
    page.locator("#your-tables").scroll_into_view_if_needed()
    shot(page, artifacts, "a11y-your-tables-phone.png")
    # The Replays page: the finished one, named the same way.
    page.goto(server + "/#replays")
    mine = page.get_by_test_id("your-games")
    expect(mine.locator("li")).to_have_count(1)
    expect(mine.get_by_role("link")).to_have_accessible_name("Friday game")  # one of that name here


# ------------------------------------------------------------ 9: Copy, Send, the invite's label
def test_copy_keeps_the_focus_send_closes_with_the_box_and_the_invite_is_labelled(server, new_page):
    ann, tid, _ = _host(server, new_page)
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    copy = ann.get_by_test_id("copy-invite")
    copy.focus()
    ann.keyboard.press("Enter")
    expect(ann.locator(".toast", has_text="Invite link copied.")).to_be_visible()
    expect(copy).to_be_focused()
    # Without the clipboard API the page's copy command needs the link selected: the focus comes back.
    ann.evaluate("() => { Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }); }")
    copy = ann.get_by_test_id("copy-invite")
    copy.focus()
    ann.keyboard.press("Enter")
    expect(ann.locator(".toast").last).to_have_text(re.compile("Invite link copied.|Select the link and copy it."))
    if "copied" in (ann.locator(".toast").last.text_content() or ""):
        expect(ann.get_by_test_id("copy-invite")).to_be_focused()
    else:  # not copied: the link is selected, focused, for the player to copy
        expect(ann.get_by_test_id("invite-link")).to_be_focused()
    # The field is named by the words over it, and a tap on them goes to it.
    invite = ann.get_by_test_id("invite-link")
    expect(invite).to_have_accessible_name("Invite link \u2014 send it to the people you want to play with")
    ann.locator(".invite label").click()
    expect(invite).to_be_focused()
    # Seated: the box and Send are open. A visitor: both closed.
    expect(ann.get_by_test_id("chat-send")).to_be_enabled()
    visitor = new_page(*PHONE, touch=True)
    visitor.goto(f"{server}/t/{tid}")
    expect(visitor.get_by_test_id("chat-input")).to_be_disabled()
    expect(visitor.get_by_test_id("chat-send")).to_be_disabled()
    visitor.get_by_test_id("join-name").fill("Bob")
    visitor.get_by_test_id("join-table").click()
    expect(visitor.get_by_test_id("chat-send")).to_be_enabled()
    assert _stored(visitor, tid) is not None
