"""Issue 12's smaller items, at 1366×768 (a laptop) and 390×844 (a phone).

The hand keeps the order the player chose (a drag un-presses "By rank", a
taken card goes where it sorts, a new deal comes sorted); the "your turn"
chime and its mute; cards that move unless the system asks for reduced
motion; the focus ring unlike the "just drawn" ring; chips, score cells and
melds that read well (to the eye and to a screen reader); an away player's
countdown and hints turned off; chat kept over a reload; and the replays:
public games newest first, private ones never listed, each step's round and
phase in words, each round's end a step of its own.

Positions that need no server logic come from the scripted socket of
``test_client``; the chat and the replays run against the real server.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
import urllib.request
from typing import Any

import pytest
from browser_ui import CARD_TAP, create_table, play_action, post_json
from playwright.sync_api import expect
from test_client import _view, scripted, scripted_touch  # noqa: F401 - the fixtures are used by name
from test_table_ux import VIEWPORTS
from test_variants import _first_seed

from rummy500.actions import Draw, Meld
from rummy500.server.engine import LiveGame, parse_rules
from rummy500.server.hints import hint_for


def _size(page, size: str) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))


def _order(page) -> list[str]:
    return page.get_by_test_id("hand").locator("button.card").evaluate_all("els => els.map(e => e.dataset.card)")


def _send(script, view: dict, version: int, **extra: Any) -> None:
    """A state message with fields the scripted table does not send by itself (pace, table_points, rounds)."""
    script.version = version
    script.next_view = view
    script.ws.send(
        json.dumps({"type": "state", "version": version, "view": view, "table": script.table, "log": [], **extra})
    )


def _at(page, version: int) -> None:
    page.wait_for_function("(v) => window.rummy && window.rummy.version === v", arg=version)


#: What a screen reader reads of an element: its text without the parts hidden from it (aria-hidden).
SPOKEN = """el => {
  const walk = (n) => n.nodeType === 3 ? n.textContent
    : (n.nodeType === 1 && n.getAttribute('aria-hidden') === 'true') ? '' : [...n.childNodes].map(walk).join('');
  return walk(el).replace(/\\s+/g, ' ').trim();
}"""


# ------------------------------------------------------------ sorting
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_hand_keeps_the_order_the_player_chose(scripted, size):  # noqa: F811
    page, script = scripted
    _size(page, size)
    by_rank, by_suit = page.get_by_test_id("sort-rank"), page.get_by_test_id("sort-suit")
    expect(by_suit).to_have_attribute("aria-pressed", "true")
    by_rank.click()
    expect(by_rank).to_have_attribute("aria-pressed", "true")
    expect(by_suit).to_have_attribute("aria-pressed", "false")
    before = _order(page)
    # A drag makes it the player's own order: neither sort button looks selected any more.
    first, last = page.get_by_test_id(f"card-{before[0]}"), page.get_by_test_id(f"card-{before[-1]}")
    box_first, box_last = first.bounding_box(), last.bounding_box()
    page.mouse.move(box_first["x"] + CARD_TAP["x"], box_first["y"] + CARD_TAP["y"])
    page.mouse.down()
    page.mouse.move(box_first["x"] + 40, box_first["y"] + 12, steps=4)
    page.mouse.move(box_last["x"] + box_last["width"] - 4, box_last["y"] + 10, steps=8)
    page.mouse.up()
    mine = _order(page)
    assert mine[-1] == before[0], (before, mine)
    expect(by_rank).to_have_attribute("aria-pressed", "false")
    expect(by_suit).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("sort-state")).to_have_text("your order (drag, or Shift+arrows)")
    # A card taken from the pile goes next to the cards it sorts with (by rank), not to the far end,
    # and the player's own arrangement of the others stays.
    taken = [*_view()["hand"], "5C"]
    script.push(_view(hand=taken, discard=["3C", "9D", "QD"]), version=11)
    card = page.get_by_test_id("card-5C")
    expect(card).to_have_class(re.compile(r"\bfresh\b"))
    order = _order(page)
    assert abs(order.index("5C") - order.index("5H")) == 1 and order[-1] != "5C", order
    assert [c for c in order if c != "5C"] == mine
    # The keyboard's focus ring is not the gold "just drawn" ring: another colour, another line.
    card.focus()
    page.keyboard.press("ArrowRight")
    focused = page.locator(".hand .card:focus-visible")
    expect(focused).to_have_count(1)
    ring = focused.evaluate("el => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineColor]; }")
    fresh = card.evaluate("el => { const s = getComputedStyle(el); return [s.outlineStyle, s.boxShadow]; }")
    assert ring[0] == "dashed" and fresh[0] == "none", (ring, fresh)
    assert ring[1] not in fresh[1] and "rgb(244, 185, 66)" in fresh[1], (ring, fresh)
    # Shift+arrows move the focused card, which keeps the focus.
    name, was = focused.get_attribute("data-card"), _order(page)
    page.keyboard.press("Shift+ArrowLeft")
    assert _order(page).index(name) == was.index(name) - 1
    expect(page.get_by_test_id(f"card-{name}")).to_be_focused()
    # The next deal arrives sorted the way the player last sorted (by rank), and "By rank" is pressed again.
    deal = ["9C", "3S", "3D", "KH", "9H", "AS", "QC"]
    script.push(_view(hand=deal, phase="draw", legal=[{"draw": "stock"}]), version=12)
    expect(page.get_by_test_id("card-KH")).to_be_attached()
    assert _order(page) == ["AS", "3D", "3S", "9C", "9H", "QC", "KH"]
    expect(by_rank).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("hand").locator(".fresh")).to_have_count(0)  # a new deal is not "just drawn"


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_tap_selects_the_card_pressed_even_when_the_hand_moves_under_it(scripted, size):  # noqa: F811
    """A card sliding in or the layout shifting between the press and the release must not lose the tap:
    the card pressed is selected (once), and Discard offers it."""
    page, _script = scripted
    _size(page, size)
    card = page.get_by_test_id("card-2C")
    box = card.bounding_box()
    page.mouse.move(box["x"] + CARD_TAP["x"], box["y"] + CARD_TAP["y"])
    page.mouse.down()
    # The hand moves away from under the pointer before the release (the browser then clicks the hand itself).
    page.get_by_test_id("hand").evaluate("(el, w) => { el.style.paddingLeft = `${w}px`; }", box["width"] * 3)
    assert page.evaluate(
        "([x, y]) => !document.elementFromPoint(x, y)?.closest('[data-testid=card-2C]')",
        [box["x"] + CARD_TAP["x"], box["y"] + CARD_TAP["y"]],
    ), "the card should have moved from under the pointer"
    page.mouse.up()
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("hand").locator("[aria-pressed=true]")).to_have_count(1)
    expect(page.get_by_test_id("btn-discard")).to_be_enabled()
    # An ordinary tap toggles once (its click is not counted a second time), and so does the keyboard.
    card.click(position=CARD_TAP)
    expect(card).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("btn-discard")).to_be_disabled()
    card.focus()
    page.keyboard.press("Space")
    expect(card).to_have_attribute("aria-pressed", "true")


def test_a_finger_tap_selects_a_card_once_and_a_second_tap_unselects_it(scripted_touch):  # noqa: F811
    """On a touch screen the click of a tap comes after the release (which selected the card): it is not counted again."""
    page, _script = scripted_touch
    card = page.get_by_test_id("card-KD")
    card.tap(position=CARD_TAP)
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("btn-discard")).to_be_enabled()
    card.tap(position=CARD_TAP)
    expect(card).to_have_attribute("aria-pressed", "false")
    for c in ("KS", "KD", "KC"):
        page.get_by_test_id(f"card-{c}").tap(position=CARD_TAP)
    expect(page.get_by_test_id("hand").locator("[aria-pressed=true]")).to_have_count(3)
    expect(page.get_by_test_id("btn-meld")).to_be_enabled()


# ------------------------------------------------------------ sound and motion
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_turn_chimes_unless_muted_and_cards_move_unless_motion_is_reduced(scripted, size):  # noqa: F811
    page, script = scripted
    _size(page, size)
    # Which elements the page animates (the Web Animations API), from now on.
    page.evaluate(
        """() => { window.moved = []; const animate = Element.prototype.animate;
        Element.prototype.animate = function (...a) { window.moved.push(this.dataset.testid); return animate.apply(this, a); }; }"""
    )
    chimes = page.evaluate("() => window.rummySounds || 0")
    hand = _view()["hand"]
    bobs_turn = _view(to_move=1, phase="draw", legal=[])
    my_draw = _view(phase="draw", legal=[{"draw": "stock"}])
    script.push(bobs_turn, version=11)
    script.push(my_draw, version=12)
    # Ann's turn begins: one chime.
    page.wait_for_function("(n) => window.rummySounds === n", arg=chimes + 1)
    # She draws: the new card slides into the hand.
    script.push(_view(hand=[*hand, "4C"], stock_count=19), version=13)
    page.wait_for_function("() => window.moved.includes('card-4C')")
    # Muted, the next turn is silent; the switch says so.
    mute = page.get_by_test_id("mute")
    expect(mute).to_have_attribute("aria-pressed", "false")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(mute).to_have_text("\u266a off")
    script.push(bobs_turn, version=14)
    script.push(my_draw, version=15)
    _at(page, 15)
    expect(page).to_have_title(re.compile("Your turn"))
    assert page.evaluate("() => window.rummySounds") == chimes + 1
    # With reduced motion asked for, nothing moves: the drawn card is simply there, and nothing eases.
    lift = "el => getComputedStyle(el).transitionDuration"
    assert page.get_by_test_id("card-5H").evaluate(lift) != "0s"
    page.emulate_media(reduced_motion="reduce")
    assert page.get_by_test_id("card-5H").evaluate(lift) == "0s"
    page.evaluate("() => { window.moved = []; }")
    script.push(_view(hand=[*hand, "4D"], stock_count=18), version=16)
    expect(page.get_by_test_id("card-4D")).to_have_class(re.compile(r"\bfresh\b"))
    assert page.evaluate("() => window.moved") == []


# ------------------------------------------------------------ chips, score cells, melds
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_chips_score_cells_and_melds_read_well(scripted, size):  # noqa: F811
    page, script = scripted
    _size(page, size)
    chip = page.get_by_test_id("player-0")
    expect(page.get_by_test_id("score-0")).to_have_text("120 pts")
    # Ann laid a joker (as the 9♠) off inside Bob's run: its tag names her, its "=9♠" must stay readable.
    melds = [
        {"id": 0, "cards": ["8S", "JK=9S", "TS", "JS"], "laid_by": [1, 0, 1, 1], "kind": "run", "owner": 1},
        {"id": 1, "cards": ["KS", "KD", "KC"], "laid_by": [0, 0, 0], "kind": "set", "owner": 0},
    ]
    rounds = [{"round": 0, "dealer": 1, "round_scores": [79, -20], "totals": [120, 85], "went_out": 0}]
    after = _view(
        hand=["5H", "KH", "2C"],
        hand_sizes=[3, 9],
        melds=melds,
        legal=[{"layoff": ["KH"], "on": 1}, {"discard": "2C"}, {"discard": "KH"}],
    )
    _send(script, after, 11, table_points=[45, 0], rounds=rounds)
    # Ann's chip moves after she melds: her points on the table this round show next to her total.
    expect(page.get_by_test_id("score-0")).to_have_text("120 pts +45")
    assert chip.evaluate(SPOKEN).endswith("3 cards in hand, total 120 points, 45 on the table this round"), (
        chip.evaluate(SPOKEN)
    )
    assert "\u00d7" not in chip.evaluate(SPOKEN)
    # A score cell reads "+79, went out, total 120" (not "+79went out").
    cell = page.get_by_test_id("score-sheet").locator("tbody tr").first.locator("td").nth(1)
    assert cell.evaluate(SPOKEN) == "+79, went out, total 120", cell.evaluate(SPOKEN)
    # Melds are numbered from 1; the lay-off tag is "A1" (never "Al"); the joker's "=9♠" is not covered.
    meld = page.get_by_test_id("meld-0")
    expect(meld.locator(".meld-id")).to_have_text("#1")
    joker = meld.locator(".card").nth(1)
    expect(joker.locator(".by")).to_have_text("A1")
    expect(joker.locator(".stands")).to_have_text("=9\u2660")
    meld.evaluate("el => el.scrollIntoView({block: 'nearest'})")  # above the sticky hand (its scroll padding)
    for part in (".stands", ".by"):
        box = joker.locator(part).bounding_box()
        on_top = page.evaluate(
            "([x, y, sel]) => !!document.elementFromPoint(x, y)?.closest(sel)",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, f"[data-testid=meld-0] .card.joker {part}"],
        )
        assert on_top, f"the joker's {part} label is covered"
    # The tag does not cover the next card's index either (on a phone it did): the two boxes do not meet.
    tag = joker.locator(".by").bounding_box()
    corner = meld.locator(".card").nth(2).locator(".corner").bounding_box()
    assert tag["x"] + tag["width"] <= corner["x"] or corner["y"] + corner["height"] <= tag["y"], (tag, corner)
    # Its lay-off button counts melds from 1 too.
    page.get_by_test_id("card-KH").click(position=CARD_TAP)
    expect(page.get_by_test_id("btn-layoff-1")).to_have_text("Lay off on meld 2 (Ann)")
    # Cards look like cards: a court card and the joker show their faces (the free SVG deck, licence shipped).
    for card in (page.get_by_test_id("card-KH"), joker):
        assert card.locator("img.art").evaluate("img => img.decode().then(() => img.naturalWidth)") > 0, card
    licence = page.request.get(page.url.split("/t/")[0] + "/static/cards/LICENSE")
    assert licence.ok and "GNU LESSER GENERAL PUBLIC LICENSE" in licence.text().upper()


def _ann_melds_at_once(seed: int) -> list | None:
    """Ann moves first, draws, and may meld at once (a standard table against one bot)."""
    game = LiveGame(parse_rules({"preset": "standard"}, 2), ["Ann", "Bot 2"], seed)
    if game.match.state.public.to_move != 0:
        return None
    draw = next(a for a in game.legal(0) if isinstance(a, Draw))
    game.apply(0, draw)
    meld = next((a for a in game.legal(0) if isinstance(a, Meld) and "JK" not in str(a)), None)
    if meld is None:
        return None
    game.apply(0, meld)
    return [draw.to_record(), meld.to_record(), game.table_points()[0]]


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_my_chip_counts_the_points_i_meld(seeded_server, new_page, size):
    """On the real server: "0 pts" does not stand still after Ann melds; her chip adds what she has on the table."""
    seed, (draw, meld, points) = _first_seed(_ann_melds_at_once, range(1, 500))
    seeded_server.seeds.append(seed)
    page = new_page(*VIEWPORTS[size])
    create_table(page, seeded_server.url, name="Ann", seats=2, bots={1: "random"})
    score = page.get_by_test_id("score-0")
    expect(score).to_have_text("0 pts")
    play_action(page, draw)
    play_action(page, meld)
    assert points > 0
    expect(score).to_have_text(f"0 pts +{points}")
    expect(page.get_by_test_id("player-0").locator(".sr-only")).to_contain_text(f"{points} on the table this round")


# ------------------------------------------------------------ an away player, hints off
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_an_away_players_countdown_and_hints_turned_off(scripted, size):  # noqa: F811
    page, script = scripted
    _size(page, size)
    expect(page.get_by_test_id("btn-hint")).to_be_visible()
    pace = {
        "turn_clock": 0,
        "hints": False,
        "call_window": None,
        "summary": None,
        "clock": {"seat": 1, "left": 45.0, "kind": "away"},
    }
    _send(script, _view(to_move=1, phase="draw", legal=[]), 11, pace=pace)
    clock = page.get_by_test_id("turn-clock")
    expect(clock).to_contain_text(re.compile(r"^Bob is away: the computer plays for them in \d+ s$"))
    first = int(re.search(r"\d+", clock.inner_text()).group())
    assert 0 < first <= 45
    page.wait_for_function(
        "(n) => +document.querySelector('[data-testid=turn-clock]').textContent.match(/\\d+/)[0] < n", arg=first
    )
    # The host turned hints off: no Hint button on Ann's turn.
    _send(script, _view(), 12, pace={**pace, "clock": None})
    expect(page.get_by_test_id("btn-meld")).to_be_visible()
    expect(page.get_by_test_id("btn-hint")).to_have_count(0)


# ------------------------------------------------------------ the round summary's hold
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_round_summary_waits_for_ready_and_counts_down(scripted, size):  # noqa: F811
    page, script = scripted
    _size(page, size)
    summary = {
        "round": 0,
        "went_out": 1,
        "seats": [
            {
                "seat": 0, "melded": 45, "in_hand": 80, "round_score": -35, "total": -35,
                "hand": ["2C", "3C", "4D", "5D", "6H", "7H", "8S", "9S", "TC", "JD", "QH", "KS"],
            },
            {"seat": 1, "melded": 60, "in_hand": 0, "round_score": 60, "total": 60, "hand": []},
        ],
        "melds": [
            {"id": 0, "cards": ["5H", "6H", "7H", "8H"], "laid_by": [0, 0, 0, 1], "kind": "run", "owner": 0},
            {"id": 1, "cards": ["9C", "9D", "9S"], "laid_by": [1, 1, 1], "kind": "set", "owner": 1},
        ],
        "left": 30.0,
        "ready": [],
        "waiting": [0, 1],
    }
    pace = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": summary}
    next_deal = _view(hand=["AS", "3D", "8C", "JH", "QS", "4C", "9H"], melds=[], legal=[], scores=[-35, 60])
    _send(script, next_deal, 11, pace=pace)
    banner = page.get_by_test_id("round-over")
    expect(banner).to_contain_text("Round 1 over")
    expect(banner).to_contain_text("Bob went out.")
    expect(banner).to_be_in_viewport()
    ann = page.get_by_test_id("summary-0")
    expect(ann.get_by_test_id("melded")).to_have_text("+45")
    expect(ann.get_by_test_id("in-hand")).to_have_text("80")
    expect(ann.locator(".left-cards .card")).to_have_count(12)
    # Each row shows the cards that seat laid, which its points count: Bob's 8H laid off on Ann's run
    # is his (before 7 December it showed under Ann, with her run, as hers). Since 8 December Ann's
    # run is shown whole, the 8H dimmed and tagged as Bob's; his row names it "laid off on meld 1".
    expect(page.get_by_test_id("summary-melds-0").locator(".card:not(.other-layer)")).to_have_count(3)
    expect(page.get_by_test_id("summary-melds-0").locator(".card.other-layer .by")).to_have_text("B2")
    expect(page.get_by_test_id("summary-melds-1").locator(".meld-cards")).to_have_count(2)
    expect(page.get_by_test_id("summary-melds-1").locator(".card")).to_have_count(4)
    # Each row of cards says what it is (left in hand counts against, melded for).
    expect(ann.locator(".left-cards .what")).to_have_text("left in hand")
    expect(page.get_by_test_id("summary-melds-1").locator(".what")).to_have_text("melded")
    expect(page.get_by_test_id("summary-1").locator(".left-cards")).to_have_count(0)  # Bob went out: nothing left
    countdown = page.get_by_test_id("summary-countdown")
    expect(countdown).to_have_text(re.compile(r"^Next round in \d+ s at most\.$"))
    assert 0 < int(re.search(r"\d+", countdown.inner_text()).group()) <= 30
    expect(page.get_by_test_id("summary-waiting")).to_have_text("Waiting for you and Bob.")
    ready = page.get_by_test_id("round-over-ok")
    expect(ready).to_be_focused()  # the keyboard is where the next move is
    # The row of cards left in hand fits its cell (the last card's overlap once stuck out by 10 px).
    assert ann.locator(".left-cards").evaluate("el => el.scrollWidth <= el.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[size][0]
    # A state that only moves the countdown leaves the summary as drawn (its card faces are
    # costly pictures, and the focused button keeps the focus): the same button, the new count.
    ready.evaluate("el => { el.dataset.mark = 'kept'; }")
    _send(script, next_deal, 12, pace={**pace, "summary": {**summary, "left": 9.0}})
    _at(page, 12)
    expect(countdown).to_have_text("Next round in 9 s at most.")
    expect(ready).to_have_attribute("data-mark", "kept")
    expect(ready).to_be_focused()
    ready.click()
    page.wait_for_function("() => !document.querySelector('[data-testid=round-over-ok]')")
    assert {"type": "ready"} in script.sent
    expect(page.get_by_test_id("summary-waiting")).to_have_text("Waiting for Bob.")
    # Bob is ready too: the hold ends and the new deal is played.
    _send(script, _view(hand=next_deal["hand"], melds=[]), 13, pace={**pace, "summary": None})
    expect(banner).to_be_hidden()
    expect(page.get_by_test_id("btn-meld")).to_be_visible()


# ------------------------------------------------------------ a partnership's summary, the game's end
def _partners(script) -> None:
    """Make the scripted table a partnership of four: Ann & Cal (side A) against Bob & Dee (side B)."""
    more = [
        {"seat": s, "name": n, "kind": "human", "bot_level": None, "connected": True, "autoplay": False}
        for s, n in ((2, "Cal"), (3, "Dee"))
    ]
    script.table = {
        **script.table,
        "rules": {**script.table.get("rules", {}), "partnership": True, "players": 4},
        "seats": [*script.table["seats"], *more],
    }


def test_a_partnership_summary_totals_each_side_and_the_game_over_comes_first(scripted):  # noqa: F811
    """The sides' round scores and totals (what decides the game) head their partners' rows; the
    going-out bonus is named. While the summary holds the table nobody is to move. At the game's
    end the winner and the final totals (the final bonus named) come before the last round's rows,
    and the status line names the winner (7 December: none of this was shown)."""
    page, script = scripted
    _partners(script)
    row = {"melded": 0, "in_hand": 0, "bonus": 0, "hand": []}
    summary = {
        "round": 0,
        "went_out": 2,
        "melds": [],
        "left": 30.0,
        "ready": [],
        "waiting": [0, 1, 2, 3],
        "seats": [
            {**row, "seat": 0, "melded": 40, "in_hand": 10, "round_score": 30, "total": 30, "hand": ["TS"]},
            {**row, "seat": 1, "melded": 20, "in_hand": 5, "round_score": 15, "total": 15, "hand": ["5C"]},
            {**row, "seat": 2, "melded": 120, "bonus": 25, "round_score": 145, "total": 145},
            {**row, "seat": 3, "melded": 0, "in_hand": 25, "round_score": -25, "total": -25, "hand": ["KD", "AS"]},
        ],
    }
    pace = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": summary}
    deal = _view(
        players=4,
        hand_sizes=[7] * 4,
        known=[[], [], [], []],
        to_move=3,
        phase="draw",
        legal=[],
        melds=[],
        scores=[30, 15, 145, -25],
    )
    _send(script, deal, 11, pace=pace)
    table = page.get_by_test_id("round-summary")
    expect(table.locator("thead th")).to_have_text(
        ["Side / player", "Melded", "Left in hand", "Bonus", "Round", "Total"]
    )
    side_a, side_b = table.get_by_test_id("summary-side-0"), table.get_by_test_id("summary-side-1")
    expect(side_a.locator("th")).to_have_text("Side A (Ann & Cal)")
    expect(side_a.get_by_test_id("side-round")).to_have_text("+175")
    expect(side_a.get_by_test_id("side-total")).to_have_text("175")
    expect(side_b.get_by_test_id("side-total")).to_have_text("-10")
    # Partners sit under their side: Ann, Cal, then side B, Bob, Dee.
    expect(table.locator("tbody tr")).to_have_count(6)
    assert table.locator("tbody tr").evaluate_all("rs => rs.map(r => r.dataset.testid)") == [
        "summary-side-0",
        "summary-0",
        "summary-2",
        "summary-side-1",
        "summary-1",
        "summary-3",
    ]
    expect(table.get_by_test_id("summary-2").get_by_test_id("bonus")).to_have_text("+25 for going out")
    expect(page.get_by_test_id("side-tag-1")).to_have_text("side B: -10")
    # The next deal waits for the Ready presses: no turn marker, no "Waiting for Dee".
    expect(page.locator(".player .turn-mark")).to_have_count(0)
    # (The round's end itself is spoken from the log: the hint line says only what comes next.)
    expect(page.get_by_test_id("action-hint")).to_have_text("The next deal starts when everyone is ready.")
    expect(page.get_by_test_id("status")).to_have_text("Round 1 is over: the next round starts when everyone is ready.")
    # The game ends: side A won with the final bonus.
    last = {**summary, "round": 1, "final_bonus": {"seat": 0, "points": 50}, "left": None, "waiting": []}
    last["seats"] = [{**x, "total": x["total"] + 300 + (50 if x["seat"] == 0 else 0)} for x in summary["seats"]]
    end = [x["total"] for x in last["seats"]]
    over = {"kind": "game_over", "version": 12, "totals": end, "winner": [0, 2]}
    script.table = {**script.table, "status": "finished"}
    _send(
        script,
        {**deal, "phase": "round_over", "scores": end},
        12,
        log=[over],
        last_round=last,
        pace={**pace, "summary": None},
    )
    banner = page.get_by_test_id("round-over")
    expect(banner.get_by_test_id("winner")).to_have_text("Side A (Ann & Cal) won the game!")
    expect(banner.get_by_test_id("final-totals").locator("li").first).to_contain_text("with the +50 final bonus")
    expect(page.get_by_test_id("status")).to_have_text("Game over: Side A (Ann & Cal) won.")
    assert (
        banner.get_by_test_id("final-totals").bounding_box()["y"]
        < banner.get_by_test_id("game-over-replay").bounding_box()["y"]
        < banner.get_by_test_id("round-summary").bounding_box()["y"]
    )  # what to do next comes with the result, above the last round's rows


# ------------------------------------------------------------ the lobby's table settings
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_lobby_sets_the_clock_hints_and_privacy_and_the_table_says_so(server, new_page, size):
    page = new_page(*VIEWPORTS[size])
    page.goto(server + "/")
    page.get_by_test_id("name-input").fill("Ann")
    clock = page.get_by_test_id("turn-clock")
    expect(clock.locator("option")).to_have_text(["no clock", "30 seconds", "60 seconds", "2 minutes"])
    expect(page.get_by_test_id("allow-hints")).to_be_checked()
    expect(page.get_by_test_id("public-table")).not_to_be_checked()  # private unless asked
    clock.select_option("60")
    page.get_by_test_id("allow-hints").uncheck()
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    page.get_by_test_id("rules-panel").locator("summary").click()
    rules = page.get_by_test_id("table-rules")
    expect(rules).to_contain_text("Turn clock: 60 s a turn, then the computer plays it.")
    expect(rules).to_contain_text("Hints are off at this table.")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    expect(page.get_by_test_id("btn-hint")).to_have_count(0)


def test_create_waits_for_the_rules_catalogue_and_then_makes_a_standard_table(server, new_page):
    # A slow network: the rules catalogue has not come yet when the player is ready to press
    # Create. The button waits for it (a table made without it would have no preset), then works.
    page = new_page(*VIEWPORTS["laptop"])
    held: list[Any] = []
    page.route("**/api/rules", lambda route: held.append(route))
    page.goto(server + "/")
    page.get_by_test_id("name-input").fill("Ann")
    create = page.get_by_test_id("create-table")
    expect(create).to_be_disabled()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the lobby never asked for the rules catalogue"
    expect(create).to_be_disabled()  # still waiting: nothing has answered
    held[0].continue_()
    expect(create).to_be_enabled()
    expect(page.get_by_test_id("preset")).to_have_value("standard")
    create.click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    expect(page.get_by_test_id("error-banner")).to_be_hidden()
    page.get_by_test_id("rules-panel").locator("summary").click()
    expect(page.get_by_test_id("table-rules")).to_contain_text("First to 500 points wins.")


# ------------------------------------------------------------ chat over a reload


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_chat_is_still_there_after_a_reload(server, new_page, size):
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 2, "bots": {"1": "random"}})
    post_json(server, f"/api/tables/{made['table_id']}/start", {}, made["token"])
    page = new_page(*VIEWPORTS[size])
    page.goto(server + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"rummy500.seat.{made['table_id']}", json.dumps({"seat": 0, "token": made["token"], "name": "Ann"})],
    )
    page.goto(f"{server}/t/{made['table_id']}")
    # As a player would: type once the table shows it is connected (before that, the page keeps
    # the text and says "Not connected").
    expect(page.get_by_test_id("hand")).to_be_visible()
    expect(page.get_by_test_id("conn-status")).to_have_text("connected", timeout=15_000)
    chat = page.get_by_test_id("chat-input")
    chat.fill("good luck, bot")
    chat.press("Enter")
    expect(page.get_by_test_id("chat-list")).to_have_text("Ann: good luck, bot")
    page.reload()
    expect(page.get_by_test_id("hand")).to_be_visible()
    expect(page.get_by_test_id("chat-list")).to_have_text("Ann: good luck, bot")  # once, not twice


# ------------------------------------------------------------ replays
async def _finish(app: Any, table_id: str) -> None:
    """Play Ann's seat to the game's end with a medium bot's choices (her opponent is a bot).

    The game runs on the real server; this only saves the test a person's
    clicks. Round summaries are answered at once (Ann is ready).
    """
    session = await app.state.manager.session(table_id)
    for _ in range(2000):
        if session.finished:
            return
        if session.pace.held(time.monotonic()) is not None:
            session.ready(0)
        elif session.game.legal(0):
            found = hint_for(session.game.view(0), "medium", session.version)
            if found["action"] is not None:  # (None: let an out-of-turn chance pass, nothing to send)
                await session.submit(0, session.version, found["action"])
                continue
        await asyncio.sleep(0.01)
    st = session.game.match.state.public
    raise AssertionError(
        f"table {table_id} did not finish: version {session.version}, to move {st.to_move}, phase {st.phase},"
        f" summary {session.pace.summary is not None}, held {session.pace.held(time.monotonic())}, idle {session.driver.idle}"
    )


@pytest.fixture(scope="module")
def finished_games(seeded_server) -> dict[str, str]:
    """Three finished games, in this order: a public one, a private one, a public two-round one.

    They are played on the 32-card pack (five cards in the stock), so each round is a few turns.
    """
    games = {}
    for name, public, rounds in (("old", True, 1), ("private", False, 1), ("new", True, 2)):
        made = post_json(
            seeded_server.url,
            "/api/tables",
            {"name": "Ann", "seats": 2, "bots": {"1": "medium"}, "rules": {"rounds": rounds, "short_pack": True}, "public": public},
        )
        post_json(seeded_server.url, f"/api/tables/{made['table_id']}/start", {}, made["token"])
        seeded_server.call(lambda app, t=made["table_id"]: _finish(app, t), timeout=120)
        games[name] = made["table_id"]
    return games


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_replays_list_public_games_newest_first_and_show_each_rounds_end(seeded_server, finished_games, new_page, size):
    base = seeded_server.url
    page = new_page(*VIEWPORTS[size])
    page.goto(base + "/#replays")
    links = page.get_by_test_id("game-list").locator("a")
    expect(links.first).to_be_visible()
    ids = [x.split("-", 1)[1] for x in links.evaluate_all("els => els.map(e => e.dataset.testid)")]
    # Newest first; a private table's game is never listed (its players reach it by its own link).
    assert ids.index(finished_games["new"]) < ids.index(finished_games["old"]), ids
    assert finished_games["private"] not in ids
    page.get_by_test_id(f"game-{finished_games['new']}").click()
    step, where = page.get_by_test_id("replay-step"), page.get_by_test_id("replay-round")
    expect(step).to_contain_text("move 0 of")
    expect(where).to_contain_text(re.compile(r"^Round 1 \u00b7 (Ann|Bot 2) to (draw|meld, lay off and discard) \u00b7"))
    record = json.loads(urllib.request.urlopen(f"{base}/api/games/{finished_games['new']}/record", timeout=5).read())  # noqa: S310
    first_round = len(record["rounds"][0]["actions"])
    slider = page.get_by_test_id("replay-slider")

    def go(n: int) -> None:
        slider.evaluate("(el, n) => { el.value = String(n); el.dispatchEvent(new Event('input')); }", n)
        expect(step).to_contain_text(f"move {n} of")

    # The first round's end is a step of its own, in words; the next step is round 2.
    go(first_round)
    expect(where).to_have_text("Round 1 \u00b7 round over")
    expect(page.get_by_test_id("replay-round-over")).to_contain_text(re.compile(r"melded \d+, left in hand \d+"))
    page.get_by_test_id("replay-next").click()
    expect(step).to_contain_text(f"move {first_round + 1} of")
    expect(where).to_contain_text(re.compile(r"^Round 2 \u00b7 (Ann|Bot 2) to "))
    # A round can be reached at once: its deal, or its end.
    jump = page.get_by_test_id("replay-jump")
    ends = list(itertools.accumulate(len(r["actions"]) for r in record["rounds"]))
    expect(jump.locator("option")).to_have_count(1 + 2 * len(record["rounds"]))
    jump.select_option(label="Round 1: its end")
    expect(step).to_contain_text(f"move {first_round} of")
    expect(where).to_have_text("Round 1 \u00b7 round over")
    jump.select_option(label="Round 2")
    # Round 2's deal, before its first move (it opened after that move, so the deal was never shown).
    expect(step).to_contain_text(f"move {first_round} of")
    expect(page.get_by_test_id("replay-action")).to_have_text(
        re.compile(rf"^Before move {first_round + 1} of \d+: the deal of round 2\.$")
    )
    expect(where).to_contain_text(re.compile(r"^Round 2 \u00b7 (Ann|Bot 2) to draw"))
    jump.select_option(label=f"Round {len(ends)}: its end")
    expect(step).to_contain_text(f"move {ends[-1]} of {ends[-1]}")
    jump.select_option(label="Round 1")
    expect(step).to_contain_text("move 0 of")
    # From the keyboard: the arrow keys step through the list, each entry a jump.
    jump.focus()
    page.keyboard.press("ArrowDown")
    expect(step).to_contain_text(f"move {first_round} of")
    expect(where).to_have_text("Round 1 \u00b7 round over")
    page.keyboard.press("ArrowDown")
    expect(where).to_contain_text(re.compile(r"^Round 2 \u00b7 (Ann|Bot 2) to draw"))
    # Next plays round 2's first move. What the step played is what is announced (a live region), with its number.
    page.get_by_test_id("replay-next").click()
    expect(step).to_contain_text(f"move {first_round + 1} of")
    action = page.get_by_test_id("replay-action")
    expect(action).to_have_attribute("aria-live", "polite")
    expect(action).to_contain_text(re.compile(rf"^Move {first_round + 1} of {ends[-1]}: "))
    page.get_by_test_id("replay-last").click()
    # The last step is the last round's end: round 2, or a tie-break round when round 2 ended level.
    expect(where).to_have_text(f"Round {len(record['rounds'])} \u00b7 round over")
    # ... and it says who won the game, with the final totals.
    expect(page.get_by_test_id("replay-game-over")).to_contain_text(re.compile(r"^Game over: (Ann|Bot 2) won\. Final totals: Ann -?\d+, Bot 2 -?\d+\.$"))
    # The private game still opens from its own link.
    page.goto(f"{base}/#replay/{finished_games['private']}")
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of")


def test_a_replay_keeps_the_move_asked_for_when_the_names_arrive_late(seeded_server, finished_games, new_page):
    """Next clicked before the record (the players' names) has come: its late answer must not go back to move 0."""
    base = seeded_server.url
    page = new_page()
    records, moves = [], []
    page.route("**/api/games/*/record", lambda route: records.append(route))  # the names wait ...
    page.goto(f"{base}/#replay/{finished_games['new']}")
    step = page.get_by_test_id("replay-step")
    expect(step).to_contain_text("move 0 of")
    page.route("**/api/games/*/replay/1", lambda route: moves.append(route))  # ... and so does move 1
    page.get_by_test_id("replay-next").click()
    for _ in range(250):  # (the click's request is on its way)
        if moves:
            break
        page.wait_for_timeout(20)
    assert moves, "Next asked for move 1"
    for route in records:  # the names come while move 1 is still on its way
        route.continue_()
    expect(page.locator(".replays h2").first).to_contain_text("Replay: ")
    page.unroute("**/api/games/*/replay/1")
    for route in moves:
        route.continue_()
    expect(step).to_have_text(re.compile(r"move 1 of \d+"))
    page.wait_for_timeout(300)  # nothing else may come and take it back
    expect(step).to_have_text(re.compile(r"move 1 of \d+"))
    expect(page.get_by_test_id("replay-action")).to_contain_text("Move 1")
