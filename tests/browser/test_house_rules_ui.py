"""What the table says under house rules, at 1366×768 (a laptop) and 390×844 (a phone).

An audit of the web client under house rules found these: Rummy! calls of
``calling_rummy: steal`` (which meld pile cards) offered as melds under *Other
moves*, with no Rummy! button; the seat to move told "You may call now" while
the server makes it wait out the call window; the cards of a ``match_drawn``
discard sent in the legal list's order, not the order the player picked (the
last card picked goes on top); moves a house rule forbids (``first_meld_min``,
``going_out: discard_required``, ``layoff_onto``, ``layoff_needs_own_meld``)
refused in the same words as cards that make no meld; an empty stock still
offering a draw, with a *Pass* that did not say it ends the round; a playable
last discard under ``going_out: unplayable_discard`` floating its thrower with
nothing said; the dealer's joker (Dealer's Gambit) not selectable, its melds
hidden under *Other moves*; "Tap cards to select them" beside an empty hand that
must float; the rules panel's jokers always "15" and ``stock_out: immediate``
worded unlike the engine; round summaries that never said why *Round* was what
it was under ``hand_penalty: to_goer``, ``stock_out_penalty: false`` or a
Master's Hand; and nothing said when a player may meld out of turn.

Positions the server must judge (a call accepted, a discard's order, a float)
are dealt from seeds on the in-process server (``seeded_server``) and played
through the page, the other seats over their own websockets; wording that
depends only on the view and the rules comes from the scripted socket of
``test_client``. Screenshots go to the artifacts folder (and ``$RUMMY500_SHOTS``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from browser_ui import (
    SocketSeat,
    create_table,
    legal,
    select_cards,
    shot,
    tap_card,
    verb,
    view,
    wait_settled,
)
from playwright.sync_api import expect
from test_client import _view, scripted  # noqa: F401 - the fixture is used by name
from test_table_feel import _at, _send
from test_table_ux import VIEWPORTS
from test_variants import FLOATING, _first_seed, _float_plan, _play_plan, _seat_people

from rummy500.actions import Action, CallRummy, Discard, Draw, Float, LayOff, Meld, Nominate, Pass, Take, parse_action
from rummy500.cards import parse_card
from rummy500.server.engine import LiveGame, parse_rules
from rummy500.state import RoundState

Plan = list[tuple[int, dict[str, Any]]]
Policy = Callable[[Any, int], Action | None]

SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def card_text(card: str) -> str:
    """A card as the page writes it: "10♣", "7♦", "joker"."""
    if card.startswith("JK"):
        return "joker"
    rank = card[0]
    return ("10" if rank == "T" else rank) + SUITS[card[1]]


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _size(page, size: str) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))


def _plan(
    rules: dict[str, Any], names: list[str], goal: Callable[[Any, Plan], bool], policy: Policy, seed: int
) -> Plan | None:
    """The moves from the deal of ``seed`` (first round) to the first position where ``goal`` holds, or None."""
    game = LiveGame(parse_rules(rules, len(names)), names, seed)
    plan: Plan = []
    for _ in range(200):
        st = game.match.state
        if game.match.round_index or st.is_over:
            return None
        if goal(st, plan):
            return plan
        mover = st.public.to_move
        action = policy(st, mover)
        if action is None:
            return None
        plan.append((mover, action.to_record()))
        game.apply(mover, action)
    return None


def _of(acts: list[Action], kind: type) -> list[Any]:
    return [a for a in acts if isinstance(a, kind)]


def _start(seeded_server, new_page, rules: dict[str, Any], names: list[str], plan_for, size: str = "laptop"):
    """A table of ``rules`` dealt from the first seed that reaches the position; its plan played.

    Returns the page (Ann, seat 0), the other seats (by seat) and the version reached.
    """
    seed, plan = _first_seed(plan_for, range(1, 3000))
    seeded_server.seeds.append(seed)
    base = seeded_server.url
    page = new_page(*VIEWPORTS[size], touch=size == "phone")
    table_id = create_table(page, base, name="Ann", seats=len(names), bots={}, house_rules=rules, start=False)
    others = _seat_people(base, table_id, names[1:])
    expect(page.get_by_test_id("seat-list")).to_contain_text(names[-1])
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    version = _play_plan(page, others, plan, lambda: None)
    return page, others, version


def _close(others: dict[int, SocketSeat]) -> None:
    for seat in others.values():
        seat.close()


def _spoken(page, testid: str) -> str:
    return page.get_by_test_id(testid).evaluate("el => el.textContent.replace(/\\s+/g, ' ').trim()")


# ------------------------------------------------------------ 1. calling_rummy: steal
STEAL = {"calling_rummy": "steal", "jokers": 0}


def _steal_policy(st, mover: int) -> Action | None:
    acts = st.legal_actions(mover)
    if _of(acts, Draw):
        return _of(acts, Draw)[0]
    if mover != 0 and _of(acts, Meld):
        return _of(acts, Meld)[0]
    discards = _of(acts, Discard)
    if mover == 1:
        for d in discards:
            after = st.copy()
            after.apply(d, 1)
            if any(isinstance(a, CallRummy) for a in after.legal_actions(0)):
                return d
    return discards[0] if discards else None


def _steal_plan(seed: int) -> Plan | None:
    """Bob discards a card Ann may steal by a call that melds pile cards, Cal about to draw."""

    def goal(st, plan: Plan) -> bool:
        calls = _of(st.legal_actions(0), CallRummy)
        return (
            st.public.to_move == 2
            and bool(plan)
            and plan[-1][0] == 1
            and "discard" in plan[-1][1]
            and len(calls) > 1
            and all(c.meld for c in calls)
        )

    return _plan(STEAL, ["Ann", "Bob", "Cal"], goal, _steal_policy, seed)


def test_a_steal_call_is_a_rummy_call_that_names_its_card(seeded_server, new_page, artifacts):
    page, others, version = _start(seeded_server, new_page, STEAL, ["Ann", "Bob", "Cal"], _steal_plan)
    try:
        v = view(page)
        pile = v["discard"]
        calls = [a for a in v["legal"] if verb(a) == "rummy"]
        assert len(calls) > 1 and all("meld" in a for a in calls), calls
        # A call, not a meld from the hand: the window's words (first: it lasts 2 s on this server),
        # the Rummy! button, the lit pile cards.
        expect(page.get_by_test_id("call-window")).to_contain_text("You may call now")
        expect(page.get_by_test_id("btn-rummy")).to_be_enabled()
        expect(page.get_by_test_id("btn-other")).to_have_count(0)
        expect(page.get_by_test_id("btn-meld")).to_be_disabled()
        expect(page.get_by_test_id("action-hint")).to_contain_text("You may claim")
        for call in calls:
            expect(page.get_by_test_id(f"pile-card-{call['rummy']}")).to_have_class(re.compile(r"\bcallable\b"))
        # Tapping a lit card says what a steal takes: that card alone, laid at once.
        depth = calls[0]["rummy"]
        page.get_by_test_id(f"pile-card-{depth}").click()
        expect(page.get_by_test_id("rummy-preview")).to_contain_text("Claim only the")
        expect(page.get_by_test_id("btn-take")).to_have_count(0)
        page.get_by_test_id("btn-take-cancel").click()
        # Each call names its card, its depth and the meld it makes: no two read alike.
        page.get_by_test_id("btn-rummy").click()
        chooser = page.get_by_test_id("chooser")
        choices = chooser.locator("button.choice .choice-text")
        expected = [
            f"Call Rummy! on the {card_text(pile[-a['rummy']])}, {ordinal(a['rummy'])} card from the top,"
            f" melding {' '.join(map(card_text, a['meld']))}"
            for a in calls
        ]
        expect(choices).to_have_text(expected)
        assert len(set(expected)) == len(expected)
        shot(page, artifacts, "house-steal-chooser-laptop.png", full_page=False)
        _size(page, "phone")
        shot(page, artifacts, "house-steal-chooser-phone.png", full_page=False)
        _size(page, "laptop")
        chooser.get_by_test_id("choice-0").click()
        wait_settled(page, version)
        claimed = card_text(pile[-calls[0]["rummy"]])
        expect(page.get_by_test_id("game-log")).to_contain_text(
            f"Ann: called Rummy! on the {ordinal(calls[0]['rummy'])} card"
        )
        assert view(page)["to_move"] == 2, "a steal is not the caller's turn"
        assert any(m["owner"] == 0 for m in view(page)["melds"]), f"the {claimed} was not melded in front of Ann"
    finally:
        _close(others)


# ------------------------------------------------------------ 2. the seat to move waits out the call window
def _window(left: float = 30.0) -> dict[str, Any]:
    return {
        "turn_clock": 0,
        "hints": True,
        "call_window": {"left": left, "seconds": 30.0},
        "clock": None,
        "summary": None,
    }


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_seat_to_move_hears_it_may_call_only_once_the_window_closes(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    script.table = {**script.table, "rules": {"players": 2, "calling_rummy": "pile"}}
    # Bob discarded the 7♥; Ann is to draw and could call Rummy! on it, but the others call first.
    mine = _view(
        phase="draw",
        last_discarder=1,
        discard=["3C", "9D", "7H"],
        legal=[{"draw": "stock"}, {"take": 1}, {"rummy": 1}],
    )
    _send(script, mine, 11, pace=_window())
    _at(page, 11)
    window = page.get_by_test_id("call-window")
    expect(window).to_contain_text("The others may call first; you can call Rummy! when this window closes")
    expect(window).not_to_contain_text("You may call now")
    expect(window).not_to_have_class(re.compile(r"\bmine\b"))
    expect(page.get_by_test_id("btn-rummy")).to_have_count(0)
    expect(page.get_by_test_id("action-hint")).to_have_text(
        "Wait a moment: the other players may call Rummy! first; you can call Rummy! when this window closes."
    )
    shot(page, artifacts, f"house-window-wait-{size}.png", full_page=False)
    # The pile waits too, and says why when tapped.
    page.get_by_test_id("pile-card-1").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("action-hint")).to_have_text(
        "Wait a moment: the other players may call Rummy! first; then the pile is yours to take from."
    )
    # The window closes: now the call is Ann's to make.
    _send(script, mine, 11, pace={**_window(), "call_window": None})
    expect(page.get_by_test_id("btn-rummy")).to_be_enabled()
    # Out of turn (Bob to move) the same call may be made at once.
    _send(script, {**mine, "to_move": 1, "last_discarder": 0, "legal": [{"rummy": 1}]}, 12, pace=_window())
    _at(page, 12)
    expect(window).to_contain_text("Rummy! You may call now")
    expect(page.get_by_test_id("btn-rummy")).to_be_enabled()


# ------------------------------------------------------------ 3. discard_count: match_drawn
MATCH_DRAWN = {"stock_draw_count": 2, "discard_count": "match_drawn", "jokers": 0}


def _plain_policy(st, mover: int) -> Action | None:
    """Draw from the stock and discard the first legal discard; nobody melds."""
    acts = st.legal_actions(mover)
    for kind in (Draw, Discard, Take, Pass):
        if _of(acts, kind):
            return _of(acts, kind)[0]
    return None


def _match_drawn_plan(seed: int) -> Plan | None:
    def goal(st, plan: Plan) -> bool:
        return (
            st.public.to_move == 0 and st.public.phase == "play" and bool(plan) and plan[-1] == (0, {"draw": "stock"})
        )

    return _plan(MATCH_DRAWN, ["Ann", "Bob"], goal, _plain_policy, seed)


def test_a_match_drawn_discard_goes_in_the_order_picked(seeded_server, new_page, artifacts):
    page, others, version = _start(seeded_server, new_page, MATCH_DRAWN, ["Ann", "Bob"], _match_drawn_plan)
    try:
        hint = page.get_by_test_id("action-hint")
        expect(hint).to_contain_text("This turn you discard 2 cards: the last one you pick goes on top.")
        low, high = next(a["discard"] for a in legal(page) if verb(a) == "discard")  # listed ascending
        # The player picks the later card first: the earlier one is to lie on top.
        tap_card(page, f"card-{high}")
        expect(hint).to_contain_text("1 selected \u2014 select 2 cards to discard (the last one you pick goes on top)")
        tap_card(page, f"card-{low}")
        expect(hint).to_have_text(
            f"2 selected. Discard puts {card_text(high)}, then {card_text(low)} on the pile:"
            f" the {card_text(low)} on top (the last one you picked)."
        )
        shot(page, artifacts, "house-match-drawn-laptop.png", full_page=False)
        page.get_by_test_id("btn-discard").click()
        wait_settled(page, version)
        assert view(page)["discard"][-2:] == [high, low], "the card picked last lies on top"
    finally:
        _close(others)


# ------------------------------------------------------------ 4. a move a house rule forbids says which rule
def _opening_plan(seed: int) -> Plan | None:
    """Ann lays a meld short of a 40-point opening: she may neither discard nor lay off until she reaches it."""
    rules = {"first_meld_min": 40, "jokers": 0}

    def goal(st, plan: Plan) -> bool:
        return (
            st.public.to_move == 0
            and st.public.phase == "play"
            and bool(plan)
            and plan[-1][0] == 0
            and "meld" in plan[-1][1]
            and not _of(st.legal_actions(0), Discard)
        )

    def policy(st, mover: int) -> Action | None:
        acts = st.legal_actions(mover)
        if _of(acts, Meld):
            return min(_of(acts, Meld), key=lambda a: len(a.cards))
        return _plain_policy(st, mover)

    return _plan(rules, ["Ann", "Bob"], goal, policy, seed)


def test_an_opening_short_of_the_minimum_says_how_far_it_has_come(seeded_server, new_page, artifacts):
    rules = {"first_meld_min": 40, "jokers": 0}
    page, others, _ = _start(seeded_server, new_page, rules, ["Ann", "Bob"], _opening_plan)
    try:
        v = view(page)
        assert v["opened"][0] is False and v["turn_points"] > 0
        hint = page.get_by_test_id("action-hint")
        so_far = f"Your first melds must reach 40 points this turn ({v['turn_points']} so far) before you may lay off or discard."
        expect(hint).to_have_text(f"Tap cards to select them, then Meld, Lay off or Discard. {so_far}")
        meld_cards = {c for a in v["legal"] if verb(a) == "meld" for c in a["meld"]}
        card = next(c for c in v["hand"] if c not in meld_cards)
        tap_card(page, f"card-{card}")
        expect(hint).to_have_text(f"{card_text(card)}: {so_far[0].lower()}{so_far[1:]}")
        shot(page, artifacts, "house-opening-laptop.png", full_page=False)
    finally:
        _close(others)


#: Bob's melds on the table (a run of hearts, a set of nines); Ann has none.
BOB_MELDS = [
    {"id": 0, "cards": ["2H", "3H", "4H"], "laid_by": [1, 1, 1], "kind": "run", "owner": 1},
    {"id": 1, "cards": ["9C", "9D", "9S"], "laid_by": [1, 1, 1], "kind": "set", "owner": 1},
]


def _refusal_view(**over) -> dict[str, Any]:
    """Ann's turn, drawn: her hand holds the 5♥ (it fits Bob's run) and three kings."""
    hand = ["5H", "KS", "KD", "KC", "7C", "QD"]
    v = _view(
        hand=hand,
        hand_sizes=[6, 7],
        melds=BOB_MELDS,
        opened=[True, True],
        has_melded=[False, True],
        turn_points=0,
        may_lay_off_now=True,
        lay_off_onto=[0, 1],
        floating=[False, False],
        legal=[{"discard": c} for c in sorted(hand)],
    )
    v.update(over)
    return v


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_moves_a_house_rule_forbids_say_which_rule(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    hint = page.get_by_test_id("action-hint")
    layoff = page.get_by_test_id("btn-layoff")

    def position(version: int, rules: dict[str, Any], **over) -> None:
        script.table = {**script.table, "rules": {"players": 2, **rules}}
        _send(script, _refusal_view(**over), version)
        _at(page, version)

    # first_meld_min: three kings (30 points) that cannot open a 50-point minimum this turn.
    position(11, {"first_meld_min": 50}, opened=[False, True], may_lay_off_now=False)
    select_cards(page, ["KS", "KD", "KC"])
    expect(hint).to_have_text(
        re.compile(
            r"^(K\S ){2}K\S: your first melds must total at least 50 points in one turn,"
            r" and with these cards your hand cannot reach that this turn\.$"
        )
    )
    expect(hint).not_to_contain_text("no legal meld")
    page.get_by_test_id("btn-clear").click()
    # ... and the 5♥, which fits Bob's run: no lay-off before the opening.
    tap_card(page, "card-5H")
    expect(hint).to_have_text(
        "1 selected. At this table you may lay off only once your first melds have reached 50 points."
    )
    expect(layoff).to_have_attribute("title", re.compile("only once your first melds have reached 50 points"))
    page.get_by_test_id("btn-clear").click()

    # going_out: discard_required (Boathouse): a hand of three kings may not be melded out.
    position(
        12,
        {"going_out": "discard_required"},
        hand=["KS", "KD", "KC"],
        hand_sizes=[3, 7],
        legal=[{"discard": c} for c in ["KC", "KD", "KS"]],
    )
    select_cards(page, ["KS", "KD", "KC"])
    expect(hint).to_have_text(
        re.compile(
            r"^(K\S ){2}K\S: at this table you must keep a card to discard: you go out only by discarding your last card\.$"
        )
    )
    shot(page, artifacts, f"house-boathouse-{size}.png", full_page=False)
    page.get_by_test_id("btn-clear").click()

    # layoff_onto: own: the 5♥ fits Bob's run, but Ann may lay off only on her own melds.
    position(13, {"layoff_onto": "own"}, lay_off_onto=[])
    tap_card(page, "card-5H")
    expect(hint).to_have_text("1 selected. At this table you may lay off only on your own melds.")
    expect(layoff).to_have_attribute("title", re.compile("only on your own melds"))
    shot(page, artifacts, f"house-layoff-own-{size}.png", full_page=False)
    page.get_by_test_id("btn-clear").click()

    # layoff_needs_own_meld: no meld of Ann's own yet.
    position(14, {"layoff_needs_own_meld": True}, may_lay_off_now=False)
    tap_card(page, "card-5H")
    expect(hint).to_have_text(
        "1 selected. At this table you may lay off only once you have laid down a meld of your own this round."
    )


# ------------------------------------------------------------ 5. an empty stock
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_an_empty_stock_says_what_is_left_and_that_a_pass_ends_the_round(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    status, hint = page.get_by_test_id("status"), page.get_by_test_id("action-hint")
    pile = ["3C", "9D", "QD", "4S", "8H"]
    # stock_out: end_round: take from the pile, or pass, which ends the round.
    _send(
        script, _view(phase="draw", stock_count=0, discard=pile, legal=[{"take": 1}, {"take": 4}, {"pass": True}]), 11
    )
    _at(page, 11)
    expect(status).to_contain_text("Your turn: the stock is empty: take from the pile, or pass to end the round.")
    expect(status).not_to_contain_text("draw from the stock")
    expect(hint).to_have_text(
        "The stock is empty: tap a lit card of the discard pile to take it (and all the cards above it),"
        " or press Pass to end the round."
    )
    expect(page.get_by_test_id("btn-pass")).to_have_text("Pass (ends the round)")
    shot(page, artifacts, f"house-empty-stock-{size}.png", full_page=False)
    # stock_out: play_on: no pass while a card of the pile may be taken.
    script.table = {**script.table, "rules": {"players": 2, "stock_out": "play_on"}}
    _send(script, _view(phase="draw", stock_count=0, discard=pile, legal=[{"take": 1}, {"take": 4}]), 12)
    _at(page, 12)
    expect(status).to_contain_text("Your turn: the stock is empty: you must take from the pile.")
    expect(hint).to_have_text(
        "The stock is empty, so you must take from the pile: tap a lit card of the discard pile to take it"
        " (and all the cards above it)."
    )
    expect(page.get_by_test_id("btn-pass")).to_have_count(0)
    # Nothing may be taken: only the pass is left.
    _send(script, _view(phase="draw", stock_count=0, discard=pile, legal=[{"pass": True}]), 13)
    _at(page, 13)
    expect(status).to_contain_text("the stock is empty and no card of the pile may be taken: pass to end the round.")


# ------------------------------------------------------------ 6. going_out: unplayable_discard
UNPLAYABLE = {"going_out": "unplayable_discard", "short_pack": True, "jokers": 0}


def _unplayable_plan(seed: int) -> Plan | None:
    """Ann is left with one card, which fits a meld on the table: discarding it floats her."""

    def goal(st, plan: Plan) -> bool:
        if st.public.to_move != 0 or st.public.phase != "play" or len(st.hands[0]) != 1:
            return False
        acts = st.legal_actions(0)
        if not any(isinstance(a, LayOff) for a in acts):
            return False
        for a in _of(acts, Discard):
            after = st.copy()
            after.apply(a, 0)
            if not after.is_over and after.public.floating[0]:
                return True
        return False

    def policy(st, mover: int) -> Action | None:
        acts = st.legal_actions(mover)
        for kind in (Draw, Meld):
            if _of(acts, kind):
                return _of(acts, kind)[0]
        if _of(acts, LayOff) and (mover != 0 or len(st.hands[0]) > 2):
            return _of(acts, LayOff)[0]
        for kind in (Float, Discard, Take, Pass):
            if _of(acts, kind):
                return _of(acts, kind)[0]
        return None

    return _plan(UNPLAYABLE, ["Ann", "Bob"], goal, policy, seed)


def test_a_playable_last_discard_is_warned_of_and_its_float_said(seeded_server, new_page, artifacts):
    page, others, version = _start(seeded_server, new_page, UNPLAYABLE, ["Ann", "Bob"], _unplayable_plan)
    try:
        (last,) = view(page)["hand"]
        tap_card(page, f"card-{last}")
        # Before the discard: it would not take her out.
        warning = page.get_by_test_id("hint-floats")
        expect(warning).to_contain_text(f"The {card_text(last)} could be laid off (meld ")
        expect(warning).to_contain_text("discarding it does not take you out at this table. You would float")
        expect(page.get_by_test_id("btn-discard")).to_have_attribute("title", re.compile("does not take you out"))
        shot(page, artifacts, "house-unplayable-warn-laptop.png", full_page=False)
        page.get_by_test_id("btn-discard").click()
        wait_settled(page, version)
        assert view(page)["floating"][0] and view(page)["hand"] == [] and view(page)["to_move"] == 1
        # After it: the log and the live region say why the round goes on.
        note = f"Not out: {card_text(last)} could be laid off on a meld \u2014 Ann floats"
        expect(page.get_by_test_id("game-log").locator("li").last).to_contain_text(
            f"Ann: discarded {card_text(last)}. {note}"
        )
        expect(page.get_by_test_id("live-moves")).to_contain_text("Not out:")
        expect(page.get_by_test_id("live-moves")).to_contain_text("you float")
        float_tag = page.get_by_test_id("player-0").locator(".tag.float")
        expect(float_tag).to_have_attribute(
            "title", "Emptied the hand without going out: goes out by discarding at a later turn"
        )
        shot(page, artifacts, "house-unplayable-floats-laptop.png", full_page=True)
    finally:
        _close(others)


# ------------------------------------------------------------ 7. the dealer's joker
GAMBIT = {"dealers_gambit": True}


def _dealer_joker_plan(seed: int) -> Plan | None:
    """Ann deals (jokers wild) and, drawn, may meld with the dealer's joker, which her hand does not hold."""

    def goal(st, plan: Plan) -> bool:
        if st.public.to_move != 0 or st.public.phase != "play" or "JK" in map(str, st.hands[0]):
            return False
        return any(isinstance(a, Meld) and any(str(c).startswith("JK") for c in a.cards) for a in st.legal_actions(0))

    def policy(st, mover: int) -> Action | None:
        acts = st.legal_actions(mover)
        if _of(acts, Nominate):
            return next(a for a in _of(acts, Nominate) if a.to_record()["nominate"] == "wild")
        if mover != 0 and _of(acts, Meld) and not _of(acts, Draw):
            return _of(acts, Meld)[0]
        return _plain_policy(st, mover)

    game = LiveGame(parse_rules(GAMBIT, 3), ["Ann", "Bob", "Cal"], seed)
    if game.match.state.public.dealer != 0:
        return None
    return _plan(GAMBIT, ["Ann", "Bob", "Cal"], goal, policy, seed)


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_dealers_joker_is_a_card_beside_the_dealers_hand(seeded_server, new_page, size, artifacts):
    page, others, version = _start(seeded_server, new_page, GAMBIT, ["Ann", "Bob", "Cal"], _dealer_joker_plan, size)
    try:
        v = view(page)
        joker = page.get_by_test_id("card-dealer-joker")
        slot = page.get_by_test_id("dealer-joker-slot")
        expect(slot).to_be_visible()
        expect(slot).to_contain_text("Dealer's joker")
        expect(joker).to_have_attribute("aria-label", re.compile("the dealer's joker"))
        # Beside the hand, not in it; and nothing legal is left under Other moves.
        expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(len(v["hand"]))
        expect(page.get_by_test_id("btn-other")).to_have_count(0)
        meld = next(a for a in v["legal"] if verb(a) == "meld" and any(c.startswith("JK") for c in a["meld"]))
        naturals = [c for c in meld["meld"] if not c.startswith("JK")]
        select_cards(page, naturals)
        expect(page.get_by_test_id("btn-meld")).to_be_disabled()
        joker.click()
        expect(joker).to_have_attribute("aria-pressed", "true")
        btn = page.get_by_test_id("btn-meld")
        expect(btn).to_be_enabled()
        shot(page, artifacts, f"house-dealer-joker-{size}.png", full_page=False)
        btn.click()
        base = sorted(c.split("=")[0] for c in meld["meld"])
        same = [a for a in v["legal"] if verb(a) == "meld" and sorted(c.split("=")[0] for c in a["meld"]) == base]
        if len(same) > 1:  # the joker could stand for another card too: the player says which
            page.get_by_test_id("chooser").get_by_test_id(f"choice-{same.index(meld)}").click()
        wait_settled(page, version)
        assert view(page)["dealer_joker"] == "used"
        assert any(m["owner"] == 0 for m in view(page)["melds"])
        expect(slot).to_be_hidden()
    finally:
        _close(others)


