"""The bus between server processes: notices, leases and presence, in memory or on Redis.

One ``rummy500 serve`` process needs none of this: it uses a private
:class:`MemoryBus` (``shared`` is false) and the manager skips every
cross-process step. Several processes serving the same tables from one
PostgreSQL database share a :class:`RedisBus` (``--redis URL``) for three things:

- **Notices** (publish/subscribe): "table T is at version v", "the presence at
  T changed", "the lobby of T changed", and chat lines. Every process with
  sockets or a session for T catches up from the database and sends each of its
  sockets its own view. The database stays the only truth: a notice lost while
  Redis was away is repaired by the version keys (see :meth:`Bus.versions`).
- **Leases**: the one process that drives a table's bots and stand-ins holds
  ``lease:T`` (``SET NX PX``, renewed a few times per lease period). If it dies
  the key expires and another process takes the table over.
- **Presence**: each process writes how many sockets it holds per seat at each
  table; a process's entries count only while its heartbeat key lives, so the
  seats of a crashed process turn *away* within one lease period.

Nothing secret goes over the bus: table ids, version numbers, seat numbers,
connection counts, display names and chat text (all public at the table; the
table id is the invitation, so Redis must be private like the database).
Hands, tokens and seeds never leave the database.

A :class:`MemoryBus` given a shared :class:`MemoryBroker` behaves like Redis
between apps in one Python process (tests use it without a Redis server).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # pragma: no cover - typing only
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

__all__ = [
    "Bus",
    "BusError",
    "MemoryBroker",
    "MemoryBus",
    "Notice",
    "NoticeKind",
    "Presence",
    "RedisBus",
    "check_redis",
    "open_bus",
]

log = logging.getLogger(__name__)

NoticeKind = Literal["version", "presence", "lobby", "chat", "resync"]

#: How long version keys and presence hashes outlive their last write.
_KEEP_MS = 24 * 3600 * 1000
#: Seconds a Redis command (or a connection attempt) may take.
_TIMEOUT = 5.0


class BusError(RuntimeError):
    """The bus cannot be reached or refused a command."""


@dataclass(frozen=True)
class Notice:
    """A message from another process about one table.

    Attributes:
        kind: ``version`` (a new action is stored), ``presence`` (someone
            connected or left, or the driver's stand-ins changed), ``lobby`` (a
            table in the lobby changed), ``chat``, or ``resync`` (the bus was
            away: every table may have missed notices; ``table_id`` is empty).
        table_id: The table.
        version: For ``version``: the version now stored.
        seat: For ``chat``: the speaker's seat.
        name: For ``chat``: the speaker's display name.
        text: For ``chat``: the cleaned chat text.
    """

    kind: NoticeKind
    table_id: str
    version: int | None = None
    seat: int | None = None
    name: str | None = None
    text: str | None = None

    def to_json(self, node: str) -> str:
        """The wire form, tagged with the sender."""
        body: dict[str, Any] = {"n": node, "k": self.kind, "t": self.table_id}
        for key, value in (("v", self.version), ("s", self.seat), ("m", self.name), ("x", self.text)):
            if value is not None:
                body[key] = value
        return json.dumps(body, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: str | bytes) -> tuple[str, Notice]:
        """Parse a wire form into ``(sender, notice)``.

        Raises:
            ValueError: Not a notice.
        """
        body = json.loads(data)
        if not isinstance(body, dict) or body.get("k") not in ("version", "presence", "lobby", "chat"):
            raise ValueError("not a notice")
        return str(body["n"]), cls(
            kind=body["k"],
            table_id=str(body["t"]),
            version=body.get("v"),
            seat=body.get("s"),
            name=body.get("m"),
            text=body.get("x"),
        )


@dataclass(frozen=True)
class Presence:
    """What *other* processes report about a table.

    Attributes:
        seated: Open connections per seat, summed over the other live processes.
        spectators: Their spectator connections.
        autoplay: Seats the table's driver says a bot is standing in for.
    """

    seated: dict[int, int] = field(default_factory=dict)
    spectators: int = 0
    autoplay: tuple[int, ...] = ()


Handler = Callable[[Notice], None]


class Bus(ABC):
    """What server processes share besides the database.

    Attributes:
        node: This process's random id on the bus (not secret, not a hostname).
        lease_seconds: How long a lease or a heartbeat lasts without renewal.
    """

    def __init__(self, lease_seconds: float = 10.0, node: str | None = None) -> None:
        """Set the lease period and this process's id.

        Args:
            lease_seconds: Lease and heartbeat lifetime; renew at least every third of it.
            node: This process's id (default: random).
        """
        self.node = node or secrets.token_hex(8)
        self.lease_seconds = lease_seconds

    @property
    @abstractmethod
    def shared(self) -> bool:
        """Whether other processes may serve the same tables (the manager then coordinates)."""

    @abstractmethod
    async def start(self, handler: Handler) -> None:
        """Connect and deliver other processes' notices to ``handler`` (called in this event loop).

        Raises:
            BusError: The bus cannot be reached.
        """

    @abstractmethod
    async def close(self) -> None:
        """Stop listening and drop this process's heartbeat (its presence then counts no more)."""

    @abstractmethod
    async def publish(self, notice: Notice) -> None:
        """Tell the other processes; a ``version`` notice also records the table's version."""

    @abstractmethod
    async def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The last version announced for each table (tables never announced are left out)."""

    @abstractmethod
    async def set_presence(self, table_id: str, seated: dict[int, int], spectators: int) -> None:
        """Record this process's connections at a table and publish a ``presence`` notice."""

    @abstractmethod
    async def set_autoplay(self, table_id: str, seats: Iterable[int]) -> None:
        """Record (as the table's driver) the seats a bot stands in for, and publish ``presence``."""

    @abstractmethod
    async def presence(self, table_id: str) -> Presence:
        """The other live processes' connections at a table, and the driver's stand-ins."""

    @abstractmethod
    async def hold(self, table_id: str) -> bool:
        """Take the table's lease if it is free, or renew it if this process holds it.

        Returns:
            Whether this process holds the lease now (for ``lease_seconds``).
        """

    @abstractmethod
    async def release(self, table_id: str) -> None:
        """Give the lease back if this process holds it."""

    @abstractmethod
    async def holders(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """The node holding each table's lease, ``None`` where it is free."""

    @abstractmethod
    async def heartbeat(self) -> bool:
        """Say this process is alive for ``lease_seconds`` more.

        Returns:
            ``True`` when the previous heartbeat had lapsed (or this is the first),
            so this process's presence entries were ignored meanwhile and must
            be written again.
        """


# --------------------------------------------------------------------- memory
class MemoryBroker:
    """The shared state of :class:`MemoryBus` instances (thread-safe; apps may run on different loops)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """An empty broker."""
        self.clock = clock
        self.lock = threading.Lock()
        self.subscribers: dict[str, tuple[asyncio.AbstractEventLoop, Handler]] = {}
        self.versions: dict[str, int] = {}
        self.leases: dict[str, tuple[str, float]] = {}
        self.presence: dict[str, dict[str, tuple[dict[int, int], int]]] = {}
        self.autoplay: dict[str, tuple[int, ...]] = {}
        self.alive: dict[str, float] = {}

    def deliver(self, sender: str, notice: Notice) -> None:
        """Hand a notice to every other subscriber, on its own event loop."""
        with self.lock:
            targets = [(loop, h) for node, (loop, h) in self.subscribers.items() if node != sender]
        for loop, handler in targets:
            if not loop.is_closed():
                loop.call_soon_threadsafe(handler, notice)


class MemoryBus(Bus):
    """The in-process bus: private (one server, the default) or on a shared :class:`MemoryBroker`."""

    def __init__(self, broker: MemoryBroker | None = None, lease_seconds: float = 10.0, node: str | None = None):
        """A bus of its own, or one on ``broker`` shared with other apps of this process.

        Args:
            broker: Shared state; ``None`` for a private one (then ``shared`` is false).
            lease_seconds: Lease and heartbeat lifetime.
            node: This app's id (default: random).
        """
        super().__init__(lease_seconds, node)
        self._shared = broker is not None
        self.broker = broker or MemoryBroker()

    @property
    def shared(self) -> bool:
        """True only on a broker shared with other apps."""
        return self._shared

    def _live(self, node: str) -> bool:
        return node == self.node or self.broker.alive.get(node, -1.0) > self.broker.clock()

    async def start(self, handler: Handler) -> None:
        """Subscribe ``handler`` to the other apps' notices."""
        with self.broker.lock:
            self.broker.subscribers[self.node] = (asyncio.get_running_loop(), handler)

    async def close(self) -> None:
        """Unsubscribe and stop counting this app's presence."""
        with self.broker.lock:
            self.broker.subscribers.pop(self.node, None)
            self.broker.alive.pop(self.node, None)

    async def publish(self, notice: Notice) -> None:
        """Deliver to the other apps."""
        if notice.kind == "version" and notice.version is not None:
            with self.broker.lock:
                self.broker.versions[notice.table_id] = notice.version
        self.broker.deliver(self.node, notice)

    async def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """See :meth:`Bus.versions`."""
        with self.broker.lock:
            return {t: self.broker.versions[t] for t in table_ids if t in self.broker.versions}

    async def set_presence(self, table_id: str, seated: dict[int, int], spectators: int) -> None:
        """See :meth:`Bus.set_presence`."""
        with self.broker.lock:
            table = self.broker.presence.setdefault(table_id, {})
            if any(seated.values()) or spectators:
                table[self.node] = ({s: n for s, n in seated.items() if n}, spectators)
            else:
                table.pop(self.node, None)
        await self.publish(Notice("presence", table_id))

    async def set_autoplay(self, table_id: str, seats: Iterable[int]) -> None:
        """See :meth:`Bus.set_autoplay`."""
        with self.broker.lock:
            self.broker.autoplay[table_id] = tuple(sorted(seats))
        await self.publish(Notice("presence", table_id))

    async def presence(self, table_id: str) -> Presence:
        """See :meth:`Bus.presence`."""
        seated: dict[int, int] = {}
        spectators = 0
        with self.broker.lock:
            entries = dict(self.broker.presence.get(table_id, {}))
            autoplay = self.broker.autoplay.get(table_id, ())
            for node, (counts, watching) in entries.items():
                if node == self.node or not self._live(node):
                    continue
                for seat, n in counts.items():
                    seated[seat] = seated.get(seat, 0) + n
                spectators += watching
        return Presence(seated, spectators, autoplay)

    async def hold(self, table_id: str) -> bool:
        """See :meth:`Bus.hold`."""
        now = self.broker.clock()
        with self.broker.lock:
            holder = self.broker.leases.get(table_id)
            if holder is None or holder[1] <= now or holder[0] == self.node:
                self.broker.leases[table_id] = (self.node, now + self.lease_seconds)
                return True
            return False

    async def release(self, table_id: str) -> None:
        """See :meth:`Bus.release`."""
        with self.broker.lock:
            holder = self.broker.leases.get(table_id)
            if holder is not None and holder[0] == self.node:
                del self.broker.leases[table_id]

    async def holders(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """See :meth:`Bus.holders`."""
        now = self.broker.clock()
        with self.broker.lock:
            out: dict[str, str | None] = {}
            for t in table_ids:
                holder = self.broker.leases.get(t)
                out[t] = holder[0] if holder is not None and holder[1] > now else None
            return out

    async def heartbeat(self) -> bool:
        """See :meth:`Bus.heartbeat`."""
        now = self.broker.clock()
        with self.broker.lock:
            lapsed = self.broker.alive.get(self.node, -1.0) <= now
            self.broker.alive[self.node] = now + self.lease_seconds
            return lapsed


# ---------------------------------------------------------------------- redis
_HOLD = """
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisBus(Bus):
    """The bus on Redis (``redis>=5``, its asyncio client).

    Keys, all under ``prefix`` (default ``rummy500:``): channel ``t:{table}``
    (notices; each process subscribes to the pattern ``t:*``), ``v:{table}``
    (last announced version), ``lease:{table}`` (the driver's node id),
    ``presence:{table}`` (a hash: node id to its connection counts, and
    ``autoplay``), ``node:{node}`` (heartbeat). Version keys and presence hashes
    expire a day after their last write; leases and heartbeats after
    ``lease_seconds``.
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "rummy500:",
        lease_seconds: float = 10.0,
        node: str | None = None,
    ) -> None:
        """Prepare a client for ``url`` (nothing is connected until :meth:`start`).

        Args:
            url: ``redis://[:password@]host:port/db`` (or ``rediss://`` for TLS).
            prefix: Prefix of every key and channel (several deployments may share a Redis).
            lease_seconds: Lease and heartbeat lifetime.
            node: This process's id (default: random).
        """
        super().__init__(lease_seconds, node)
        from redis.asyncio import Redis

        self.prefix = prefix
        # Commands time out (a lease must not hang on a dead link); the
        # subscriber has its own connection that waits for notices, with
        # keepalive and periodic PINGs to notice a dead link.
        self._redis: Redis = Redis.from_url(
            url, decode_responses=True, socket_timeout=_TIMEOUT, socket_connect_timeout=_TIMEOUT
        )
        self._sub: Redis = Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=_TIMEOUT,
            socket_keepalive=True,
            health_check_interval=15,
            client_name=f"rummy500-sub-{self.node}",
        )
        self._hold = self._redis.register_script(_HOLD)
        self._release = self._redis.register_script(_RELEASE)
        self._listener: asyncio.Task[None] | None = None
        self._handler: Handler | None = None
        self._closing = False

    @property
    def shared(self) -> bool:
        """Always: this is the bus of several processes."""
        return True

    @property
    def _ms(self) -> int:
        return max(1, int(self.lease_seconds * 1000))

    def _k(self, kind: str, name: str) -> str:
        return f"{self.prefix}{kind}:{name}"

    async def start(self, handler: Handler) -> None:
        """Check Redis answers and start listening to notices.

        Raises:
            BusError: Redis cannot be reached.
        """
        self._handler = handler
        try:
            await self._redis.ping()
        except Exception as exc:  # noqa: BLE001 - any connection failure
            raise BusError(f"cannot reach Redis: {exc}") from exc
        ready = asyncio.Event()
        self._listener = asyncio.get_running_loop().create_task(self._listen(ready), name="bus-listener")
        await asyncio.wait_for(ready.wait(), timeout=10)

    async def _listen(self, ready: asyncio.Event) -> None:
        pattern = self._k("t", "*")
        connected_before = False
        delay = 0.1
        while not self._closing:
            pubsub: PubSub = self._sub.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(pattern)
                ready.set()
                if connected_before and self._handler is not None:
                    # Notices published while we were away are lost: recheck every table.
                    self._handler(Notice("resync", ""))
                connected_before = True
                delay = 0.1
                while not self._closing:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None and message.get("type") == "pmessage":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis went away: retry
                if not self._closing:
                    log.warning("bus: lost Redis (%s); reconnecting in %.1fs", exc, delay)
            finally:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await pubsub.aclose()
            if not self._closing:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _dispatch(self, data: str) -> None:
        try:
            sender, notice = Notice.from_json(data)
        except (ValueError, KeyError, TypeError):
            log.warning("bus: ignoring a malformed notice")
            return
        if sender == self.node or self._handler is None:
            return
        try:
            self._handler(notice)
        except Exception:  # noqa: BLE001 - one bad notice must not stop the listener
            log.exception("bus: handling a %s notice failed", notice.kind)

    async def close(self) -> None:
        """Stop listening, drop the heartbeat and disconnect."""
        self._closing = True
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._listener
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await self._redis.delete(self._k("node", self.node))
        for client in (self._redis, self._sub):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await client.aclose()

    async def publish(self, notice: Notice) -> None:
        """See :meth:`Bus.publish`."""
        channel = self._k("t", notice.table_id)
        data = notice.to_json(self.node)
        if notice.kind == "version" and notice.version is not None:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.set(self._k("v", notice.table_id), notice.version, px=_KEEP_MS)
                pipe.publish(channel, data)
                await pipe.execute()
        else:
            await self._redis.publish(channel, data)

    async def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """See :meth:`Bus.versions`."""
        ids = list(table_ids)
        if not ids:
            return {}
        values = await self._redis.mget([self._k("v", t) for t in ids])
        return {t: int(v) for t, v in zip(ids, values, strict=True) if v is not None}

    async def set_presence(self, table_id: str, seated: dict[int, int], spectators: int) -> None:
        """See :meth:`Bus.set_presence`."""
        key = self._k("presence", table_id)
        counts = {str(s): n for s, n in seated.items() if n}
        async with self._redis.pipeline(transaction=True) as pipe:
            if counts or spectators:
                pipe.hset(key, self.node, json.dumps({"seats": counts, "spectators": spectators}))
                pipe.pexpire(key, _KEEP_MS)
            else:
                pipe.hdel(key, self.node)
            pipe.publish(self._k("t", table_id), Notice("presence", table_id).to_json(self.node))
            await pipe.execute()

    async def set_autoplay(self, table_id: str, seats: Iterable[int]) -> None:
        """See :meth:`Bus.set_autoplay`."""
        key = self._k("presence", table_id)
        listed = sorted(seats)
        async with self._redis.pipeline(transaction=True) as pipe:
            if listed:
                pipe.hset(key, "autoplay", json.dumps(listed))
                pipe.pexpire(key, _KEEP_MS)
            else:
                pipe.hdel(key, "autoplay")
            pipe.publish(self._k("t", table_id), Notice("presence", table_id).to_json(self.node))
            await pipe.execute()

    async def presence(self, table_id: str) -> Presence:
        """See :meth:`Bus.presence` (entries of dead processes are removed on the way)."""
        key = self._k("presence", table_id)
        raw = {str(k): str(v) for k, v in (await self._redis.hgetall(key)).items()}
        autoplay_raw = raw.pop("autoplay", None)
        nodes = [n for n in raw if n != self.node]
        seated: dict[int, int] = {}
        spectators = 0
        if nodes:
            alive = await self._redis.mget([self._k("node", n) for n in nodes])
            dead = [n for n, beat in zip(nodes, alive, strict=True) if beat is None]
            if dead:
                await self._redis.hdel(key, *dead)
            for node, beat in zip(nodes, alive, strict=True):
                if beat is None:
                    continue
                try:
                    entry = json.loads(raw[node])
                    for seat, n in entry.get("seats", {}).items():
                        seated[int(seat)] = seated.get(int(seat), 0) + int(n)
                    spectators += int(entry.get("spectators", 0))
                except (ValueError, TypeError, AttributeError):
                    log.warning("bus: ignoring a malformed presence entry at a table")
        autoplay: tuple[int, ...] = ()
        if autoplay_raw:
            try:
                autoplay = tuple(int(s) for s in json.loads(autoplay_raw))
            except (ValueError, TypeError):
                autoplay = ()
        return Presence(seated, spectators, autoplay)

    async def hold(self, table_id: str) -> bool:
        """See :meth:`Bus.hold`."""
        done = await self._hold(keys=[self._k("lease", table_id)], args=[self.node, self._ms])
        return bool(done)

    async def release(self, table_id: str) -> None:
        """See :meth:`Bus.release`."""
        await self._release(keys=[self._k("lease", table_id)], args=[self.node])

    async def holders(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """See :meth:`Bus.holders`."""
        ids = list(table_ids)
        if not ids:
            return {}
        values = await self._redis.mget([self._k("lease", t) for t in ids])
        return {t: None if v is None else str(v) for t, v in zip(ids, values, strict=True)}

    async def heartbeat(self) -> bool:
        """See :meth:`Bus.heartbeat`."""
        previous = await self._redis.set(self._k("node", self.node), "1", px=self._ms, get=True)
        return previous is None


def open_bus(url: str | None, *, prefix: str = "rummy500:", lease_seconds: float = 10.0) -> Bus:
    """The bus a URL names: ``None`` for the private in-process bus, ``redis://...`` for Redis.

    Raises:
        BusError: The scheme is not supported, or the ``redis`` package is missing.
    """
    if not url:
        return MemoryBus(lease_seconds=lease_seconds)
    _check_url(url)
    return RedisBus(url, prefix=prefix, lease_seconds=lease_seconds)


def _check_url(url: str) -> None:
    scheme = url.split(":", 1)[0].lower()
    if scheme not in ("redis", "rediss", "unix"):
        raise BusError(f"unsupported Redis URL {_safe(url)!r}: use redis://host:6379/0")
    try:
        import redis  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise BusError("--redis needs the 'redis' package (pip install 'redis>=5')") from exc


def check_redis(url: str, timeout: float = 5.0) -> None:
    """Ping Redis once, synchronously (the command line checks before starting).

    Raises:
        BusError: Not a Redis URL, the package is missing, or Redis does not answer.
    """
    _check_url(url)
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        client.ping()
    except Exception as exc:  # noqa: BLE001 - any connection failure
        raise BusError(f"cannot reach Redis at {_safe(url)}: {exc}") from exc
    finally:
        client.close()


def _safe(url: str) -> str:
    """A URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return f"{scheme}{sep}{rest}"
