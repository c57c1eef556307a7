"""The client's own logic on scripted positions: which buttons a `legal` list
enables, joker choices, lay-off targets, Rummy calls out of turn, labels, and
the resync when a state version is skipped.

The page, its files and the REST calls come from the real server; only the
table's websocket is answered by the test (Playwright's ``route_web_socket``),
so each position is exactly the one under test.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from browser_ui import CARD_TAP, MY_TURN_TITLE, post_json
from playwright.sync_api import expect


def _view(**over) -> dict:
    v = {
        "seat": 0,
        "players": 2,
        "dealer": 1,
        "to_move": 0,
        "phase": "play",
        "hand": ["5H", "6H", "JK", "KS", "KD", "KC", "2C"],
        "hand_sizes": [7, 9],
        "known": [[], ["QD"]],
        "stock_count": 20,
        "discard": ["3C", "9D", "QD", "4S"],
        "melds": [
            {"id": 0, "cards": ["8S", "9S", "TS"], "laid_by": [1, 1, 1], "kind": "run", "owner": 1},
            {"id": 1, "cards": ["3H", "JK=4H", "5H", "6H"], "laid_by": [1, 1, 1, 0], "kind": "run", "owner": 1},
        ],
        "obligation": None,
        "round_scores": None,
        "went_out": None,
        "scores": [120, 85],
        "legal": [
            {"meld": ["5H", "6H", "JK=4H"]},
            {"meld": ["5H", "6H", "JK=7H"]},
            {"meld": ["KS", "KD", "KC"]},
            {"layoff": ["JK=7S"], "on": 0},
            {"layoff": ["JK=JS"], "on": 0},
            {"discard": "2C"},
            {"discard": "KS"},
            {"discard": "KD"},
            {"discard": "KC"},
            {"discard": "5H"},
            {"discard": "6H"},
        ],
    }
    v.update(over)
    return v


class ScriptedTable:
    """Answers the page's websocket with scripted states; records what it sends."""

    def __init__(self, page, table: dict):
        self.sent: list[dict] = []
        self.ws = None
        self.table = table
        self.version = 10
        self.next_view = _view()
        page.route_web_socket(re.compile(r"/ws/tables/"), self._handler)

    def _handler(self, ws) -> None:
        self.ws = ws
        ws.on_message(self._on_message)

    def _on_message(self, message) -> None:
        msg = json.loads(message)
        self.sent.append(msg)
        if msg["type"] == "sync":
            self.push(self.next_view)

    def push(self, view: dict, version: int | None = None, log: list | None = None, rounds: list | None = None) -> None:
        if version is not None:
            self.version = version
        msg = {"type": "state", "version": self.version, "view": view, "table": self.table, "log": log or []}
        if rounds is not None:
            msg["rounds"] = rounds
        self.ws.send(json.dumps(msg))

    def actions(self) -> list[dict]:
        return [m for m in self.sent if m["type"] == "action"]


@pytest.fixture
def scripted(server, new_page):
    """A page seated at a real table (seat 0) whose socket the test scripts."""
    return _seated_scripted(server, new_page())


@pytest.fixture
def scripted_touch(server, new_page):
    """The same on a phone with a touch screen (taps are touches, not mouse clicks)."""
    return _seated_scripted(server, new_page(390, 844, touch=True))


def _started_table(server: str, name: str) -> dict:
    """A 2-seat standard table of ``name`` against a random bot, started (its creation answer: id and token).

    Started, so the server's limit on tables waiting in the lobby never counts it.
    """
    res = post_json(
        server, "/api/tables", {"name": name, "seats": 2, "preset": "standard", "rules": {}, "bots": {"1": "random"}}
    )
    req = urllib.request.Request(
        f"{server}/api/tables/{res['table_id']}/start",
        data=b"{}",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {res['token']}"},
        method="POST",
    )
    urllib.request.urlopen(req, timeout=5).close()  # noqa: S310 - loopback only
    return res