# ------------------------------------------------------------ 8. melded out: the float
def test_an_empty_hand_that_must_float_is_told_so(seeded_server, new_page, artifacts):
    seed, plan = _first_seed(_float_plan, [61, *range(1, 400)])
    seeded_server.seeds.append(seed)
    base = seeded_server.url
    page = new_page(*VIEWPORTS["phone"], touch=True)
    table_id = create_table(page, base, name="Ann", seats=2, bots={}, house_rules=FLOATING, start=False)
    others = _seat_people(base, table_id, ["Bob"])
    try:
        expect(page.get_by_test_id("seat-list")).to_contain_text("Bob")
        page.get_by_test_id("start-game").click()
        expect(page.get_by_test_id("hand")).to_be_visible()
        _play_plan(page, others, plan, lambda: None)
        assert legal(page) == [{"float": True}] and view(page)["hand"] == []
        expect(page.get_by_test_id("action-hint")).to_have_text(
            "You have melded every card: press Float; you go out by discarding on a later turn."
        )
        shot(page, artifacts, "house-float-phone.png", full_page=False)
    finally:
        _close(others)


# ------------------------------------------------------------ 9. the rules panel
def test_the_rules_panel_counts_jokers_as_the_table_does(server, new_page):
    page = new_page(*VIEWPORTS["laptop"])
    page.goto(server + "/")
    tables = {
        "standard": parse_rules({}, 2).to_mapping(),
        "dealers_gambit": parse_rules({"preset": "dealers_gambit"}, 3).to_mapping(),
        "persian": parse_rules({"preset": "persian"}, 4).to_mapping(),
        "hoyle": parse_rules({"preset": "hoyle"}, 2).to_mapping(),
        "ace_11": parse_rules({"card_values": "ace_11"}, 2).to_mapping(),
        "joker_25": parse_rules({"custom_values": {"JK": 25}}, 2).to_mapping(),
        "immediate": parse_rules({"stock_out": "immediate"}, 2).to_mapping(),
    }
    said = page.evaluate(
        """async (tables) => {
          const m = await import('/static/rules.js');
          return Object.fromEntries(Object.entries(tables).map(([k, r]) => [k, m.rulesInWords(r, {}, r.players)]));
        }""",
        tables,
    )
    values = {k: next(w for w in words if w.startswith(("Cards count", "Aces count"))) for k, words in said.items()}
    assert values["standard"].endswith("; jokers 15."), values
    assert values["dealers_gambit"].endswith("; jokers 0."), values
    assert values["persian"].endswith("; jokers 20."), values
    assert "joker" not in values["hoyle"] and "No jokers." in said["hoyle"], values
    assert values["ace_11"].endswith("a melded joker counts as the card it stands for, 15 left in hand."), values
    assert values["joker_25"].endswith("; jokers 25."), values
    # stock_out: immediate as the engine plays it: the round ends once that turn is finished.
    assert (
        "When the stock runs out the round ends: the player who drew its last card finishes that turn first."
        in said["immediate"]
    )
    assert not any("as soon as the stock runs out" in w for w in said["immediate"])


