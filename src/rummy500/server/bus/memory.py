"""The in-process bus: private to one server, or shared between apps of one Python process."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from rummy500.server.bus.base import CHAT_KEEP, Bus, Handler, Notice, Presence

__all__ = ["MemoryBroker", "MemoryBus"]


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
        self.chats: dict[str, deque[dict[str, Any]]] = {}

    def deliver(self, sender: str, notice: Notice) -> None:
        """Hand a notice to the other subscribers that watch its table, each on its own event loop.

        Those are the apps with connections at the table (a presence entry)
        and the one holding its lease, as on Redis.
        """
        with self.lock:
            watching = set(self.presence.get(notice.table_id, ()))
            lease = self.leases.get(notice.table_id)
            if lease is not None and lease[1] > self.clock():
                watching.add(lease[0])
            targets = [(loop, h) for node, (loop, h) in self.subscribers.items() if node != sender and node in watching]
        for loop, handler in targets:
            if not loop.is_closed():
                loop.call_soon_threadsafe(handler, notice)


class MemoryBus(Bus):
    """The in-process bus: private (one server, the default) or on a shared :class:`MemoryBroker`."""

    def __init__(
        self,
        broker: MemoryBroker | None = None,
        lease_seconds: float = 10.0,
        node: str | None = None,
        heartbeat_seconds: float | None = None,
    ):
        """A bus of its own, or one on ``broker`` shared with other apps of this process.

        Args:
            broker: Shared state; ``None`` for a private one (then ``shared`` is false).
            lease_seconds: Lease lifetime.
            node: This app's id (default: random).
            heartbeat_seconds: Heartbeat lifetime (default: ``lease_seconds``).
        """
        super().__init__(lease_seconds, node, heartbeat_seconds)
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
        """Deliver to the other apps that watch the table."""
        if notice.kind == "version" and notice.version is not None:
            with self.broker.lock:
                self.broker.versions[notice.table_id] = notice.version
        elif notice.kind == "chat":
            with self.broker.lock:
                lines = self.broker.chats.setdefault(notice.table_id, deque(maxlen=CHAT_KEEP))
                lines.append(notice.chat_line())
        self.broker.deliver(self.node, notice)

    async def chat_history(self, table_id: str) -> list[dict[str, Any]]:
        """See :meth:`Bus.chat_history`."""
        with self.broker.lock:
            return list(self.broker.chats.get(table_id, ()))

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
            if holder is None or holder[1] <= now or holder[0] == self.node or not self._live(holder[0]):
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

    async def live_nodes(self, nodes: Iterable[str]) -> set[str]:
        """See :meth:`Bus.live_nodes`."""
        with self.broker.lock:
            return {n for n in nodes if self._live(n)}

    async def heartbeat(self) -> bool:
        """See :meth:`Bus.heartbeat`."""
        now = self.broker.clock()
        with self.broker.lock:
            lapsed = self.broker.alive.get(self.node, -1.0) <= now
            self.broker.alive[self.node] = now + self.heartbeat_seconds
            return lapsed
