"""``rummy500 serve --cpu N``: the event loop's threads on one CPU, the worker processes on all of them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from rummy500.cli.serve import serve_main
from rummy500.server.affinity import FREE_CPUS, pin

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is Linux's")

# Run in a child interpreter: pinning the test process would slow every later test.
CHILD = textwrap.dedent(
    """
    import json, multiprocessing, os, sys, threading
    from concurrent.futures import ProcessPoolExecutor

    from rummy500.server import workers
    from rummy500.server.api import review
    from rummy500.server.affinity import pin

    before = sorted(os.sched_getaffinity(0))
    cpu = before[-1]
    pin(cpu)
    seen = {}
    thread = threading.Thread(target=lambda: seen.update(thread=sorted(os.sched_getaffinity(0))))
    thread.start()
    thread.join()
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn, initializer=workers._init_worker, initargs=(os.getpid(),)) as pool:
        seen["bot_worker"] = sorted(pool.submit(os.sched_getaffinity, 0).result())
    with ProcessPoolExecutor(1, mp_context=spawn, initializer=review.start_worker, initargs=(os.getpid(),)) as pool:
        seen["review_worker"] = sorted(pool.submit(os.sched_getaffinity, 0).result())
    print(json.dumps({"before": before, "cpu": cpu, "main": sorted(os.sched_getaffinity(0)), **seen}))
    """
)


def test_pinned_threads_stay_on_the_cpu_and_worker_processes_get_every_cpu_back() -> None:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120, check=True)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["main"] == [seen["cpu"]]
    assert seen["thread"] == [seen["cpu"]]  # a thread started afterwards inherits the pin
    assert seen["bot_worker"] == seen["before"]
    assert seen["review_worker"] == seen["before"]


def test_a_cpu_the_process_may_not_use_is_refused_and_nothing_changes() -> None:
    allowed = os.sched_getaffinity(0)
    with pytest.raises(ValueError, match="CPU 4096 is not one this process may use"):
        pin(4096)
    assert os.sched_getaffinity(0) == allowed
    assert FREE_CPUS not in os.environ


def test_serve_refuses_a_cpu_it_cannot_use(tmp_path, capsys) -> None:
    assert serve_main(["--cpu", "4096", "--data-dir", str(tmp_path)]) == 2
    assert "CPU 4096 is not one this process may use" in capsys.readouterr().err
    assert serve_main(["--cpu", "-1", "--data-dir", str(tmp_path)]) == 2  # the settings refuse it
