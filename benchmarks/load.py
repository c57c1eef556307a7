"""Load benchmark of ``rummy500 serve``: K live tables of scripted people and bots, on loopback.

Each table has two seats: a scripted person (this program, over a websocket,
choosing a random legal action after a human-paced pause) and a bot of the
server. The server runs as real ``python -m rummy500.server`` processes
(never in this process), bound to 127.0.0.1 on free ports. For each setup it
prints, over the measured window:

- **p50 / p99 latency**: from sending a person's action to receiving the
  state that includes it (the action→broadcast time a player feels);
- **actions/s**: every accepted action (people and bots) at every table;
- **CPU ms/action**: CPU time of the server processes (and their bot
  workers) divided by the actions;
- **RSS MB**: resident memory of the server processes and their workers.

Setups: ``one`` (one process, SQLite), ``pg`` (one process, PostgreSQL),
``two`` (two processes on PostgreSQL + Redis, each table's person connected
to one of them in turn: compare its CPU per action with ``pg``'s), and ``hard``
(one process, the same K tables plus N tables against the ``hard`` bot, whose
search must not slow the others down: compare its p99 with ``one``'s). The
``failover`` setup kills (-9) the process driving a table's bot on the bot's
turn and times how long until the other process plays it. ``--setups``
names any of them (comma-separated); another name is refused (exit 2),
as is a ``--src`` or ``--baseline`` folder with no ``rummy500`` package in it
(nor in its ``src/``).

Run: ``python benchmarks/load.py --tables 20 --seconds 20`` (add
``--postgres URL --redis URL`` for ``two``; scripts/test.sh's services are the
defaults; the database server's own CPU is not counted; ``--baseline OTHER/src`` runs
each setup on another checkout first, under the same load, for before/after figures; ``--reps N``
runs each setup (and its baseline, alternating) N times and prints the medians; ``--profile [N]``
runs the servers under cProfile and prints the top N functions of their event loops; ``--pin`` starts this
version's servers with ``--cpu`` (process i on the i-th CPU; the baseline's run as they are, unless
``--pin-baseline``), and ``--apart`` then runs the load generator on the CPUs the servers leave free;
``--src DIR`` runs this version from another package folder, e.g. ``build/compiled``;
``--per-process`` gives each server process ``--tables`` tables, so ``two`` carries the same load per
process as ``pg``; ``--cpu-quota Q`` holds each server process, with its workers, to Q CPUs in a cgroup of
its own (root only), so that two servers and the generator can each have "a core" on a 2-core machine).
The load generator shares the machine with the servers: on a small
machine it takes a good part of the CPU itself, so read the figures side by
side, within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_folder import checked_engine  # noqa: E402

#: The setups ``--setups`` names.
SETUPS = ("one", "hard", "pg", "two", "failover")
LIMITS = [
    "--sockets-per-client",
    "100000",
    "--client-rate",
    "100000",
    "--client-burst",
    "100000",
    "--tables-per-client",
    "100000",
    "--table-rate",
    "1000000",
]


@dataclass
class Stats:
    """What the scripted people saw."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    stale: int = 0
    errors: list[str] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: Runs ``rummy500 serve`` under cProfile (argv[1]: where to write the stats): the main thread only,
#: which is the event loop's work (bot workers and the storage threads are not in it). It counts the thread's
#: CPU time, not wall time: on a shared machine, waiting for a core would otherwise land on whatever ran.
PROFILED = """
import cProfile, signal, sys, time
from rummy500.cli.serve import serve_main
out = sys.argv[1]
# uvicorn raises the signal again after its graceful shutdown: end with the stats written.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
prof = cProfile.Profile(time.thread_time)
prof.enable()
try:
    serve_main(sys.argv[2:])
finally:
    prof.disable()
    prof.dump_stats(out)
"""


