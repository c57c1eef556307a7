"""What a first-time player's evening of full matches found on the web table, fixed.

1. A round's summary marks a card claimed by calling Rummy! that scored 15 (``rummy_card_value:
   15``), "6♦ (Rummy! 15)", and a note under the table says why its Melded is more than its cards.
2. The final bonus is a row of its own in the last round's summary (every row adds up: the total
   before it + Round; the bonus row gives the total with it), and the seat box says its total
   includes it.
3. On a phone the summary shows a short name whole ("(you) ★ out" wraps under it); a long one is
   still cut with "…".
4. The game log (and the replay's caption) lists a meld's cards in the meld's order: a run by rank
   with the ace where it lies, jokers in their place.
5. The replay's "Jump to a round" list follows the position shown.
6. A hint's search finding is in plain words: "you" and "the leader" alone, "your side" in partnerships.
7. "Play against the computer" plays the form's preset and house rules.
8. The Ready line never names you among those waited for: "Waiting for you and Bob."
9. The phone's top bar reads "Rummy 500"; a bot's name and its Open seat button have a gap.
10. How to play says when a round also ends (the stock), what a tie at the target does, and that a
    meld needs two real cards.
11. At the game's end the seat boxes drop "known: …" (the summary shows the whole hands).

Positions come from the scripted socket of ``test_client`` where the page's own logic is the subject,
the real server where the server's answers are (the lobby's quick game, a finished game's replay).
Screenshots at 1366×768 and 390×844 go to ``artifacts`` (and ``$RUMMY500_SHOTS``).
"""

from __future__ import annotations

import itertools
import json
import re
import urllib.request
from typing import Any

import pytest
from browser_ui import post_json, shot
from playwright.sync_api import expect
from test_client import _view, scripted  # noqa: F401 - the fixture is used by name
from test_table_feel import _at, _finish, _send

from rummy500.actions import Draw, parse_action
from rummy500.bots.hard import Searched
from rummy500.server import hints

PACE = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": None}
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}


def _shots(page, artifacts, name: str) -> None:
    """The page at both sizes: ``first-evening-NAME-laptop.png`` and ``...-phone.png``."""
    before = page.viewport_size
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)  # (a frame or two: the layout follows the width)
        shot(page, artifacts, f"first-evening-{name}-{size}.png")
    page.set_viewport_size(before)


def _seats(names: list[str]) -> list[dict[str, Any]]:
    return [
        {"seat": s, "name": n, "kind": "human", "bot_level": None, "connected": True, "autoplay": False}
        for s, n in enumerate(names)
    ]


def _table(script, names: list[str], rules: dict[str, Any], status: str = "running") -> None:
    script.table = {
        **script.table,
        "status": status,
        "rules": {**rules, "players": len(names)},
        "seats": _seats(names),
    }


def _row(seat: int, melded: int, in_hand: int, round_score: int, total: int, hand: list[str], bonus: int = 0) -> dict:
    return {
        "seat": seat,
        "melded": melded,
        "in_hand": in_hand,
        "bonus": bonus,
        "round_score": round_score,
        "total": total,
        "hand": hand,
    }


