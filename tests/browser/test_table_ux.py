"""What a first-time player sees, at 1366×768 (a laptop) and 390×844 (a phone).

A Rummy! call won against a bot on the real server; the hand and the move
buttons inside the viewport with a crowded table; the timers, the round
summary, hints, the rules, the lobby's one-click game, and private replays.
Positions that need no server logic come from the scripted socket of
``test_client`` (fast and exact); the rest run against the real server.
"""

from __future__ import annotations

import json
import re

import pytest
from browser_ui import SocketSeat, create_table, legal, play_action, post_json, verb, view
from playwright.sync_api import expect
from test_client import _view, scripted  # noqa: F401 - the fixture is used by name
from test_variants import _at_version, _first_seed

from rummy500.actions import CallRummy, Discard, Draw, Meld
from rummy500.server.engine import LiveGame, parse_rules

VIEWPORTS = {"laptop": (1366, 768), "phone": (390, 844)}




def _inside(page, testid: str) -> None:
    """The element is wholly inside the viewport, as it is now (no scrolling)."""
    box = page.get_by_test_id(testid).bounding_box()
    size = page.viewport_size
    assert box is not None, testid
    assert box["x"] >= 0 and box["y"] >= 0, (testid, box)
    assert box["x"] + box["width"] <= size["width"] + 0.5 and box["y"] + box["height"] <= size["height"] + 0.5, (
        testid,
        box,
        size,
    )


# ------------------------------------------------------------ a fair Rummy! call
def _bob_discards_for_ann(seed: int) -> list | None:
    """Ann moves first (Cal deals); then Bob draws, melds and discards a card Ann may call Rummy on.

    Cal, the bot, is next: nothing of the plan is his to play.
    """
    game = LiveGame(parse_rules({"preset": "popular"}, 3), ["Ann", "Bob", "Cal"], seed)
    plan: list = []

    def play(seat: int, action) -> None:
        plan.append((seat, action.to_record()))
        game.apply(seat, action)

    if game.match.state.public.to_move != 0:
        return None
    play(0, next(a for a in game.legal(0) if isinstance(a, Draw)))
    play(0, next(a for a in game.legal(0) if isinstance(a, Discard)))
    play(1, next(a for a in game.legal(1) if isinstance(a, Draw)))
    while melds := [a for a in game.legal(1) if isinstance(a, Meld)]:
        play(1, melds[0])
    st = game.match.state
    for d in (a for a in st.legal_actions(1) if isinstance(a, Discard)):
        after = st.copy()
        after.apply(d, 1)
        if any(isinstance(a, CallRummy) for a in after.legal_actions(0)):
            play(1, d)
            return plan
    return None


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_person_wins_a_rummy_call_against_a_bot(seeded_server, new_page, size):
    seed, plan = _first_seed(_bob_discards_for_ann, range(1, 3000))
    seeded_server.seeds.append(seed)
    base = seeded_server.url
    page = new_page(*VIEWPORTS[size])
    table_id = create_table(page, base, name="Ann", seats=3, bots={2: "hard"}, preset="popular", start=False)
    joined = post_json(base, f"/api/tables/{table_id}/join", {"name": "Bob"})
    bob = SocketSeat(base, table_id, joined["token"])
    try:
        expect(page.get_by_test_id("seat-list")).to_contain_text("Bob")
        page.get_by_test_id("start-game").click()
        expect(page.get_by_test_id("hand")).to_be_visible()
        for version, (seat, action) in enumerate(plan):
            if seat == 0:
                _at_version(page, version)
                play_action(page, action)
            else:
                bob.act(version, action)
        # Bob discarded; Cal, the bot, is to draw, but everyone gets the same window to call first.
        window = page.get_by_test_id("call-window")
        expect(window).to_contain_text("You may call now")
        _inside(page, "btn-rummy")
        calls = [a for a in legal(page) if verb(a) == "rummy"]
        assert view(page)["to_move"] == 2 and calls
        play_action(page, calls[0])
        v = view(page)
        assert v["to_move"] == 0 and v["obligation"]  # Ann won the call: the bot never drew
        expect(page.get_by_test_id("game-log")).to_contain_text("Ann: called Rummy!")
        expect(page.get_by_test_id("game-log")).not_to_contain_text("Bot 3:")
        expect(window).to_have_count(0)
    finally:
        bob.close()


# ------------------------------------------------------------ a crowded table
def _crowded(**over) -> dict:
    """Ann's draw with eight melds on the table and a 15-card hand."""
    runs = [["2C", "3C", "4C"], ["5D", "6D", "7D", "8D"], ["9S", "TS", "JS"], ["QH", "KH", "AH"],
            ["3S", "3D", "3H"], ["6C", "7C", "8C", "9C"], ["JD", "QD", "KD"], ["4S", "5S", "6S", "7S"]]
    melds = [{"id": i, "cards": c, "laid_by": [i % 2] * len(c), "kind": "run", "owner": i % 2} for i, c in enumerate(runs)]
    melds[0]["laid_by"] = [0, 0, 1]  # Bob laid off the 4♣ on Ann's first meld
    hand = ["AC", "2D", "2H", "4D", "4H", "5C", "5H", "6H", "7H", "8S", "9D", "9H", "TC", "TD", "KC"]
    v = _view(phase="draw", hand=hand, hand_sizes=[15, 6], melds=melds, discard=["3C", "9D", "QD", "4S"],
              legal=[{"draw": "stock"}, {"take": 1}])
    v.update(over)
    return v


