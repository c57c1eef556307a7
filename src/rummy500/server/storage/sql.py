"""SQLAlchemy adapters of :class:`~rummy500.server.storage.base.Storage`: SQLite and PostgreSQL.

Four tables: ``games`` (one row per table, from lobby to finished: rules,
players, the secret seed and, once over, the record), ``seats`` (who sits where,
bots, hashed seat tokens), ``actions`` (the append-only log, primary key
``(game_id, seq)`` so two servers can never fork a game: the second writer of
an action number gets a :class:`ConflictError`) and ``chat`` (the lines said at
each game, in the order they were said; a database made before it existed gets
it when it is next opened). Columns added since the first version (all
nullable) are added to an older database when it is opened.

Every write commits before it returns; SQLite runs in WAL mode with
``synchronous=NORMAL``: an acknowledged action survives the server process
being killed (``kill -9``, a crash); a power cut or an operating-system crash
may lose the last actions before it (the price of not waiting for the disk on
every move).

Every database failure leaves a method as a :class:`StorageError` (the
driver's own errors included, say a refused connection while the pool
reconnects), never as an exception of SQLAlchemy or of the driver: the server
turns it into ``unavailable`` and tries again later.

No method waits for a lock for ever: SQLite waits :attr:`SqliteStorage.busy_timeout`
for another connection's write lock, PostgreSQL's appends wait
:attr:`PostgresStorage.lock_timeout` for a table or row lock, then fail
(``unavailable``). Only :meth:`SqliteStorage.append_action` ``at_once``, meant for
the event loop, never waits at all (:class:`WouldWait`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError

from rummy500.server.config import safe_url
from rummy500.server.session.ids import short_id
from rummy500.server.storage.base import (
    AlreadyJoinedError,
    ChatLine,
    ConflictError,
    GameRow,
    NameTakenError,
    NewTable,
    NextSeat,
    SeatRow,
    Status,
    Storage,
    StorageError,
    StoredAction,
    WouldWait,
    bot_name,
    name_key,
)

__all__ = ["PostgresStorage", "SqlStorage", "SqliteStorage", "WouldWait", "metadata", "open_storage"]

log = logging.getLogger(__name__)


# Plain JSON, not JSONB, on PostgreSQL too: it keeps a record's text as written
# (key order included), and nothing here queries inside the documents.
_JSON = JSON()

metadata = MetaData()

GAMES = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("title", String(100), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("started", DateTime(timezone=True)),
    Column("finished", DateTime(timezone=True)),
    Column("rules", _JSON, nullable=False),
    Column("players", _JSON),
    # 128 bits do not fit a BIGINT: kept as decimal text. Secret until finished.
    Column("seed", String(48)),
    Column("record", _JSON),
    Column("result", _JSON),
    # How the table is run (turn clock, hints); added later: NULL in older rows.
    Column("settings", _JSON),
    # Listed among the public replays once finished (private tables never are).
    Column("public", Boolean, index=True),
    # The table its players opened to play again once this one was over; added later.
    Column("next_table", String(64)),
)

SEATS = Table(
    "seats",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),
    Column("name", String(64)),
    Column("bot_level", String(32)),
    Column("token_hash", String(64), unique=True),
    # The seat of the finished table this person came from ("play again"); added later.
    Column("again_from", Integer),
)

ACTIONS = Table(
    "actions",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", _JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    # Whether the computer played it (a bot, or a stand-in for a person); added later:
    # NULL (read as false) in older rows. Never part of the game's record.
    Column("auto", Boolean),
)


CHAT = Table(
    "chat",
    metadata,
    # The order lines were said in, across every game.
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


def _bind(kind: Any, dialect: Any) -> Callable[[Any], Any]:
    """The converter SQLAlchemy applies to a value of this column type on this dialect."""
    process = kind.dialect_impl(dialect).bind_processor(dialect)
    return process if process is not None else (lambda value: value)


def _result(kind: Any, dialect: Any) -> Callable[[Any], Any]:
    """The converter SQLAlchemy applies to a value of this column type read back on this dialect."""
    process = kind.dialect_impl(dialect).result_processor(dialect, None)
    return process if process is not None else (lambda value: value)


def _parse_url(url: str) -> URL:
    """Parse a database URL, refusing a malformed one with a message that never shows its password.

    Raises:
        StorageError: ``url`` is not a URL SQLAlchemy can read (a port that is
            not a number, say).
    """
    try:
        return make_url(url)
    except (ArgumentError, ValueError):
        # Not chained: the parser's own message may quote the URL, password and all.
        raise StorageError(
            f"malformed database URL {safe_url(url)!r}: use sqlite:///PATH or "
            "postgresql://user:password@host:port/database (the port a number)"
        ) from None


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; everything stored is UTC.
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


class SqlStorage(Storage):
    """The storage interface over any SQLAlchemy engine; subclasses tune the dialect."""

    def __init__(self, engine: Engine) -> None:
        """Wrap an engine and create the tables if they are missing.

        Args:
            engine: A SQLAlchemy engine (see :func:`open_storage`).
        """
        self.engine = engine
        dialect = engine.dialect
        self._dbapi: Any = dialect.loaded_dbapi
        # The hot statements, written once for this database's driver (no
        # SQL building per move): the values go through the columns' own
        # converters, so rows read back exactly as SQLAlchemy wrote them.
        self._dump_action = _bind(ACTIONS.c.action.type, dialect)
        self._dump_created = _bind(ACTIONS.c.created.type, dialect)
        self._load_created = _result(ACTIONS.c.created.type, dialect)
        mark = "?" if dialect.paramstyle == "qmark" else "%s"
        schema = engine.get_execution_options().get("schema_translate_map", {}).get(None)
        games, actions = (f'"{schema}".games', f'"{schema}".actions') if schema else ("games", "actions")
        self._append_sql = (
            f"INSERT INTO {actions} (game_id, seq, seat, action, created, auto) "
            f"SELECT {mark}, {mark}, {mark}, {mark}, {mark}, {mark} "
            f"WHERE EXISTS (SELECT 1 FROM {games} WHERE id = {mark} AND status = 'running')"
        )
        self._since_sql = (
            f"SELECT seq, seat, action, created, auto FROM {actions} "
            f"WHERE game_id = {mark} AND seq >= {mark} ORDER BY seq"
        )
        # Each thread's own driver connection for those statements (see _hot).
        self._local = threading.local()
        self._hot_lock = threading.Lock()
        self._hot_all: list[Any] = []
        try:
            try:
                metadata.create_all(engine)
            except SQLAlchemyError:
                # Several processes starting at once on an empty database race to
                # create the tables: the loser finds them made on a second look.
                metadata.create_all(engine)
            self._add_missing_columns()
        except (SQLAlchemyError, self._dbapi.Error) as exc:
            raise StorageError(f"cannot open the database: {exc}") from exc

    @contextlib.contextmanager
    def _failures(self) -> Iterator[None]:
        """Turn any database failure inside the block into a :class:`StorageError`.

        SQLAlchemy wraps the driver's errors on its connections, but not all of
        them (a pool reconnecting hands the driver's own error on): both kinds
        are caught. A :class:`StorageError` raised inside goes through as it is.
        """
        try:
            yield
        except (SQLAlchemyError, self._dbapi.Error) as exc:
            raise StorageError(str(exc)) from exc

    #: Columns added since the first version, per table (all nullable: older rows read as NULL).
    ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (
        ("games", "settings", "JSON"),
        ("games", "public", "BOOLEAN"),
        ("games", "next_table", "VARCHAR(64)"),
        ("seats", "again_from", "INTEGER"),
        ("actions", "auto", "BOOLEAN"),
    )

    def _add_missing_columns(self) -> None:
        """Bring a database made by an older version up to date (columns added since, all nullable)."""
        with self.engine.begin() as conn:
            schema = conn.get_execution_options().get("schema_translate_map", {}).get(None)
            have: dict[str, set[str]] = {}
            for table_name, name, kind in self.ADDED_COLUMNS:
                if table_name not in have:
                    have[table_name] = {c["name"] for c in inspect(conn).get_columns(table_name, schema=schema)}
                if name in have[table_name]:
                    continue
                table = f'"{schema}".{table_name}' if schema else table_name
                # (PostgreSQL: another process starting at once may add it first.)
                guard = " IF NOT EXISTS" if conn.dialect.name == "postgresql" else ""
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN{guard} {name} {kind}"))

    # ------------------------------------------------------------------ helpers
    def _seats(self, conn: Connection, game_id: str) -> list[SeatRow]:
        rows = conn.execute(
            select(SEATS.c.seat, SEATS.c.kind, SEATS.c.name, SEATS.c.bot_level)
            .where(SEATS.c.game_id == game_id)
            .order_by(SEATS.c.seat)
        )
        return [SeatRow(seat=r.seat, kind=r.kind, name=r.name, bot_level=r.bot_level) for r in rows]

    def _row(self, conn: Connection, row: Any, *, with_record: bool) -> GameRow:
        count = conn.execute(select(func.count()).select_from(ACTIONS).where(ACTIONS.c.game_id == row.id)).scalar_one()
        return GameRow(
            id=row.id,
            title=row.title,
            status=row.status,
            created=_utc(row.created),
            started=_utc(row.started),
            finished=_utc(row.finished),
            rules=dict(row.rules),
            seats=self._seats(conn, row.id),
            seed=int(row.seed) if row.seed is not None else None,
            record=row.record if with_record else None,
            result=row.result,
            actions=count,
            settings={**(row.settings or {}), "public": bool(row.public)},
            next_table=row.next_table,
        )

    # --------------------------------------------------------------- interface
    def create_table(
        self,
        *,
        game_id: str,
        title: str,
        rules: dict[str, Any],
        seats: list[SeatRow],
        creator_token_hash: str,
        settings: dict[str, Any] | None = None,
    ) -> None:
        """See :meth:`Storage.create_table`."""
        table = NewTable(id=game_id, title=title, rules=rules, seats=seats, settings=settings or {})
        try:
            with self.engine.begin() as conn:
                self._insert_table(conn, table, creator_token_hash)
        except IntegrityError as exc:
            raise ConflictError(f"table {short_id(game_id)} already exists") from exc
        except (SQLAlchemyError, self._dbapi.Error) as exc:
            raise StorageError(str(exc)) from exc

    def _insert_table(
        self, conn: Connection, table: NewTable, creator_token_hash: str, again_from: int | None = None
    ) -> None:
        """Insert a table in the lobby and its seats (seat 0 the creator's, with ``again_from``)."""
        conn.execute(
            insert(GAMES).values(
                id=table.id,
                title=table.title,
                status="lobby",
                created=_now(),
                rules=table.rules,
                settings={k: v for k, v in table.settings.items() if k != "public"},
                public=bool(table.settings.get("public", False)),
            )
        )
        conn.execute(
            insert(SEATS),
            [
                {
                    "game_id": table.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "bot_level": s.bot_level,
                    "token_hash": creator_token_hash if s.seat == 0 else None,
                    "again_from": again_from if s.seat == 0 else None,
                }
                for s in table.seats
            ],
        )

    def get_game(self, game_id: str, *, with_record: bool = False) -> GameRow | None:
        """See :meth:`Storage.get_game`."""
        with self._failures(), self.engine.connect() as conn:
            row = conn.execute(select(GAMES).where(GAMES.c.id == game_id)).first()
            return None if row is None else self._row(conn, row, with_record=with_record)

    def _lock_lobby(self, conn: Connection, game_id: str) -> None:
        """Hold a table in the lobby for the rest of the transaction (joins, leaves and the start queue up).

        Raises:
            ConflictError: The table has started, or does not exist.
        """
        self._hold(conn, game_id, "lobby", "the game has already started")

    @staticmethod
    def _hold(conn: Connection, game_id: str, status: Status, otherwise: str) -> None:
        """Hold a table that is in ``status`` for the rest of the transaction (the callers queue up).

        A no-op write of the table's row: PostgreSQL locks the row until the
        commit, SQLite takes its write lock now (so what is read next is the
        latest, and nobody writes before the commit).

        Raises:
            ConflictError: The table is in another status (``otherwise`` says so), or does not exist.
        """
        held = conn.execute(
            update(GAMES).where(GAMES.c.id == game_id, GAMES.c.status == status).values(status=status)
        ).rowcount
        if not held:
            now = conn.execute(select(GAMES.c.status).where(GAMES.c.id == game_id)).scalar()
            raise ConflictError(otherwise if now else "no such table")

    @staticmethod
    def _name_free(seats: Iterable[Any], name: str) -> None:
        """Raise :class:`NameTakenError` if a seat of ``seats`` (with ``kind`` and ``name``) holds ``name``, case and spaces aside."""
        key = name_key(name)
        for s in seats:
            if s.kind != "open" and s.name and name_key(s.name) == key:
                raise NameTakenError(s.name, s.kind)

    def join(self, game_id: str, name: str, token_hash: str) -> int:
        """See :meth:`Storage.join`."""
        with self._failures(), self.engine.begin() as conn:
            # Locked first: two joins with one name can never both read the seats before either writes.
            self._lock_lobby(conn, game_id)
            table_seats = self._seats(conn, game_id)
            open_seats = [s.seat for s in table_seats if s.kind == "open"]
            if not open_seats:
                raise ConflictError("the table is full")
            self._name_free(table_seats, name)
            seat = open_seats[0]
            done = conn.execute(
                update(SEATS)
                .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat, SEATS.c.kind == "open")
                .values(kind="human", name=name, token_hash=token_hash, again_from=None)
            ).rowcount
            if done:
                return seat
        raise ConflictError("the table is full")

    def vacate(self, game_id: str, seat: int, token_hash: str | None = None) -> None:
        """See :meth:`Storage.vacate`."""
        with self._failures(), self.engine.begin() as conn:
            self._lock_lobby(conn, game_id)
            query = update(SEATS).where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
            if token_hash is not None:  # someone leaving: only their own seat
                query = query.where(SEATS.c.kind == "human", SEATS.c.token_hash == token_hash)
            else:  # the creator removing a person or a bot
                query = query.where(SEATS.c.kind.in_(("human", "bot")))
            opened = query.values(kind="open", name=None, bot_level=None, token_hash=None, again_from=None)
            if seat == 0 or not conn.execute(opened).rowcount:
                raise ConflictError(f"seat {seat} is not a seat that can be opened")

    def play_again(
        self,
        game_id: str,
        seat: int,
        token_hash: str,
        *,
        new_table: NewTable,
        reissue: bool = False,
    ) -> NextSeat:
        """See :meth:`Storage.play_again`."""
        try:
            with self.engine.begin() as conn:
                # Held first: two callers at once queue up here, so the second finds the first's table.
                self._hold(conn, game_id, "finished", "the game is not over")
                linked = conn.execute(select(GAMES.c.next_table).where(GAMES.c.id == game_id)).scalar()
                if linked is not None:
                    there = conn.execute(select(GAMES.c.status).where(GAMES.c.id == linked)).scalar()
                    if there is not None:
                        return self._join_next(conn, linked, seat, token_hash, new_table, reissue=reissue)
                # None yet (or one never started and deleted since): this caller makes it.
                self._insert_table(conn, new_table, token_hash, again_from=seat)
                conn.execute(update(GAMES).where(GAMES.c.id == game_id).values(next_table=new_table.id))
                return NextSeat(table_id=new_table.id, seat=0, created=True)
        except StorageError:
            raise
        except IntegrityError as exc:
            raise ConflictError(f"table {new_table.id} already exists") from exc
        except (SQLAlchemyError, self._dbapi.Error) as exc:
            raise StorageError(str(exc)) from exc

    def _join_next(
        self, conn: Connection, next_id: str, seat: int, token_hash: str, new_table: NewTable, *, reissue: bool
    ) -> NextSeat:
        """Seat the person of ``seat`` of the finished table at its next table (see :meth:`play_again`)."""
        try:
            self._lock_lobby(conn, next_id)
        except ConflictError:
            raise ConflictError("the next game has already started") from None
        rows = list(
            conn.execute(
                select(SEATS.c.seat, SEATS.c.kind, SEATS.c.name, SEATS.c.again_from)
                .where(SEATS.c.game_id == next_id)
                .order_by(SEATS.c.seat)
            )
        )
        mine = next((r.seat for r in rows if r.kind == "human" and r.again_from == seat), None)
        if mine is not None:
            if not reissue:
                raise AlreadyJoinedError(next_id, mine)
            conn.execute(
                update(SEATS).where(SEATS.c.game_id == next_id, SEATS.c.seat == mine).values(token_hash=token_hash)
            )
            return NextSeat(table_id=next_id, seat=mine, created=False, reissued=True)
        name = new_table.seats[0].name or "Player"
        self._name_free(rows, name)
        open_seats = [r.seat for r in rows if r.kind == "open"]
        if not open_seats:
            raise ConflictError("the next table is full")
        chosen = seat if seat in open_seats else open_seats[0]
        conn.execute(
            update(SEATS)
            .where(SEATS.c.game_id == next_id, SEATS.c.seat == chosen, SEATS.c.kind == "open")
            .values(kind="human", name=name, token_hash=token_hash, again_from=seat)
        )
        return NextSeat(table_id=next_id, seat=chosen, created=False)

    def seat_of_token(self, game_id: str, token_hash: str) -> int | None:
        """See :meth:`Storage.seat_of_token`."""
        with self._failures(), self.engine.connect() as conn:
            return conn.execute(
                select(SEATS.c.seat).where(SEATS.c.game_id == game_id, SEATS.c.token_hash == token_hash)
            ).scalar()

    def seat_tokens(self, game_id: str) -> dict[int, str]:
        """See :meth:`Storage.seat_tokens`."""
        query = select(SEATS.c.seat, SEATS.c.token_hash).where(
            SEATS.c.game_id == game_id, SEATS.c.token_hash.is_not(None)
        )
        with self._failures(), self.engine.connect() as conn:
            return {r.seat: r.token_hash for r in conn.execute(query)}

    def start(self, game_id: str, *, seed: int, bot_level: str) -> GameRow:
        """See :meth:`Storage.start`."""
        with self._failures(), self.engine.begin() as conn:
            done = conn.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id, GAMES.c.status == "lobby")
                .values(status="running", started=_now(), seed=str(seed))
            ).rowcount
            if not done:
                raise ConflictError("the table is not waiting to start")
            conn.execute(
                update(SEATS)
                .where(SEATS.c.game_id == game_id, SEATS.c.kind == "open")
                .values(kind="bot", bot_level=bot_level)
            )
            table_seats = self._seats(conn, game_id)
            names = _bot_names(table_seats)
            for s in table_seats:
                if s.kind == "bot" and not s.name:
                    conn.execute(
                        update(SEATS)
                        .where(SEATS.c.game_id == game_id, SEATS.c.seat == s.seat)
                        .values(name=names[s.seat])
                    )
            conn.execute(update(GAMES).where(GAMES.c.id == game_id).values(players=list(names)))
            row = conn.execute(select(GAMES).where(GAMES.c.id == game_id)).one()
            return self._row(conn, row, with_record=False)

    def append_action(
        self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool = False
    ) -> datetime:
        """See :meth:`Storage.append_action`.

        The hot path of every move: one statement on a pooled driver connection
        (an insert guarded by the game's status, no separate read), committed.
        """
        return self._append(game_id, seq, seat, action, auto=auto, wait=True)

    def _append(self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool, wait: bool) -> datetime:
        """:meth:`append_action`; ``wait=False``: :class:`WouldWait` instead of waiting for another writer's lock."""
        created = _now()
        params = (game_id, seq, seat, self._dump_action(action), self._dump_created(created), bool(auto), game_id)
        raw = self._hot()
        try:
            self._lock_wait(raw, wait=wait)
            cur = raw.cursor()
            try:
                cur.execute(self._append_sql, params)
                inserted = cur.rowcount
            finally:
                cur.close()
        except self._dbapi.IntegrityError as exc:
            raise ConflictError(f"action {seq} of game {short_id(game_id)} is already stored") from exc
        except self._dbapi.Error as exc:
            if not wait and self._locked(exc):  # nothing was written; the connection is sound
                raise WouldWait(f"game {short_id(game_id)}: another connection holds the write lock") from exc
            self._drop_hot()
            raise StorageError(str(exc)) from exc
        if inserted != 1:
            raise ConflictError(f"game {short_id(game_id)} is not running")
        return created

    def _lock_wait(self, raw: Any, *, wait: bool) -> None:
        """Make the hot connection ``raw`` wait for locks (its timeout) or not at all (SQLite only; see there)."""

    def _locked(self, exc: Exception) -> bool:
        """Whether a driver error says another connection holds a lock this one would have waited for."""
        return False

    def _hot(self) -> Any:
        """This thread's own driver connection for the hot statements, in autocommit mode.

        Taken from the pool once and detached from it (kept, not checked out
        and in again per move, and never pinged: a broken one is dropped on its
        first error and the next call opens another). In autocommit each
        statement is its own transaction: the append commits without a second
        round trip, and a read holds no snapshot open.
        """
        raw = getattr(self._local, "conn", None)
        if raw is not None:
            return raw
        # (The pool's pre-ping reconnecting hands on the driver's own error,
        # psycopg.OperationalError while PostgreSQL is down: _failures takes both.)
        with self._failures():
            raw = self.engine.raw_connection()
        try:
            raw.rollback()  # out of any transaction a ping began
            raw.detach()
            driver = raw.dbapi_connection
            if self.engine.dialect.name == "sqlite":
                driver.isolation_level = None
            else:
                driver.autocommit = True
            self._prepare_hot(driver)
        except self._dbapi.Error as exc:
            with contextlib.suppress(Exception):
                raw.close()
            raise StorageError(str(exc)) from exc
        with self._hot_lock:
            self._hot_all.append(raw)
        self._local.conn = raw
        return raw

    def _prepare_hot(self, driver: Any) -> None:
        """Settings of a new hot driver connection (none here; see the adapters)."""

    def _drop_hot(self) -> None:
        """Close this thread's hot connection (after an error: it may be broken)."""
        raw = self._local.__dict__.pop("conn", None)
        if raw is None:
            return
        with self._hot_lock, contextlib.suppress(ValueError):
            self._hot_all.remove(raw)
        with contextlib.suppress(Exception):
            raw.close()

    def actions(self, game_id: str) -> list[StoredAction]:
        """See :meth:`Storage.actions`."""
        with self._failures(), self.engine.connect() as conn:
            rows = conn.execute(
                select(ACTIONS.c.seq, ACTIONS.c.seat, ACTIONS.c.action, ACTIONS.c.created, ACTIONS.c.auto)
                .where(ACTIONS.c.game_id == game_id)
                .order_by(ACTIONS.c.seq)
            )
            return [
                StoredAction(seq=r.seq, seat=r.seat, action=dict(r.action), created=_utc(r.created), auto=bool(r.auto))
                for r in rows
            ]

    def actions_since(self, game_id: str, seq: int) -> list[StoredAction]:
        """See :meth:`Storage.actions_since` (one indexed range read of the key, on a driver connection)."""
        raw = self._hot()
        try:
            cur = raw.cursor()
            try:
                cur.execute(self._since_sql, (game_id, seq))
                rows = cur.fetchall()
            finally:
                cur.close()
        except self._dbapi.Error as exc:
            self._drop_hot()
            raise StorageError(str(exc)) from exc
        return [
            StoredAction(
                seq=r[0],
                seat=r[1],
                action=dict(json.loads(r[2]) if isinstance(r[2], str | bytes) else r[2]),
                created=_utc(self._load_created(r[3])),
                auto=bool(r[4]),
            )
            for r in rows
        ]

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        """See :meth:`Storage.append_chat`."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(CHAT).values(
                        game_id=game_id, seat=line.seat, name=line.name, text=line.text, created=_now()
                    )
                )
        except IntegrityError as exc:
            raise StorageError(f"no game {short_id(game_id)} to chat at") from exc
        except (SQLAlchemyError, self._dbapi.Error) as exc:
            raise StorageError(str(exc)) from exc

    def chat_lines(self, game_id: str, limit: int = 50) -> list[ChatLine]:
        """See :meth:`Storage.chat_lines`."""
        query = (
            select(CHAT.c.seat, CHAT.c.name, CHAT.c.text)
            .where(CHAT.c.game_id == game_id)
            .order_by(CHAT.c.id.desc())
            .limit(max(limit, 0))
        )
        with self._failures(), self.engine.connect() as conn:
            rows = list(conn.execute(query))
        return [ChatLine(seat=r.seat, name=r.name, text=r.text) for r in reversed(rows)]

    def finish(self, game_id: str, *, record: dict[str, Any], result: dict[str, Any]) -> datetime | None:
        """See :meth:`Storage.finish`."""
        with self._failures(), self.engine.begin() as conn:
            finished = conn.execute(select(GAMES.c.finished).where(GAMES.c.id == game_id)).scalar()
            if finished is None:
                # The time stored with the last action: what every process that saw it shows.
                last = select(ACTIONS.c.created).where(ACTIONS.c.game_id == game_id).order_by(ACTIONS.c.seq.desc())
                finished = conn.execute(last.limit(1)).scalar() or _now()
            finished = _utc(finished)
            conn.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id)
                .values(status="finished", finished=finished, record=record, result=result)
            )
            return finished

    def list_games(self, status: Status | None = None, limit: int = 100, *, public_only: bool = False) -> list[GameRow]:
        """See :meth:`Storage.list_games`."""
        cols = [c for c in GAMES.c if c.name != "record"]
        newest = func.coalesce(GAMES.c.finished, GAMES.c.created)
        query = select(*cols).order_by(newest.desc(), GAMES.c.id).limit(limit)
        if status is not None:
            query = query.where(GAMES.c.status == status)
        if public_only:
            query = query.where(GAMES.c.public.is_(True))
        with self._failures(), self.engine.connect() as conn:
            return [self._row(conn, row, with_record=False) for row in conn.execute(query)]

    def running_ids(self, active_since: datetime | None = None) -> list[str]:
        """See :meth:`Storage.running_ids`."""
        query = select(GAMES.c.id).where(GAMES.c.status == "running").order_by(GAMES.c.started)
        if active_since is not None:
            played = (
                select(ACTIONS.c.seq).where(ACTIONS.c.game_id == GAMES.c.id, ACTIONS.c.created >= active_since).exists()
            )
            query = query.where(or_(GAMES.c.started >= active_since, played))
        with self._failures(), self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def expire_lobby(self, before: datetime) -> int:
        """See :meth:`Storage.expire_lobby`."""
        with self._failures(), self.engine.begin() as conn:
            old = select(GAMES.c.id).where(GAMES.c.status == "lobby", GAMES.c.created < before)
            ids = list(conn.execute(old).scalars())
            if ids:
                conn.execute(delete(SEATS).where(SEATS.c.game_id.in_(ids)))
                conn.execute(delete(GAMES).where(GAMES.c.id.in_(ids), GAMES.c.status == "lobby"))
                # A finished game whose next table went: its players may make another.
                conn.execute(update(GAMES).where(GAMES.c.next_table.in_(ids)).values(next_table=None))
            return len(ids)

    def close(self) -> None:
        """Close the threads' hot connections and dispose of the connection pool."""
        with self._hot_lock:
            hot, self._hot_all = self._hot_all, []
        for raw in hot:
            with contextlib.suppress(Exception):
                raw.close()
        self.engine.dispose()


