"""Web play at 1366×768 (a laptop) and 390×844 (a phone), issue 12's remaining items.

The house-rule editor in a player's words; the game log read from the
server's events; what the page says when the server closes its socket (4403,
4408, 4429); a turn clock running out on an idle player; the last meld never
under the sticky hand; a tap on a card that a state update cannot swallow.
Positions that need no server logic come from the scripted socket of
``test_client``; the rest run against the real server.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
import urllib.request
from typing import Any

import pytest
from browser_ui import CARD_TAP, create_table, post_json, set_option, start_game, wait_for_my_move
from playwright.sync_api import expect
from test_client import _view, scripted  # noqa: F401 - the fixture is used by name
from test_table_ux import VIEWPORTS, _crowded, _crowded_at

CODE_WORD = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=5) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())




def _size(page, size: str) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))


# ------------------------------------------------------------ the house-rule editor
def _open_house_rules(page, server: str, option: str) -> None:
    """The lobby as Ann, its house rules open once the catalogue has made ``option``'s row."""
    page.goto(server + "/")
    page.get_by_test_id("name-input").fill("Ann")
    expect(page.get_by_test_id(f"opt-{option}")).to_be_attached()
    page.get_by_test_id("house-rules").locator("summary").click()


def _create(page, server: str) -> dict:
    """Press Create table; the rules of the table made, as the server keeps them."""
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    return _get(server, f"/api/tables/{page.url.rsplit('/', 1)[1]}")["rules"]


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_house_rule_editor_speaks_a_players_words(server, new_page, size):
    catalogue = {o["name"]: o for o in _get(server, "/api/rules")["options"]}
    page = new_page(*VIEWPORTS[size])
    _open_house_rules(page, server, "discard_draw")
    editor = page.get_by_test_id("rules-editor")
    expect(editor).to_be_visible()
    # Each value shows its label from the catalogue; no code word anywhere in the editor.
    for name in ("discard_draw", "must_use_taken", "first_discard", "stock_out"):
        labels = [c["label"] for c in catalogue[name]["choices"]]
        expect(page.get_by_test_id(f"opt-{name}").locator("option")).to_have_text(labels)
    text = editor.inner_text()
    assert not CODE_WORD.findall(text), CODE_WORD.findall(text)
    # The description is the one of the value selected, and follows the selection.
    first = catalogue["first_discard"]["choices"]
    desc = page.get_by_test_id("opt-first_discard-desc")
    expect(desc).to_have_text(first[0]["description"])
    page.get_by_test_id("opt-first_discard").select_option(label=first[1]["label"])
    expect(desc).to_have_text(first[1]["description"])
    # A yes/no option too: each side has its own words.
    swap = {c["value"]: c for c in catalogue["joker_swap"]["choices"]}
    expect(page.get_by_test_id("opt-joker_swap-desc")).to_have_text(swap[False]["description"])
    set_option(page, "joker_swap", True)
    assert (
        page.get_by_test_id("opt-joker_swap").evaluate("s => s.selectedOptions[0].textContent") == swap[True]["label"]
    )
    expect(page.get_by_test_id("opt-joker_swap-desc")).to_have_text(swap[True]["description"])
    # Seats are counted from 1, as everywhere else in the app.
    set_option(page, "partnership", True)
    expect(page.get_by_test_id("opt-partnership-desc")).to_contain_text("seats 1 & 3 against 2 & 4")
    set_option(page, "partnership", False)
    expect(page.get_by_test_id("bots")).to_contain_text("Seat 1")
    expect(page.get_by_test_id("bots")).not_to_contain_text("Seat 0")
    # Another target: the box starts from the current value, never empty; emptied, it asks for a number.
    page.get_by_test_id("opt-target").select_option(label="Another number\u2026")
    box = page.get_by_test_id("opt-target-number")
    expect(box).to_have_value("500")
    box.fill("")
    page.get_by_test_id("create-table").click()
    banner = page.get_by_test_id("error-banner")
    expect(banner).to_have_text(
        "House rules: \u201cWinning total\u201d needs a number \u2014 type one, or pick one of its values."
    )
    expect(banner).not_to_contain_text("cannot be 0")
    expect(box).to_be_focused()
    # A number out of the option's range is named too (the old editor's "cannot be 0").
    assert catalogue["target"]["number"]["min"] == 1
    box.fill("0")
    page.get_by_test_id("create-table").click()
    expect(banner).to_have_text("House rules: \u201cWinning total\u201d must be at least 1.")
    box.fill("250")
    assert _create(page, server)["target"] == 250
    start_game(page)  # a started table no longer counts among this client's waiting tables


