"""What a log line may say of a table: the first characters of its id, never all of it.

A table's id is its invite: whoever has it may watch the table, or take an
open seat while it waits in the lobby. So the server's log lines name a table
by :func:`short_id` (enough to tell the tables of one log apart, too short to
open one), and a message that may name it in full (a database error's) goes
through :func:`without_id` first.
"""

from __future__ import annotations

__all__ = ["SHORT_ID", "short_id", "without_id"]

#: The characters of a table id that log lines show.
SHORT_ID = 8


def short_id(table_id: str) -> str:
    """A table id as log lines show it: its first :data:`SHORT_ID` characters.

    >>> short_id("AbCdEfGhIjKlMnOpQrStUv")
    'AbCdEfGh'
    """
    return table_id[:SHORT_ID]


def without_id(text: object, table_id: str) -> str:
    """``text`` (an exception, say) as a string, with the table's full id shortened wherever it names it.

    >>> without_id(RuntimeError("no game AbCdEfGhIjKlMnOpQrStUv to chat at"), "AbCdEfGhIjKlMnOpQrStUv")
    'no game AbCdEfGh to chat at'
    """
    said = str(text)
    return said.replace(table_id, short_id(table_id)) if table_id else said
