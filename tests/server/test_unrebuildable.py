"""Stored games this version of the engine can no longer rebuild (their moves are refused now).

An older version stored the moves of a game (rules + seed + moves); a rules fix
since, or a deal that changed, makes the current engine refuse one of them.
Such a game is refused in words that name no card (the engine's own message
may name a card of a hidden hand), remembered so that it is never replayed
again before a restart, and the rest of the server is unaffected: a socket is
closed with 4410 (final: the page does not retry), the replay answers 409
``damaged``, the record and seed are still given.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import shutil
import stat
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import rummy500.server.manager as manager_module
from rummy500.server.app import create_app
from rummy500.server.bus import MemoryBroker, MemoryBus
from rummy500.server.config import Settings
from rummy500.server.engine import IllegalAction, LiveGame, parse_action, parse_rules
from rummy500.server.manager import DAMAGED_MESSAGE, hash_token
from rummy500.server.storage import SeatRow, open_storage
from rummy500.server.storage.sql import SqliteStorage

from .helpers import act, make_settings, receive, ws_path

#: A card as the engine names it (``7H``, ``TS``, ``JK``).
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")
#: The damaged games' seeds (the replays are counted per seed).
BAD_RUNNING, BAD_FINISHED, GOOD = 1001, 1002, 1003
#: The record a finished game was stored with (an older version's): given back as it is.
OLD_RECORD = {"format": "rummy500-record", "note": "kept by an older version", "rounds": []}


@dataclass
class Stored:
    """A game written straight into storage, as an older version of the server left it."""

    table_id: str
    tokens: dict[int, str]
    #: A card of a hidden hand the engine's refusal names ("you do not hold ..."), or None.
    hidden_card: str | None = None
    refusal: str | None = None
    #: The seat to move after the stored moves (a healthy game).
    to_move: int = 0


def _store_game(settings: Settings, seed: int, *, damaged: bool, finished: bool = False) -> Stored:
    """A two-person game: the first to move draws, then discards (a card of the other's hand: refused now)."""
    storage = open_storage(settings.database_url())
    try:
        table_id = secrets.token_urlsafe(16)
        tokens = {0: secrets.token_urlsafe(24), 1: secrets.token_urlsafe(24)}
        rules = parse_rules({"players": 2}, 2)
        storage.create_table(
            game_id=table_id,
            title="An older version's table",
            rules=rules.to_mapping(),
            seats=[SeatRow(0, "human", "Ann"), SeatRow(1, "open")],
            creator_token_hash=hash_token(tokens[0]),
            settings={"public": True},
        )
        assert storage.join(table_id, "Bob", hash_token(tokens[1])) == 1
        row = storage.start(table_id, seed=seed, bot_level="random")
        game = LiveGame(parse_rules(row.rules, 2), row.players, seed)
        mover = game.actors()[0]
        other = 1 - mover
        game.apply(mover, parse_action({"draw": "stock"}))
        stored = Stored(table_id, tokens, to_move=other)
        if damaged:
            # A card the other seat holds: the engine's refusal names a card of a hidden hand.
            card = next(c for c in game.hands()[other] if c not in game.hands()[mover])
            discard: dict[str, Any] = {"discard": card}
            with pytest.raises(IllegalAction) as refused:
                game.apply(mover, parse_action(discard))
            assert card in str(refused.value)  # what must never reach a page
            stored.hidden_card, stored.refusal = card, str(refused.value)
        else:
            discard = game.view_dict(mover)["legal"][-1]
        storage.append_action(table_id, 0, mover, {"draw": "stock"})
        storage.append_action(table_id, 1, mover, discard)
        if finished:
            storage.finish(table_id, record=OLD_RECORD, result={"totals": [0, 0], "winner": None})
        return stored
    finally:
        storage.close()


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, int]]:
    """How many times the manager replayed each game (by its seed): rebuilding a session, or a replay's steps."""
    counts: Counter[tuple[str, int]] = Counter()
    for name in ("rebuild", "replay_steps"):
        real = getattr(manager_module, name)

        def counting(rules: Any, names: Any, seed: int, actions: Any, *, _real: Any = real, _name: str = name) -> Any:
            counts[_name, seed] += 1
            return _real(rules, names, seed, actions)

        monkeypatch.setattr(manager_module, name, counting)
    return counts


def _refused_socket(client: TestClient, path: str) -> tuple[list[str], WebSocketDisconnect]:
    """Open a socket that the server refuses: the texts it sent, and how it closed."""
    sent: list[str] = []
    with client.websocket_connect(path) as ws, pytest.raises(WebSocketDisconnect) as closed:
        while True:
            sent.append(ws.receive_text())
    return sent, closed.value