def test_house_card_values_are_rows_of_a_card_and_its_points(server, new_page):
    """custom_values is edited a card or rank a row, each checked by name before the table is made."""
    page = new_page(390, 844)
    _open_house_rules(page, server, "custom_values")
    editor = page.get_by_test_id("opt-custom_values")
    rows = editor.locator(".kv-row")
    expect(rows).to_have_count(0)  # the standard game has none
    expect(page.get_by_test_id("opt-custom_values-desc")).to_contain_text("a card (QS) or a rank (Q, 10, A, JK)")
    add = page.get_by_test_id("opt-custom_values-add")
    add.click()
    key, points = rows.nth(0).locator("input").nth(0), rows.nth(0).locator("input").nth(1)
    expect(key).to_be_focused()
    key.fill("ZZ")
    points.fill("40")
    banner = page.get_by_test_id("error-banner")
    page.get_by_test_id("create-table").click()
    expect(banner).to_have_text(
        "House rules: \u201cHouse card values\u201d: \u201cZZ\u201d is no card or rank \u2014 write a card (QS) or a rank (Q, 10, A, JK)."
    )
    expect(key).to_be_focused()
    key.fill("qs")
    points.fill("")
    page.get_by_test_id("create-table").click()
    expect(banner).to_have_text("House rules: \u201cHouse card values\u201d: QS needs a whole number of points.")
    expect(points).to_be_focused()
    points.fill("40")
    for k, v in (("10", "12"), ("T", "5")):
        add.click()
        rows.last.locator("input").nth(0).fill(k)
        rows.last.locator("input").nth(1).fill(v)
    page.get_by_test_id("create-table").click()
    expect(banner).to_have_text("House rules: \u201cHouse card values\u201d: T is given twice.")
    rows.last.get_by_role("button", name="Remove this card value").click()
    expect(rows).to_have_count(2)
    expect(page.locator("[data-option=custom_values]")).to_have_class(re.compile(r"\bchanged\b"))
    assert _create(page, server)["custom_values"] == {"QS": 40, "T": 12}  # the engine writes a ten T
    start_game(page)  # a started table no longer counts among this client's waiting tables