def _seated_scripted(server, page):
    res = _started_table(server, "Ann")
    table = json.loads(urllib.request.urlopen(f"{server}/api/tables/{res['table_id']}", timeout=5).read())  # noqa: S310
    table = {
        **table,
        "status": "running",
        "seats": [
            {**table["seats"][0]},
            {"seat": 1, "name": "Bob", "kind": "human", "bot_level": None, "connected": True, "autoplay": False},
        ],
    }
    script = ScriptedTable(page, table)
    page.goto(server + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [
            f"rummy500.seat.{res['table_id']}",
            json.dumps({"seat": 0, "token": res["token"], "name": "Ann", "creator": True}),
        ],
    )
    page.goto(f"{server}/t/{res['table_id']}")
    expect(page.get_by_test_id("hand")).to_be_visible()
    return page, script


def test_buttons_follow_the_legal_list(scripted):
    page, script = scripted
    meld, discard = page.get_by_test_id("btn-meld"), page.get_by_test_id("btn-discard")
    expect(page).to_have_title(MY_TURN_TITLE)
    expect(page.get_by_test_id("btn-draw")).to_be_disabled()
    expect(meld).to_be_disabled()
    page.get_by_test_id("card-5H").click(position=CARD_TAP)
    expect(discard).to_be_enabled()
    page.get_by_test_id("card-6H").click(position=CARD_TAP)
    expect(meld).to_be_disabled()
    expect(discard).to_be_disabled()
    expect(page.get_by_test_id("action-hint")).to_contain_text("add more cards")
    # With the joker the run is legal, two ways: the player picks what it stands for.
    page.get_by_test_id("card-JK").click(position=CARD_TAP)
    expect(meld).to_be_enabled()
    meld.click()
    chooser = page.get_by_test_id("chooser")
    expect(chooser.locator("button.choice")).to_have_count(2)
    chooser.locator("button.choice").filter(has_text="joker (as 7").click()
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1] == {"type": "action", "version": 10, "action": {"meld": ["5H", "6H", "JK=7H"]}}


def test_lay_off_on_a_chosen_meld(scripted):
    page, script = scripted
    page.get_by_test_id("card-JK").click(position=CARD_TAP)
    btn = page.get_by_test_id("btn-layoff-0")
    expect(btn).to_be_enabled()
    expect(page.get_by_test_id("meld-0")).to_have_class(re.compile("target"))
    expect(page.get_by_test_id("meld-1")).not_to_have_class(re.compile("target"))
    page.get_by_test_id("meld-0").click()
    page.get_by_test_id("chooser").locator("button.choice").filter(has_text="joker (as J").click()
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1]["action"] == {"layoff": ["JK=JS"], "on": 0}


def test_table_shows_melds_by_owner_with_labels(scripted):
    page, _ = scripted
    melds = page.get_by_test_id("melds")
    expect(melds.get_by_test_id("melds-of-1")).to_contain_text("Bob")
    joker = melds.locator("[data-card='JK=4H']")
    expect(joker).to_have_attribute("aria-label", re.compile(r"^Joker standing for 4 of hearts"))
    # The 6H was laid off by Ann on Bob's run: the card says so.
    expect(melds.get_by_test_id("meld-1").locator("[data-card='6H']")).to_have_attribute(
        "aria-label", "6 of hearts, laid by Ann"
    )
    expect(page.get_by_test_id("card-KS")).to_have_attribute("aria-label", "King of spades")
    expect(page.get_by_test_id("card-5H")).to_have_class(re.compile(r"\bred\b"))
    expect(page.get_by_test_id("card-KS")).not_to_have_class(re.compile(r"\bred\b"))
    expect(page.get_by_test_id("player-1")).to_contain_text("known")


def test_obligation_and_deep_take_preview(scripted):
    page, script = scripted
    script.push(_view(phase="draw", legal=[{"draw": "stock"}, {"take": 1}, {"take": 3}]), version=11)
    expect(page.get_by_test_id("btn-draw")).to_be_enabled()
    expect(page.get_by_test_id("pile-card-2")).to_be_disabled()
    page.get_by_test_id("pile-card-3").click()
    preview = page.get_by_test_id("pile-preview")
    expect(preview.locator(".card")).to_have_count(3)
    expect(preview).to_contain_text("you must use the 9\u2666")
    page.get_by_test_id("btn-take").click()
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1] == {"type": "action", "version": 11, "action": {"take": 3}}
    script.push(
        _view(
            obligation="9D", hand=["9D", "QD", "4S", "9S", "9C"], discard=["3C"], legal=[{"meld": ["9D", "9S", "9C"]}]
        ),
        version=12,
    )
    expect(page.get_by_test_id("obligation")).to_contain_text("You must use")
    expect(page.get_by_test_id("action-hint")).to_contain_text("before you can discard")


