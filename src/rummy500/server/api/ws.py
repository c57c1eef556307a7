"""The websocket of a table: one per seat (``?token=T``) or per spectator (no token).

The handler only translates between frames and the session: it authenticates
the seat once, registers the connection with the hub, and for each message
runs the first links of the chain of checks (rate, size, well-formed, a seat,
a started game; for chat, the seat's own chat rate) before handing the action to the session, which runs the rest
(not stale, not over, your turn, legal). A hint is searched beside the loop
that reads the socket, so the seat's move is never held up by it; the answer
is sent when found, with the version it is for. Every refusal is an ``error`` message with a
stable code; the socket stays open and the game is unchanged. Only an unknown
table (4404), a bad token (4401), a page from another site (4403), a client
holding too many sockets (4429) or a stored game this version of the server
cannot rebuild (4410, see :class:`~rummy500.server.manager.GameDamaged`) closes
the socket, right after it opens; and a seat given back in the waiting room
(left, or removed by the table's creator) closes the sockets that held it
(4401, see :meth:`TableManager.drop_stale_seats`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from rummy500.server.api.deps import HubDep, LimitsDep, ManagerDep, SettingsDep
from rummy500.server.config import Settings
from rummy500.server.hub import CLOSE_BAD_TOKEN, SEAT_GIVEN_BACK, Connection, Hub, state_message
from rummy500.server.limits import TokenBucket, client_key
from rummy500.server.manager import GameDamaged, TableManager, hash_token
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
from rummy500.server.session import MatchSession, SessionError, short_id, without_id
from rummy500.server.session.guards import chat_text, parse_request, seat_of
from rummy500.server.storage import StorageError

router = APIRouter(tags=["play"])
log = logging.getLogger(__name__)

CLOSE_NO_TABLE = 4404
CLOSE_BAD_ORIGIN = 4403
CLOSE_TOO_MANY = 4429
#: The storage could not be read as the socket opened (the page tries again: a standard "try again later").
CLOSE_TRY_LATER = 1013
#: The stored game cannot be rebuilt by this version of the server ("gone": the page does not try again).
CLOSE_DAMAGED = 4410


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """Whether the page that opens this socket may (cross-site websocket hijacking guard).

    Browsers always send ``Origin``; it must name this server (the ``Host`` the
    socket was opened on), ``public_url``, or one of ``allowed_origins``.
    Programs that send no ``Origin`` are let in: they hold no browser's cookies
    or tokens, only what they were given.
    """
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    host = websocket.headers.get("host", "")
    if parts.netloc.lower() == host.lower():
        return True
    allowed = {o.rstrip("/").lower() for o in settings.allowed_origins}
    if settings.public_url:
        public = urlsplit(settings.public_url)
        allowed.add(f"{public.scheme}://{public.netloc}".lower())
    return f"{parts.scheme}://{parts.netloc}".lower() in allowed


def merge_chat(stored: list[dict[str, Any]], shared: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The chat history a page gets: the stored lines, or the shared copy where it holds more.

    ``stored`` is what the database kept (and this process heard since),
    ``shared`` what Redis kept from every process (``None``: one process, or
    Redis did not answer). After Redis lost its keys (flushed, restarted) it
    holds only the lines said since: the database's longer list wins. The
    shared copy wins when it holds as many lines or more (the same lines in
    the order every process saw them, or a line the database failed to keep).
    Each line is sent once: the two lists are never spliced.

    >>> ann, bob, cat = ({"type": "chat", "seat": s, "from": n, "text": "hi"} for s, n in enumerate("ABC"))
    >>> merge_chat([ann, bob], [bob]) == [ann, bob]  # Redis flushed, then Bob spoke
    True
    >>> merge_chat([ann, bob], [bob, ann, cat]) == [bob, ann, cat]
    True
    >>> merge_chat([], [cat]) == [cat] and merge_chat([ann], None) == [ann]
    True
    """
    if shared is not None and len(shared) >= len(stored):
        return list(shared)
    return list(stored)


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    await websocket.send_json(ErrorMessage(code=code, message=message).model_dump())
    await websocket.close(close_code)


async def _close_damaged(websocket: WebSocket, damaged: GameDamaged) -> None:
    """Close a socket at a game this version cannot rebuild: 4410, why in the close reason (no card named).

    No ``error`` message comes before it: the close reason says it all.
    """
    await websocket.close(CLOSE_DAMAGED, damaged.message.encode()[:123].decode(errors="ignore"))


