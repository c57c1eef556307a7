"""The noise of a paired playout comparison, with and without stock streams (``sync_stock``).

``hard``'s search and ``rummy500 review`` compare two moves by playing both out
in the same guesses of the hidden cards and averaging the difference; the
spread of that difference over guesses sets how many guesses a comparison
needs (the standard error is the spread over the square root of the guesses).
This script plays seeded rounds of ``medium`` bots; at every decision of seat
0 that ``hard`` would search (its candidates, a hand of more than two cards)
it plays each candidate out in the same ``--guesses`` guesses twice, without
and with stock streams (:func:`rummy500.bots.hard.stock_streams`), and
prints, over the pairs (the heuristic favourite against each other
candidate), the spread of the paired difference both ways: the median, the
root mean square (what the average variance makes of it) and the median of
the ratio, pair by pair.

Usage: ``python benchmarks/playout_spread.py [--rounds 12] [--guesses 24] [--horizon 4|end] [--preset standard] [--players 2] [--leaf heuristic|fitted]``
"""

from __future__ import annotations

import argparse
import random
import statistics

from rummy500.actions import Action
from rummy500.bots import make_bot
from rummy500.bots.determinize import determinize
from rummy500.bots.hard import HardBot, stock_streams
from rummy500.public import Phase
from rummy500.rules import Rules
from rummy500.state import RoundState
from rummy500.views import View


def spreads(
    preset: str, players: int, rounds: int, guesses: int, horizon: int | None, seed: int, leaf: str = "heuristic"
) -> list[tuple[float, float]]:
    """(spread without streams, spread with) of every candidate pair met."""
    rules = Rules.preset_rules(preset, players=players)
    hard = HardBot(1, horizon=horizon, leaf=leaf)
    movers = [make_bot("medium", seed + 1 + s) for s in range(players)]
    rng = random.Random(seed)
    out: list[tuple[float, float]] = []
    for r in range(rounds):
        state = RoundState.new(rules, r % players, rng)
        while not state.is_over:
            if state.public.phase is Phase.SHUFFLE:
                state.apply(state.chance_reshuffle(rng))
                continue
            decision = state.decision()
            assert decision is not None and decision.seat is not None
            seat = decision.seat
            view = state.view(seat)
            if seat == 0 and view.seat == view.to_move and len(view.hand) > 2 and len(view.legal) > 1:
                cands = hard._candidates(view, hard.guide.analysis(view), list(view.legal))
                if len(cands) > 1:
                    out.extend(_pairs(hard, view, cands, guesses, random.Random(r * 1000 + state.public.turns)))
            action = movers[seat].act(view, rng)
            assert action is not None
            state.apply(action, seat, check=False)
    return out


def _pairs(hard: HardBot, view: View, cands: list[Action], guesses: int, rng: random.Random) -> list[tuple[float, float]]:
    """Both spreads of the favourite (``cands[0]``) against each other candidate, over the same guesses."""
    vals: dict[bool, dict[Action, list[float]]] = {sync: {a: [] for a in cands} for sync in (False, True)}
    for _ in range(guesses):
        world = determinize(view, rng)
        seed = rng.getrandbits(64)
        streams = stock_streams(world)
        for a in cands:
            vals[False][a].append(hard.playout(world.copy(), 0, a, random.Random(seed)))
            vals[True][a].append(hard.playout(world.copy(), 0, a, random.Random(seed), streams))
    out = []
    for b in cands[1:]:
        sd = [statistics.stdev([x - y for x, y in zip(vals[sync][b], vals[sync][cands[0]], strict=True)]) for sync in (False, True)]
        out.append((sd[0], sd[1]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--guesses", type=int, default=24)
    parser.add_argument("--horizon", default="4", help="turns played out after the move, or 'end'")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--leaf", default="heuristic", help="how a playout is valued at the horizon (heuristic, fitted)")
    args = parser.parse_args(argv)
    horizon = None if args.horizon == "end" else int(args.horizon)
    got = spreads(args.preset, args.players, args.rounds, args.guesses, horizon, args.seed, args.leaf)
    if not got:
        print("no searched decision met")
        return 1
    off = [a for a, _ in got]
    on = [b for _, b in got]
    ratios = [b / a for a, b in got if a > 0]
    rms = [statistics.fmean(x * x for x in xs) ** 0.5 for xs in (off, on)]
    q = statistics.quantiles(ratios, n=4)
    print(f"{args.preset}, {args.players} players, horizon {args.horizon}: {len(got)} candidate pairs, {args.guesses} guesses each")
    print(f"{'':<22}{'without streams':>16}{'with streams':>14}")
    print(f"{'median spread':<22}{statistics.median(off):>16.1f}{statistics.median(on):>14.1f}")
    print(f"{'root mean square':<22}{rms[0]:>16.1f}{rms[1]:>14.1f}")
    print(f"variance, with / without (from the root mean squares): {(rms[1] / rms[0]) ** 2:.2f}")
    print(f"ratio of spreads, pair by pair: median {statistics.median(ratios):.2f} (quartiles {q[0]:.2f}, {q[2]:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
