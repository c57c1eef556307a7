"""Tables from lobby to finish: creating, joining, starting, and the live sessions.

The :class:`TableManager` is the service layer between the routes and the rest:
it talks to the :class:`~rummy500.server.storage.Storage` for the lobby, deals
new games from a secret seed, owns the one :class:`MatchSession` of each live
game, and rebuilds every unfinished game from storage at startup. Routes stay
thin and translate its :class:`LobbyError` into HTTP answers.

Secrets: table ids and seat tokens come from :func:`secrets.token_urlsafe`;
only SHA-256 hashes of tokens are stored; the seed is drawn with
:func:`secrets.randbits` and only leaves the server inside the record of a
finished game.

With a shared bus (several server processes, ``--redis``) the manager also
owns a :class:`~rummy500.server.cluster.Cluster`: its sessions are then
``shared``, start passive, and drive their bots only while this process holds
the table's lease; sessions nobody here watches or drives are forgotten (they
reload from storage on demand).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from rummy500.server.bots import bot_levels, default_level
from rummy500.server.bus import Bus
from rummy500.server.cluster import Cluster
from rummy500.server.config import Settings
from rummy500.server.engine import IllegalAction, LiveGame, RulesError, parse_rules, server_rules_problems
from rummy500.server.hints import HintSearches, hint_for
from rummy500.server.hub import Connection, Hub, encode
from rummy500.server.pace import TableSettings
from rummy500.server.protocol import CreateTableRequest, SeatPublic, TableInfo, TableMessage, TableSettingsInfo
from rummy500.server.session import (
    MatchSession,
    SeatInfo,
    SessionError,
    clean_name,
    keep_chat_line,
    short_id,
    without_id,
)
from rummy500.server.session.events import label_actions
from rummy500.server.session.guards import ChatRate, chat_text
from rummy500.server.session.match import search_hint
from rummy500.server.storage import (
    AlreadyJoinedError,
    ChatLine,
    ConflictError,
    GameRow,
    NameTakenError,
    NewTable,
    NextSeat,
    SeatRow,
    Storage,
    StorageError,
    bot_name,
    name_key,
)
from rummy500.server.workers import Workers, rebuild, replay_steps
from rummy500.views import View

__all__ = ["DAMAGED_MESSAGE", "GameDamaged", "LobbyError", "TableManager", "hash_token"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds between two housekeeping rounds (expired lobby tables, idle sessions).
HOUSEKEEPING_SECONDS = 60.0
#: Finished games whose replay steps are kept in memory.
REPLAYS_KEPT = 8
#: Chat lines a game reloaded from storage shows to pages that (re)connect.
CHAT_LINES = 50
#: Seconds before the first new try to read a game's seat tokens that could not be read
#: (its seated sockets are shown nothing meanwhile); the wait doubles up to :data:`SEAT_TOKENS_RETRY_MAX`.
SEAT_TOKENS_RETRY_FIRST = 0.5
#: The longest wait between two tries to read a game's seat tokens.
SEAT_TOKENS_RETRY_MAX = 5.0
#: Stored games this version could not rebuild, remembered until the server stops (the last so many
#: found): opening one again is refused at once, without replaying its log again (:class:`GameDamaged`).
DAMAGED_KEPT = 512
#: What players are told of a stored game this version cannot rebuild (also the websocket's close reason).
DAMAGED_MESSAGE = "this game cannot be opened by this version of the server"
#: What a replay of a stored log raises when this version's engine refuses it (a move it finds
#: illegal, rules it no longer accepts, a verb it cannot read) or trips over it: the same every time.
_REPLAY_REFUSED: tuple[type[Exception], ...] = (
    ValueError,
    LookupError,
    TypeError,
    AttributeError,
    AssertionError,
    ArithmeticError,
)


class LobbyError(Exception):
    """A refused lobby request: an HTTP status, a stable code and a message."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        problems: list[str] | None = None,
        extra: dict[str, Any] | None = None,
    ):
        self.status = status
        self.code = code
        self.message = message
        self.problems = problems or []
        #: More fields of the ``detail`` (``already_joined``: the next table and the seat held there).
        self.extra = extra or {}
        super().__init__(message)

    def detail(self) -> dict[str, Any]:
        """The JSON ``detail`` of the HTTP error."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.problems:
            out["problems"] = self.problems
        out.update(self.extra)
        return out


class GameDamaged(Exception):
    """A stored game that this version of the engine cannot rebuild from its rules, seed and moves.

    Its log was played by an older version (a rules fix since, a deal that
    changed): replaying it is refused. ``reason`` says why in words that name
    no card; the engine's own message may name a card of a hidden hand ("you
    do not hold JK"), so it goes to the server's log only, once, never to a
    page. Its websocket is closed with 4410 (``message`` as the close reason:
    at most 123 bytes), its replay answers 409 ``damaged``.
    """

    code = "damaged"

    def __init__(self, table_id: str, reason: str) -> None:
        self.table_id = table_id
        self.reason = reason
        self.message = f"{DAMAGED_MESSAGE}: {reason}"
        super().__init__(self.message)

    def detail(self) -> dict[str, Any]:
        """The JSON ``detail`` of the HTTP error."""
        return {"code": self.code, "message": self.message}


def _damage_reason(exc: Exception) -> str:
    """Why a stored game could not be rebuilt, in words that name no card (whatever ``exc`` says)."""
    if isinstance(exc, IllegalAction):
        return "a stored move breaks its rules now"
    if isinstance(exc, RulesError):
        return "its rules are no longer accepted"
    if isinstance(exc, ValueError):
        return "a stored move can no longer be read"
    return "replaying its stored moves failed"


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _new_seed() -> int:
    return secrets.randbits(128)


def _settings(row: GameRow) -> TableSettings:
    """A stored table's settings; a bad stored value falls back to the defaults (logged)."""
    try:
        return TableSettings.from_mapping(row.settings)
    except ValueError as exc:
        log.warning("table %s: stored settings ignored: %s", short_id(row.id), without_id(exc, row.id))
        return TableSettings(public=bool(row.settings.get("public")))


