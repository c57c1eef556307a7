"""How many of the opponent's hidden cards a searching bot's guesses get right, by guessing model.

``hard`` and ``expert`` search over guesses of the cards they cannot see
(determinizations). ``benchmarks/oracle.py`` measures what guessing the
opponent's hand *exactly* is worth in games; this script measures how close
each of ``hard``'s guessing models comes to it. Seat 0 (``hard`` with a few
playouts, whose memory of the round feeds the models) plays seeded 2-player
standard rounds against ``--opponent`` (default ``hard``, the opponent of the
``expert`` against ``hard`` runs). At each of seat 0's decisions in its turn
where the opponent holds cards seat 0 has not seen, every model deals
``--samples`` guesses, and the script counts the share of the opponent's
hidden cards each guess puts in its hand (the multiset overlap). The models:

* ``uniform``: the hidden cards dealt at random (``hard``'s default);
* ``inference``: weighted by what the opponent threw and let lie
  (``HardBot(inference=True)``, :func:`rummy500.bots.hard.infer_weights`);
* ``consistent``: no meld the opponent would have laid
  (``HardBot(consistent=True)``, :func:`rummy500.bots.hard.conform`);
* ``discard_model``: one deal of 8, drawn by how likely the opponent's last
  throw was from it (``HardBot(discard_model=8)``);
* ``structure``: the uniform deal, then swaps with the stock that make the
  hand as connected as real hands are (``HardBot(structure=1.0)``,
  :func:`rummy500.bots.hard.structure`).

Printed: each model's mean share over the decisions, and its paired
difference from ``uniform`` with a 95% interval over decisions (the same
positions; an exact guess scores 100%); and how connected the guessed hands
are: the share of their cards with a partner in the hand
(:func:`rummy500.bots.hard.linked`: a card of the same rank or of the same
suit within two ranks), against the real hands'.

Usage: ``python benchmarks/guesses.py [--rounds 20] [--seed 1] [--samples 40] [--opponent hard]``
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

from rummy500.bots import BOT_LEVELS, make_bot
from rummy500.bots.hard import HardBot, linked
from rummy500.rules import Rules
from rummy500.state import Phase, RoundState
from rummy500.views import View

#: ``discard_model``: a guess is drawn from this many deals.
DEALS = 8

#: Each model as the ``HardBot`` settings that turn it on.
SETTINGS: dict[str, dict[str, Any]] = {
    "uniform": {},
    "inference": {"inference": True},
    "consistent": {"consistent": True},
    "discard_model": {"discard_model": DEALS},
    "structure": {"structure": 1.0},
}

#: The guessing models, in the order printed.
MODELS = tuple(SETTINGS)


def guesser(bot: HardBot, model: str, view: View) -> Callable[[random.Random], RoundState]:
    """``bot``'s guesser of ``view`` (:meth:`HardBot.guesser`, with its memory) under ``model``'s settings."""
    variant = copy.copy(bot)  # the same memory of the round, other settings
    for name, value in SETTINGS[model].items():
        setattr(variant, name, value)
    return variant.guesser(view)


def hit_share(guess: list[Any], truth: list[Any], known: tuple[Any, ...]) -> float | None:
    """The share of ``truth``'s hidden cards (less ``known``) that ``guess`` holds (None: none hidden).

    >>> hit_share([1, 2, 9, 9], [1, 2, 3, 4], (1,))
    0.3333333333333333
    >>> hit_share([1], [1], (1,)) is None
    True
    """
    hidden = Counter(truth) - Counter(known)
    n = sum(hidden.values())
    if n == 0:
        return None
    guessed = Counter(guess) - Counter(known)
    return sum((hidden & guessed).values()) / n


def measure(rounds: int, seed: int, samples: int, opponent: str = "hard", options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play the rounds; per model, the hit share of each decision (averaged over its samples)."""
    rules = Rules.preset_rules("standard", players=2)
    me = HardBot(seed, iterations=8)
    other = make_bot(opponent, seed + 1, **(options or {}))
    rng = random.Random(seed)
    shares: dict[str, list[float]] = {m: [] for m in MODELS}
    links: dict[str, list[float]] = {m: [] for m in ("real", *MODELS)}
    for r in range(rounds):
        state = RoundState.new(rules, r % 2, rng)
        while not state.is_over:
            pub = state.public
            if pub.phase is Phase.SHUFFLE:
                state.apply(state.chance_reshuffle(rng))
                continue
            seat = pub.to_move
            view = state.view(seat)
            if seat == 0:
                action = me.act(view, rng)  # (its memory now includes this view, as in its own search)
                truth = state.hands[1]
                if len(truth) > len(view.known[1]):  # some of the opponent's cards are hidden
                    links["real"].append(linked(truth) / len(truth))
                    for model in MODELS:
                        guess = guesser(me, model, view)
                        local = random.Random(rng.getrandbits(64))
                        hands = [guess(local).hands[1] for _ in range(samples)]
                        got = [hit_share(hand, truth, view.known[1]) for hand in hands]
                        shares[model].append(statistics.fmean(x for x in got if x is not None))
                        links[model].append(statistics.fmean(linked(hand) / len(hand) for hand in hands))
            else:
                action = other.act(view, rng)
            assert action is not None
            state.apply(action, seat)
    return {"decisions": len(shares["uniform"]), "shares": shares, "linked": links}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=40, help="guesses per model and decision")
    parser.add_argument("--opponent", default="hard", help="the opponent's level (default hard)")
    args = parser.parse_args(argv)
    if args.opponent not in BOT_LEVELS:
        print(f"guesses: unknown level {args.opponent!r} (levels: {', '.join(BOT_LEVELS)})", file=sys.stderr)
        return 2
    got = measure(args.rounds, args.seed, args.samples, args.opponent)
    shares = got["shares"]
    print(f"{args.rounds} rounds against {args.opponent}, seed {args.seed}: {got['decisions']} decisions, {args.samples} guesses each")
    links = got["linked"]
    share = statistics.fmean(links["real"]) if links["real"] else 0.0
    print(f"  {'model':<15}{'hidden cards right':>20}{'less uniform (95%)':>24}{'cards linked':>14}")
    print(f"  {'(real hands)':<15}{'':>20}{'':>24}{share:>14.1%}")
    base = shares["uniform"]
    for model in MODELS:
        xs = shares[model]
        diffs = [a - b for a, b in zip(xs, base, strict=True)]
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        mean = statistics.fmean(xs) if xs else 0.0
        delta = f"{statistics.fmean(diffs):+.1%} ± {half:.1%}" if diffs and model != "uniform" else ""
        joined = statistics.fmean(links[model]) if links[model] else 0.0
        print(f"  {model:<15}{mean:>20.1%}{delta:>24}{joined:>14.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
