"""Process pools that Ctrl-C stops at once: what the simulation and the review share.

A worker leaves Ctrl-C to its parent (:func:`ignore_ctrl_c`, a pool's
initializer), so an interrupt prints one line and no traceback per worker;
the parent stops the pool with :func:`stop_pool`.
"""

from __future__ import annotations

import signal
from concurrent.futures import ProcessPoolExecutor

__all__ = ["ignore_ctrl_c", "stop_pool"]


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