def _cgroup_root() -> tuple[Path, bool]:
    """Where CPU-capped groups can be made: the cgroup v1 ``cpu`` hierarchy, or cgroup v2 (``True``).

    Raises:
        SystemExit: Neither is writable here (``--cpu-quota`` needs root in a machine or container that allows it).
    """
    v1 = Path("/sys/fs/cgroup/cpu")
    if (v1 / "cpu.cfs_quota_us").exists() and os.access(v1, os.W_OK):
        return v1, False
    for v2 in (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup")):
        controllers = v2 / "cgroup.controllers"
        if controllers.exists() and "cpu" in controllers.read_text().split() and os.access(v2, os.W_OK):
            return v2, True
    raise SystemExit("--cpu-quota: no writable cgroup cpu controller on this machine (it needs root)")


@contextlib.contextmanager
def cpu_group(quota: float) -> Iterator[Path]:
    """A cgroup whose processes together get at most ``quota`` CPUs (each server gets its own).

    It stands for a core of its own, ``quota`` times as fast, on a machine with
    too few cores to give each server and the load generator one: the throughput
    a second server adds can then be measured beside the generator.
    """
    root, v2 = _cgroup_root()
    group = root / f"rummy500-load-{os.getpid()}-{secrets.token_hex(3)}"
    group.mkdir()
    try:
        period = 100_000
        if v2:
            (group / "cpu.max").write_text(f"{int(quota * period)} {period}")
        else:
            (group / "cpu.cfs_period_us").write_text(str(period))
            (group / "cpu.cfs_quota_us").write_text(str(int(quota * period)))
        yield group
    finally:
        for _ in range(100):  # the processes are gone once the servers' context has exited
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.05)


@contextlib.contextmanager
def servers(
    count: int,
    args: list[str],
    env: dict[str, str],
    profile: str | None = None,
    pin: bool = False,
    quota: float = 0.0,
) -> Iterator[list[tuple[subprocess.Popen[bytes], str]]]:
    """Start ``count`` server processes; yield them with their base URLs.

    With ``profile``, each runs under cProfile and writes its stats to ``profile`` + its index;
    with ``pin``, process i runs with ``--cpu`` on the i-th CPU this process may use;
    with ``quota``, each process (its bot workers included) gets at most that many CPUs (:func:`cpu_group`).
    """
    cpus = sorted(os.sched_getaffinity(0)) if pin else []
    procs: list[tuple[subprocess.Popen[bytes], str]] = []
    logs: list[Any] = []
    stack = contextlib.ExitStack()
    try:
        for _ in range(count):
            port = _free_port()
            serve = ["--port", str(port), "--log-level", "warning", *args]
            if cpus:
                serve += ["--cpu", str(cpus[len(procs) % len(cpus)])]
            if profile is None:
                cmd = [sys.executable, "-m", "rummy500.server", *serve]
            else:
                cmd = [sys.executable, "-c", PROFILED, f"{profile}{len(procs)}", *serve]
            if quota > 0:
                # The shell joins the group before it becomes the server, so every thread and worker is in it.
                group = stack.enter_context(cpu_group(quota))
                cmd = ["sh", "-c", f'echo $$ > {group / "cgroup.procs"} && exec "$@"', "sh", *cmd]
            err = stack.enter_context(tempfile.TemporaryFile())  # noqa: SIM115 - closed by the stack
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
            procs.append((proc, f"127.0.0.1:{port}"))
            logs.append(err)
        for proc, base in procs:
            for _ in range(400):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://{base}/api/rules", timeout=1).status_code == 200:
                        break
                if proc.poll() is not None:
                    err = logs[procs.index((proc, base))]
                    err.seek(0)
                    raise RuntimeError(f"server exited with {proc.returncode}: {err.read()[-500:].decode()}")
                time.sleep(0.05)
        yield procs
    finally:
        for proc, _ in procs:
            proc.terminate()
        for proc, _ in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        stack.close()