def test_rummy_out_of_turn_and_refusal(scripted):
    page, script = scripted
    script.push(_view(to_move=1, phase="draw", legal=[{"rummy": 2}]), version=11)
    btn = page.get_by_test_id("btn-rummy")
    expect(btn).to_be_enabled()
    expect(page).to_have_title(re.compile("Rummy"))
    btn.click()
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1]["action"] == {"rummy": 2}
    script.ws.send(
        json.dumps(
            {"type": "error", "code": "illegal_action", "message": "the 9D cannot be played on any meld", "version": 11}
        )
    )
    expect(page.get_by_test_id("error-banner")).to_have_text("the 9D cannot be played on any meld")
    expect(btn).to_be_enabled()


def test_skipped_version_asks_for_sync(scripted):
    page, script = scripted
    n = sum(1 for m in script.sent if m["type"] == "sync")
    script.push(_view(), version=11)
    page.wait_for_function("() => window.rummy.version === 11")
    assert sum(1 for m in script.sent if m["type"] == "sync") == n
    script.push(_view(), version=14)  # 12 and 13 never arrived
    page.wait_for_function("() => window.rummy.version === 14")
    syncs = lambda: sum(1 for m in script.sent if m["type"] == "sync")  # noqa: E731
    for _ in range(250):  # waits on the condition (at most 5 s), not a fixed time
        if syncs() > n:
            break
        page.wait_for_timeout(20)
    page.wait_for_timeout(200)  # and no second sync follows
    assert syncs() == n + 1
    # A stale state is ignored.
    script.push(_view(hand=["AS"]), version=12)
    page.wait_for_timeout(200)
    expect(page.get_by_test_id("card-AS")).to_have_count(0)


def test_hand_reorders_by_drag_and_keyboard(scripted):
    page, _ = scripted
    page.get_by_test_id("sort-rank").click()

    def order() -> list[str]:
        return page.get_by_test_id("hand").locator("button.card").evaluate_all("els => els.map(e => e.dataset.card)")

    before = order()
    first = page.get_by_test_id(f"card-{before[0]}")
    last = page.get_by_test_id(f"card-{before[-1]}")
    box_first, box_last = first.bounding_box(), last.bounding_box()
    page.mouse.move(box_first["x"] + 10, box_first["y"] + 10)
    page.mouse.down()
    page.mouse.move(box_first["x"] + 40, box_first["y"] + 12, steps=4)
    page.mouse.move(box_last["x"] + box_last["width"] - 4, box_last["y"] + 10, steps=8)
    page.mouse.up()
    after = order()
    assert after[-1] == before[0] and sorted(after) == sorted(before), (before, after)
    # Dragging does not select.
    expect(page.get_by_test_id(f"card-{before[0]}")).to_have_attribute("aria-pressed", "false")
    # Shift+Left moves the focused card one place left.
    page.get_by_test_id(f"card-{before[0]}").focus()
    page.keyboard.press("Shift+ArrowLeft")
    assert order()[-2] == before[0]
    expect(page.get_by_test_id(f"card-{before[0]}")).to_be_focused()