def _crowded_at(scripted, size: str, version: int):  # noqa: F811
    """The scripted page at a viewport size, showing the crowded position at ``version``."""
    page, script = scripted
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))
    script.next_view = _crowded()  # what a sync (after the skipped versions) answers
    script.push(_crowded(), version=version)
    return page, script


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_hand_and_moves_stay_in_view_on_a_crowded_table(scripted, size):  # noqa: F811
    page, _ = _crowded_at(scripted, size, 11)
    expect(page.get_by_test_id("meld-7")).to_be_attached()
    expect(page.get_by_test_id("btn-draw")).to_be_enabled()
    # Whether the page is scrolled to the top or the bottom, the hand and the moves are on screen.
    for where in ("0", "document.body.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {where})")
        _inside(page, "btn-draw")
        _inside(page, "btn-discard")
        for card in ("AC", "KC"):  # the fan's first and last cards
            _inside(page, f"card-{card}")
    # Fifteen cards fan out on one row that fits the screen.
    tops = page.get_by_test_id("hand").locator(".card").evaluate_all("els => els.map(e => e.getBoundingClientRect().top)")
    assert len(tops) == 15 and max(tops) - min(tops) < 2
    # Melds are numbered from 1, as seats are; a lay-off's tag is an initial and a seat number (never "Al").
    expect(page.get_by_test_id("meld-0")).to_contain_text("#1")
    expect(page.get_by_test_id("meld-0").locator(".by")).to_have_text("B2")


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_pile_cards_that_may_not_be_taken_say_why(scripted, size):  # noqa: F811
    page, _ = _crowded_at(scripted, size, 12)
    expect(page.get_by_test_id("action-hint")).to_have_text("Draw from the stock, or take the top card of the discard pile.")
    deep = page.get_by_test_id("pile-card-3")
    expect(deep).to_have_attribute("aria-disabled", "true")
    # It looks it: dimmed, while the top card (which may be taken) is not.
    dim = "el => getComputedStyle(el).filter"
    assert deep.evaluate(dim) != "none" and page.get_by_test_id("pile-card-1").evaluate(dim) == "none"
    deep.click(position={"x": 6, "y": 20}, force=True)  # a person can tap it: Playwright would wait for "enabled"
    expect(page.get_by_test_id("action-hint")).to_have_text("Only the top card of the discard pile may be taken in this game.")
    expect(page.get_by_test_id("pile-card-1")).to_have_class(re.compile(r"\busable\b"))


# ------------------------------------------------------------ timers and hints
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_turn_clock_counts_down_and_a_hint_explains_itself(scripted, size):  # noqa: F811
    page, script = scripted
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))
    script.next_view = _crowded()
    script.version = 13
    pace = {"turn_clock": 30, "hints": True, "call_window": None, "summary": None,
            "clock": {"seat": 0, "left": 30.0, "seconds": 30, "kind": "turn"}}
    script.ws.send(json.dumps({"type": "state", "version": 13, "view": _crowded(), "table": script.table, "log": [],
                               "pace": pace}))
    clock = page.get_by_test_id("turn-clock")
    expect(clock).to_contain_text(re.compile(r"You have \d+ s for this turn \u2014 then the computer plays it for you"))
    first = int(re.search(r"\d+", clock.inner_text()).group())
    assert 0 < first <= 30
    # It counts down (whatever the machine's speed).
    page.wait_for_function(
        "(n) => +document.querySelector('[data-testid=turn-clock]').textContent.match(/\\d+/)[0] < n", arg=first
    )
    page.get_by_test_id("btn-hint").click()
    assert script.sent[-1] == {"type": "hint"}
    thinking = page.locator(".toast", has_text="Thinking")
    expect(thinking).to_have_count(1)
    # One hint at a time: the button waits for the answer (repeated clicks made the server think again).
    hint_btn = page.get_by_test_id("btn-hint")
    expect(hint_btn).to_be_disabled()
    expect(hint_btn).to_have_text("Thinking\u2026")
    script.ws.send(json.dumps({"type": "hint", "version": 13, "action": {"draw": "stock"}, "text": "draw",
                               "reason": "Nothing in the discard pile helps your hand enough."}))
    expect(page.get_by_test_id("action-hint")).to_contain_text("Hint: Draw from the stock.")
    expect(page.get_by_test_id("hint-reason")).to_have_text("Nothing in the discard pile helps your hand enough.")
    expect(thinking).to_have_count(0)  # the answer came: "Thinking..." does not linger beside it
    expect(hint_btn).to_be_enabled()
    expect(hint_btn).to_have_text("Hint")


