"""What a first-time player, a keyboard and a screen reader meet, after the web audit of the table.

The audit (1366×768 and 390×844, keyboard and screen reader) found: the laptop's score sheet
hiding the round just scored; a phone's round summary wider than its banner and its melds read as
two groups; a phone's game over scrolled past its result; the hint saying its move twice and its
obligation note run into it; Hint moving the focus to Draw; the focus dropped on the page after a
discard, after Ready and at the game's end; the player's own moves spoken in symbols and the
joker written "JK=Q♣"; news spoken by two or three live regions; a review name split mid-word;
the quick game's chips mixing card points with the game's; the standard rules never saying what
cards are worth; the sort chip in use looking unchosen; the away countdown never spoken; the
review's picked move announced by another number; Escape not closing the pile's preview.

Positions come from the scripted socket of ``test_client`` (the page's own logic is the subject).
"""

from __future__ import annotations

import json
import re

import pytest
from browser_ui import CARD_TAP
from playwright.sync_api import expect
from test_client import _view, scripted  # noqa: F401 - the fixtures are used by name
from test_table_feel import SPOKEN, _at, _send
from test_table_ux import VIEWPORTS

QUICK = {"card_values": "flat", "score_divisor": 5, "target": 100}
PACE = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": None}

#: Records each write to the page's live regions (a region written again is read out again).
RECORD_LIVE = """() => {
  window.liveWrites = [];
  for (const el of document.querySelectorAll('[aria-live]:not([aria-live=off])')) {
    new MutationObserver(() => window.liveWrites.push([el.dataset.testid ?? el.className, el.textContent]))
      .observe(el, {childList: true, characterData: true, subtree: true});
  }
}"""

#: The live regions (not hidden from a screen reader) whose text holds ``text`` now.
SPEAKING = """(text) => [...document.querySelectorAll('[aria-live]:not([aria-live=off])')]
  .filter((el) => !el.closest('[aria-hidden=true]') && el.textContent.includes(text)).map((el) => el.dataset.testid)"""

ACTIVE = "() => document.activeElement === document.body ? 'BODY' : (document.activeElement.dataset.testid ?? document.activeElement.tagName)"


def _size(page, size: str) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))


def _shot(page, artifacts, name: str, full: bool = False) -> None:
    page.screenshot(path=str(artifacts / name), full_page=full)


def _live_writes(page, testid: str) -> list[str]:
    return [t for (who, t) in page.evaluate("window.liveWrites") if who == testid]


# ------------------------------------------------------------ 1: the score sheet shows the round just scored
def _rounds(n: int, seats: int) -> list[dict]:
    out, totals = [], [0] * seats
    for r in range(n):
        scores = [(r + 1) * 5 * (1 if s == r % seats else -1) for s in range(seats)]
        totals = [t + x for t, x in zip(totals, scores, strict=True)]
        out.append({"round": r, "dealer": r % seats, "round_scores": scores, "totals": list(totals), "went_out": r % seats})
    return out


def test_the_score_sheet_keeps_the_round_just_scored_in_view_and_its_note_points_the_right_way(scripted, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, "laptop")
    seats = 5  # a row a player, the rounds side by side: the sheet scrolls sideways
    view = _view(players=seats, hand_sizes=[7] * seats, known=[[]] * seats, legal=[], to_move=1, phase="draw")
    sheet = page.get_by_test_id("score-sheet")
    note = page.get_by_test_id("score-scroll-hint")
    fully_shown = """(th) => { const s = th.closest('.sheet-scroll').getBoundingClientRect(), r = th.getBoundingClientRect();
                               return r.left >= s.left - 1 && r.right <= s.right + 1; }"""
    version = 11
    for n in range(3, 8):
        rounds = _rounds(n, seats)
        _send(script, {**view, "scores": rounds[-1]["totals"]}, version, rounds=rounds)
        _at(page, version)
        version += 1
        if not note.count():
            continue
        # The round just scored shows beside the totals, however many rounds came before it.
        newest = sheet.locator(f"thead th.rnd[data-round='{n}']")
        assert newest.evaluate(fully_shown), f"round {n} is out of view"
        expect(note).to_have_text("\u2190 Older rounds: scroll the sheet sideways.")
    assert note.count(), "the sheet never scrolled sideways"
    _shot(page, artifacts, "audit-score-sheet-laptop.png")
    # The reader scrolls back to the first rounds: the note now points to the newer ones, and a
    # state that scores no round leaves the sheet where the reader put it.
    scroller = sheet.locator(".sheet-scroll")
    scroller.evaluate("el => { el.scrollLeft = 0; }")
    expect(note).to_have_text("Newer rounds \u2192: scroll the sheet sideways.")
    _send(script, {**view, "to_move": 2}, version)
    _at(page, version)
    assert scroller.evaluate("el => el.scrollLeft") == 0
    expect(sheet.locator("thead th.rnd[data-round='1']")).to_be_visible()
    # The next round is scored: it is shown again.
    rounds = _rounds(8, seats)
    _send(script, {**view, "scores": rounds[-1]["totals"]}, version + 1, rounds=rounds)
    _at(page, version + 1)
    assert sheet.locator("thead th.rnd[data-round='8']").evaluate(fully_shown)
    expect(note).to_have_text("\u2190 Older rounds: scroll the sheet sideways.")


