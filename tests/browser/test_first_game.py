"""What a first-time player meets, at 1366×768 (a laptop) and 390×844 (a phone).

An audit of 8 December found these: the quick game's scoring never explained
(the rules panel said "card values: flat.", the round summary "+95 melded, 0 in
hand, round +19"); the Draw button lit and pressable behind a round summary; a
card taken as the pile's top card not discardable, and nothing saying why; an
away player's countdown that never reached the others; lay-offs in the round
summary looking like broken melds; "no legal meld" for cards that plainly make
none; the rules panel's disclosure with no mark; "B… (you)" on a phone; a
second device told only that it watches; the lobby's clock note under "no
clock"; and a copied invite link that said nothing without the clipboard API.

Positions come from the scripted socket of ``test_client`` where the server's
logic is not the subject; the away countdown runs against the real server.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from browser_ui import CARD_TAP, SocketSeat, post_json
from playwright.sync_api import expect
from test_client import _started_table, _view, scripted, scripted_touch  # noqa: F401 - the fixtures are used by name
from test_table_feel import _at, _send
from test_table_ux import VIEWPORTS
from test_variants import _first_seed

from rummy500.server.engine import LiveGame, parse_rules

QUICK = {"card_values": "flat", "score_divisor": 5, "target": 100}


def _size(page, size: str) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))


def _shot(page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / name), full_page=True)


#: The computed ``content`` of an element's pseudo-element (what the page draws there).
PSEUDO = "(el, which) => getComputedStyle(el, which).content"


# ------------------------------------------------------------ 1, 2, 5: the quick game's round summary
#: Round 1 of a quick game: Ann melded a run Bob laid the 8♥ off on, and laid the 4♦ off on Bob's run.
QUICK_SUMMARY = {
    "round": 0,
    "went_out": 1,
    "seats": [
        {"seat": 0, "melded": 35, "in_hand": 10, "bonus": 0, "round_score": 5, "total": 5, "hand": ["KS"]},
        {"seat": 1, "melded": 95, "in_hand": 0, "bonus": 0, "round_score": 19, "total": 19, "hand": []},
    ],
    "melds": [
        {"id": 0, "cards": ["5H", "6H", "7H", "8H"], "laid_by": [0, 0, 0, 1], "kind": "run", "owner": 0},
        {"id": 1, "cards": ["3D", "4D", "5D", "6D"], "laid_by": [1, 0, 1, 1], "kind": "run", "owner": 1},
        {"id": 2, "cards": ["QC", "QD", "QS"], "laid_by": [1, 1, 1], "kind": "set", "owner": 1},
    ],
    "left": 30.0,
    "ready": [],
    "waiting": [0, 1],
}


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_quick_games_scoring_is_explained_and_nothing_moves_behind_its_summary(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    script.table = {**script.table, "rules": dict(QUICK)}
    pace = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": QUICK_SUMMARY}
    # The next deal is dealt, and Ann is its first to move: the server would refuse a draw now.
    deal = _view(
        hand=["AS", "3D", "8C", "JH", "QS", "4C", "9H"],
        melds=[],
        phase="draw",
        legal=[{"draw": True}, {"take": 1}],
        scores=[5, 19],
    )
    _send(script, deal, 11, pace=pace)
    # The rules panel says how cards count and that scores are divided (was "card values: flat.").
    page.get_by_test_id("rules-panel").locator("summary").click()
    rules = page.get_by_test_id("table-rules")
    expect(rules).to_contain_text("First to 100 points wins.")
    expect(rules).to_contain_text("Cards count 5 (2 to 9), 10 (10 to king) and 15 (ace")
    expect(rules).to_contain_text("Each round's score is divided by 5 (rounded)")
    expect(rules).not_to_contain_text(re.compile(r"card values:|score divisor:", re.I))
    # The summary says how "Round" comes from the points: 95 melded, 0 in hand: +19.
    bob = page.get_by_test_id("summary-1")
    expect(bob.get_by_test_id("melded")).to_have_text("+95")
    expect(page.get_by_test_id("summary-divisor")).to_have_text(
        "Round = (Melded \u2212 Left in hand) \u00f7 5, rounded: scores at this table are divided by 5."
    )
    # Lay-offs are named, not drawn as loose melds: Ann's 4♦ went on Bob's run (meld 2), Bob's 8♥ on hers.
    ann_melds, bob_melds = page.get_by_test_id("summary-melds-0"), page.get_by_test_id("summary-melds-1")
    expect(ann_melds.locator(".meld-tag")).to_have_text(["meld 1", "laid off on meld 2 (Bob)"])
    expect(bob_melds.locator(".meld-tag")).to_have_text(["laid off on meld 1 (Ann)", "meld 2", "meld 3"])
    # Each meld is shown whole (no gap where a lay-off went), the other player's card marked as theirs.
    whole = bob_melds.locator(".summary-meld").nth(1)
    expect(whole.locator(".card")).to_have_count(4)
    expect(whole.locator(".card.other-layer")).to_have_count(1)
    expect(whole.locator(".card.other-layer .by")).to_have_text("A1")
    expect(ann_melds.locator(".summary-meld.layoff .card")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[size][0]
    # The named groups never widen the summary past its banner (its Total column stays in view).
    assert page.get_by_test_id("round-over").evaluate("el => el.scrollWidth <= el.clientWidth")
    # Behind the summary nothing can be pressed, and the hand says it is the next round's.
    for testid in ("btn-draw", "btn-meld", "btn-discard", "stock"):
        expect(page.get_by_test_id(testid)).to_be_disabled()
    expect(page.get_by_test_id("btn-hint")).to_have_count(0)
    expect(page.get_by_test_id("hand-note")).to_have_text(
        "Your hand for round 2, already dealt: play starts when everyone is ready."
    )
    _shot(page, artifacts, f"first-quick-summary-{size}.png")
    top = page.get_by_test_id("pile-card-1")
    expect(top).to_have_attribute("aria-disabled", "true")  # dimmed, and a press says why
    top.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("btn-take")).to_have_count(0)
    expect(page.get_by_test_id("action-hint")).to_contain_text("next deal starts when everyone is ready")
    # Everyone is ready: the hold ends and Draw is Ann's to press.
    _send(script, deal, 12, pace={**pace, "summary": None})
    _at(page, 12)
    expect(page.get_by_test_id("btn-draw")).to_be_enabled()
    expect(page.get_by_test_id("hand-note")).to_be_hidden()
    expect(page.get_by_test_id("summary-divisor")).to_have_count(0)


def test_every_card_value_table_and_divisor_has_words_and_other_options_the_catalogues(server, new_page):
    """Each value of `card_values` and `score_divisor` (from GET /api/rules) is a sentence of its own;
    an option without words of its own is said in the catalogue's labels once it has come."""
    page = new_page(*VIEWPORTS["laptop"])
    page.goto(server + "/")
    said = page.evaluate(
        """async () => {
          const m = await import('/static/rules.js');
          const cat = await (await fetch('/api/rules')).json();
          const out = {};
          for (const o of cat.options.filter((o) => ['card_values', 'score_divisor'].includes(o.name))) {
            // After the target: what the cards are worth (always said), then any divisor.
            for (const c of o.choices) out[`${o.name}=${c.value}`] = m.rulesInWords({[o.name]: c.value}, {}, 2)[o.name === 'score_divisor' ? 2 : 1];
          }
          out.before = m.rulesInWords({first_discard: 'first_player'}, {}, 2);
          out.loaded = await m.loadRuleCatalogue();
          out.after = m.rulesInWords({first_discard: 'first_player'}, {}, 2);
          return out;
        }"""
    )
    assert said.pop("loaded") is True
    before, after = said.pop("before"), said.pop("after")
    assert set(said) == {f"card_values={v}" for v in ("standard", "flat", "ace_25", "pip_rank", "ace_11")} | {
        "score_divisor=1",
        "score_divisor=5",
    }
    for key, words in said.items():
        assert not re.match(r"(card values|score divisor):", words, re.I), (key, words)
        assert words.endswith(".") and len(words) > 20, (key, words)
    assert said["card_values=flat"].startswith("Cards count 5 (2 to 9), 10 (10 to king) and 15 (ace")
    assert said["card_values=standard"] == before[1]  # a table that sets no values says the standard ones
    assert said["score_divisor=5"].startswith("Each round's score is divided by 5 (rounded)")
    assert "first discard: first player." in before
    assert any(w.startswith("Starting the discard pile: First player discards \u2014 ") for w in after), after


