"""The review of a finished game in the replay viewer, on a laptop and on a phone."""

from __future__ import annotations

import json
import os
import re

from browser_ui import create_table, play_until_round_over
from playwright.sync_api import expect

# The session's server starts after collection and inherits these: the smallest
# budget that can judge a move keeps the review of the test's game short.
os.environ.setdefault("RUMMY500_REVIEW_SAMPLES", "2")
os.environ.setdefault("RUMMY500_REVIEW_EXTEND", "0")


def _fits(page) -> bool:
    """The review panel lies within the window's width and nothing in it overflows sideways."""
    return page.get_by_test_id("review-panel").evaluate(
        "el => el.getBoundingClientRect().right <= window.innerWidth + 1 && el.scrollWidth <= el.clientWidth + 1"
    )


def test_review_marks_the_moves_and_charts_the_standing(server, new_page, artifacts):
    page = new_page(1366, 768)
    # One round on the 32-card pack (five cards in the stock): a short game with moves to judge.
    table_id = create_table(page, server, name="Ann", seats=2, bots={1: "medium"}, house_rules={"rounds": 1, "short_pack": True})
    play_until_round_over(page)
    expect(page.get_by_test_id("round-over")).to_contain_text("Game over", timeout=60_000)
    page.goto(f"{server}/#replay/{table_id}")
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of", timeout=60_000)
    # Another browser (no seat token of this game) may watch the replay but not ask for the review.
    stranger = new_page(1366, 768)
    stranger.goto(f"{server}/#replay/{table_id}")
    expect(stranger.get_by_test_id("review-button")).to_be_disabled(timeout=60_000)
    expect(stranger.get_by_test_id("review-status")).to_contain_text("Only the players")

    # While the review runs, a bar shows how many decisions are done: the first poll is answered
    # by the test as a review one quarter through, the later ones by the server.
    faked: list[str] = []

    def running(route):
        if route.request.method == "GET" and not faked:
            faked.append(route.request.url)
            body = {"status": "running", "ahead": 0, "done": 3, "total": 12, "review": None, "error": None}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        else:
            route.fallback()

    page.route("**/api/games/*/review", running)
    page.get_by_test_id("review-button").click()
    expect(page.get_by_test_id("review-status")).to_contain_text(re.compile("Queued|Reviewing"))
    progress = page.get_by_test_id("review-progress")
    expect(progress).to_contain_text("3 of 12 decisions")
    assert progress.locator("progress").evaluate("el => [el.value, el.max]") == [3, 12]
    page.unroute("**/api/games/*/review", running)
    summary = page.get_by_test_id("review-summary")
    expect(summary).to_be_visible(timeout=600_000)  # a bound for a loaded machine, not a speed test
    expect(progress).to_be_hidden()
    expect(summary.locator("tbody tr")).to_have_count(2)
    expect(summary.locator("tbody tr").first).to_contain_text("Ann")
    for seat in (0, 1):
        expect(page.get_by_test_id(f"review-accuracy-{seat}")).to_have_text(re.compile(r"^\d+\.\d%$"))
    chart = page.get_by_test_id("review-chart")
    expect(chart).to_be_visible()
    assert chart.locator("polyline").count() >= 1
    # The legend says how many guesses a decision got (this server's budget: 2 a batch, no more batches).
    expect(page.get_by_test_id("review-legend")).to_contain_text("(2 guesses of the hidden cards per decision).")

    # Every reviewed decision, with its verdict; the best move beside a move that lost points.
    page.get_by_test_id("review-show-all").check()
    items = page.locator(".review-moves li[data-step]")
    assert items.count() >= 2
    first = items.first
    step = int(first.get_attribute("data-step"))
    expect(first.locator(".verdict")).to_have_text(re.compile(r"^(good|inaccuracy|mistake|blunder)\??$"))
    # A verdict the guesses left unsettled (the JSON's "sure": false) reads with a "?" and says why.
    review = page.evaluate(
        """async (id) => {
            const { seatFor } = await import("/static/api.js");
            const res = await fetch(`/api/games/${encodeURIComponent(id)}/review`,
                { headers: { Authorization: `Bearer ${seatFor(id).token}` } });
            return res.json();
        }""",
        table_id,
    )
    assert review["status"] == "done"
    unsure = {d["step"] for d in review["review"]["decisions"] if d["sure"] is False}
    marked = page.get_by_test_id("review-moves").get_by_test_id("review-unsure")
    assert marked.count() == len(unsure)
    for i in range(marked.count()):
        expect(marked.nth(i)).to_have_text(re.compile(r"\?$"))
        expect(marked.nth(i)).to_have_attribute("title", re.compile("^Not settled"))
    shown = {int(s) for s in page.locator(".review-moves li[data-step]:has([data-testid=review-unsure])").evaluate_all("els => els.map(e => e.dataset.step)")}
    assert shown == unsure
    lost = page.locator(".review-moves li[data-step]:not(.verdict-good)")
    if lost.count():
        expect(lost.first.locator(".best")).to_contain_text("best:")
    # A move of the list takes the replay to the position before it and says what was played there.
    first.get_by_role("button").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(rf"^move {step - 1} of"))
    expect(page.get_by_test_id("review-current")).to_contain_text(f"Next move (move {step})")
    expect(page.locator(".review-moves li.here")).to_have_attribute("data-step", str(step))
    assert _fits(page)
    page.get_by_test_id("review-panel").screenshot(path=str(artifacts / "review.png"))

    # On a phone the same review fits the screen's width; asking again answers at once.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    page.get_by_test_id("review-button").click()
    expect(page.get_by_test_id("review-summary")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("review-chart")).to_be_visible()
    assert _fits(page)
    # Every column of the summary shows without scrolling it sideways (short headings, the long one on hover).
    assert page.locator(".review-scroll").evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    expect(page.get_by_test_id("review-summary").locator("thead abbr[title=Mistakes]")).to_have_text("Mist.")
    page.get_by_test_id("review-panel").screenshot(path=str(artifacts / "review-phone.png"))