def test_house_rules_send_what_the_engine_plays_and_refusals_point_at_the_rows(server, new_page):
    """Implied values shown and sent, whole numbers only, refusals in the form's words on their rows."""
    page = new_page(1366, 768)
    _open_house_rules(page, server, "direction")
    # Labels and preset names in a player's words.
    expect(page.locator("[data-option=first_meld_min] .rule-name")).to_have_text("First meld minimum")
    expect(page.get_by_test_id("preset").locator("option[value=dealers_gambit]")).to_have_text("Dealer's Gambit")
    badge = page.get_by_test_id("house-rules").locator("summary .badge")
    # "Another number…" starts from the number played now: a low ace counts 1, or 5 with 5-10-15 values;
    # an emptied box is no change.
    low, low_box = page.get_by_test_id("opt-low_ace_value"), page.get_by_test_id("opt-low_ace_value-number")
    low.select_option(label="Another number\u2026")
    expect(low_box).to_have_value("1")
    low_box.fill("")
    expect(badge).to_have_text("")
    low.select_option(index=0)
    set_option(page, "card_values", "flat")
    low.select_option(label="Another number\u2026")
    expect(low_box).to_have_value("5")
    low.select_option(index=0)
    set_option(page, "card_values", "standard")
    # Typed numbers are whole numbers or refused by name, never cut.
    page.get_by_test_id("opt-target").select_option(label="Another number\u2026")
    box, banner, create = page.get_by_test_id("opt-target-number"), page.get_by_test_id("error-banner"), page.get_by_test_id("create-table")
    for typed in ("12.7", "1e3"):
        box.fill(typed)
        create.click()
        expect(banner).to_have_text(
            f"House rules: \u201cWinning total\u201d needs a whole number (digits only, a minus sign first if below 0): \u201c{typed}\u201d is not one."
        )
        expect(box).to_be_focused()
    box.fill("250")
    # Two refused options: each problem once, in the form's words, their rows marked, the first focused.
    set_option(page, "set_suits", "any")
    set_option(page, "rummy_card_value", 15)
    create.click()
    expect(banner.locator("li")).to_have_count(2)
    text = banner.inner_text()
    assert text.count("needs two packs") == 1 and not CODE_WORD.findall(text), text
    assert "\u201cSuits in a set: Suits may repeat\u201d needs two packs (\u201cPacks: One pack\u201d (automatic" in text
    assert "\u201cValue of a card claimed by Rummy\u201d needs \u201cCalling Rummy\u201d (\u201cCalling Rummy: Off\u201d)" in text
    for name in ("set_suits", "rummy_card_value"):
        expect(page.locator(f"[data-option={name}]")).to_have_class(re.compile(r"\binvalid\b"))
        expect(page.get_by_test_id(f"opt-{name}")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_test_id("opt-set_suits")).to_be_focused()
    expect(page.get_by_test_id("opt-set_suits").locator("option:checked")).to_have_text("Suits may repeat")  # kept
    set_option(page, "set_suits", "distinct")
    expect(page.locator("[data-option=set_suits]")).not_to_have_class(re.compile(r"\binvalid\b"))
    set_option(page, "rummy_card_value", "normal")
    # Dealer's Gambit: the form shows the anticlockwise play it implies and holds the seats to 2-7;
    # a clockwise game chosen by hand is sent as such.
    seats = page.get_by_test_id("seats")
    seats.select_option("8")
    set_option(page, "dealers_gambit", True)
    expect(seats).to_have_value("7")
    expect(seats.locator("option[value='8']")).to_be_disabled()
    expect(page.get_by_test_id("seats-note")).to_have_text("Dealer's Gambit: 2 to 7 seats.")
    direction = page.get_by_test_id("opt-direction")
    expect(direction.locator("option:checked")).to_have_text("Anticlockwise")
    expect(page.locator("[data-option=direction]")).not_to_have_class(re.compile(r"\bchanged\b"))
    set_option(page, "direction", "clockwise")
    set_option(page, "dealers_gambit", False)
    expect(seats).to_have_value("8")  # back to the seats the player had
    set_option(page, "dealers_gambit", True)
    seats.select_option("2")
    # Another preset keeps the options the player set that it does not set itself.
    page.get_by_test_id("preset").select_option("popular")
    expect(page.get_by_test_id("opt-dealers_gambit").locator("option:checked")).to_have_text("Dealer's Gambit")
    expect(box).to_have_value("250")
    rules = _create(page, server)
    assert (rules["dealers_gambit"], rules["direction"], rules["target"], rules["calling_rummy"]) == (
        True, "clockwise", 250, "pile"
    )
    start_game(page)


