"""Several server processes, one set of tables: how a process keeps in step with the others.

Only used when the bus is shared (``--redis``); one process alone never builds
a :class:`Cluster`. Any process may hold sockets for any table and the stored
log is the only truth; the cluster adds, per process:

- **Fan-out.** A session of this process that stores an action tells the bus
  "table T is at version v" (:meth:`Cluster.committed`). The bus tells the
  processes that watch T (those with sockets there, and its driver); each
  catches up from the database (only the actions
  after its version) and the hub sends each of its sockets its own view. Chat
  lines go over the bus as they are; a table in the lobby is told to refresh
  (and a seat given back there closes the sockets that held it, wherever they are);
  a finished table whose players open its next table ("play again") is told
  to reread it, so every socket there learns ``next_table``.
- **One driver per table.** Every session starts passive; the process that
  holds the table's lease drives its bots and stand-ins. Leases are renewed
  every third of ``lease_seconds``; a process that cannot renew stops driving.
  Heartbeats are renewed every third of ``heartbeat_seconds``, and at each
  beat a process takes over the tables whose driver's heartbeat lapsed (a
  process killed outright), so their bots resume within about
  ``heartbeat_seconds``.
  Every few sweeps a process also adopts the running games that nobody drives
  (after a crash, or at the first start), which is also how games are restored.
- **Presence.** The counts of this process's sockets per seat are written to
  the bus after every connect and disconnect; a ``presence`` notice makes every
  other process read the sum of the others' counts into its session (and the
  driving session announces which away seats its bots play).
- **Repair.** Each sweep compares the versions announced on the bus with the
  sessions here, and every few sweeps (and when a process dies) presence is
  reread, so a lost notice costs at most a few sweep periods. The finished
  tables watched here reread their next table (each sweep until they have
  one), and every few sweeps the sockets seated in a waiting room here are
  checked against the stored seats. When the bus comes back after a drop,
  every table here is looked at again (versions, presence, waiting rooms,
  next tables). Whatever is lost, a socket whose seat was given back is never
  sent that seat's cards: a game started or loaded here checks its sockets'
  tokens first (:meth:`~rummy500.server.session.MatchSession.seat_check`), and
  while they cannot be read no seated socket is sent its seat's view (the
  manager reads them again until it can).
- **Pace.** A person who has read a round summary says so to every process
  (``ready``), so the table's hold ends everywhere once all have, whichever
  process each is connected to. Chat lines are kept by the bus, so a page
  (re)connecting to any process gets the lines said through the others.

Notices are handled per table by one worker task, coalesced (ten version
notices cost one catch-up), so a slow database read never holds up other
tables.

While Redis is away every step fails at every beat and sweep; each kind of
failure (heartbeat, leases, versions, presence, notices...) is logged once,
as a warning, and once more when it works again (info), never at every try.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import Any, Protocol

from rummy500.server.bus import Bus, Notice, Presence
from rummy500.server.hub import Hub
from rummy500.server.session import MatchSession, SessionError, short_id, without_id
from rummy500.server.storage import Storage

__all__ = ["Cluster", "TableHost"]

log = logging.getLogger(__name__)

#: Sweeps between two scans of the database for running games nobody drives.
ORPHAN_EVERY = 3

#: The kinds of bus work whose failures are logged once per outage, in words.
STEPS = {
    "heartbeat": "heartbeat",
    "leases": "renewing leases",
    "versions": "reading the announced versions",
    "presence": "reading presence",
    "notices": "sending notices",
    "chat": "reading the chat history",
    "orphans": "looking for undriven games",
    "sweep": "sweep",
}


class TableHost(Protocol):
    """What the cluster needs of the process's tables (the :class:`~rummy500.server.manager.TableManager`)."""

    hub: Hub
    storage: Storage
    sessions: dict[str, MatchSession]

    async def session(self, table_id: str) -> MatchSession | None:
        """The live session of a started game, loading it from storage if needed."""

    async def broadcast_lobby(self, table_id: str) -> None:
        """Send this process's sockets at a table in the lobby its public facts."""

    async def lobby_seats_changed(self, table_id: str) -> None:
        """A table in the lobby changed elsewhere: close the sockets whose seat was given back, tell the rest."""

    async def drop_stale_seats(self, table_id: str) -> int:
        """Close this process's sockets at a table whose token no longer holds their seat."""

    async def store_end(self, session: MatchSession) -> None:
        """Store a finished game's record and result."""

    async def next_table_changed(self, table_id: str) -> None:
        """A finished table got its next table elsewhere: tell its sockets here."""

    def prune(self) -> None:
        """Forget the sessions nobody here watches or drives."""

    def active_since(self) -> datetime:
        """Games not played since then are not adopted (they load when opened)."""


