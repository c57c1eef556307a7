"""A runnable example of every format: ``python -m rummy500.formats [--seed N]``.

It plays a single-table tourney, a multi-table tourney and three ring-game
rounds with random players (through the one decision loop) and prints the
single-table winner and what decided it, the multi-table winner, and each
ring round's scores by player. The formats are a library: this is how to
drive them.
"""

from __future__ import annotations

import argparse
import sys

from rummy500.formats import RingGame, play_ring, run_multi_table, run_single_table
from rummy500.rules import Rules


def main(argv: list[str]) -> int:
    """Play one of each format and print the outcome."""
    parser = argparse.ArgumentParser(prog="python -m rummy500.formats", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules.preset_rules("quick")
    single = run_single_table(rules, ["Ann", "Bob", "Cy"], seed=args.seed)
    print(f"single-table tourney: {single.winner} won ({single.decided_by})")
    names = [f"P{i}" for i in range(1, 10)]
    multi = run_multi_table(rules, names, seed=args.seed, max_table=4)
    print(f"multi-table tourney of {len(names)}: {multi.winner} won")
    ring = RingGame(1, ["Ann", "Bob", "Cy"])
    for r in play_ring(ring, rules, 3, seed=args.seed):
        print(f"ring round {r.number}: {dict(zip(r.players, r.round_scores, strict=True))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