def _tree(pid: int) -> list[int]:
    """A process and its descendants (its bot workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes and their descendants (live ones)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for root in pids:
        for p in _tree(root):
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
    return total


def rss_mb(pids: list[int]) -> float:
    """Resident memory of these processes and their descendants."""
    total = 0
    for root in pids:
        for p in _tree(root):
            with contextlib.suppress(OSError, ValueError):
                for line in Path(f"/proc/{p}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
    return total / 1024


async def _open_table(http: httpx.AsyncClient, base: str, level: str, rng: random.Random) -> tuple[str, str]:
    res = await http.post(f"http://{base}/api/tables", json={"name": "P", "bots": {"1": level}})
    res.raise_for_status()
    made = res.json()
    started = await http.post(
        f"http://{base}/api/tables/{made['table_id']}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    started.raise_for_status()
    return made["table_id"], made["token"]


async def person(
    base: str,
    table_id: str,
    token: str,
    counters: Callable[[], Stats | None],
    pace: float,
    stop: asyncio.Event,
    seed: int,
) -> None:
    """A scripted person: wait a human while, play a random legal action, time the broadcast.

    ``counters`` says where to count what it sees now (``None``: nowhere, a
    warm-up or an unmeasured table).
    """
    rng = random.Random(seed)
    async with connect(f"ws://{base}/ws/tables/{table_id}?token={token}", max_size=None) as ws:
        state: dict[str, Any] | None = None
        sent_at: float | None = None
        sent_version = -1
        ready_sent = -1
        while not stop.is_set():
            # No polling timeout: 500 people each waking 4 times a second would
            # load the generator (and its lag would read as the server's). The
            # run ends by cancelling these tasks.
            raw = await ws.recv()
            if raw is not None:
                msg = json.loads(raw)
                stats = counters()
                if msg["type"] == "state":
                    if state is not None and stats is not None and msg["version"] > state["version"]:
                        stats.actions += msg["version"] - state["version"]
                    state = msg
                    if sent_at is not None and msg["version"] > sent_version:
                        if stats is not None:
                            stats.latencies.append(time.perf_counter() - sent_at)
                        sent_at = None
                elif msg["type"] == "error":
                    if msg["code"] == "stale_version":
                        if stats is not None:
                            stats.stale += 1
                    elif stats is not None:
                        stats.errors.append(msg["code"])
                    sent_at = None
            if state is None or sent_at is not None or state["table"]["status"] != "running":
                continue
            view = state["view"]
            summary = (state.get("pace") or {}).get("summary")
            if summary is not None:  # a round summary holds the table: read it, say so (once per summary)
                if view.get("seat") in summary.get("waiting", ()) and ready_sent != state["version"]:
                    ready_sent = state["version"]
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)
                    await ws.send('{"type": "ready"}')
                continue
            if not view["legal"]:  # not this seat's turn
                continue
            pause = rng.uniform(0.5, 1.5) * pace
            window = (state.get("pace") or {}).get("call_window")
            if window is not None:  # the Rummy-call window: nobody may draw before it closes
                pause = max(pause, window["left"] + 0.05)
            await asyncio.sleep(pause)
            if stop.is_set():
                break
            action = rng.choice(view["legal"])
            sent_version = state["version"]
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "version": sent_version, "action": action}))


async def run_load(
    bases: list[str],
    tables: int,
    hard: int,
    seconds: float,
    warmup: float,
    pace: float,
    level: str,
    seed: int,
    mark: Callable[[], None] = lambda: None,
) -> tuple[Stats, float]:
    """Open the tables, play, and return what the measured tables saw (and the measured seconds).

    ``mark`` is called as the measured window opens and as it closes (to read the servers' CPU then).
    """
    rng = random.Random(seed)
    stats = Stats()
    stop = asyncio.Event()
    measuring = False

    def counters() -> Stats | None:
        return stats if measuring else None

    async with httpx.AsyncClient(timeout=30) as http:
        opened = []
        for i in range(tables + hard):
            base = bases[i % len(bases)]
            table_id, token = await _open_table(http, base, "hard" if i >= tables else level, rng)
            opened.append((base, table_id, token, i < tables))
    tasks = [
        asyncio.create_task(person(base, table_id, token, counters if measured else _nowhere, pace, stop, seed + n))
        for n, (base, table_id, token, measured) in enumerate(opened)
    ]
    await asyncio.sleep(warmup)
    mark()
    measuring = True
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    measuring = False
    elapsed = time.perf_counter() - start
    mark()
    stop.set()
    for task in tasks:
        task.cancel()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
            stats.errors.append(type(outcome).__name__)
    return stats, elapsed


def _nowhere() -> Stats | None:
    return None


def measure_setup(
    name: str, count: int, args: list[str], opts: argparse.Namespace, hard: int = 0, src: Path = ROOT / "src"
) -> dict[str, Any]:
    """One setup: start its servers (the package in ``src``), play, and sum up."""
    env = {**os.environ, "PYTHONPATH": str(src) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("RUMMY500_DB_URL", None)
    env.pop("RUMMY500_REDIS_URL", None)
    profile = tempfile.mktemp(prefix="rummy500-load-prof-") if opts.profile else None  # noqa: S306
    tables = opts.tables * count if opts.per_process else opts.tables
    pinned = opts.pin_baseline if name.endswith("(baseline)") else opts.pin
    with servers(
        count,
        args,
        env,
        profile,
        pin=pinned,
        quota=opts.cpu_quota,
    ) as procs:
        pids = [p.pid for p, _ in procs]
        bases = [b for _, b in procs]

        async def go() -> tuple[Stats, float, list[float], list[float]]:
            marks: list[list[float]] = []

            def mark() -> None:  # the CPU of each server, as the measured window opens and closes
                marks.append([cpu_seconds([pid]) for pid in pids])

            stats, elapsed = await run_load(
                bases, tables, hard, opts.seconds, opts.warmup, opts.pace, opts.level, opts.seed, mark
            )
            return stats, elapsed, marks[0], marks[1]

        mine = os.sched_getaffinity(0)
        spare = sorted(mine)[count:] if pinned and opts.apart else []
        if spare:  # the generator keeps off the servers' CPUs (they have the first ``count``)
            os.sched_setaffinity(0, spare)
        try:
            stats, elapsed, c0, c1 = asyncio.run(go())
        finally:
            os.sched_setaffinity(0, mine)
        memory = rss_mb(pids)
    if profile is not None:
        _print_profile(name, [f"{profile}{i}" for i in range(count)], opts.profile)
    lat = sorted(stats.latencies)
    actions = stats.actions
    total_actions = max(1, actions)
    return {
        "setup": name,
        "processes": count,
        "tables": tables + hard,
        "samples": len(lat),
        "p50_ms": 1000 * statistics.median(lat) if lat else float("nan"),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan"),
        "actions_per_s": actions / elapsed,
        # CPU of all servers over the window, per action at the measured tables
        # (``hard`` also spends CPU on its hard tables: see its own line).
        "cpu_ms_per_action": 1000 * (sum(c1) - sum(c0)) / total_actions,
        # Each process's share (with its bot workers), in the order of ``bases`` (tables alternate).
        "cpu_split": [round(1000 * (b - a) / total_actions, 2) for a, b in zip(c0, c1, strict=True)],
        "rss_mb": memory,
        "stale": stats.stale,
        "errors": len(stats.errors),
        "error_codes": dict(collections.Counter(stats.errors).most_common(5)),
    }


def _print_profile(name: str, paths: list[str], top: int) -> None:
    """Print the functions where the servers' event loops spent most time (own time, then cumulative)."""
    import pstats  # noqa: PLC0415 - only with --profile

    found = [p for p in paths if os.path.exists(p)]
    if not found:
        print(f"--- {name}: no profile written (did the server exit cleanly?)")
        return
    stats = pstats.Stats(*found)
    keep = os.environ.get("LOAD_KEEP_PROFILE")
    if keep:  # for a closer look: python -m pstats FILE
        stats.dump_stats(keep)
    for p in found:
        os.unlink(p)
    print(f"--- {name}: event-loop profile, {len(found)} process(es), whole run including warm-up")
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def _median_rows(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One row of the medians of repeated rows of one setup (``samples``, ``errors``: summed)."""
    out = dict(rows[0])
    for key, value in rows[0].items():
        if key in ("samples", "stale", "errors"):
            out[key] = sum(r[key] for r in rows)
        elif key == "error_codes":
            out[key] = dict(sum((collections.Counter(r[key]) for r in rows), collections.Counter()))
        elif isinstance(value, float):
            out[key] = statistics.median(r[key] for r in rows)
    if len(rows) > 1:
        out["setup"] = f"{rows[0]['setup']} x{len(rows)}"
        out["cpu_each"] = [round(r["cpu_ms_per_action"], 2) for r in rows]
    return out


def measure_failover(args: list[str], opts: argparse.Namespace) -> dict[str, Any]:
    """Kill -9 the process driving a table's bot on its turn; time until the bot moves on the other.

    The killed process waits a minute before each bot move and holds a
    one-minute lease, so only the takeover on its lapsed heartbeat can make
    the bot move sooner.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    slow = [*args, "--lease", "60", "--bot-delay", "60"]
    fast = [*args, "--lease", "60", "--bot-delay", "0"]
    times = []
    for attempt in range(opts.kills):
        with servers(1, slow, env) as (a,), servers(1, fast, env) as (b,):
            times.append(asyncio.run(_failover_once(a, b[1], opts.seed + attempt)))
    return {
        "setup": "failover",
        "kills": len(times),
        "times_s": times,
        "median_s": statistics.median(times),
        "max_s": max(times),
    }


async def _failover_once(a: tuple[subprocess.Popen[bytes], str], other: str, seed: int) -> float:
    proc, base = a
    async with httpx.AsyncClient(timeout=30) as http:
        table_id, token = await _open_table(http, base, "random", random.Random(seed))
    rng = random.Random(seed)
    async with connect(f"ws://{other}/ws/tables/{table_id}?token={token}", max_size=None) as ws:
        state = await _next_state(ws, -1)
        while state["view"]["legal"]:  # the person's turn first, if it is theirs
            await ws.send(
                json.dumps(
                    {"type": "action", "version": state["version"], "action": rng.choice(state["view"]["legal"])}
                )
            )
            state = await _next_state(ws, state["version"])
        proc.kill()
        proc.wait()
        killed = time.perf_counter()
        await _next_state(ws, state["version"])
        return time.perf_counter() - killed


async def _next_state(ws: Any, after: int) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=120))
        if msg["type"] == "state" and msg["version"] > after:
            return msg


