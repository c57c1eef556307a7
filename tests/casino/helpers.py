"""Stacked shoes: rounds dealt from cards named in dealing order."""

from __future__ import annotations

import random

from rummy500.casino.cards import Shoe, parse_card
from rummy500.casino.game import Round
from rummy500.casino.rules import CasinoRules


def stacked(text: str, decks: int = 6) -> Shoe:
    """A shoe that deals the named cards first, in order (player, up-card, player, then draws).

    After them it deals a shuffled shoe (the one seed 0 gives at its second shuffle), so
    a round that needs more cards than are named plays on.
    """
    shoe = Shoe(decks, random.Random(0))
    shoe.shuffle()
    shoe.cards += [parse_card(t) for t in reversed(text.split())]
    shoe._cut = 0  # no reshuffle before these cards are dealt
    return shoe


def deal(text: str, bet: float = 10, **rules: object) -> Round:
    return Round(CasinoRules().with_options(**rules), stacked(text), bet)