# ------------------------------------------------------------ 1: a claimed card worth 15
def test_a_card_claimed_by_rummy_is_marked_where_it_scores_15(scripted, artifacts):  # noqa: F811
    page, script = scripted
    _table(script, ["Ann", "Bob"], {"calling_rummy": "pile", "rummy_card_value": 15})
    # Bob called Rummy! on the 6♦ (the second card from the top, with the 9♣ above it), melded it
    # in 4♦ 5♦ 6♦ and went out: his Melded is 4 + 5 + 15 = 24, not the 15 his cards show.
    log = [
        {
            "kind": "action",
            "version": 5,
            "round": 0,
            "seat": 1,
            "name": "Bob",
            "auto": False,
            "action": {"rummy": 2},
            "events": [
                {"event": "called_rummy", "seat": 1, "depth": 2, "cards": ["6D", "9C"], "on": None, "meld": None}
            ],
        },
        {
            "kind": "action",
            "version": 6,
            "round": 0,
            "seat": 1,
            "name": "Bob",
            "auto": False,
            "action": {"meld": ["4D", "5D", "6D"]},
            "events": [{"event": "melded", "seat": 1, "cards": ["4D", "5D", "6D"], "meld": 1}],
        },
        {
            "kind": "action",
            "version": 7,
            "round": 0,
            "seat": 1,
            "name": "Bob",
            "auto": False,
            "action": {"discard": "9C"},
            "events": [{"event": "discarded", "seat": 1, "cards": ["9C"]}],
        },
        {"kind": "round_over", "version": 7, "round": 0, "went_out": 1, "round_scores": [17, 24], "totals": [17, 24]},
    ]
    summary = {
        "round": 0,
        "went_out": 1,
        "masters": None,
        "left": 30.0,
        "ready": [],
        "waiting": [0, 1],
        "seats": [_row(0, 29, 12, 17, 17, ["5C", "7H"]), _row(1, 24, 0, 24, 24, [])],
        "melds": [
            {"id": 0, "kind": "run", "cards": ["9C", "TC", "JC"], "laid_by": [0, 0, 0], "owner": 0},
            {"id": 1, "kind": "run", "cards": ["4D", "5D", "6D"], "laid_by": [1, 1, 1], "owner": 1},
        ],
    }
    view = _view(scores=[17, 24], legal=[], melds=[], known=[[], []])
    _send(script, view, 11, pace={**PACE, "summary": summary}, log=log)
    _at(page, 11)
    bob = page.get_by_test_id("summary-1")
    expect(bob.get_by_test_id("melded")).to_have_text("+24")
    claimed = bob.get_by_test_id("summary-claimed")
    expect(claimed).to_have_count(1)
    expect(claimed).to_have_attribute("data-card", "6D")
    expect(claimed).to_have_attribute("aria-label", re.compile(r"6 of diamonds, claimed by calling Rummy!, scores 15"))
    expect(bob.get_by_test_id("summary-claim-tag")).to_have_text("6\u2666 (Rummy! 15)")
    # Ann's cards are hers: nothing marked.
    expect(page.get_by_test_id("summary-0").get_by_test_id("summary-claimed")).to_have_count(0)
    expect(page.get_by_test_id("summary-rummy")).to_have_text(
        "Rummy!: at this table a card claimed by calling Rummy! scores 15 in its claimer's Melded,"
        " whatever its face value (here Bob's 6\u2666)."
    )
    _shots(page, artifacts, "rummy-15")

    # A summary whose melds carry the server's `claimed` flags (one a card) is marked from them,
    # without any call in the log (round 2: the log above is round 1's).
    summary2 = {
        **summary,
        "round": 1,
        "went_out": 0,
        "seats": [_row(0, 30, 0, 30, 47, []), _row(1, 0, 20, -20, 4, ["KS", "QS"])],
        "melds": [
            {
                "id": 0,
                "kind": "set",
                "cards": ["8C", "8D", "8S"],
                "laid_by": [0, 0, 0],
                "owner": 0,
                "claimed": [False, True, False],
            }
        ],
    }
    _send(script, view, 12, pace={**PACE, "summary": summary2}, log=[])
    _at(page, 12)
    ann = page.get_by_test_id("summary-0")
    expect(ann.get_by_test_id("summary-claimed")).to_have_attribute("data-card", "8D")
    expect(ann.get_by_test_id("summary-claim-tag")).to_have_text("8\u2666 (Rummy! 15)")
    expect(page.get_by_test_id("summary-rummy")).to_contain_text("(here Ann's 8\u2666)")
    # Where the card scores as usual (no rummy_card_value), nothing is marked.
    _table(script, ["Ann", "Bob"], {"calling_rummy": "pile"})
    _send(script, view, 13, pace={**PACE, "summary": summary2}, log=[])
    _at(page, 13)
    expect(page.get_by_test_id("summary-claimed")).to_have_count(0)
    expect(page.get_by_test_id("summary-rummy")).to_have_count(0)


