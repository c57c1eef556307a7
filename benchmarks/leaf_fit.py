"""Fit the review's leaf value: what a position mid-round is worth at the end of the round.

The review plays each candidate out for a few turns and then values the
position (:func:`rummy500.bots.hard.estimate_round`, hand-written weights).
This script plays seeded 2-player rounds with the playout policy (the medium
heuristics, as in every playout), some of them opened by ``random`` or
``easy`` moves for a few turns so that weak positions occur too; at the start
of every turn it records each seat's features (:func:`rummy500.bots.hard.leaf_features`)
and, when the round ends, the round's score. It then fits, by least squares,
the weights that best predict the difference of the two seats' round scores
from the difference of their features, and prints them with the fit of the
hand-written estimate and of the shipped weights (:data:`rummy500.bots.hard.LEAF_WEIGHTS`)
on rounds held out (seeds not used for the fit). With more than two players
the target is still seat 0's round score minus seat 1's.

Usage: ``python benchmarks/leaf_fit.py [--rounds 3000] [--holdout 1000] [--seed 1] [--preset standard] [--players 2]``
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable
from typing import TypeVar

from rummy500.bots import make_bot
from rummy500.bots.hard import LEAF_FEATURES, LEAF_WEIGHTS, _PlayoutPolicy, estimate_round, leaf_features
from rummy500.public import Phase
from rummy500.rules import Rules
from rummy500.state import RoundState

T = TypeVar("T")
Row = tuple[list[float], float, float]  # feature difference, target, hand-written estimate's difference


def play_rounds(rounds: int, seed: int, preset: str, players: int, record: Callable[[RoundState], T]) -> list[tuple[list[T], RoundState]]:
    """Play seeded rounds with the playout policy; ``record`` each turn's start. One (records, final state) per finished round.

    A third of the rounds are played by the policy throughout; the others
    are opened by ``random`` or ``easy`` moves for a few turns, so that weak
    positions occur too.
    """
    rules = Rules.preset_rules(preset, players=players)
    rng = random.Random(seed)
    policy = _PlayoutPolicy(seed)
    openers = [make_bot("random", seed), make_bot("easy", seed)]
    out: list[tuple[list[T], RoundState]] = []
    for r in range(rounds):
        state = RoundState.new(rules, r % players, rng)
        opener = openers[r % 2] if r % 3 else None
        opening = rng.randrange(2, 12)
        pending: list[T] = []
        last_turn = -1
        while not state.is_over:
            if state.public.phase is Phase.SHUFFLE:
                state.apply(state.chance_reshuffle(rng))
                continue
            if state.public.phase is Phase.DRAW and state.public.turns != last_turn:
                last_turn = state.public.turns
                pending.append(record(state))
            decision = state.decision()
            if decision is None:
                break
            seat = decision.seat
            assert seat is not None
            agent = opener if opener is not None and state.public.turns < opening else policy
            action = agent.act(state.view(seat), rng)
            if action is None:
                break
            state.apply(action, seat, check=False)
            if state.public.turns > 200:
                break
        if state.result is not None:
            out.append((pending, state))
    return out


def rows(rounds: int, seed: int, preset: str, players: int = 2) -> list[list[Row]]:
    """One list of rows per round: at each turn's start, seat 0 minus seat 1."""

    def record(state: RoundState) -> tuple[list[float], float]:
        f0, f1 = leaf_features(state, 0), leaf_features(state, 1)
        est = estimate_round(state)
        return [a - b for a, b in zip(f0, f1, strict=True)], est[0] - est[1]

    out: list[list[Row]] = []
    for pending, state in play_rounds(rounds, seed, preset, players, record):
        assert state.result is not None
        y = float(state.result.round_scores[0] - state.result.round_scores[1])
        out.append([(f, y, e) for f, e in pending])
    return out


def solve(xs: list[list[float]], ys: list[float], ridge: float) -> list[float]:
    """Least squares with a small ridge, by the normal equations (Gauss-Jordan)."""
    k = len(xs[0])
    a = [[0.0] * (k + 1) for _ in range(k)]
    for x, y in zip(xs, ys, strict=True):
        for i in range(k):
            xi = x[i]
            if xi == 0.0:
                continue
            row = a[i]
            for j in range(k):
                row[j] += xi * x[j]
            row[k] += xi * y
    for i in range(k):
        a[i][i] += ridge
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        piv = a[c][c]
        a[c] = [v / piv for v in a[c]]
        for r in range(k):
            if r != c and a[r][c] != 0.0:
                f = a[r][c]
                a[r] = [v - f * w for v, w in zip(a[r], a[c], strict=True)]
    return [a[i][k] for i in range(k)]


def r2(pred: list[float], ys: list[float]) -> tuple[float, float]:
    """(R squared, root mean square error)."""
    mean = statistics.fmean(ys)
    sse = sum((p - y) ** 2 for p, y in zip(pred, ys, strict=True))
    sst = sum((y - mean) ** 2 for y in ys)
    return 1.0 - sse / sst, (sse / len(ys)) ** 0.5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--holdout", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args(argv)
    train = [row for rnd in rows(args.rounds, args.seed, args.preset, args.players) for row in rnd]
    test = [row for rnd in rows(args.holdout, args.seed + 10_000, args.preset, args.players) for row in rnd]
    w = solve([x for x, _, _ in train], [y for _, y, _ in train], args.ridge)
    print(f"{args.preset}, {args.players} players: {len(train)} positions to fit, {len(test)} held out")
    print(f"    {'feature':<16}{'fitted':>9}{'shipped':>9}")
    for name, v, u in zip(LEAF_FEATURES, w, LEAF_WEIGHTS, strict=True):
        print(f"    {name:<16}{v:9.3f}{u:9.3f}")
    ys = [y for _, y, _ in test]
    fitted = [sum(a * b for a, b in zip(x, w, strict=True)) for x, _, _ in test]
    shipped = [sum(a * b for a, b in zip(x, LEAF_WEIGHTS, strict=True)) for x, _, _ in test]
    for label, pred in (("hand-written", [e for _, _, e in test]), ("shipped", shipped), ("fitted", fitted)):
        rsq, rmse = r2(pred, ys)
        print(f"{label:<14} R^2 {rsq:.3f}  rms error {rmse:.1f} points (held out)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