def test_melds_are_grouped_by_their_owner(scripted):
    page, script = scripted
    # Bob laid off most of Ann's run: it is still Ann's meld (the server says so).
    melds = [
        {
            "id": 0,
            "cards": ["2C", "3C", "4C", "5C", "6C", "7C"],
            "laid_by": [0, 0, 0, 1, 1, 1],
            "kind": "run",
            "owner": 0,
        },
        {"id": 1, "cards": ["9D", "9H", "9S"], "laid_by": [0, 1, 1], "kind": "set", "owner": 1},
    ]
    script.push(_view(melds=melds, legal=[{"layoff": ["KS"], "on": 0}]), version=11)
    ann, bob = page.get_by_test_id("melds-of-0"), page.get_by_test_id("melds-of-1")
    expect(ann.get_by_test_id("meld-0")).to_be_visible()
    expect(ann).to_contain_text("Ann (you)")
    expect(bob.get_by_test_id("meld-1")).to_be_visible()
    page.get_by_test_id("card-KS").click(position=CARD_TAP)
    expect(page.get_by_test_id("btn-layoff-0")).to_have_text("Lay off on meld 1 (Ann)")


def test_split_take_is_its_own_button(scripted):
    page, script = scripted
    legal = [{"draw": "stock"}, {"take": 1}, {"take": 3}, {"take": 3, "split": True}, {"take": 2, "split": True}]
    script.push(_view(phase="draw", gambit="split", dealer_joker="available", legal=legal), version=11)
    expect(page.get_by_test_id("gambit")).to_contain_text("Bob nominated: jokers split")
    # Depth 2: only a split is legal; the preview says what it costs.
    page.get_by_test_id("pile-card-2").click()
    expect(page.get_by_test_id("btn-take")).to_have_count(0)
    expect(page.get_by_test_id("split-preview")).to_contain_text("spend a joker")
    # Depth 3: both, as two buttons.
    page.get_by_test_id("pile-card-3").click()
    expect(page.get_by_test_id("btn-take")).to_have_text("Take 3 cards")
    page.get_by_test_id("btn-take-split").click()
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1]["action"] == {"take": 3, "split": True}


def test_score_sheet_of_a_partnership_from_the_state(scripted):
    page, script = scripted
    table = dict(script.table)
    table["rules"] = {**table.get("rules", {}), "partnership": True, "players": 4}
    table["seats"] = [
        *table["seats"],
        {"seat": 2, "name": "Cal", "kind": "human", "bot_level": None, "connected": True, "autoplay": False},
        {"seat": 3, "name": "Dee", "kind": "human", "bot_level": None, "connected": True, "autoplay": False},
    ]
    script.table = table
    rounds = [
        {"round": 0, "dealer": 3, "went_out": 2, "round_scores": [40, -10, 65, 5], "totals": [40, -10, 65, 5]},
        {"round": 1, "dealer": 0, "went_out": 1, "round_scores": [-20, 90, 10, 30], "totals": [20, 80, 75, 35]},
    ]
    view = _view(players=4, hand_sizes=[7, 7, 7, 7], known=[[], [], [], []], scores=[20, 80, 75, 35])
    script.push(view, version=11, rounds=rounds)
    sheet = page.get_by_test_id("score-sheet")
    expect(sheet.locator("thead th")).to_have_text(["Round", "Dealer", "Side AAnn & Cal", "Side BBob & Dee"])
    rows = sheet.locator("tbody tr")
    expect(rows).to_have_count(2)
    # Round 1: side A (Ann 40 + Cal 65) went out through Cal.
    # Spoken (and so in the text) as "+105, went out, total 105".
    expect(rows.nth(0).locator("td")).to_have_text(["Dee", "+105 \u2605, went out, total 105", "-5, total -5"])
    expect(rows.nth(1).locator("td")).to_have_text(["Ann", "-10, total 95", "+120 \u2605, went out, total 115"])
    expect(sheet.get_by_test_id("score-totals").locator("td")).to_have_text(["95", "115"])


