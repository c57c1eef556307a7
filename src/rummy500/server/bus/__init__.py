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
  its heartbeat lapses within ``heartbeat_seconds`` and another process takes
  the table over at once (or, at the latest, when the lease expires).
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

from rummy500.server.bus.base import Bus, BusError, Handler, Notice, NoticeKind, Presence
from rummy500.server.bus.memory import MemoryBroker, MemoryBus
from rummy500.server.bus.redis_bus import RedisBus, check_redis, check_url

__all__ = [
    "Bus",
    "BusError",
    "Handler",
    "MemoryBroker",
    "MemoryBus",
    "Notice",
    "NoticeKind",
    "Presence",
    "RedisBus",
    "check_redis",
    "open_bus",
]


def open_bus(
    url: str | None,
    *,
    prefix: str = "rummy500:",
    lease_seconds: float = 10.0,
    heartbeat_seconds: float | None = None,
) -> Bus:
    """The bus a URL names: ``None`` for the private in-process bus, ``redis://...`` for Redis.

    Raises:
        BusError: The scheme is not supported, or the ``redis`` package is missing.
    """
    if not url:
        return MemoryBus(lease_seconds=lease_seconds, heartbeat_seconds=heartbeat_seconds)
    check_url(url)
    return RedisBus(url, prefix=prefix, lease_seconds=lease_seconds, heartbeat_seconds=heartbeat_seconds)
