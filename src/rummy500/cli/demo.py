"""``rummy500 demo``: a seeded bot-vs-bot round, printed move by move (through :func:`rummy500.drive.drive`).

Every hand is shown (there is nobody to hide it from), then each seat's moves,
then who went out and each seat's round score, in words. A bot level or
preset it does not know is refused in one line on standard error (exit
status 2), as ``play`` and ``simulate`` refuse them.
"""

from __future__ import annotations

import argparse
import random
import sys

from rummy500.actions import Action, Decline
from rummy500.cli.args import seed as seed_arg
from rummy500.cli.replay_cmd import printable
from rummy500.drive import Agent, drive
from rummy500.events import Event
from rummy500.match import Match
from rummy500.rules import Rules, RulesError
from rummy500.state import Decision

__all__ = ["main"]

PROG = "rummy500 demo"


def main(argv: list[str]) -> int:
    """Play one round between bots and print every move.

    Returns:
        The exit status: 0, or 2 for an unknown bot level, preset or number of players.
    """
    from rummy500.bots import BOT_LEVELS

    parser = argparse.ArgumentParser(
        prog=PROG, description="Watch bots play one round, move by move (every hand is shown)."
    )
    parser.add_argument("--preset", default="standard", help="the rules preset (default standard; 'rummy500 rules' lists them)")
    parser.add_argument(
        "--players", type=int, default=None, metavar="N",
        help="players at the table (default: the preset's, 4 for partnership and persian; else 2)",
    )
    parser.add_argument("--seed", type=seed_arg, default=1, metavar="S", help="seed of the deal and the bots (default 1)")
    parser.add_argument(
        "--bot", default="random", metavar="LEVEL",
        help=f"the bot level of every seat: {', '.join(BOT_LEVELS)} (default random)",
    )
    args = parser.parse_args(argv)
    level = args.bot.strip().lower()
    if level not in BOT_LEVELS:
        print(f"{PROG}: unknown bot level {printable(args.bot)} (levels: {', '.join(BOT_LEVELS)})", file=sys.stderr)
        return 2
    try:
        # Only a --players given is passed: a preset that fixes the table (partnership: 4) keeps its own.
        players = {} if args.players is None else {"players": args.players}
        rules = Rules.preset_rules(args.preset, **players)
    except RulesError as exc:
        print(f"{PROG}: {printable(exc)}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    match = Match(rules, seed=args.seed)
    bots = _bots(level, rules.players, args.seed)
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
    why = "the stock ran out: nobody went out" if result.went_out is None else f"seat {result.went_out} went out"
    scores = ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(result.round_scores))
    print(f"Round over: {why}. Round scores: {scores}.")
    return 0


def _bots(level: str, n: int, seed: int) -> list[Agent]:
    """A bot of ``level`` (one of :data:`rummy500.bots.BOT_LEVELS`) for each of ``n`` seats."""
    from rummy500.bots import make_bot

    return [make_bot(level, seed + i) for i in range(n)]
