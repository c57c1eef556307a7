"""The websocket of a table: one per seat (``?token=T``) or per spectator (no token).

The handler only translates between frames and the session: it authenticates
the seat once, registers the connection with the hub, and for each message
runs the first links of the chain of checks (size, rate, well-formed, a seat,
a running game) before handing the action to the session, which runs the rest
(not stale, your turn, legal). Every refusal is an ``error`` message with a
stable code; the socket stays open and the game is unchanged. Only an unknown
table (4404) or a bad token (4401) closes the socket, right after it opens.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from rummy500.server.api.deps import HubDep, ManagerDep, SettingsDep
from rummy500.server.engine import parse_action
from rummy500.server.hub import Connection, state_message
from rummy500.server.manager import TableManager
from rummy500.server.protocol import (
    ClientAction,
    ClientChat,
    ClientHint,
    ClientReady,
    ClientSync,
    ErrorMessage,
    TableMessage,
    client_message_adapter,
)
from rummy500.server.session import SessionError

router = APIRouter(tags=["play"])
log = logging.getLogger(__name__)

CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4401


class TokenBucket:
    """Per-connection rate limit: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int, clock: Any = time.monotonic) -> None:
        """Start full."""
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()
        self.last_warned = -1e9

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def should_warn(self) -> bool:
        """At most one ``rate_limited`` answer a second, so floods get no echo."""
        now = self.clock()
        if now - self.last_warned >= 1.0:
            self.last_warned = now
            return True
        return False


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    await websocket.send_json(ErrorMessage(code=code, message=message).model_dump())
    await websocket.close(close_code)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    websocket: WebSocket,
    table_id: str,
    manager: ManagerDep,
    hub: HubDep,
    settings: SettingsDep,
    token: str | None = None,
) -> None:
    """Play (with a seat token) or watch (without) one table."""
    await websocket.accept()
    info = await manager.table_info(table_id)
    if info is None:
        await _refuse(websocket, "no_table", "no such table", CLOSE_NO_TABLE)
        return
    seat: int | None = None
    if token is not None:
        seat = await manager.authenticate(table_id, token)
        if seat is None:
            await _refuse(websocket, "bad_token", "this token has no seat here", CLOSE_BAD_TOKEN)
            return

    async def close(code: int) -> None:
        await websocket.close(code)

    conn = Connection(table_id, seat, websocket.send_json, close, settings.send_queue)
    session = await manager.session(table_id)
    # No await from here to hub.add(): a session started or loaded meanwhile
    # counts this connection exactly once.
    conn.start()
    if session is not None:
        session.connect(seat)  # the others hear of it now ...
        conn.push(state_message(session, seat))  # ... this socket starts with the state
        history = session.chat_history()
        if history:  # what was said before this page (re)connected
            conn.push({"type": "chat_history", "messages": history})
        hub.add(conn)
    else:
        hub.add(conn)
        conn.push(TableMessage(table=info).model_dump(mode="json"))
        await manager.lobby_presence_changed(table_id)
    manager.presence_changed(table_id)  # the other server processes, if any
    if session is not None and manager.cluster is not None:
        # A reconnect repairs a missed notice: a newer stored state reaches every socket here.
        with contextlib.suppress(SessionError):
            await session.catch_up()
    bucket = TokenBucket(settings.ws_rate_per_second, settings.ws_rate_burst)
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            try:
                await _handle(frame, conn, manager, settings.ws_max_message_bytes, settings.chat_max_chars, bucket)
            except Exception:  # noqa: BLE001 - garbage never takes a table down
                log.exception("table %s: error handling a message", table_id[:8])
                conn.error("internal", "the server could not handle that message")
    finally:
        hub.remove(conn)
        manager.presence_changed(table_id)
        await conn.stop()
        live = manager.sessions.get(table_id)
        if live is not None:
            live.disconnect(seat)
            manager.release(table_id)
        else:
            await manager.lobby_presence_changed(table_id)


async def _handle(
    frame: dict[str, Any],
    conn: Connection,
    manager: TableManager,
    max_bytes: int,
    chat_limit: int,
    bucket: TokenBucket,
) -> None:
    text = frame.get("text")
    if text is None:
        if bucket.take():
            conn.error("bad_message", "send JSON text frames")
        return
    if len(text) > max_bytes or len(text.encode()) > max_bytes:
        conn.error("bad_message", f"message larger than {max_bytes} bytes")
        return
    if not bucket.take():
        if bucket.should_warn():
            conn.error("rate_limited", "too many messages; slow down")
        return
    try:
        message = client_message_adapter.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {"msg": "invalid"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        conn.error("bad_message", f"not a valid message: {where} {first.get('msg', '')}".strip())
        return
    session = manager.sessions.get(conn.table_id)
    if session is None and manager.cluster is not None:
        # Another server process may have started the game: look in storage.
        session = await manager.session(conn.table_id)
    match message:
        case ClientSync():
            if session is not None:
                if manager.cluster is not None:
                    with contextlib.suppress(SessionError):
                        await session.catch_up()
                conn.push(state_message(session, conn.seat))
            else:
                info = await manager.table_info(conn.table_id)
                if info is not None:
                    conn.push(TableMessage(table=info).model_dump(mode="json"))
        case ClientReady():
            if session is None:
                conn.error("not_running", "the game is not being played")
                return
            try:
                session.ready(conn.seat)
            except SessionError as exc:
                conn.error(exc.code, exc.message)
        case ClientHint():
            if session is None:
                conn.error("not_running", "the game is not being played")
                return
            try:
                conn.push(await session.hint(conn.seat))
            except SessionError as exc:
                conn.error(exc.code, exc.message, session.version)
        case ClientChat(text=said):
            if session is None:
                conn.error("not_running", "chat opens when the game starts")
                return
            try:
                session.chat(conn.seat, said, chat_limit)
            except SessionError as exc:
                conn.error(exc.code, exc.message)
        case ClientAction(version=version, action=record):
            # The chain of checks: well-formed, a seat, a running game; then the
            # session checks the version, the turn and legality under its lock.
            try:
                parse_action(record)
            except ValueError as exc:
                conn.error("bad_message", str(exc))
                return
            if conn.seat is None:
                conn.error("not_seated", "spectators cannot act; join a seat to play")
                return
            if session is None or session.finished:
                conn.error("not_running", "the game is not being played")
                return
            try:
                await session.submit(conn.seat, version, record)
            except SessionError as exc:
                conn.error(exc.code, exc.message, session.version)
                if exc.code == "stale_version":
                    conn.push(state_message(session, conn.seat))