# ------------------------------------------------------------ 2, 11: the final bonus; no stale "known"
PERSIAN = {
    "preset": "persian",
    "jokers": 4,
    "joker_use": "joker_sets_only",
    "joker_value": 20,
    "four_of_a_kind_double": True,
    "going_out_bonus": 25,
    "rounds": 2,
    "final_bonus": 50,
    "partnership": True,
}


def test_the_final_bonus_is_a_row_of_its_own_and_the_seat_boxes_drop_known_cards(scripted, artifacts):  # noqa: F811
    """The audit's Persian game: Bot 2 showed Round +92 and Total 232 after 90 (the bonus inside)."""
    page, script = scripted
    names = ["Pia", "Bot 2", "Bot 3", "Bot 4"]
    _table(script, names, PERSIAN, status="finished")
    first = [161, 90, 81, 57]
    scores = [19, 92, -33, 12]
    totals = [180, 232, 48, 69]  # Bot 2's with the final bonus (182 + 50)
    bonus = {"seat": 1, "points": 50}
    rounds = [
        {"round": 0, "dealer": 3, "went_out": 0, "round_scores": first, "totals": first},
        {"round": 1, "dealer": 0, "went_out": 1, "round_scores": scores, "totals": totals, "bonus": bonus},
    ]
    summary = {
        "round": 1,
        "went_out": 1,
        "masters": None,
        "final_bonus": bonus,
        "seats": [
            _row(0, 39, 20, 19, 180, ["6C", "8C", "2D", "4H"]),
            _row(1, 67, 0, 92, 232, [], bonus=25),
            _row(2, 4, 37, -33, 48, ["JK", "3H", "5H", "3S", "6S", "QH"]),
            _row(3, 52, 40, 12, 69, ["QC", "KC", "JK"]),
        ],
        "melds": [
            {"id": 0, "kind": "run", "cards": ["QH", "KH", "AH"], "laid_by": [1, 1, 1], "owner": 1},
            {"id": 1, "kind": "run", "cards": ["4D", "5D", "6D", "7D"], "laid_by": [2, 3, 3, 3], "owner": 3},
            {"id": 2, "kind": "set", "cards": ["8H", "8D", "8C"], "laid_by": [1, 1, 1], "owner": 1},
            {"id": 3, "kind": "run", "cards": ["TD", "JD", "QD"], "laid_by": [0, 0, 0], "owner": 0},
        ],
    }
    log = [
        {"kind": "round_over", "version": 30, "round": 1, "went_out": 1, "round_scores": scores, "totals": totals},
        {"kind": "game_over", "version": 30, "winner": [1, 3], "totals": totals},
    ]
    view = _view(
        players=4,
        phase="round_over",
        to_move=1,
        dealer=0,
        hand=["6C", "8C", "2D", "4H"],
        hand_sizes=[4, 0, 6, 3],
        known=[[], [], [], ["QC", "KC"]],
        scores=totals,
        legal=[],
        melds=summary["melds"],
        went_out=1,
        round_scores=scores,
    )
    _send(script, view, 11, pace=PACE, log=log, rounds=rounds, last_round=summary)
    _at(page, 11)
    expect(page.get_by_test_id("winner")).to_have_text("Side B (Bot 2 & Bot 4) won the game!")
    table = page.get_by_test_id("round-summary")
    # Every seat's row adds up: its total before this round + Round = its Total (Bot 2: 90 + 92 = 182).
    for s in range(4):
        row = page.get_by_test_id(f"summary-{s}")
        expect(row.get_by_test_id("total")).to_have_text(str(first[s] + scores[s]))
    side_b = page.get_by_test_id("summary-side-1")
    expect(side_b.get_by_test_id("side-round")).to_have_text("+104")
    expect(side_b.get_by_test_id("side-total")).to_have_text("251")  # 147 + 104
    # The bonus has its row, in Side B's group, as on the score sheet: +50 to 301.
    bonus_row = table.get_by_test_id("summary-final-bonus")
    expect(bonus_row).to_have_count(1)
    expect(bonus_row).to_contain_text("Final bonus (Side B: total incl. bonus)")
    expect(bonus_row.get_by_test_id("final-bonus-points")).to_have_text("+50")
    expect(bonus_row.get_by_test_id("final-bonus-total")).to_have_text("301")
    assert bonus_row.evaluate("r => r.closest('tbody').classList.contains('side-1')")
    expect(page.get_by_test_id("final-totals")).to_contain_text("301")
    expect(page.get_by_test_id("score-sheet")).to_contain_text("final bonus")
    # The seat box's total is the one with the bonus: it says so.
    expect(page.get_by_test_id("final-bonus-tag-1")).to_have_text("incl. +50 final bonus")
    expect(page.get_by_test_id("score-1")).to_have_text("232 pts")
    # 11: the hands are open in the summary: no seat box keeps "known: Q♣ K♣".
    expect(page.get_by_test_id("player-3")).to_be_visible()
    expect(page.locator("[data-testid=players] .known")).to_have_count(0)
    _shots(page, artifacts, "final-bonus-partners")


