"""The server audit's findings, fixed: what a client (or an operator) sees now.

F1 hints never take the threads storage runs in; F2 no ``decline`` in ``legal``,
and a hint to let a Rummy! chance pass says so in words; F3 leaving the table
never lengthens a turn; F4 reconnecting over and over floods no watcher; F5 an
error carries the game's version; F6 a table's options keep their JSON types.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummy500.actions import CallRummy, Decline
from rummy500.bots.hinting import Hint
from rummy500.server import hints
from rummy500.server.app import create_app
from rummy500.server.engine import LiveGame, parse_rules
from rummy500.server.hints import HINT_SEARCHES, LET_IT_PASS
from rummy500.server.pace import TableSettings
from rummy500.server.protocol import ErrorCode, HintMessage
from rummy500.server.session import MatchSession, SeatInfo
from rummy500.server.session import match as match_module
from rummy500.server.storage import ChatLine

from .helpers import create_table, fixed_seeds, join, make_settings, receive, run_async, start

DOCS = Path(__file__).resolve().parents[2] / "docs"


# ----------------------------------------------------------------- helpers
class Store:
    """An action log in memory that is not ``quick_appends``: its writes go through ``asyncio.to_thread``."""

    def __init__(self) -> None:
        self.actions: list[tuple[int, int, dict[str, Any]]] = []

    def append_action(self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool = False) -> None:
        self.actions.append((seq, seat, action))

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        pass

    def finish(self, game_id: str, *, record: dict[str, Any], result: dict[str, Any]) -> None:
        pass

    def actions_since(self, game_id: str, seq: int) -> list[Any]:
        return []


class Listener:
    """Counts what a hub would send every connection."""

    def __init__(self) -> None:
        self.states: list[dict[str, Any] | None] = []
        self.tables = 0

    def state_changed(self, session: MatchSession) -> None:
        self.states.append(session.pace_info()["clock"])

    def table_changed(self, session: MatchSession) -> None:
        self.tables += 1

    def chat(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        pass


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _session(
    game: LiveGame | None = None,
    *,
    players: int = 2,
    clock: Clock | None = None,
    settings: TableSettings | None = None,
    grace: float = 60.0,
    game_id: str = "g",
) -> MatchSession:
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    if game is None:
        game = LiveGame(parse_rules({"preset": "standard"}, players), names, 42)
    return MatchSession(
        game_id=game_id,
        title="t",
        rules={},
        seats=[SeatInfo(i, n, "human") for i, n in enumerate(names)],
        game=game,
        store=Store(),
        rng=random.Random(0),
        bot_delay=0.0,
        grace_seconds=grace,
        settings=settings,
        clock=clock or time.monotonic,
    )


class BlockedHints:
    """A hint search that blocks until released, counting how many run at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.started = 0

    def __call__(self, view: Any, seed: int, budget: float) -> dict[str, Any]:
        with self.lock:
            self.running += 1
            self.started += 1
            self.most = max(self.most, self.running)
        try:
            self.release.wait(30)  # a guard: a broken test never hangs the suite
            return {"action": view.legal[0].to_record(), "text": str(view.legal[0]), "reason": "r", "level": "medium"}
        finally:
            with self.lock:
                self.running -= 1


@pytest.fixture
def blocked(monkeypatch: pytest.MonkeyPatch) -> Iterator[BlockedHints]:
    fake = BlockedHints()
    monkeypatch.setattr(match_module, "hint_for", fake)
    try:
        yield fake
    finally:
        fake.release.set()


def _offer_position() -> tuple[LiveGame, int]:
    """A three-seat ``popular`` game at a position where a seat that is not to move may call Rummy! (or let it pass)."""
    for seed in range(1, 200):
        game = LiveGame(parse_rules({"preset": "popular"}, 3), ["Ann", "Bob", "Cy"], seed)
        rng = random.Random(seed)
        while not game.is_over and game.version < 600:
            for seat in range(3):
                if seat != game.to_move and any(isinstance(a, Decline) for a in game.view(seat).legal):
                    return game, seat
            actor = game.actors()[0]
            game.apply(actor, rng.choice(game.legal(actor)))
    raise AssertionError("no out-of-turn call found")


