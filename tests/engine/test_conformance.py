"""The public conformance cases (shared/conformance) pass through ``rummy500 replay``.

CI puts ``shared/`` beside the clone, so it is found relative to this file:
``<clone>/tests/engine/test_conformance.py`` -> ``<clone>/../shared``. A missing
``shared/`` is a failure, never a skip: these cases are the contract.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

SHARED = (Path(__file__).resolve().parents[2] / ".." / "shared").resolve()
CHECKER = SHARED / "tools" / "check_conformance.py"
CASES = SHARED / "conformance"


def test_the_shared_directory_is_beside_the_clone():
    assert CHECKER.is_file(), f"conformance checker not found at {CHECKER}: shared/ must sit beside the clone"
    assert CASES.is_dir() and any(CASES.glob("*.json")), f"no conformance cases in {CASES}"


def test_every_public_conformance_case_passes():
    assert CHECKER.is_file(), f"conformance checker not found at {CHECKER}: shared/ must sit beside the clone"
    cmd = f"{shlex.quote(sys.executable)} -m rummy500 replay"
    proc = subprocess.run(
        [sys.executable, str(CHECKER), "--cmd", cmd, str(CASES)], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, f"conformance failures:\n{proc.stdout}{proc.stderr}"
    assert " 0 failed" in proc.stdout
