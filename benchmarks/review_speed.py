"""Speed of the game review: a 2-player standard game to 500, reviewed at the default budget.

The game is played by two ``medium`` bots from a fixed seed. Printed side by
side, from the same run: playing the game (the bots' own decisions), replaying
its record through the engine, and reviewing it (every decision of both
seats at :data:`rummy500.review.DEFAULT_BUDGET`). Wall-clock and CPU seconds
are both shown: on a shared machine the wall clock also counts other
processes. The target is a review in at most 60 s on a 2-core machine.

The review runs in one process per core by default, as ``rummy500 review``
does (``--jobs 1`` for one process); the CPU column then counts the worker
processes too.

Usage: ``python benchmarks/review_speed.py [--seed 3] [--reps 1] [--samples N] [--jobs N]``
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from budget_flags import add_budget_flags, budget_from

from rummy500.record import replay
from rummy500.review import cores, review_record
from rummy500.rules import Rules
from rummy500.sim.runner import play_game


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes (the review's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn):
    w, c = time.perf_counter(), _cpu()
    out = fn()
    return out, time.perf_counter() - w, _cpu() - c


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--reps", type=int, default=1, help="repetitions of the review (the median is printed)")
    add_budget_flags(parser)
    parser.add_argument("--jobs", type=int, default=0, help="processes for the review (default 0: one per core, as rummy500 review)")
    args = parser.parse_args(argv)
    rules = Rules.from_mapping({"preset": "standard"})
    game, play_w, play_c = timed(lambda: play_game(["medium", "medium"], rules, args.seed, keep_record=True))
    record = game.record
    _, replay_w, replay_c = timed(lambda: replay(record))
    budget = budget_from(args)
    jobs = args.jobs or cores()
    walls, cpus = [], []
    review = None
    for rep in range(max(1, args.reps)):
        review, w, c = timed(lambda rep=rep: review_record(record, budget=budget, seed=rep, jobs=jobs))
        walls.append(w)
        cpus.append(c)
    assert review is not None
    n = len(review.decisions)
    print(f"game: seed {args.seed}, {len(record['rounds'])} rounds, totals {game.totals}, {review.steps} actions, {n} decisions reviewed")
    print(f"budget: {budget}; {jobs} process{'es' if jobs > 1 else ''}")
    print(f"{'task':<34}{'wall s':>9}{'cpu s':>9}")
    print(f"{'play the game (2 medium bots)':<34}{play_w:>9.2f}{play_c:>9.2f}")
    print(f"{'replay the record':<34}{replay_w:>9.2f}{replay_c:>9.2f}")
    w, c = statistics.median(walls), statistics.median(cpus)
    label = f"review it (median of {len(walls)})"
    print(f"{label:<34}{w:>9.2f}{c:>9.2f}")
    print(f"review: {w:.1f} s wall (target <= 60 s on a 2-core machine), {1000 * c / max(1, n):.0f} ms CPU per decision")
    guesses = [d.samples for d in review.decisions]
    if guesses:
        first = budget.samples
        print(
            f"guesses per decision: mean {statistics.mean(guesses):.1f}; "
            f"{sum(g <= first for g in guesses)} of {n} settled by the first batch, "
            f"{sum(g >= first * (1 + budget.extend) for g in guesses)} ran to the cap"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