def test_eight_long_names_on_a_phone_never_widen_the_page(scripted_touch):
    """Eight seats with long names: the chips, the table and the score sheet stay within 390 px.

    The score sheet's columns may need more than the screen; it scrolls inside
    its panel (before 6 December it pushed the whole page to 519 px, and its spoken-only
    text, positioned outside the scrolling panel, to 839 px). Since 7 December it is turned
    for 5+ players (a row a player, the total beside the name): every total is in view, on a
    phone and on a laptop (the sheet had shown 3 of 8 there, "No round finished yet." cut to
    "No rou"). The last round's running total leaves out the final bonus its own column adds.
    """
    page, script = scripted_touch
    table = dict(script.table)
    table["rules"] = {**table.get("rules", {}), "players": 8}
    names = ["Ann", "Bob", "Maximiliana", "Bartholomew", "Guinevere", "Konstantinos", "Wilhelmina", "Ferdinand"]
    names[4] = "Guinevere-Anastasiaaaaaa"  # 24 characters, the lobby's limit, no space to wrap at
    table["seats"] = [
        table["seats"][0],
        *(
            {"seat": s, "name": names[s], "kind": "human", "bot_level": None, "connected": True, "autoplay": False}
            for s in range(1, 8)
        ),
    ]
    script.table = table
    view = _view(players=8, hand_sizes=[7] * 8, known=[[], ["QD"], [], [], [], [], [], []], scores=[0] * 8)
    script.push(view, version=11, rounds=[])
    sheet = page.get_by_test_id("score-sheet")
    expect(sheet.get_by_test_id("score-empty")).to_have_text("No round finished yet.")
    first = [15, -40, 5, 95, 0, -5, 20, 10]
    second = [166, 30, -10, 129, 5, 0, 0, 10]
    totals = [a + b for a, b in zip(first, second, strict=True)]
    totals[3] += 50  # the final bonus, in the last round's totals (the server's sheet)
    rounds = [
        {"round": 0, "dealer": 7, "went_out": 3, "round_scores": first, "totals": first},
        {
            "round": 1,
            "dealer": 0,
            "went_out": 3,
            "round_scores": second,
            "totals": totals,
            "bonus": {"seat": 3, "points": 50},
        },
    ]
    script.push({**view, "scores": totals}, version=12, rounds=rounds)
    expect(sheet.locator("thead th")).to_have_text(
        ["Player", "Total", "Round 1R1, dealt by Ferdinand", "Round 2R2, dealt by Ann", "Bonus"]
    )
    bart = sheet.locator("tbody tr").nth(3)
    expect(bart.locator("td")).to_have_text(
        [str(totals[3]), "+95 \u2605, went out, total 95", "+129 \u2605, went out, total 224", "+50"]
    )
    expect(page.get_by_test_id("player-7")).to_contain_text("Ferdinand")
    # The long name is cut short in its chip (all of it in its title), never spilling out.
    chip_name = page.get_by_test_id("player-4").locator(".pn")
    expect(chip_name).to_have_attribute("title", names[4])
    assert chip_name.evaluate(
        "el => el.scrollWidth > el.clientWidth && el.getBoundingClientRect().right"
        " <= el.closest('.player').getBoundingClientRect().right"
    )
    # The rules say why there are so many cards.
    expect(page.get_by_test_id("table-rules")).to_contain_text("Two packs with 4 jokers (5 or more players).")
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        for s in range(8):
            expect(sheet.get_by_test_id(f"score-total-{s}")).to_have_text(str(totals[s]))
        # The page never wider than the screen, and every total inside the sheet, once the resize is drawn
        # (the sheet draws itself again on a resize: measured at once, a cell could have no size yet).
        page.wait_for_function(
            """(w) => {
                const sheet = document.querySelector('[data-testid=score-sheet]');
                const right = sheet.getBoundingClientRect().right;
                if (document.documentElement.scrollWidth > w || right > w) return false;
                return [...Array(8).keys()].every((s) => {
                    const box = sheet.querySelector(`[data-testid=score-total-${s}]`).getBoundingClientRect();
                    return box.width > 0 && box.x + box.width <= right + 0.5;
                });
            }""",
            arg=width,
            timeout=5_000,
        )