def _decision(step: int, seat: int, played: dict, best: dict, loss: float, verdict: str, sure: bool = True) -> dict:
    """A decision of the review JSON (``rummy500 review --json``), with the record actions the panel reads."""
    lay = played.get("meld") or played.get("layoff")
    return {
        "kept": lay if lay and "discard" in best else None,  # a lay held back: the best move keeps its cards for now
        "round": 0, "index": step - 1, "step": step, "seat": seat, "phase": "play",
        "played": json.dumps(played), "best": json.dumps(best), "played_action": played, "best_action": best,
        "loss": loss, "verdict": verdict, "values": {}, "value_samples": {}, "stderr": 0.4, "standing": -2.0 * step,
        "legal": 5, "samples": 2, "sure": sure, "hindsight": None,
    }


def _quick_review() -> dict:
    """A review of a game that divides its scores by 5: Ann's unsure mistake, Bob's close call and inaccuracy."""
    decisions = [
        _decision(2, 0, {"layoff": ["QH", "KH"], "on": 0}, {"discard": "5D"}, 2.5, "mistake", sure=False),
        _decision(3, 1, {"take": 1}, {"draw": "stock"}, 0.9, "good"),  # a close call: lost, but rated good
        _decision(4, 1, {"meld": ["8D", "JK=9D", "TD"]}, {"discard": "KS"}, 1.1, "inaccuracy"),
        _decision(5, 0, {"discard": "2C"}, {"discard": "2C"}, 0.0, "good"),
    ]

    def player(seat: int, name: str) -> dict:
        mine = [d for d in decisions if d["seat"] == seat]
        lost = round(sum(d["loss"] for d in mine), 1)
        verdicts = {v: sum(d["verdict"] == v for d in mine) for v in ("good", "inaccuracy", "mistake", "blunder")}
        return {"seat": seat, "name": name, "decisions": len(mine), "accuracy": 70.0, "loss": lost, "loss_per_round": lost, "verdicts": verdicts}

    return {
        "budget": {"samples": 2, "extend": 0, "settle_after": 8}, "seed": 0, "rounds": 1, "steps": 8,
        "thresholds": {"inaccuracy": 0.6, "mistake": 1.6, "blunder": 4.0}, "accuracy_scale": 2.0, "skipped": {},
        "players": [player(0, "Ann"), player(1, "Bob")], "decisions": decisions,
    }


