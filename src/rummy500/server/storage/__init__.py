"""Storage of tables and games: the :class:`Storage` interface and its SQL adapters."""

from rummy500.server.storage.base import (
    ChatLine,
    ConflictError,
    GameRow,
    SeatKind,
    SeatRow,
    Status,
    Storage,
    StorageError,
    StoredAction,
)
from rummy500.server.storage.sql import PostgresStorage, SqliteStorage, SqlStorage, open_storage

__all__ = [
    "ChatLine",
    "ConflictError",
    "GameRow",
    "PostgresStorage",
    "SeatKind",
    "SeatRow",
    "SqlStorage",
    "SqliteStorage",
    "Status",
    "Storage",
    "StorageError",
    "StoredAction",
    "open_storage",
]