class _HubListener:
    """A session's listener: the hub, but its ``table`` messages through :meth:`TableManager.send_table`.

    (A finished table's ``next_table`` goes only to the sockets of its players.)
    """

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    def state_changed(self, session: MatchSession) -> None:
        """Send every connection its view (the hub)."""
        self.manager.hub.state_changed(session)

    def table_changed(self, session: MatchSession) -> None:
        """Send everyone the table's facts, ``next_table`` to its players only."""
        self.manager.send_table(session)

    def chat(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        """Send a chat line to everyone at the table (the hub)."""
        self.manager.hub.chat(session, sender, seat, text)


class TableManager:
    """Lobby operations and live sessions (one per running game)."""

    #: The least time (seconds) between two ``table`` messages of a table in the lobby sent because a
    #: socket opened or closed there (each costs a read of the table): :meth:`lobby_presence_changed`.
    lobby_presence_gap = 0.25

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        hub: Hub,
        *,
        seed_source: Callable[[], int] = _new_seed,
        bus: Bus | None = None,
    ) -> None:
        """Wire the manager.

        Args:
            settings: Server settings.
            storage: Where tables and games are kept.
            hub: The connection registry (told about lobby changes, listens to sessions).
            seed_source: Draws a game's seed (tests pass a seeded one; live games
                use :func:`secrets.randbits`).
            bus: The bus between server processes; only a shared one (Redis)
                changes anything: the manager then coordinates with the others.
        """
        self.settings = settings
        self.storage = storage
        self.hub = hub
        self.seed_source = seed_source
        self.sessions: dict[str, MatchSession] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        # Per table in the lobby: [lock, users]. Lobby broadcasts of one table go out
        # in the order their reads began, so the last one is never older than a change.
        self._lobby_locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        #: Per table in the lobby told of a socket opening or closing lately: whether another
        #: change came since, and the task that tells it once the gap ends (:meth:`lobby_presence_changed`).
        self._lobby_presence: dict[str, tuple[list[bool], asyncio.Task[None]]] = {}
        self._busy: set[str] = set()
        self._housekeeping: asyncio.Task[None] | None = None
        #: Per game whose seats' tokens could not be read: the task reading them again.
        self._token_reads: dict[str, asyncio.Task[None]] = {}
        # A state held back for want of the tokens: read them again (soon, and until they are).
        hub.on_withheld = self._read_seat_tokens_later
        #: Bot thinking and replays, off the event loop.
        self.workers = Workers(settings.workers)
        #: Players' hints: in worker processes of their own when the server has workers (else the
        #: process's hint threads, :data:`~rummy500.server.hints.SEARCHES`).
        self.hint_searches = HintSearches(processes=True) if settings.workers > 0 else None
        self._lobby_chat_lock = asyncio.Lock()
        #: How fast each seat may chat (its sockets here together, waiting room and game alike).
        self.chat_rate = ChatRate()
        self._replays: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._replaying: dict[str, asyncio.Future[list[dict[str, Any]]]] = {}
        #: Per stored game this version could not rebuild: why (words that name no card), the last
        #: :data:`DAMAGED_KEPT` found. Opening it again is refused at once (:class:`GameDamaged`).
        self._damaged: OrderedDict[str, str] = OrderedDict()
        #: Coordination with the other server processes (``None``: this one is alone).
        self.cluster: Cluster | None = Cluster(self, bus) if bus is not None and bus.shared else None
        levels = bot_levels()
        self.bot_levels = levels
        self.default_bot_level = settings.default_bot_level or default_level(levels)

    # ---------------------------------------------------------------- lobby
    async def create_table(self, req: CreateTableRequest) -> tuple[str, str]:
        """Open a table; the creator takes seat 0.

        Returns:
            The table id and the creator's token.

        Raises:
            LobbyError: Bad rules or bots.
        """
        mapping = {"preset": req.preset, **req.rules}
        problems: list[str] = []
        if "players" in req.rules and (type(req.rules["players"]) is not int or req.rules["players"] != req.seats):
            # The seat count sets the players: a table never silently plays another count than asked.
            problems.append(
                f"players: {json.dumps(req.rules['players'])[:20]} differs from seats ({req.seats}); "
                "leave players out of rules (seats sets it) or give the same number"
            )
        rules = None
        try:
            rules = parse_rules(mapping, req.seats)
        except RulesError as exc:
            problems += exc.problems or [str(exc)]
        else:
            problems += server_rules_problems(rules)
        if problems or rules is None:
            raise LobbyError(422, "bad_rules", "; ".join(problems), problems)
        seats: list[SeatRow] = [SeatRow(0, "human", clean_name(req.name, 40) or "Player 1")]
        # Names are unique at a table, case aside: a bot never takes the creator's.
        taken = {name_key(seats[0].name or "")}
        bots: dict[int, str] = {}
        for key, level in req.bots.items():
            # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
            if not (key.isascii() and key.isdigit() and len(key) <= 2) or not 1 <= int(key) < req.seats:
                raise LobbyError(422, "bad_bots", f"bot seat {key[:20]!r} must be 1..{req.seats - 1}")
            if level not in self.bot_levels:
                raise LobbyError(422, "bad_bots", f"unknown bot level {level[:40]!r} ({', '.join(self.bot_levels)})")
            bots[int(key)] = level
        for seat in range(1, req.seats):
            if seat in bots:
                seats.append(SeatRow(seat, "bot", bot_name(seat, taken), bots[seat]))
            else:
                seats.append(SeatRow(seat, "open"))
        table_id = secrets.token_urlsafe(16)
        token = secrets.token_urlsafe(24)
        title = clean_name(req.title or "", 80) or f"{seats[0].name}'s table"
        await asyncio.to_thread(
            self.storage.create_table,
            game_id=table_id,
            title=title,
            rules=rules.to_mapping(),
            seats=seats,
            creator_token_hash=hash_token(token),
            settings=TableSettings(turn_clock=req.turn_clock, hints=req.hints, public=req.public).to_mapping(),
        )
        return table_id, token

    async def join(self, table_id: str, name: str) -> tuple[int, str]:
        """Seat a player in the first open seat.

        The name is cleaned as the creator's is (control characters out,
        spaces trimmed and collapsed, 40 characters at most); a name someone
        seated at the table has, a bot included, is refused whatever its case.

        Raises:
            LobbyError: No such table, already started, full, or the name is taken.
        """
        token = secrets.token_urlsafe(24)
        display = clean_name(name, 40) or "Player"
        try:
            seat = await asyncio.to_thread(self.storage.join, table_id, display, hash_token(token))
        except NameTakenError as exc:
            who = "a bot at this table is called" if exc.kind == "bot" else "someone at this table is called"
            raise LobbyError(
                409, "name_taken", f"{exc.name} is already at this table ({who} that): choose another name"
            ) from exc
        except ConflictError as exc:
            if await self._row(table_id) is None:
                raise LobbyError(404, "no_table", "no such table") from exc
            raise LobbyError(409, "cannot_join", str(exc)) from exc
        await self._seats_changed(table_id)
        return seat, token

    async def play_again(
        self,
        table_id: str,
        token: str,
        *,
        reissue: bool = False,
        before_create: Callable[[], Awaitable[None]] | None = None,
    ) -> tuple[NextSeat, str]:
        """Seat a person of a finished table at its next table ("play again"), making it if there is none.

        The first caller makes the next table, the same as the finished one
        (title, rules, seat count, bots at the same seats with the same levels
        and names, turn clock, hints, public or private), and sits at seat 0
        as its creator (who starts it); everyone at the finished table is
        sent its ``table`` with ``next_table``. Later callers join it with
        their name from the finished table: their old seat number if it is
        open, else the lowest open seat.

        Args:
            table_id: The finished table.
            token: The caller's seat token there.
            reissue: A caller seated at the next table already gets a new token
                for that seat (the old one stops working) instead of ``already_joined``.
            before_create: Awaited before a next table is made (it may refuse
                by raising: the client's table limits).

        Returns:
            Where the caller sits, and their new token.

        Raises:
            LobbyError: No such table (404), a token with no seat there (403
                ``bad_token``), the game not over (409 ``not_finished``), the
                caller seated at the next table already (409 ``already_joined``),
                their name taken there by someone else (409 ``name_taken``), or
                the next table full or started (409 ``cannot_join``).
        """
        row, seat = await self._seated(table_id, token)
        if seat is None:
            raise LobbyError(403, "bad_token", "only a player seated at this table can play again with it")
        if row.status != "finished":
            raise LobbyError(409, "not_finished", "the game is not over yet: play again once it is")
        if row.next_table is None and before_create is not None:
            await before_create()
        name = row.seats[seat].name or f"Player {seat + 1}"
        title = row.title
        if row.seats[0].name and title == f"{row.seats[0].name}'s table":  # the default title: the new creator's
            title = f"{name}'s table"
        new_token = secrets.token_urlsafe(24)
        new_table = NewTable(
            id=secrets.token_urlsafe(16),
            title=title,
            rules=dict(row.rules),
            settings=_settings(row).to_mapping(),
            seats=[
                SeatRow(0, "human", name),
                *[
                    SeatRow(s.seat, "bot", s.name, s.bot_level) if s.kind == "bot" else SeatRow(s.seat, "open")
                    for s in row.seats[1:]
                ],
            ],
        )
        try:
            placed = await asyncio.to_thread(
                self.storage.play_again,
                table_id,
                seat,
                hash_token(new_token),
                new_table=new_table,
                reissue=reissue,
            )
        except AlreadyJoinedError as exc:
            raise LobbyError(
                409,
                "already_joined",
                f"you already have seat {exc.seat} at the next table: use the token you got for it "
                '(lost it? ask again with {"reissue": true})',
                extra={"table_id": exc.table_id, "seat": exc.seat},
            ) from exc
        except NameTakenError as exc:
            raise LobbyError(
                409,
                "name_taken",
                f"{exc.name} is already at the next table (someone joined it with that name): "
                "join it with another name through its invite link",
            ) from exc
        except ConflictError as exc:
            now = await self._row(table_id)
            if now is None:
                raise LobbyError(404, "no_table", "no such table") from exc
            if now.status != "finished":
                raise LobbyError(409, "not_finished", "the game is not over yet: play again once it is") from exc
            raise LobbyError(
                409,
                "cannot_join",
                f"{exc}: open it to watch",
                extra={"table_id": now.next_table} if now.next_table else None,
            ) from exc
        if placed.created:
            await self.next_table_changed(table_id)
            if self.cluster is not None:
                self.cluster.table_changed(table_id)
        else:
            await self._seats_changed(placed.table_id)
        return placed, new_token

    async def next_table_changed(self, table_id: str) -> None:
        """A finished table got its next table (here or in another process): tell its sockets here."""
        row = await self._row(table_id)
        if row is None:
            return
        session = self.sessions.get(table_id)
        if session is not None:
            if session.next_table != row.next_table:  # (the sweeps ask again and again: told once)
                session.next_table = row.next_table
                self.send_table(session)
        elif self.hub.connections(table_id):
            info = await self._table_info(row, None, player=True)
            tokens = await self._seat_tokens(table_id) if row.next_table is not None else None
            self._broadcast_table(
                table_id,
                info,
                lambda seat, token_hash: tokens is not None and seat in tokens and tokens[seat] == token_hash,
            )

    def send_table(self, session: MatchSession) -> None:
        """Send this process's sockets at a live table its ``table`` message (what the hub's ``table_changed`` does).

        A public game's ``next_table`` (the rematch its players opened) goes only
        to the sockets of the people seated at it, their tokens checked: never to
        spectators (see :meth:`MatchSession.table_info`).
        """
        self._broadcast_table(
            session.game_id, TableInfo.model_validate(session.table_info(seated=True)), session.seat_check
        )

    def _broadcast_table(
        self, table_id: str, info: TableInfo, holds: Callable[[int | None, str | None], bool | None]
    ) -> None:
        """Send ``info`` to this process's sockets at a table; ``next_table`` only to those whose seat ``holds`` (true)."""
        if info.next_table is None or not info.settings.public:  # (a private table's link is its key: all are told)
            self.hub.broadcast_table(table_id, info)
            return
        seated = encode(TableMessage(table=info).model_dump(mode="json"))
        public = encode(TableMessage(table=info.model_copy(update={"next_table": None})).model_dump(mode="json"))
        for conn in self.hub.connections(table_id):
            conn.push(seated if conn.seat is not None and holds(conn.seat, conn.token_hash) is True else public)

    async def leave(self, table_id: str, token: str) -> None:
        """Give a seat back before the start: it is open again, and the token plays here no more.

        Raises:
            LobbyError: No such table (404), a token with no seat here (403),
                the game has started (409 ``not_in_lobby``), or the creator's
                token (409 ``host_cannot_leave``).
        """
        row, seat = await self._seated(table_id, token)
        if seat is None:
            raise LobbyError(403, "bad_token", "this token has no seat at this table")
        if row.status != "lobby":
            raise LobbyError(
                409,
                "not_in_lobby",
                "the game has started: a seat can no longer be given back (close the page: "
                "after the grace a bot plays for you)",
            )
        if seat == 0:
            raise LobbyError(
                409,
                "host_cannot_leave",
                "the table's creator cannot leave it: start the game, or just close the page "
                f"(a table never started is deleted after {self.settings.lobby_expiry_hours:g} hours)",
            )
        await self._vacate(table_id, seat, hash_token(token))

    async def remove(self, table_id: str, seat: int, token: str) -> None:
        """The creator opens another seat before the start: a person's (as if they had left) or a bot's.

        A table made with bots in its extra seats is full: removing a bot opens
        its seat for a friend with the invite link (an open seat left at the
        start gets a bot again).

        Raises:
            LobbyError: No such table (404), not the creator's token (403),
                the game has started (409 ``not_in_lobby``), or seat 0, an open
                seat or a seat the table does not have (409 ``cannot_remove``).
        """
        row, asking = await self._seated(table_id, token)
        if asking != 0:
            raise LobbyError(403, "bad_token", "only the table's creator can remove a player")
        if row.status != "lobby":
            raise LobbyError(409, "not_in_lobby", "the game has started: players can no longer be removed")
        if seat == 0:
            raise LobbyError(409, "cannot_remove", "you cannot remove yourself: you created this table")
        if not 0 <= seat < len(row.seats):
            raise LobbyError(409, "cannot_remove", f"this table has no seat {seat} (seats 0..{len(row.seats) - 1})")
        target = row.seats[seat]
        if target.kind == "open":
            raise LobbyError(409, "cannot_remove", f"seat {seat} is open already")
        await self._vacate(table_id, seat, None)

    async def _vacate(self, table_id: str, seat: int, token_hash: str | None) -> None:
        try:
            await asyncio.to_thread(self.storage.vacate, table_id, seat, token_hash)
        except ConflictError as exc:  # lost a race: the start, or the seat changed hands
            row = await self._row(table_id)
            if row is None:
                raise LobbyError(404, "no_table", "no such table") from exc
            if row.status != "lobby":
                raise LobbyError(409, "not_in_lobby", "the game has started meanwhile") from exc
            if token_hash is not None:
                raise LobbyError(403, "bad_token", "this token has no seat at this table") from exc
            raise LobbyError(409, "cannot_remove", f"seat {seat} changed meanwhile: look again") from exc
        await self._seats_changed(table_id)

    async def _seats_changed(self, table_id: str) -> None:
        """Someone took or gave back a seat: sockets whose seat went are closed, everyone is told."""
        # A join takes no seat away, but checks too: a socket whose seat was
        # given back and whose check failed then (the database away) would
        # otherwise hold the seat the newcomer just took (their chat, their cards).
        await self.drop_stale_seats(table_id)
        await self._lobby_changed(table_id)
        if self.cluster is not None:
            self.cluster.lobby_changed(table_id)

    async def drop_stale_seats(self, table_id: str) -> int:
        """Close this process's sockets at a table whose token no longer holds their seat.

        A seat given back (left, or removed by the creator) must not go on
        being played from the sockets that held it: each gets ``bad_token``
        and is closed with 4401, before anyone else can take the seat and be
        dealt its cards. The game may have started meanwhile (through another
        process, which the notice of the change reached after the start's):
        its seats' tokens are final then, and the socket goes all the same.

        Returns:
            How many sockets were closed.
        """
        session = self.sessions.get(table_id)
        if session is not None:
            await self.learn_seat_tokens(session)  # (a socket whose seat is not known yet is shown nothing)
            return self._drop_unseated(table_id, session.seat_check)
        if not any(c.seat is not None and c.token_hash is not None for c in self.hub.connections(table_id)):
            return 0
        tokens = await self._seat_tokens(table_id)  # one read, whatever the number of sockets
        if tokens is None:  # a later change (or the socket's next connect) checks again
            return 0
        return self._drop_unseated(
            table_id, lambda seat, token_hash: seat is None or token_hash is None or tokens.get(seat) == token_hash
        )

    def _drop_unseated(self, table_id: str, holds: Callable[[int | None, str | None], bool | None]) -> int:
        """Close this process's sockets at a table whose seat and token ``holds`` refuses (no await: atomic).

        A socket whose answer is ``None`` (not known yet) stays: it is shown
        nothing of its seat until it is known (:meth:`Hub.state_changed`).

        Returns:
            How many sockets were closed.
        """
        dropped = 0
        for conn in self.hub.connections(table_id):
            if holds(conn.seat, conn.token_hash) is False:
                self.hub.drop_given_back(conn)
                dropped += 1
        if dropped:
            self.presence_changed(table_id)
        return dropped

    async def _seat_tokens(self, table_id: str, *, quiet: bool = False) -> dict[int, str] | None:
        """The stored token hash of each person's seat at a table (``None``: the database failed, logged unless ``quiet``)."""
        try:
            return await asyncio.to_thread(self.storage.seat_tokens, table_id)
        except StorageError as exc:  # checked again at the next change or sweep
            (log.debug if quiet else log.warning)(
                "table %s: could not read its seats' tokens: %s", short_id(table_id), without_id(exc, table_id)
            )
            return None

    async def learn_seat_tokens(self, session: MatchSession, *, quiet: bool = False) -> bool:
        """Read a game's seat tokens if they are not known yet; once they are, settle the sockets that waited.

        A game started or loaded while the database could not be read shows
        no seated socket its seat (:meth:`MatchSession.seat_check`). Once the
        tokens are read, the sockets whose seat was given back are closed and
        the others are sent the state held back from them.

        Returns:
            Whether the tokens are known now.
        """
        if session.seat_tokens is not None:
            return True
        tokens = await self._seat_tokens(session.game_id, quiet=quiet)
        if tokens is None:
            return False
        if session.seat_tokens is None:  # (not learned meanwhile by another read)
            session.seat_tokens = tokens
            self._drop_unseated(session.game_id, session.seat_check)
            self.hub.send_withheld(session)
        return True

    def _read_seat_tokens_later(self, session: MatchSession) -> None:
        """Read a game's seat tokens again until they are known (one task per game, no await: atomic)."""
        table_id = session.game_id
        if session.seat_tokens is not None or table_id in self._token_reads:
            return
        self._token_reads[table_id] = asyncio.get_running_loop().create_task(
            self._read_seat_tokens_again(session), name=f"seat-tokens-{short_id(table_id)}"
        )

    async def _read_seat_tokens_again(self, session: MatchSession) -> None:
        """Try to read a game's seat tokens every so often (the wait doubling) until they are known or the game goes."""
        table_id = session.game_id
        wait = SEAT_TOKENS_RETRY_FIRST
        tries = 0
        try:
            while self.sessions.get(table_id) is session and session.seat_tokens is None:
                await asyncio.sleep(wait)
                if self.sessions.get(table_id) is not session:
                    return
                tries += 1
                if await self.learn_seat_tokens(session, quiet=True):
                    log.info("table %s: its seats' tokens were read after %d more tries", short_id(table_id), tries)
                    return
                wait = min(wait * 2, SEAT_TOKENS_RETRY_MAX)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the next state sent, or a connect, tries again
            log.exception("table %s: reading its seats' tokens again failed", short_id(table_id))
        finally:
            if self._token_reads.get(table_id) is asyncio.current_task():
                del self._token_reads[table_id]

    def _connect_watchers(self, session: MatchSession) -> None:
        """Count the sockets already at a game just started or loaded here (no await: atomic).

        A socket whose seat was given back before the start (its token is
        not the seat's) is closed first, never counted, never sent the seat's cards.
        While the tokens are not known no seated socket is closed, nor sent
        its seat's cards (:meth:`Hub.state_changed` holds them back).
        """
        self._drop_unseated(session.game_id, session.seat_check)
        conns = self.hub.connections(session.game_id)
        # Everyone already watching counts at once: one table message each, not one per socket.
        session.connect_many(conn.seat for conn in conns)
        for conn in conns:
            conn.counted_by = session

    async def still_seated(self, table_id: str, conn: Connection) -> bool:
        """Whether a socket's token still holds its seat in storage (spectators: yes).

        Raises:
            StorageError: The database failed.
        """
        if conn.seat is None or conn.token_hash is None:
            return True
        return await asyncio.to_thread(self.storage.seat_of_token, table_id, conn.token_hash) == conn.seat

    async def lobby_seats_changed(self, table_id: str) -> None:
        """Another process says a table in the lobby changed: drop the sockets whose seat went, tell the rest."""
        await self.drop_stale_seats(table_id)
        await self.broadcast_lobby(table_id)

    async def start(self, table_id: str, token: str | None) -> MatchSession:
        """Start a table: open seats get bots, the cards are dealt.

        Raises:
            LobbyError: No such table, not the creator's token, or not in the lobby.
        """
        row, seat = await self._seated(table_id, token)
        if seat != 0:
            raise LobbyError(403, "bad_token", "only the table's creator can start it")
        seed = self.seed_source()
        try:
            row = await asyncio.to_thread(self.storage.start, table_id, seed=seed, bot_level=self.default_bot_level)
        except ConflictError as exc:
            raise LobbyError(409, "not_in_lobby", str(exc)) from exc
        game = LiveGame(parse_rules(row.rules, len(row.seats)), row.players, seed)
        chat = await self.stored_chat(table_id)  # what was said in the waiting room
        # Final now: a seat given back before the start (even through another process,
        # whose notice has not come yet) holds another token, or none. (None if the
        # database failed: no seated socket is shown its seat until they are read.)
        tokens = await self._seat_tokens(table_id)
        session = self._make_session(row, game, [], chat, tokens)
        self._connect_watchers(session)
        if self.cluster is not None:
            self._busy.add(table_id)
            try:
                await self.cluster.adopt(session)
            finally:
                self._busy.discard(table_id)
            self.cluster.committed(session)  # version 0: the others' lobby sockets load the game
        self.hub.state_changed(session)
        session.start()
        return session

    async def table_info(self, table_id: str, token: str | None = None) -> TableInfo | None:
        """Public lobby facts, or ``None`` for an unknown table.

        ``next_table`` (a finished table's rematch) is shown, for a public game,
        only to a caller whose ``token`` holds a seat at this table (``None`` for
        anyone else); a private table's is shown to whoever has its link.
        """
        session = self.sessions.get(table_id)
        row = await self._row(table_id)
        if row is None:
            return None
        player = (
            row.next_table is not None and bool(token) and await self.authenticate(table_id, token or "") is not None
        )
        return await self._table_info(row, session, player=player)

    async def _table_info(self, row: GameRow, session: MatchSession | None, *, player: bool = False) -> TableInfo:
        """:meth:`table_info` of a table read from storage (``session``: its live session here, if any).

        ``player``: the caller holds a seat at this table (it is told ``next_table``).
        """
        table_id = row.id
        if session is None and self.cluster is not None and row.status == "running":
            try:
                session = await self.session(table_id)  # played by another process: follow it here
            except GameDamaged:  # its sockets are told; the stored facts are shown
                session = None
        elif (
            session is not None
            and self.cluster is not None
            and not session.driving
            and not self.hub.rooms.get(table_id)
        ):
            # Neither watched nor driven here, so not told of the others' moves: read them.
            with contextlib.suppress(SessionError):
                await session.catch_up()
        if session is not None:
            info = TableInfo.model_validate(session.table_info())
        else:
            seated = self.hub.seated(table_id)
            spectators = sum(1 for c in self.hub.connections(table_id) if c.seat is None)
            if self.cluster is not None:
                others = await self.cluster.presence(table_id)
                for seat, count in others.seated.items():
                    seated[seat] = seated.get(seat, 0) + count
                spectators += others.spectators
            info = TableInfo(
                id=row.id,
                title=row.title,
                status=row.status,
                rules=row.rules,
                version=row.actions,
                seats=[
                    SeatPublic(
                        seat=s.seat,
                        name=s.name,
                        kind=s.kind,
                        bot_level=s.bot_level,
                        connected=seated.get(s.seat, 0) > 0,
                    )
                    for s in row.seats
                ],
                spectators=spectators,
                settings=TableSettingsInfo(**_settings(row).to_mapping(), chat_max_chars=self.settings.chat_max_chars),
            )
        info.created = row.created
        if row.finished is not None:  # (a session that just ended has its own until storage has it)
            info.finished = row.finished
            if session is not None:
                session.ended = row.finished
        info.invite_path = f"/t/{row.id}"
        # The database is the truth (a notice from another process may be lost).
        # A public game's players only are told where they play again (its replay is listed for anyone);
        # at a private table whoever has its link may follow, as they could join it.
        info.next_table = row.next_table if player or not info.settings.public else None
        if session is not None and session.next_table != row.next_table:
            session.next_table = row.next_table
            self.send_table(session)
        return info

    async def authenticate(self, table_id: str, token: str) -> int | None:
        """The seat a token belongs to at this table, or ``None``."""
        if not token or len(token) > 200:
            return None
        return await asyncio.to_thread(self.storage.seat_of_token, table_id, hash_token(token))

    async def in_lobby(self, table_ids: set[str]) -> set[str]:
        """Those of ``table_ids`` still waiting in the lobby."""
        rows = [await self._row(t) for t in table_ids]
        return {row.id for row in rows if row is not None and row.status == "lobby"}

    async def _seated(self, table_id: str, token: str | None) -> tuple[GameRow, int | None]:
        """The table's row and the seat ``token`` holds there (None: none), or 404 ``no_table``."""
        row = await self._row(table_id)
        if row is None:
            raise LobbyError(404, "no_table", "no such table")
        return row, (await self.authenticate(table_id, token) if token else None)

    async def _row(self, table_id: str, *, with_record: bool = False) -> GameRow | None:
        if not table_id or len(table_id) > 64:
            return None
        return await asyncio.to_thread(self.storage.get_game, table_id, with_record=with_record)

    async def _lobby_changed(self, table_id: str) -> None:
        # One at a time per table: without the lock a read begun before a join
        # could be broadcast after the join's own, fresh one, and every page at
        # the table would keep showing the seat open.
        lock, users = self._lobby_locks.setdefault(table_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                info = await self.table_info(table_id)
                if info is not None:
                    self.hub.broadcast_table(table_id, info)
        finally:
            users[0] -= 1
            if not users[0]:
                self._lobby_locks.pop(table_id, None)

    async def lobby_presence_changed(self, table_id: str) -> None:
        """Tell a lobby's watchers who is connected (no-op once the game runs): at most once per gap.

        Anyone may open and close spectator sockets, and each broadcast reads
        the table: the first change after a quiet :attr:`lobby_presence_gap`
        is told at once (awaited), the changes within the gap after it are told
        together when it ends, with one fresh read (so the last count always
        goes out).
        """
        if table_id in self.sessions:
            return
        due = self._lobby_presence.get(table_id)
        if due is not None:
            due[0][0] = True  # told when the gap ends
            return
        changed = [False]
        task = asyncio.get_running_loop().create_task(
            self._lobby_presence_later(table_id, changed), name=f"lobby-presence-{short_id(table_id)}"
        )
        self._lobby_presence[table_id] = (changed, task)
        await self._lobby_changed(table_id)

    async def _lobby_presence_later(self, table_id: str, changed: list[bool]) -> None:
        """The end of :meth:`lobby_presence_changed`'s gap: tell the changes made within it (then wait one more gap)."""
        try:
            while True:
                await asyncio.sleep(self.lobby_presence_gap)
                if not changed[0]:
                    return
                changed[0] = False
                if table_id not in self.sessions:
                    await self._lobby_changed(table_id)
        except asyncio.CancelledError:
            raise
        except StorageError as exc:  # the next socket to open or close tells them
            log.warning(
                "table %s: could not read it to tell who is here: %s", short_id(table_id), without_id(exc, table_id)
            )
        except Exception:  # noqa: BLE001 - the next socket to open or close tells them
            log.exception("table %s: telling who is here failed", short_id(table_id))
        finally:
            if self._lobby_presence.get(table_id, (None,))[0] is changed:
                del self._lobby_presence[table_id]

    async def broadcast_lobby(self, table_id: str) -> None:
        """Send this process's sockets at a table in the lobby its public facts (no-op once it runs).

        As :meth:`lobby_presence_changed` (what the other processes report is
        mostly their sockets coming and going): at most once per gap.
        """
        await self.lobby_presence_changed(table_id)

    def presence_changed(self, table_id: str) -> None:
        """A socket of this process opened or closed at a table: tell the other processes."""
        if self.cluster is not None:
            self.cluster.presence_changed(table_id)

    async def shared_chat_history(self, table_id: str) -> list[dict[str, Any]] | None:
        """A table's recent chat lines said through any process (``None``: one process, or the bus is away).

        With one process the session's own history is the whole of it.
        """
        if self.cluster is None:
            return None
        return await self.cluster.chat_history(table_id)

    # ----------------------------------------------------------------- chat
    async def stored_chat(self, table_id: str) -> list[ChatLine]:
        """The last :data:`CHAT_LINES` lines said at a table, oldest first (none if the database fails)."""
        try:
            return await asyncio.to_thread(self.storage.chat_lines, table_id, CHAT_LINES)
        except StorageError as exc:  # the table goes on without what was said before
            log.warning("table %s: could not read its chat: %s", short_id(table_id), without_id(exc, table_id))
            return []

    async def lobby_chat(self, table_id: str, seat: int | None, text: Any, limit: int) -> None:
        """A line said in the waiting room: stored with the table, then sent to everyone there.

        People seated at a table in the lobby talk while they wait for the
        others; the lines stay with the game once it starts (its session reads
        them). A game that started meanwhile takes the line as its own chat.

        Raises:
            SessionError: Not seated, an empty or non-text line, or no such table.
            GameDamaged: The game started meanwhile and this version cannot rebuild it.
        """
        speaker, clean = chat_text(seat, text, limit)
        row = await self._row(table_id)
        if row is not None and row.status != "lobby":
            session = await self.session(table_id)
            if session is not None:
                await session.chat(seat, text, limit)
                return
        if row is None:
            raise SessionError("no_table", "no such table")
        name = row.seats[speaker].name or f"Seat {speaker + 1}"
        # One line at a time: stored and sent in the same order.
        async with self._lobby_chat_lock:
            await keep_chat_line(self.storage, table_id, ChatLine(speaker, name, clean))
            self.hub.send_chat(table_id, name, speaker, clean)
            if self.cluster is not None:
                self.cluster.said_at(table_id, name, speaker, clean)

    # ------------------------------------------------------------- sessions
    async def _search_hint(self, view: View, seed: int, budget: float) -> dict[str, Any]:
        """A hint's search (:data:`~rummy500.server.session.match.HintSearch`): in this server's hint workers, if any."""
        if self.hint_searches is None:
            return await search_hint(view, seed, budget)
        return await self.hint_searches.run(hint_for, view, seed, budget)

    def _make_session(
        self,
        row: GameRow,
        game: LiveGame,
        events: list[dict[str, Any]],
        chat: Sequence[ChatLine] = (),
        seat_tokens: dict[int, str] | None = None,
        played_for: Collection[int] = frozenset(),
    ) -> MatchSession:
        """Wrap a dealt or rebuilt game.

        ``events``: the public events of its replay; ``chat``: its stored chat;
        ``seat_tokens``: its seats' token hashes (:attr:`MatchSession.seat_tokens`);
        ``played_for``: the versions the computer played for a person, as stored
        (their events are marked ``auto``, as they were when played).
        """
        label_actions(events, row.players, lambda seat: row.seats[seat].kind == "bot", played_for)
        session = MatchSession(
            game_id=row.id,
            title=row.title,
            rules=row.rules,
            seats=[SeatInfo(seat=s.seat, name=s.name or "", kind=s.kind, bot_level=s.bot_level) for s in row.seats],
            game=game,
            store=self.storage,
            events=events,
            bot_delay=self.settings.bot_delay,
            grace_seconds=self.settings.grace_seconds,
            log_length=self.settings.log_length,
            default_bot_level=self.default_bot_level,
            rng=random.Random(secrets.randbits(64)),
            shared=self.cluster is not None,
            settings=_settings(row),
            call_window=self.settings.call_window,
            summary_seconds=self.settings.summary_seconds,
            chat_history=CHAT_LINES,
            think=self.workers.think,
            hint_search=self._search_hint,
            created=row.created,
            ended=row.finished,
            chat_max_chars=self.settings.chat_max_chars,
        )
        for line in chat:
            session.remember_chat(line.name, line.seat, line.text)
        session.next_table = row.next_table
        session.seat_tokens = seat_tokens
        session.listeners.append(_HubListener(self))
        self.sessions[row.id] = session
        if seat_tokens is None:  # the database failed: its seated sockets wait until they are read
            self._read_seat_tokens_later(session)
        return session

    async def session(self, table_id: str) -> MatchSession | None:
        """The live session of a started game, rebuilding it from storage if needed.

        Finished games are rebuilt on demand too (their final position is shown
        to anyone who opens the table). A session whose seats' tokens could not
        be read is tried again first (:meth:`learn_seat_tokens`).

        Raises:
            GameDamaged: This version cannot rebuild the stored game (found
                now, or earlier: then at once, without replaying it again).
        """
        found = self.sessions.get(table_id)
        if found is not None:
            if found.seat_tokens is None:
                await self.learn_seat_tokens(found)
            return found
        self._check_damaged(table_id)
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                found = self.sessions.get(table_id)
                if found is not None:
                    return found
                self._check_damaged(table_id)  # (found by the load this one waited for)
                row = await self._row(table_id)
                if row is None or row.status == "lobby" or row.seed is None:
                    return None
                return await self._load(row)
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)

    async def _load(self, row: GameRow) -> MatchSession:
        stored = await asyncio.to_thread(self.storage.actions, row.id)
        actions = [(a.seat, a.action) for a in stored]
        played_for = {a.seq + 1 for a in stored if a.auto}  # an action's event carries the version it made
        # Replaying a long log takes a while: in a worker, never in the event loop.
        game, events = await self._replayed(row, rebuild, actions)
        chat = await self.stored_chat(row.id)
        tokens = await self._seat_tokens(row.id)
        if row.id in self.sessions:  # started here while this replayed
            return self.sessions[row.id]
        session = self._make_session(row, game, events, chat, tokens, played_for)
        self._connect_watchers(session)
        if session.finished and row.status != "finished":
            # The last action was stored but the end was not: finish it now.
            await self.store_end(session)
        if self.cluster is not None:
            self._busy.add(row.id)
            try:
                await self.cluster.adopt(session)
            finally:
                self._busy.discard(row.id)
        if self.hub.connections(row.id):
            # Sockets that were here before the game was (a lobby started elsewhere).
            self.hub.state_changed(session)
        session.start()
        return session

    def _check_damaged(self, table_id: str) -> None:
        """Refuse at once a game found unrebuildable before.

        Raises:
            GameDamaged: This version could not rebuild it.
        """
        reason = self._damaged.get(table_id)
        if reason is not None:
            self._damaged.move_to_end(table_id)
            raise GameDamaged(table_id, reason)

    async def _replayed(self, row: GameRow, fn: Callable[..., T], actions: list[tuple[int, dict[str, Any]]]) -> T:
        """``fn(rules, names, seed, actions)``, a replay of a stored game, in a worker.

        A log this version refuses is remembered (:data:`DAMAGED_KEPT` games)
        and logged once, with the engine's words (here only: they may name a
        card of a hidden hand).

        Raises:
            GameDamaged: This version cannot rebuild the game.
        """
        self._check_damaged(row.id)
        try:
            return await self.workers.call(fn, row.rules, row.players, row.seed or 0, actions)
        except _REPLAY_REFUSED as exc:
            reason = _damage_reason(exc)
            if row.id not in self._damaged:
                log.error(
                    "game %s (%s, %d stored actions) cannot be rebuilt by this version: %s (%s: %s); "
                    "opening it is refused until the server restarts",
                    short_id(row.id),
                    row.status,
                    len(actions),
                    reason,
                    type(exc).__name__,
                    without_id(exc, row.id),
                )
            self._damaged[row.id] = reason
            self._damaged.move_to_end(row.id)
            while len(self._damaged) > DAMAGED_KEPT:
                self._damaged.popitem(last=False)
            raise GameDamaged(row.id, reason) from None

    async def store_end(self, session: MatchSession) -> None:
        """Store a finished game's record and result (again: it is idempotent)."""
        finished = await asyncio.to_thread(
            self.storage.finish,
            session.game_id,
            record=session.game.record(),
            result=session.game.result(),
        )
        if finished is not None:  # the time stored is the time shown
            session.ended = finished

    def release(self, table_id: str) -> None:
        """Forget a session nobody here watches (it reloads on demand).

        Finished games go, and so do games whose bots wait for people who all
        left (nothing happens there until someone comes back). With other
        processes, so does any game this process does not drive (a game it
        drives stays, or another process would adopt it again).
        """
        session = self.sessions.get(table_id)
        if session is None or self.hub.connections(table_id) or table_id in self._busy:
            return
        if session.finished or (self.cluster is not None and not session.driving):
            forget = True
        else:
            # Alone, a game nobody watches anywhere whose bots have nothing to do
            # stays as it is until someone comes back: it reloads then.
            forget = self.cluster is None and session.idle()
        if forget:  # (its chat is stored: it comes back with the game)
            del self.sessions[table_id]
            session.retire()

    def prune(self) -> None:
        """:meth:`release` every session that may go."""
        for table_id in list(self.sessions):
            self.release(table_id)

    async def restore(self) -> int:
        """Rebuild every unfinished game from storage (at startup).

        With other processes (a shared bus) only the games that no process
        drives are loaded, and this process then drives them.

        Returns:
            The number of games restored. A game whose log cannot be replayed is
            logged (once) and left alone: opening it is refused (:class:`GameDamaged`).

        Raises:
            BusError: The shared bus cannot be reached.
        """
        self._housekeeping = asyncio.get_running_loop().create_task(self._housekeep(), name="housekeeping")
        if self.cluster is not None:
            await self.cluster.start()
            return await self.cluster.adopt_orphans()
        count = 0
        for game_id in await asyncio.to_thread(self.storage.running_ids, self.active_since()):
            try:
                if await self.session(game_id) is not None:
                    count += 1
            except GameDamaged:  # logged once as found; its players are told as they open it
                continue
            except Exception:  # noqa: BLE001 - one bad game must not stop the server
                log.exception("game %s could not be restored", short_id(game_id))
        return count

    def active_since(self) -> datetime:
        """Games not played since then are not rebuilt at startup (they load when opened)."""
        return datetime.now(UTC) - timedelta(days=self.settings.idle_days)

    async def _housekeep(self) -> None:
        """Now and then: delete lobby tables nobody started, forget sessions nobody needs."""
        while True:
            await asyncio.sleep(HOUSEKEEPING_SECONDS)
            try:
                await self.housekeep()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - try again next time
                log.exception("housekeeping failed")

    async def housekeep(self) -> int:
        """Delete the lobby tables older than ``lobby_expiry_hours`` and prune idle sessions.

        Returns:
            How many lobby tables were deleted.
        """
        before = datetime.now(UTC) - timedelta(hours=self.settings.lobby_expiry_hours)
        expired = await asyncio.to_thread(self.storage.expire_lobby, before)
        if expired:
            log.info("deleted %d table(s) never started", expired)
        self.prune()
        return expired

    async def close(self) -> None:
        """Stop every session's bots (and give this process's leases back)."""
        if self._housekeeping is not None:
            self._housekeeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._housekeeping
        for task in [*self._token_reads.values(), *(task for _, task in self._lobby_presence.values())]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.cluster is not None:
            await self.cluster.stop()
        for session in list(self.sessions.values()):
            await session.close()
        self.sessions.clear()
        self.workers.close()
        if self.hint_searches is not None:
            self.hint_searches.close()
        if self.cluster is not None:
            await self.cluster.close()

    async def finished_game(self, game_id: str) -> GameRow | None:
        """A finished game with its record, else ``None``.

        Raises:
            LobbyError: The game exists but is not finished (409).
        """
        row = await self._row(game_id, with_record=True)
        if row is None:
            return None
        if row.status != "finished" or row.record is None:
            raise LobbyError(409, "not_finished", "the record of a game is only shown once the game is over")
        return row

    async def replay_step(self, row: GameRow, step: int) -> tuple[int, dict[str, Any] | None]:
        """A finished game after ``step`` actions, and its number of actions.

        The first request for a game replays it once in a worker and keeps
        every step (the last few games asked for are kept).

        Returns:
            ``(steps, step)`` where ``step`` is ``None`` when out of range, else
            the action's event, the spectator view, every hand and the steps
            that end each round (``round_ends``).

        Raises:
            GameDamaged: This version cannot replay the game (its record, which
                carries its deals, can still be read).
        """
        steps = self._replays.get(row.id)
        if steps is None:
            self._check_damaged(row.id)
            pending = self._replaying.get(row.id)
            if pending is None:
                pending = asyncio.ensure_future(self._replay_all(row))
                self._replaying[row.id] = pending
                pending.add_done_callback(lambda _: self._replaying.pop(row.id, None))
            steps = await asyncio.shield(pending)
        self._replays.move_to_end(row.id)
        if not 0 <= step < len(steps):
            return len(steps) - 1, None
        ends = [i for i, s in enumerate(steps) if s["round_over"]]
        return len(steps) - 1, {**steps[step], "round_ends": ends}

    async def _replay_all(self, row: GameRow) -> list[dict[str, Any]]:
        actions = await self.stored_actions(row.id)
        steps = await self._replayed(row, replay_steps, actions)
        self._replays[row.id] = steps
        while len(self._replays) > REPLAYS_KEPT:
            self._replays.popitem(last=False)
        return steps

    async def stored_actions(self, game_id: str) -> list[tuple[int, dict[str, Any]]]:
        """A game's action log as ``(seat, verb)`` pairs."""
        stored = await asyncio.to_thread(self.storage.actions, game_id)
        return [(a.seat, a.action) for a in stored]

    async def list_games(self, status: str | None, limit: int, *, public_only: bool = False) -> list[GameRow]:
        """Games, newest first (``public_only``: only tables created public)."""
        return await asyncio.to_thread(
            self.storage.list_games,
            status,  # type: ignore[arg-type]
            limit,
            public_only=public_only,
        )
