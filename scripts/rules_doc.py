"""Write docs/rules.md's generated blocks (option catalogue, presets) from ``rummy500.rules``.

Usage: ``python scripts/rules_doc.py`` rewrites the file; ``--check`` only
says whether it is up to date (exit status 1 when not). The test
``tests/rules/test_options_catalogue.py`` runs the same comparison.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rummy500.rules import update_generated

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def main(argv: list[str]) -> int:
    """Rewrite (or check) the generated blocks of docs/rules.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if the file is out of date")
    parser.add_argument("--doc", type=Path, default=DOC, help=f"the file (default {DOC})")
    args = parser.parse_args(argv)
    text = args.doc.read_text(encoding="utf-8")
    new = update_generated(text)
    if args.check:
        if new != text:
            print(f"{args.doc} is out of date: run python scripts/rules_doc.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        args.doc.write_text(new, encoding="utf-8")
        print(f"wrote {args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
