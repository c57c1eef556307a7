"""Driving the browser client as a player would: through its buttons.

The client exposes a read-only ``window.rummy`` ({view, version, pending,
table}) that these helpers read to know *which* card to tap; every move is
still made by clicking the client's own controls.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

MY_TURN_TITLE = "\u25b6 Your turn \u2014 rummy500"


def post_json(base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    """POST ``body`` (JSON; None: no body) to the test server, with ``token`` as the bearer; the JSON answer."""
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=5) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


def shot(page: Page, artifacts: Path, name: str, *, full_page: bool = True) -> None:
    """Save what the page shows as ``artifacts/name`` (and under ``$RUMMY500_SHOTS`` when it is set)."""
    page.screenshot(path=str(artifacts / name), full_page=full_page)
    extra = os.environ.get("RUMMY500_SHOTS")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(extra) / name), full_page=full_page)


def assert_fits_width(page: Page) -> None:
    """Nothing runs off the side of the screen (a phone scrolls only down)."""
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"), (
        "the page scrolls sideways"
    )


def state(page: Page) -> dict[str, Any]:
    """``window.rummy``: the view the page shows, its version and whether a move is in flight."""
    return page.evaluate("() => window.rummy ? JSON.parse(JSON.stringify(window.rummy)) : null") or {}


def view(page: Page) -> dict[str, Any]:
    return state(page).get("view") or {}


def verb(action: dict[str, Any]) -> str:
    return next(k for k in action if k != "p")


def create_table(
    page: Page,
    base: str,
    name: str = "Ann",
    seats: int = 2,
    bots: dict[int, str] | None = None,
    preset: str = "standard",
    house_rules: dict[str, Any] | None = None,
    start: bool = True,
    public: bool = False,
    turn_clock: int = 0,
) -> str:
    """Create a table through the lobby form; returns the table id."""
    page.goto(base + "/")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("seats").select_option(str(seats))
    expect(page.get_by_test_id("preset").locator("option")).not_to_have_count(0)
    page.get_by_test_id("preset").select_option(preset)
    for s in range(1, seats):
        level = (bots or {}).get(s, "")
        page.get_by_test_id(f"bot-seat-{s}").select_option(level)
    if house_rules:
        page.get_by_test_id("house-rules").locator("summary").click()
        for opt, value in house_rules.items():
            set_option(page, opt, value)
    if public:
        page.get_by_test_id("public-table").check()
    if turn_clock:
        page.get_by_test_id("turn-clock").select_option(str(turn_clock))
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    if start:
        start_game(page)
    return table_id


def set_option(page: Page, opt: str, value: Any) -> None:
    """Set one house rule in the editor as a player would: pick the value's label, or "Another number…" and type it.

    The label is the one the editor shows for ``value`` (each ``<option>``
    keeps its value as JSON in ``data-value``), so the test never depends on
    the wording and still selects what a person sees.
    """
    sel = page.get_by_test_id(f"opt-{opt}")
    entry = sel.locator(f"option[data-value='{json.dumps(value)}']")
    if entry.count():
        sel.select_option(label=(entry.first.text_content() or "").strip())
    else:
        sel.select_option(label="Another number\u2026")
        page.get_by_test_id(f"opt-{opt}-number").fill(str(value))


def start_game(page: Page) -> None:
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()


def wait_until(page: Page, predicate: str, timeout: float = 20_000) -> None:
    page.wait_for_function(predicate, timeout=timeout)


def wait_settled(page: Page, before: int | None, timeout: float = 15_000) -> None:
    """Wait until the page has a state newer than ``before`` and no move in flight."""
    try:
        page.wait_for_function(
            "(v) => window.rummy && !window.rummy.pending && window.rummy.version !== null"
            " && (v === null || window.rummy.version > v)",
            arg=before,
            timeout=timeout,
        )
    except PlaywrightTimeoutError:
        banner = page.get_by_test_id("error-banner")
        shown = banner.inner_text() if banner.count() and banner.is_visible() else ""
        s = state(page)
        raise AssertionError(
            f"no new state after version {before}: version {s.get('version')}, pending {s.get('pending')},"
            f" error shown: {shown!r}, legal: {(s.get('view') or {}).get('legal')}"
        ) from None


def legal(page: Page) -> list[dict[str, Any]]:
    return view(page).get("legal") or []


def wait_for_my_move(page: Page, timeout: float = 30_000) -> None:
    """Wait until this seat has a legal move it may play now (or the round-over banner shows).

    While a Rummy! call window is open the seat to move waits (``window.rummy.waiting``).
    """
    page.wait_for_function(
        "() => (window.rummy && !window.rummy.pending && !window.rummy.waiting && window.rummy.view"
        " && window.rummy.view.legal.length > 0)"
        " || !!document.querySelector('[data-testid=round-over]:not([hidden])')",
        timeout=timeout,
    )


def card_testid(page: Page, card: str) -> str:
    return f"card-{card}"


#: Where a player taps a card of the fanned hand: its left strip, which the next card never covers.
CARD_TAP = {"x": 5, "y": 30}

#: True once the hand is still, as a player waits for it: no card sliding in or
#: lifting (no animation or transition running on a card) and no move in flight.
HAND_STILL = """() => {
  const hand = document.querySelector('[data-testid=hand]');
  return !!hand && !!window.rummy && !window.rummy.pending
    && [...hand.querySelectorAll('.card')].every((c) => c.getAnimations().every((a) => a.playState !== 'running'));
}"""


def hand_trail(page: Page) -> str:
    """The hand's own account of its last presses, taps and clicks (``window.rummyHandTrail``), one a line."""
    trail = page.evaluate("() => window.rummyHandTrail || []")
    return "\n".join(f"  {e['t']} ms: {e['what']} {e.get('key') or ''} selected={e.get('selected')}" for e in trail)