# ------------------------------------------------------------------- F1
def test_many_hints_at_once_never_hold_up_a_storage_call(blocked: BlockedHints) -> None:
    # The audit: hints ran in the default executor, which storage calls use too;
    # a dozen hints kept every table's reads and writes waiting for seconds.
    asked = HINT_SEARCHES * 3

    async def run() -> None:
        loop = asyncio.get_running_loop()
        # A small default pool, as on a small machine: were hints still in it, they would fill it.
        loop.set_default_executor(ThreadPoolExecutor(2))
        sessions = [_session(game_id=f"g{i}") for i in range(asked)]
        pending = [s.ask_hint(s.game.to_move) for s in sessions]
        for _ in range(1000):
            if blocked.started >= HINT_SEARCHES:
                break
            await asyncio.sleep(0.005)
        assert blocked.started == HINT_SEARCHES  # the others wait for a free hint thread
        # Storage calls meanwhile: a thread of the default pool, and a move stored through one.
        assert await asyncio.wait_for(asyncio.to_thread(lambda: "read"), 10) == "read"
        other = _session(game_id="other")
        mover = other.game.to_move
        await asyncio.wait_for(other.submit(mover, other.version, other.game.view_dict(mover)["legal"][0]), 10)
        assert other.version == 1 and len(other.store.actions) == 1  # type: ignore[attr-defined]
        assert blocked.running == HINT_SEARCHES and not any(p.done() for p in pending)  # all hints still blocked
        blocked.release.set()
        answers = await asyncio.wait_for(asyncio.gather(*pending), 30)
        assert [a["version"] for a in answers] == [0] * asked  # each asked hint answered, once
        assert blocked.most == HINT_SEARCHES and blocked.started == asked
        for s in [*sessions, other]:
            await s.close()

    run_async(run())


def test_a_table_page_loads_while_many_hints_are_searched(tmp_path: Path, blocked: BlockedHints) -> None:
    # The audit's probe: GET /api/tables/{other} took seconds while 12 hints ran.
    async def small_default_pool() -> None:
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(2))

    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, seed_source=fixed_seeds(3))) as client:
        assert client.portal is not None
        client.portal.call(small_default_pool)
        tables = []
        for _ in range(HINT_SEARCHES + 3):
            made = create_table(client)
            bob = join(client, made["table_id"], "Bob")
            start(client, made["table_id"], made["token"])
            tables.append((made["table_id"], {0: made["token"], 1: bob["token"]}))
        quiet = create_table(client, title="Elsewhere")
        sockets = []
        try:
            for table_id, tokens in tables:
                with client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
                    mover = receive(watcher, "state")["view"]["to_move"]
                ws = client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[mover]}")
                ws.__enter__()
                sockets.append(ws)
                receive(ws, "state")
                ws.send_json({"type": "hint"})
            deadline = time.monotonic() + 20
            while blocked.started < HINT_SEARCHES and time.monotonic() < deadline:
                time.sleep(0.01)
            assert blocked.started == HINT_SEARCHES
            # Another table's page and socket, while every hint thread is taken and more hints wait.
            got: dict[str, Any] = {}

            def read() -> None:
                got["info"] = client.get(f"/api/tables/{quiet['table_id']}")
                with client.websocket_connect(f"/ws/tables/{quiet['table_id']}?token={quiet['token']}") as ws:
                    got["first"] = ws.receive_json()

            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            reader.join(20)
            assert not reader.is_alive(), "the page waited for the hints"
            assert got["info"].status_code == 200 and got["info"].json()["title"] == "Elsewhere"
            assert got["first"]["type"] == "table"
            assert blocked.running == HINT_SEARCHES  # the hints are still being searched
            blocked.release.set()
            for ws in sockets:  # and each seat gets its one answer
                answer = receive(ws, "hint")
                assert answer["version"] == 0
        finally:
            blocked.release.set()
            for ws in sockets:
                ws.__exit__(None, None, None)