#: The measurements docs/deploy.md quotes, each bounded in time (about how long on a quiet machine).
SCENARIOS: dict[str, dict[str, Any]] = {
    # One process (SQLite), 500 tables of a person (pausing 2.5-7.5 s) and a medium bot: ~2 min.
    "human500": {
        "setups": "one",
        "tables": 500,
        "seconds": 60.0,
        "warmup": 20.0,
        "pace": 5.0,
        "bot_delay": 0.8,
        "level": "medium",
    },
    # One process on SQLite, one on PostgreSQL, two on PostgreSQL + Redis, same load, twice each: ~6 min.
    "scaleout": {
        "setups": "one,pg,two",
        "tables": 100,
        "seconds": 30.0,
        "warmup": 8.0,
        "pace": 0.5,
        "bot_delay": 0.2,
        "level": "medium",
        "reps": 2,
    },
    # Saturated: one process on PostgreSQL, then two with Redis, each server held to half a CPU (a core of
    # its own, half as fast) so that the load generator, PostgreSQL and Redis keep the rest: what a second
    # process adds to the actions per second, twice each: ~3 min. Needs root (cgroups).
    "throughput": {
        "setups": "pg,two",
        "tables": 200,
        "seconds": 25.0,
        "warmup": 10.0,
        "pace": 0.3,
        "bot_delay": 0.05,
        "level": "medium",
        "cpu_quota": 0.5,
        "reps": 2,
    },
    # 100 tables alone, then beside 10 tables of the hard bot, twice each: ~5 min.
    "hardbots": {
        "setups": "one,hard",
        "tables": 100,
        "hard": 10,
        "seconds": 40.0,
        "warmup": 10.0,
        "pace": 2.0,
        "bot_delay": 0.8,
        "level": "medium",
        "reps": 2,
    },
}

