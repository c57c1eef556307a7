"""The session and the hub in isolation: storage first, refusals change nothing, slow sockets."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from typing import Any

import pytest

from rummy500.server.engine import LiveGame, parse_rules
from rummy500.server.hub import CLOSE_TOO_SLOW, Connection, encode
from rummy500.server.session import MatchSession, SeatInfo, SessionError
from rummy500.server.storage import ChatLine, ConflictError, StorageError

from .helpers import run_async


class Store:
    """An action log that can be told to fail."""

    def __init__(self, fail: Exception | None = None) -> None:
        self.fail = fail
        self.actions: list[tuple[int, int, dict[str, Any]]] = []
        self.chat: list[ChatLine] = []

    def append_action(self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool = False) -> None:
        if self.fail is not None:
            raise self.fail
        self.actions.append((seq, seat, action))

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        if self.fail is not None:
            raise self.fail
        self.chat.append(line)

    def finish(self, game_id: str, *, record: dict[str, Any], result: dict[str, Any]) -> None:
        pass


class Listener:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.stored_when_told: list[tuple[int, int]] = []
        self.heard: list[tuple[str, int]] = []  # each chat line told, with the lines stored then

    def state_changed(self, session: MatchSession) -> None:
        self.stored_when_told.append((session.version, len(self.store.actions)))

    def table_changed(self, session: MatchSession) -> None:
        pass

    def chat(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        self.heard.append((text, len(self.store.chat)))


def _session(store: Store) -> MatchSession:
    rules = parse_rules({"preset": "standard"}, 2)
    return MatchSession(
        game_id="g",
        title="t",
        rules=rules.to_mapping(),
        seats=[SeatInfo(0, "Ann", "human"), SeatInfo(1, "Bob", "human")],
        game=LiveGame(rules, ["Ann", "Bob"], 42),
        store=store,
        rng=random.Random(0),
    )


def test_an_action_is_stored_before_anyone_is_told() -> None:
    async def run() -> None:
        store = Store()
        session = _session(store)
        listener = Listener(store)
        session.listeners.append(listener)
        for _ in range(6):
            seat = session.game.to_move
            await session.submit(seat, session.version, session.game.view_dict(seat)["legal"][0])
        await session.close()
        assert listener.stored_when_told == [(v, v) for v in range(1, 7)]

    run_async(run())


@pytest.mark.parametrize(("failure", "broken"), [(StorageError("disk full"), False), (ConflictError("taken"), True)])
def test_a_failed_write_changes_nothing_and_tells_nobody(failure: Exception, broken: bool) -> None:
    async def run() -> None:
        store = Store(fail=failure)
        session = _session(store)
        listener = Listener(store)
        session.listeners.append(listener)
        seat = session.game.to_move
        before = session.game.view_dict(seat)
        with pytest.raises(SessionError) as refused:
            await session.submit(seat, 0, {"draw": "stock"})
        assert refused.value.code == "unavailable"
        assert session.version == 0 and session.game.view_dict(seat) == before
        assert listener.stored_when_told == []
        assert bool(session.broken) is broken
        store.fail = None
        if broken:  # another process owns the game now: this copy refuses to go on
            with pytest.raises(SessionError):
                await session.submit(seat, 0, {"draw": "stock"})
        else:  # a passing failure: try again
            await session.submit(seat, 0, {"draw": "stock"})
            assert session.version == 1
        await session.close()

    run_async(run())


class SlowStore(Store):
    """A store in another thread that takes longer for the first line than for the next."""

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        time.sleep(0.05 if line.text == "first" else 0.0)
        super().append_chat(game_id, line)


def test_chat_lines_are_stored_before_they_are_sent_and_in_the_order_said() -> None:
    async def run() -> None:
        store = SlowStore()
        session = _session(store)
        listener = Listener(store)
        session.listeners.append(listener)
        await asyncio.gather(session.chat(0, "first"), session.chat(1, "second"), session.chat(0, " third  "))
        assert [(line.seat, line.name, line.text) for line in store.chat] == [
            (0, "Ann", "first"),
            (1, "Bob", "second"),
            (0, "Ann", "third"),
        ]
        assert listener.heard == [("first", 1), ("second", 2), ("third", 3)]
        assert [m["text"] for m in session.chat_history()] == ["first", "second", "third"]
        with pytest.raises(SessionError, match="empty chat message"):
            await session.chat(0, "   ")
        with pytest.raises(SessionError, match="only seated players can chat"):
            await session.chat(None, "hello")
        assert len(store.chat) == 3  # refused lines are not kept
        await session.close()

    run_async(run())


def test_a_chat_line_the_store_fails_to_keep_is_still_sent(caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> None:
        store = Store(fail=StorageError("disk full"))
        session = _session(store)
        listener = Listener(store)
        session.listeners.append(listener)
        await session.chat(1, "can you hear me?")
        assert listener.heard == [("can you hear me?", 0)]
        assert session.chat_history() == [{"type": "chat", "seat": 1, "from": "Bob", "text": "can you hear me?"}]
        await session.close()

    with caplog.at_level(logging.WARNING, logger="rummy500.server.session.match"):
        run_async(run())
    assert "could not keep a chat line: disk full" in caplog.text
    assert "can you hear me" not in caplog.text  # what players say stays out of the logs


def test_the_chain_of_checks_names_each_refusal() -> None:
    async def run() -> None:
        session = _session(Store())
        seat = session.game.to_move
        cases = [
            (seat, 0, {"fly": 1}, "bad_message"),
            (None, 0, {"draw": "stock"}, "not_seated"),
            (seat, 3, {"draw": "stock"}, "stale_version"),
            (1 - seat, 0, {"draw": "stock"}, "not_your_turn"),
            (seat, 0, {"discard": "AS"}, "illegal_action"),
        ]
        for who, version, action, code in cases:
            with pytest.raises(SessionError) as refused:
                await session.submit(who, version, action)
            assert refused.value.code == code, (action, refused.value)
        assert session.version == 0
        await session.close()

    run_async(run())


def test_a_connection_that_falls_behind_is_closed() -> None:
    async def run() -> None:
        closed: list[int] = []
        gate = asyncio.Event()

        async def send(message: dict[str, Any]) -> None:
            await gate.wait()  # a client that never reads

        async def close(code: int) -> None:
            closed.append(code)

        conn = Connection("t", 0, send, close, max_queue=5)
        conn.start()
        for i in range(10):
            conn.push({"type": "state", "version": i})
        assert conn.dropped
        gate.set()
        for _ in range(20):
            await asyncio.sleep(0)
        assert closed == [CLOSE_TOO_SLOW]
        await conn.stop()

    run_async(run())


def test_the_state_text_a_socket_gets_is_the_state_message_encoded() -> None:
    """The broadcast's spliced JSON text is the state message itself, for every seat, all game long."""

    async def run() -> None:
        session = _session(Store())
        rng = random.Random(3)
        seen_round_over = False
        while not session.finished and session.version < 600:
            for seat in (0, 1, None):
                sent = session.state_text(seat, session.shared_json())
                assert json.loads(sent) == session.state_message(seat)
                assert sent == encode(session.state_message(seat))  # key order and spacing too
            seat = session.game.to_move
            await session.submit(seat, session.version, rng.choice(session.game.view_dict(seat)["legal"]))
            seen_round_over = seen_round_over or any(e["kind"] == "round_over" for e in session.log())
        assert seen_round_over
        assert json.loads(session.state_text(0)) == session.state_message(0)
        await session.close()

    run_async(run())
