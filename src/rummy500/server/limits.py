"""Limits on what one client may ask of a server process, and the request body cap.

A *client* is the peer address of the connection (behind a reverse proxy, every
client is the proxy: see docs/deploy.md). Per process, one client may hold at
most ``sockets_per_client`` websockets, send ``client_rate_per_second``
messages a second over all of them together (bursts of ``client_rate_burst``),
open ``table_rate_per_minute`` tables a minute and keep at most
``tables_per_client`` of its tables waiting in the lobby. Each refusal is a
clear error (HTTP 429 or a websocket ``rate_limited`` / ``too_many_sockets``),
never a dropped table. :class:`BodyLimit` refuses request bodies over
``max_body_bytes`` with 413 before anything parses them.

Connections themselves are guarded below the app, in uvicorn's HTTP protocol
(:func:`guarded_http`): one client may hold at most ``connections_per_client``
HTTP connections at once (more are answered 503 and closed), and a connection
that has not sent a whole request head within ``header_timeout`` seconds of
opening (or of its last answer) is closed, and a request whose body has not
all come within as long again after its head is answered 408 and closed, so
idle or trickling connections cannot use up the process's file descriptors.
"""

from __future__ import annotations

import asyncio
import json
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

__all__ = ["BodyLimit", "ClientLimits", "TokenBucket", "client_key", "guarded_http"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class TokenBucket:
    """A rate limit: ``rate`` events a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
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

    def full(self) -> bool:
        """Whether the bucket has refilled (an idle client: its entry may go)."""
        return self.tokens + (self.clock() - self.last) * self.rate >= self.burst

    def should_warn(self) -> bool:
        """At most one warning a second, so floods get no echo."""
        now = self.clock()
        if now - self.last_warned >= 1.0:
            self.last_warned = now
            return True
        return False


def client_key(scope: Scope) -> str:
    """The client a connection counts against: its peer address."""
    return peer_key(scope.get("client"))


def peer_key(client: Any) -> str:
    """A peer's ``(host, port)`` as the client it counts as (its address), ``unknown`` if none."""
    return str(client[0]) if client else "unknown"


class ClientLimits:
    """Per-client counters of one process: sockets, message rate, tables."""

    def __init__(
        self,
        *,
        sockets: int,
        rate: float,
        burst: int,
        tables: int,
        tables_per_minute: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Set the limits.

        Args:
            sockets: Websockets one client may hold open.
            rate: Messages a second one client may send over all its websockets.
            burst: Messages one client may send in a burst.
            tables: Tables of one client that may wait in the lobby.
            tables_per_minute: Tables one client may open a minute (bursts of ``tables``).
            clock: Monotonic clock.
        """
        self.max_sockets = sockets
        self.rate = rate
        self.burst = burst
        self.max_tables = tables
        self.tables_per_minute = tables_per_minute
        self.clock = clock
        self.sockets: dict[str, int] = {}
        self._messages: dict[str, TokenBucket] = {}
        self._creations: dict[str, TokenBucket] = {}
        #: Lobby tables each client opened here (pruned when it is at its limit).
        self.lobby: dict[str, set[str]] = {}

    # ------------------------------------------------------------- sockets
    def open_socket(self, client: str) -> bool:
        """Count a new websocket; ``False`` (not counted) when the client holds too many."""
        held = self.sockets.get(client, 0)
        if held >= self.max_sockets:
            return False
        self.sockets[client] = held + 1
        return True

    def close_socket(self, client: str) -> None:
        """Forget a websocket counted by :meth:`open_socket`."""
        held = self.sockets.get(client, 0) - 1
        if held > 0:
            self.sockets[client] = held
        else:
            self.sockets.pop(client, None)
            bucket = self._messages.get(client)
            if bucket is not None and bucket.full():
                del self._messages[client]

    def message_bucket(self, client: str) -> TokenBucket:
        """The message rate limit shared by all of a client's websockets."""
        bucket = self._messages.get(client)
        if bucket is None:
            bucket = self._messages[client] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket

    # -------------------------------------------------------------- tables
    def may_open_table(self, client: str) -> bool:
        """Spend one table creation of ``client`` (``False``: over its rate)."""
        if len(self._creations) > 10_000:
            for key in [k for k, b in self._creations.items() if b.full()]:
                del self._creations[key]
        bucket = self._creations.get(client)
        if bucket is None:
            bucket = self._creations[client] = TokenBucket(
                self.tables_per_minute / 60.0, max(1, self.max_tables), self.clock
            )
        return bucket.take()

    def opened(self, client: str, table_id: str) -> None:
        """Remember a table the client opened (it waits in the lobby)."""
        self.lobby.setdefault(client, set()).add(table_id)

    def left_lobby(self, table_id: str, client: str | None = None) -> None:
        """A table started or expired: it no longer counts against its opener."""
        owners = [client] if client is not None else list(self.lobby)
        for owner in owners:
            tables = self.lobby.get(owner)
            if tables is not None and table_id in tables:
                tables.discard(table_id)
                if not tables:
                    del self.lobby[owner]


class BodyLimit:
    """ASGI middleware: refuse HTTP request bodies over ``max_bytes`` with 413, before parsing."""

    def __init__(self, app: ASGIApp, max_bytes: int, headers: Iterable[tuple[str, str]] = ()) -> None:
        """Wrap ``app``.

        Args:
            app: The application.
            max_bytes: Largest request body.
            headers: Sent with the 413 besides its content headers (the app's
                security headers and ``Cache-Control``, as on its other answers).
        """
        self.app = app
        self.max_bytes = max_bytes
        self.headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, counting its body."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.max_bytes + 1
                if declared > self.max_bytes:
                    await self._refuse(send)
                    return
        seen = 0
        over = False
        refused = False

        async def counted_receive() -> Message:
            nonlocal seen, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # Stop reading: the app sees a client that went away, and
                    # whatever it answers is replaced by the 413.
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal refused
            if not over:
                await send(message)
            elif not refused:
                refused = True
                await self._refuse(send)

        await self.app(scope, counted_receive, guarded_send)
        if over and not refused:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": _too_large(self.max_bytes)}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *self.headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _too_large(max_bytes: int) -> dict[str, str]:
    return {"code": "too_large", "message": f"request body larger than {max_bytes} bytes"}


_TOO_SLOW_TEXT = b"the request's body did not all arrive in time; send it again\n"
#: The answer to a request whose body did not all come in time (then its connection is closed).
_REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_TOO_SLOW_TEXT), _TOO_SLOW_TEXT)
)

