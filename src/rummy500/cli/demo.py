"""``rummy500 demo``: a seeded bot-vs-bot round, printed move by move (through :func:`rummy500.drive.drive`)."""

from __future__ import annotations

import argparse
import random

from rummy500.actions import Action, Decline
from rummy500.drive import Agent, PolicyAgent, drive
from rummy500.events import Event
from rummy500.match import Match
from rummy500.rules import Rules, RulesError
from rummy500.state import Decision

__all__ = ["main"]


def main(argv: list[str]) -> int:
    """Play one round between bots and print every move."""
    parser = argparse.ArgumentParser(prog="rummy500 demo", description="Watch bots play one round.")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="random", help="bot level for every seat")
    args = parser.parse_args(argv)
    try:
        rules = Rules.preset_rules(args.preset, players=args.players)
    except RulesError as exc:
        parser.error(str(exc))
    rng = random.Random(args.seed)
    match = Match(rules, seed=args.seed)
    bots = _bots(args.bot, rules.players, args.seed)
    state = match.state
    assert state is not None
    print(f"Dealer: seat {state.public.dealer}. Upcard: {' '.join(map(str, state.public.discard)) or '-'}")
    for seat in range(rules.players):
        print(f"  seat {seat}: {' '.join(map(str, sorted(state.hands[seat])))}")

    def show(decision: Decision, action: Action, events: list[Event]) -> None:
        if isinstance(action, Decline):
            return
        print(f"seat {decision.seat}: {action}" if decision.seat is not None else str(action))

    drive(state, bots, rng, observe=show)
    result = state.result
    assert result is not None
    print(f"Round over. Went out: {result.went_out}. Scores: {result.round_scores}")
    return 0


def _bots(level: str, n: int, seed: int) -> list[Agent]:
    try:
        from rummy500.bots import make_bot

        return [make_bot(level, seed + i) for i in range(n)]
    except (ImportError, KeyError):
        return [PolicyAgent(lambda view, rng: rng.choice(view.legal))] * n
