"""The connection registry: which websockets watch which table, and sending to them.

Each open websocket is a :class:`Connection` with its seat (``None`` for a
spectator) and its own outgoing queue, drained by a writer task, so one slow
browser never holds up a table. The :class:`Hub` groups connections by table
and implements :class:`~rummy500.server.session.SessionListener`: when a
session accepts an action, every connection is sent *its own seat's* view —
the only place where views meet sockets. A connection whose queue overflows is
closed; its client reconnects and resyncs. A seated connection is sent its
seat's view only once its token is known to hold the seat: while the seats'
tokens cannot be read (the database away) the view is held back
(:attr:`Connection.withheld`), and sent by :meth:`Hub.send_withheld` once they are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from rummy500.server.protocol import ChatMessage, ErrorMessage, TableInfo, TableMessage
from rummy500.server.session import MatchSession, short_id
from rummy500.server.session.events import dumps

__all__ = ["Connection", "Hub", "encode"]

log = logging.getLogger(__name__)

#: Close code sent to a connection that fell too far behind.
CLOSE_TOO_SLOW = 4408
#: Close code of a socket whose token has no seat at its table (any more: given back before the start).
CLOSE_BAD_TOKEN = 4401
#: What a socket whose seat was given back before the start is told as it is closed.
SEAT_GIVEN_BACK = (
    "you no longer have a seat at this table (you left it, or its creator removed you): join again to play"
)


def encode(message: dict[str, Any]) -> str:
    """A message as the JSON text sent on a socket (compact, UTF-8 kept as is).

    >>> encode({"type": "chat", "seat": 0, "text": "salut à tous"})
    '{"type":"chat","seat":0,"text":"salut à tous"}'
    """
    return dumps(message).decode()


class Connection:
    """One websocket: its table, its seat and its outgoing queue."""

    def __init__(
        self,
        table_id: str,
        seat: int | None,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
        max_queue: int = 256,
        *,
        version: Callable[[], int | None] | None = None,
        token_hash: str | None = None,
    ) -> None:
        """Wrap a socket's send and close coroutines.

        Args:
            table_id: The table watched.
            seat: The seat the token belongs to, ``None`` for a spectator.
            send: Sends one text frame (a JSON message, already encoded).
            close: Closes the socket with a code.
            max_queue: Messages queued before the connection is dropped.
            version: The table's current version (``None`` before its game
                starts): every ``error`` carries it.
            token_hash: The stored form of the seat's token (``None`` for a
                spectator): a seat given back before the start closes the
                sockets that held it.
        """
        self.table_id = table_id
        self.seat = seat
        self.token_hash = token_hash
        self._send = send
        self._close = close
        # Text frames; ``None``: close as too slow; a number: close with that code.
        self._queue: asyncio.Queue[str | int | None] = asyncio.Queue(maxsize=max_queue)
        self._writer: asyncio.Task[None] | None = None
        self.dropped = False
        self._version = version
        #: The live session that counts this connection (the one disconnect
        #: when it closes is owed to it, and only to it; ``None``: none).
        self.counted_by: MatchSession | None = None
        #: Whether a state was held back from it because its seat's token could
        #: not be checked (:meth:`Hub.send_withheld` sends it once it can).
        self.withheld = False

    def start(self) -> None:
        """Start the writer task (call from the event loop)."""
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def push(self, message: dict[str, Any] | str) -> None:
        """Queue a message (or its JSON text, encoded once for many sockets); drop the connection if it cannot keep up."""
        if self.dropped:
            return
        try:
            self._queue.put_nowait(message if isinstance(message, str) else encode(message))
        except asyncio.QueueFull:
            self.dropped = True
            log.info("dropping a connection to table %s: too slow", short_id(self.table_id))
            self._close_now(None)

    def error(self, code: str, message: str, version: int | None = None) -> None:
        """Queue an ``error`` message, with the table's current version once its game has started."""
        if version is None and self._version is not None:
            version = self._version()
        self.push(ErrorMessage(code=code, message=message, version=version).model_dump())

    def close_with(self, code: int, error: str, message: str) -> None:
        """Send an ``error`` after what is queued, then close the socket with ``code``; nothing more is sent."""
        if self.dropped:
            return
        self.error(error, message)
        if self.dropped:  # it overflowed: closed as too slow
            return
        self.dropped = True
        try:
            self._queue.put_nowait(code)
        except asyncio.QueueFull:
            self._close_now(code)

    def _close_now(self, code: int | None) -> None:
        """Forget what is queued; the writer's next item closes the socket (``None``: as too slow)."""
        with contextlib.suppress(asyncio.QueueEmpty):
            while True:
                self._queue.get_nowait()
        self._queue.put_nowait(code)

    async def _write(self) -> None:
        try:
            while True:
                message = await self._queue.get()
                if message is None or isinstance(message, int):
                    await self._close(CLOSE_TOO_SLOW if message is None else message)
                    return
                await self._send(message)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the socket went away; the reader notices
            log.debug("send failed on table %s", short_id(self.table_id), exc_info=True)

    async def stop(self) -> None:
        """Stop the writer task, sending what is already queued first if possible."""
        if self._writer is None:
            return
        if not self._writer.done():
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer


class Hub:
    """Connections by table, and the fan-out of state, table and chat messages."""

    def __init__(self) -> None:
        """An empty registry."""
        self.rooms: dict[str, set[Connection]] = {}
        #: Told of a session whose state was held back from some of its sockets
        #: because its seats' tokens are not known (the manager reads them again).
        self.on_withheld: Callable[[MatchSession], None] | None = None

    def add(self, conn: Connection) -> None:
        """Register a connection."""
        self.rooms.setdefault(conn.table_id, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        """Forget a connection."""
        room = self.rooms.get(conn.table_id)
        if room is not None:
            room.discard(conn)
            if not room:
                del self.rooms[conn.table_id]

    def drop_given_back(self, conn: Connection) -> None:
        """Stop a socket whose seat was given back before the start: forgotten, sent ``bad_token``, closed with 4401."""
        self.remove(conn)
        conn.close_with(CLOSE_BAD_TOKEN, "bad_token", SEAT_GIVEN_BACK)

    def connections(self, table_id: str) -> list[Connection]:
        """The connections watching a table."""
        return list(self.rooms.get(table_id, ()))

    def seated(self, table_id: str) -> dict[int, int]:
        """Open connections per seat at a table (spectators left out)."""
        counts: dict[int, int] = {}
        for conn in self.connections(table_id):
            if conn.seat is not None:
                counts[conn.seat] = counts.get(conn.seat, 0) + 1
        return counts

    # ------------------------------------------------------- SessionListener
    def state_changed(self, session: MatchSession) -> None:
        """Send each connection the new state from its own seat's view.

        Only a connection whose token is its seat's (:meth:`MatchSession.seat_check`)
        gets that seat's view; one whose seat was given back is closed
        (:meth:`drop_given_back`). While the seats' tokens are not known (the
        database could not be read) a seated connection gets nothing: its
        state is held back (:attr:`Connection.withheld`) and :attr:`on_withheld`
        is told. Each seat's message is built and encoded once, whatever the number of
        its sockets; the parts every seat shares are built once for all.
        """
        self._send_state(session, only_withheld=False)

    def send_withheld(self, session: MatchSession) -> None:
        """Send the sockets whose state was held back the current one, now that their tokens can be checked.

        One whose seat was given back meanwhile is closed instead; one still
        unknown waits on.
        """
        self._send_state(session, only_withheld=True)

    def _send_state(self, session: MatchSession, *, only_withheld: bool) -> None:
        conns = self.rooms.get(session.game_id)
        if not conns:
            return
        shared: bytes | None = None
        by_seat: dict[int | None, str] = {}
        withheld = False
        for conn in list(conns):
            if only_withheld and not conn.withheld:
                continue
            held = session.seat_check(conn.seat, conn.token_hash)
            if held is None:
                # Whose seat it is cannot be told now: nothing of it is shown (fail closed).
                conn.withheld = withheld = True
                continue
            conn.withheld = False
            if not held:
                # Its seat was given back before the start (the check of that
                # change ran elsewhere, or not yet): never the seat's cards.
                self.drop_given_back(conn)
                continue
            text = by_seat.get(conn.seat)
            if text is None:
                if shared is None:
                    shared = session.shared_json()
                text = by_seat[conn.seat] = session.state_text(conn.seat, shared)
            conn.push(text)
        if withheld and self.on_withheld is not None:
            self.on_withheld(session)

    def table_changed(self, session: MatchSession) -> None:
        """Send everyone the table's public facts."""
        self.broadcast_table(session.game_id, TableInfo.model_validate(session.table_info()))

    def chat(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        """Send a chat line to everyone at the table, spectators included."""
        self.send_chat(session.game_id, sender, seat, text)

    def send_chat(self, table_id: str, sender: str, seat: int, text: str) -> None:
        """Send a chat line (said here or in another server process) to this process's sockets at a table."""
        message = encode(ChatMessage(seat=seat, text=text, from_=sender).to_json_dict())
        for conn in self.connections(table_id):
            conn.push(message)

    # ----------------------------------------------------------------- lobby
    def broadcast_table(self, table_id: str, table: TableInfo) -> None:
        """Send everyone at a table (lobby or game) its public facts."""
        message = encode(TableMessage(table=table).model_dump(mode="json"))
        for conn in self.connections(table_id):
            conn.push(message)


def state_message(session: MatchSession, seat: int | None) -> dict[str, Any]:
    """The ``state`` message for one seat (``None``: spectators).

    Built as plain JSON data: it is the hot path (one per connection per
    action), and its parts are JSON already. Its shape is
    :class:`~rummy500.server.protocol.StateMessage`; the tests hold it to that.
    """
    return session.state_message(seat)