FOCUS_INFO = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const cs = getComputedStyle(e);
  return {key: e.dataset.kbd ?? null, testid: e.dataset.testid ?? null, tag: e.tagName,
          outline: cs.outlineStyle, width: parseFloat(cs.outlineWidth) || 0};
}"""


def test_every_control_is_reachable_by_tab_with_a_visible_focus(scripted):
    page, script = scripted
    # A position with a lay-off target, a Rummy-free play phase and a usable pile card.
    legal = [*_view()["legal"], {"take": 1}]
    script.push(_view(legal=legal), version=11)
    page.get_by_test_id("card-JK").click(position=CARD_TAP)
    expect(page.get_by_test_id("meld-0")).to_have_class(re.compile("target"))
    # Number every control a person could use (enabled and shown).
    total = page.evaluate(
        """() => {
          const sel = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, summary';
          const els = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length > 0);
          els.forEach((e, i) => { e.dataset.kbd = String(i); });
          return els.length;
        }"""
    )
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    reached: set[str] = set()
    for _ in range(total + 5):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUS_INFO)
        if info is None:
            continue
        # The skip link, every card, button and field shows where the focus is.
        assert info["outline"] != "none" and info["width"] >= 2, info
        if info["key"] is not None:
            reached.add(info["key"])
    missed = [
        page.evaluate("(k) => document.querySelector(`[data-kbd='${k}']`).outerHTML.slice(0, 120)", str(i))
        for i in range(total)
        if str(i) not in reached
    ]
    assert not missed, f"not reachable by Tab: {missed}"


def test_keyboard_only_meld_with_the_chooser(scripted):
    page, script = scripted
    for card in ("5H", "6H", "JK"):
        page.get_by_test_id(f"card-{card}").focus()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id(f"card-{card}")).to_have_attribute("aria-pressed", "true")
    meld = page.get_by_test_id("btn-meld")
    meld.focus()
    page.keyboard.press("Enter")
    chooser = page.get_by_test_id("chooser")
    expect(chooser).to_be_visible()
    expect(chooser.get_by_test_id("choice-0")).to_be_focused()
    # Escape closes the dialog and gives the focus back to the button.
    page.keyboard.press("Escape")
    expect(chooser).to_have_count(0)
    expect(meld).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(chooser.get_by_test_id("choice-1")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1]["action"] == {"meld": ["5H", "6H", "JK=7H"]}


def test_every_event_the_engine_emits_has_words_in_the_log(server, new_page):
    """The page's log names each kind of engine event (a new kind without words would show nothing)."""
    from rummy500 import events

    kinds = sorted(
        cls.kind for cls in vars(events).values() if isinstance(cls, type) and getattr(cls, "kind", "?") not in ("?",)
    )
    assert "left_rummy" in kinds and "discarded" in kinds
    page = new_page()
    page.goto(server + "/")
    samples = {
        "left_rummy": [{"event": "left_rummy", "seat": 0, "card": "8H", "cards": ["KS"]}, "left the 8♥ playable"],
        "left_rummy_floats": [{"event": "left_rummy", "seat": 0, "card": "8H", "cards": []}, "floats with no card"],
    }
    texts = page.evaluate(
        """async ([kinds, samples]) => {
          const { eventText } = await import("/static/events.js");
          const out = {};
          for (const k of kinds) out[k] = eventText({ event: k, seat: 0, cards: ["KS"], card: "8H", depth: 1,
            count: 1, round: 0, dealer: 0, went_out: 0, round_scores: [1, -1], winner: 0, totals: [1, 0],
            mode: "wild", on: 0 }, ["Ann", "Bob"]);
          for (const [k, [ev]] of Object.entries(samples)) out[k] = eventText(ev, ["Ann", "Bob"]);
          return out;
        }""",
        [kinds, samples],
    )
    silent = {"declined"}  # a pass on an offer is not worth a log line
    assert [k for k in kinds if not texts[k] and k not in silent] == []
    for key, (_event, words) in samples.items():
        assert words in texts[key], (key, texts[key])
    assert texts["left_rummy"].endswith("takes back K♠")


ACTIVE = "() => document.activeElement && document.activeElement.dataset.testid || document.activeElement.tagName"
IN_MOVES = "() => !!document.activeElement.closest('[data-testid=actions]')"


def _mine(version: int, verb: str, **event) -> dict:
    """A log entry of Ann's own move, as the public log has it (a draw without its card)."""
    return {
        "kind": "action",
        "version": version,
        "round": 0,
        "seat": 0,
        "name": "Ann",
        "auto": False,
        "events": [{"event": verb, "seat": 0, **event}],
    }


