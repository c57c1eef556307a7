"""Costa Rican Rummy: the casino blackjack variant that shares the name (no link to the Rummy 500 engine).

The game (:mod:`~rummy500.casino.game`), its exact analysis
(:mod:`~rummy500.casino.exact`), basic strategy
(:mod:`~rummy500.casino.strategy`), a Monte Carlo simulator
(:mod:`~rummy500.casino.simulate`) and the ``rummy500 casino`` commands
(:mod:`~rummy500.casino.cli`). Standard library only, except the optional
colours of the terminal game. See ``docs/casino.md``.
"""

from rummy500.casino.cards import Card, Shoe, bonus_multiple, hand_total, parse_card
from rummy500.casino.game import GameError, Round
from rummy500.casino.rules import BENCHMARK, VARIANTS, CasinoRules, RulesError

__all__ = [
    "BENCHMARK",
    "Card",
    "CasinoRules",
    "GameError",
    "Round",
    "RulesError",
    "Shoe",
    "VARIANTS",
    "bonus_multiple",
    "hand_total",
    "parse_card",
]