class Cluster:
    """One process's side of a shared bus: relays its sessions, follows the others, drives its leases."""

    def __init__(self, manager: TableHost, bus: Bus) -> None:
        """Wire the cluster to the manager (which owns the sessions) and the bus.

        Args:
            manager: This process's tables (the table manager).
            bus: A shared bus (``bus.shared`` is true).
        """
        self.manager = manager
        self.hub = manager.hub
        self.bus = bus
        self.period = bus.lease_seconds / 3
        #: Tables whose lease this process holds.
        self.held: set[str] = set()
        self._outbox: asyncio.Queue[tuple[str, str, Any]] = asyncio.Queue()
        self._presence_queued: set[str] = set()
        self._pending: dict[str, dict[str, int | None]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        #: Nodes seen dead (their orphans were looked for once).
        self._mourned: set[str] = set()
        #: The kinds of :data:`STEPS` failing now (their failure was logged; their recovery will be).
        self.failing: set[str] = set()

    # ---------------------------------------------------------------- outages
    def _failed(self, step: str, exc: object, detail: str = "") -> None:
        """Log a failure of ``step`` if it is the first since it last worked (a debug line otherwise).

        Args:
            step: A key of :data:`STEPS`.
            exc: What failed.
            detail: What it means for this process (``; not driving``).
        """
        if step in self.failing:
            log.debug("cluster: %s failed again: %s", STEPS[step], exc)
            return
        self.failing.add(step)
        log.warning(
            "cluster: %s failed: %s%s (not logged again until it works)", STEPS[step], exc, detail
        )

    def _worked(self, step: str) -> None:
        """``step`` worked: say so once if it had failed."""
        if step in self.failing:
            self.failing.discard(step)
            log.info("cluster: %s works again", STEPS[step])

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Connect to the bus and start the sender and the sweeps.

        Raises:
            BusError: The bus cannot be reached.
        """
        await self.bus.start(self._on_notice)
        await self.bus.heartbeat()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._send_loop(), name="cluster-send"),
            loop.create_task(self._sweep_loop(), name="cluster-sweep"),
            loop.create_task(self._beat_loop(), name="cluster-beat"),
        ]
        log.info("cluster: node %s on the shared bus (lease %.1fs)", self.bus.node, self.bus.lease_seconds)

    async def stop(self) -> None:
        """Stop the sweeps and the notice workers (sessions are closed next by the manager)."""
        self._stopping = True
        tasks = [*self._tasks, *self._workers.values()]
        self._tasks = []
        self._workers.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            # A client library may turn a cancellation into its own error; the
            # loops then see _stopping. Never wait for ever on a shutdown.
            _, stuck = await asyncio.wait(tasks, timeout=5.0)
            for task in stuck:
                log.warning("cluster: task %s did not stop", task.get_name())

    async def close(self) -> None:
        """Send what is queued (briefly), give the leases back and leave the bus."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush(), timeout=2.0)
        for table_id in list(self.held):
            with contextlib.suppress(Exception):
                await self.bus.release(table_id)
        self.held.clear()
        await self.bus.close()

    async def _flush(self) -> None:
        while not self._outbox.empty():
            await self._send(*self._outbox.get_nowait())

    # --------------------------------------------------- SessionRelay (out)
    def committed(self, session: MatchSession) -> None:
        """Announce the session's new version (it is stored)."""
        self._outbox.put_nowait(("version", session.game_id, session.version))

    def said(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        """Pass a chat line to the other processes."""
        self.said_at(session.game_id, sender, seat, text)

    def said_at(self, table_id: str, sender: str, seat: int, text: str) -> None:
        """Pass a chat line said at a table (in its waiting room too) to the other processes."""
        self._outbox.put_nowait(("chat", table_id, (seat, sender, text)))

    def ready(self, session: MatchSession, seat: int) -> None:
        """Pass on that a person here has read the round summary (every process holds the table for them)."""
        self._outbox.put_nowait(("ready", session.game_id, (seat, session.version)))

    async def chat_history(self, table_id: str) -> list[dict[str, Any]] | None:
        """The table's recent chat lines, said through any process (``None`` if the bus does not answer)."""
        try:
            lines = await self.bus.chat_history(table_id)
        except Exception as exc:  # noqa: BLE001 - fall back on the lines heard here
            _reraise_cancellation(exc)
            self._failed("chat", exc)
            return None
        self._worked("chat")
        return lines

    def autoplay_changed(self, session: MatchSession, seats: tuple[int, ...]) -> None:
        """Announce (as the driver) which away seats the bots play."""
        self._outbox.put_nowait(("autoplay", session.game_id, seats))

    def presence_changed(self, table_id: str) -> None:
        """This process's sockets at a table changed: write the counts when the sender gets to it."""
        if table_id not in self._presence_queued:
            self._presence_queued.add(table_id)
            self._outbox.put_nowait(("presence", table_id, None))

    def lobby_changed(self, table_id: str) -> None:
        """A table in the lobby changed (someone joined, left or was removed): the others refresh its sockets."""
        self._outbox.put_nowait(("lobby", table_id, None))

    def table_changed(self, table_id: str) -> None:
        """A finished table got its next table ("play again"): the others tell their sockets there."""
        self._outbox.put_nowait(("table", table_id, None))

    async def _send_loop(self) -> None:
        while not self._stopping:
            items = [await self._outbox.get()]
            while not self._outbox.empty() and len(items) < 256:
                items.append(self._outbox.get_nowait())
            # In order; the version notices that follow one another go in one trip.
            versions: list[tuple[str, int]] = []
            for kind, table_id, data in items:
                if kind == "version":
                    versions.append((table_id, data))
                    continue
                if versions:
                    await self._send_versions(versions)
                    versions = []
                await self._send(kind, table_id, data)
            if versions:
                await self._send_versions(versions)

    async def _send_versions(self, versions: list[tuple[str, int]]) -> None:
        if len(versions) == 1:
            await self._send("version", *versions[0])
            return
        try:
            await self.bus.publish_versions(versions)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the sweep repairs what a lost notice misses
            _reraise_cancellation(exc)
            self._failed("notices", exc, f" ({len(versions)} version notices lost; the sweep repairs them)")
            return
        self._worked("notices")

    async def _send(self, kind: str, table_id: str, data: Any) -> None:
        # One sender, in order: chat lines keep their order, and presence is
        # read from the hub when written, so the last write is the truth.
        try:
            if kind == "presence":
                self._presence_queued.discard(table_id)
                conns = self.hub.connections(table_id)
                await self.bus.set_presence(
                    table_id, self.hub.seated(table_id), sum(1 for c in conns if c.seat is None)
                )
                if conns:
                    await self._watching(table_id)
            elif kind == "version":
                await self.bus.publish(Notice("version", table_id, version=data))
            elif kind == "chat":
                seat, sender, text = data
                await self.bus.publish(Notice("chat", table_id, seat=seat, name=sender, text=text))
            elif kind == "ready":
                seat, version = data
                await self.bus.publish(Notice("ready", table_id, seat=seat, version=version))
            elif kind == "autoplay":
                await self.bus.set_autoplay(table_id, data)
            elif kind == "lobby":
                await self.bus.publish(Notice("lobby", table_id))
            elif kind == "table":
                await self.bus.publish(Notice("table", table_id))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the sweep repairs what a lost notice misses
            _reraise_cancellation(exc)
            self._failed("notices", exc, f" (a {kind} notice lost; the sweep repairs it)")
            return
        self._worked("notices")

    async def _watching(self, table_id: str) -> None:
        """This process's presence at a table is written: what it may have missed before reaches it now.

        Notices go only to the processes that watch a table, and this one
        watches it from that write on; a move announced between the page's
        first state and the write would otherwise wait for a sweep. So the
        announced version is read once more, and a table in the lobby is
        refreshed.
        """
        announced = await self.bus.versions([table_id])
        self._repair(announced)
        if table_id not in self.manager.sessions and table_id not in announced:
            self._mark(table_id, "lobby")

    def _repair(self, announced: dict[str, int]) -> None:
        """Catch up the tables here that are behind the versions announced on the bus."""
        for table_id, version in announced.items():
            here = self.manager.sessions.get(table_id)
            if here is not None:
                here.note_version(version)
            if (here is None and table_id in self.hub.rooms) or (here is not None and version > here.version):
                self._mark(table_id, "version", version)

    # ------------------------------------------------------------ notices in
    def _interested(self, table_id: str) -> bool:
        return table_id in self.hub.rooms or table_id in self.manager.sessions

    def _on_notice(self, notice: Notice) -> None:
        if notice.kind == "resync":
            # Notices may have been lost while the bus was away: a table in
            # the lobby may have lost a seat (its sockets here are checked),
            # a finished one may have got its next table.
            for table_id in {*self.hub.rooms, *self.manager.sessions}:
                self._mark(table_id, "presence")
                self._mark(table_id, "version")
                session = self.manager.sessions.get(table_id)
                if session is None:
                    self._mark(table_id, "lobby")
                elif session.finished and table_id in self.hub.rooms:
                    self._mark(table_id, "table")
            return
        table_id = notice.table_id
        if not self._interested(table_id):
            return
        if notice.kind == "chat":
            if notice.seat is not None and notice.text:
                here = self.manager.sessions.get(table_id)
                if here is not None:
                    here.remember_chat(notice.name or "", notice.seat, notice.text)
                self.hub.send_chat(table_id, notice.name or "", notice.seat, notice.text)
            return
        if notice.kind == "ready":
            here = self.manager.sessions.get(table_id)
            if here is not None and notice.seat is not None and notice.version is not None:
                here.remote_ready(notice.seat, notice.version)
            return
        if notice.kind == "version" and notice.version is not None:
            session = self.manager.sessions.get(table_id)
            if session is not None:
                session.note_version(notice.version)
        self._mark(table_id, notice.kind, notice.version)

    def _mark(self, table_id: str, kind: str, version: int | None = None) -> None:
        """Queue work for a table's worker; a ``version`` of ``None`` means: read storage whatever."""
        pending = self._pending.setdefault(table_id, {})
        if kind == "version" and kind in pending:
            known = pending[kind]
            pending[kind] = None if known is None or version is None else max(known, version)
        else:
            pending[kind] = version
        task = self._workers.get(table_id)
        if task is None or task.done():
            self._workers[table_id] = asyncio.get_running_loop().create_task(
                self._work(table_id), name=f"cluster-{short_id(table_id)}"
            )

    async def _work(self, table_id: str) -> None:
        while (pending := self._pending.pop(table_id, None)) is not None:
            try:
                if "presence" in pending:
                    await self.refresh_presence(table_id)
                # Seats given back before the version that starts the game: its
                # sockets here whose seat went are closed first.
                if "lobby" in pending:
                    await self.manager.lobby_seats_changed(table_id)
                elif "seats" in pending and await self.manager.drop_stale_seats(table_id):
                    await self.manager.broadcast_lobby(table_id)  # (the change this process missed)
                if "version" in pending:
                    await self._catch_up(table_id, pending["version"])
                if "table" in pending:
                    await self.manager.next_table_changed(table_id)
            except asyncio.CancelledError:
                raise
            except SessionError as exc:
                log.warning("cluster: table %s: %s", short_id(table_id), without_id(exc.message, table_id))
            except Exception as exc:  # noqa: BLE001 - one table's trouble must not stop the others
                _reraise_cancellation(exc)
                log.exception("cluster: table %s: handling a notice failed", short_id(table_id))
        self._workers.pop(table_id, None)

    async def _catch_up(self, table_id: str, version: int | None) -> None:
        session = self.manager.sessions.get(table_id)
        if session is None:
            if table_id in self.hub.rooms:
                # Started elsewhere (or not loaded here yet): load it; the
                # sockets here get their first state.
                await self.manager.session(table_id)
            return
        if version is not None and session.version >= version:
            return
        await session.catch_up()

    async def presence(self, table_id: str) -> Presence:
        """The other processes' presence at a table (empty if the bus does not answer)."""
        try:
            found = await self.bus.presence(table_id)
        except Exception as exc:  # noqa: BLE001 - show local presence only
            _reraise_cancellation(exc)
            self._failed("presence", exc)
            return Presence()
        self._worked("presence")
        return found

    async def refresh_presence(self, table_id: str) -> None:
        """Read the others' presence into the session (or refresh a lobby's sockets)."""
        found = await self.presence(table_id)
        session = self.manager.sessions.get(table_id)
        if session is not None:
            session.set_remote_presence(found.seated, found.spectators, found.autoplay)
        elif table_id in self.hub.rooms:
            await self.manager.broadcast_lobby(table_id)

    # ---------------------------------------------------------------- leases
    async def adopt(self, session: MatchSession) -> None:
        """Take in a session just made or loaded here: relay it, count the others' sockets, try its lease."""
        session.relay = self
        found = await self.presence(session.game_id)
        session.set_remote_presence(found.seated, found.spectators, found.autoplay)
        if not session.finished and not session.broken:
            await self._hold(session)

    async def _hold(self, session: MatchSession) -> None:
        table_id = session.game_id
        try:
            holding = await self.bus.hold(table_id)
        except Exception as exc:  # noqa: BLE001 - unsure of the lease: stop driving
            _reraise_cancellation(exc)
            self._failed("leases", without_id(exc, table_id), "; not driving the tables whose lease is unknown")
            holding = False
        else:
            self._worked("leases")
        self._holding(session, holding)

    async def _hold_all(self, sessions: list[MatchSession]) -> None:
        """:meth:`_hold` for many sessions, in one round trip to the bus."""
        try:
            found = await self.bus.hold_many([s.game_id for s in sessions])
        except Exception as exc:  # noqa: BLE001 - unsure of the leases: stop driving
            _reraise_cancellation(exc)
            self._failed("leases", exc, "; not driving the tables whose lease is unknown")
            found = {}
        else:
            self._worked("leases")
        for session in sessions:
            if self.manager.sessions.get(session.game_id) is session:
                self._holding(session, found.get(session.game_id, False))

    def _holding(self, session: MatchSession, holding: bool) -> None:
        table_id = session.game_id
        if holding:
            if table_id not in self.held:
                log.info("cluster: driving table %s", short_id(table_id))
                # The last driver may have died before announcing its last action.
                self._mark(table_id, "version")
            self.held.add(table_id)
        elif table_id in self.held:
            log.info("cluster: no longer driving table %s", short_id(table_id))
            self.held.discard(table_id)
        session.set_driving(holding)

    async def _let_go(self, session: MatchSession) -> None:
        session.set_driving(False)
        self.held.discard(session.game_id)
        with contextlib.suppress(Exception):
            await self.bus.release(session.game_id)

    # ---------------------------------------------------------------- sweeps
    async def _sweep_loop(self) -> None:
        ticks = 0
        while not self._stopping:
            await asyncio.sleep(self.period)
            ticks += 1
            try:
                await self.sweep(orphans=ticks % ORPHAN_EVERY == 0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - try again next period
                _reraise_cancellation(exc)
                self._failed("sweep", exc)
            else:
                self._worked("sweep")

    async def sweep(self, *, orphans: bool = False) -> None:
        """Heartbeat, renew or take leases, repair missed notices, and forget idle sessions.

        Args:
            orphans: Also adopt running games that no process drives.
        """
        # Each step on its own: with the bus away the leases still fail to
        # renew (so this process stops driving) and idle sessions still go.
        sessions = dict(self.manager.sessions)
        playing = []
        for table_id, session in sessions.items():
            if session.finished or session.broken:
                if table_id in self.held or session.driving:
                    await self._let_go(session)
                continue
            playing.append(session)
        await self._hold_all(playing)
        interesting = {*self.hub.rooms, *sessions}
        try:
            announced = await self.bus.versions(interesting)
        except Exception as exc:  # noqa: BLE001
            _reraise_cancellation(exc)
            self._failed("versions", exc)
            announced = {}
        else:
            self._worked("versions")
        self._repair(announced)
        for table_id, session in sessions.items():
            # A next table opened through a process that died (or lost the bus)
            # before telling: the finished tables watched here look (each sweep
            # until they have one, then on the slower period).
            if session.finished and table_id in self.hub.rooms and (orphans or session.next_table is None):
                self._mark(table_id, "table")
        if orphans:
            # Presence notices are sent on every change; rereading every table's
            # presence (two Redis reads each) only repairs lost ones, so it is
            # done on the slower orphan period, not at every sweep.
            for table_id in sessions:
                self._mark(table_id, "presence")
            # A seat given back through a process that died before telling: the
            # sockets here that held it are closed (before the start, or at it).
            for table_id, conns in self.hub.rooms.items():
                if table_id not in sessions and any(c.seat is not None for c in conns):
                    self._mark(table_id, "seats")
            # A process that died between storing an action and announcing it
            # left no notice: the tables driven here look in storage now and then.
            for table_id in self.held:
                self._mark(table_id, "version")
            try:
                await self.adopt_orphans()
            except Exception as exc:  # noqa: BLE001
                _reraise_cancellation(exc)
                self._failed("orphans", exc)
            else:
                self._worked("orphans")
        self.manager.prune()

    async def _beat_loop(self) -> None:
        while not self._stopping:
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - try again next beat
                _reraise_cancellation(exc)
                self._failed("heartbeat", exc)
            else:
                self._worked("heartbeat")
            await asyncio.sleep(self.bus.heartbeat_seconds / 3)

    async def beat(self) -> None:
        """Renew this process's heartbeat, and take over the tables whose driver's heartbeat lapsed.

        A process killed outright announces nothing: its heartbeat key simply
        expires. Every beat looks at who holds the leases of the sessions here
        that this process does not drive; one whose holder is dead is taken at
        once, and the running games nobody here has loaded are scanned once
        per death.
        """
        if await self.bus.heartbeat():
            # Our heartbeat had lapsed, so the others ignored our presence: rewrite it.
            for table_id in list(self.hub.rooms):
                self.presence_changed(table_id)
        waiting = {t: s for t, s in self.manager.sessions.items() if not s.driving and not s.finished and not s.broken}
        if not waiting:
            return
        holders = await self.bus.holders(waiting)
        others = {h for h in holders.values() if h is not None and h != self.bus.node}
        dead = others - await self.bus.live_nodes(others)
        for table_id, holder in holders.items():
            if holder is None or holder in dead:
                await self._hold(waiting[table_id])
        if dead - self._mourned:
            self._mourned |= dead
            for table_id in self.manager.sessions:  # its sockets' seats are away now
                self._mark(table_id, "presence")
            log.info("cluster: node(s) %s stopped; taking their tables over", ", ".join(sorted(dead)))
            await self.adopt_orphans()

    async def adopt_orphans(self) -> int:
        """Load the running games that no process drives (this process takes their leases).

        Returns:
            How many games were loaded.
        """
        running = await asyncio.to_thread(self.manager.storage.running_ids, self.manager.active_since())
        missing = [t for t in running if t not in self.manager.sessions]
        holders = await self.bus.holders(missing)
        loaded = 0
        for table_id in missing:
            if holders.get(table_id) is not None:
                continue
            try:
                if await self.manager.session(table_id) is not None:
                    loaded += 1
            except Exception:  # noqa: BLE001 - one bad game must not stop the others
                log.exception("cluster: game %s could not be loaded", short_id(table_id))
        for table_id in running:
            session = self.manager.sessions.get(table_id)
            if session is not None and session.finished:
                # Its last action is stored but its end is not (the writer died).
                await self.manager.store_end(session)
        return loaded


def _reraise_cancellation(exc: Exception) -> None:
    """Re-raise a cancellation that a client library turned into an ordinary error.

    Raises:
        asyncio.CancelledError: The current task is being cancelled.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError from exc
