"""What looking at the pile before going out is worth (``rummy_after_going_out``).

Under ``rummy_after_going_out`` a going-out throw that leaves a playable card
in the pile fails: the cards above that card come back. The bots look first
(:meth:`rummy500.bots.heuristics.Analysis.rummy_safe_play`). This script plays
duplicate rounds, a bot of ``--level`` that looks against the same level that
does not (``rummy_wary`` off), each deal twice with the seats swapped, and
prints the round-score margin of the wary seat (mean per deal, with its 95%
interval over deals) and how often each side left a Rummy.

Usage: ``python benchmarks/rummy_wary.py [--deals 2000] [--first 0] [--level medium] [--options '{"going_out": "floating"}']``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from dataclasses import dataclass

from rummy500.actions import Action
from rummy500.bots import make_bot
from rummy500.drive import drive
from rummy500.events import Event, LeftRummy
from rummy500.rules import Rules
from rummy500.state import Decision, RoundState

__all__ = ["Outcome", "measure"]


@dataclass
class Outcome:
    """Per deal, the wary seat's round score less the other's (averaged over both seatings); Rummies left by each side."""

    margins: list[float]
    left_wary: int = 0
    left_plain: int = 0

    def summary(self) -> tuple[float, float]:
        """The mean margin and its 95% half-interval over deals."""
        m = statistics.fmean(self.margins)
        spread = statistics.stdev(self.margins) if len(self.margins) > 1 else 0.0
        return m, 1.96 * spread / len(self.margins) ** 0.5


def _bot(level: str, seed: int, wary: bool) -> object:
    bot = make_bot(level, seed=seed)
    guide = getattr(bot, "guide", bot)  # hard and expert keep their medium rules in their guide
    guide.rummy_wary = wary
    return bot


def measure(deals: int, first: int = 0, level: str = "medium", options: dict[str, object] | None = None) -> Outcome:
    """Play ``deals`` deals (seeds ``first`` ...) twice each, the wary bot in seat 0 then seat 1."""
    rules = Rules.from_mapping({"calling_rummy": "pile", "rummy_after_going_out": True, **(options or {})})
    out = Outcome([])
    for deal in range(first, first + deals):
        total = 0.0
        for wary in (0, 1):
            state = RoundState.new(rules, deal % 2, random.Random(deal))
            bots = [_bot(level, deal * 7 + s, s == wary) for s in range(2)]

            def count(_: Decision, __: Action, events: list[Event], wary: int = wary) -> None:
                for e in events:
                    if isinstance(e, LeftRummy):
                        if e.seat == wary:
                            out.left_wary += 1
                        else:
                            out.left_plain += 1

            drive(state, bots, random.Random(deal + 99), observe=count)  # type: ignore[arg-type]
            scores = state.round_scores()
            total += scores[wary] - scores[1 - wary]
        out.margins.append(total / 2)
    return out


def main() -> None:
    """Print the wary seat's margin per round."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--first", type=int, default=0, help="the first deal's seed")
    ap.add_argument("--level", default="medium")
    ap.add_argument("--options", default="{}", help="more rule options, as JSON")
    args = ap.parse_args()
    if args.deals < 2:
        ap.error("--deals must be at least 2")
    options = json.loads(args.options)
    got = measure(args.deals, args.first, args.level, options)
    mean, half = got.summary()
    print(f"{args.level}, calling_rummy: pile, rummy_after_going_out{', ' + args.options if options else ''}")
    print(f"deals {args.first}-{args.first + args.deals - 1}, each from both seats ({2 * args.deals} rounds)")
    print(f"wary less plain, per round: {mean:+.2f} ± {half:.2f} (95%)")
    print(f"Rummies left: wary {got.left_wary}, plain {got.left_plain}")


if __name__ == "__main__":
    main()
