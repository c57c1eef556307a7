"""The lobby, the waiting room, the chat and the replays among friends, after the second web audit.

The audit (a host on a laptop, a friend on a phone, a spectator, a second "Bob") found: two seats
of one name told apart nowhere; the waiting room never saying who is there, nor that the creator
(who alone can start) had left; a finished private game nowhere under Replays, and "Your tables"
without status or order; a long chat word running out of the panel; chat cut at 300 characters
without a word (the server keeps 500); a rate-limited chat line lost; the phone's top bar losing
the table's name and the invited friend told to send invitations before joining; chat arriving
unnoticed on the phone; the replays' bare totals and untitled replay; "1 cards in hand"; the
"AudioContext was not allowed to start" warning on every load; and a spectator losing the round's
result as soon as the players pressed Ready.
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from browser_ui import CARD_TAP, post_json
from playwright.sync_api import expect
from test_client import _view, scripted, scripted_touch  # noqa: F401 - the fixtures are used by name
from test_table_feel import SPOKEN, _at, _finish, _send
from test_table_ux import VIEWPORTS

PACE = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": None}




def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=5) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


def _sit(page, base: str, table_id: str, seat: dict) -> None:
    """This browser holds ``seat`` at the table (as after creating or joining it)."""
    if not page.url.startswith(base):
        page.goto(base + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{table_id}", json.dumps(seat)])


def _shot(page, artifacts, name: str, full: bool = False) -> None:
    page.screenshot(path=str(artifacts / name), full_page=full)


def _size(page, size: str) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))


# ------------------------------------------------------------ 1: two seats of one name
def _bobs(script) -> None:
    """Ann (this page, seat 0) and two players called Bob (seats 1 and 2)."""
    bob = {"name": "Bob", "kind": "human", "bot_level": None, "connected": True, "autoplay": False}
    script.table = {
        **script.table,
        "rules": {**script.table.get("rules", {}), "players": 3},
        "seats": [script.table["seats"][0], {**bob, "seat": 1}, {**bob, "seat": 2}],
    }


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_two_players_of_one_name_are_told_apart_everywhere(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    _bobs(script)
    three = {"players": 3, "hand_sizes": [7, 9, 9], "known": [[], [], []], "scores": [40, 25, -5]}
    rounds = [{"round": 0, "dealer": 1, "round_scores": [40, 25, -5], "totals": [40, 25, -5], "went_out": 2}]
    ended = {
        "kind": "round_over",
        "version": 11,
        "round": 0,
        "went_out": 2,
        "round_scores": [40, 25, -5],
        "totals": [40, 25, -5],
    }
    _send(script, _view(**three), 11, rounds=rounds, log=[ended], pace=PACE)
    _at(page, 11)
    # The chips, the score sheet, the log: "Bob (seat 2)" and "Bob (seat 3)", never two bare "Bob"s.
    expect(page.get_by_test_id("player-1").locator(".pn")).to_have_text("Bob (seat 2)")
    expect(page.get_by_test_id("player-2").locator(".pn")).to_have_text("Bob (seat 3)")
    expect(page.get_by_test_id("score-sheet")).to_contain_text("Bob (seat 2)")
    expect(page.get_by_test_id("score-sheet")).to_contain_text("Bob (seat 3)")
    expect(page.get_by_test_id("game-log")).to_contain_text("Round 1 over. Bob (seat 3) went out.")
    # The chat names the seat too (the server's `from` is the bare name).
    script.ws.send(json.dumps({"type": "chat", "seat": 2, "from": "Bob", "text": "which Bob am I?"}))
    expect(page.get_by_test_id("chat-list").locator("li").last).to_have_text("Bob (seat 3): which Bob am I?")
    # The game's end: the final totals tell the Bobs apart, and Ann's line says "(you)".
    end = [520, 25, -5]
    log = [
        {"kind": "round_over", "version": 12, "round": 1, "went_out": 0, "round_scores": [480, 0, 0], "totals": end},
        {"kind": "game_over", "version": 12, "totals": end, "winner": 0},
    ]
    script.table = {**script.table, "status": "finished"}
    _send(script, _view(**{**three, "scores": end}, phase="game_over", legal=[], melds=[]), 12, log=log, pace=PACE)
    totals = page.get_by_test_id("final-totals").locator("li")
    expect(totals).to_have_count(3)
    expect(totals.nth(0)).to_contain_text("Ann (you)")
    expect(totals.nth(1)).to_contain_text("Bob (seat 2)")
    expect(totals.nth(2)).to_contain_text("Bob (seat 3)")
    expect(totals.filter(has_text="(you)")).to_have_count(1)
    _shot(page, artifacts, f"fix3-dup-names-{size}.png")


# ------------------------------------------------------------ 3, 9: the waiting room says who is here
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_waiting_room_says_who_is_here_and_when_the_creator_has_left(server, new_page, size, artifacts):
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 3, "title": "Friday game", "bots": {}})
    tid = made["table_id"]
    ann = new_page(1366, 768)
    _sit(ann, server, tid, {"seat": 0, "token": made["token"], "name": "Ann", "creator": True, "title": "Friday game"})
    ann.goto(f"{server}/t/{tid}")
    expect(ann.get_by_test_id("presence-0")).to_have_text(", here")
    # The friend opens the link: whose table it is, then the seats, then the join form; the
    # invitation to bring others comes after it (not "send it to the people..." first).
    bob = new_page(*VIEWPORTS[size], touch=size == "phone")
    bob.goto(f"{server}/t/{tid}")
    expect(bob.get_by_test_id("visitor-heading")).to_have_text("You are invited: Friday game")
    expect(bob.get_by_test_id("visitor-intro")).to_contain_text("Ann set up this table and starts the game")
    join, invite = bob.get_by_test_id("join-table"), bob.get_by_test_id("invite-link")
    expect(join).to_be_visible()
    expect(invite).to_be_visible()
    assert join.bounding_box()["y"] < invite.bounding_box()["y"], "the join form comes before the invite link"
    expect(bob.locator(".invite label")).to_have_text("Invite link \u2014 to bring someone else along too")
    # The table's name is in the top bar, on the phone too (it was squeezed to nothing).
    title = bob.locator(".topbar .table-title")
    expect(title).to_have_text("Friday game")
    assert title.bounding_box()["width"] >= title.evaluate("el => el.scrollWidth") - 1 > 40
    _shot(bob, artifacts, f"fix3-invited-{size}.png")
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-table").click()
    seats = bob.get_by_test_id("seat-list").locator("li")
    expect(seats.nth(0)).to_have_text("Ann, here")
    expect(seats.nth(1)).to_have_text("Bob (you), here")
    expect(bob.get_by_test_id("host-line")).to_contain_text("Ann (who created the table) starts the game.")
    expect(ann.get_by_test_id("presence-1")).to_have_text(", here")
    # Ann closes her tab: Bob reads that she is gone and that the game cannot start without her.
    ann.close()
    expect(bob.get_by_test_id("presence-0")).to_have_text(", not here", timeout=20_000)
    expect(bob.get_by_test_id("host-gone")).to_have_text(
        "Ann, who starts the game, has left the table: the game cannot start until Ann comes back. "
        "Ask Ann to open the invite link again."
    )
    expect(bob.get_by_test_id("host-line")).to_have_count(0)
    _shot(bob, artifacts, f"fix3-host-gone-{size}.png", full=True)
    # She comes back: the warning goes.
    ann = new_page(1366, 768)
    _sit(ann, server, tid, {"seat": 0, "token": made["token"], "name": "Ann", "creator": True, "title": "Friday game"})
    ann.goto(f"{server}/t/{tid}")
    expect(bob.get_by_test_id("presence-0")).to_have_text(", here")
    expect(bob.get_by_test_id("host-gone")).to_have_count(0)


# ------------------------------------------------------------ 6, 7, 8: the chat box
def _chatting(server: str, new_page, size: str):
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 2, "bots": {"1": "random"}})
    post_json(server, f"/api/tables/{made['table_id']}/start", {}, made["token"])
    page = new_page(*VIEWPORTS[size], touch=size == "phone")
    _sit(page, server, made["table_id"], {"seat": 0, "token": made["token"], "name": "Ann", "creator": True})
    page.goto(f"{server}/t/{made['table_id']}")
    expect(page.get_by_test_id("hand")).to_be_visible()
    expect(page.get_by_test_id("conn-status")).to_have_text("connected", timeout=15_000)
    return page


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_long_chat_line_wraps_and_the_limit_is_the_servers_said_before_sending(server, new_page, size, artifacts):
    page = _chatting(server, new_page, size)
    chat, lines = page.get_by_test_id("chat-input"), page.get_by_test_id("chat-list").locator("li")
    count, note = page.get_by_test_id("chat-count"), page.get_by_test_id("chat-note")
    # A 290-letter word (a pasted link) wraps inside the panel: no sideways scroll, nothing cut.
    word = "L" * 290
    chat.fill(word)
    chat.press("Enter")
    expect(lines.last).to_have_text(f"Ann: {word}")
    listing = page.get_by_test_id("chat-list")
    assert listing.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the chat list scrolls sideways"
    assert lines.last.evaluate(
        "el => el.getBoundingClientRect().right <= el.parentElement.getBoundingClientRect().right + 1"
    )
    # Near the limit the box counts; past it, it says so and keeps the line (never cut without a word).
    expect(count).to_be_hidden()
    chat.fill("x" * 420)
    expect(count).to_have_text("420/500")
    long_line = "y" * 548 + "END"
    chat.fill(long_line)
    expect(count).to_have_text("551/500: 51 too many")
    chat.press("Enter")
    expect(note).to_have_text("Too long to send: 551 characters, at most 500. Shorten it, then send it.")
    expect(chat).to_have_value(long_line)
    _shot(page, artifacts, f"fix3-chat-too-long-{size}.png")
    # Shortened to 500, it goes whole (the server keeps 500).
    chat.fill("z" * 497 + "END")
    expect(note).to_be_hidden()
    chat.press("Enter")
    expect(lines.last).to_have_text("Ann: " + "z" * 497 + "END")
    expect(chat).to_have_value("")


def test_chat_lines_refused_for_speed_go_back_into_the_box_with_the_reason_beside_it(server, new_page, artifacts):
    page = _chatting(server, new_page, "phone")
    chat, listing, note = (
        page.get_by_test_id("chat-input"),
        page.get_by_test_id("chat-list"),
        page.get_by_test_id("chat-note"),
    )
    chat.scroll_into_view_if_needed()
    sent = [f"spam {i:02d}" for i in range(40)]
    chat.focus()
    # Sent as fast as the page can (typed one by one, a loaded machine could send them slowly enough
    # for the server to take them all).
    page.evaluate(
        """(lines) => { const box = document.querySelector('[data-testid=chat-input]');
                        for (const line of lines) { box.value = line; box.form.requestSubmit(); } }""",
        sent,
    )
    # The server drops what comes too fast (some lines with a rate_limited error, some silently):
    # every line is either said or back in the box, none lost.
    page.wait_for_function(
        """(sent) => { const said = document.querySelector('[data-testid=chat-list]').textContent;
                       const box = document.querySelector('[data-testid=chat-input]').value;
                       return sent.every((s) => said.includes(s) || box.includes(s)) && box !== ''; }""",
        arg=sent,
        timeout=15_000,
    )
    said = listing.text_content()
    kept = chat.input_value()
    lost = [s for s in sent if s not in said]
    assert lost and all(s in kept for s in lost), (lost, kept)
    expect(note).to_contain_text("Not sent: ")
    expect(note).to_contain_text("back in the box: send again in a moment.")
    # The reason is under the box, not in a toast over it (on a phone the toast covered the box).
    box, said_where = chat.bounding_box(), note.bounding_box()
    assert 0 <= said_where["y"] - (box["y"] + box["height"]) < 60, (box, said_where)
    expect(page.locator("#toasts .toast")).to_have_count(0)
    _shot(page, artifacts, "fix3-chat-rate-limited-phone.png")
    # Sent again once the server takes lines again, the kept lines go (a send still too soon comes back
    # into the box, and is sent again).
    for _ in range(10):
        chat.press("Enter")
        outcome = page.wait_for_function(
            """(kept) => { const items = document.querySelectorAll('[data-testid=chat-list] li');
                           const last = items.length ? items[items.length - 1].textContent : '';
                           if (last === `Ann: ${kept}`) return 'said';
                           return document.querySelector('[data-testid=chat-input]').value === kept ? 'back' : false; }""",
            arg=kept,
            timeout=15_000,
        ).json_value()
        if outcome == "said":
            break
    expect(listing.locator("li").last).to_have_text(f"Ann: {kept}")
    expect(chat).to_have_value("")
    expect(note).to_be_hidden()


# ------------------------------------------------------------ 10: chat arriving during play on the phone
def test_chat_arriving_out_of_view_on_the_phone_shows_an_unread_count_until_seen(scripted_touch, artifacts):  # noqa: F811
    page, script = scripted_touch
    panel, unread = page.get_by_test_id("chat-panel"), page.get_by_test_id("chat-unread")
    page.evaluate("window.scrollTo(0, 0)")
    expect(panel).not_to_be_in_viewport()
    expect(unread).to_be_hidden()
    script.ws.send(json.dumps({"type": "chat", "seat": 1, "from": "Bob", "text": "nice meld"}))
    expect(unread).to_have_text("\u2709 Chat: 1 new")
    script.ws.send(json.dumps({"type": "chat", "seat": 1, "from": "Bob", "text": "your turn"}))
    expect(unread).to_have_text("\u2709 Chat: 2 new")
    expect(unread).to_have_accessible_name("Chat: 2 new messages, show the chat")
    expect(panel.locator("h2")).to_have_text("Chat (2 new)")
    # The count sits over the hand, which stays on the screen while the player plays.
    expect(unread).to_be_in_viewport()
    _shot(page, artifacts, "fix3-chat-unread-phone.png")
    # The player's own lines count for nothing.
    # A tap where the button is (Playwright's tap() first scrolls it clear of the page's scroll
    # padding, the pinned hand's height, which can bring the chat into view before the tap).
    box = unread.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(panel).to_be_in_viewport()
    expect(unread).to_be_hidden()
    expect(panel.locator("h2")).to_have_text("Chat")
    # Seen as it comes (the chat in view): no count.
    script.ws.send(json.dumps({"type": "chat", "seat": 1, "from": "Bob", "text": "gg"}))
    expect(page.get_by_test_id("chat-list").locator("li").last).to_have_text("Bob: gg")
    expect(unread).to_be_hidden()


# ------------------------------------------------------------ 12: one card, two cards
def test_counts_of_one_are_said_in_the_singular(scripted):  # noqa: F811
    page, script = scripted
    _send(script, _view(hand_sizes=[7, 1], known=[[], []], scores=[1, 85], stock_count=1), 11, pace=PACE)
    _at(page, 11)
    assert page.get_by_test_id("player-1").evaluate(SPOKEN).endswith("1 card in hand, total 85 points")
    assert page.get_by_test_id("player-0").evaluate(SPOKEN).endswith("7 cards in hand, total 1 point")
    expect(page.get_by_test_id("stock-count")).to_have_text("1 card")
    expect(page.get_by_test_id("stock")).to_have_attribute("aria-label", re.compile(r"^Stock, 1 card\b"))


# ------------------------------------------------------------ 13: no sound before the page is touched
def test_the_chime_waits_for_the_first_touch_without_console_warnings(server, new_page):
    """A table opened on the player's turn (a reload mid-game): no AudioContext before a gesture.

    Nothing is run in the page from the test before the first click (Playwright's evaluate, and its
    scripted websockets, count as user gestures): the seat is put in localStorage by an init
    script, and the page's audio state is read from its root's attributes.
    """
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 2, "bots": {"1": "random"}})
    post_json(server, f"/api/tables/{made['table_id']}/start", {}, made["token"])
    page = new_page()
    seat = json.dumps({"seat": 0, "token": made["token"], "name": "Ann", "creator": True})
    page.context.add_init_script(
        f"localStorage.setItem({json.dumps('rummy500.seat.' + made['table_id'])}, {json.dumps(seat)})"
    )
    said: list[str] = []
    page.on("console", lambda m: said.append(f"{m.type}: {m.text}"))
    page.goto(f"{server}/t/{made['table_id']}")
    draw = page.get_by_test_id("btn-draw")
    expect(draw).to_be_enabled(timeout=30_000)  # Ann's turn: its chime was due, and waits for a touch
    html = page.locator("html")
    # (Whether Chromium counts this page as touched already depends on what the browser saw before, in
    # other tests: a fresh browser shows data-audio "none" and no chime here, a used one may not.)
    chimes = int(html.get_attribute("data-chimes") or "0")
    # The first press makes sound possible; the next turn chimes.
    cards = page.get_by_test_id("hand").locator("button.card")
    before = cards.count()
    draw.click()
    expect(html).not_to_have_attribute("data-audio", "none")
    expect(cards).to_have_count(before + 1)
    cards.first.click(position=CARD_TAP)
    page.get_by_test_id("btn-discard").click()
    expect(draw).to_be_enabled(timeout=30_000)
    expect(html).to_have_attribute("data-chimes", str(chimes + 1))
    # Never the console's "The AudioContext was not allowed to start" (it came on every load).
    assert not [m for m in said if "AudioContext" in m], said


# ------------------------------------------------------------ S3: a spectator keeps the round's result
def test_a_spectator_keeps_the_round_result_after_the_players_are_ready(scripted):  # noqa: F811
    page, script = scripted
    watching = {"hand": None, "seat": None, "legal": []}
    summary = {
        "round": 0,
        "went_out": 1,
        "melds": [],
        "left": 30.0,
        "ready": [],
        "waiting": [0, 1],
        "seats": [
            {
                "seat": 0,
                "melded": 20,
                "in_hand": 30,
                "bonus": 0,
                "round_score": -10,
                "total": -10,
                "hand": ["KS", "QD"],
            },
            {"seat": 1, "melded": 60, "in_hand": 0, "bonus": 0, "round_score": 60, "total": 60, "hand": []},
        ],
    }
    ended = {
        "kind": "round_over",
        "version": 11,
        "round": 0,
        "went_out": 1,
        "round_scores": [-10, 60],
        "totals": [-10, 60],
    }
    _send(
        script,
        _view(**watching, scores=[-10, 60], to_move=0, phase="draw"),
        11,
        log=[ended],
        pace={**PACE, "summary": summary},
    )
    banner = page.get_by_test_id("round-over")
    expect(banner.get_by_test_id("round-summary")).to_be_visible()
    expect(banner.get_by_test_id("round-over-ok")).to_have_count(0)  # no Ready for a watcher
    # The players are ready: the next round is on. The watcher still reads the result, until Continue.
    last = {**summary, "left": None, "ready": [0, 1], "waiting": []}
    _send(
        script,
        _view(**watching, scores=[-10, 60], to_move=0, phase="draw"),
        12,
        log=[ended],
        pace=PACE,
        last_round=last,
    )
    _at(page, 12)
    expect(banner.get_by_test_id("round-summary")).to_be_visible()
    expect(banner).to_contain_text("Bob went out.")
    banner.get_by_test_id("round-over-ok").click()
    expect(banner).to_be_hidden()


# ------------------------------------------------------------ 4, 11: your tables, replays
@pytest.fixture(scope="module")
def friday(seeded_server) -> dict[str, Any]:
    """A private finished game "Friday game" and a public finished one "Saturday five" (Ann against a bot)."""
    games: dict[str, Any] = {}
    for key, title, public in (("private", "Friday game", False), ("public", "Saturday five", True)):
        made = post_json(
            seeded_server.url,
            "/api/tables",
            {
                "name": "Ann",
                "seats": 2,
                "title": title,
                "bots": {"1": "medium"},
                "rules": {"rounds": 1, "short_pack": True},
                "public": public,
            },
        )
        post_json(seeded_server.url, f"/api/tables/{made['table_id']}/start", {}, made["token"])
        seeded_server.call(lambda app, t=made["table_id"]: _finish(app, t), timeout=120)
        games[key] = made
    return games


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_your_finished_private_game_is_found_from_replays_and_your_tables(
    seeded_server, friday, new_page, size, artifacts
):
    base = seeded_server.url
    waiting = post_json(base, "/api/tables", {"name": "Ann", "seats": 3, "title": "Sunday lunch", "bots": {}})
    page = new_page(*VIEWPORTS[size], touch=size == "phone")
    for made, title, at in (
        (friday["private"], "Friday game", 1),
        (friday["public"], "Saturday five", 2),
        (waiting, "Sunday lunch", 3),
    ):
        _sit(
            page,
            base,
            made["table_id"],
            {"seat": 0, "token": made["token"], "name": "Ann", "creator": True, "title": title, "at": at},
        )
    # The lobby's "Your tables": newest first, each with its status, date and players.
    page.goto(base + "/")
    rows = page.get_by_test_id("your-tables").locator("li")
    expect(rows.first).to_have_attribute("data-status", "lobby")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Sunday lunch")
    expect(rows.nth(0)).to_contain_text("waiting for players")
    for row in (rows.nth(1), rows.nth(2)):
        expect(row).to_contain_text("finished")
        expect(row).to_contain_text("Ann, Bot 2")
    expect(rows.nth(1)).to_contain_text("Saturday five")  # made after Friday's
    expect(rows.nth(2)).to_contain_text("Friday game")
    expect(page.get_by_test_id(f"your-replay-{friday['private']['table_id']}")).to_have_text("Replay")
    _shot(page, artifacts, f"fix3-your-tables-{size}.png", full=True)
    # Replays: this browser's finished games (the private one too), and the public list says why the
    # private one is not in it; each public total stands beside its player's name.
    page.goto(base + "/#replays")
    mine = page.get_by_test_id("your-games").locator("li")
    expect(mine).to_have_count(2)
    expect(page.get_by_test_id("your-games")).to_contain_text("Friday game")
    expect(page.get_by_test_id("replays-note")).to_contain_text("A private game is under Your tables in the lobby")
    public_id = friday["public"]["table_id"]
    record = _get(base, f"/api/games/{public_id}/record")
    summary = next(g for g in _get(base, "/api/games?status=finished") if g["id"] == public_id)
    expect(page.get_by_test_id(f"game-totals-{public_id}")).to_contain_text(
        f"{record['players'][0]} {summary['totals'][0]} \u00b7 {record['players'][1]} {summary['totals'][1]}"
    )
    assert friday["private"]["table_id"] not in page.get_by_test_id("game-list").inner_html()
    _shot(page, artifacts, f"fix3-replays-{size}.png", full=True)
    # The replay names its table and when it was played.
    page.get_by_test_id("your-games").get_by_role("link", name="Friday game").click()
    expect(page.get_by_test_id("replay-title")).to_have_text("Replay: Friday game")
    expect(page.get_by_test_id("replay-meta")).to_contain_text("Ann, Bot 2")
    expect(page.get_by_test_id("replay-meta")).to_contain_text(re.compile(r"\d{4}"))  # the date
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of")
    _shot(page, artifacts, f"fix3-replay-title-{size}.png")


def test_the_page_cleans_a_chat_line_as_the_server_does(server, new_page):
    # The page matches the server's copy of a line it sent against what it typed (its echo): a line
    # the two clean differently came back as "Not sent" after the server had said it. An emoji newer
    # than the server's Unicode (🫨, 🩷) was dropped by the server only; a joiner (👩‍💻, Persian
    # "می‌خواهم") by both, which it should not be.
    from rummy500.server.session.guards import clean_text

    lines = [
        "lol \U0001fae8",
        "\U0001fa77",
        "\U0001f469\u200d\U0001f4bb can code",
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
        "gg\u202e evil\u200b \u0007bell\tand  tab \ue000",
    ]
    page = new_page()
    page.goto(server)
    cleaned = page.evaluate("async (lines) => { const m = await import('/static/names.js'); return lines.map(m.chatClean); }", lines)
    assert cleaned == [clean_text(line, 500) for line in lines]
    assert cleaned[:4] == lines[:4] and cleaned[5] == "gg evil bell and tab"