# ------------------------------------------------------------------- F2
def test_legal_lists_never_offer_a_decline() -> None:
    game, seat = _offer_position()
    engine_legal = game.view(seat).legal
    assert any(isinstance(a, Decline) for a in engine_legal)  # the engine's own list has one
    sent = game.view_dict(seat)["legal"]
    assert sent and all("decline" not in a for a in sent)
    assert any("rummy" in a for a in sent)  # the call itself is still offered
    assert not any(isinstance(a, Decline) for a in game.legal(seat))


@pytest.mark.parametrize("bot_says", [Decline(), None])
def test_a_hint_to_let_a_rummy_chance_pass_says_so_in_words(
    monkeypatch: pytest.MonkeyPatch, bot_says: Decline | None
) -> None:
    game, seat = _offer_position()
    monkeypatch.setattr(hints, "strongest_hint", lambda view, seed, budget: Hint(bot_says, "expert", "", 0.1))

    async def run() -> dict[str, Any]:
        session = _session(game, players=3)
        try:
            return await session.hint(seat)
        finally:
            await session.close()

    answer = run_async(run())
    assert answer["action"] is None  # nothing to send
    assert answer["text"] == LET_IT_PASS == "let the chance pass"
    assert answer["reason"].startswith("Calling Rummy! on the ")  # the page shows the move before it
    assert "nothing to send" in answer["reason"] and "{" not in answer["reason"]
    assert answer["level"] == "expert"
    HintMessage.model_validate(answer)  # the protocol's hint message allows it
    # The card named is one the seat may call on.
    pile = game.view(seat).discard
    depths = {a.depth for a in game.view(seat).legal if isinstance(a, CallRummy)}
    named = [hints.card_words(pile[-d]) for d in depths]
    assert any(n in answer["reason"] for n in named)


def test_a_hint_at_a_rummy_chance_can_still_be_to_call(monkeypatch: pytest.MonkeyPatch) -> None:
    game, seat = _offer_position()
    call = next(a for a in game.view(seat).legal if isinstance(a, CallRummy))
    monkeypatch.setattr(hints, "strongest_hint", lambda view, seed, budget: Hint(call, "expert", "", 0.1))
    answer = hints.hint_for(game.view(seat), 1)
    assert answer["action"] == call.to_record() and "rummy" in answer["action"]


# ------------------------------------------------------------------- F3
def test_leaving_the_table_never_lengthens_a_turn() -> None:
    # The audit: 30 s turns, 60 s grace; the person to move left at 25 s and kept the turn until 85 s.
    clock = Clock()

    async def run() -> None:
        session = _session(clock=clock, settings=TableSettings(turn_clock=30), grace=60.0)
        listener = Listener()
        session.listeners.append(listener)
        mover = session.game.to_move
        other = 1 - mover
        session.connect(mover)
        session.connect(other)
        clock.now += 25
        session.disconnect(mover)
        # Everyone sees the turn clock go on: 5 s left, not a fresh 60 s of grace.
        shown = session.pace_info()["clock"]
        assert shown["seat"] == mover and shown["kind"] == "turn" and shown["left"] == pytest.approx(5, abs=0.01)
        assert session.driver.next_auto()[:2] == (None, pytest.approx(5, abs=0.01))
        clock.now += 5.5  # 30.5 s into the turn, 5.5 s after leaving
        assert session.driver.next_auto() == (mover, None, False)
        session.kick()
        for _ in range(500):
            if session.version > 0:
                break
            await asyncio.sleep(0.01)
        assert session.version > 0
        played = [e for e in session.log() if e["kind"] == "action"]
        assert played[0]["seat"] == mover and played[0]["auto"] is True
        await session.close()

    run_async(run())


def test_an_away_player_whose_grace_ends_first_shows_the_away_clock() -> None:
    clock = Clock()
    session = _session(clock=clock, settings=TableSettings(turn_clock=120), grace=10.0)
    mover = session.game.to_move
    session.presence.connect(1 - mover)
    session.presence.connect(mover)
    clock.now += 20
    session.presence.disconnect(mover)
    shown = session.pace_info()["clock"]
    assert shown == {"seat": mover, "left": 10.0, "kind": "away"}
    assert session.driver.next_auto()[:2] == (None, pytest.approx(10))