def test_keyboard_moves_off_the_buttons_keep_the_focus_and_say_what_came(scripted):
    """Pile, Take, stock, a meld pressed as a lay-off target and the sort buttons: the focus is never lost.

    Before 8 December each of them was drawn again under the key press and the focus fell to the
    page; the card drawn was only ringed, never spoken; the chooser read its joker choices in notation.
    """
    page, script = scripted
    # The first turn: the focus is already on the moves (not 20 Tabs away behind the hand).
    assert page.evaluate(IN_MOVES), page.evaluate(ACTIVE)
    draw_phase = {"phase": "draw", "legal": [{"draw": "stock"}, {"take": 1}, {"take": 3}]}
    script.push(_view(**draw_phase), version=11)
    # A pile card pressed stays focused, says it is chosen, and its preview is spoken.
    page.get_by_test_id("pile-card-3").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("btn-take")).to_be_visible()
    assert page.evaluate(ACTIVE) == "pile-card-3"
    expect(page.get_by_test_id("pile-card-3")).to_have_attribute("aria-pressed", "true")
    spoken = "Take 3 cards: 9 of diamonds, Queen of diamonds and 4 of spades. You must use the 9 of diamonds this turn."
    expect(page.get_by_test_id("pile-live")).to_have_text(spoken)
    expect(page.get_by_test_id("btn-take")).to_have_accessible_description(re.compile("You must use the 9 of diamonds"))
    page.get_by_test_id("btn-take-cancel").focus()
    page.keyboard.press("Enter")  # Cancel: back to the card
    expect(page.get_by_test_id("btn-take")).to_have_count(0)
    assert page.evaluate(ACTIVE) == "pile-card-3"
    page.keyboard.press("Space")
    page.get_by_test_id("btn-take").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1]["action"] == {"take": 3}
    took = _mine(12, "took", cards=["9D", "QD", "4S"])
    script.push(_view(hand=[*_view()["hand"], "9D", "QD", "4S"], discard=["3C"]), version=12, log=[took])
    page.wait_for_function("() => window.rummy.version === 12")
    assert page.evaluate(IN_MOVES), page.evaluate(ACTIVE)
    # The player's own take is spoken too: what the press did, its cards in words as a card drawn is.
    expect(page.get_by_test_id("live-moves")).to_have_text(
        "You took 3 cards from the pile: 9 of diamonds, Queen of diamonds and 4 of spades"
    )
    # The stock: the focus goes to the moves, and the card drawn is spoken.
    script.push(_view(**draw_phase), version=13, log=[took])
    page.get_by_test_id("stock").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1]["action"] == {"draw": "stock"}
    script.push(_view(hand=[*_view()["hand"], "2D"]), version=14, log=[took, _mine(14, "drew", count=1)])
    expect(page.get_by_test_id("live-moves")).to_have_text("You drew 2 of diamonds")
    assert page.evaluate(IN_MOVES), page.evaluate(ACTIVE)
    # A meld pressed as a lay-off target; the chooser names the joker's choices in words.
    page.get_by_test_id("card-JK").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("meld-0")).to_have_class(re.compile("target"))
    page.get_by_test_id("meld-0").focus()
    page.keyboard.press("Enter")
    chooser = page.get_by_test_id("chooser")
    expect(chooser.get_by_test_id("choice-0")).to_have_accessible_name("Lay off a joker as the 7 of spades on meld 1")
    assert (
        page.evaluate("async () => (await import('/static/chooser.js')).spokenAction({meld: ['5C', '5H', 'JK=5D']})")
        == "Meld 5 of clubs, 5 of hearts and a joker as the 5 of diamonds"
    )
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1]["action"] == {"layoff": ["JK=7S"], "on": 0}
    script.push(_view(), version=15)
    page.wait_for_function("() => window.rummy.version === 15")
    assert page.evaluate(IN_MOVES), page.evaluate(ACTIVE)
    # The sort buttons keep the focus.
    page.get_by_test_id("sort-rank").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("sort-rank")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(ACTIVE) == "sort-rank"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("sort-suit")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(ACTIVE) == "sort-suit"