# ------------------------------------------------------------ 10, 12. what the round summary counts
def _summary(went_out: int | None, **over) -> dict[str, Any]:
    s = {
        "round": 0,
        "went_out": went_out,
        "masters": None,
        "seats": [
            {"seat": 0, "melded": 60, "in_hand": 0, "bonus": 0, "round_score": 85, "total": 85, "hand": []},
            {
                "seat": 1,
                "melded": 30,
                "in_hand": 25,
                "bonus": 0,
                "round_score": 30,
                "total": 30,
                "hand": ["KS", "QH", "5C"],
            },
        ],
        "melds": [
            {"id": 0, "cards": ["5H", "6H", "7H", "8H"], "laid_by": [0, 0, 0, 0], "kind": "run", "owner": 0},
            {"id": 1, "cards": ["QC", "QD", "QS"], "laid_by": [1, 1, 1], "kind": "set", "owner": 1},
        ],
        "left": 30.0,
        "ready": [],
        "waiting": [0, 1],
    }
    s.update(over)
    return s


def _show_summary(page, script, version: int, rules: dict[str, Any], summary: dict[str, Any]) -> None:
    script.table = {**script.table, "rules": {"players": 2, **rules}}
    pace = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": summary}
    _send(script, _view(phase="draw", legal=[{"draw": "stock"}]), version, pace=pace, last_round=summary)
    _at(page, version)
    expect(page.get_by_test_id("round-summary")).to_be_visible()


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_round_summary_says_how_round_comes_under_the_house_rules(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    hands = page.get_by_test_id("summary-hands")
    # hand_penalty: to_goer: Ann went out; Bob's hand counts for her, not against him.
    _show_summary(page, script, 11, {"hand_penalty": "to_goer"}, _summary(0))
    expect(hands).to_have_text(
        "Cards left in hand count for the player who went out, not against their holders:"
        " Ann's Round = Melded + the others' Left in hand; everyone else's Round = Melded."
    )
    shot(page, artifacts, f"house-summary-to-goer-{size}.png")
    # ... and nobody went out: with two players each adds the other's hand.
    _show_summary(page, script, 12, {"hand_penalty": "to_goer"}, _summary(None, round=1))
    expect(hands).to_have_text(
        "Nobody went out: cards left in hand count for the other player,"
        " so Round = Melded + the other player's Left in hand."
    )
    # stock_out_penalty: false: the stock ran out, and no hand counts.
    _show_summary(page, script, 13, {"stock_out_penalty": False}, _summary(None, round=2))
    expect(hands).to_have_text(
        "The stock ran out: at this table cards left in hand then count for nobody, so Round = Melded."
    )
    # The standard game needs no line.
    _show_summary(page, script, 14, {}, _summary(0, round=3))
    expect(hands).to_have_count(0)
    expect(page.get_by_test_id("summary-masters")).to_have_count(0)


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_masters_hand_round_says_it_scored_500(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    seats = [
        {"seat": 0, "melded": 42, "in_hand": 0, "bonus": 0, "round_score": 500, "total": 500, "hand": []},
        {
            "seat": 1,
            "melded": 0,
            "in_hand": 22,
            "bonus": 0,
            "round_score": -22,
            "total": -22,
            "hand": ["KD", "QD", "2S"],
        },
    ]
    melds = [
        {"id": 0, "cards": ["3H", "4H", "5H", "6H", "7H", "8H", "9H"], "laid_by": [0] * 7, "kind": "run", "owner": 0}
    ]
    _show_summary(page, script, 11, {"masters_hand": True}, _summary(0, masters=0, seats=seats, melds=melds))
    expect(page.get_by_test_id("summary-masters")).to_have_text(
        "Master's Hand: 500 for Ann, who laid down a run of 7 or more cards and went out by discarding in the same"
        " turn: Ann's Round = 500, whatever the cards; the others score as usual."
    )
    expect(page.get_by_test_id("summary-0")).to_contain_text("Master's Hand")
    shot(page, artifacts, f"house-summary-masters-{size}.png")


def test_the_round_summary_names_the_seat_whose_masters_hand_scored_it():
    """The server's summary carries ``masters``: the seat whose Master's Hand scored the round, else null."""

    def summary(rules: dict[str, Any], actions: list[str]) -> dict[str, Any]:
        game = LiveGame(parse_rules(rules, 2), ["Ann", "Bob"], 1)
        r = game.rules
        hands = [[*map(parse_card, ["3H", "4H", "5H", "6H", "7H", "8H", "9H"])], [*map(parse_card, ["KD", "QD", "2S"])]]
        st = RoundState.from_deal(r, 1, hands, [parse_card("KS")], [parse_card("8D")])
        for line in actions:
            seat, _, text = line.partition(" ")
            st.apply(parse_action(text), int(seat))
        assert st.is_over
        return game.round_summary(st, 0)

    actions = ["0 draw", "0 meld 3H 4H 5H 6H 7H 8H 9H", "0 discard KS"]
    masters = summary({"masters_hand": True}, actions)
    assert masters["masters"] == 0 and masters["seats"][0]["round_score"] == 500
    assert summary({}, actions)["masters"] is None


# ------------------------------------------------------------ 11. meld_out_of_turn
@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_player_who_may_meld_out_of_turn_is_told_so(scripted, size, artifacts):  # noqa: F811
    page, script = scripted
    _size(page, size)
    script.table = {**script.table, "rules": {"players": 2, "meld_out_of_turn": True}}
    _send(
        script, _view(to_move=1, phase="play", legal=[{"meld": ["KS", "KD", "KC"]}, {"layoff": ["JK=7S"], "on": 0}]), 11
    )
    _at(page, 11)
    hint = page.get_by_test_id("action-hint")
    expect(hint).to_have_text("You may meld or lay off now, out of turn.")
    select_cards(page, ["KS", "KD", "KC"])
    expect(page.get_by_test_id("btn-meld")).to_be_enabled()
    shot(page, artifacts, f"house-out-of-turn-{size}.png", full_page=False)
    # Nothing to play out of turn: the hint says nothing (the status says whose turn it is).
    page.get_by_test_id("btn-clear").click()
    _send(script, _view(to_move=1, phase="play", legal=[]), 12)
    _at(page, 12)
    expect(hint).to_have_text("Waiting for Bob.")