_TOO_MANY_TEXT = b"too many connections from your address; close some and try again\n"
#: The answer to a connection over its client's limit (then it is closed).
_TOO_MANY_CONNECTIONS = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 5\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
    % (len(_TOO_MANY_TEXT), _TOO_MANY_TEXT)
)


def guarded_http(
    *, header_timeout: float, connections_per_client: int, body_timeout: float | None = None
) -> type[asyncio.Protocol]:
    """Uvicorn's HTTP protocol (``auto``: httptools, else h11) with three guards for each connection.

    - A connection must send a whole request head within ``header_timeout``
      seconds of opening, and again after each answer once it sends anything
      (uvicorn's keep-alive timeout closes one that sends nothing); else it is
      closed. A request being answered, or a websocket, is never cut.
    - A request's body must all come within ``body_timeout`` seconds of the
      end of its head (a head announcing ``Content-Length: 1000`` and sending
      one byte held its connection for ever); else the request is answered 408
      (unless its answer has begun, which is then not cut) and the connection
      is closed. The app, waiting for the body, sees the client gone.
    - One client (peer address) may hold ``connections_per_client`` HTTP
      connections at once; another one is answered 503 and closed. A
      connection that became a websocket no longer counts (websockets have
      their own limit, ``sockets_per_client``).

    Args:
        header_timeout: Seconds a request head may take.
        connections_per_client: HTTP connections one client may hold.
        body_timeout: Seconds a request body may take after its head (``None``: ``header_timeout``).

    Returns:
        A protocol class for ``uvicorn.Config(http=...)``.
    """
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    base: Any = AutoHTTPProtocol
    body_seconds = header_timeout if body_timeout is None else body_timeout
    #: Connections per client, per server (its ``server_state``).
    held: weakref.WeakKeyDictionary[Any, dict[str, int]] = weakref.WeakKeyDictionary()

    class GuardedHTTP(base):
        """An HTTP connection with a deadline for request heads, counted against its client."""

        _client_key: str | None = None
        _deadline: asyncio.TimerHandle | None = None
        #: The request being answered when the deadline was set: a newer one means the head came.
        _awaited: object = None
        #: The deadline of the request whose body is awaited, and that request (uvicorn's cycle).
        _body_deadline: asyncio.TimerHandle | None = None
        _body_of: object = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            key = peer_key(self.client)
            counts = held.setdefault(self.server_state, {})
            if counts.get(key, 0) >= connections_per_client:
                transport.write(_TOO_MANY_CONNECTIONS)
                transport.close()
                return
            counts[key] = counts.get(key, 0) + 1
            self._client_key = key
            self._arm()

        def _release(self) -> None:
            for timer in (self._deadline, self._body_deadline):
                if timer is not None:
                    timer.cancel()
            self._deadline = self._body_deadline = None
            key, self._client_key = self._client_key, None
            if key is not None:
                counts = held.get(self.server_state, {})
                left = counts.get(key, 0) - 1
                if left > 0:
                    counts[key] = left
                else:
                    counts.pop(key, None)

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._awaited = self.cycle
            self._deadline = self.loop.call_later(header_timeout, self._too_slow)

        def _too_slow(self) -> None:
            self._deadline = None
            transport = self.transport
            if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a websocket now
            if self.cycle is self._awaited:  # no new request head since the deadline was set
                transport.close()

        def data_received(self, data: bytes) -> None:
            between = self.cycle is None or self.cycle.response_complete
            if between and (self._deadline is None or self._awaited is not self.cycle):
                self._arm()  # a new request begins: its head has header_timeout seconds
            super().data_received(data)
            cycle = self.cycle
            if cycle is not None and cycle is not self._body_of and cycle.more_body and not cycle.response_complete:
                # A new request's head came without all of its body: the rest has body_seconds.
                if self._body_deadline is not None:
                    self._body_deadline.cancel()
                self._body_of = cycle
                self._body_deadline = self.loop.call_later(body_seconds, self._body_too_slow)

        def _body_too_slow(self) -> None:
            self._body_deadline = None
            transport, cycle = self.transport, self._body_of
            if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a websocket now
            if cycle is not self.cycle or not cycle.more_body:
                return  # the body came (or another request is read now)
            if cycle.response_started and not cycle.response_complete:
                return  # being answered: never cut
            if not cycle.response_started:
                transport.write(_REQUEST_TIMEOUT)
            transport.close()

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._release()  # a websocket: counted by the app (sockets_per_client), never timed out here
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

    return GuardedHTTP