# ------------------------------------------------------------ 3, 6: why a selection is no move
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_taken_top_card_and_cards_that_make_no_meld_say_why(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    hand = ["9D", "4S", "4D", "2H", "5H", "KH", "QC", "8C"]
    legal = [{"discard": c} for c in hand if c != "9D"]  # the 9♦ was just taken from the pile's top
    view = _view(hand=hand, taken_top="9D", legal=legal, melds=[], discard=["3C", "TS"], hand_sizes=[8, 7])
    _send(script, view, 11)
    _at(page, 11)
    hint = page.get_by_test_id("action-hint")
    page.get_by_test_id("card-9D").click(position=CARD_TAP)
    expect(hint).to_have_text(
        "You took the 9\u2666 from the top of the pile this turn: you may not discard it again"
        " (meld it, lay it off, or keep it)."
    )
    expect(page.get_by_test_id("btn-discard")).to_be_disabled()
    _shot(page, artifacts, f"first-taken-top-{size}.png")
    page.keyboard.press("Escape")
    # Cards that make no meld whatever is added: the hint says what a meld needs.
    cases = [
        (["QC", "2H", "8C"], "a run needs one suit and consecutive ranks; a set needs one rank."),
        (["4S", "4D"], "a meld needs at least 3 cards."),
        (["2H", "5H", "KH"], "a run needs consecutive ranks (the ace either low, A 2 3, or high, Q K A)."),
    ]
    for cards, why in cases:
        if page.get_by_test_id("btn-clear").count():
            page.get_by_test_id("btn-clear").click()
        for c in cards:
            page.get_by_test_id(f"card-{c}").click(position=CARD_TAP)
        # The cards as they show ("Q♣ 2♥ 8♣", in the order selected), then why.
        expect(hint).to_have_text(re.compile(rf"^(\S+ ){{{len(cards) - 1}}}\S+: {re.escape(why)}$"))
        if cards[0] == "QC":
            _shot(page, artifacts, f"first-no-meld-{size}.png")
    # The rule is on the How to play page.
    page.goto(page.url.split("/t/")[0] + "/#rules")
    expect(page.get_by_test_id("rules-page")).to_contain_text(
        "A single top card you take from the pile may not be discarded again that turn"
    )


def test_a_table_that_allows_discarding_the_taken_card_says_nothing_of_it(scripted):  # noqa: F811
    page, script = scripted
    script.table = {**script.table, "rules": {"discard_back": True}}
    hand = ["9D", "4S", "KH"]
    view = _view(hand=hand, taken_top="9D", legal=[{"discard": c} for c in hand], melds=[], hand_sizes=[3, 7])
    _send(script, view, 11)
    _at(page, 11)
    page.get_by_test_id("card-9D").click(position=CARD_TAP)
    expect(page.get_by_test_id("btn-discard")).to_be_enabled()
    expect(page.get_by_test_id("action-hint")).not_to_contain_text("You took")


# ------------------------------------------------------------ 7, 8: the rules panel's mark; my name on a phone
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_rules_panel_looks_openable_and_my_name_is_whole_on_my_turn(scripted_touch, size, artifacts):  # noqa: F811
    page, script = scripted_touch
    _size(page, size)
    table = dict(script.table)
    table["rules"] = {**table.get("rules", {}), "players": 3}
    table["seats"] = [
        {**table["seats"][0], "name": "Bea"},
        {"seat": 1, "name": "Ann", "kind": "human", "bot_level": None, "connected": True, "autoplay": False},
        {"seat": 2, "name": "Bot 3", "kind": "bot", "bot_level": "medium", "connected": True, "autoplay": False},
    ]
    script.table = table
    view = _view(players=3, hand_sizes=[7, 7, 7], known=[[], [], []], scores=[0, 0, 0], dealer=2, phase="draw")
    _send(script, view, 11)
    _at(page, 11)
    # My chip on my turn: the whole name, "(you)" beside it or under it (was "B… (you)" on a phone).
    mine = page.get_by_test_id("player-0")
    expect(mine.locator(".turn-mark")).to_be_visible()
    name = mine.locator(".pn")
    expect(name).to_have_text("Bea")
    assert name.evaluate("el => el.scrollWidth <= el.clientWidth"), "the name is cut short"
    expect(mine.locator(".you")).to_be_visible()
    assert mine.locator(".you").evaluate(
        "el => el.getBoundingClientRect().right <= el.closest('.player').getBoundingClientRect().right"
    )
    # The rules panel shows it opens: a mark and "Show", then "Hide".
    summary = page.get_by_test_id("rules-panel").locator("summary")
    summary.scroll_into_view_if_needed()
    assert "Show" in summary.evaluate(PSEUDO, "::after")
    assert "\u25b8" in summary.evaluate(PSEUDO, "::before")
    _shot(page, artifacts, f"first-chip-rules-{size}.png")
    summary.click()
    expect(page.get_by_test_id("table-rules")).to_be_visible()
    assert "Hide" in summary.evaluate(PSEUDO, "::after")


# ------------------------------------------------------------ 9: a second device
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_player_on_a_second_device_is_told_where_the_seat_is(server, new_page, size, artifacts):
    res = _started_table(server, "Bea")
    page = new_page(*VIEWPORTS[size])  # another browser: no seat token for this table
    page.goto(f"{server}/t/{res['table_id']}")
    hint = page.get_by_test_id("action-hint")
    expect(hint).to_contain_text("You are watching this game (no hand).")
    expect(hint).to_contain_text("If you have a seat at this table, it is on the device and browser you joined from")
    _shot(page, artifacts, f"first-second-device-{size}.png")


# ------------------------------------------------------------ 10: the lobby's clock note; Copy without a clipboard
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_clock_note_shows_with_a_clock_and_copy_says_copied_without_a_clipboard(server, new_page, size, artifacts):
    page = new_page(*VIEWPORTS[size])
    # A page served over plain HTTP from another address has no navigator.clipboard.
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined })")
    page.goto(server + "/")
    note, clock = page.get_by_test_id("turn-clock-note"), page.get_by_test_id("turn-clock")
    expect(clock).to_have_value("0")
    expect(note).to_be_hidden()
    clock.select_option("60")
    expect(note).to_have_text("When it runs out, the computer plays that turn for the player.")
    _shot(page, artifacts, f"first-lobby-clock-{size}.png")
    clock.select_option("0")
    expect(note).to_be_hidden()
    page.get_by_test_id("name-input").fill("Ann")
    page.get_by_test_id("bot-seat-1").select_option("")  # a friend's seat: the table waits
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    assert page.evaluate("navigator.clipboard") is None
    copy = page.get_by_test_id("copy-invite")
    copy.click()
    expect(copy).to_have_text("Copied")
    expect(page.locator(".toast", has_text="Invite link copied.")).to_be_visible()
    _shot(page, artifacts, f"first-copied-{size}.png")