def _no_cards(texts: list[str], stored: Stored) -> None:
    for text in texts:
        # (The table's id is random letters and digits: "-7H_" in it is no card.)
        assert not CARD.search(text.replace(stored.table_id, "")), text
        assert stored.refusal is None or stored.refusal not in text


def test_a_socket_at_a_game_that_cannot_be_rebuilt_is_closed_for_good_once_replayed(
    tmp_path: Path, replays: Counter[tuple[str, int]], caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tmp_path)
    bad = _store_game(settings, BAD_RUNNING, damaged=True)
    good = _store_game(settings, GOOD, damaged=False)
    caplog.set_level(logging.INFO)
    with TestClient(create_app(settings)) as client:
        # Startup tried it once (and logged why, with the engine's words, at the server only).
        assert replays["rebuild", BAD_RUNNING] == 1
        texts: list[str] = []
        # A page that comes back again and again (a seat, the other seat, a spectator): refused at once.
        for path in [
            ws_path(bad.table_id, bad.tokens[0]),
            ws_path(bad.table_id, bad.tokens[1]),
            ws_path(bad.table_id),
        ] * 3:
            sent, closed = _refused_socket(client, path)
            # Closed for good (the page does not retry 4410), why in the close reason; nothing else sent.
            assert closed.code == 4410
            assert closed.reason == f"{DAMAGED_MESSAGE}: a stored move breaks its rules now"
            assert len(closed.reason.encode()) <= 123
            assert sent == []
            texts.append(closed.reason)
        # No retry storm: never replayed again.
        assert replays["rebuild", BAD_RUNNING] == 1
        # Its lobby facts are still answered (no 500).
        info = client.get(f"/api/tables/{bad.table_id}")
        assert info.status_code == 200 and info.json()["status"] == "running"
        texts.append(info.text)
        _no_cards(texts, bad)
        # The other table plays on.
        with client.websocket_connect(ws_path(good.table_id, good.tokens[good.to_move])) as ws:
            state = receive(ws, "state")
            assert state["version"] == 2 and state["table"]["status"] == "running"
            act(ws, 2, {"draw": "stock"})
            assert receive(ws, "state", version=3)["version"] == 3
    said = [r for r in caplog.records if "cannot be rebuilt" in r.getMessage()]
    assert len(said) == 1 and bad.refusal is not None and bad.refusal in said[0].getMessage()
    # One line, no traceback (nothing else of the game's failure is logged).
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert not [r for r in caplog.records if "could not be restored" in r.getMessage()]