def test_the_final_bonus_of_a_player_alone_is_a_row_under_theirs(scripted, artifacts):  # noqa: F811
    page, script = scripted
    _table(script, ["Ann", "Bob"], {"final_bonus": 50}, status="finished")
    bonus = {"seat": 0, "points": 50}
    totals = [560, 430]
    summary = {
        "round": 4,
        "went_out": 0,
        "masters": None,
        "final_bonus": bonus,
        "seats": [_row(0, 60, 0, 60, 560, []), _row(1, 20, 35, -15, 430, ["KS", "QS", "JS", "5D"])],
        "melds": [{"id": 0, "kind": "set", "cards": ["TC", "TD", "TS"], "laid_by": [0, 0, 0], "owner": 0}],
    }
    log = [
        {"kind": "round_over", "version": 40, "round": 4, "went_out": 0, "round_scores": [60, -15], "totals": totals},
        {"kind": "game_over", "version": 40, "winner": 0, "totals": totals},
    ]
    view = _view(
        phase="round_over", hand=[], hand_sizes=[0, 4], known=[[], ["KS"]], scores=totals, legal=[], went_out=0
    )
    _send(script, view, 11, pace=PACE, log=log, last_round=summary)
    _at(page, 11)
    rows = page.get_by_test_id("round-summary").locator("tbody tr")
    expect(rows).to_have_count(3)  # Ann, her bonus, Bob
    expect(rows.nth(0).get_by_test_id("total")).to_have_text("510")
    expect(rows.nth(1)).to_contain_text("Final bonus (Ann: total incl. bonus)")
    expect(rows.nth(1).get_by_test_id("final-bonus-total")).to_have_text("560")
    expect(rows.nth(2).get_by_test_id("total")).to_have_text("430")
    expect(page.get_by_test_id("player-1").locator(".known")).to_have_count(0)
    _shots(page, artifacts, "final-bonus-alone")


# ------------------------------------------------------------ 3, 8: a short name whole; "Waiting for you and …"
LONG = "Maximiliana Featherstonehaugh-Wolfeschle"


