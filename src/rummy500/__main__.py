"""``python -m rummy500``: the same as the ``rummy500`` command."""

from rummy500.cli import run

raise SystemExit(run())