@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    websocket: WebSocket,
    table_id: str,
    manager: ManagerDep,
    hub: HubDep,
    settings: SettingsDep,
    limits: LimitsDep,
    token: str | None = None,
) -> None:
    """Play (with a seat token) or watch (without) one table.

    A page from another site is refused before the socket opens; a client
    holding ``sockets_per_client`` sockets already gets ``too_many_sockets``.
    """
    if not origin_allowed(websocket, settings):
        # Accepted only to be closed with 4403 at once (nothing is sent): a
        # browser never sees the code of a handshake refused before it opens,
        # so a page served from an address the server does not know could not
        # tell its player why it cannot connect.
        await websocket.accept()
        await websocket.close(CLOSE_BAD_ORIGIN)
        return
    client = client_key(websocket.scope)
    await websocket.accept()
    if not limits.open_socket(client):
        await _refuse(
            websocket,
            "too_many_sockets",
            f"at most {limits.max_sockets} open connections per client; close some tabs",
            CLOSE_TOO_MANY,
        )
        return
    try:
        await _serve(websocket, table_id, manager, hub, settings, limits.message_bucket(client), token)
    except StorageError as exc:
        # The database is away as the socket opens (the table, the token, the
        # seats' tokens could not be read): nothing was sent but this error.
        log.warning("table %s: storage unavailable at connect: %s", short_id(table_id), without_id(str(exc), table_id))
        with contextlib.suppress(Exception):  # the socket may be gone already
            await _refuse(websocket, "unavailable", "the games' database is unavailable; try again shortly", CLOSE_TRY_LATER)
    finally:
        limits.close_socket(client)


async def _serve(
    websocket: WebSocket,
    table_id: str,
    manager: TableManager,
    hub: Hub,
    settings: Settings,
    client_bucket: TokenBucket,
    token: str | None,
) -> None:
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

    def version() -> int | None:
        """The game's current version for this socket's errors (``None`` in the waiting room)."""
        live = manager.sessions.get(table_id)
        return live.version if live is not None else None

    conn = Connection(
        table_id,
        seat,
        websocket.send_text,
        close,
        settings.send_queue,
        version=version,
        token_hash=hash_token(token) if seat is not None and token is not None else None,
    )
    # With several processes: the lines said through any of them (read first:
    # nothing may wait between loading the session and counting this socket).
    shared_history = await manager.shared_chat_history(table_id)
    try:
        session = await manager.session(table_id)
    except GameDamaged as exc:
        # Its stored moves no longer replay (logged once, with why, at the server): a final close,
        # the page does not try again (nor would it help: the failure is remembered, not replayed).
        await _close_damaged(websocket, exc)
        return
    if session is not None and not session.holds_seat(seat, conn.token_hash):
        # The seat was given back before the start while this socket opened:
        # its token is not the seat's now (the game's tokens are final).
        await _refuse(websocket, "bad_token", SEAT_GIVEN_BACK, CLOSE_BAD_TOKEN)
        return
    # No await from here to hub.add(): a session started or loaded meanwhile
    # counts this connection exactly once.
    bucket = TokenBucket(settings.ws_rate_per_second, settings.ws_rate_burst)
    hints: set[asyncio.Task[None]] = set()
    conn.start()
    # (From here the connection is counted: whatever ends this handler, even a cancellation
    # while it is being told the table, uncounts it below.)
    try:
        if session is not None:
            session.connect(seat)  # the others hear of it now ...
            conn.counted_by = session
            conn.push(state_message(session, seat))  # ... this socket starts with the state
            # (This session's lines were read from the database and heard since;
            # Redis adds what another process heard that this one missed. After
            # Redis lost its keys it holds only the lines said since: never fewer.)
            history = merge_chat(session.chat_history(), shared_history)
            if history:  # what was said before this page (re)connected
                conn.push({"type": "chat_history", "messages": history})
            hub.add(conn)
        else:
            hub.add(conn)
            if token is not None and seat is not None and await manager.authenticate(table_id, token) != seat:
                # The seat was given back while this socket opened (the check of
                # the change may have run before it was counted): it plays no more.
                hub.drop_given_back(conn)
            conn.push(TableMessage(table=info).model_dump(mode="json"))
            # What was said in the waiting room so far (a line said meanwhile comes
            # live as well: the page redraws the whole list from a history).
            lobby_history = merge_chat([line.message() for line in await manager.stored_chat(table_id)], shared_history)
            if lobby_history:
                conn.push({"type": "chat_history", "messages": lobby_history})
            await manager.lobby_presence_changed(table_id)
        manager.presence_changed(table_id)  # the other server processes, if any
        if session is not None and manager.cluster is not None:
            # A reconnect repairs a missed notice: a newer stored state reaches every socket here.
            with contextlib.suppress(SessionError):
                await session.catch_up()
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            try:
                await _handle(
                    frame,
                    conn,
                    manager,
                    settings.ws_max_message_bytes,
                    settings.chat_max_chars,
                    bucket,
                    client_bucket,
                    hints,
                )
            except StorageError as exc:  # the database is away: the same message may work later
                log.warning("table %s: storage unavailable: %s", short_id(table_id), without_id(exc, table_id))
                conn.error("unavailable", "the games' database is unavailable; try again shortly")
            except GameDamaged as exc:  # started through another process, and this one cannot rebuild it
                hub.remove(conn)
                with contextlib.suppress(Exception):  # the socket may be gone already
                    await _close_damaged(websocket, exc)
                break
            except Exception:  # noqa: BLE001 - garbage never takes a table down
                log.exception("table %s: error handling a message", short_id(table_id))
                conn.error("internal", "the server could not handle that message")
    finally:
        for task in list(hints):  # nobody to answer now (the searches go on for the seat's other sockets)
            task.cancel()
        hub.remove(conn)
        manager.presence_changed(table_id)
        await conn.stop()
        live = manager.sessions.get(table_id)
        if live is not None:
            if conn.counted_by is live:  # (never a connection it did not count)
                live.disconnect(seat)
            manager.release(table_id)
        else:
            await manager.lobby_presence_changed(table_id)