def test_the_phone_summary_shows_a_short_name_whole_and_the_ready_line_says_you(scripted, artifacts):  # noqa: F811
    page, script = scripted
    page.set_viewport_size({"width": 390, "height": 844})
    _table(script, ["Newbie", LONG, "Bob"], {})
    summary = {
        "round": 0,
        "went_out": 0,
        "masters": None,
        "left": 30.0,
        "ready": [],
        "waiting": [0, 1, 2],
        "seats": [
            _row(0, 72, 0, 72, 72, []),
            _row(1, 0, 44, -44, -44, ["6C", "9C", "AS"]),
            _row(2, 30, 10, 20, 20, ["TS"]),
        ],
        "melds": [{"id": 0, "kind": "run", "cards": ["7C", "8C", "9C", "TC"], "laid_by": [0, 0, 0, 0], "owner": 0}],
    }
    view = _view(players=3, hand_sizes=[7, 7, 7], known=[[], [], []], scores=[72, -44, 20], legal=[], melds=[])
    _send(script, view, 11, pace={**PACE, "summary": summary})
    _at(page, 11)
    mine = page.get_by_test_id("summary-0")
    name = mine.locator(".sum-name")
    expect(name).to_have_text("Newbie")
    # Whole: not cut to "N…" to make room for "(you) ★ out" (the audit's phone), which wraps under it.
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), name.evaluate("e => [e.scrollWidth, e.clientWidth]")
    expect(mine.locator(".sum-who .you")).to_be_visible()
    expect(mine.locator(".sum-who .out")).to_have_text(re.compile(r"\u2605 out"))
    # Each mark in one piece, inside the cell (on a line of its own when it does not fit beside the name).
    for mark in (".you", ".out"):
        box = mine.locator(f".sum-who {mark}").evaluate("e => { const r = e.getClientRects(); return r.length; }")
        assert box == 1, mark
    assert mine.locator("th").evaluate("th => th.scrollWidth <= th.clientWidth + 1")
    # A long name is still cut short with "…" (all of it in its title), and the table fits the banner.
    long = page.get_by_test_id("summary-1").locator(".sum-name")
    expect(long).to_have_attribute("title", LONG)
    assert long.evaluate("e => e.scrollWidth > e.clientWidth && getComputedStyle(e).textOverflow === 'ellipsis'")
    banner = page.get_by_test_id("round-over")
    assert banner.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    # 8: the Ready line names you as "you", first, never by your own name.
    waiting = page.get_by_test_id("summary-waiting")
    expect(waiting).to_have_text(f"Waiting for you, {LONG} and Bob.")
    _shots(page, artifacts, "summary-short-name")
    page.get_by_test_id("round-over-ok").click()
    expect(waiting).to_have_text(f"Waiting for {LONG} and Bob.")
    _send(script, view, 12, pace={**PACE, "summary": {**summary, "ready": [0, 2], "waiting": [1]}})
    _at(page, 12)
    expect(waiting).to_have_text(f"Waiting for {LONG}.")


# ------------------------------------------------------------ 4: a meld's cards in the meld's order
def test_the_log_lists_a_meld_in_the_meld_s_order(scripted, artifacts):  # noqa: F811
    page, script = scripted
    run = ["AS", "TS", "JS", "KS", "JK=QS"]  # as the server sends it (the audit's log line)
    log = [
        {
            "kind": "action",
            "version": 11,
            "round": 0,
            "seat": 1,
            "name": "Bob",
            "auto": False,
            "action": {"meld": run},
            "events": [{"event": "melded", "seat": 1, "cards": run, "meld": 2}],
        },
        {
            "kind": "action",
            "version": 12,
            "round": 0,
            "seat": 1,
            "name": "Bob",
            "auto": False,
            "action": {"meld": ["3D", "AD", "2D"]},
            "events": [{"event": "melded", "seat": 1, "cards": ["3D", "AD", "2D"], "meld": 3}],
        },
        {
            "kind": "action",
            "version": 13,
            "round": 0,
            "seat": 1,
            "name": "Bob",
            "auto": False,
            "action": {"layoff": ["AH", "KH"], "on": 4},
            "events": [{"event": "laid_off", "seat": 1, "cards": ["AH", "KH"], "on": 4}],
        },
        {
            "kind": "action",
            "version": 14,
            "round": 0,
            "seat": 1,
            "name": "Bob",
            "auto": False,
            "action": {"meld": ["7S", "7H", "7D"]},
            "events": [{"event": "melded", "seat": 1, "cards": ["7S", "7H", "7D"], "meld": 5}],
        },
    ]
    melds = [
        {"id": 2, "kind": "run", "cards": ["TS", "JS", "JK=QS", "KS", "AS"], "laid_by": [1] * 5, "owner": 1},
        {"id": 3, "kind": "run", "cards": ["AD", "2D", "3D"], "laid_by": [1] * 3, "owner": 1},
        {"id": 4, "kind": "run", "cards": ["JH", "QH", "KH", "AH"], "laid_by": [0, 0, 1, 1], "owner": 0},
        {"id": 5, "kind": "set", "cards": ["7S", "7H", "7D"], "laid_by": [1] * 3, "owner": 1},
    ]
    _send(script, _view(melds=melds, to_move=1, legal=[]), 11, pace=PACE, log=log)
    _at(page, 11)
    game_log = page.get_by_test_id("game-log")
    expect(game_log).to_contain_text(
        "Bob: melded 10\u2660 J\u2660 joker (as Q\u2660) K\u2660 A\u2660"
    )  # as the table lays it
    expect(game_log).to_contain_text("Bob: melded A\u2666 2\u2666 3\u2666")
    expect(game_log).to_contain_text("Bob: laid off K\u2665 A\u2665 on meld 5")
    expect(game_log).to_contain_text("Bob: melded 7\u2660 7\u2665 7\u2666")  # a set as laid
    _shots(page, artifacts, "log-meld-order")