# The scale-out path's own cost: ``scaleout``'s pace, one process on PostgreSQL with 50 tables, two with
# Redis with 50 each (the same load per process, so the same fixed costs per action), twice each: ~4 min.
SCENARIOS["matched"] = {**SCENARIOS["scaleout"], "setups": "pg,two", "tables": 50, "per_process": True}


def _comparisons(rows: list[dict[str, Any]]) -> list[str]:
    """Lines comparing setups of one run: two processes' CPU per action against one's; p99 beside hard bots."""
    by = {str(r["setup"]).split(" x")[0]: r for r in rows}
    out = []
    two = by.get("two")
    for base in ("pg", "one"):
        if two is not None and base in by and by[base]["cpu_ms_per_action"] > 0:
            out.append(
                f"two processes / {base}: CPU per action x{two['cpu_ms_per_action'] / by[base]['cpu_ms_per_action']:.2f}"
                f", actions/s x{two['actions_per_s'] / max(by[base]['actions_per_s'], 1e-9):.2f}"
            )
    if "hard" in by and "one" in by:
        out.append(
            f"beside {by['hard']['tables'] - by['one']['tables']} hard-bot tables: p50 {by['one']['p50_ms']:.1f} -> "
            f"{by['hard']['p50_ms']:.1f} ms, p99 {by['one']['p99_ms']:.1f} -> {by['hard']['p99_ms']:.1f} ms"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="load.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=20, help="measured tables (person + bot) per setup")
    p.add_argument("--hard", type=int, default=10, help="extra tables against the hard bot in the 'hard' setup")
    p.add_argument("--seconds", type=float, default=20.0, help="measured window per setup")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds played before measuring")
    p.add_argument("--pace", type=float, default=1.0, help="a person's mean pause before acting, in seconds")
    p.add_argument("--bot-delay", type=float, default=0.5, help="the server's pause before each bot action")
    p.add_argument("--level", default="medium", help="bot level at the measured tables")
    p.add_argument("--workers", type=int, default=2, help="the servers' bot worker processes")
    p.add_argument("--setups", default=",".join(SETUPS), help=f"comma-separated: {', '.join(SETUPS)}")
    p.add_argument(
        "--postgres", default=os.environ.get("RUMMY500_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
    )
    p.add_argument("--redis", default=os.environ.get("RUMMY500_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--baseline",
        type=Path,
        help="the src/ folder of another checkout: each setup runs on it too, right before this one (same load)",
    )
    p.add_argument("--kills", type=int, default=3, help="kill -9 rounds of the 'failover' setup")
    p.add_argument(
        "--pin",
        action="store_true",
        help="start this version's servers with --cpu (process i on the i-th CPU); the baseline's too with --pin-baseline",
    )
    p.add_argument(
        "--apart",
        action="store_true",
        help="with --pin, the load generator runs on the CPUs the pinned servers leave free (when there are any),"
        " as it would on a machine of its own",
    )
    p.add_argument(
        "--pin-baseline", action="store_true", help="start the baseline's servers with --cpu too (it must know it)"
    )
    p.add_argument(
        "--src",
        type=Path,
        default=ROOT / "src",
        help="the package folder of this version's servers (default: this checkout's src; e.g. build/compiled)",
    )
    p.add_argument(
        "--per-process",
        action="store_true",
        help="--tables counts per server process (two processes get twice the tables: the same load each)",
    )
    p.add_argument(
        "--cpu-quota",
        type=float,
        default=0.0,
        help="give each server process (with its workers) at most this many CPUs, in a cgroup of its own "
        "(needs root): a core of its own for each, slower, so the generator keeps one",
    )
    p.add_argument(
        "--reps",
        type=int,
        default=1,
        help="run each setup (and its baseline, alternating) this many times and print the medians",
    )
    p.add_argument(
        "--profile",
        type=int,
        nargs="?",
        const=25,
        default=0,
        help="run the servers under cProfile and print the top N functions of their event loops (default 25)",
    )
    p.add_argument(
        "--scenario",
        choices=sorted(SCENARIOS),
        help="a ready-made measurement of docs/deploy.md (its settings; flags given as well override them)",
    )
    first, _ = p.parse_known_args(argv)
    if first.scenario is not None:
        p.set_defaults(**SCENARIOS[first.scenario])
    opts = p.parse_args(argv)
    setups = [x.strip() for x in opts.setups.split(",") if x.strip()]
    unknown = [x for x in setups if x not in SETUPS]
    if unknown or not setups:
        p.error(f"--setups: unknown setup(s) {', '.join(map(repr, unknown)) or '(none given)'} (setups: {', '.join(SETUPS)})")
    opts.src = checked_engine(p, "--src", opts.src)
    opts.baseline = checked_engine(p, "--baseline", opts.baseline)
    common = ["--bot-delay", str(opts.bot_delay), "--grace", "3600", "--workers", str(opts.workers), *LIMITS]
    print(f"load average before the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    rows: list[dict[str, Any]] = []
    failover: dict[str, Any] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for setup in setups:
            versions = [("", opts.src)]
            if opts.baseline is not None and setup != "failover":
                versions.insert(0, (" (baseline)", opts.baseline))
            runs: dict[str, list[dict[str, Any]]] = {}
            for suffix, src in [v for _ in range(opts.reps) for v in versions]:
                if setup == "one":
                    args = [*common, "--data-dir", tempfile.mkdtemp(dir=tmp)]
                    runs.setdefault(suffix, []).append(measure_setup("one" + suffix, 1, args, opts, src=src))
                elif setup == "hard":
                    args = [*common, "--data-dir", tempfile.mkdtemp(dir=tmp)]
                    runs.setdefault(suffix, []).append(
                        measure_setup("hard" + suffix, 1, args, opts, hard=opts.hard, src=src)
                    )
                elif setup in ("pg", "two"):
                    schema = f"load_{secrets.token_hex(4)}"
                    db = _schema_url(opts.postgres, schema)
                    args = [*common, "--db", db, "--data-dir", tempfile.mkdtemp(dir=tmp)]
                    if setup == "two":
                        args += ["--redis", opts.redis, "--redis-prefix", f"load-{schema}:"]
                    try:
                        runs.setdefault(suffix, []).append(
                            measure_setup(setup + suffix, 2 if setup == "two" else 1, args, opts, src=src)
                        )
                    finally:
                        _drop_schema(opts.postgres, schema)
            rows.extend(_median_rows(r) for r in runs.values())
            if setup == "failover":
                schema = f"load_{secrets.token_hex(4)}"
                db = _schema_url(opts.postgres, schema)
                args = [
                    *LIMITS,
                    "--grace",
                    "3600",
                    "--db",
                    db,
                    "--redis",
                    opts.redis,
                    "--redis-prefix",
                    f"load-{schema}:",
                ]
                try:
                    failover = measure_failover([*args, "--data-dir", f"{tmp}/failover"], opts)
                finally:
                    _drop_schema(opts.postgres, schema)
    cols = [
        "setup",
        "processes",
        "tables",
        "samples",
        "p50_ms",
        "p99_ms",
        "actions_per_s",
        "cpu_ms_per_action",
        "rss_mb",
        "stale",
        "errors",
    ]
    if rows:
        print(" | ".join(f"{c:>17}" for c in cols))
    for row in rows:
        print(" | ".join(f"{row[c]:>17.2f}" if isinstance(row[c], float) else f"{row[c]!s:>17}" for c in cols))
    for row in rows:
        if "cpu_each" in row:
            print(f"{row['setup']}: CPU ms/action of each run, in order {row['cpu_each']}")
        if row["processes"] > 1:
            print(f"{row['setup']}: CPU ms/action by process {row['cpu_split']}")
        if row["errors"]:
            print(f"{row['setup']}: errors {row['error_codes']}")
    for line in _comparisons(rows):
        print(line)
    print(f"load average during the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    if failover is not None:
        print(
            f"failover: after kill -9 of the driving process, the bot moved on the other in "
            f"{failover['median_s']:.2f} s (median of {failover['kills']}, max {failover['max_s']:.2f} s; each: "
            f"{', '.join(f'{t:.2f}' for t in failover['times_s'])} s)"
        )
    return 0


def _schema_url(url: str, schema: str) -> str:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    engine = create_engine(make_url(url).set(drivername="postgresql+psycopg"))
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    return make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


def _drop_schema(url: str, schema: str) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    engine = create_engine(make_url(url).set(drivername="postgresql+psycopg"))
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    engine.dispose()


if __name__ == "__main__":
    sys.exit(main())