def tap_card(page: Page, testid: str, selected: bool = True) -> None:
    """Tap a card of the hand to select it (or, with ``selected=False``, unselect it), and check that it did.

    Waits for the hand to be still first, as a player does. A card already in
    the wanted state before the tap, or a tap that does not take, fails with
    what the table showed and the hand's trail.
    """
    card = page.get_by_test_id(testid)
    want = "true" if selected else "false"
    page.wait_for_function(HAND_STILL)
    if card.get_attribute("aria-pressed") == want:
        raise AssertionError(
            f"{testid} is {'selected' if selected else 'unselected'} before the tap; the table showed"
            f" {table_snapshot(page)}\nthe hand's trail:\n{hand_trail(page)}"
        )
    card.click(position=CARD_TAP)
    try:
        expect(card).to_have_attribute("aria-pressed", want)
    except AssertionError as e:
        raise AssertionError(
            f"the tap on {testid} did not take; the table showed {table_snapshot(page)}\n"
            f"the hand's trail:\n{hand_trail(page)}"
        ) from e


def click_card(page: Page, card: str) -> None:
    """Select ``card`` (its first copy) with a tap."""
    tap_card(page, f"card-{card}")


def play_simple_turn(page: Page, meld: bool = False) -> str:
    """One turn: draw from the stock (or pass when it is empty), then (with
    ``meld``) lay down the melds the server lists, then discard the first legal
    discard. Returns what was done."""
    acts = legal(page)
    verbs = [verb(a) for a in acts]
    done = []
    if "draw" in verbs:
        v0 = state(page)["version"]
        page.get_by_test_id("btn-draw").click()
        wait_settled(page, v0)
        done.append("draw")
    elif "pass" in verbs:
        v0 = state(page)["version"]
        page.get_by_test_id("btn-pass").click()
        wait_settled(page, v0)
        return "pass"
    elif "take" in verbs:
        # Stock empty and no pass offered: take the top card.
        v0 = state(page)["version"]
        page.get_by_test_id("pile-card-1").click()
        page.get_by_test_id("btn-take").click()
        wait_settled(page, v0)
        done.append("take")
    if meld:
        done += meld_first_legal(page)
        if round_over_visible(page) or not view(page).get("hand"):
            return "+".join(done)
    acts = legal(page)
    discards = [a for a in acts if verb(a) == "discard"]
    if not discards:
        return "+".join(done) or "nothing"
    card = discards[0]["discard"]
    card = card[0] if isinstance(card, list) else card
    click_card(page, card)
    btn = page.get_by_test_id("btn-discard")
    expect_enabled(page, btn, f"discard {card}")
    v0 = state(page)["version"]
    btn.click()
    wait_settled(page, v0)
    done.append(f"discard {card}")
    return "+".join(done)