# ------------------------------------------------------------ 5: the replay's jump list follows the position
@pytest.fixture(scope="module")
def two_rounds(seeded_server) -> str:
    """A finished public game of two short rounds (the 32-card pack), Ann against a bot."""
    made = post_json(
        seeded_server.url,
        "/api/tables",
        {
            "name": "Ann",
            "seats": 2,
            "bots": {"1": "medium"},
            "rules": {"rounds": 2, "short_pack": True},
            "public": True,
        },
    )
    post_json(seeded_server.url, f"/api/tables/{made['table_id']}/start", {}, made["token"])
    seeded_server.call(lambda app, t=made["table_id"]: _finish(app, t), timeout=120)
    return made["table_id"]


def test_the_replay_s_jump_list_follows_the_position(seeded_server, two_rounds, new_page, artifacts):
    base = seeded_server.url
    record = json.loads(urllib.request.urlopen(f"{base}/api/games/{two_rounds}/record", timeout=5).read())  # noqa: S310
    ends = list(itertools.accumulate(len(r["actions"]) for r in record["rounds"]))
    page = new_page(*SIZES["laptop"])
    page.goto(f"{base}/#replay/{two_rounds}")
    step, jump = page.get_by_test_id("replay-step"), page.get_by_test_id("replay-jump")
    expect(step).to_contain_text("move 0 of")
    selected = "(el) => el.selectedOptions[0].textContent"
    page.wait_for_function("() => document.querySelector('[data-testid=replay-jump]').options.length > 1")
    assert jump.evaluate(selected) == "Round 1"  # the deal of round 1 is move 0
    jump.select_option(label="Round 1: its end")
    expect(step).to_contain_text(f"move {ends[0]} of")
    page.get_by_test_id("replay-next").click()
    expect(step).to_contain_text(f"move {ends[0] + 1} of")
    # Not a place of the list: it goes back to its prompt, not "Round 1: its end" any more.
    expect(jump).to_have_value("")
    assert jump.evaluate(selected) == "Jump to a round\u2026"
    page.get_by_test_id("replay-first").click()
    expect(step).to_contain_text("move 0 of")
    page.wait_for_function(
        "(s) => document.querySelector('[data-testid=replay-jump]').selectedOptions[0].textContent === s", arg="Round 1"
    )
    page.get_by_test_id("replay-last").click()
    expect(step).to_contain_text(f"move {ends[-1]} of {ends[-1]}")
    page.wait_for_function(
        "(s) => document.querySelector('[data-testid=replay-jump]').selectedOptions[0].textContent === s",
        arg=f"Round {len(ends)}: its end",
    )
    # Round 2's deal from the list stays chosen; Back to the step before leaves it.
    jump.select_option(label="Round 2")
    expect(page.get_by_test_id("replay-action")).to_contain_text("the deal of round 2")
    assert jump.evaluate(selected) == "Round 2"
    page.get_by_test_id("replay-prev").click()
    expect(step).to_contain_text(f"move {ends[0] - 1} of")
    expect(jump).to_have_value("")
    # 4: each step that laid a meld says its cards in the order the board shows them.
    for n, action in enumerate((a for r in record["rounds"] for a in r["actions"]), start=1):
        if "meld" not in action or n in ends:
            continue
        page.get_by_test_id("replay-slider").evaluate(
            "(el, n) => { el.value = String(n); el.dispatchEvent(new Event('input')); }", n
        )
        expect(step).to_contain_text(f"move {n} of")
        caption = page.get_by_test_id("replay-action").inner_text()
        shown = page.locator(".replay-board .meld").evaluate_all(
            "els => els.map((m) => [...m.querySelectorAll('.card')].map((c) => c.dataset.card))"
        )
        assert any(" ".join(_text(c) for c in m) in caption for m in shown), (caption, shown)
        break
    _shots(page, artifacts, "replay-jump")


