"""Storage of tables and games: the :class:`Storage` interface and its SQL adapters."""

from rummy500.server.storage.base import (
    AlreadyJoinedError,
    ChatLine,
    ConflictError,
    GameRow,
    NameTakenError,
    NewTable,
    NextSeat,
    SeatKind,
    SeatRow,
    Status,
    Storage,
    StorageError,
    StoredAction,
    bot_name,
    name_key,
)
from rummy500.server.storage.sql import PostgresStorage, SqliteStorage, SqlStorage, open_storage

__all__ = [
    "AlreadyJoinedError",
    "ChatLine",
    "ConflictError",
    "GameRow",
    "NameTakenError",
    "NewTable",
    "NextSeat",
    "PostgresStorage",
    "SeatKind",
    "SeatRow",
    "SqlStorage",
    "SqliteStorage",
    "Status",
    "Storage",
    "StorageError",
    "StoredAction",
    "bot_name",
    "name_key",
    "open_storage",
]
