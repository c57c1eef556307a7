"""No message to a seat names a card hidden from it, over many seeded bot games.

Each game is played to the end by bots through a real :class:`MatchSession`
and :class:`Hub`; a connection for every seat and one spectator captures what
the hub sends. After every accepted action a listener notes, from the true
position, which cards each seat cannot see: the stock, and every other hand
except the cards that seat was seen taking from the pile. Then every captured
message is checked against the position of its version.

Cards of earlier rounds in the log (the last round's events) are history, not
the current deal, and are checked only against their own round by the engine's
view rules; they are left out here. Jokers are alike, so they are not tracked.

The round summary (``last_round``, and ``pace.summary`` while it holds the
table) lays the finished round's hands open, as players do when a round is
counted: it is checked to name no card that was still in that round's stock.
Hints (for the asking seat only) are checked against that seat's own view:
the move, and its words (``Q♥`` read back as ``QH``). Rummy!-call windows
(``pace.call_window``) are part of every state message checked here; one game
runs with a bot delay so that they really open. Replays and records answer
only once a game is over (``test_api``), when every hand may be shown.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from typing import Any

import orjson
import pytest

from rummy500.server.engine import LiveGame, parse_rules
from rummy500.server.hub import Connection, Hub, state_message
from rummy500.server.session import MatchSession, SeatInfo
from rummy500.server.storage import ChatLine

from .helpers import run_async

CARD = re.compile(r"(?<![A-Za-z0-9=])([A2-9TJQK][CDHS])(?![A-Za-z0-9])")
DECLARED = re.compile(r"JK=[A2-9TJQK][CDHS]")


class MemoryStore:
    """An in-memory action log."""

    def __init__(self) -> None:
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.finished: dict[str, Any] | None = None

    def append_action(self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool = False) -> None:
        assert seq == len(self.actions)
        self.actions.append((seat, action))

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        pass

    def finish(self, game_id: str, *, record: dict[str, Any], result: dict[str, Any]) -> None:
        self.finished = {"record": record, "result": result}


def _named(data: Any) -> Counter[str]:
    # orjson (the server's encoder) keeps a suit sign a sign, so a card name right after one is still read.
    return Counter(CARD.findall(DECLARED.sub("", orjson.dumps(data).decode())))


def summaries(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The round summaries a state message carries."""
    pace = message.get("pace") or {}
    return [x for x in (message.get("last_round"), pace.get("summary")) if x]


def cards_named(message: dict[str, Any], current_round: int) -> Counter[str]:
    """Card names in a message, leaving out the table facts, earlier rounds' log and round summaries."""
    body = {k: v for k, v in message.items() if k not in ("table", "log", "last_round", "pace")}
    body["log"] = [e for e in message.get("log", []) if e.get("round", current_round) >= current_round]
    body["pace"] = {k: v for k, v in (message.get("pace") or {}).items() if k != "summary"}
    return _named(body)