def _bot_names(table_seats: list[SeatRow]) -> list[str]:
    """Every seat's name once the open seats are bots: names no one at the table has (case aside)."""
    taken = {name_key(s.name) for s in table_seats if s.name}
    return [s.name or bot_name(s.seat, taken) for s in table_seats]


class SqliteStorage(SqlStorage):
    """The embedded default: one SQLite file, created with its folder if missing.

    Appending an action to SQLite in WAL mode with ``synchronous=NORMAL`` costs
    tens of microseconds and never waits for the disk, so sessions call
    :meth:`append_action` directly on the event loop, ``at_once`` (``quick_appends``):
    a trip to a thread would cost more than the write. It never waits for a
    lock either: while another connection (another process, a backup, a
    person's ``sqlite3`` shell) holds the write lock it raises
    :class:`WouldWait` at once, and the session makes the same append in a
    thread, which waits up to :attr:`busy_timeout` (then ``unavailable``):
    the event loop, every table and every request go on meanwhile. What may
    wait for the disk, copying the WAL back into the database (a checkpoint), is done by a
    thread of its own every second after any write (a move, a chat line, a
    table opened, joined, left or started...), never by a commit.

    The file holds the secret seeds of the games being played: a folder this
    adapter creates is the owner's alone (``0700``), and so is a database file
    it creates (``0600``; SQLite gives its ``-wal`` and ``-shm`` files the
    database file's permissions). A file that others may read is used as it
    is, with a warning.

    A damaged file is refused when it is opened (``PRAGMA quick_check``, which
    reads every page once, but checks no index against its table: about 0.2 s
    per 100 MB once the file is in the page cache), so that ``serve`` says so
    in one line instead of failing on the first read. A file bigger than
    :attr:`check_whole_below` has only its ``games`` and ``seats`` checked
    (what the lobby and a start read); damage elsewhere shows as the games it
    touches failing to load.
    """

    #: Appends are quick enough to call from the event loop, ``at_once`` (see the class docstring).
    quick_appends = True
    #: Seconds a statement waits for another connection's write lock before failing (never on the event loop).
    busy_timeout = 5.0
    #: Seconds between two checkpoints (when something was written).
    checkpoint_every = 1.0
    #: Database files (with their WAL) up to this many bytes are checked whole when opened.
    check_whole_below = 512 * 2**20

    def __init__(self, url: str) -> None:
        """Open (or create) the SQLite database at ``url`` (``sqlite:///PATH``).

        Raises:
            StorageError: The URL is malformed, its folder cannot be created, or
                the database cannot be opened.
        """
        parsed = _parse_url(url)
        path: Path | None = None
        if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
            path = Path(parsed.database)
            _private_file(path)
        # hide_parameters: errors and logs never show the values written (an
        # action names cards; the seed is secret until the end).
        try:
            engine = create_engine(parsed, hide_parameters=True)
        except (ArgumentError, ValueError) as exc:
            raise StorageError(f"cannot open the database {safe_url(url)!r}: {exc}") from None

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a committed action survives the server
            # process being killed at any moment (it is in the WAL before the
            # players are told); only a power cut or an operating-system crash
            # may lose the last moments. FULL would add an fsync per move.
            cur.execute("PRAGMA synchronous=NORMAL")
            # No checkpoint inside a commit (it may wait for the disk): the
            # checkpoint thread below does them.
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            cur.close()

        self._written = False

        @event.listens_for(engine, "after_cursor_execute")
        def _wrote(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            # Every write through the engine (the lobby's, chat, the end of a game) is
            # checkpointed; the hot appends, on driver connections, mark it themselves.
            if statement.lstrip()[:6].upper() not in ("SELECT", "PRAGMA"):
                self._written = True

        super().__init__(engine)
        try:
            self._check_pages(path)
        except StorageError:
            self.engine.dispose()
            raise
        self._stop_checkpoints = threading.Event()
        self._checkpoints = threading.Thread(target=self._checkpoint_loop, name="sqlite-checkpoint", daemon=True)
        self._checkpoints.start()

    def append_action(
        self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool = False, at_once: bool = False
    ) -> datetime:
        """See :meth:`SqlStorage.append_action`; the next checkpoint copies it into the database file.

        Args:
            game_id: As :meth:`SqlStorage.append_action`.
            seq: As there.
            seat: As there.
            action: As there.
            auto: As there.
            at_once: Never wait for a lock (for the event loop): raise
                :class:`WouldWait` instead, having written nothing.

        Raises:
            WouldWait: ``at_once``, and another connection holds the write
                lock: make the append again without it, in a thread.
        """
        created = self._append(game_id, seq, seat, action, auto=auto, wait=not at_once)
        self._written = True
        return created

    def _lock_wait(self, raw: Any, *, wait: bool) -> None:
        """Set the hot connection's ``busy_timeout``: :attr:`busy_timeout`, or 0 (``wait=False``; kept until a waiting call)."""
        driver = raw.dbapi_connection
        at_once = getattr(self._local, "at_once", None) is driver
        if at_once != wait:
            return  # (as it is)
        cur = raw.cursor()
        try:
            cur.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000) if wait else 0}")
        finally:
            cur.close()
        self._local.at_once = None if wait else driver

    def _locked(self, exc: Exception) -> bool:
        """SQLite's ``SQLITE_BUSY`` (or ``SQLITE_LOCKED``), extended codes included."""
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(code, int):
            return code & 0xFF in (5, 6)
        return "database is locked" in str(exc)

    def _check_pages(self, path: Path | None) -> None:
        """Refuse a damaged database file (``PRAGMA quick_check``: the first problem found, if any; see the class).

        Raises:
            StorageError: The file is damaged (its header and schema may be
                fine while pages of data are not), naming it.
        """
        size = 0
        if path is not None:
            for part in (path, path.with_name(path.name + "-wal")):
                with contextlib.suppress(OSError):
                    size += part.stat().st_size
        checks = ["quick_check(1)"] if size <= self.check_whole_below else ["quick_check(games)", "quick_check(seats)"]
        found: list[Any] = []
        try:
            with self.engine.connect() as conn:
                for check in checks:
                    found = [row[0] for row in conn.exec_driver_sql(f"PRAGMA {check}")]
                    if found != ["ok"]:
                        break
        except (SQLAlchemyError, self._dbapi.Error) as exc:
            problem = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        else:
            if found == ["ok"]:
                return
            lines = [line.strip() for f in found for line in str(f).splitlines() if not line.startswith("***")]
            problem = " ".join(lines) or "no answer"
        where = repr(str(path)) if path is not None else "the database"
        raise StorageError(
            f"the database file {where} is damaged ({problem[:200]}): restore it from a backup, "
            "or move it away to start with an empty one"
        )

    def _checkpoint_loop(self) -> None:
        while not self._stop_checkpoints.wait(self.checkpoint_every):
            if self._written:
                self.checkpoint()

    def checkpoint(self) -> None:
        """Copy the WAL into the database file (PASSIVE: never blocks readers or writers)."""
        self._written = False
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except (SQLAlchemyError, self._dbapi.Error) as exc:  # the next one tries again
            log.warning("sqlite checkpoint failed: %s", exc)

    def close(self) -> None:
        """Stop the checkpoint thread, checkpoint once more and close the pool."""
        self._stop_checkpoints.set()
        if self._checkpoints.is_alive() and self._checkpoints is not threading.current_thread():
            self._checkpoints.join(timeout=5)
        self.checkpoint()
        super().close()