# ------------------------------------------------------------------- F4
@pytest.mark.parametrize("flips", [20, 21])
def test_rapid_reconnects_send_watchers_at_most_one_state_per_gap(flips: int) -> None:
    # The audit: 20 close/reopen cycles of the mover's socket sent every watcher 38 states.
    async def run() -> None:
        session = _session()
        session.presence_resend_gap = 0.05
        session.presence_table_gap = 0.05
        listener = Listener()
        session.listeners.append(listener)
        mover = session.game.to_move
        session.connect(mover)
        session.connect(1 - mover)
        assert listener.states == []
        for i in range(flips):  # close, reopen, close, ...: within one gap
            if i % 2 == 0:
                session.disconnect(mover)
            else:
                session.connect(mover)
        # The first change is sent at once; the rest wait for the gap to end.
        assert listener.states == [{"seat": mover, "left": pytest.approx(60, abs=1), "kind": "away"}]
        for _ in range(200):
            await asyncio.sleep(0.01)
            if (len(listener.states) > 1 or session._resend_timer is None) and session._table_timer is None:
                break
        # Then one state for all the changes since, with the clock of that moment.
        assert len(listener.states) == 2
        last = listener.states[-1]
        if flips % 2:  # they ended away
            assert last is not None and (last["seat"], last["kind"]) == (mover, "away")
        else:  # they ended back: no countdown
            assert last is None
        # Who is connected: the first change at once, the rest in one message when the gap ends
        # (tests/server/test_abuse_fixes.py: churned sockets flood nobody).
        assert listener.tables == 2
        await session.close()

    run_async(run())


def test_a_reconnect_storm_reaches_the_other_seat_as_few_states(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, grace_seconds=60.0)
    with TestClient(create_app(settings, seed_source=fixed_seeds(3))) as client:
        made = create_table(client)
        bob = join(client, made["table_id"], "Bob")
        start(client, made["table_id"], made["token"])
        table_id, tokens = made["table_id"], {0: made["token"], 1: bob["token"]}
        with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            mover = receive(spectator, "state")["view"]["to_move"]
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1 - mover]}") as other:
            first = receive(other, "state")
            assert first["pace"]["clock"]["kind"] == "away"  # the person to move has not come yet
            began = time.monotonic()
            for _ in range(20):  # they open and close a socket, 20 times
                with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[mover]}") as ws:
                    receive(ws, "state")
            elapsed = time.monotonic() - began
            time.sleep(MatchSession.presence_resend_gap * 2)  # a change still due is sent by now
            other.send_text("a marker")  # answered by an error, after everything sent before it
            states: list[dict[str, Any]] = []
            tables = 0
            while (msg := other.receive_json())["type"] != "error":
                states += [msg] if msg["type"] == "state" else []
                tables += msg["type"] == "table"
            # Who is connected: at most one table message a gap (tests/server/test_abuse_fixes.py), not 40.
            table_gap = MatchSession.presence_table_gap
            assert 1 <= tables <= 1 + (elapsed + 2 * table_gap) / table_gap, (tables, elapsed)
            # 40 changes of the clock shown: states at least a gap apart, over the flips and the wait
            # after them (there were 38 states).
            gap = MatchSession.presence_resend_gap
            assert len(states) <= 1 + (elapsed + 2 * gap) / gap, (len(states), elapsed)
            assert all(m["version"] == 0 for m in states)
            # What the other seat shows in the end is where things stand: the person to move is away.
            assert [first, *states][-1]["pace"]["clock"] == {
                "seat": mover,
                "left": pytest.approx(60, abs=5),
                "kind": "away",
            }


