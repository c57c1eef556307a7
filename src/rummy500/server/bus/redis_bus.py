"""The bus on Redis, for several server processes serving the same tables."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rummy500.server.bus.base import CHAT_KEEP, Bus, BusError, Handler, Notice, Presence
from rummy500.server.config import safe_url

if TYPE_CHECKING:  # pragma: no cover - typing only
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

__all__ = ["RedisBus", "check_redis", "check_url"]

log = logging.getLogger(__name__)

#: How long version keys and presence hashes outlive their last write.
_KEEP_MS = 24 * 3600 * 1000
#: Seconds a Redis command (or a connection attempt) may take.
_TIMEOUT = 5.0

_HOLD = """
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur == ARGV[1] or redis.call('EXISTS', ARGV[3] .. cur) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

#: Delivers a notice to the processes that watch its table, never to the sender nor to the others:
#: those with connections there (the fields of its presence hash) and the one driving it (its lease).
#: Each process listens on its own channel ``inbox:{node}`` only, so a process parses the notices of
#: its tables, not those of every table of every process.
_DELIVER = """
local function deliver(presence, lease, me, inbox, data)
  local sent = {}
  sent[me] = true
  sent['autoplay'] = true
  for _, node in ipairs(redis.call('HKEYS', presence)) do
    if not sent[node] then
      sent[node] = true
      redis.call('PUBLISH', inbox .. node, data)
    end
  end
  local holder = redis.call('GET', lease)
  if holder and not sent[holder] then
    redis.call('PUBLISH', inbox .. holder, data)
  end
end
"""

#: One notice (KEYS: presence hash, lease; ARGV: sender, inbox prefix, notice).
_NOTIFY = (
    _DELIVER
    + """
deliver(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
return 0
"""
)

#: Version notices: for each table, keep its version (``v:{table}``) and deliver the notice, in
#: order, in one command (KEYS: version key, presence hash, lease, ...; ARGV: sender, inbox prefix,
#: then version, notice, ..., then the key's lifetime in ms). One script call costs the client far
#: less than a MULTI/SET/PUBLISH/EXEC pipeline.
_VERSIONS = (
    _DELIVER
    + """
local keep = ARGV[#ARGV]
local j = 3
for i = 1, #KEYS, 3 do
  redis.call('SET', KEYS[i], ARGV[j], 'PX', keep)
  deliver(KEYS[i + 1], KEYS[i + 2], ARGV[1], ARGV[2], ARGV[j + 1])
  j = j + 2
end
return 0
"""
)

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class _Line:
    """One bare redis-py connection for the notices' script calls, the commands of every move.

    redis-py's client spends about 100 µs of CPU on a command (its retries,
    metrics, and a task per send for its timeout). The same library's
    connection object, used directly, does the handshake (auth, database,
    name), writes the command and parses the reply for a fraction of that.
    One command at a time; any error drops the connection (the next call
    opens another).
    """

    def __init__(self, url: str, name: str) -> None:
        """Prepare a connection to ``url`` (opened on the first call), named ``name`` on the server."""
        from redis.asyncio.connection import Connection, UnixDomainSocketConnection, parse_url

        where: dict[str, Any] = dict(parse_url(url))
        where.pop("connection_class", None)
        kind = UnixDomainSocketConnection if "path" in where else Connection
        self.name = name
        self._conn = kind(
            **where, client_name=name, socket_connect_timeout=_TIMEOUT, socket_timeout=_TIMEOUT, retry=None
        )
        self._lock = asyncio.Lock()

    @staticmethod
    def usable(url: str) -> bool:
        """Whether a URL names a plain TCP or Unix socket (TLS goes through the client)."""
        return url.split(":", 1)[0].lower() in ("redis", "unix")

    async def call(self, *args: str | int) -> Any:
        """Send one command and return its reply.

        Raises:
            NoScriptError: An ``EVALSHA`` of a script Redis has not loaded.
            BusError: Redis answered with an error.
            OSError: The connection failed twice, on a new connection the
                second time (it is dropped).
            TimeoutError: No answer within the timeout (the connection is dropped).
        """
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import NoScriptError, ResponseError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        async with self._lock:
            for attempt in (1, 2):
                try:
                    await self._conn.send_command(*args)
                    return await self._conn.read_response()
                except NoScriptError:
                    raise
                except ResponseError as exc:
                    raise BusError(f"Redis refused a command: {exc}") from exc
                except RedisTimeoutError as exc:
                    await self._conn.disconnect()
                    raise TimeoutError(str(exc)) from exc
                except (RedisConnectionError, OSError) as exc:
                    await self._conn.disconnect()
                    if attempt == 2:
                        raise OSError(str(exc)) from exc
                    # A connection Redis dropped while idle (a restart, a timeout): once more on a new one.
                except BaseException:
                    await self._conn.disconnect()
                    raise
            raise AssertionError("unreachable")

    async def close(self) -> None:
        """Drop the connection (the next call opens another)."""
        await self._conn.disconnect()


