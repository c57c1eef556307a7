"""The ``random`` level: a uniform choice among the legal actions.

On its turn it picks any element of ``view.legal`` with equal probability.
Out of turn (a Rummy call, a meld under ``meld_out_of_turn``) it makes a
call with probability :attr:`RandomBot.call_chance`, again uniformly among
the calls it may make, and otherwise lets the chance pass. It is the floor
every other level is measured against.
"""

from __future__ import annotations

import random

from rummy500.actions import Action, Decline
from rummy500.bots.base import Bot
from rummy500.views import View

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Uniform over ``view.legal``; calls out of turn with probability ``call_chance``."""

    level = "random"
    call_chance = 0.25

    def choose(self, view: View, rng: random.Random) -> Action:
        self.last_reason = "a random legal move"
        return rng.choice(view.legal)

    def out_of_turn(self, view: View, rng: random.Random) -> Action | None:
        calls = [a for a in view.legal if not isinstance(a, Decline)]
        if calls and rng.random() < self.call_chance:
            self.last_reason = "a random call"
            return rng.choice(calls)
        self.last_reason = "no call, at random"
        return None