class PostgresStorage(SqlStorage):
    """PostgreSQL through psycopg 3, optionally inside one schema (tests use a fresh one).

    Every call runs in a thread, never on the event loop. The hot statements
    (appends, log reads) wait at most :attr:`lock_timeout` for a lock another
    session holds (a migration's ``ALTER TABLE``, a ``LOCK TABLE``): the move
    is then refused as ``unavailable``, as SQLite's are after its busy
    timeout, instead of holding its table (and a thread) until the lock goes.
    """

    #: Seconds an append (or a read of the log) waits for a lock before failing.
    lock_timeout = 5.0
    #: Seconds a new connection may take (libpq's ``connect_timeout``, unless the URL sets one):
    #: a database host that drops packets would otherwise hold a worker thread for minutes.
    connect_timeout = 10

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        """Connect to ``url`` (``postgresql://...``; the psycopg driver is chosen).

        Args:
            url: Database URL.
            schema: Keep the tables in this existing schema instead of the default.

        Raises:
            StorageError: The URL is malformed or the database cannot be reached.
        """
        parsed = _parse_url(url)
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        try:
            connect_args = {} if "connect_timeout" in parsed.query else {"connect_timeout": self.connect_timeout}
            engine = create_engine(parsed, pool_pre_ping=True, hide_parameters=True, connect_args=connect_args)
        except (ArgumentError, ValueError) as exc:
            raise StorageError(f"cannot open the database {safe_url(url)!r}: {exc}") from None
        if schema:
            engine = engine.execution_options(schema_translate_map={None: schema})
        super().__init__(engine)

    def _prepare_hot(self, driver: Any) -> None:
        """The hot connection's ``lock_timeout`` (autocommit is on: it holds for the session)."""
        driver.execute(f"SET lock_timeout = {int(self.lock_timeout * 1000)}")