# ------------------------------------------------------------ the game log
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_game_log_reads_the_servers_events(scripted, size):  # noqa: F811
    page, script = scripted
    _size(page, size)

    def action(version: int, seat: int, name: str, act: dict, events: list, auto: bool = False) -> dict:
        return {
            "kind": "action",
            "version": version,
            "round": 0,
            "seat": seat,
            "name": name,
            "action": act,
            "text": "?",
            "auto": auto,
            "events": events,
        }

    log = [
        action(11, 1, "Bob", {"draw": "stock"}, [{"event": "drew", "seat": 1, "count": 1, "cards": None}]),
        # What Bob took is the server's word (the event), not worked out from {"take": 3}.
        action(12, 1, "Bob", {"take": 3}, [{"event": "took", "seat": 1, "cards": ["9D", "QD", "4S"], "removed": []}]),
        action(
            13,
            1,
            "Bob",
            {"meld": ["9D", "TD", "JD"]},
            [{"event": "melded", "seat": 1, "cards": ["9D", "TD", "JD"], "meld": 2}],
        ),
        action(
            14,
            1,
            "Bob",
            {"discard": "4S"},
            [{"event": "discarded", "seat": 1, "cards": ["4S"]}, {"event": "reshuffled", "count": 30, "cards": None}],
        ),
        {"kind": "reshuffle", "version": 14, "round": 0},
        action(15, 0, "Ann", {"draw": "stock"}, [{"event": "drew", "seat": 0, "count": 1, "cards": None}], auto=True),
    ]
    script.push(_view(), version=15, log=log)
    game_log = page.get_by_test_id("game-log")
    expect(game_log.locator("li")).to_have_text(
        [
            "Bob: drew a card from the stock",
            "Bob: took 3 cards from the pile: 9\u2666 Q\u2666 4\u2660",
            "Bob: melded 9\u2666 10\u2666 J\u2666",
            "Bob: discarded 4\u2660",
            "The discard pile was shuffled into a new stock.",
            "Ann: drew a card from the stock (played by the computer)",
        ]
    )
    # The round's end reads from its own entry (with the scores), once.
    end = {
        "kind": "round_over",
        "version": 16,
        "round": 0,
        "went_out": 1,
        "round_scores": [-20, 85],
        "totals": [100, 170],
    }
    script.push(_view(), version=16, log=[*log, end])
    expect(game_log.locator("li").last).to_have_text("Round 1 over. Bob went out. Ann -20, Bob +85")


# ------------------------------------------------------------ close codes
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_page_says_why_the_server_closed_its_socket(scripted, size):  # noqa: F811
    page, script = scripted
    _size(page, size)
    status = page.get_by_test_id("conn-status")
    banner = page.get_by_test_id("error-banner")
    expect(status).to_have_text("connected")
    # 4408: the connection fell behind; the page says so and is straight back (and resyncs).
    first = script.ws
    first.close(code=4408, reason="")
    expect(banner).to_contain_text("Your connection fell behind the table")
    expect(status).to_have_text("connected", timeout=10_000)
    assert script.ws is not first
    expect(banner).to_be_hidden()
    # 4429: too many sockets from this client; the page says what to do and keeps trying, slower:
    # not within 4 s (its own clock, which the test then moves on by the rest of the wait).
    page.clock.install()
    second = script.ws
    second.close(code=4429, reason="")
    expect(banner).to_contain_text("Too many rummy500 tabs are open")
    expect(status).to_contain_text("too many tabs")
    page.clock.fast_forward(4000)
    expect(status).to_contain_text("too many tabs")
    assert script.ws is second
    page.clock.fast_forward(2000)
    expect(status).to_have_text("connected")
    assert script.ws is not second
    expect(banner).to_be_hidden()
    expect(page.get_by_test_id("hand")).to_be_visible()
    # 4403: a page from an address the server does not serve; trying again cannot help, so it does not.
    third = script.ws
    third.close(code=4403, reason="")
    expect(banner).to_contain_text("The game server refused this page")
    expect(status).to_have_text("offline")
    page.wait_for_timeout(1500)
    assert script.ws is third
    expect(status).to_have_text("offline")


# (Behaviour, not layout: one screen size is enough, the phone. CI time is counted.)
@pytest.mark.parametrize("size", ["phone"])
def test_a_page_from_an_address_the_server_does_not_serve_is_told_so(server, browser, size):
    """The real server's 4403 reaches the page (it is sent after the socket opens) and the page explains it."""
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 2, "bots": {"1": "random"}})
    width, height = VIEWPORTS[size]
    # The page's own policy allows sockets to its own address only: set it aside to reach another.
    ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # The page is served from 127.0.0.1 but its socket goes to "localhost": to
    # the server, a page of another site (as behind a proxy without --public-url).
    page.add_init_script(
        """(() => {
        const Real = window.WebSocket;
        window.WebSocket = class extends Real {
          constructor(url, protocols) { super(url.replace("//127.0.0.1:", "//localhost:"), protocols); }
        };
      })();"""
    )
    page.goto(f"{server}/t/{made['table_id']}")
    expect(page.get_by_test_id("error-banner")).to_contain_text("The game server refused this page")
    status = page.get_by_test_id("conn-status")
    expect(status).to_have_text("offline")
    page.wait_for_timeout(1500)
    expect(status).to_have_text("offline")  # no retry: it cannot help
    ctx.close()
    assert not errors, errors


