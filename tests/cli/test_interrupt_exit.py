"""Ctrl-C ends a command even where Python's own exit would wait for ever.

A simulation on two processes, interrupted, once printed "rummy500: interrupted"
under load and was still running 20 s later: at exit Python joins the stopped
pool's threads, which can wait for a worker terminated in the middle of its work.
The program gives the exit a few seconds after Ctrl-C (``rummy500.cli.run``,
``rummy500.pools.end_within``); a program calling ``rummy500.cli.main`` keeps
its own process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A command interrupted by Ctrl-C whose exit then hangs: a non-daemon thread that never ends,
# which Python's exit waits for (as it waits for a stuck pool's threads).
HANGING = """
import sys, threading
import rummy500.cli as cli

def hangs(args):
    threading.Thread(target=threading.Event().wait, name="stuck").start()
    raise KeyboardInterrupt

cli.EXIT_SECONDS = 0.5
cli._commands = lambda: {"hang": ("hangs at exit", hangs)}
sys.argv[1:] = ["hang"]
sys.exit(cli.run())
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    return env


def _run(code: str) -> tuple[int, str, float]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=60)
    return done.returncode, done.stderr, time.monotonic() - start


def test_an_interrupted_command_whose_exit_hangs_ends_with_130_anyway() -> None:
    code, err, took = _run(HANGING)
    assert code == 130, err
    assert err == "rummy500: interrupted\n"
    assert took < 30  # (it waited for ever before; the test's subprocess limit is 60 s)


def test_an_exit_that_ends_in_time_is_not_cut_short() -> None:
    # The same command without the stuck thread ends at once, with its own status and output.
    code, err, _ = _run(HANGING.replace('threading.Thread(target=threading.Event().wait, name="stuck").start()', "print('done', flush=True)"))
    assert code == 130 and err == "rummy500: interrupted\n"


def test_main_called_in_a_program_never_ends_that_program() -> None:
    # The caller's process goes on past the seconds the program's own exit is given.
    code = HANGING.replace("sys.exit(cli.run())", "import time\ncode = cli.main()\ntime.sleep(1.5)\nprint('still here', code)\nimport os\nos._exit(0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=60)
    assert done.returncode == 0 and done.stdout == "still here 130\n", (done.returncode, done.stdout, done.stderr)