def _private_file(path: Path) -> None:
    """Make the folder (``0700``) and the empty database file (``0600``) of a SQLite database that does not exist yet.

    An existing folder keeps its permissions. An existing file that others may
    read (an older version made it so) is made private once, with its ``-wal``
    and ``-shm`` files, when this process's user owns them (logged); else it is
    used as it is, with a warning (``chmod 600`` it, and its ``-wal`` and ``-shm`` files).

    Raises:
        StorageError: The folder or the file cannot be created.
    """
    folder = path.parent
    if not folder.is_dir():
        try:
            # (Only the last folder gets the mode; parents made on the way get the usual one.)
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(
                f"cannot create the folder {str(folder)!r} for the database: {exc.strerror or exc}"
            ) from exc
    try:
        # An empty file is an empty database to SQLite, which gives the -wal and -shm files its mode.
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        with contextlib.suppress(OSError):
            if os.name == "posix" and path.stat().st_mode & 0o077 and not _tighten(path):
                log.warning(
                    "the database file %s may be read by other users of this machine (it holds the secret deals "
                    "of the games being played): chmod 600 it and its -wal and -shm files",
                    path,
                )
    except OSError as exc:
        raise StorageError(f"cannot create the database file {str(path)!r}: {exc.strerror or exc}") from exc


