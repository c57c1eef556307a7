"""What a ``medium`` decision costs when many tables take turns, as in a server.

A server with 500 tables asks each table's bot for one decision at a time,
table after table, so between two decisions of one game the process has
touched the data of hundreds of others. This script plays seeded 2-player
standard games (``medium`` in seat 0 against random play in seat 1), one
decision per table in turn over ``N`` tables, and times each ``medium``
decision with the thread's CPU clock. Printed per ``N``: the median and the
mean CPU time of a decision (the mean is what a process pays), and the mean
relative to one table. A finished game is replaced by a new one.

Before the timing, each table is played on (untimed) for a random number of
decisions (up to ``--stagger``), so that with many tables, each timed for a
few decisions only, the timed decisions come from every stage of a round
(full hands and an empty table, short hands and a full one) as they do
with one table timed for thousands. The games differ with ``N`` (each table
is dealt from its own seed), so the figures compare the cost of the same
kind of decisions, not of the same ones;
``--no-gc`` turns the garbage collector off, to tell its share from the
rest (the memory caches).

``--idle MS`` puts the process to sleep for MS milliseconds before each
timed decision, as a server's threads sleep between two events (its CPU
idle meanwhile), to see what waking up costs a decision.

Usage: ``python benchmarks/bot_tables.py [--tables 1 10 500] [--decisions 3000] [--stagger 300] [--no-gc] [--idle MS]``
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

from rummy500.bots import make_bot
from rummy500.bots.base import Bot
from rummy500.match import Match
from rummy500.rules import Rules


def measure(tables: int, decisions: int, seed: int, stagger: int = 300, idle: float = 0.0) -> list[float]:
    """CPU seconds of ``decisions`` ``medium`` decisions, tables taking turns one decision each.

    With ``idle`` (seconds), the process sleeps that long before each timed decision, as a server's
    thread waits between two events.
    """
    rules = Rules.preset_rules("standard", players=2)
    deals = random.Random(seed)

    def new_table(i: int) -> tuple[Match, Bot, random.Random]:
        return Match(rules, rng=random.Random(deals.random())), make_bot("medium", i), random.Random(i)

    games = [new_table(i) for i in range(tables)]
    times: list[float] = []
    clock = time.thread_time
    ahead = [deals.randrange(stagger + 1) for _ in games]
    while len(times) < decisions:
        for i, (match, bot, rng) in enumerate(games):
            timed = ahead[i] == 0
            ahead[i] = max(0, ahead[i] - 1)
            decision = match.decision()
            if decision is None:
                games[i] = new_table(i)
                continue
            seat = decision.seat
            assert seat is not None
            view = match.view(seat)
            if seat == 0:
                if timed and idle > 0:
                    time.sleep(idle)
                t0 = clock()
                action = bot.act(view, rng)
                if timed:
                    times.append(clock() - t0)
            else:
                action = rng.choice(view.legal)
            match.apply(seat, action if action is not None else view.legal[-1])
    return times


def main(argv: list[str] | None = None) -> int:
    """Print the cost of a decision for each number of tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 500], help="numbers of tables to compare")
    parser.add_argument("--decisions", type=int, default=3000, help="medium decisions timed per number of tables")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--stagger", type=int, default=300, help="most decisions a table is played on before it is timed"
    )
    parser.add_argument("--no-gc", action="store_true", help="turn the garbage collector off")
    parser.add_argument(
        "--idle", type=float, default=0.0, help="milliseconds the process sleeps before each timed decision"
    )
    args = parser.parse_args(argv)
    if args.no_gc:
        gc.disable()
    print(
        f"medium decisions, tables taking turns (CPU time; garbage collector {'off' if args.no_gc else 'on'};"
        f" {args.idle:g} ms asleep before each timed decision)"
    )
    print(f"{'tables':>8}{'decisions':>11}{'median µs':>11}{'mean µs':>10}{'mean vs first':>15}")
    first: float | None = None
    for n in args.tables:
        times = measure(n, args.decisions, args.seed, args.stagger, args.idle / 1000)
        mean = statistics.fmean(times) * 1e6
        first = first or mean
        print(f"{n:>8}{len(times):>11}{statistics.median(times) * 1e6:>11.1f}{mean:>10.1f}{mean / first:>14.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