def test_the_replay_of_a_finished_game_that_cannot_be_rebuilt_is_a_json_error_and_its_record_is_still_given(
    tmp_path: Path, replays: Counter[tuple[str, int]], caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(tmp_path)
    bad = _store_game(settings, BAD_FINISHED, damaged=True, finished=True)
    good = _store_game(settings, GOOD, damaged=False)
    caplog.set_level(logging.INFO)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        assert replays["replay_steps", BAD_FINISHED] == 0  # (finished: not loaded at startup)
        texts: list[str] = []
        for step in (0, 1, 2, 0):
            res = client.get(f"/api/games/{bad.table_id}/replay/{step}")
            assert res.status_code == 409, res.text
            assert res.headers["content-type"].startswith("application/json")
            detail = res.json()["detail"]
            assert detail["code"] == "damaged" and detail["message"].startswith(DAMAGED_MESSAGE)
            texts.append(res.text)
        assert replays["replay_steps", BAD_FINISHED] == 1
        # The record (which carries its deals) and the seed do not need the rebuild.
        record = client.get(f"/api/games/{bad.table_id}/record")
        assert record.status_code == 200 and record.json() == OLD_RECORD
        seed = client.get(f"/api/games/{bad.table_id}/seed")
        assert seed.status_code == 200 and seed.json() == {"seed": str(BAD_FINISHED)}
        # Its table page (the final position) is refused for good too, from what was remembered.
        sent, closed = _refused_socket(client, ws_path(bad.table_id, bad.tokens[0]))
        assert closed.code == 4410 and closed.reason.startswith(DAMAGED_MESSAGE) and sent == []
        texts.append(closed.reason)
        assert replays["rebuild", BAD_FINISHED] == 0 and replays["replay_steps", BAD_FINISHED] == 1
        _no_cards(texts, bad)
        # The rest of the server is fine.
        assert client.get("/api/games").status_code == 200
        with client.websocket_connect(ws_path(good.table_id)) as ws:
            assert receive(ws, "state")["version"] == 2
    said = [r for r in caplog.records if "cannot be rebuilt" in r.getMessage()]
    assert len(said) == 1
    assert not [r for r in caplog.records if r.exc_info], caplog.text


def test_a_game_found_unrebuildable_when_opened_is_remembered_per_table(
    tmp_path: Path, replays: Counter[tuple[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Finished: not loaded at startup, found as a page opens it. A few are remembered (the last ones).
    settings = make_settings(tmp_path)
    monkeypatch.setattr(manager_module, "DAMAGED_KEPT", 2)
    bad = [_store_game(settings, BAD_RUNNING + 10 * i, damaged=True, finished=True) for i in range(3)]
    with TestClient(create_app(settings)) as client:
        assert not replays
        for game in bad:
            for _ in range(2):
                assert _refused_socket(client, ws_path(game.table_id))[1].code == 4410
        assert [replays["rebuild", BAD_RUNNING + 10 * i] for i in range(3)] == [1, 1, 1]
        # The last two found are kept (DAMAGED_KEPT): refused without a replay.
        for game in (bad[2], bad[1]):
            assert _refused_socket(client, ws_path(game.table_id))[1].code == 4410
        assert [replays["rebuild", BAD_RUNNING + 10 * i] for i in range(3)] == [1, 1, 1]
        # The first was forgotten: found again (replayed once more), still refused.
        assert _refused_socket(client, ws_path(bad[0].table_id))[1].code == 4410
        assert [replays["rebuild", BAD_RUNNING + 10 * i] for i in range(3)] == [2, 1, 1]


def test_with_other_server_processes_the_tables_facts_are_still_answered(
    tmp_path: Path, replays: Counter[tuple[str, int]]
) -> None:
    # A shared bus (several processes): the lobby facts of a running game load it to follow it here.
    settings = make_settings(tmp_path, lease_seconds=2.0, heartbeat_seconds=2.0)
    bad = _store_game(settings, BAD_RUNNING, damaged=True)
    good = _store_game(settings, GOOD, damaged=False)
    bus = MemoryBus(MemoryBroker(), lease_seconds=2.0, heartbeat_seconds=2.0)
    with TestClient(create_app(settings, bus=bus), raise_server_exceptions=False) as client:
        assert replays["rebuild", BAD_RUNNING] == 1  # tried once as the orphans were adopted
        for _ in range(3):
            info = client.get(f"/api/tables/{bad.table_id}")
            assert info.status_code == 200 and info.json()["status"] == "running", info.text
            _no_cards([info.text], bad)
            closed = _refused_socket(client, ws_path(bad.table_id, bad.tokens[0]))[1]
            assert closed.code == 4410 and closed.reason.startswith(DAMAGED_MESSAGE)
        assert replays["rebuild", BAD_RUNNING] == 1
        assert client.get(f"/api/tables/{good.table_id}").json()["version"] == 2
        with client.websocket_connect(ws_path(good.table_id)) as ws:
            assert receive(ws, "state")["version"] == 2


def test_an_older_versions_readable_database_file_is_made_private_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    if os.name != "posix":
        pytest.skip("file modes are POSIX")
    before = os.umask(0o022)
    try:
        data = tmp_path / "data"
        data.mkdir(mode=0o755)
        data.chmod(0o755)
        path = data / "rummy500.sqlite3"
        SqliteStorage(f"sqlite:///{path}").close()
        # As an older version left it: readable by everyone, in a folder everyone may list.
        for name in ("rummy500.sqlite3", "rummy500.sqlite3-wal", "rummy500.sqlite3-shm"):
            (data / name).touch()
            (data / name).chmod(0o644)
        with caplog.at_level(logging.WARNING):
            SqliteStorage(f"sqlite:///{path}").close()
        said = [r.getMessage() for r in caplog.records if str(path) in r.getMessage()]
        assert len(said) == 1 and "made private" in said[0] and "0644 -> 0600" in said[0], said
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        for name in ("rummy500.sqlite3-wal", "rummy500.sqlite3-shm"):
            if (data / name).exists():
                assert stat.S_IMODE((data / name).stat().st_mode) == 0o600
        assert stat.S_IMODE(data.stat().st_mode) == 0o755  # the folder is left as it is
        # Once: the next start has nothing to say.
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            SqliteStorage(f"sqlite:///{path}").close()
        assert not [r for r in caplog.records if str(path) in r.getMessage()]
        # A file another user owns is left alone, with the warning as before.
        if os.geteuid() == 0:
            other = tmp_path / "other.sqlite3"
            shutil.copy(path, other)
            other.chmod(0o644)
            os.chown(other, 4242, -1)
            caplog.clear()
            with caplog.at_level(logging.WARNING):
                SqliteStorage(f"sqlite:///{other}").close()
            assert stat.S_IMODE(other.stat().st_mode) == 0o644
            assert any("chmod 600" in r.getMessage() and "made private" not in r.getMessage() for r in caplog.records)
    finally:
        os.umask(before)