class Snapshots:
    """Per version: the round, and per seat the hidden and the visible cards."""

    def __init__(self) -> None:
        self.by_version: dict[int, tuple[int, dict[int | None, tuple[Counter[str], Counter[str]]]]] = {}
        #: Per round, the cards outside the stock at its last position (hands, pile, melds).
        self.dealt_end: dict[int, Counter[str]] = {}

    def take(self, session: MatchSession) -> None:
        match = session.game.match
        state = match.state
        n = len(state.hands)
        stock = Counter(str(c) for c in state.stock)
        if not state.is_over:
            out = Counter(str(c) for hand in state.hands for c in hand) + Counter(str(c) for c in state.public.discard)
            for meld in state.public.melds:
                out.update(c for c in meld.to_dict()["cards"] if not c.startswith("JK"))
            self.dealt_end[match.round_index] = out
        per_seat: dict[int | None, tuple[Counter[str], Counter[str]]] = {}
        public = Counter(str(c) for c in state.public.discard)
        for meld in state.public.melds:
            public.update(c for c in meld.to_dict()["cards"] if not c.startswith("JK"))
        for k in state.public.known:
            public.update(str(c) for c in k)
        for seat in [*range(n), None]:
            hidden = Counter(stock)
            for other in range(n):
                if other == seat:
                    continue
                unseen = Counter(str(c) for c in state.hands[other]) - Counter(str(c) for c in state.public.known[other])
                hidden.update(unseen)
            visible = Counter(public)
            if seat is not None:
                visible.update(str(c) for c in state.hands[seat])
            del hidden["JK"]
            if session.finished:
                hidden = Counter()  # the game is over: every hand may be shown
            per_seat[seat] = (hidden, visible)
        self.by_version[session.version] = (match.round_index, per_seat)

    # SessionListener
    def state_changed(self, session: MatchSession) -> None:
        self.take(session)

    def table_changed(self, session: MatchSession) -> None:
        pass

    def chat(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        pass


def check_message(message: dict[str, Any], seat: int | None, snapshots: Snapshots) -> None:
    assert message["type"] in ("state", "table", "chat", "chat_history", "error"), message
    if message["type"] != "state":
        return
    round_index, per_seat = snapshots.by_version[message["version"]]
    hidden, visible = per_seat[seat]
    named = cards_named(message, round_index)
    leaked = {c for c in named if hidden[c] and not visible[c]}
    assert not leaked, f"seat {seat} was sent hidden cards {leaked} at version {message['version']}"
    for summary in summaries(message):
        # Two packs hold two of a card: count copies, not names.
        in_stock = _named(summary) - snapshots.dealt_end[summary["round"]]
        assert not in_stock, f"the summary of round {summary['round']} names stock cards {set(in_stock)}"
    if message["view"]["seat"] != seat:
        raise AssertionError(f"seat {seat} was sent the view of seat {message['view']['seat']}")


async def play_bot_game(
    preset: str,
    players: int,
    seed: int,
    extra: dict[str, Any],
    levels: tuple[str, ...] = ("random",),
    bot_delay: float = 0.0,
) -> tuple[int, int, int]:
    """Play a bot game through a session and a hub; check every message sent.

    Returns the actions played, the messages checked and how many of them
    showed an open Rummy!-call window.
    """
    rules_map = {"preset": preset, **extra}
    rules = parse_rules(rules_map, players)
    names = [f"P{i}" for i in range(players)]
    store = MemoryStore()
    session = MatchSession(
        game_id=f"leak-{preset}-{seed}",
        title="leak test",
        rules=rules.to_mapping(),
        seats=[SeatInfo(seat=i, name=names[i], kind="bot", bot_level=levels[i % len(levels)]) for i in range(players)],
        game=LiveGame(rules, names, seed),
        store=store,
        bot_delay=bot_delay,
        call_window=2.0,  # with no person seated, windows last the bot delay
        rng=random.Random(seed),
    )
    snapshots = Snapshots()
    snapshots.take(session)
    hub = Hub()
    captured: dict[int | None, list[dict[str, Any]]] = {}
    for seat in [*range(players), None]:
        box: list[dict[str, Any]] = []
        captured[seat] = box

        async def send(text: str, box: list[dict[str, Any]] = box) -> None:
            box.append(orjson.loads(text))

        async def close(code: int) -> None:
            raise AssertionError("a connection was dropped")

        conn = Connection(session.game_id, seat, send, close, max_queue=100_000)
        hub.add(conn)
        conn.start()
        conn.push(state_message(session, seat))
    session.listeners[:] = [snapshots, hub]
    session.start()
    for _ in range(20_000):
        if session.driver.idle and (session.finished or session.driver.next_auto()[:2] == (None, None)):
            break
        await asyncio.sleep(0.001)
    for _ in range(20):
        await asyncio.sleep(0)
    await session.close()
    for conn in hub.connections(session.game_id):
        await conn.stop()
    count = windows = 0
    for seat, messages in captured.items():
        assert messages and messages[-1]["version"] == session.version
        for message in messages:
            check_message(message, seat, snapshots)
            count += 1
            windows += bool((message.get("pace") or {}).get("call_window"))
    assert session.finished, f"{preset} seed {seed} stalled at version {session.version}"
    assert store.finished is not None and len(store.actions) == session.version
    return session.version, count, windows


GAMES = [
    ("standard", 2, {"target": 150}),
    ("popular", 3, {"target": 150}),
    ("popular", 4, {"target": 100}),
    ("popular", 3, {"target": 100, "levels": ("medium", "easy", "random")}),
    ("quick", 3, {"target": 40}),
    ("hoyle", 2, {"target": 150}),
    ("boathouse", 3, {"target": 100}),
    ("partnership", 4, {"target": 150}),
    ("standard", 5, {"rounds": 1}),
    ("popular", 6, {"rounds": 1, "calling_rummy": "top_card"}),
    ("dealers_gambit", 3, {"rounds": 1}),
    ("persian", 4, {"rounds": 1}),
]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("preset", "players", "extra"), GAMES)
def test_no_message_names_a_hidden_card(preset: str, players: int, extra: dict[str, Any], seed: int) -> None:
    options = dict(extra)
    levels = options.pop("levels", ("random",))
    actions, messages, _ = run_async(play_bot_game(preset, players, seed, options, levels))
    assert actions > 10 and messages > actions