def table_snapshot(page: Page) -> str:
    """What the page shows a player about their move, for a failure message."""
    return page.evaluate(
        """() => {
          const r = window.rummy || {};
          const v = r.view || {};
          const pressed = [...document.querySelectorAll('[data-testid=hand] [aria-pressed=true]')]
            .map((e) => e.dataset.testid);
          const hint = document.querySelector('[data-testid=action-hint]');
          return JSON.stringify({
            version: r.version, pending: r.pending, waiting: r.waiting, phase: v.phase, to_move: v.to_move,
            hand: v.hand, selected: pressed, hint: hint ? hint.textContent : null,
            call_window: r.pace ? r.pace.call_window : null, legal: v.legal,
          });
        }"""
    )


def expect_enabled(page: Page, button: Locator, doing: str) -> None:
    """Expect ``button`` to become enabled; on failure say what the table showed."""
    try:
        expect(button).to_be_enabled()
    except AssertionError as e:
        raise AssertionError(
            f"{doing}: the button stayed disabled; the table showed {table_snapshot(page)}\n"
            f"the hand's trail:\n{hand_trail(page)}"
        ) from e


def _base(card: str) -> str:
    return card.split("=", 1)[0]


def meld_first_legal(page: Page, limit: int = 3) -> list[str]:
    """Lay down legal melds by selecting their cards and pressing Meld."""
    done = []
    for _ in range(limit):
        melds = [a for a in legal(page) if verb(a) == "meld"]
        if not melds:
            break
        hand = view(page).get("hand") or []
        # Melds the buttons can make from the hand (the dealer's joker is not in it).
        reachable = [a for a in melds if _coverable([_base(c) for c in a["meld"]], hand)]
        if not reachable:
            break
        target = reachable[0]
        cards = [_base(c) for c in target["meld"]]
        if len(set(cards)) != len(cards):
            break  # two copies of a card: keep the helper simple
        for c in cards:
            click_card(page, c)
        # The meld's button lights up, unless an opponent's out-of-turn move
        # arrives meanwhile and takes the meld away (handled just below).
        with contextlib.suppress(PlaywrightTimeoutError):  # expect_enabled below says what the table showed
            page.wait_for_function(
                "(t) => !document.querySelector('[data-testid=btn-meld]')?.disabled"
                " || !(window.rummy.view.legal || []).some((a) => JSON.stringify(a) === t)",
                arg=json.dumps(target, separators=(",", ":")),
            )
        if target not in legal(page):
            # An opponent's out-of-turn move (Dealer's Gambit: blocking the
            # dealer's joker) arrived meanwhile and the meld is gone: look again.
            page.get_by_test_id("btn-clear").click()
            continue
        btn = page.get_by_test_id("btn-meld")
        expect_enabled(page, btn, "meld " + " ".join(target["meld"]))
        v0 = state(page)["version"]
        btn.click()
        same = [a for a in melds if sorted(_base(c) for c in a["meld"]) == sorted(cards)]
        if len(same) > 1:
            page.get_by_test_id(f"choice-{same.index(target)}").click()
        wait_settled(page, v0)
        done.append("meld " + " ".join(target["meld"]))
        if round_over_visible(page) or not view(page).get("hand"):
            break
    return done


def round_over_visible(page: Page) -> bool:
    return page.get_by_test_id("round-over").is_visible()


def play_until_round_over(page: Page, max_turns: int = 80, deadline_s: float = 240, meld: bool = False) -> int:
    """Play simple turns until the round-over banner shows; returns turns played."""
    t0 = time.monotonic()
    turns = 0
    while not round_over_visible(page):
        assert turns < max_turns, "the round did not end"
        assert time.monotonic() - t0 < deadline_s, "the round took too long"
        wait_for_my_move(page)
        if round_over_visible(page):
            break
        version = state(page)["version"]
        if play_simple_turn(page, meld=meld) == "nothing":
            # Only an out-of-turn Rummy! call was offered (another seat is to
            # move): not a turn; wait for the table to move on instead of spinning.
            wait_settled(page, version)
            continue
        turns += 1
    return turns


def _coverable(cards: list[str], hand: list[str]) -> bool:
    pool = list(hand)
    for c in cards:
        if c not in pool:
            return False
        pool.remove(c)
    return True


