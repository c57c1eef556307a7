"""How much ``hard``'s ``discard_model`` learns from an opponent's last throw.

Plays 2-player standard rounds of ``medium`` against ``medium``. At each draw
of seat 0 that follows a throw of seat 1, it computes
:func:`rummy500.bots.hard.discard_likelihood` of that throw for seat 1's real
hand and, averaged over ``--deals`` guesses, for hands dealt uniformly from
seat 0's view. The ratio of the two means is how strongly the model tells a
real hand from a guessed one (1: not at all).

Run: ``python benchmarks/discard_model.py --rounds 12 --seed 7``
"""

from __future__ import annotations

import argparse
import random
import statistics

import rummy500.bots.hard as hard
from rummy500.bots.determinize import determinize
from rummy500.bots.medium import MediumBot
from rummy500.rules import Rules
from rummy500.state import RoundState


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=12)
    p.add_argument("--deals", type=int, default=10, help="uniform deals per position")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--temperature", type=float, default=hard.THROW_TEMPERATURE)
    args = p.parse_args(argv)
    hard.THROW_TEMPERATURE = args.temperature
    rules = Rules()
    rng = random.Random(args.seed)
    real: list[float] = []
    dealt: list[float] = []
    for r in range(args.rounds):
        state = RoundState.new(rules, r % 2, rng)
        bots = [MediumBot(1), MediumBot(2)]
        for _ in range(400):
            if state.is_over:
                break
            seat = state.decision().seat
            assert seat is not None
            view = state.view(seat)
            if seat == 0 and view.phase == "draw" and view.last_discarder == 1 and view.discard:
                thrown = view.discard[-1]
                real.append(hard.discard_likelihood(state, 1, thrown))
                guesses = [hard.discard_likelihood(determinize(view, rng), 1, thrown) for _ in range(args.deals)]
                dealt.append(statistics.mean(guesses))
            state.apply(bots[seat].choose(view, rng), seat)
    if not real:
        print("no position found")
        return 1
    exact = sum(x > 0.999 for x in real) / len(real)
    print(f"{len(real)} positions, temperature {args.temperature}")
    print(f"real hand: mean chance {statistics.mean(real):.3f} (the heuristics' own throw in {exact:.0%})")
    print(f"uniform deals: mean chance {statistics.mean(dealt):.3f}")
    print(f"ratio {statistics.mean(real) / statistics.mean(dealt):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