def _text(card: str) -> str:
    """A card as the log writes it: "10♠", "joker (as Q♠)"."""
    suits = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
    if card.startswith("JK="):
        return f"joker (as {_text(card[3:])})"
    if card == "JK":
        return "joker"
    rank = "10" if card[0] == "T" else card[:-1]
    return rank + suits[card[-1]]


# ------------------------------------------------------------ 6: the hint's finding in plain words
def test_the_hint_s_finding_says_you_and_the_leader_alone_and_your_side_with_partners(scripted, artifacts):  # noqa: F811
    alone = Searched(Draw(), Draw(), 0.0, 48, -14.2)
    partners = Searched(Draw(), Draw(), 0.0, 48, 0.2, partners=True)
    overruled = Searched(parse_action("discard 7H"), parse_action("meld TC QC JK=JC"), 8.2, 48, 3.0)
    assert hints.searched_words(alone, Draw()) == (
        "The obvious move, and in 48 trial games a few turns ahead, with the hidden cards guessed, no other move did"
        " clearly better (you ended on average 14 points behind the leader)."
    )
    assert "your side ended on average level with the other side" in hints.searched_words(partners, Draw())
    said = hints.searched_words(overruled, parse_action("discard 7H"))
    assert (
        said.startswith("In 48 trial games")
        and "better on average than melding 10\u2663 Q\u2663 joker (as J\u2663), the obvious move." in said
    )
    for words in (hints.searched_words(alone, Draw()), said):
        assert "side" not in words and "rule of thumb" not in words and "leading other" not in words
    # On the table: the reason as the server sends it, after the move.
    page, script = scripted
    view = _view(phase="draw", legal=[{"draw": "stock"}, {"take": 1}])
    _send(script, view, 11, pace=PACE)
    _at(page, 11)
    page.get_by_test_id("btn-hint").click()
    reason = hints.searched_words(alone, Draw())
    script.ws.send(
        json.dumps(
            {
                "type": "hint",
                "version": 11,
                "action": {"draw": "stock"},
                "text": "draw",
                "reason": reason,
                "level": "expert",
            }
        )
    )
    expect(page.get_by_test_id("hint-reason")).to_have_text(reason)
    expect(page.get_by_test_id("action-hint")).not_to_contain_text("side")
    _shots(page, artifacts, "hint-words")


