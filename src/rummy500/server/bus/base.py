"""The :class:`Bus` interface: what server processes share besides the database."""

from __future__ import annotations

import json
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["CHAT_KEEP", "Bus", "BusError", "Handler", "Notice", "NoticeKind", "Presence"]

NoticeKind = Literal["version", "presence", "lobby", "chat", "ready", "table", "resync"]

#: The kinds of notice sent between processes (``resync`` is the bus's own, never sent).
_KINDS = ("version", "presence", "lobby", "chat", "ready", "table")

#: Chat lines of a table the bus keeps for pages that (re)connect to any process.
CHAT_KEEP = 50


class BusError(RuntimeError):
    """The bus cannot be reached or refused a command."""


@dataclass(frozen=True)
class Notice:
    """A message from another process about one table.

    Attributes:
        kind: ``version`` (a new action is stored), ``presence`` (someone
            connected or left, or the driver's stand-ins changed), ``lobby`` (a
            table in the lobby changed), ``chat``, ``ready``, ``table`` (a
            finished table got its next table: read it from the database), or ``resync`` (the bus was
            away: every table may have missed notices; ``table_id`` is empty).
        table_id: The table.
        version: For ``version``: the version now stored; for ``ready``: the
            version whose round summary was read.
        seat: For ``chat``: the speaker's seat; for ``ready``: the reader's.
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
        if not isinstance(body, dict) or body.get("k") not in _KINDS:
            raise ValueError("not a notice")
        return str(body["n"]), cls(
            kind=body["k"],
            table_id=str(body["t"]),
            version=body.get("v"),
            seat=body.get("s"),
            name=body.get("m"),
            text=body.get("x"),
        )

    def chat_line(self) -> dict[str, Any]:
        """A ``chat`` notice as the ``chat`` message sockets are sent."""
        return {"type": "chat", "seat": self.seat, "from": self.name or "", "text": self.text or ""}


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
        lease_seconds: How long a lease lasts without renewal.
        heartbeat_seconds: How long a heartbeat lasts without renewal.
    """

    def __init__(
        self, lease_seconds: float = 10.0, node: str | None = None, heartbeat_seconds: float | None = None
    ) -> None:
        """Set the lease period and this process's id.

        Args:
            lease_seconds: Lease lifetime; renew at least every third of it.
            node: This process's id (default: random).
            heartbeat_seconds: Heartbeat lifetime (default: ``lease_seconds``);
                a lease whose holder's heartbeat lapsed may be taken at once.
        """
        self.node = node or secrets.token_hex(8)
        self.lease_seconds = lease_seconds
        self.heartbeat_seconds = heartbeat_seconds or lease_seconds

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
        """Tell the other processes that watch the table; a ``version`` notice also records its version, a ``chat`` one the line.

        A process watches a table while it has connections there (its
        :meth:`set_presence` entry) or holds its lease; the others are not
        told (they read storage when they start watching it).
        """

    async def publish_versions(self, versions: list[tuple[str, int]]) -> None:
        """Publish a ``version`` notice for each ``(table_id, version)``, in order (one trip where the bus can)."""
        for table_id, version in versions:
            await self.publish(Notice("version", table_id, version=version))

    @abstractmethod
    async def chat_history(self, table_id: str) -> list[dict[str, Any]]:
        """The last :data:`CHAT_KEEP` chat lines published at a table (by any process), oldest first.

        Each is a ``chat`` message: ``{"type": "chat", "seat", "from", "text"}``.
        """

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
        """Take the table's lease if it is free or its holder's heartbeat lapsed, or renew it if ours.

        Returns:
            Whether this process holds the lease now (for ``lease_seconds``).
        """

    async def hold_many(self, table_ids: Iterable[str]) -> dict[str, bool]:
        """:meth:`hold` for several tables (a bus may do them in one round trip).

        Raises:
            Exception: Whatever :meth:`hold` raises (then no lease is known).
        """
        return {t: await self.hold(t) for t in table_ids}

    @abstractmethod
    async def release(self, table_id: str) -> None:
        """Give the lease back if this process holds it."""

    @abstractmethod
    async def holders(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """The node holding each table's lease, ``None`` where it is free."""

    @abstractmethod
    async def live_nodes(self, nodes: Iterable[str]) -> set[str]:
        """Those of ``nodes`` whose heartbeat lives."""

    @abstractmethod
    async def heartbeat(self) -> bool:
        """Say this process is alive for ``heartbeat_seconds`` more.

        Returns:
            ``True`` when the previous heartbeat had lapsed (or this is the first),
            so this process's presence entries were ignored meanwhile and must
            be written again.
        """
