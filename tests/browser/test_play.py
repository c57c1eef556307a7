"""The browser client against the real server: lobby, play, reconnects, two players, replays."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from browser_ui import (
    MY_TURN_TITLE,
    create_table,
    legal,
    play_simple_turn,
    play_until_round_over,
    start_game,
    state,
    verb,
    view,
    wait_for_my_move,
)
from playwright.sync_api import expect

VIEWPORTS = [(1366, 768), (390, 844)]


def _get(base: str, path: str) -> object:
    with urllib.request.urlopen(base + path, timeout=5) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


# On the laptop a whole round of the standard game; on the phone a round of the 32-card pack
# (five cards in the stock): the same summary to read, after a few turns.
@pytest.mark.parametrize(
    ("viewport", "house_rules"), [((1366, 768), {}), ((390, 844), {"short_pack": True})], ids=["laptop", "phone"]
)
def test_play_a_round_against_a_bot_and_read_its_summary(server, new_page, viewport, house_rules):
    page = new_page(*viewport)
    create_table(page, server, name="Ann", seats=2, bots={1: "random"}, house_rules=house_rules)
    expect(page.get_by_test_id("player-1")).to_contain_text("bot")
    turns = play_until_round_over(page, meld=True)
    assert turns > 0
    banner = page.get_by_test_id("round-over")
    expect(banner).to_contain_text("Round 1 over")
    expect(banner).to_be_in_viewport()
    # Nothing on the page, the summary with its rows of cards included, is wider than the screen:
    # a phone never scrolls sideways (before 6 December a summary pushed the phone's page to 420 px).
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
    # The summary holds the table for Ann: each seat's melded and in-hand points, as scored.
    summary = state(page)["pace"]["summary"]
    assert summary is not None and summary["waiting"] == [0]
    version = state(page)["version"]
    for row in summary["seats"]:
        shown = page.get_by_test_id(f"summary-{row['seat']}")
        expect(shown).to_contain_text(["Ann", "Bot 2"][row["seat"]])
        expect(shown.get_by_test_id("melded")).to_have_text(f"+{row['melded']}")
        expect(shown.get_by_test_id("in-hand")).to_have_text(str(row["in_hand"]))
        assert row["round_score"] == row["melded"] - row["in_hand"]  # the standard game's scoring
        assert len(row["hand"]) == 0 or shown.locator(".left-cards .card").count() == len(row["hand"])
        # The cards each seat laid stay in view, meld by meld (the table itself already holds the next deal).
        laid = [m for m in summary["melds"] if row["seat"] in m["laid_by"]]
        expect(shown.get_by_test_id(f"summary-melds-{row['seat']}").locator(".meld-cards")).to_have_count(len(laid))
    assert summary["went_out"] is None or summary["melds"]  # whoever went out had melded
    expect(page.get_by_test_id("summary-waiting")).to_have_text("Waiting for you.")
    # The score sheet has the round's row, and the log says the round ended.
    expect(page.get_by_test_id("score-sheet").locator("tbody tr")).to_have_count(1)
    expect(page.get_by_test_id("game-log")).to_contain_text("Round 1 over")
    assert state(page)["version"] == version  # nobody played on behind the summary
    # Ready: the next round goes on.
    page.get_by_test_id("round-over-ok").click()
    expect(banner).to_be_hidden()
    wait_for_my_move(page)
    assert legal(page)


def test_turn_marker_buttons_and_labels(server, new_page):
    page = new_page()
    create_table(page, server, name="Ann", seats=2, bots={1: "random"})
    wait_for_my_move(page)
    v = view(page)
    if v["to_move"] == 0:
        expect(page).to_have_title(MY_TURN_TITLE)
    # Before drawing, Meld and Discard stay disabled; Draw is enabled when legal.
    verbs = {verb(a) for a in legal(page)}
    if "draw" in verbs:
        expect(page.get_by_test_id("btn-draw")).to_be_enabled()
        expect(page.get_by_test_id("btn-discard")).to_be_disabled()
    # Cards are focusable buttons with spoken names; Space/Enter select them.
    first = page.get_by_test_id("hand").locator("button.card").first
    label = first.get_attribute("aria-label")
    assert re.fullmatch(r"(Ace|[2-9]|10|Jack|Queen|King) of (clubs|diamonds|hearts|spades)|Joker", label), label
    first.focus()
    page.keyboard.press("Space")
    expect(first).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("hand").locator("button.card").first).to_have_attribute("aria-pressed", "false")
    # Sorting by rank and by suit keeps the same cards.
    cards = sorted(view(page)["hand"])
    page.get_by_test_id("sort-rank").click()
    shown = page.get_by_test_id("hand").locator("button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(shown) == cards
    page.get_by_test_id("sort-suit").click()
    # The discard pile: a card below the top shows what would come along.
    pile = view(page)["discard"]
    takes = sorted(a["take"] for a in legal(page) if verb(a) == "take")
    deep = [n for n in takes if n > 1]
    if deep:
        n = deep[0]
        page.get_by_test_id(f"pile-card-{n}").click()
        preview = page.get_by_test_id("pile-preview")
        expect(preview).to_contain_text(f"Take {n} cards")
        expect(preview.locator(".card")).to_have_count(n)
        expect(page.get_by_test_id("btn-take")).to_be_enabled()
        page.get_by_test_id("btn-take-cancel").click()
        expect(preview).to_be_empty()
    elif pile and 1 in takes:
        page.get_by_test_id("pile-card-1").click()
        expect(page.get_by_test_id("btn-take")).to_be_enabled()
        page.get_by_test_id("btn-take-cancel").click()


def test_refusals_show_the_servers_reason(server, new_page):
    page = new_page()
    create_table(page, server, name="Ann", seats=2, bots={1: "random"})
    wait_for_my_move(page)
    # A move the buttons would never offer: the server's message is shown.
    page.evaluate("() => window.rummyConnection.action({discard: 'XX'})")
    banner = page.get_by_test_id("error-banner")
    expect(banner).to_be_visible()
    assert banner.inner_text().strip()


def test_reload_mid_game_and_continue(server, new_page):
    page = new_page()
    table_id = create_table(page, server, name="Ann", seats=2, bots={1: "random"})
    for _ in range(2):
        wait_for_my_move(page)
        play_simple_turn(page)
    wait_for_my_move(page)
    before = view(page)
    page.reload()
    expect(page.get_by_test_id("hand")).to_be_visible()
    wait_for_my_move(page)
    after = view(page)
    assert after["seat"] == before["seat"] == 0
    assert sorted(after["hand"]) == sorted(before["hand"])
    assert re.search(rf"/t/{re.escape(table_id)}$", page.url)
    # A dropped socket reconnects by itself and play goes on.
    page.evaluate("() => window.rummyConnection.drop()")
    status = page.get_by_test_id("conn-status")
    expect(status).not_to_have_text("connected")
    expect(status).to_have_text("connected", timeout=15_000)
    for _ in range(2):
        wait_for_my_move(page)
        if page.get_by_test_id("round-over").is_visible():
            break
        play_simple_turn(page)


# (Behaviour, not layout: one screen size is enough, the laptop. CI time is counted.)
@pytest.mark.parametrize("size", [(1366, 768)], ids=["laptop"])
def test_a_name_being_typed_survives_the_waiting_room_changing(server, new_page, size):
    """Someone else arriving re-renders the waiting room: the typed name and the Join button stay."""
    ann = new_page(*size)
    bob = new_page(*size)
    create_table(ann, server, name="Ann", seats=3, bots={}, start=False)
    invite = ann.get_by_test_id("invite-link").input_value()
    frames: list[str] = []
    bob.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    bob.goto(invite)
    expect(bob.get_by_test_id("seat-list")).to_contain_text("Ann")
    bob.get_by_test_id("join-name").fill("Bob")
    seen = len(frames)
    carol = new_page(*size)
    carol.goto(invite)  # a spectator arrives: every page at the table gets the table again
    deadline = 50
    while len(frames) == seen and deadline:
        bob.wait_for_timeout(100)
        deadline -= 1
    assert len(frames) > seen, "Bob's page never heard of the new spectator"
    expect(bob.get_by_test_id("join-name")).to_have_value("Bob")
    bob.get_by_test_id("join-table").click()
    expect(ann.get_by_test_id("seat-list")).to_contain_text("Bob")
    expect(carol.get_by_test_id("seat-list")).to_contain_text("Bob")


def _two_players(server, new_page):
    """Ann creates a table, Bob joins by the invite link, Ann starts."""
    ann = new_page()
    bob = new_page()
    create_table(ann, server, name="Ann", seats=2, bots={}, start=False)
    invite = ann.get_by_test_id("invite-link").input_value()
    assert "/t/" in invite
    bob.goto(invite)
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-table").click()
    expect(ann.get_by_test_id("seat-list")).to_contain_text("Bob")
    expect(bob.get_by_test_id("start-game")).to_have_count(0)
    start_game(ann)
    expect(bob.get_by_test_id("hand")).to_be_visible()
    expect(bob.get_by_test_id("player-0")).to_contain_text("Ann")
    return ann, bob


def _say(page, text, *, button=False):
    """Type a chat line and send it (with Enter, or the Send button)."""
    page.get_by_test_id("chat-input").fill(text)
    if button:
        page.get_by_test_id("chat-send").click()
    else:
        page.get_by_test_id("chat-input").press("Enter")


def test_chat_in_the_waiting_room_and_at_the_table(server, new_page):
    ann = new_page()
    bob = new_page()
    create_table(ann, server, name="Ann", seats=2, bots={}, start=False)
    bob.goto(ann.get_by_test_id("invite-link").input_value())
    # A visitor reads the waiting room's chat but joins a seat to speak.
    expect(bob.get_by_test_id("chat-input")).to_be_disabled()
    expect(bob.get_by_test_id("chat-input")).to_have_attribute("placeholder", "Join a seat to chat")
    _say(ann, "anyone coming?")
    expect(bob.get_by_test_id("chat-list")).to_contain_text("Ann: anyone coming?")
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-table").click()
    expect(ann.get_by_test_id("seat-list")).to_contain_text("Bob")
    expect(bob.get_by_test_id("chat-input")).to_be_enabled()
    _say(bob, "here, deal!", button=True)
    expect(ann.get_by_test_id("chat-list")).to_contain_text("Bob: here, deal!")
    expect(ann.get_by_test_id("error-banner")).to_be_hidden()
    start_game(ann)
    expect(bob.get_by_test_id("hand")).to_be_visible()
    # The game goes on with what was said before it; a reload reads it back.
    bob.reload()
    expect(bob.get_by_test_id("hand")).to_be_visible()
    expect(bob.get_by_test_id("chat-list").locator("li")).to_have_text(["Ann: anyone coming?", "Bob: here, deal!"])
    # At the table: plain text, never HTML.
    _say(ann, "good luck")
    expect(bob.get_by_test_id("chat-list")).to_contain_text("Ann: good luck")
    _say(bob, "<b>you too</b>", button=True)
    expect(ann.get_by_test_id("chat-list")).to_contain_text("Bob: <b>you too</b>")


def test_two_players_in_two_browsers(server, new_page):
    ann, bob = _two_players(server, new_page)
    # Take turns; each side sees the other's discard on the pile.
    pages = {0: ann, 1: bob}
    for _ in range(6):
        ann.wait_for_function("() => window.rummy && window.rummy.view")
        to_move = view(ann)["to_move"]
        mover, other = pages[to_move], pages[1 - to_move]
        wait_for_my_move(mover)
        if mover.get_by_test_id("round-over").is_visible():
            break
        expect(mover).to_have_title(MY_TURN_TITLE)
        done = play_simple_turn(mover)
        # The other browser reaches the same version and sees the same pile.
        other.wait_for_function("(v) => window.rummy.version >= v", arg=state(mover)["version"])
        pile = view(mover)["discard"]
        assert view(other)["discard"] == pile
        if "discard" in done and pile:
            assert pile[-1] == done.rsplit(" ", 1)[1]
            expect(other.get_by_test_id("pile-card-1")).to_have_attribute("data-card", pile[-1])


def test_spectator_sees_no_hand(server, new_page):
    page = new_page()
    table_id = create_table(page, server, name="Ann", seats=2, bots={1: "random"})
    watcher = new_page()
    watcher.goto(f"{server}/t/{table_id}")
    expect(watcher.get_by_test_id("melds")).to_be_attached()
    watcher.wait_for_function("() => window.rummy && window.rummy.view")
    assert view(watcher).get("hand") is None
    expect(watcher.get_by_test_id("hand")).to_be_hidden()
    expect(watcher.get_by_test_id("status")).to_contain_text("Watching")


def test_house_rules_reach_the_table(server, new_page):
    page = new_page()
    table_id = create_table(
        page,
        server,
        name="Ann",
        seats=3,
        bots={1: "random", 2: "random"},
        preset="popular",
        house_rules={"target": 250, "min_run": 4},
        start=False,
    )
    info = _get(server, f"/api/tables/{table_id}")
    assert info["rules"].get("target") == 250
    assert info["rules"].get("min_run") == 4
    assert info["rules"].get("calling_rummy") == "pile" or info["rules"].get("preset") == "popular"
    assert len(info["seats"]) == 3


def test_screenshot_of_the_table(server, new_page, artifacts):
    page = new_page(1280, 800)
    table_id = create_table(page, server, name="Ann", seats=3, bots={1: "random", 2: "random"})
    for _ in range(3):
        wait_for_my_move(page)
        if page.get_by_test_id("round-over").is_visible():
            break
        play_simple_turn(page)
    wait_for_my_move(page)
    hand = page.get_by_test_id("hand").locator("button.card")
    hand.nth(0).click()
    hand.nth(1).click()
    page.screenshot(path=str(artifacts / "table.png"))
    # The same seat on a phone (a second tab of the same player).
    key = f"rummy500.seat.{table_id}"
    seat = page.evaluate("(k) => localStorage.getItem(k)", key)
    phone = new_page(390, 844)
    phone.goto(server + "/")
    expect(phone.get_by_test_id("create-table")).to_be_visible()
    # The lobby fits the phone's width, with the house rules open too: nothing scrolls sideways
    # (before 6 December a select's longest option widened the form past the screen).
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.get_by_test_id("house-rules").locator("summary").click()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(artifacts / "lobby-phone.png"), full_page=True)
    phone.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, seat])
    phone.goto(f"{server}/t/{table_id}")
    expect(phone.get_by_test_id("hand")).to_be_visible()
    phone.screenshot(path=str(artifacts / "table-phone.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert (artifacts / "table.png").stat().st_size > 10_000


def test_game_over_then_replay_and_record(server, new_page, artifacts):
    # On a phone: the whole game, its end screen and the replay fit a small screen. A one-round
    # game on the 32-card pack (five cards in the stock) ends in a few turns: the end is the subject.
    page = new_page(390, 844)
    table_id = create_table(
        page, server, name="Ann", seats=2, bots={1: "random"}, house_rules={"rounds": 1, "short_pack": True}, public=True
    )
    play_until_round_over(page)
    # The end: who won, the final totals, a replay link and the record.
    banner = page.get_by_test_id("round-over")
    expect(banner).to_contain_text("Game over")
    totals = _get(server, "/api/games")
    game = next(g for g in totals if g["id"] == table_id)
    names = ["Ann", "Bot 2"]
    expect(page.get_by_test_id("winner")).to_have_text(f"{names[game['winner']]} won the game!")
    best_first = sorted((0, 1), key=lambda s: -game["totals"][s])
    final = page.get_by_test_id("final-totals")
    # (the player's own line says so: "Ann (you)")
    expect(final.locator(".who")).to_have_text([names[s] + (" (you)" if s == 0 else "") for s in best_first])
    expect(final.locator(".num")).to_have_text([str(game["totals"][s]) for s in best_first])
    banner.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "game-over-phone.png"))
    with page.expect_download() as dl:
        page.get_by_test_id("game-over-download").click()
    record = json.loads(Path(dl.value.path()).read_text())
    assert record["players"] == names and len(record["rounds"]) == 1
    # A reload still shows the end screen.
    page.reload()
    expect(page.get_by_test_id("winner")).to_be_visible()
    page.get_by_test_id("game-over-replay").click()
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of")
    page.goto(server + "/#replays")
    link = page.get_by_test_id(f"game-{table_id}")
    expect(link).to_be_visible()
    link.click()
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 0 of")
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-step")).to_contain_text("move 1 of")
    expect(page.get_by_test_id("replay-action")).to_contain_text("Move 1")
    expect(page.get_by_test_id("replay-round")).to_contain_text(re.compile(r"Round 1 · (Ann|Bot 2) to "))
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("replay-step")).not_to_contain_text("move 1 of")
    # The last step is the round's end, with what each seat melded and kept (not a raw phase code).
    expect(page.get_by_test_id("replay-round")).to_have_text("Round 1 · round over")
    expect(page.get_by_test_id("replay-round-over")).to_contain_text("melded")
    with page.expect_download() as dl:
        page.get_by_test_id("download-record").click()
    record = json.loads(Path(dl.value.path()).read_text())
    assert record["rounds"] or record.get("actions")
