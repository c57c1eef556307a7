"""The ``easy`` level: the medium heuristics with a beginner's habits.

It plays like ``medium`` (meld what pays, dig when the dug card makes a
meld, keep cards that may still meld) but makes the mistakes a casual player
makes:

* it only looks a few cards deep into the discard pile (at most three);
* it does not watch what the opponents take or throw away, so it happily
  discards the card an opponent is collecting;
* now and then it overlooks a lay-off (it lays off only some of the time,
  though it never misses a meld of its own);
* now and then it discards on impulse: its highest card that is not part of
  a meld, without weighing what it might still become;
* it calls Rummy only when the claim is obviously good (a call that lets it
  go out at once always is);
* (``rummy_after_going_out``) it goes out without looking at the pile, so
  it may leave a Rummy there and take cards back;
* (``masters_hand``) it lays what scores without looking for a Master's
  Hand, so it may go out by a meld with a run of seven down.

Once the stock is spent and play goes on (``stock_out`` reshuffle or
play_on) the pile is all there is: it looks through all of it, and it makes
no impulse discards, which broke the pair that was its only way out and kept
such rounds going to the safety stop.
"""

from __future__ import annotations

import random

from rummy500.actions import Action, Discard, LayOff
from rummy500.bots.heuristics import Analysis
from rummy500.bots.medium import MediumBot
from rummy500.views import View

__all__ = ["EasyBot"]


class EasyBot(MediumBot):
    """Medium heuristics with shallow digs, blind spots and impulsive discards."""

    level = "easy"
    call_threshold = 12.0
    track_opponents = False
    max_dig = 3
    rummy_wary = False
    #: Chance of overlooking the lay-offs available this decision.
    miss_layoff = 0.4
    #: Chance of an impulsive discard.
    impulse = 0.3

    def play(self, view: View, an: Analysis, legal: list[Action], rng: random.Random) -> Action:
        if rng.random() < self.miss_layoff:
            kept: list[Action] = [a for a in legal if not isinstance(a, LayOff)]
            if any(isinstance(a, Discard) for a in kept):
                legal = kept
        lay, v = an.best_lay(legal)
        if lay is not None and v > 0:
            self.last_reason = f"{lay} scores"
            return lay
        discards = [a for a in legal if isinstance(a, Discard)]
        # (No impulse once the stock is spent and play goes on: the pair it would break may be the way out.)
        if discards and not an.recycling and rng.random() < self.impulse:
            loose = an.loose_discards(discards, jokers=True)
            pick = max(loose, key=lambda d: sum(an.value(c) for c in d.cards))
            self.last_reason = f"{pick}: get rid of a high card"
            return pick
        return super().play(view, an, legal, rng)
