"""``rummy500 replay FILE|-``: the replay checker of RECORD.md.

Exit status 0 when every action is legal, 1 at the first illegal action, 2
for a malformed record (one line on standard error, nothing on standard
output, never a traceback). The record is read as bytes and decoded as
strict UTF-8 (a byte-order mark is allowed), from a file and from standard
input alike, and never more than :data:`rummy500.record.MAX_RECORD_BYTES` of it
(a larger input, ``/dev/zero`` or ``yes |``, is refused at once); a record
without a round is malformed. A file that cannot be read (or is too large), a usage error, and a result that
cannot be written (standard output closed, or full) also exit 2 with one
line on standard error; so does ``--position`` with ``--indent`` (a position
is not JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, NoReturn

from rummy500.cli._input import read_record_bytes
from rummy500.cli.args import shown
from rummy500.record import Record, RecordError, load_record, parse_record_json, replay, replay_match

__all__ = ["main", "printable"]

PROG = "rummy500 replay"


def printable(text: object) -> str:
    r"""``text`` on one line, safe to print on a terminal.

    Every line break, terminal control character (C0 and C1, ESC, CR, LF, DEL)
    and other unprintable character is written as ``repr`` writes it
    (``\x1b``, ``\n``), so a name or message read from a record can neither
    move the cursor, recolour the screen nor start a line of its own.
    """
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))


_one_line = printable


def _say(message: str) -> None:
    """One line on standard error (silently dropped if standard error itself is gone)."""
    try:
        sys.stderr.write(f"{PROG}: {_one_line(message)}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _fail(message: str) -> int:
    _say(message)
    return 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        _say(f"{message} (usage: {PROG} FILE|- [--indent N])")
        sys.exit(2)


def _indent(text: str) -> int:
    """``--indent``'s value: ASCII digits only (``str.isdigit`` also takes ``²`` and ``١``), 0..16."""
    # (A value thousands of digits long is refused before int(), which would refuse it in Python's words.)
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > 2 or int(text) > 16:
        raise argparse.ArgumentTypeError(f"--indent takes a number of spaces 0..16, not {shown(text)}")
    return int(text)


def _write(text: str) -> bool:
    """Write the result; False when standard output is closed, full or gone."""
    out: Any = sys.stdout
    try:
        if out is None:
            raise OSError("standard output is closed")
        out.write(text)
        out.flush()
        return True
    except (OSError, ValueError) as exc:
        _drop_stdout()
        _say(f"cannot write the result: {getattr(exc, 'strerror', None) or exc}")
        return False


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _load(record: dict[str, Any]) -> Record:
    """The record validated, refused without a round (a game is its rounds: there is nothing to replay).

    Raises:
        RecordError: malformed, or it holds no round.
    """
    rec = load_record(record)
    if not rec.rounds:
        hint = ""
        if isinstance(record.get("record"), dict):  # a conformance case: {"name", "checks", "record", "expect"}
            hint = ' (this looks like a conformance case: its record is under "record")'
        raise RecordError(f"it has no round{hint}")
    return rec


def _print_position(rec: Record) -> int:
    """``--position``: the round where the replay stopped, in the position notation (for bug reports)."""
    match, error = replay_match(rec)
    assert match.state is not None  # (a record with a round deals it, or is refused as malformed)
    if not _write(match.state.position() + "\n"):
        return 2
    return 0 if error is None else 1


def main(argv: list[str]) -> int:
    """Run the replay checker.

    Running out of memory or stack on an input (a record nested or sized to
    exhaust them) is a malformed record too: one line, exit status 2, never a
    traceback.
    """
    try:
        return _main(argv)
    except MemoryError:
        return _fail("cannot replay the record: out of memory")
    except RecursionError:
        return _fail("malformed record: nested too deeply")


def _main(argv: list[str]) -> int:
    parser = _Parser(prog=PROG, description="Replay a game record and print the result as JSON.")
    parser.add_argument("file", help="the record (JSON), or - for standard input")
    parser.add_argument("--indent", type=_indent, default=None, help="pretty-print the JSON (0..16 spaces)")
    parser.add_argument(
        "--position",
        action="store_true",
        help="print the position where the replay stopped (the position notation) instead of the JSON",
    )
    args = parser.parse_args(argv)
    if args.position and args.indent is not None:
        return _fail("--indent lays out the JSON result, and --position prints a position instead: give one of them")
    try:
        data = read_record_bytes(args.file)
    except OSError as exc:
        return _fail(f"cannot read {args.file!r}: {exc.strerror or exc}")
    try:
        record = parse_record_json(data)
        if not isinstance(record, dict):
            # replay() also accepts JSON text; a file holding a JSON string is still not a record.
            raise RecordError("a record must be a JSON object")
        rec = _load(record)
        if args.position:
            return _print_position(rec)
        result = replay(rec)
    except RecordError as exc:
        return _fail(f"malformed record: {exc}")
    if not _write(json.dumps(result, indent=args.indent) + "\n"):
        return 2
    return 0 if result["ok"] else 1
