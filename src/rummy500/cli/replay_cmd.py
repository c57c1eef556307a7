"""``rummy500 replay FILE|-``: the replay checker of RECORD.md.

Exit status 0 when every action is legal, 1 at the first illegal action, 2
for a malformed record (one line on standard error, nothing on standard
output, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys

from rummy500.record import RecordError, replay

__all__ = ["main"]


def main(argv: list[str]) -> int:
    """Run the replay checker."""
    parser = argparse.ArgumentParser(prog="rummy500 replay", description="Replay a game record and print the result as JSON.")
    parser.add_argument("file", help="the record (JSON), or - for standard input")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print the JSON")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"rummy500 replay: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        print(f"rummy500 replay: malformed record: not JSON ({exc})", file=sys.stderr)
        return 2
    if not isinstance(data, dict):
        # replay() also accepts JSON text; a file holding a JSON string is still not a record.
        print("rummy500 replay: malformed record: a record must be a JSON object", file=sys.stderr)
        return 2
    try:
        result = replay(data)
    except RecordError as exc:
        print(f"rummy500 replay: malformed record: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("rummy500 replay: malformed record: nested too deeply", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=args.indent))
    return 0 if result["ok"] else 1