def _in_view(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= page.viewport_size["height"] + 1


def test_the_review_list_reads_like_the_table_and_shows_the_position(server, new_page, artifacts):
    page = new_page(1366, 768)
    table_id = create_table(page, server, name="Ann", seats=2, bots={1: "medium"}, house_rules={"rounds": 1, "short_pack": True})
    play_until_round_over(page)
    expect(page.get_by_test_id("round-over")).to_contain_text("Game over", timeout=60_000)
    # The review is the test's own (a game scored in fifths); the record, which names the players
    # for the replay, never comes: the panel names them from the review.
    body = json.dumps({"status": "done", "ahead": 0, "done": 4, "total": 4, "review": _quick_review(), "error": None})
    page.route("**/api/games/*/review", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    page.route("**/api/games/*/record", lambda route: route.abort())
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{server}/#replay/{table_id}")
        expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of", timeout=60_000)
        page.get_by_test_id("review-button").click()
        summary = page.get_by_test_id("review-summary")
        expect(summary.locator("tbody tr").nth(0)).to_contain_text("Ann")
        expect(summary.locator("tbody tr").nth(1)).to_contain_text("Bob")
        moves = page.get_by_test_id("review-moves")
        expect(moves).not_to_contain_text("Seat")
        # The moves in the table's words and card symbols, melds numbered from 1 as on the board.
        expect(page.get_by_test_id("review-move-2")).to_contain_text("Lay off Q\u2665 K\u2665 on meld 1")
        # A lay the best move holds back names the cards it keeps in hand.
        expect(page.get_by_test_id("review-move-2").locator(".best")).to_have_text("best: Discard 5\u2666, keeping Q\u2665 K\u2665 in hand for now")
        expect(page.get_by_test_id("review-move-3")).to_contain_text("Take the top discard")
        expect(page.get_by_test_id("review-move-3").locator(".best")).to_have_text("best: Draw from the stock")
        expect(page.get_by_test_id("review-move-4")).to_contain_text("Meld 8\u2666 joker (as 9\u2666) 10\u2666")
        expect(moves).not_to_contain_text("layoff")
        # Every move that lost points is listed, the close call too (marked, and explained in words),
        # so each player's listed losses add up to the summary's points lost.
        expect(moves.locator("li[data-step]")).to_have_count(3)
        expect(page.get_by_test_id("review-move-3").get_by_test_id("review-close")).to_have_text("close call")
        expect(page.get_by_test_id("review-notes")).to_contain_text("Close call: the move lost points")
        expect(moves).not_to_contain_text("No move lost points")
        for seat, name in ((0, "Ann"), (1, "Bob")):
            listed = moves.locator(f"li[data-step]:has(.who:text-is('{name}')) .loss").all_inner_texts()
            total = sum(float(t.replace("\u2212", "").removesuffix(" points")) for t in listed)
            assert f"{total:.1f}" == page.get_by_test_id(f"review-lost-{seat}").inner_text()
        # An unsure verdict is explained with this game's mistake line (1.6 points), in the tooltip
        # and in words on the page (a touch screen has no tooltip).
        unsure = page.get_by_test_id("review-move-2").get_by_test_id("review-unsure")
        expect(unsure).to_have_text("mistake?")
        expect(unsure).to_have_attribute("title", re.compile(r"may or may not lose 1\.6 points or more\.$"))
        expect(page.get_by_test_id("review-notes")).to_contain_text("may or may not lose 1.6 points or more")
        expect(page.get_by_test_id("review-panel")).not_to_contain_text("8 points")
        # The chart's text is drawn at least 11 pixels high, on a phone too.
        sizes = page.locator(".review-chart").evaluate(
            """svg => { const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                        return [...svg.querySelectorAll('.tick')].map(t => parseFloat(getComputedStyle(t).fontSize) * k); }"""
        )
        assert sizes and min(sizes) >= 11, sizes
        assert _fits(page)
        assert page.locator(".review-scroll").evaluate("el => el.scrollWidth <= el.clientWidth + 1")
        tag = "phone" if width < 600 else "laptop"
        page.get_by_test_id("review-panel").screenshot(path=str(artifacts / f"review-words-{tag}.png"))
        # A move of the list brings its position into view, says which move it is, and leads back.
        item = page.get_by_test_id("review-move-4")
        item.scroll_into_view_if_needed()
        item.click()
        expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^move 3 of"))
        bar = page.get_by_test_id("review-back-bar")
        expect(bar).to_be_visible()
        expect(bar).to_contain_text("Move 4 \u2014 Bob: Meld 8\u2666 joker (as 9\u2666) 10\u2666; best: Discard K\u2660, keeping 8\u2666 joker (as 9\u2666) 10\u2666 in hand for now (\u22121.1) inaccuracy")
        assert _in_view(page, page.get_by_test_id("replay-board").locator("[data-testid=replay-round]"))
        assert page.get_by_test_id("replay-board").bounding_box()["y"] >= -1
        assert not _in_view(page, item)
        expect(page.get_by_test_id("review-back")).to_be_focused()
        page.screenshot(path=str(artifacts / f"review-position-{tag}.png"))
        page.get_by_test_id("review-back").click()
        expect(bar).to_be_hidden()
        assert _in_view(page, item)
        expect(item).to_be_focused()