async def _answer_hint(conn: Connection, session: MatchSession, pending: asyncio.Future[dict[str, Any]]) -> None:
    """Send a connection the hint it asked for once it is found (its ``version`` says for which position)."""
    try:
        answer = await asyncio.shield(pending)
    except SessionError as exc:  # the seat's turn passed before its search could start
        conn.error(exc.code, exc.message, session.version)
    except Exception:  # noqa: BLE001 - a failed search never takes the table down
        log.exception("table %s: a hint failed", short_id(conn.table_id))
        conn.error("internal", "the server could not find a hint")
    else:
        conn.push(answer)


async def _handle(
    frame: dict[str, Any],
    conn: Connection,
    manager: TableManager,
    max_bytes: int,
    chat_limit: int,
    bucket: TokenBucket,
    client_bucket: TokenBucket,
    tasks: set[asyncio.Task[None]],
) -> None:
    """Handle one frame: the first checks, then the message (``tasks``: this socket's hints being answered)."""
    # Every frame spends a token first, garbage and oversized ones too: a flood
    # of any kind gets one ``rate_limited`` a second, never an echo per frame.
    if not (bucket.take() and client_bucket.take()):
        if bucket.should_warn():
            conn.error("rate_limited", "too many messages; slow down")
        return
    text = frame.get("text")
    if text is None:
        conn.error("bad_message", "send JSON text frames")
        return
    try:
        too_large = len(text) > max_bytes or len(text.encode()) > max_bytes
    except UnicodeEncodeError:  # a lone surrogate: not text a socket could carry
        conn.error("bad_message", "send UTF-8 text")
        return
    if too_large:
        conn.error("bad_message", f"message larger than {max_bytes} bytes")
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
    if session is not None and not session.holds_seat(conn.seat, conn.token_hash):
        # The last guard: a seat given back before the start is never played, or shown, from here.
        manager.hub.drop_given_back(conn)
        return
    match message:
        case ClientSync():
            if session is not None:
                if manager.cluster is not None:
                    with contextlib.suppress(SessionError):
                        await session.catch_up()
                if session.finished:
                    # Read again: the next table may have been opened through a process whose notice was lost.
                    await manager.next_table_changed(conn.table_id)
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
                conn.error(exc.code, exc.message, session.version)
        case ClientHint():
            if session is None:
                conn.error("not_running", "the game is not being played")
                return
            try:
                pending = session.ask_hint(conn.seat)
            except SessionError as exc:
                conn.error(exc.code, exc.message, session.version)
                return
            if pending.done() and not pending.cancelled() and pending.exception() is None:
                conn.push(pending.result())  # found already for this version: answered at once
                return
            # The search runs beside this loop: the seat's next messages (its
            # move) are read and handled meanwhile; the answer says its version.
            task = asyncio.get_running_loop().create_task(_answer_hint(conn, session, pending))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        case ClientChat(text=said):
            try:
                # A spectator's or an empty line is refused first (it costs the seat nothing);
                # then the seat's own chat rate: a line over it is neither kept nor sent.
                speaker, _ = chat_text(conn.seat, said, chat_limit)
                manager.chat_rate.check(conn.table_id, speaker)
                if session is None:  # the waiting room
                    if not await manager.still_seated(conn.table_id, conn):
                        # Its seat was given back through a process whose notice never came:
                        # closed, and the others here see the seat as it is now.
                        manager.hub.drop_given_back(conn)
                        await manager.lobby_seats_changed(conn.table_id)
                        return
                    await manager.lobby_chat(conn.table_id, conn.seat, said, chat_limit)
                else:
                    await session.chat(conn.seat, said, chat_limit)
            except SessionError as exc:
                conn.error(exc.code, exc.message)
        case ClientAction(version=version, action=record):
            # The chain of checks: well-formed, a seat, a started game; then the
            # session checks the version, the end, the turn and legality under its lock.
            try:
                parse_request(record)
                seat_of(conn.seat, "spectators cannot act; join a seat to play")
            except SessionError as exc:
                conn.error(exc.code, exc.message)
                return
            if session is None:
                conn.error("not_running", "the game is not being played")
                return
            try:
                await session.submit(conn.seat, version, record)
            except SessionError as exc:
                conn.error(exc.code, exc.message, session.version)
                if exc.code == "stale_version":
                    conn.push(state_message(session, conn.seat))
