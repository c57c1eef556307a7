"""The other engine of a speed comparison: the folder of ``--baseline`` / ``--compiled`` / ``--ours`` DIR.

``speed.py``, ``search.py``, ``env_speed.py``, ``instructions.py`` and
``load.py`` measure another rummy500 in a child process with its folder first
on ``PYTHONPATH``. A folder without a ``rummy500`` package in it (a typo, a
build not made yet, a checkout's root instead of its ``src/``) used to fail
silently: the child imported the rummy500 installed in this environment (this
checkout, installed editable), and the script compared this checkout with
itself under the label "baseline" or "compiled". :func:`engine_src` refuses
such a folder, and asks a child process where it really imports rummy500
from.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

#: What the probing child prints: the file (or, for a namespace package, the folder) rummy500 came from.
_PROBE = "import rummy500; print(getattr(rummy500, '__file__', None) or list(rummy500.__path__)[0])"


def engine_src(flag: str, folder: str | os.PathLike[str]) -> Path:
    """The folder to put first on ``PYTHONPATH`` for ``flag DIR``: DIR itself, or DIR/src, whichever holds ``rummy500/``.

    A child process started with that folder on its path must import
    rummy500 from inside it (not from the installed package).

    Raises:
        ValueError: neither DIR nor DIR/src holds a ``rummy500`` package, or
            the child does not import rummy500 from there (one line, naming
            ``flag`` and the folder).
    """
    given = Path(folder)
    path = given.resolve()
    if not (path / "rummy500").is_dir() and (path / "src" / "rummy500").is_dir():
        path = path / "src"
    if not (path / "rummy500").is_dir():
        raise ValueError(f"{flag} {given}: no rummy500 package there (give a checkout, its src/ folder or a compiled build)")
    env = {**os.environ, "PYTHONPATH": str(path)}
    done = subprocess.run([sys.executable, "-P", "-c", _PROBE], env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ValueError(f"{flag} {given}: its rummy500 does not import ({last})")
    found = Path(done.stdout.strip().splitlines()[-1]).resolve()
    if not found.is_relative_to(path):
        raise ValueError(f"{flag} {given}: a child process imports rummy500 from {found}, not from {path}")
    return path


def checked_engine(parser: argparse.ArgumentParser, flag: str, folder: str | os.PathLike[str] | None) -> Path | None:
    """:func:`engine_src` for a parsed option (None when it was not given); a bad folder is ``parser.error``."""
    if folder is None:
        return None
    try:
        return engine_src(flag, folder)
    except ValueError as exc:
        parser.error(str(exc))