# (Behaviour, not layout: one screen size is enough, the laptop.)
@pytest.mark.parametrize("size", ["laptop"])
def test_too_many_connections_from_one_address_are_explained_and_retried_slowly(server, new_page, size):
    """The real server's 4429: this address already holds every socket it may.

    The page says what to do and tries again every few seconds (not in a
    tight loop); once a socket closes it gets in on its next try.
    """
    from websockets.sync.client import connect

    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 2, "bots": {"1": "random"}})
    start = urllib.request.Request(
        f"{server}/api/tables/{made['table_id']}/start",
        data=b"{}",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {made['token']}"},
        method="POST",
    )
    urllib.request.urlopen(start, timeout=5).close()  # noqa: S310 - loopback only
    url = f"{server.replace('http', 'ws', 1)}/ws/tables/{made['table_id']}"
    with contextlib.ExitStack() as held:
        # Watchers' sockets from the test (the browser's address too) until the server refuses one.
        last = None
        for _ in range(500):
            # Held open and never read again: their messages queue without a bound, so nothing backs up.
            ws = held.enter_context(connect(url, ping_interval=None, max_queue=None, close_timeout=2))
            if json.loads(ws.recv(timeout=10)).get("code") == "too_many_sockets":
                break
            last = ws
        else:
            pytest.fail("the server never refused a socket")
        page = new_page(*VIEWPORTS[size])
        page.clock.install()  # the page's own clock, which the test moves on instead of waiting
        # Count the sockets the page opens: a tight retry loop would open dozens.
        page.add_init_script(
            """(() => {
            const Real = window.WebSocket;
            window.rummySocketsOpened = 0;
            window.WebSocket = class extends Real {
              constructor(...args) { super(...args); window.rummySocketsOpened += 1; }
            };
          })();"""
        )
        page.goto(f"{server}/")
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, v)",
            [f"rummy500.seat.{made['table_id']}", json.dumps({"seat": 0, "token": made["token"], "name": "Ann", "creator": True})],
        )
        page.goto(f"{server}/t/{made['table_id']}")
        banner, status = page.get_by_test_id("error-banner"), page.get_by_test_id("conn-status")
        expect(banner).to_contain_text("Too many rummy500 tabs are open")
        expect(banner).to_contain_text("Close some tabs")
        expect(status).to_have_text(re.compile(r"too many tabs \u2014 retrying in \d+s"))
        wait = int(re.search(r"\d+", status.inner_text()).group())
        assert wait >= 4, status.inner_text()  # seconds, not a tight loop
        # On one line, even on a phone (the bar wraps instead).
        line = status.evaluate("el => parseFloat(getComputedStyle(el).lineHeight) || 1.3 * parseFloat(getComputedStyle(el).fontSize)")
        assert status.bounding_box()["height"] < 2 * line, status.bounding_box()
        # Another tab closes: the page gets in on its next try, and says so.
        last.close()
        page.clock.fast_forward(wait * 1000 + 1500)
        expect(status).to_have_text("connected")
        expect(banner).to_be_hidden()
        expect(page.get_by_test_id("hand")).to_be_visible()  # Ann's game
        assert 2 <= page.evaluate("window.rummySocketsOpened") <= 4


# ------------------------------------------------------------ the turn clock
async def _clock_nearly_out(app: Any, table_id: str, left: float) -> None:
    """Time goes by on the table's turn clock until only ``left`` seconds remain.

    The server's clock is ``time.monotonic``; a test cannot wait 30 s, so the
    turn is made to have started that much earlier. Then, as after any change,
    every page gets the timers and the bot driver looks again.
    """
    session = await app.state.manager.session(table_id)
    session.pace.turn_since = time.monotonic() - session.pace.settings.turn_clock + left
    session.announce_state()
    session.driver.wake()


