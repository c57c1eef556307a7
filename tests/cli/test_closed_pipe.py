"""A reader that stops reading (``rummy500 rules | head``) ends a command quietly, with no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("args", [["rules"], ["rules", "--json"], ["rules", "--markdown"], ["rules", "--show", "persian"]])
def test_a_closed_pipe_on_standard_output_ends_the_command_quietly(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "rummy500", *args], stdout=write, stderr=subprocess.PIPE, timeout=60, check=False
        )
    finally:
        os.close(write)
    err = proc.stderr.decode()
    assert proc.returncode == 1, (proc.returncode, err)
    assert err == "", err  # no traceback, no "Exception ignored ... BrokenPipeError"