class RedisBus(Bus):
    """The bus on Redis (``redis>=5``, its asyncio client).

    Keys, all under ``prefix`` (default ``rummy500:``): channel ``inbox:{node}``
    (the notices for a process: each listens on its own; a notice about a
    table goes to the processes with connections there and to its driver,
    see :data:`_DELIVER`), ``v:{table}``
    (last announced version), ``lease:{table}`` (the driver's node id),
    ``presence:{table}`` (a hash: node id to its connection counts, and
    ``autoplay``), ``chat:{table}`` (a list of the last chat lines),
    ``node:{node}`` (heartbeat). Version keys, presence hashes and chat lists
    expire a day after their last write; leases after ``lease_seconds``,
    heartbeats after ``heartbeat_seconds``. A lease whose holder's heartbeat
    is gone is free.
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "rummy500:",
        lease_seconds: float = 10.0,
        node: str | None = None,
        heartbeat_seconds: float | None = None,
    ) -> None:
        """Prepare a client for ``url`` (nothing is connected until :meth:`start`).

        Args:
            url: ``redis://[:password@]host:port/db`` (or ``rediss://`` for TLS).
            prefix: Prefix of every key and channel (several deployments may share a Redis).
            lease_seconds: Lease lifetime.
            node: This process's id (default: random).
            heartbeat_seconds: Heartbeat lifetime (default: ``lease_seconds``).
        """
        super().__init__(lease_seconds, node, heartbeat_seconds)
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
        self._versions = self._redis.register_script(_VERSIONS)
        self._notify = self._redis.register_script(_NOTIFY)
        #: The version notices' own connection (see :class:`_Line`), where the URL allows one.
        self._line = _Line(url, f"rummy500-line-{self.node}") if _Line.usable(url) else None
        #: How this process's own notices begin (Notice.to_json): never delivered here, dropped unparsed if they were.
        self._own = json.dumps({"n": self.node}, separators=(",", ":"))[:-1] + ","
        #: Where the inbox channels begin (a process's own is this and its node name).
        self._inboxes = self._k("inbox", "")
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
        inbox = self._k("inbox", self.node)
        connected_before = False
        lost = False  # an outage is under way: said once when it starts and once when it ends
        delay = 0.1
        while not self._closing:
            pubsub: PubSub = self._sub.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(inbox)
                ready.set()
                if lost:
                    log.info("bus: Redis is back")
                    lost = False
                if connected_before and self._handler is not None:
                    # Notices published while we were away are lost: recheck every table.
                    self._handler(Notice("resync", ""))
                connected_before = True
                delay = 0.1
                while not self._closing:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis went away: retry
                if not self._closing:
                    # Once per outage: each later try (every 5 s at most) only at debug level.
                    say = log.debug if lost else log.warning
                    say("bus: lost Redis (%s); reconnecting in %.1fs", exc, delay)
                    lost = True
            finally:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await pubsub.aclose()
            if not self._closing:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _dispatch(self, data: str) -> None:
        if data.startswith(self._own) or self._handler is None:  # our own notice, back from Redis
            return
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
        if self._line is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._line.close()
        for client in (self._redis, self._sub):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await client.aclose()

    async def _run(self, script: Any, keys: list[str], args: list[Any]) -> None:
        """Run a registered script: on the bare connection if there is one, else (or to load it) via the client."""
        from redis.exceptions import NoScriptError

        if self._line is not None:
            try:
                await self._line.call("EVALSHA", script.sha, len(keys), *keys, *args)
                return
            except NoScriptError:
                pass  # the client loads it (once), then runs it
        await script(keys=keys, args=args)

    def _to(self, table_id: str) -> list[str]:
        """The keys that say who watches a table: its presence hash and its lease."""
        return [self._k("presence", table_id), self._k("lease", table_id)]

    async def publish(self, notice: Notice) -> None:
        """See :meth:`Bus.publish`: delivered to the processes watching the table (see :data:`_DELIVER`)."""
        data = notice.to_json(self.node)
        if notice.kind == "version" and notice.version is not None:
            await self._run(
                self._versions,
                [self._k("v", notice.table_id), *self._to(notice.table_id)],
                [self.node, self._inboxes, notice.version, data, _KEEP_MS],
            )
        elif notice.kind == "chat":
            key = self._k("chat", notice.table_id)
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.rpush(key, json.dumps(notice.chat_line(), separators=(",", ":")))
                pipe.ltrim(key, -CHAT_KEEP, -1)
                pipe.pexpire(key, _KEEP_MS)
                await self._notify_in(pipe, notice, data)
                await pipe.execute()
        else:
            await self._run(self._notify, self._to(notice.table_id), [self.node, self._inboxes, data])

    async def publish_versions(self, versions: list[tuple[str, int]]) -> None:
        """See :meth:`Bus.publish_versions`: every table's version and notice in one transaction."""
        if not versions:
            return
        keys: list[str] = []
        args: list[Any] = [self.node, self._inboxes]
        for table_id, version in versions:
            keys += [self._k("v", table_id), *self._to(table_id)]
            args += [version, Notice("version", table_id, version=version).to_json(self.node)]
        await self._run(self._versions, keys, [*args, _KEEP_MS])

    async def chat_history(self, table_id: str) -> list[dict[str, Any]]:
        """See :meth:`Bus.chat_history`."""
        out: list[dict[str, Any]] = []
        for raw in await self._redis.lrange(self._k("chat", table_id), 0, -1):
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if isinstance(line, dict) and line.get("type") == "chat":
                out.append(line)
        return out

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
            await self._notify_in(pipe, Notice("presence", table_id))
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
            await self._notify_in(pipe, Notice("presence", table_id))
            await pipe.execute()

    async def _notify_in(self, pipe: Any, notice: Notice, data: str | None = None) -> None:
        """Queue the delivery of ``notice`` (its JSON ``data``, if already made) in a transaction, after the writes it tells of."""
        if data is None:
            data = notice.to_json(self.node)
        await self._notify(keys=self._to(notice.table_id), args=[self.node, self._inboxes, data], client=pipe)

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
        done = await self._hold(keys=[self._k("lease", table_id)], args=[self.node, self._ms, self._k("node", "")])
        return bool(done)

    async def hold_many(self, table_ids: Iterable[str]) -> dict[str, bool]:
        """See :meth:`Bus.hold_many`: one pipeline (one round trip) for all of them."""
        ids = list(table_ids)
        if not ids:
            return {}
        async with self._redis.pipeline(transaction=False) as pipe:
            for t in ids:
                await self._hold(
                    keys=[self._k("lease", t)], args=[self.node, self._ms, self._k("node", "")], client=pipe
                )
            done = await pipe.execute()
        return {t: bool(d) for t, d in zip(ids, done, strict=True)}

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

    async def live_nodes(self, nodes: Iterable[str]) -> set[str]:
        """See :meth:`Bus.live_nodes`."""
        ids = list(nodes)
        if not ids:
            return set()
        beats = await self._redis.mget([self._k("node", n) for n in ids])
        return {n for n, beat in zip(ids, beats, strict=True) if beat is not None}

    async def heartbeat(self) -> bool:
        """See :meth:`Bus.heartbeat`."""
        ms = max(1, int(self.heartbeat_seconds * 1000))
        previous = await self._redis.set(self._k("node", self.node), "1", px=ms, get=True)
        return previous is None


def check_url(url: str) -> None:
    """Refuse a URL that is not Redis's, or a missing ``redis`` package.

    Raises:
        BusError: The scheme is not supported, or the ``redis`` package is missing.
    """
    scheme = url.split(":", 1)[0].lower()
    if scheme not in ("redis", "rediss", "unix"):
        raise BusError(f"unsupported Redis URL {safe_url(url)!r}: use redis://host:6379/0")
    try:
        import redis  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise BusError("--redis needs the 'redis' package (pip install 'redis>=5')") from exc


def check_redis(url: str, timeout: float = 5.0) -> None:
    """Ping Redis once, synchronously (the command line checks before starting).

    Raises:
        BusError: Not a Redis URL, the package is missing, or Redis does not answer.
    """
    check_url(url)
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    except ValueError as exc:  # a port that is not a number, say
        raise BusError(f"malformed Redis URL {safe_url(url)!r}: {exc}") from exc
    try:
        client.ping()
    except Exception as exc:  # noqa: BLE001 - any connection failure
        raise BusError(f"cannot reach Redis at {safe_url(url)}: {exc}") from exc
    finally:
        client.close()