# ------------------------------------------------------------------- F5
def test_every_error_at_a_running_game_carries_its_version(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings, seed_source=fixed_seeds(3))) as client:
        lobby = create_table(client)
        with client.websocket_connect(f"/ws/tables/{lobby['table_id']}?token={lobby['token']}") as ws:
            receive(ws, "table")
            ws.send_text("not json")
            assert receive(ws, "error")["version"] is None  # the waiting room: no game yet
        made = create_table(client)
        bob = join(client, made["table_id"], "Bob")
        start(client, made["table_id"], made["token"])
        with (
            client.websocket_connect(f"/ws/tables/{made['table_id']}?token={bob['token']}") as seat,
            client.websocket_connect(f"/ws/tables/{made['table_id']}") as spectator,
        ):
            version = receive(seat, "state")["version"]
            receive(spectator, "state")
            sent = [
                (seat, "not json", "bad_message"),
                (seat, {"type": "action", "version": version, "action": {"take": 1, "split": "x"}}, "bad_message"),
                (seat, {"type": "action", "version": version, "action": {"decline": True}}, "bad_message"),
                (seat, {"type": "ready"}, "nothing_to_ready"),
                (seat, {"type": "chat", "text": "   "}, "bad_message"),
                (spectator, {"type": "chat", "text": "hi"}, "not_seated"),
                (spectator, {"type": "action", "version": version, "action": {"draw": "stock"}}, "not_seated"),
                (spectator, {"type": "hint"}, "not_seated"),
            ]
            for ws, text, code in sent:
                ws.send_text(text if isinstance(text, str) else json.dumps(text))
                error = receive(ws, "error")
                assert error["code"] == code, (text, error)
                assert error["version"] == version, (text, error)


def _table_rows(text: str, header: str) -> list[list[str]]:
    """The rows (cells) of the markdown table whose header line starts with ``header``."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[first + 2 :]:
        if not line.startswith("|"):
            break
        assert line.rstrip().endswith("|"), line
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def test_the_protocols_error_tables_are_whole() -> None:
    text = (DOCS / "protocol.md").read_text()
    errors = _table_rows(text, "| code | where | meaning |")
    closes = _table_rows(text, "| code | meaning | the page |")
    assert all(len(r) == 3 for r in errors) and all(len(r) == 3 for r in closes)
    assert [r[0] for r in closes] == ["4401", "4403", "4404", "4408", "4410", "4429", "1013"]
    listed = " ".join(r[0] for r in errors)
    for code in [*ErrorCode.__args__, "not_finished", "no_step", "bad_request", "too_large"]:  # type: ignore[attr-defined]
        assert f"`{code}`" in listed, code
    assert re.search(r"`version` is the game's current version on every error", text)


# ------------------------------------------------------------------- F6
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("hints", "yes"),
        ("hints", 1),
        ("public", "true"),
        ("seats", "3"),
        ("seats", 3.0),
        ("seats", True),
        ("turn_clock", 30.0),
    ],
)
def test_a_table_option_of_the_wrong_type_is_refused(client: TestClient, field: str, value: Any) -> None:
    res = client.post("/api/tables", json={"name": "Ann", field: value})
    assert res.status_code == 422, res.text
    detail = res.json()["detail"]
    assert detail["code"] == "bad_request"
    assert detail["message"].startswith(field), detail


def test_a_join_name_of_the_wrong_type_is_refused(client: TestClient) -> None:
    made = create_table(client)
    res = client.post(f"/api/tables/{made['table_id']}/join", json={"name": 5})
    assert res.status_code == 422 and res.json()["detail"]["message"].startswith("name")


def test_rules_players_must_agree_with_seats(client: TestClient) -> None:
    res = client.post("/api/tables", json={"name": "Ann", "seats": 2, "rules": {"players": 4}})
    assert res.status_code == 422, res.text
    detail = res.json()["detail"]
    assert detail["code"] == "bad_rules"
    assert "players" in detail["message"] and "seats (2)" in detail["message"]
    assert any("players" in p for p in detail["problems"])
    # Other problems are listed with it, all at once.
    both = client.post("/api/tables", json={"name": "Ann", "seats": 2, "rules": {"players": 4, "target": "lots"}})
    assert both.status_code == 422 and len(both.json()["detail"]["problems"]) >= 2
    # The same number is fine.
    same = create_table(client, seats=3, rules={"players": 3})
    assert client.get(f"/api/tables/{same['table_id']}").json()["rules"]["players"] == 3
