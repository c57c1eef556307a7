"""Reading a game record from a file or standard input, for every command that loads one.

``rummy500 replay``, ``rummy500 review`` and ``rummy500 play --load`` all read
a record through :func:`read_record_bytes`: as bytes (the record's own
reader, :func:`rummy500.record.parse_record_json`, decodes them as strict
UTF-8), and never more than :data:`rummy500.record.MAX_RECORD_BYTES`, so
that an endless input (``/dev/zero``, ``yes |``) is refused at once instead of
being read until memory runs out.
"""

from __future__ import annotations

import errno
import sys
from typing import Any

from rummy500 import record

__all__ = ["RecordTooLarge", "read_record_bytes", "size_words"]


class RecordTooLarge(OSError):
    """The input holds more than the limit: a file that cannot be read as a record (``EFBIG``).

    An ``OSError``, so that every command's "cannot read FILE: ..." line says
    it: its ``strerror`` names the limit.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(errno.EFBIG, f"larger than {size_words(limit)}, the most a record may hold")
        self.limit = limit


def size_words(n: int) -> str:
    """A byte count as a person reads it: ``16 MiB (16777216 bytes)``, ``1000 bytes``."""
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB ({n} bytes)"
    return f"{n} bytes"


def read_record_bytes(name: str, limit: int | None = None, *, stdin: bool = True) -> bytes:
    """The bytes of the record in file ``name`` (``-``: standard input), at most ``limit`` of them.

    With ``stdin=False``, ``-`` is only a file's name (``play --load``, whose
    standard input is the player's keyboard).

    ``limit`` defaults to :data:`rummy500.record.MAX_RECORD_BYTES` (looked up at
    each call). At most ``limit + 1`` bytes are ever read: one more than the
    limit is enough to know the input is too large.

    Raises:
        RecordTooLarge: the input holds more than ``limit`` bytes.
        OSError: the file or standard input cannot be read (standard input closed included).
    """
    cap = record.MAX_RECORD_BYTES if limit is None else limit
    if name != "-" or not stdin:
        with open(name, "rb") as f:
            data = _read_upto(f, cap + 1)
    else:
        data = _read_stdin(cap + 1)
    if len(data) > cap:
        raise RecordTooLarge(cap)
    return data


def _read_upto(stream: Any, most: int) -> bytes:
    """Up to ``most`` bytes of a binary stream, until its end (a pipe or a raw stream may give them piecemeal)."""
    parts: list[bytes] = []
    left = most
    while left > 0:
        chunk = stream.read(left)
        if not chunk:  # the end (b""), or None from a non-blocking stream with nothing yet: stop there
            break
        parts.append(bytes(chunk))
        left -= len(chunk)
    return b"".join(parts)


def _read_stdin(most: int) -> bytes:
    stream: Any = sys.stdin
    if stream is None:
        raise OSError("standard input is closed")
    raw = getattr(stream, "buffer", None)
    if raw is not None:
        return _read_upto(raw, most)
    # A text stream put in place of stdin: take its text back as bytes. Each character
    # is at least one byte, so reading `most` characters is enough to know.
    data = stream.read(most)
    return data.encode("utf-8", "surrogateescape") if isinstance(data, str) else bytes(data)