#: Records each write to the page's live regions (a live region written again is read out again).
RECORD_LIVE = """() => {
  window.liveWrites = [];
  const note = (el) => new MutationObserver(() => window.liveWrites.push([el.dataset.testid, el.textContent]))
    .observe(el, {childList: true, characterData: true, subtree: true});
  for (const id of ['status', 'action-hint', 'live-moves', 'error-banner']) note(document.querySelector(`[data-testid=${id}]`));
}"""

#: The elements a screen reader announces holding ``text``: in a live region and not hidden from it.
ANNOUNCED = """(text) => [...document.querySelectorAll('body *')].filter((el) =>
  [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes(text))
  && el.closest('[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]')
  && !el.closest('[aria-hidden=true]')).length"""


def test_live_regions_speak_each_thing_once(scripted):
    """The status line and the hint are written only when they change; messages and the summary once each."""
    page, script = scripted
    page.evaluate(RECORD_LIVE)
    waiting = _view(to_move=1, phase="draw", legal=[])
    bob = {
        "kind": "action",
        "version": 11,
        "round": 0,
        "seat": 1,
        "name": "Bob",
        "auto": False,
        "events": [{"event": "drew", "seat": 1, "count": 1}],
    }
    for version in (11, 12, 13):
        entry = {**bob, "version": version}
        script.push({**waiting, "phase": "draw" if version == 11 else "play"}, version=version, log=[entry])
        page.wait_for_function("(v) => window.rummy.version === v", arg=version)
    writes = page.evaluate("window.liveWrites")
    assert [w for w in writes if w[0] == "status"] == [["status", "Bob to draw."], ["status", "Bob to play."]], writes
    assert [w for w in writes if w[0] == "action-hint"] == [["action-hint", "Waiting for Bob."]], writes
    # The whose-turn mark is not read as a symbol: "Bob, to move".
    expect(page.get_by_test_id("player-1").locator(".turn-mark")).to_have_attribute("aria-hidden", "true")
    expect(page.get_by_test_id("player-1").locator(".pname")).to_have_text(re.compile(r"Bob, to move$"))
    # A pile card that may not be taken says why once (the hint), not in a spoken toast as well.
    page.get_by_test_id("pile-card-2").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("action-hint")).to_contain_text("It is Bob's turn")
    assert page.evaluate(ANNOUNCED, "It is Bob's turn") == 1
    # A refusal: the banner is the alert; the toast beside it is only seen.
    script.ws.send(json.dumps({"type": "error", "code": "illegal_action", "message": "Not your turn.", "version": 13}))
    expect(page.get_by_test_id("error-banner")).to_have_text("Not your turn.")
    expect(page.locator(".toast", has_text="Not your turn.")).to_be_visible()
    assert page.evaluate(ANNOUNCED, "Not your turn.") == 1
    # The round's result is spoken once (from the log); the countdown under it is in no live region.
    summary = {
        "round": 0,
        "went_out": 1,
        "melds": [],
        "left": 30.0,
        "ready": [],
        "waiting": [0, 1],
        "seats": [
            {"seat": 0, "melded": 0, "in_hand": 20, "round_score": -20, "total": 100, "hand": ["KS", "KD"]},
            {"seat": 1, "melded": 30, "in_hand": 0, "round_score": 30, "total": 115, "hand": []},
        ],
    }
    pace = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": summary}
    over = {
        "kind": "round_over",
        "version": 14,
        "round": 0,
        "went_out": 1,
        "round_scores": [-20, 30],
        "totals": [100, 115],
    }
    script.ws.send(
        json.dumps(
            {
                "type": "state",
                "version": 14,
                "view": _view(legal=[]),
                "table": script.table,
                "log": [over],
                "pace": pace,
            }
        )
    )
    countdown = page.get_by_test_id("summary-countdown")
    expect(countdown).to_have_text(re.compile(r"^Next round in \d+ s at most\.$"))
    expect(page.get_by_test_id("live-moves")).to_have_text(re.compile(r"^Round 1 over\. Bob went out\."))
    assert page.evaluate(ANNOUNCED, "Next round in") == 0
    assert page.evaluate(ANNOUNCED, "Bob went out.") == 1  # the live region; the banner is not one
