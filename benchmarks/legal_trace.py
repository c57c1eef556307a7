"""A fingerprint of the engine's legal lists, to prove a speed change changed no rule.

Plays seeded random rounds of every preset; at every decision it asks every
seat for its legal actions (out-of-turn offers included), hashes them in
order, and plays a random action of a random actor. Run it on two versions
and compare the printed hashes: ``python benchmarks/legal_trace.py`` here and
``PYTHONPATH=/tmp/base/src python benchmarks/legal_trace.py`` on a baseline
made by ``git archive <commit> src | tar -x -C /tmp/base``.

Usage: ``python benchmarks/legal_trace.py [--rounds 20] [--seed 0]``
"""

from __future__ import annotations

import argparse
import hashlib
import random

from rummy500.rules import PRESETS, Rules
from rummy500.state import Phase, RoundState


def trace(preset: str, rounds: int, seed: int) -> str:
    """The hash of every legal list met in ``rounds`` seeded random rounds of ``preset``."""
    rules = Rules.preset_rules(preset)
    rng = random.Random(seed)
    h = hashlib.sha256()
    for r in range(rounds):
        state = RoundState.new(rules, r % rules.players, rng)
        while not state.is_over:
            if state.public.phase is Phase.SHUFFLE:
                state.apply(state.chance_reshuffle(rng))
                continue
            lists = [(s, state.legal_actions(s)) for s in range(state.n)]
            for s, acts in lists:
                h.update(f"{s}:{','.join(map(str, acts))};".encode())
            offers = [(s, acts) for s, acts in lists if acts]
            seat, acts = rng.choice(offers)
            state.apply(rng.choice(acts), seat, check=False)
        h.update(state.position().encode())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    """Print one hash per preset."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for preset in PRESETS:
        print(f"{preset:<16} {trace(preset, args.rounds, args.seed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