def test_a_hint_to_let_a_chance_pass_says_so_in_words(scripted):  # noqa: F811
    page, script = scripted
    script.next_view = _crowded()
    script.version = 13
    script.ws.send(json.dumps({"type": "state", "version": 13, "view": _crowded(), "table": script.table, "log": []}))
    page.get_by_test_id("btn-hint").click()
    # Nothing is sent to let an out-of-turn chance pass: the hint has no action, its text says what to do.
    script.ws.send(json.dumps({"type": "hint", "version": 13, "action": None, "text": "let the chance pass",
                               "reason": "Calling Rummy! on the 7\u2665 would not pay off for your hand."}))
    expect(page.get_by_test_id("action-hint")).to_contain_text("Hint: Let the chance pass. Calling Rummy! on the 7\u2665")
    expect(page.get_by_test_id("btn-hint")).to_have_text("Hint")


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_rules_in_words_at_the_table_and_the_rules_page(scripted, size):  # noqa: F811
    page, script = scripted
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))
    panel = page.get_by_test_id("rules-panel")
    panel.locator("summary").click()
    rules = page.get_by_test_id("table-rules")
    expect(rules).to_contain_text("First to 500 points wins.")
    expect(rules).to_contain_text("You may take any card of the discard pile")
    expect(rules).not_to_contain_text("any_depth")
    page.goto(page.url.split("/t/")[0] + "/#rules")
    expect(page.get_by_test_id("rules-page")).to_contain_text("A set is 3 or 4 cards")


# ------------------------------------------------------------ the lobby
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_one_click_game_against_the_computer(server, new_page, size):
    page = new_page(*VIEWPORTS[size])
    page.goto(server + "/")
    page.get_by_test_id("name-input").fill("Ann")
    # A player alone gets the computer by default.
    expect(page.get_by_test_id("bot-seat-1")).to_have_value(re.compile(r"\w+"))
    page.get_by_test_id("play-computer").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    expect(page.get_by_test_id("player-1")).to_contain_text("bot")
    # "Your tables" in the lobby names the table, not its id.
    page.goto(server + "/")
    expect(page.locator(".your-tables")).to_contain_text("Ann's table")


@pytest.mark.parametrize(("width", "height", "touch"), [(1366, 500, False), (390, 600, True)], ids=["laptop-mouse", "phone-touch"])
def test_a_press_on_draw_leaves_the_page_where_it_was(server, new_page, width, height, touch):
    # The buttons sit in the hand area pinned to the bottom of the screen. After Draw the focus
    # moved on to the next enabled button, and focusing it scrolled the page by that area's
    # height (scroll-padding), hiding the pile and the status line: 142 px here on the laptop,
    # 376 px on the phone (before 7 December 2026). The windows are short so that the page scrolls.
    page = new_page(width, height, touch=touch)
    page.goto(server + "/")
    page.get_by_test_id("play-computer").click()  # no name typed: the game still gets one
    draw = page.get_by_test_id("btn-draw")
    expect(draw).to_be_enabled(timeout=30_000)
    assert page.evaluate("document.documentElement.scrollHeight - innerHeight") > 100  # the page can scroll
    page.evaluate("window.scrollTo(0, 0)")
    cards = page.get_by_test_id("hand").locator(".card")
    before = cards.count()
    # A press on the button where it is (Playwright's click() and tap() may scroll first to reach it).
    box = draw.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    expect(cards).to_have_count(before + 1)
    page.wait_for_timeout(300)  # (a scroll would have happened by now)
    assert page.evaluate("document.activeElement.dataset.testid") == "btn-hint"  # the focus moved on ...
    assert page.evaluate("window.scrollY") == 0  # ... and the page stayed
    page.goto(server + "/")
    expect(page.locator(".your-tables")).to_contain_text("Player's table")


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_keyboard_focus_stays_on_the_moves_and_others_moves_are_spoken(scripted, size):  # noqa: F811
    page, script = _crowded_at(scripted, size, 14)
    page.get_by_test_id("btn-draw").focus()
    page.keyboard.press("Enter")
    assert script.actions()[-1]["action"] == {"draw": "stock"}
    after = _view()
    script.next_view = after
    bob = {"kind": "action", "version": 15, "round": 0, "seat": 1, "name": "Bob", "action": {"discard": "9D"},
           "text": "discard 9D", "auto": False, "events": [{"event": "discarded", "seat": 1, "cards": ["9D"]}]}
    script.push(after, version=15, log=[bob])
    # The focus is back on a move button, not lost to the page.
    expect(page.locator("[data-testid=actions] button:focus")).to_have_count(1)
    # Screen readers hear Bob's move (a polite live region), once.
    expect(page.get_by_test_id("live-moves")).to_have_text("Bob: discarded 9 of diamonds")
