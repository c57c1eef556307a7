"""The review and the replay after the review audit: found after a game, kept going, read aloud.

Most tests fake the server's answers for a game (the replay's positions, the record, the review):
what is checked is what the page makes of them. One plays a short game to its end.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from browser_ui import create_table, play_until_round_over, shot
from playwright.sync_api import Page, expect

os.environ.setdefault("RUMMY500_REVIEW_SAMPLES", "2")
os.environ.setdefault("RUMMY500_REVIEW_EXTEND", "0")

GID = "fakegame1"
SHOTS = os.environ.get("RUMMY500_REVIEW_SHOTS")
PILE = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "KD"]


def _decision(step: int, seat: int, played: dict, best: dict, loss: float, verdict: str, rnd: int = 0) -> dict:
    return {
        "kept": None, "round": rnd, "index": step - 1, "step": step, "seat": seat, "phase": "play",
        "played": json.dumps(played), "best": json.dumps(best), "played_action": played, "best_action": best,
        "loss": loss, "verdict": verdict, "values": {}, "value_samples": {}, "stderr": 0.4, "standing": -2.0 * step,
        "legal": 5, "samples": 2, "sure": True, "hindsight": None,
    }


def _review() -> dict:
    decisions = [
        _decision(2, 0, {"discard": "QH"}, {"discard": "5D"}, 12.1, "mistake"),
        # The best move took three cards: the deepest of them is the third from the top.
        _decision(3, 1, {"draw": "stock"}, {"take": 3}, 4.0, "inaccuracy"),
        _decision(6, 0, {"discard": "2C"}, {"discard": "2C"}, 0.0, "good", rnd=1),
        _decision(7, 1, {"discard": "9S"}, {"discard": "KS"}, 25.0, "blunder", rnd=1),
    ]

    def player(seat: int, name: str, acc: float) -> dict:
        mine = [d for d in decisions if d["seat"] == seat]
        lost = round(sum(d["loss"] for d in mine), 1)
        verdicts = {v: sum(d["verdict"] == v for d in mine) for v in ("good", "inaccuracy", "mistake", "blunder")}
        return {"seat": seat, "name": name, "decisions": len(mine), "accuracy": acc, "loss": lost, "loss_per_round": lost / 2, "verdicts": verdicts}

    return {
        "budget": {"samples": 2, "extend": 0, "settle_after": 8}, "seed": 0, "rounds": 2, "steps": 10,
        "thresholds": {"inaccuracy": 3, "mistake": 8, "blunder": 20}, "accuracy_scale": 10.0, "skipped": {},
        "players": [player(0, "Ann", 81.25), player(1, "Bob", 64.0)], "decisions": decisions,
    }


def _step(n: int, total: int, *, partnership: bool = False) -> dict:
    seats = 4 if partnership else 2
    view = {
        "to_move": n % seats, "phase": "draw", "stock_count": 12, "discard": PILE[: max(3, len(PILE) - (total - n))],
        "melds": [], "hand_sizes": [7] * seats, "scores": [0] * seats,
    }
    data: dict[str, Any] = {"step": n, "steps": total, "action": None, "view": view, "hands": [["AS", "2S"]] * seats, "round": 0, "round_ends": [total]}
    if n == total:
        data["round_over"] = {"round": 0, "went_out": 0, "melds": [], "seats": [
            {"seat": s, "melded": 10, "in_hand": 0, "round_score": 10, "total": 100 + s, "hand": []} for s in range(seats)]}
        data["game_over"] = {"totals": [300, 120, 210, 80][:seats], "winner": [0, 2] if partnership else 0}
    return data


def _fake_game(page: Page, *, total: int = 10, partnership: bool = False, review=None, playing: bool = False) -> dict:
    """Serve a game GID to the page: its positions, record, table, and (``review``: a handler) its review."""
    names = ["Ann", "Bob", "Cy", "Dee"][: 4 if partnership else 2]
    seen: dict[str, list] = {"post": [], "get": []}

    def replay(route):
        if playing:
            route.fulfill(status=409, content_type="application/json", body=json.dumps({"detail": {"code": "not_finished", "message": "the game is not finished"}}))
            return
        n = int(route.request.url.rsplit("/", 1)[1])
        route.fulfill(status=200, content_type="application/json", body=json.dumps(_step(n, total, partnership=partnership)))

    page.route(f"**/api/games/{GID}/replay/*", replay)
    page.route(f"**/api/games/{GID}/record", lambda route: route.fulfill(
        status=409 if playing else 200, content_type="application/json", body=json.dumps({"players": names, "rules": {"partnership": partnership}})))
    table = {"id": GID, "title": "Audit game", "status": "playing" if playing else "finished", "rules": {"partnership": partnership},
             "sides": [[0, 2], [1, 3]] if partnership else None}
    page.route(f"**/api/tables/{GID}", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(table)))

    def rev(route):
        seen["post" if route.request.method == "POST" else "get"].append(route.request.method)
        answer = review(route.request.method, seen) if review else {"status": "done", "review": _review()}
        if answer is None:
            route.abort()
            return
        body = {"ahead": 0, "done": 0, "total": 0, "review": None, "error": None} | answer
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(f"**/api/games/{GID}/review", rev)
    return seen


def _open(page: Page, server: str, width: int, height: int, suffix: str = "") -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{server}/")
    page.evaluate("(id) => localStorage.setItem(`rummy500.seat.${id}`, JSON.stringify({seat: 0, token: 't', name: 'Ann', at: 1}))", GID)
    page.goto(f"{server}/#replay/{GID}{suffix}")
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of", timeout=30_000)


def _focused(page: Page) -> str:
    return page.evaluate("() => document.activeElement?.dataset?.testid || document.activeElement?.tagName")


def _save(page: Page, artifacts, name: str, full_page: bool = False) -> None:
    shot(page, artifacts, name, full_page=full_page)
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name), full_page=full_page)


def test_the_finished_review_keeps_the_keyboard_says_it_is_ready_and_reads_in_words(server, new_page, artifacts):
    for width, height in ((1366, 768), (390, 844)):
        page = new_page(width, height)

        # Two polls answer "running" alike (the live region is written once), then the review is done.
        def review(method, seen):
            if method == "GET" and len(seen["get"]) <= 2:
                return {"status": "running", "done": 3, "total": 12}
            return {"status": "running", "done": 3, "total": 12} if method == "POST" else {"status": "done", "review": _review()}

        _fake_game(page, review=review)
        _open(page, server, width, height)
        page.evaluate("""() => { window.__writes = 0; const s = document.querySelector('[data-testid=review-status]');
            new MutationObserver((ms) => { window.__writes += ms.length; }).observe(s, {childList: true, characterData: true, subtree: true}); }""")
        page.get_by_test_id("review-button").focus()
        page.keyboard.press("Enter")
        # While it runs the keyboard waits on the status line, not on the page's body.
        expect(page.get_by_test_id("review-progress")).to_contain_text("3 of 12 decisions")
        assert _focused(page) == "review-status"
        expect(page.get_by_test_id("review-summary")).to_be_visible(timeout=20_000)
        status = page.get_by_test_id("review-status")
        expect(status).to_have_text("Review ready: Ann 81.3% accuracy, 12.1 points lost, 1 mistake, 0 blunders.")
        # "Asking…", "Reviewing…" once (not at each poll), "Review ready…".
        assert page.evaluate("window.__writes") <= 4, page.evaluate("window.__writes")
        assert _focused(page) == "review-heading"
        # The summary's short headings are read in full, and the table says what it holds.
        summary = page.get_by_test_id("review-summary")
        assert summary.locator("thead th").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == [
            "Player", "Accuracy", "Points lost", "Points lost / round", "Inaccuracies", "Mistakes", "Blunders"]
        expect(summary.locator("caption")).to_contain_text("accuracy")
        # Moves with their round, points lost in words; a best take names the deepest card it takes.
        page.get_by_test_id("review-show-all").check()
        expect(page.get_by_test_id("review-move-2").locator(".num")).to_have_text("round 1 \u00B7 Move 2")
        expect(page.get_by_test_id("review-move-7").locator(".num")).to_have_text("round 2 \u00B7 Move 7")
        expect(page.get_by_test_id("review-move-2").locator(".loss")).to_have_text("\u221212.1 points")
        # Before move 3 the pile (bottom first) is 2C ... KC: three taken, down to JC.
        expect(page.get_by_test_id("review-move-3").locator(".best")).to_have_text("best: Take 3 cards from the pile, down to J\u2663")
        _save(page, artifacts, f"review-done-{width}.png", full_page=True)
        page.get_by_test_id("review-panel").screenshot(path=str(artifacts / f"review-panel-{width}.png"))
        if SHOTS:
            page.get_by_test_id("review-panel").screenshot(path=os.path.join(SHOTS, f"review-panel-{width}.png"))

        # The move of the position shown is marked (aria-current) and still shows the keyboard's ring.
        item = page.get_by_test_id("review-move-2")
        item.scroll_into_view_if_needed()
        item.click()
        expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^move 1 of"))
        expect(item).to_have_attribute("aria-current", "step")
        bar = page.get_by_test_id("review-back-bar")
        expect(bar).to_be_visible()
        # Stepping on with the arrows: the bar about move 2 goes.
        page.keyboard.press("ArrowRight")
        expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^move 2 of"))
        expect(bar).to_be_hidden()
        expect(item).not_to_have_attribute("aria-current", "step")
        page.keyboard.press("ArrowLeft")
        expect(item).to_have_attribute("aria-current", "step")
        item.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        ring = item.evaluate("el => [el.matches(':focus-visible'), getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineColor]")
        assert ring[0] and ring[1] != "none" and ring[2] == "rgb(56, 189, 248)", ring


def test_a_review_the_server_lost_is_asked_for_again_then_given_up(server, new_page):
    page = new_page(1366, 768)
    # The server restarted: every GET answers "none"; the POST asked again answers running, then none.
    seen = _fake_game(page, review=lambda method, seen: {"status": "running", "done": 1, "total": 9} if method == "POST" else {"status": "none"})
    _open(page, server, 1366, 768)
    page.get_by_test_id("review-button").click()
    button = page.get_by_test_id("review-button")
    expect(button).to_be_enabled(timeout=15_000)
    expect(page.get_by_test_id("review-status")).to_contain_text("lost the review")
    expect(page.get_by_test_id("review-progress")).to_be_hidden()
    assert len(seen["post"]) == 2, seen
    page.wait_for_timeout(2500)
    assert len(seen["post"]) == 2 and len(seen["get"]) == 2, seen  # stopped: no more polls


def test_a_failed_poll_is_tried_again_and_giving_up_says_try_again(server, new_page):
    page = new_page(1366, 768)
    # One poll gets no answer, the next does: the review goes on.
    def flaky(method, seen):
        if method == "POST":
            return {"status": "running", "done": 1, "total": 9}
        return None if len(seen["get"]) == 1 else {"status": "done", "review": _review()}

    _fake_game(page, review=flaky)
    _open(page, server, 1366, 768)
    page.get_by_test_id("review-button").click()
    expect(page.get_by_test_id("review-summary")).to_be_visible(timeout=15_000)

    page = new_page(1366, 768)
    _fake_game(page, review=lambda method, seen: {"status": "running", "done": 1, "total": 9} if method == "POST" else None)
    _open(page, server, 1366, 768)
    page.get_by_test_id("review-button").click()
    button = page.get_by_test_id("review-button")
    expect(button).to_have_text("Try again", timeout=20_000)
    expect(button).to_be_enabled()
    expect(page.get_by_test_id("review-progress")).to_be_hidden()


def test_a_phone_replay_shows_the_top_of_a_long_pile(server, new_page, artifacts):
    page = new_page(390, 844, touch=True)
    _fake_game(page, total=10)
    _open(page, server, 390, 844)
    page.get_by_test_id("replay-last").click()
    page.get_by_test_id("replay-prev").click()
    expect(page.get_by_test_id("replay-step")).to_have_text(re.compile(r"^move 9 of"))
    pile = page.get_by_test_id("replay-pile")
    top = page.get_by_test_id("replay-pile-top")
    expect(top).to_have_attribute("aria-label", re.compile("top of the pile"))
    assert pile.evaluate("el => el.scrollWidth > el.clientWidth"), "the pile should overflow on a phone"
    box, frame = top.bounding_box(), pile.bounding_box()
    assert box["x"] >= frame["x"] - 1 and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1, (box, frame)
    top.scroll_into_view_if_needed()
    _save(page, artifacts, "replay-pile-390.png")


def test_a_partnership_replay_ends_with_the_sides(server, new_page):
    page = new_page(1366, 768)
    _fake_game(page, total=10, partnership=True)
    _open(page, server, 1366, 768)
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("replay-game-over")).to_have_text(
        "Game over: Side A (Ann & Cy) won. Final totals: Side A (Ann & Cy) 510, Side B (Bob & Dee) 200.")


def test_the_replay_of_a_game_still_played_leads_to_its_table(server, new_page):
    page = new_page(390, 844)
    _fake_game(page, playing=True)
    page.goto(f"{server}/#replay/{GID}")
    note = page.get_by_test_id("replay-unfinished")
    expect(note).to_contain_text("This game is still being played")
    expect(note.get_by_role("link")).to_have_attribute("href", f"/t/{GID}")
    for testid in ("replay-next", "review-panel", "download-record", "replay-board"):
        expect(page.get_by_test_id(testid)).to_be_hidden()


def test_the_game_over_leads_to_the_review(server, new_page, artifacts):
    page = new_page(1366, 768)
    table_id = create_table(page, server, name="Ann", seats=2, bots={1: "medium"}, house_rules={"rounds": 1, "short_pack": True})
    play_until_round_over(page)
    expect(page.get_by_test_id("round-over")).to_contain_text("Game over", timeout=60_000)
    body = json.dumps({"status": "done", "ahead": 0, "done": 4, "total": 4, "review": _review() | {"players": [
        p | {"name": n} for p, n in zip(_review()["players"], ("Ann", "Bot 2"), strict=True)], "decisions": []}, "error": None})
    page.route("**/api/games/*/review", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{server}/t/{table_id}")
        link = page.get_by_test_id("game-over-review")
        expect(link).to_have_text("Review your moves", timeout=30_000)
        # Beside "Replay this game".
        replay = page.get_by_test_id("game-over-replay")
        assert link.evaluate("(el) => el.previousElementSibling?.dataset.testid") == "game-over-replay"
        expect(replay).to_be_visible()
        _save(page, artifacts, f"game-over-review-link-{width}.png")
        link.click()
        expect(page).to_have_url(re.compile(rf"#replay/{table_id}/review$"))
        heading = page.get_by_test_id("review-heading")
        expect(heading).to_be_focused(timeout=30_000)
        box = heading.bounding_box()
        assert box and 0 <= box["y"] <= height - box["height"], box  # the panel's heading in the first screen
        expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of")
        page.get_by_test_id("review-button").click()
        expect(page.get_by_test_id("review-summary")).to_be_visible()
        expect(page.get_by_test_id("review-status")).to_contain_text("Review ready: Ann")
        _save(page, artifacts, f"game-over-review-opened-{width}.png")
