"""Keep the server's event loop and its threads on one CPU (``rummy500 serve --cpu N``, Linux).

The interpreter lock lets one thread of a process run Python at a time, so
the event loop and the threads where the quick bots think (``easy``,
``medium``) take turns anyway. Left to the scheduler, each hand-over between
them tends to move the work to the other core, where the bot's and the
game's data are not in the cache: measured, a ``medium`` decision handed to
its thread cost about 90 µs more CPU than the same decision in the event
loop, against about 15 µs with both on one core (``docs/deploy.md``,
*Performance*). Pinning the process's threads to one CPU keeps the thinking
off the event loop and saves most of that.

Worker processes (the searching bots, reviews, replays) must not share that
core: they call :func:`unpin` when they start and get back every CPU the
server could use before it pinned itself (passed to them in the environment,
which a started process inherits).
"""

from __future__ import annotations

import os

__all__ = ["pin", "unpin"]

#: The environment variable that carries the CPUs the server could use before pinning.
FREE_CPUS = "RUMMY500_FREE_CPUS"


def pin(cpu: int) -> None:
    """Run the calling thread, and every thread it starts from now on, on CPU ``cpu`` only.

    Call it from the thread that will run the event loop, before it starts
    other threads (threads inherit the setting when they start).

    Raises:
        ValueError: ``cpu`` is not one this process may run on, or the system
            has no CPU affinity (only Linux has it).
    """
    if not hasattr(os, "sched_setaffinity"):
        raise ValueError("--cpu needs Linux (this system cannot pin a process to a CPU)")
    allowed = sorted(os.sched_getaffinity(0))
    if cpu not in allowed:
        raise ValueError(f"CPU {cpu} is not one this process may use (it may use {', '.join(map(str, allowed))})")
    os.environ[FREE_CPUS] = ",".join(map(str, allowed))
    os.sched_setaffinity(0, {cpu})


def unpin() -> None:
    """In a worker process: run on every CPU the server could use before it pinned itself (if it did)."""
    free = os.environ.get(FREE_CPUS)
    if not free or not hasattr(os, "sched_setaffinity"):
        return
    try:
        os.sched_setaffinity(0, {int(c) for c in free.split(",")})
    except (ValueError, OSError):  # a CPU taken away meanwhile: keep what the process has
        return
