"""How a burst of players' hints slows another table's requests on one ``rummy500 serve`` process.

Starts the server (this checkout's, and ``--baseline``'s if given, taking turns), opens
``--tables`` two-seat tables of a person and a ``medium`` bot, and has every person ask for a
hint at once, while another table's ``GET /api/tables/{id}`` is timed every 20 ms. Each burst
uses new tables (a hint is kept per position). Prints the GET's median, 90th percentile and
maximum, idle and during each burst, and how long the burst took to be answered::

    python benchmarks/hint_burst.py --baseline /tmp/base/src
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]


def _figures(ms: list[float]) -> str:
    ordered = sorted(ms)
    return f"{statistics.median(ordered):.1f} / {ordered[int(0.9 * (len(ordered) - 1))]:.1f} / {ordered[-1]:.1f}"


async def _probe(client: httpx.AsyncClient, url: str, seconds: float) -> list[float]:
    out: list[float] = []
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        began = time.perf_counter()
        res = await client.get(url)
        res.raise_for_status()
        out.append((time.perf_counter() - began) * 1000)
        await asyncio.sleep(0.02)
    return out


async def _table(client: httpx.AsyncClient, base: str) -> dict[str, Any]:
    res = await client.post(f"{base}/api/tables", json={"name": "Ann", "seats": 2, "bots": {"1": "medium"}})
    res.raise_for_status()
    made: dict[str, Any] = res.json()
    started = await client.post(
        f"{base}/api/tables/{made['table_id']}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    started.raise_for_status()
    return made


async def _hint(ws: Any, began: float) -> tuple[float, str]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] in ("hint", "error"):
            return time.perf_counter() - began, message["type"]


async def measure(base: str, tables: int, bursts: int, seconds: float) -> None:
    """Print the figures of ``bursts`` bursts of ``tables`` hints against the server at ``base``."""
    ws_base = base.replace("http", "ws", 1)
    async with httpx.AsyncClient(timeout=60) as client:
        probe = f"{base}/api/tables/{(await _table(client, base))['table_id']}"
        await asyncio.sleep(1)
        idle = await _probe(client, probe, seconds)
        print(f"  idle:    GET ms median / p90 / max {_figures(idle)}")
        for burst in range(bursts):
            made = [await _table(client, base) for _ in range(tables)]
            sockets = [await websockets.connect(f"{ws_base}/ws/tables/{m['table_id']}?token={m['token']}") for m in made]
            await asyncio.sleep(2)  # the bots' first moves
            began = time.perf_counter()
            for ws in sockets:
                await ws.send(json.dumps({"type": "hint"}))
            answers = asyncio.gather(*(_hint(ws, began) for ws in sockets))
            busy = await _probe(client, probe, seconds)
            got = await answers
            hints = sum(1 for _, kind in got if kind == "hint")
            print(
                f"  burst {burst}: GET ms median / p90 / max {_figures(busy)}; "
                f"{hints} hints in {max(t for t, _ in got):.2f} s"
            )
            for ws in sockets:
                await ws.close()


def _serve(src: Path | None, port: int, data: str, workers: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, "-m", "rummy500", "serve", "--port", str(port), "--data-dir", data]
    cmd += ["--workers", str(workers), "--bot-delay", "0", "--log-level", "warning"]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_up(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/rules", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"no server answered at {base}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8, help="hints asked at once (one table each)")
    parser.add_argument("--bursts", type=int, default=3, help="bursts per server run")
    parser.add_argument("--seconds", type=float, default=4.0, help="time the other table's GET is probed per burst")
    parser.add_argument("--workers", type=int, default=2, help="the server's --workers")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each server, taking turns")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--baseline", metavar="SRC", help="another rummy500's src folder, run the same way")
    args = parser.parse_args(argv)
    servers: list[tuple[str, Path | None]] = [("this checkout", ROOT / "src")]
    if args.baseline:
        servers.append((f"baseline {args.baseline}", Path(args.baseline)))
    base = f"http://127.0.0.1:{args.port}"
    for round_ in range(args.rounds):
        for name, src in servers:
            with tempfile.TemporaryDirectory() as data:
                server = _serve(src, args.port, data, args.workers)
                try:
                    _wait_up(base)
                    print(f"{name} (run {round_ + 1}, --workers {args.workers}):")
                    asyncio.run(measure(base, args.tables, args.bursts, args.seconds))
                finally:
                    server.terminate()
                    server.wait(timeout=30)


if __name__ == "__main__":
    main()