# ------------------------------------------------------------ 7: the quick game plays the form's rules
def test_play_against_the_computer_plays_the_form_s_preset(server, new_page, artifacts):
    page = new_page(*SIZES["laptop"])
    page.goto(server + "/")
    page.get_by_test_id("name-input").fill("Ann")
    expect(page.get_by_test_id("preset").locator("option")).not_to_have_count(0)
    what = page.get_by_test_id("play-computer-what")
    expect(what).to_have_text(
        "Rules: Standard \u00b7 you against one medium computer player (as set in the form below)."
    )
    page.get_by_test_id("preset").select_option("quick")
    expect(what).to_have_text(
        "Rules: Quick game to 100 \u00b7 you against one medium computer player (as set in the form below)."
    )
    _shots(page, artifacts, "quick-play-lobby")
    page.get_by_test_id("play-computer").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    expect(page.get_by_test_id("player-1")).to_contain_text("bot")
    page.wait_for_function("() => window.rummy && window.rummy.table && window.rummy.table.rules")
    rules = page.evaluate("() => window.rummy.table.rules")
    assert rules.get("target") == 100 and rules.get("score_divisor") == 5, rules
    expect(page.get_by_test_id("table-rules")).to_contain_text("First to 100 points wins.")


# ------------------------------------------------------------ 9: spaces the phone lost
#: The gap in px between the end of an element's first text node and the start of the element ``next``.
GAP = """([sel, next]) => {
  const el = document.querySelector(sel);
  const text = [...el.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
  const r = document.createRange();
  r.selectNodeContents(text);
  const rects = [...r.getClientRects()];
  const end = rects[rects.length - 1].right;
  return el.querySelector(next).getBoundingClientRect().left - end;
}"""


def test_the_phone_top_bar_and_the_waiting_room_keep_their_spaces(server, new_page, artifacts):
    page = new_page(*SIZES["phone"])
    made = post_json(
        server, "/api/tables", {"name": "Ann", "seats": 3, "rules": {}, "bots": {"1": "medium", "2": "easy"}}
    )
    page.goto(server + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [
            f"rummy500.seat.{made['table_id']}",
            json.dumps({"seat": 0, "token": made["token"], "name": "Ann", "creator": True}),
        ],
    )
    page.goto(f"{server}/t/{made['table_id']}")
    expect(page.get_by_test_id("open-seat-1")).to_be_visible()
    # "Bot 2 (bot — medium)" and its Open seat button do not touch.
    li = page.get_by_test_id("seat-list").locator("li").nth(1)
    expect(li).to_contain_text("Bot 2 (bot \u2014 medium)")
    # (Measured once the room is drawn: every table message draws it again.)
    gap = page.wait_for_function(
        """() => { const li = document.querySelectorAll('[data-testid=seat-list] li')[1];
          const text = li && li.firstChild; const btn = li && li.querySelector('button');
          if (!text || text.nodeType !== 3 || !btn) return null;
          const r = document.createRange(); r.selectNodeContents(text);
          const rects = [...r.getClientRects()]; const b = btn.getBoundingClientRect();
          if (!rects.length || !b.width) return null;
          const last = rects[rects.length - 1];
          return {gap: b.top >= last.bottom - 1 ? 99 : b.left - last.right}; }"""
    ).json_value()["gap"]
    assert gap >= 6, gap
    brand = page.locator(".topbar .brand")
    expect(brand).to_have_text("Rummy 500")
    assert page.evaluate(GAP, [".topbar .brand", ".accent"]) >= 3  # "Rummy 500", not "Rummy500"
    _shots(page, artifacts, "waiting-room")


# ------------------------------------------------------------ 10: How to play
def test_how_to_play_says_how_a_round_ends_ties_and_the_natural_cards(server, new_page, artifacts):
    page = new_page(*SIZES["laptop"])
    page.goto(server + "/#rules")
    rules = page.get_by_test_id("rules-page")
    expect(rules).to_contain_text("The round also ends when the stock runs out")
    expect(rules).to_contain_text("as soon as one does not, the round is over")
    expect(rules).to_contain_text("If the highest totals are tied, another round is played")
    expect(rules).to_contain_text("A meld needs at least two real cards besides its jokers")
    _shots(page, artifacts, "how-to-play")