# (Behaviour, not layout: one screen size is enough, the phone.)
@pytest.mark.parametrize("size", ["phone"])
def test_an_idle_player_is_played_for_when_the_turn_clock_runs_out(seeded_server, new_page, size):
    page = new_page(*VIEWPORTS[size])
    table_id = create_table(page, seeded_server.url, name="Ann", seats=2, bots={1: "random"}, turn_clock=30)
    wait_for_my_move(page)
    clock = page.get_by_test_id("turn-clock")
    expect(clock).to_contain_text(re.compile(r"You have \d+ s for this turn \u2014 then the computer plays it for you"))
    before = page.evaluate("() => window.rummy.version")
    # Ann does nothing. Time goes by: the page counts the last seconds down...
    seeded_server.call(lambda app: _clock_nearly_out(app, table_id, 3.0))
    expect(clock).to_contain_text(re.compile(r"You have [1-3] s for this turn"))
    expect(clock).to_have_class(re.compile(r"\blow\b"))
    # ...and when they are out, the computer plays Ann's turn for her, and the log says so.
    log = page.get_by_test_id("game-log")
    played = re.compile(
        r"Ann: (drew a card from the stock|took \S+ from the pile|took \d+ cards from the pile: [^(]+) \(played by the computer\)"
    )
    expect(log).to_contain_text(played, timeout=15_000)
    # The turn ends with a discard, or (the deal is not seeded) with Ann going out on melds alone.
    expect(log).to_contain_text(re.compile(r"Ann: discarded \S+ \(played by the computer\)|Ann went out"))
    assert page.evaluate("() => window.rummy.version") > before


# ------------------------------------------------------------ the sticky hand and the melds
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_last_meld_is_never_under_the_sticky_hand(scripted, size):  # noqa: F811
    page, _ = _crowded_at(scripted, size, 11)
    last = page.get_by_test_id("meld-7")
    expect(last).to_be_attached()
    area = page.locator(".my-area")
    hand_h = area.bounding_box()["height"]
    # The page knows how tall the hand is: whatever is scrolled into view stops above it.
    px = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--hand-h'))")
    assert abs(px - hand_h) <= 1, (px, hand_h)
    for how in ("el => el.scrollIntoView({block: 'nearest'})", "el => el.scrollIntoView({block: 'end'})"):
        page.evaluate("() => window.scrollTo(0, 0)")
        last.evaluate(how)
        page.wait_for_timeout(50)
        box, hand = last.bounding_box(), area.bounding_box()
        assert box["y"] >= 0, box
        assert box["y"] + box["height"] <= hand["y"] + 0.5, (how, box, hand)
        # Nothing covers its last card: a tap there reaches the meld.
        card = last.locator(".card").last.bounding_box()
        hit = page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-testid=meld-7]')",
            [card["x"] + card["width"] / 2, card["y"] + card["height"] / 2],
        )
        assert hit, (how, card, hand)
    # Scrolled to the very bottom, too.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    box, hand = last.bounding_box(), area.bounding_box()
    assert box["y"] + box["height"] <= hand["y"] + 0.5, (box, hand)


# ------------------------------------------------------------ a tap and a state update
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_card_tap_survives_a_state_arriving_mid_tap(scripted, size):  # noqa: F811
    """The cause of the intermittent "Meld stays disabled": a state (an opponent's
    out-of-turn move, a timer) re-drew the hand between the press and the release
    of a tap on a card, so no click fired and the card stayed unselected."""
    page, script = scripted
    _size(page, size)
    script.push(_crowded(phase="play", legal=[{"meld": ["4H", "5H", "6H"]}, {"discard": "4H"}]), version=11)
    card = page.get_by_test_id("card-5H")
    expect(card).to_have_attribute("aria-pressed", "false")
    node = card.element_handle()
    box = card.bounding_box()
    page.mouse.move(box["x"] + CARD_TAP["x"], box["y"] + CARD_TAP["y"])
    page.mouse.down()
    # A state arrives while the button is pressed (the same hand; Bob's move elsewhere).
    script.push(
        _crowded(phase="play", legal=[{"meld": ["4H", "5H", "6H"]}, {"discard": "4H"}], hand_sizes=[15, 5]), version=12
    )
    page.wait_for_function("() => window.rummy.version === 12")
    page.mouse.up()
    expect(card).to_have_attribute("aria-pressed", "true")
    assert node.evaluate("el => el.isConnected")  # the same button, not a new one
    for c in ("4H", "6H"):
        page.get_by_test_id(f"card-{c}").click(position=CARD_TAP)
    expect(page.get_by_test_id("btn-meld")).to_be_enabled()
