"""Process pools that Ctrl-C stops at once: what the simulation and the review share.

A worker leaves Ctrl-C to its parent (:func:`ignore_ctrl_c`, a pool's
initializer), so an interrupt prints one line and no traceback per worker;
the parent stops the pool with :func:`stop_pool`, and the command's Ctrl-C
handler gives the exit a few seconds (:func:`end_within`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

__all__ = ["end_within", "ignore_ctrl_c", "stop_pool"]


def ignore_ctrl_c() -> None:
    """In a worker: leave Ctrl-C to the parent, which stops the pool (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` at once: cancel the tasks not started and terminate the workers.

    For an interrupted run (Ctrl-C, an error): leaving the pool's ``with`` block
    would wait for every task still queued (all of them, for ``map``), and a
    worker busy with a long task would hold up the exit until it finished (a
    second Ctrl-C would not help).
    """
    processes = dict(pool._processes or {})  # (shutdown forgets them)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes.values():
        try:
            if proc.is_alive():
                proc.terminate()
        except (ValueError, ProcessLookupError):  # already closed or gone
            continue


def end_within(seconds: float, code: int) -> None:
    """After Ctrl-C: end the process with ``code`` if its exit has not ended it ``seconds`` from now.

    At exit Python joins a stopped pool's threads and flushes its queues. Where a
    worker was terminated in the middle of its work that can wait for ever: seen
    once under load, a simulation that had printed "interrupted" was still there
    20 s later. A daemon timer ends the process then (it never fires in an exit
    that ends in time: the process is gone first).
    """

    def leave() -> None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.flush()
        os._exit(code)

    timer = threading.Timer(seconds, leave)
    timer.daemon = True
    timer.start()
