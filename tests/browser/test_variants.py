"""House-rule variants played through the browser against the real server.

These tables are dealt from seeds the test picks (the ``seeded_server``
fixture: the same app in this process, whose seed source the test fills), and
the other people at the table are played by the test over their own
websockets. The engine, run here on the same seed, finds a deal and a line of
play that reaches the position under test; every move of the browser's
player is then made through the page's own controls, and the page must offer
exactly what the server's ``legal`` list holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from browser_ui import (
    SocketSeat,
    create_table,
    legal,
    play_action,
    play_until_round_over,
    post_json,
    state,
    verb,
    view,
    wait_for_my_move,
)
from playwright.sync_api import expect

from rummy500.actions import CallRummy, Discard, Draw, Float, LayOff, Meld
from rummy500.server.engine import LiveGame, parse_rules

Plan = list[tuple[int, dict[str, Any]]]




def _first_seed(search: Callable[[int], Plan | None], seeds: Iterable[int]) -> tuple[int, Plan]:
    for seed in seeds:
        plan = search(seed)
        if plan is not None:
            return seed, plan
    raise AssertionError("no seed in range gives the position under test: widen the search")


def _at_version(page, version: int) -> None:
    page.wait_for_function(
        "(v) => window.rummy && window.rummy.version === v && !window.rummy.pending", arg=version, timeout=15_000
    )


def _seat_people(base: str, table_id: str, names: list[str]) -> dict[int, SocketSeat]:
    """Seat the other people by the REST join; each gets its own websocket."""
    seats = {}
    for name in names:
        joined = post_json(base, f"/api/tables/{table_id}/join", {"name": name})
        seats[joined["seat"]] = SocketSeat(base, table_id, joined["token"])
    return seats


def _play_plan(page, others: dict[int, SocketSeat], plan: Plan, check: Callable[[], None]) -> int:
    """Play ``plan`` from version 0: seat 0 through the page, the others over their sockets."""
    version = 0
    for seat, action in plan:
        _at_version(page, version)
        check()
        if seat == 0:
            play_action(page, action)
        else:
            others[seat].act(version, action)
        version += 1
    _at_version(page, version)
    check()
    return version


# ------------------------------------------------------------- calling Rummy
POPULAR = {"preset": "popular"}


def _rummy_plan(seed: int) -> Plan | None:
    """Bob and Cal draw and meld; Bob discards a card Ann may then call Rummy on.

    Ann (seat 0) draws and discards her first legal discard. Returns the
    actions up to the position where Ann may call out of turn (Cal to draw).
    """
    game = LiveGame(parse_rules(POPULAR, 3), ["Ann", "Bob", "Cal"], seed)
    plan: Plan = []
    for _ in range(60):
        st = game.match.state
        if game.match.round_index or st.is_over:
            return None
        if st.public.to_move != 0 and any(isinstance(a, CallRummy) for a in st.legal_actions(0)):
            return plan  # (Ann may call on her own turn too, before drawing: this test wants it out of turn)
        mover = st.public.to_move
        acts = st.legal_actions(mover)
        draw = [a for a in acts if isinstance(a, Draw)]
        melds = [a for a in acts if isinstance(a, Meld)]
        discards = [a for a in acts if isinstance(a, Discard)]
        if draw:
            action = draw[0]
        elif mover != 0 and melds:
            action = melds[0]
        elif discards:
            action = discards[0]
            if mover == 1:
                for d in discards:
                    after = st.copy()
                    after.apply(d, 1)
                    if any(isinstance(a, CallRummy) for a in after.legal_actions(0)):
                        action = d
                        break
        else:
            return None
        plan.append((mover, action.to_record()))
        game.apply(mover, action)
    return None


def test_calling_rummy_out_of_turn(seeded_server, new_page, artifacts):
    seed, plan = _first_seed(_rummy_plan, range(1, 200))
    seeded_server.seeds.append(seed)
    base = seeded_server.url
    page = new_page()
    table_id = create_table(page, base, name="Ann", seats=3, bots={}, preset="popular", start=False)
    others = _seat_people(base, table_id, ["Bob", "Cal"])
    expect(page.get_by_test_id("seat-list")).to_contain_text("Cal")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    rummy_button = page.get_by_test_id("btn-rummy")

    def rummy_button_follows_legal() -> None:
        offered = any(verb(a) == "rummy" for a in legal(page))
        expect(rummy_button).to_have_count(1 if offered else 0)

    try:
        _play_plan(page, others, plan, rummy_button_follows_legal)
        # Bob just discarded and Cal is to draw: Ann may call Rummy out of turn.
        v = view(page)
        assert v["to_move"] == 2 and v["last_discarder"] == 1
        calls = [a for a in legal(page) if verb(a) == "rummy"]
        assert calls
        expect(rummy_button).to_be_enabled()
        expect(page).to_have_title("\u2605 Rummy! \u2014 rummy500")
        expect(page.get_by_test_id("action-hint")).to_contain_text("You may claim")
        expect(page.get_by_test_id(f"pile-card-{calls[0]['rummy']}")).to_have_class(re.compile(r"\bcallable\b"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(artifacts / "rummy-call-phone.png"), full_page=True)
        # The callable pile card is a tap target too, and says what a call takes.
        depth = calls[0]["rummy"]
        page.get_by_test_id(f"pile-card-{depth}").click()
        expect(page.get_by_test_id("btn-rummy-pile")).to_be_visible()
        page.get_by_test_id("btn-take-cancel").click()
        play_action(page, calls[0])
        # Ann took the pile down to the card and must use it now.
        v = view(page)
        assert v["to_move"] == 0 and v["obligation"]
        expect(page.get_by_test_id("obligation")).to_contain_text("You must use")
        expect(rummy_button).to_have_count(0)
        card = v["obligation"]
        use = next(
            a for a in legal(page) if verb(a) in ("meld", "layoff") and card in [c.split("=")[0] for c in a[verb(a)]]
        )
        play_action(page, use)
        discard = next(a for a in legal(page) if verb(a) == "discard")
        play_action(page, discard)
        # Play goes on from the caller's left.
        assert view(page)["to_move"] == 1
        expect(page.get_by_test_id("game-log")).to_contain_text("Ann: called Rummy!")
    finally:
        for seat in others.values():
            seat.close()


# ------------------------------------------------------------ going out: floating
FLOATING = {"going_out": "floating", "short_pack": True, "hand_size": 7, "jokers": 4}


def _meld_out(st, seat: int, depth: int = 0) -> list | None:
    """Melds and lay-offs after which ``seat`` floats, or ``None``."""
    acts = st.legal_actions(seat)
    if any(isinstance(a, Float) for a in acts):
        return []
    if depth > 5:
        return None
    for a in acts:
        if isinstance(a, (Meld, LayOff)):
            after = st.copy()
            after.apply(a, seat)
            rest = _meld_out(after, seat, depth + 1)
            if rest is not None:
                return [a, *rest]
    return None


def _float_plan(seed: int) -> Plan | None:
    """Both draw from the stock and discard their first legal discard until Ann can meld out."""
    game = LiveGame(parse_rules(FLOATING, 2), ["Ann", "Bob"], seed)
    plan: Plan = []
    for _ in range(12):
        st = game.match.state
        mover = st.public.to_move
        acts = st.legal_actions(mover)
        if any(isinstance(a, Draw) for a in acts):
            plan.append((mover, Draw().to_record()))
            game.apply(mover, Draw())
            if mover == 0:
                out = _meld_out(game.match.state, 0)
                if out is not None:
                    return plan + [(0, a.to_record()) for a in out]
            continue
        discards = [a for a in acts if isinstance(a, Discard)]
        if not discards or st.is_over:
            return None
        plan.append((mover, discards[0].to_record()))
        game.apply(mover, discards[0])
    return None


def test_floating_then_going_out(seeded_server, new_page):
    # Seed 61 melds out at once; the range is there should the deal ever change.
    seed, plan = _first_seed(_float_plan, [61, *range(1, 400)])
    seeded_server.seeds.append(seed)
    base = seeded_server.url
    page = new_page()
    table_id = create_table(page, base, name="Ann", seats=2, bots={}, house_rules=FLOATING, start=False)
    others = _seat_people(base, table_id, ["Bob"])
    expect(page.get_by_test_id("seat-list")).to_contain_text("Bob")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    float_button = page.get_by_test_id("btn-float")

    def float_button_follows_legal() -> None:
        expect(float_button).to_have_count(1 if any(verb(a) == "float" for a in legal(page)) else 0)

    try:
        version = _play_plan(page, others, plan, float_button_follows_legal)
        # Ann melded every card: her only move is to float.
        assert legal(page) == [{"float": True}] and view(page)["hand"] == []
        expect(page.get_by_test_id("btn-discard")).to_be_disabled()
        play_action(page, {"float": True})
        expect(page.get_by_test_id("player-0")).to_contain_text("floating")
        # Bob plays a turn; then Ann draws and goes out by discarding that card.
        bob = others[1]
        now = bob.act(version + 1, {"draw": "stock"})
        bob.act(now["version"], next(a for a in now["view"]["legal"] if verb(a) == "discard"))
        wait_for_my_move(page)
        play_action(page, {"draw": "stock"})
        play_action(page, next(a for a in legal(page) if verb(a) == "discard"))
        banner = page.get_by_test_id("round-over")
        expect(banner).to_contain_text("Ann went out.")
        sheet = page.get_by_test_id("score-sheet")
        expect(sheet.locator("tbody tr")).to_have_count(1)
        expect(sheet.locator("tbody tr td").nth(1)).to_contain_text("\u2605")
        totals = sheet.get_by_test_id("score-totals").locator("td").all_inner_texts()
        # The score sheet survives a reload (it comes from the server, not the page's memory).
        page.reload()
        expect(page.get_by_test_id("hand")).to_be_visible()
        expect(sheet.locator("tbody tr")).to_have_count(1)
        dealer = LiveGame(parse_rules(FLOATING, 2), ["Ann", "Bob"], seed).match.state.public.dealer
        expect(sheet.locator("tbody tr td.dealer")).to_have_text(["Ann", "Bob"][dealer])
        expect(sheet.get_by_test_id("score-totals").locator("td")).to_have_text(totals)
    finally:
        for seat in others.values():
            seat.close()


# ------------------------------------------------------------- Dealer's Gambit
#: The table's rules (the cut for the first dealer is made from its pack: the short one here).
GAMBIT = {"preset": "dealers_gambit", "target": 1000, "short_pack": True}


def _ann_deals(seed: int) -> Plan | None:
    game = LiveGame(parse_rules(GAMBIT, 2), ["Ann", "Bot 2"], seed)
    return [] if game.match.state.public.dealer == 0 else None


def test_dealers_gambit_against_a_bot(seeded_server, new_page, artifacts):
    seed, _ = _first_seed(_ann_deals, range(1, 100))
    seeded_server.seeds.append(seed)
    page = new_page()
    # A target out of one round's reach, so that a second round is dealt; the 32-card pack (and
    # its jokers) leaves a short stock, so the first round is over in a few turns.
    create_table(
        page,
        seeded_server.url,
        name="Ann",
        seats=2,
        bots={1: "random"},
        preset="dealers_gambit",
        house_rules={"target": 1000, "short_pack": True},
    )
    wait_for_my_move(page)
    # Ann deals: before anyone plays she nominates what jokers do this hand.
    assert sorted(a["nominate"] for a in legal(page)) == ["double", "split", "wild"]
    expect(page.get_by_test_id("status")).to_contain_text("You are the dealer")
    expect(page.get_by_test_id("action-hint")).to_contain_text("Split:")
    # No card can be played before the nomination: only the three choices are offered.
    expect(page.get_by_test_id("btn-draw")).to_have_count(0)
    expect(page.get_by_test_id("actions").locator("button")).to_have_count(3)
    # Nobody has looked at their cards yet (RULES.md): Ann's hand lies face down, its backs counted.
    size = view(page)["hand_sizes"][0]
    assert view(page)["hand"] == [] and size > 0
    face_down = page.get_by_test_id("face-down")
    expect(face_down).to_contain_text(f"Your {size} cards lie face down until the dealer has nominated")
    expect(face_down.locator(".card.back")).to_have_count(size)
    expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(0)
    page.screenshot(path=str(artifacts / "gambit-nominate.png"))
    play_action(page, {"nominate": "wild"})
    expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(size)  # now she looks
    expect(face_down).to_have_count(0)
    expect(page.get_by_test_id("gambit")).to_contain_text("Ann nominated: jokers wild")
    expect(page.get_by_test_id("gambit")).to_contain_text("dealer's joker")
    page.screenshot(path=str(artifacts / "gambit-wild.png"))
    play_until_round_over(page, meld=True)
    expect(page.get_by_test_id("round-over")).to_contain_text("Round 1 over")
    first_round = page.get_by_test_id("score-sheet").locator("tbody tr").first
    expect(first_round.locator("td.dealer")).to_have_text("Ann")
    page.get_by_test_id("round-over-ok").click()
    # Round 2: the bot deals and nominates at once; the table says what it chose.
    page.wait_for_function("() => window.rummy.view.dealer === 1 && window.rummy.view.gambit !== null")
    mode = view(page)["gambit"]
    expect(page.get_by_test_id("gambit")).to_contain_text(f"Bot 2 nominated: jokers {mode}")
    expect(page.get_by_test_id("game-log")).to_contain_text(f"Bot 2: nominated jokers {mode}")
    assert state(page)["version"] > 0