def _tighten(path: Path) -> bool:
    """Take away what others may do with a database file and its ``-wal`` and ``-shm`` files (owner's bits kept).

    Only files this process's user owns are changed, and only if every one of them is.

    Returns:
        Whether the files are private now (logged); ``False``: not owned here, or ``chmod`` failed.
    """
    files = [p for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")) if p.exists()]
    try:
        modes = {p: p.stat() for p in files}
        if any(st.st_uid != os.geteuid() for st in modes.values()):
            return False
        changed = []
        for p, st in modes.items():
            mode = stat.S_IMODE(st.st_mode)
            if mode & 0o077:
                p.chmod(mode & 0o700)
                changed.append(f"{p.name} {mode:04o} -> {mode & 0o700:04o}")
    except OSError as exc:
        log.warning("could not make the database file %s private: %s", path, exc.strerror or exc)
        return False
    log.warning(
        "the database file %s could be read by other users of this machine (it holds the secret deals of the "
        "games being played; an older version made it so): made private, as chmod 600 would (%s)",
        path,
        ", ".join(changed),
    )
    return True


def _in_memory(url: URL) -> bool:
    """Whether a SQLite URL names an in-memory database (``sqlite://``, ``sqlite:///:memory:``, ``mode=memory``)."""
    database = url.database or ""
    return (
        database in ("", ":memory:")
        or database.startswith("file::memory:")
        or "mode=memory" in database
        or url.query.get("mode") == "memory"
    )


def open_storage(url: str) -> SqlStorage:
    """Open the storage a database URL names.

    Args:
        url: ``sqlite:///PATH`` or ``postgresql://user@host:port/db``.

    Raises:
        StorageError: The scheme is not supported, the URL is malformed, it
            names an in-memory SQLite database (its games would not outlive the
            process), or the database cannot be opened (messages never show the
            URL's password).
    """
    scheme = url.split(":", 1)[0].split("+", 1)[0].lower()
    if scheme == "sqlite":
        if _in_memory(_parse_url(url)):
            raise StorageError(
                f"{safe_url(url)!r} is an in-memory SQLite database: every game would be lost when the server"
                " stops; use sqlite:///PATH (a file)"
            )
        return SqliteStorage(url)
    if scheme in ("postgresql", "postgres"):
        return PostgresStorage(url)
    raise StorageError(f"unsupported database URL {safe_url(url)!r}: use sqlite:///PATH or postgresql://...")
