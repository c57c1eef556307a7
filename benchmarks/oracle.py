"""A measuring stick, not a bot: how strong would a level be if it saw the opponents' hands?

Runs ``benchmarks/strength.py`` (same arguments, same output) with one change,
made in this process and its workers only: whenever the bot of the chosen
level (``--oracle expert`` by default) searches, every guess of the hidden
cards deals the opponents their real hands. The stock stays a fresh shuffle of
the cards really in it: nobody at the table knows its order. Everything else
is the level as it ships (its candidates, playouts, leaf and choice rule).

The bots in :mod:`rummy500.bots` never see a hidden card; this script breaks
that on purpose, to split what a searching bot lacks into two parts. If the
level seeing the hands beats its opponent by far more than the fair level
does, guessing the hidden cards better (inference from play) is worth
working on; if not, the search's judge is what limits it. The file written
by ``--out`` carries an ``"oracle"`` entry, from its first save on (a run
stopped early included), so that it cannot pass for a fair run:
``strength.py --resume`` refuses it, as ``oracle.py --resume`` refuses a fair
run's file (or another level's oracle run). Its games pair with a fair run's
of the same seed in ``benchmarks/compare_strength.py`` (the same deals).

Usage: ``python benchmarks/oracle.py [--oracle LEVEL] STRENGTH.PY ARGUMENTS``, e.g.
``python benchmarks/oracle.py --duplicate --pairs expert:hard --tables 2p --games 100 --seed 9101 --out o.json``
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import rummy500.bots.hard as hard_module
import rummy500.sim.runner as runner
from rummy500.actions import Action
from rummy500.bots import BOT_LEVELS
from rummy500.cards import Card
from rummy500.match import Match
from rummy500.state import RoundState
from rummy500.views import View

sys.path.insert(0, str(Path(__file__).resolve().parent))
import strength  # noqa: E402

#: The real position while the oracle's bot decides (None at every other time).
_truth: list[RoundState | None] = [None]
_fair_guess = hard_module.determinize


def oracle_guess(view: View, rng: random.Random, weights: Mapping[int, Mapping[Card, float]] | None = None) -> RoundState:
    """The real position with the stock shuffled, while the oracle decides; else the fair guess."""
    truth = _truth[0]
    if truth is None:
        return _fair_guess(view, rng, weights)
    world = truth.copy()
    rng.shuffle(world.stock)
    return world


class OracleAgent:
    """An agent that lets its bot's searches see ``match``'s real hands while it decides."""

    def __init__(self, agent: Any, match: Match) -> None:
        self.agent = agent
        self.match = match

    def act(self, view: View, rng: random.Random) -> Action | None:
        _truth[0] = self.match.state
        try:
            action: Action | None = self.agent.act(view, rng)
            return action
        finally:
            _truth[0] = None


def install(level: str) -> None:
    """Make every game this process plays from now on give ``level``'s searches the real hands."""
    fair_drive = runner.drive

    def drive(game: Any, agents: Sequence[Any], rng: random.Random, **kwargs: Any) -> int:
        seen = [OracleAgent(a, game) if getattr(getattr(a, "bot", None), "level", None) == level else a for a in agents]
        return fair_drive(game, seen, rng, **kwargs)

    runner.drive = drive
    hard_module.determinize = oracle_guess


def marker(level: str) -> str:
    """The ``"oracle"`` entry of the ``--out`` file: what the level saw, and that the run was not fair."""
    return f"{level} saw the opponents' hands (benchmarks/oracle.py): not a fair run"


def main(argv: list[str] | None = None) -> int:
    """Run ``strength.py`` with ``--oracle``'s level shown the hands; ``-h`` describes ``--oracle``, then strength's options."""
    # --oracle (and -h) are this script's own; every other argument goes to strength.py.
    own = argparse.ArgumentParser(
        prog="oracle.py",
        usage="oracle.py [-h] [--oracle LEVEL] STRENGTH.PY ARGUMENTS",
        description=__doc__.splitlines()[0],
        epilog="Every other argument is strength.py's (below). The --out file carries an \"oracle\" entry from its "
        "first save on: strength.py --resume refuses it, and oracle.py --resume refuses a fair run's file.",
        add_help=False,
        allow_abbrev=False,
    )
    own.add_argument("-h", "--help", action="store_true", help="show this help, then strength.py's, and exit")
    own.add_argument(
        "--oracle", default="expert", metavar="LEVEL",
        help=f"the level whose searches see the opponents' real hands (default expert; levels: {', '.join(BOT_LEVELS)})",
    )
    ours, args = own.parse_known_args(argv)
    if ours.help:
        own.print_help()
        print("\nstrength.py's arguments:\n")
        sys.stdout.flush()
        return strength.main(["--help"])  # (exits 0)
    level = ours.oracle
    if level not in BOT_LEVELS:
        print(f"oracle: unknown level {level!r} (levels: {', '.join(BOT_LEVELS)})", file=sys.stderr)
        return 2
    install(level)
    return strength.main(args, oracle=marker(level))


if __name__ == "__main__":
    raise SystemExit(main())
