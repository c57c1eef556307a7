"""Storage of tables and games: the :class:`Storage` interface and its SQL adapters."""

from rummy500.server.storage.base import (
    ChatLine,
    ConflictError,
    GameRow,
    NameTakenError,
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
    "ChatLine",
    "ConflictError",
    "GameRow",
    "NameTakenError",
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