# ------------------------------------------------------------ 4: the away countdown reaches the others
def _bob_moves_first(seed: int) -> list | None:
    game = LiveGame(parse_rules({"preset": "standard"}, 2), ["Ann", "Bob"], seed)
    return [] if game.to_move == 1 else None


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_others_see_the_countdown_when_the_player_to_move_leaves(seeded_server, new_page, size, artifacts):
    seed, _ = _first_seed(_bob_moves_first, range(1, 200))
    seeded_server.seeds.append(seed)
    base = seeded_server.url
    made = post_json(base, "/api/tables", {"name": "Ann", "seats": 2, "preset": "standard", "rules": {}, "bots": {}})
    table_id = made["table_id"]
    joined = post_json(base, f"/api/tables/{table_id}/join", {"name": "Bob"})
    req = urllib.request.Request(
        f"{base}/api/tables/{table_id}/start",
        data=b"{}",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {made['token']}"},
        method="POST",
    )
    urllib.request.urlopen(req, timeout=5).close()  # noqa: S310 - loopback only
    bob = SocketSeat(base, table_id, joined["token"])
    try:
        assert bob.state()["view"]["to_move"] == 1
        page = new_page(*VIEWPORTS[size])
        page.goto(base + "/")
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, v)",
            [
                f"rummy500.seat.{table_id}",
                json.dumps({"seat": 0, "token": made["token"], "name": "Ann", "creator": True}),
            ],
        )
        page.goto(f"{base}/t/{table_id}")
        expect(page.get_by_test_id("status")).to_have_text("Bob to draw.")
        clock = page.get_by_test_id("turn-clock")
        expect(clock).to_have_count(0)
        bob.close()  # Bob closes his tab on his turn
        expect(clock).to_have_text(re.compile(r"^Bob is away: the computer plays for them in \d+ s$"))
        expect(page.get_by_test_id("player-1")).to_contain_text("away")
        _shot(page, artifacts, f"first-away-{size}.png")
        bob = SocketSeat(base, table_id, joined["token"])  # back
        expect(clock).to_have_count(0)
    finally:
        bob.close()