def _same_cards(a: list[str], b: list[str]) -> bool:
    return sorted(map(_base, a)) == sorted(map(_base, b))


def _action_cards(action: dict[str, Any]) -> list[str]:
    v = verb(action)
    if v in ("meld", "layoff"):
        return list(action[v])
    if v == "swap":
        return [action["swap"]]
    if v == "discard":
        d = action["discard"]
        return list(d) if isinstance(d, list) else [d]
    return []


def select_cards(page: Page, cards: list[str]) -> None:
    """Tap these cards of the hand (a second copy of a card is ``card-XX-2``)."""
    seen: dict[str, int] = {}
    for c in map(_base, cards):
        seen[c] = seen.get(c, 0) + 1
        testid = f"card-{c}" if seen[c] == 1 else f"card-{c}-{seen[c]}"
        tap_card(page, testid)


def play_action(page: Page, action: dict[str, Any]) -> None:
    """Play one legal action through the client's own controls, as a person would.

    The action must be in the page's ``legal`` list. When the client offers a
    choice (a joker's declaration, which Rummy call), the dialog's entry for
    this action is picked. Waits until the server's answer is shown.
    """
    page.wait_for_function("() => window.rummy && !window.rummy.waiting")  # a Rummy! call window first
    acts = legal(page)
    assert action in acts, f"{action} is not legal here: {acts}"
    v = verb(action)
    candidates = [action]
    v0 = state(page)["version"]
    if v == "draw":
        page.get_by_test_id("btn-draw").click()
    elif v == "take":
        page.get_by_test_id(f"pile-card-{action['take']}").click()
        page.get_by_test_id("btn-take-split" if action.get("split") else "btn-take").click()
    elif v in ("meld", "layoff", "discard", "swap"):
        cards = _action_cards(action)
        select_cards(page, cards)
        candidates = [a for a in acts if verb(a) == v and _same_cards(_action_cards(a), cards)]
        if v == "layoff":
            candidates = [a for a in candidates if a["on"] == action["on"]]
        testid = {"meld": "btn-meld", "discard": "btn-discard"}.get(v) or f"btn-{v}-{action['on']}"
        page.get_by_test_id(testid).click()
    elif v == "rummy":
        candidates = [a for a in acts if verb(a) == "rummy"]
        page.get_by_test_id("btn-rummy").click()
    elif v == "nominate":
        page.get_by_test_id(f"btn-nominate-{action['nominate']}").click()
    else:  # pass, float, block
        page.get_by_test_id(f"btn-{v}").click()
    if len(candidates) > 1:
        page.get_by_test_id("chooser").get_by_test_id(f"choice-{candidates.index(action)}").click()
    wait_settled(page, v0)


class SocketSeat:
    """Another player at the table, played by the test over its own websocket.

    Nobody acts for a socket seat until the test says so, so positions that a
    bot would play past at once (a Rummy call's window) wait for the browser.
    """

    def __init__(self, base: str, table_id: str, token: str) -> None:
        from websockets.sync.client import connect

        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            connect(f"{base.replace('http', 'ws', 1)}/ws/tables/{table_id}?token={token}")
        )
        self.latest: dict[str, Any] | None = None

    def state(self, version: int = 0, timeout: float = 10) -> dict[str, Any]:
        """The first state at ``version`` or later."""
        import json

        while self.latest is None or self.latest["version"] < version:
            msg = json.loads(self.ws.recv(timeout=timeout))
            assert msg["type"] != "error", msg
            if msg["type"] == "state":
                self.latest = msg
        return self.latest

    def act(self, version: int, action: dict[str, Any]) -> dict[str, Any]:
        """Play ``action`` on the state at ``version``; returns the state after it."""
        import json

        now = self.state(version)
        assert now["version"] == version, f"expected version {version}, the table is at {now['version']}"
        assert action in now["view"]["legal"], f"{action} is not legal: {now['view']['legal']}"
        window = (now.get("pace") or {}).get("call_window")
        if window and now["view"]["to_move"] == now["view"]["seat"]:
            time.sleep(window["left"] + 0.1)  # the seat to move waits while everyone may call Rummy!
        self.ws.send(json.dumps({"type": "action", "version": version, "action": action}))
        return self.state(version + 1)

    def close(self) -> None:
        self._stack.close()
