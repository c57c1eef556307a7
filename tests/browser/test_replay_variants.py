"""The replay viewer on variant games, at 1366×768 (a laptop) and 390×844 (a phone).

Dealer's Gambit: each deal's hands before the nomination (face down at the
table, open in the replay), the dealer's nomination and the dealer's joker,
and the nomination step's heading. A round's deal picked from the review (the
position before a round's first move) is that deal, not the round before's
summary. A reshuffle of the pile into a new stock is said in the move's line.

The games are played on the real (seeded) server: Ann's seat by a quick
policy (a meld or a lay-off when there is one, else any legal move), the
other seats by random bots.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import shutil
import time
import urllib.request
from pathlib import Path
from typing import Any

from browser_ui import create_table, post_json
from playwright.sync_api import expect

VIEWPORTS = {"laptop": (1366, 768), "phone": (390, 844)}
#: Where the screenshots are copied for a person to look at.
SHOTS = Path("/tmp/replay_fix_shots")


async def _finish(app: Any, table_id: str, seed: int) -> None:
    """Play Ann's seat (seat 0) to the game's end; every round summary is answered at once."""
    rng = random.Random(seed)
    session = await app.state.manager.session(table_id)
    deadline = time.monotonic() + 150
    while not session.finished:
        assert time.monotonic() < deadline, f"table {table_id} did not finish: version {session.version}"
        if session.pace.held(time.monotonic()) is not None:
            session.ready(0)
        elif legal := [a.to_record() for a in session.game.legal(0)]:
            record = rng.choice([a for a in legal if "meld" in a or "layoff" in a] or legal)
            await session.submit(0, session.version, record)
            continue
        await asyncio.sleep(0.01)


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


def _public_game(seeded_server, seed: int, seats: int, rules: dict[str, Any], preset: str | None = None) -> str:
    """A finished public game (created over the API): its id."""
    seeded_server.seeds.append(seed)
    body: dict[str, Any] = {
        "name": "Ann",
        "seats": seats,
        "bots": {str(s): "random" for s in range(1, seats)},
        "rules": rules,
        "public": True,
    }
    if preset:
        body["preset"] = preset
    made = post_json(seeded_server.url, "/api/tables", body)
    post_json(seeded_server.url, f"/api/tables/{made['table_id']}/start", {}, made["token"])
    seeded_server.call(lambda app: _finish(app, made["table_id"], seed), timeout=180)
    return str(made["table_id"])


def _go(page, n: int) -> None:
    page.get_by_test_id("replay-slider").evaluate("(el, n) => { el.value = String(n); el.dispatchEvent(new Event('input')); }", n)
    expect(page.get_by_test_id("replay-step")).to_contain_text(f"move {n} of")


def _shot(page, artifacts: Path, name: str, *, full_page: bool = False) -> None:
    path = artifacts / name
    page.screenshot(path=str(path), full_page=full_page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / name)


def _hand_cards(page, seat: int):
    return page.get_by_test_id(f"replay-hand-{seat}").locator(".hcards .card")


def test_a_gambit_replay_shows_each_deal_the_nomination_and_the_dealers_joker(seeded_server, new_page, artifacts):
    base = seeded_server.url
    game = _public_game(seeded_server, 11, 3, {"rounds": 2}, preset="dealers_gambit")
    ends = _get(base, f"/api/games/{game}/replay/0")["round_ends"]
    assert len(ends) >= 2, ends
    names = _get(base, f"/api/games/{game}/record")["players"]
    page = new_page()
    for size, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{base}/#replay/{game}")
        step, where = page.get_by_test_id("replay-step"), page.get_by_test_id("replay-round")
        expect(step).to_contain_text("move 0 of", timeout=60_000)
        # The deal, before the nomination: every hand's seven cards (face down at the table, open here).
        start = _get(base, f"/api/games/{game}/replay/0")["view"]
        dealer = names[start["dealer"]]
        for s in range(3):
            expect(page.locator(".replay-hand").nth(s).locator(".hcards .card")).to_have_count(7)
        # By the dealer: the nomination still to come, and the dealer's joker.
        gambit = page.get_by_test_id(f"replay-hand-{start['dealer']}").get_by_test_id("replay-gambit")
        expect(gambit).to_have_text("Jokers: not nominated yet \u00b7 dealer's joker free")
        expect(page.get_by_test_id(f"replay-hand-{start['dealer']}").get_by_test_id("replay-dealer")).to_have_text("dealer")
        # The heading names the dealer as the one to nominate.
        expect(where).to_contain_text(f"Round 1 \u00b7 {dealer} (the dealer) to nominate \u00b7 stock ")
        _shot(page, artifacts, f"gambit-deal-{size}-{width}.png")
        # After the nomination: what the dealer nominated.
        _go(page, 1)
        nominated = _get(base, f"/api/games/{game}/replay/1")["view"]
        expect(gambit).to_have_text(f"Nominated: jokers {nominated['gambit']} \u00b7 dealer's joker {dict(available='free', used='used', blocked='blocked')[nominated['dealer_joker']]}")
        _shot(page, artifacts, f"gambit-nominated-{size}-{width}.png")
        # The next round's deal (before its nomination) shows its hands too: Next from the round's end.
        _go(page, ends[0])
        expect(where).to_have_text("Round 1 \u00b7 round over")
        page.get_by_test_id("replay-next").click()
        expect(step).to_contain_text(f"move {ends[0] + 1} of")
        expect(where).to_contain_text("Round 2 \u00b7 ")
        for s in range(3):
            expect(_hand_cards(page, s)).not_to_have_count(0)
    # A step whose hands come empty (a server that sends the seats' face-down views) still counts each hand.
    blank = _get(base, f"/api/games/{game}/replay/0")
    blank["hands"] = [[], [], []]
    page.route("**/api/games/*/replay/0", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(blank)))
    page.goto(f"{base}/#replay/{game}")
    for s in range(3):
        expect(page.locator(".replay-hand").nth(s).locator(".hcards")).to_have_text("7 cards")


def _one_decision(step: int, seat: int, played: dict, rnd: int) -> dict:
    """A review (``rummy500 review --json``) of one decision that lost points: the move at ``step``."""
    decision = {
        "kept": None, "round": rnd, "index": step - 1, "step": step, "seat": seat, "phase": "draw",
        "played": json.dumps(played), "best": json.dumps(played), "played_action": played, "best_action": played,
        "loss": 2.0, "verdict": "mistake", "values": {}, "value_samples": {}, "stderr": 0.4, "standing": -2.0,
        "legal": 2, "samples": 2, "sure": True, "hindsight": None,
    }

    def player(s: int, name: str) -> dict:
        mine = [decision] if s == seat else []
        verdicts = {v: sum(d["verdict"] == v for d in mine) for v in ("good", "inaccuracy", "mistake", "blunder")}
        lost = 2.0 if mine else 0.0
        return {"seat": s, "name": name, "decisions": len(mine), "accuracy": 70.0, "loss": lost, "loss_per_round": lost, "verdicts": verdicts}

    return {
        "budget": {"samples": 2, "extend": 0, "settle_after": 8}, "seed": 0, "rounds": rnd + 1, "steps": step,
        "thresholds": {"inaccuracy": 0.6, "mistake": 1.6, "blunder": 4.0}, "accuracy_scale": 2.0, "skipped": {},
        "players": [player(0, "Ann"), player(1, "Bot 2")], "decisions": [decision],
    }


def test_a_review_move_that_starts_a_round_shows_that_rounds_deal(seeded_server, new_page, artifacts):
    """Quick rules (to 100), two rounds at most: the review's first move of round 2 shows round 2's deal."""
    base = seeded_server.url
    page = new_page(1366, 768)
    seeded_server.seeds.append(7)
    game = create_table(page, base, name="Ann", seats=2, bots={1: "random"}, preset="quick", house_rules={"rounds": 2})
    seeded_server.call(lambda app: _finish(app, game, 7), timeout=180)
    first = _get(base, f"/api/games/{game}/replay/0")
    ends = first["round_ends"]
    assert len(ends) >= 2, ends
    deal = _get(base, f"/api/games/{game}/replay/{ends[0]}")  # round 1's end: round 2's deal is its view
    opening = _get(base, f"/api/games/{game}/replay/{ends[0] + 1}")  # round 2's first move
    move = ends[0] + 1
    seat = opening["action"]["seat"]
    view = deal["view"]
    body = json.dumps({"status": "done", "ahead": 0, "done": 1, "total": 1, "review": _one_decision(move, seat, opening["action"]["action"], 1), "error": None})
    page.route("**/api/games/*/review", lambda route: route.fulfill(status=200, content_type="application/json", body=body))
    for size, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{base}/#replay/{game}")
        step, where = page.get_by_test_id("replay-step"), page.get_by_test_id("replay-round")
        expect(step).to_contain_text("move 0 of", timeout=60_000)
        page.get_by_test_id("review-button").click()
        item = page.get_by_test_id(f"review-move-{move}")
        item.scroll_into_view_if_needed()
        item.click()
        expect(step).to_have_text(re.compile(rf"^move {ends[0]} of"))
        # Round 2's deal, as the player deciding saw it: not round 1's summary.
        who = ["Ann", "Bot 2"][view["to_move"]]
        expect(where).to_have_text(f"Round 2 \u00b7 {who} to draw \u00b7 stock {view['stock_count']} cards")
        expect(page.get_by_test_id("replay-round-over")).to_have_count(0)
        expect(page.get_by_test_id("replay-action")).to_have_text(f"Before move {move} of {ends[-1]}: the deal of round 2.")
        for s in range(2):
            expect(_hand_cards(page, s)).to_have_count(view["hand_sizes"][s])
            expect(page.get_by_test_id(f"replay-hand-{s}")).to_contain_text(f"{view['scores'][s]} pts")
        expect(page.get_by_test_id(f"replay-hand-{view['dealer']}").get_by_test_id("replay-dealer")).to_be_visible()
        expect(page.get_by_test_id("replay-pile").locator(".card")).to_have_count(len(view["discard"]))
        _shot(page, artifacts, f"review-round2-deal-{size}-{width}.png")
        _shot(page, artifacts, f"review-round2-deal-{size}-{width}-full.png", full_page=True)
        # Stepping on from there shows round 1's end as before.
        _go(page, ends[0])
        expect(where).to_have_text("Round 1 \u00b7 round over")


def test_a_reshuffle_is_said_in_the_moves_line(seeded_server, new_page, artifacts):
    base = seeded_server.url
    found = None
    # The bots are not seeded by the deal, so a game's course differs from run to run, and a player
    # may go out before the short stock (a 32-card pack, 13-card hands) runs out: four games were
    # sometimes not enough. The first game with a reshuffle is used.
    for seed in range(1, 13):
        game = _public_game(seeded_server, seed, 2, {"rounds": 1, "short_pack": True, "stock_out": "reshuffle"})
        entries = _get(base, f"/api/games/{game}/record")["rounds"][0]["actions"]
        first = next((k for k, entry in enumerate(entries) if "reshuffle" in entry), None)
        if first is None:
            continue
        # The viewer's moves are the players' actions (a reshuffle is no move of its own), so the
        # move it follows is at most the number of entries before it: look back from there.
        total = _get(base, f"/api/games/{game}/replay/0")["steps"]
        for n in range(min(first, total), 0, -1):
            action = _get(base, f"/api/games/{game}/replay/{n}")["action"]
            shuffled = [e for e in action["events"] if e.get("event") == "reshuffled"]
            if shuffled:
                found = (game, n, shuffled[0]["count"])
                break
        if found:
            break
    assert found, "a game should hold a reshuffle"
    game, n, count = found
    page = new_page()
    for size, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{base}/#replay/{game}")
        expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of", timeout=60_000)
        _go(page, n)
        cards = "1 card" if count == 1 else f"{count} cards"
        expect(page.get_by_test_id("replay-action")).to_have_text(
            re.compile(rf"^Move {n} of \d+: (Ann|Bot 2): .+, then the discard pile was shuffled into a new stock of {cards}$")
        )
        _shot(page, artifacts, f"reshuffle-{size}-{width}.png")