def test_call_window_messages_name_no_hidden_card() -> None:
    """Bots that wait out a (short) Rummy! window: the window's messages are checked like the rest."""
    actions, messages, windows = run_async(play_bot_game("popular", 3, 5, {"rounds": 1}, bot_delay=0.001))
    assert windows > 0 and messages > actions


_WORDS = re.compile(r"(10|[A2-9JQK])([\u2663\u2666\u2665\u2660])")
_SUIT_LETTER = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


def hint_cards(hint: dict[str, Any]) -> Counter[str]:
    """The cards a hint names: in its move, and in its words (``Q♥`` read as ``QH``; a joker's "as 7♠" is no card)."""
    words = re.sub(r"joker \(as [^)]*\)", "joker", f"{hint['text']} {hint['reason']}")
    words = _WORDS.sub(lambda m: ("T" if m[1] == "10" else m[1]) + _SUIT_LETTER[m[2]], words)
    return _named({"action": hint["action"], "words": words})


@pytest.mark.parametrize(("preset", "players", "seed"), [("popular", 3, 1), ("partnership", 4, 2), ("standard", 5, 3)])
def test_hints_name_no_hidden_card(preset: str, players: int, seed: int) -> None:
    """A hint, asked at every third position by whoever may move, names only cards that seat can see."""
    from rummy500.server.hints import hint_for

    game = LiveGame(parse_rules({"preset": preset, "rounds": 1}, players), [f"P{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    snapshots = Snapshots()
    asked = named = 0
    while not game.is_over and game.version < 150:
        snapshots.take(_Replayed(game))
        hidden_of = snapshots.by_version[game.version][1]
        movers = [s for s in range(players) if game.legal(s)]
        for seat in movers if game.version % 3 == 0 else []:
            hint = hint_for(game.view(seat), rng.getrandbits(32), 0.0)  # no time: the medium bot answers
            hidden, visible = hidden_of[seat]
            leaked = {c for c in hint_cards(hint) if hidden[c] and not visible[c]}
            assert not leaked, f"a hint to seat {seat} named hidden cards {leaked} at version {game.version}: {hint}"
            asked += 1
            named += bool(hint_cards(hint))
        seat = game.match.state.public.to_move if game.legal(game.match.state.public.to_move) else movers[0]
        game.apply(seat, rng.choice(game.legal(seat)))
    assert asked > 10 and named > 5  # the check looks at real card names
    assert hint_cards(
        {"action": {"draw": "stock"}, "text": "", "reason": "the 10\u2665, not the joker (as 7\u2660)"}
    ) == {"TH": 1}


class _Replayed:
    """What :meth:`Snapshots.take` reads, for a game rebuilt from its log."""

    def __init__(self, game: LiveGame) -> None:
        self.game = game

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def finished(self) -> bool:
        return self.game.is_over


def test_websocket_messages_of_whole_games_name_no_hidden_card(tmp_path) -> None:
    from fastapi.testclient import TestClient

    from rummy500.server.app import create_app
    from rummy500.server.engine import parse_action
    from rummy500.server.storage import open_storage

    from .helpers import TableDriver, create_table, fixed_seeds, join, make_settings, start

    settings = make_settings(tmp_path)
    for seed in (1, 2):
        with TestClient(create_app(settings, seed_source=fixed_seeds(seed))) as client:
            made = create_table(client, seats=3, preset="popular", rules={"target": 100}, bots={"2": "random"})
            table_id = made["table_id"]
            bob = join(client, table_id, "Bob")
            start(client, table_id, made["token"])
            with (
                client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ws0,
                client.websocket_connect(f"/ws/tables/{table_id}?token={bob['token']}") as ws1,
                client.websocket_connect(f"/ws/tables/{table_id}") as spec,
            ):
                driver = TableDriver({0: ws0, 1: ws1}, seed=seed)
                final = driver.play()
                driver.catch_up(final["version"])
                spectator: list[dict[str, Any]] = []
                while (
                    not spectator
                    or spectator[-1].get("version") != final["version"]
                    or spectator[-1]["type"] != "state"
                ):
                    spectator.append(spec.receive_json())
        storage = open_storage(settings.database_url())
        log = [(a.seat, a.action) for a in storage.actions(table_id)]
        row = storage.get_game(table_id)
        storage.close()
        assert row is not None and len(log) == final["version"]
        game = LiveGame(parse_rules(row.rules, 3), row.players, row.seed or 0)
        snapshots = Snapshots()
        snapshots.take(_Replayed(game))
        for seat, record in log:
            game.apply(seat, parse_action(record))
            snapshots.take(_Replayed(game))
        assert game.is_over
        checked = 0
        for seat, messages in [*driver.received.items(), (None, spectator)]:
            for message in messages:
                check_message(message, seat, snapshots)
                checked += 1
        assert checked > 2 * len(log)


def test_a_hint_goes_to_the_asker_only(tmp_path) -> None:
    """Over the websockets: the seat that asks gets the hint; the other seat and a spectator never see it."""
    from fastapi.testclient import TestClient

    from rummy500.server.app import create_app

    from .helpers import create_table, fixed_seeds, join, make_settings, receive, start

    with TestClient(create_app(make_settings(tmp_path), seed_source=fixed_seeds(3))) as client:
        made = create_table(client, seats=2)
        table_id = made["table_id"]
        bob = join(client, table_id, "Bob")
        start(client, table_id, made["token"])
        with (
            client.websocket_connect(f"/ws/tables/{table_id}?token={made['token']}") as ann_ws,
            client.websocket_connect(f"/ws/tables/{table_id}?token={bob['token']}") as bob_ws,
            client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
        ):
            first = receive(ann_ws, "state")
            sockets = {0: ann_ws, 1: bob_ws}
            mover = first["view"]["to_move"]
            asker, other = sockets[mover], sockets[1 - mover]
            asker.send_json({"type": "hint"})
            hint = receive(asker, "hint")
            assert hint["version"] == first["version"] and hint["reason"]
            assert hint["level"] in ("expert", "hard", "medium")  # the hint names the bot that chose it
            spectator.send_json({"type": "hint"})
            assert receive(spectator, "error")["code"] == "not_seated"
            # The asker then says something: everyone gets the chat; nobody else got the hint before it.
            asker.send_json({"type": "chat", "text": "thanks"})
            for ws in (other, spectator):
                seen = []
                while not (seen and seen[-1]["type"] == "chat"):
                    seen.append(ws.receive_json())
                assert all(m["type"] != "hint" for m in seen), seen
