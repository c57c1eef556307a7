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