# ------------------------------------------------------------ 2: a meld laid off on in its middle
#: Round 4 of a quick game: Bob laid the 3♥, 7♥ and 10♥ off on Ann's long heart run.
LONG_MELD_SUMMARY = {
    "round": 3,
    "went_out": 0,
    "seats": [
        {"seat": 0, "melded": 130, "in_hand": 0, "bonus": 0, "round_score": 26, "total": 96, "hand": []},
        {"seat": 1, "melded": 45, "in_hand": 35, "bonus": 0, "round_score": 2, "total": 64, "hand": ["KS", "QD", "9C", "4S"]},
    ],
    "melds": [
        {"id": 0, "cards": ["9S", "9D", "9C"], "laid_by": [1, 1, 1], "kind": "set", "owner": 1},
        {
            "id": 1,
            "cards": ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"],
            "laid_by": [1, 0, 0, 0, 1, 0, 0, 1],
            "kind": "run",
            "owner": 0,
        },
        {"id": 2, "cards": ["5S", "6S", "7S", "8S", "9S", "TS"], "laid_by": [0, 0, 0, 1, 0, 0], "kind": "run", "owner": 0},
        {"id": 3, "cards": ["QC", "KC", "AC"], "laid_by": [0, 0, 0], "kind": "run", "owner": 0},
        {"id": 4, "cards": ["JH", "JS", "JD", "JK=JC"], "laid_by": [0, 0, 0, 0], "kind": "set", "owner": 0},
    ],
    "left": 30.0,
    "ready": [],
    "waiting": [0, 1],
}


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_meld_laid_off_on_reads_as_one_and_the_summary_fits_its_banner(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    script.table = {**script.table, "rules": dict(QUICK)}
    deal = _view(hand=["AS", "3D", "8C", "JH", "QS", "4C", "9H"], melds=[], legal=[], scores=[96, 64])
    _send(script, deal, 11, pace={**PACE, "summary": LONG_MELD_SUMMARY})
    banner = page.get_by_test_id("round-over")
    expect(banner).to_contain_text("Round 4 over")
    # The whole summary shows inside its banner: its Total column is not a sideways scroll away.
    assert banner.evaluate("el => el.scrollWidth <= el.clientWidth"), banner.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert page.get_by_test_id("round-summary").evaluate(
        "t => t.getBoundingClientRect().right <= t.closest('[data-testid=round-over]').getBoundingClientRect().right + 1"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[size][0]
    run = page.get_by_test_id("summary-melds-0").locator(".summary-meld").nth(0)
    expect(run.locator(".meld-tag")).to_have_text("meld 2")
    cards = run.locator(".card")
    expect(cards).to_have_count(8)
    # One group: every card overlaps the one before it by the same amount (no gap where Bob's card lies).
    boxes = cards.evaluate_all("cs => cs.map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.top, r.width]; })")
    steps = {round(b[0] - a[0], 1) for a, b in zip(boxes, boxes[1:], strict=False) if abs(a[1] - b[1]) < 1}
    assert len(steps) == 1 and steps.pop() < boxes[0][2], boxes
    # Bob's cards stay his: dimmed, and his tag under each, whole and uncovered.
    theirs = run.locator(".card.other-layer")
    expect(theirs).to_have_count(3)
    expect(theirs.locator(".by")).to_have_text(["B2", "B2", "B2"])
    run.scroll_into_view_if_needed()
    for i in range(3):
        card = theirs.nth(i)
        assert float(card.locator(".art").evaluate("el => getComputedStyle(el).opacity")) < 1
        tag, face = card.locator(".by").bounding_box(), card.bounding_box()
        assert tag["y"] >= face["y"] + face["height"] - 1, (tag, face)  # under the card: clear of the next card's index
        x, y = tag["x"] + tag["width"] / 2, tag["y"] + tag["height"] / 2
        assert page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)?.closest('.card.other-layer .by')", [x, y])
    _shot(page, artifacts, f"audit-summary-long-meld-{size}.png")


# ------------------------------------------------------------ 3, 7: the game's end shows its result and holds the focus
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_game_over_shows_the_result_from_its_heading(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    script.table = {**script.table, "rules": dict(QUICK)}
    # Playing the last round, the page scrolled down to the hand and the focus on the moves.
    _send(script, _view(scores=[96, 64]), 11)
    _at(page, 11)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.get_by_test_id("btn-hint").focus()
    page.evaluate(RECORD_LIVE)
    last = {**LONG_MELD_SUMMARY, "round": 4, "left": None, "waiting": []}
    last["seats"] = [{**x, "total": x["total"] + 10} for x in LONG_MELD_SUMMARY["seats"]]
    end = [x["total"] for x in last["seats"]]
    log = [
        {"kind": "round_over", "version": 12, "round": 4, "went_out": 0, "round_scores": [26, 2], "totals": end},
        {"kind": "game_over", "version": 12, "totals": end, "winner": 0},
    ]
    script.table = {**script.table, "status": "finished"}
    _send(script, _view(phase="game_over", scores=end, legal=[], melds=[]), 12, log=log, last_round=last, pace=PACE)
    banner = page.get_by_test_id("round-over")
    heading = page.get_by_test_id("round-over-heading")
    expect(heading).to_have_text("Game over \u2014 round 5 scored")
    # The result is on the screen (on a phone it was 506 px above it), and the keyboard is there too.
    expect(heading).to_be_focused()
    page.wait_for_function(
        "() => { const r = document.querySelector('[data-testid=round-over-heading]').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    expect(banner.get_by_test_id("winner")).to_be_in_viewport()
    expect(banner.get_by_test_id("winner")).to_have_text("Ann won the game!")
    # The game's end is spoken once: "Game over: Ann won." (the status line and the hint line do not repeat it).
    expect(page.get_by_test_id("live-moves")).to_contain_text("Game over: Ann won.")
    assert page.evaluate(SPEAKING, "Game over") == ["live-moves"]
    assert page.evaluate(SPEAKING, "game is over") == []
    _shot(page, artifacts, f"audit-game-over-{size}.png")


# ------------------------------------------------------------ 4, 10, 12: the hint says its move once; the obligation after it
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_hint_says_its_move_once_with_the_joker_in_words(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    view = _view(
        hand=["QC", "KC", "JK", "2D", "5S", "9H"],
        obligation="2D",
        legal=[{"meld": ["QC", "KC", "JK=AC"]}, {"meld": ["QC", "KC", "JK=JC"]}],
        melds=[],
    )
    _send(script, view, 11)
    _at(page, 11)
    page.get_by_test_id("btn-hint").click()
    hint = {
        "type": "hint",
        "version": 11,
        "action": {"meld": ["QC", "KC", "JK=AC"]},
        "text": "meld QC KC JK=AC",
        "reason": "35 points are safe on the table before anyone goes out.",
        "level": "expert",
    }
    script.ws.send(json.dumps(hint))
    line = page.get_by_test_id("action-hint")
    # The move once, then why, then which bot; the obligation is a sentence of its own after it.
    expect(line).to_have_text(
        "Hint: Meld Q\u2663 K\u2663 joker (as A\u2663). 35 points are safe on the table before anyone goes out."
        " (the expert bot) You must use 2\u2666 before you can discard."
    )
    assert line.evaluate(SPOKEN).count("Meld") == 1
    expect(page.get_by_test_id("hint-obligation")).to_be_visible()
    _shot(page, artifacts, f"audit-hint-{size}.png")
    # A reason that begins in lower case still starts its sentence.
    script.ws.send(json.dumps({**hint, "action": {"discard": "9H"}, "reason": "it fits nothing you hold", "level": None}))
    expect(line).to_contain_text("Hint: Discard 9\u2665. It fits nothing you hold. You must use 2\u2666")


# ------------------------------------------------------------ 6: Hint keeps the focus and says "Thinking…" once
def test_hint_keeps_the_focus_and_thinking_is_said_once(scripted):  # noqa: F811
    page, script = scripted
    _send(script, _view(phase="draw", legal=[{"draw": "stock"}, {"take": 1}]), 11)
    _at(page, 11)
    page.evaluate(RECORD_LIVE)
    hint_btn = page.get_by_test_id("btn-hint")
    hint_btn.focus()
    page.keyboard.press("Enter")
    expect(hint_btn).to_have_text("Thinking\u2026")
    expect(hint_btn).to_have_attribute("aria-disabled", "true")
    expect(hint_btn).to_be_focused()  # not Draw: a second Enter must not draw a card
    expect(page.get_by_test_id("action-hint")).to_have_text("Thinking\u2026")
    page.keyboard.press("Enter")  # impatience: nothing more is asked, nothing drawn
    assert [m["type"] for m in script.sent].count("hint") == 1
    assert script.actions() == []
    script.ws.send(json.dumps({"type": "hint", "version": 11, "action": {"draw": "stock"}, "text": "draw",
                               "reason": "Nothing in the discard pile helps your hand enough.", "level": "hard"}))
    expect(page.get_by_test_id("action-hint")).to_contain_text("Hint: Draw from the stock.")
    expect(hint_btn).to_have_text("Hint")
    expect(hint_btn).to_be_focused()
    assert _live_writes(page, "action-hint").count("Thinking\u2026") == 1, page.evaluate("window.liveWrites")


# ------------------------------------------------------------ 7: the focus after a discard and after Ready
def test_the_focus_stays_on_the_moves_after_a_discard_and_after_ready(scripted):  # noqa: F811
    page, script = scripted
    _size(page, "laptop")
    page.get_by_test_id("card-2C").click(position=CARD_TAP)
    discard = page.get_by_test_id("btn-discard")
    discard.focus()
    scroll = page.evaluate("scrollY")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.rummy.pending")
    assert script.actions()[-1]["action"] == {"discard": "2C"}
    _send(script, _view(hand=["5H", "6H", "JK", "KS", "KD", "KC"], to_move=1, phase="draw", legal=[]), 11)
    _at(page, 11)
    # Bob's turn: no move can be pressed; the focus waits on the moves (not the page's top), the page stays.
    assert page.evaluate(ACTIVE) == "actions"
    assert page.evaluate("scrollY") == scroll
    _send(script, _view(phase="draw", legal=[{"draw": "stock"}, {"take": 1}]), 12)
    _at(page, 12)
    expect(page.get_by_test_id("btn-draw")).to_be_focused()
    # The round's summary: Ready has the focus; once pressed, the focus waits on the moves again.
    summary = {**LONG_MELD_SUMMARY, "round": 0}
    _send(script, _view(legal=[], melds=[]), 13, pace={**PACE, "summary": summary})
    ready = page.get_by_test_id("round-over-ok")
    expect(ready).to_be_focused()
    page.keyboard.press("Enter")
    expect(ready).to_have_count(0)
    assert page.evaluate(ACTIVE) == "actions"
    # Bob moves first in the next round, then it is Ann's turn: Draw.
    _send(script, _view(to_move=1, phase="draw", legal=[], melds=[]), 14, pace=PACE)
    _at(page, 14)
    assert page.evaluate(ACTIVE) == "actions"
    _send(script, _view(phase="draw", legal=[{"draw": "stock"}, {"take": 1}], melds=[]), 15, pace=PACE)
    _at(page, 15)
    expect(page.get_by_test_id("btn-draw")).to_be_focused()


# ------------------------------------------------------------ 8, 9, 12: moves spoken in words, each piece of news once
def _mine(version: int, event: str, seat: int = 0, **fields) -> dict:
    name = "Ann" if seat == 0 else "Bob"
    return {"kind": "action", "version": version, "round": 0, "seat": seat, "name": name, "auto": False,
            "events": [{"event": event, "seat": seat, **fields}]}


def test_moves_are_spoken_in_words_and_each_piece_of_news_once(scripted):  # noqa: F811
    page, script = scripted
    page.evaluate(RECORD_LIVE)
    melded = _mine(11, "melded", cards=["AC", "KC", "JK=QC"])
    script.push(_view(hand=["5H", "6H", "KS", "KD"]), version=11, log=[melded])
    live = page.get_by_test_id("live-moves")
    # Spoken as the card drawn is ("You drew Jack of hearts"), never "JK=Q♣".
    expect(live).to_have_text("You melded a joker as the Queen of clubs, King of clubs and Ace of clubs")
    # The log shows the cards, the joker in the game's words.
    expect(page.get_by_test_id("game-log")).to_contain_text("Ann: melded joker (as Q\u2663) K\u2663 A\u2663")
    expect(page.get_by_test_id("game-log")).not_to_contain_text("JK")
    took = _mine(12, "took", seat=1, cards=["9D", "QD"])
    script.push(_view(to_move=1, legal=[]), version=12, log=[melded, took])
    expect(live).to_have_text("Bob: took 2 cards from the pile: 9 of diamonds and Queen of diamonds")
    # The turn passes to Bob: said once (the hint line), not by the status line as well.
    assert page.get_by_test_id("status").evaluate("el => !el.closest('[aria-live]:not([aria-live=off])')")
    expect(page.get_by_test_id("action-hint")).to_have_text("Waiting for Bob.")
    expect(page.get_by_test_id("status")).to_have_text("Bob to play.")
    # The round ends: its result once (the moves' region); the hint line says only what comes next.
    over = {"kind": "round_over", "version": 13, "round": 0, "went_out": 1, "round_scores": [-20, 30], "totals": [100, 115]}
    summary = {**LONG_MELD_SUMMARY, "round": 0, "went_out": 1}
    _send(script, _view(legal=[], melds=[]), 13, log=[over], pace={**PACE, "summary": summary})
    expect(live).to_have_text(re.compile(r"^Round 1 over\. Bob went out\."))
    expect(page.get_by_test_id("action-hint")).to_have_text("The next deal starts when everyone is ready.")
    assert page.evaluate(SPEAKING, "over") == ["live-moves"], page.evaluate("window.liveWrites")


# ------------------------------------------------------------ 11: a review's names break between words only
def test_the_review_names_break_between_words_and_the_picked_move_is_announced_by_its_number(server, new_page, artifacts):
    from test_review import _quick_review

    review = _quick_review()
    review["players"][1]["name"] = "Bartholomew"
    review["players"][0]["name"] = "Ann Marie Delacroix-Montgomery"
    game = "auditreview"
    body = json.dumps({"status": "done", "ahead": 0, "done": 4, "total": 4, "review": review, "error": None})

    def replay(route):
        n = int(route.request.url.rsplit("/", 1)[1])
        action = None if n == 0 else {"kind": "action", "version": n, "round": 0, "seat": (n + 1) % 2, "name": "x",
                                       "auto": False, "events": [{"event": "drew", "seat": (n + 1) % 2, "count": 1}]}
        data = {"step": n, "total": 8, "round_ends": [8], "round": 0, "action": action,
                "view": {"to_move": n % 2, "phase": "draw", "hand_sizes": [7, 7], "discard": ["3C"], "melds": [],
                         "stock_count": 20, "scores": [0, 0]}}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page = new_page(*VIEWPORTS["phone"])
    page.route("**/api/games/*/review", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    page.route("**/api/games/*/record", lambda route: route.abort())
    page.route("**/api/games/*/replay/*", replay)
    page.goto(server + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"rummy500.seat.{game}", json.dumps({"seat": 0, "token": "t", "name": "Ann", "creator": True})],
    )
    page.goto(f"{server}/#replay/{game}")
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of 8")
    page.get_by_test_id("review-button").click()
    summary = page.get_by_test_id("review-summary")
    expect(summary.locator("tbody tr")).to_have_count(2)
    # No word is cut in two across lines: each line of a name ends where a word (or a hyphen) ends.
    for row in range(2):
        name = summary.locator("tbody tr").nth(row).locator("th .name")
        full = name.get_attribute("title")
        lines = name.evaluate(
            """el => { const t = el.firstChild, r = document.createRange(), out = []; let top = null, line = '';
                       for (let i = 0; i < t.length; i++) { r.setStart(t, i); r.setEnd(t, i + 1);
                         const y = Math.round(r.getBoundingClientRect().top);
                         if (top !== null && y !== top && line) { out.push(line); line = ''; }
                         top = y; line += t.data[i]; }
                       out.push(line); return out; }"""
        )
        words = re.findall(r"[^\s-]+-?", full)  # a hyphen ends a word as a space does
        for piece in lines:
            assert all(w in words for w in re.findall(r"[^\s-]+-?", piece)), (full, lines)
    bart = summary.locator("tbody tr").nth(1).locator("th .name")
    assert bart.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "Bartholomew is cut short"
    assert page.locator(".review-scroll").evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    summary.scroll_into_view_if_needed()
    _shot(page, artifacts, "audit-review-names-phone.png")
    # Picking move 4 announces move 4 (the position before it), not "Move 3".
    item = page.get_by_test_id("review-move-4")
    expect(item).to_contain_text("Meld 8\u2666 joker (as 9\u2666) 10\u2666")
    item.scroll_into_view_if_needed()
    item.click()
    expect(page.get_by_test_id("replay-action")).to_have_text("Before move 4 of 8.")
    current = page.get_by_test_id("review-current")
    expect(current).to_contain_text("Next move (move 4)")
    # Its sentences do not run together ("...inaccuracyLast move").
    assert not re.search(r"[a-z](Last|Next) move", current.evaluate("el => el.textContent")), current.evaluate("el => el.textContent")


# ------------------------------------------------------------ 13, 14: the game's own points on the chips; card values always said
def test_quick_chips_count_the_games_points_and_the_standard_rules_say_what_cards_are_worth(scripted, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, "laptop")
    # A standard table: the rules panel says what the cards are worth.
    page.get_by_test_id("rules-panel").locator("summary").click()
    rules = page.get_by_test_id("table-rules")
    expect(rules).to_contain_text("Cards count their number; 10, jack, queen and king 10; aces 15")
    # A quick game: 45 card points on the table are 9 of the game's points, beside the game's total.
    script.table = {**script.table, "rules": dict(QUICK)}
    _send(script, _view(scores=[5, 19]), 11, table_points=[45, 0])
    _at(page, 11)
    expect(page.get_by_test_id("score-0")).to_have_text("5 pts +9")
    expect(page.get_by_test_id("player-0").locator(".sr-only")).to_have_text(re.compile(r"total 5 points, 9 on the table this round$"))
    expect(rules).to_contain_text("Cards count 5 (2 to 9), 10 (10 to king) and 15 (ace")
    _shot(page, artifacts, "audit-quick-chips-laptop.png")


# ------------------------------------------------------------ S1, S2, S4: the sort chip, the away countdown, Escape
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_sort_in_use_looks_chosen_the_away_countdown_is_said_once_and_escape_closes_the_pile(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    by_suit, by_rank = page.get_by_test_id("sort-suit"), page.get_by_test_id("sort-rank")
    expect(by_suit).to_have_attribute("aria-pressed", "true")
    bg = "el => getComputedStyle(el).backgroundColor"
    assert by_suit.evaluate(bg) == "rgb(255, 255, 255)", by_suit.evaluate(bg)  # bright: the one in use
    assert by_rank.evaluate(bg) == "rgba(0, 0, 0, 0)", by_rank.evaluate(bg)  # an outline on the felt
    _shot(page, artifacts, f"audit-sort-{size}.png")
    # Bob goes away on his turn: said once when his countdown starts, not every second it shows.
    page.evaluate(RECORD_LIVE)
    clock = {"seat": 1, "left": 60.0, "seconds": 60, "kind": "away"}
    _send(script, _view(to_move=1, phase="draw", legal=[]), 11, pace={**PACE, "clock": clock})
    shown = page.get_by_test_id("turn-clock")
    expect(shown).to_contain_text(re.compile(r"Bob is away: the computer plays for them in \d+ s"))
    said = page.get_by_test_id("timer-live")
    expect(said).to_have_text(re.compile(r"^Bob is away: the computer plays for them in \d+ seconds\.$"))
    first = int(re.search(r"in (\d+) s", shown.inner_text()).group(1))
    page.wait_for_function(
        "(n) => +document.querySelector('[data-testid=turn-clock]').textContent.match(/in (\\d+) s/)[1] < n", arg=first
    )
    _send(script, _view(to_move=1, phase="draw", legal=[]), 12, pace={**PACE, "clock": {**clock, "left": 55.0}})
    _at(page, 12)
    assert len(_live_writes(page, "timer-live")) == 1, page.evaluate("window.liveWrites")
    # Escape closes the pile's preview as Cancel does, back to the card chosen.
    _send(script, _view(phase="draw", legal=[{"draw": "stock"}, {"take": 1}, {"take": 3}]), 13, pace=PACE)
    _at(page, 13)
    expect(said).to_have_text("")
    card = page.get_by_test_id("pile-card-3")
    card.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("btn-take")).to_be_visible()
    page.get_by_test_id("btn-take").focus()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("btn-take")).to_have_count(0)
    expect(card).to_be_focused()
    expect(card).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("btn-take")).to_be_visible()
    page.keyboard.press("Escape")  # from the card itself too
    expect(page.get_by_test_id("btn-take")).to_have_count(0)

