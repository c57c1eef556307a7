"""The ``medium`` level: a careful heuristic player.

Strategy, turn by turn:

* **Draw.** Every legal way to draw is valued. The stock is worth a small
  constant. Taking cards from the pile is worth the points the bot could lay
  down this turn with the taken cards (the best meld plan of the new hand,
  which must use the deepest card when the rules say so, against the plan
  of the hand as it is), plus half the holding value of the taken cards it
  cannot lay yet, minus a charge for each extra card (one more card between
  it and going out). It digs into the pile when the dug card completes a
  good meld and the haul pays.
* **Meld and lay off.** While any meld or lay-off keeps the most points
  layable (an exact search over which melds use which cards), it plays it:
  points on the table count, points in hand are lost. Going out falls out
  of this: when the plan uses every card but one, the last card is the
  discard.
* **Discard.** Each card's holding value is the number of live cards that
  would meld it (stock and hidden hands, from everything seen) weighed by
  its value, less its value times the risk of being caught when someone
  goes out (rising as the stock shrinks and as an opponent's hand gets
  short). Its danger is what it gives the opponents: a card that lays off on
  the table, or melds with cards an opponent was seen taking from the pile
  (``view.known``), is held back; a rank an opponent let go is safer. The
  discard losing least is thrown.
* **Master's Hand** (``masters_hand``). When the hand can lay a run of
  seven or more and every other card but one and go out by throwing that
  one this turn, and the round's 500 beat what its melds would score, it
  plays that line: the run first, then the rest, then the discard.
* **Stock spent, play going on** (``stock_out`` reshuffle or play_on). No
  fresh card comes: it keeps the cards that the cards going round would meld
  (a pair whose third card is in play) whatever their value, weighs a
  quarter of a discard's danger, and when it comes to discard from a hand it
  already held since the stock ran out, it throws a card at random, so that
  a table where every seat keeps what the others need moves on.
* **Out of turn.** It calls Rummy when the claimed cards are worth as much
  as a good draw, or when the call lets it go out at once (worth what the
  opponents are caught with), steals whenever a steal scores, and melds out
  of turn what its plan would meld anyway. About to draw, it weighs a Rummy call with its
  draws, and steals first whenever a steal scores.
* **Dealer's Gambit.** As dealer it nominates ``wild`` (its own joker is
  then a free wild card); it blocks the dealer's joker when its own joker is
  not wild this hand. Under ``double`` its plans place a joker (its own, or
  the dealer's while it is free) on a set as it is melded, doubling it.
* **Persian jokers** (not wild, melded in sets of jokers). A joker thrown
  is its value for whoever melds it: its danger is that value times the
  chance of not being caught with it, so it is kept until an opponent is
  close to going out.
"""

from __future__ import annotations

import random
from collections import Counter

from rummy500.actions import Action, Block, CallRummy, Discard, Float, LayOff, Meld, Nominate, Swap
from rummy500.bots.base import Bot
from rummy500.bots.heuristics import GOING_OUT_LAY, Analysis, recycling
from rummy500.cards import Card
from rummy500.views import View

__all__ = ["MediumBot"]


class MediumBot(Bot):
    """Heuristic play: meld what pays, dig when it pays, discard what helps opponents least."""

    level = "medium"
    #: A Rummy call must be worth at least this much (in points) to be made.
    call_threshold = 4.0
    track_opponents = True
    max_dig: int | None = None
    #: (``rummy_after_going_out``) Hold a card back rather than go out into a Rummy when that costs less.
    rummy_wary = True

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.last_reason = ""
        self._seen_discards: dict[int, list[Card]] = {}
        self._dealer: int | None = None
        self._last_stock = 0
        self._last_pile: tuple[Card, ...] = ()
        #: (The stock spent, play going on) how often each hand was held at a discard this round.
        self._recycled_hands: Counter[tuple[Card, ...]] = Counter()

    # ------------------------------------------------------------ memory
    def _new_round(self, view: View) -> bool:
        """Whether ``view`` is of a round after the one last observed: another dealer, or the stock grew back over an empty table."""
        return self._dealer is None or view.dealer != self._dealer or (not view.melds and view.stock_count > self._last_stock)

    def _observe(self, view: View) -> None:
        """Remember which cards each seat was seen discarding this round."""
        if self._new_round(view):
            self._seen_discards = {}
            self._recycled_hands = Counter()
        self._dealer = view.dealer
        self._last_stock = view.stock_count
        if view.last_discarder is not None and view.discard and view.last_discarder != view.seat:
            top = view.discard[-1]
            lst = self._seen_discards.setdefault(view.last_discarder, [])
            if not lst or lst[-1] != top or self._last_pile != view.discard:
                lst.append(top)
        self._last_pile = view.discard
        if view.phase == "play" and view.to_move == view.seat and recycling(view):
            self._recycled_hands[view.hand] += 1

    def analysis(self, view: View) -> Analysis:
        """The heuristic analysis of ``view`` this level uses."""
        return Analysis(view, track_opponents=self.track_opponents, discards=self._seen_discards)

    # ------------------------------------------------------------ in turn
    def choose(self, view: View, rng: random.Random) -> Action:
        self._observe(view)
        legal = list(view.legal)
        a = self.special(view, legal, rng)
        if a is not None:
            return a
        an = self.analysis(view)
        if view.phase == "draw":
            # With the stock spent the pile is all there is to draw from: every level looks through all of it.
            act, v = an.best_draw(legal, max_depth=None if an.recycling else self.max_dig)
            self.last_reason = f"{act} is worth about {v:.0f} points"
            return act
        return self.play(view, an, legal, rng)

    def special(self, view: View, legal: list[Action], rng: random.Random) -> Action | None:
        """Variant actions decided by a fixed rule (nominate, block, swap, float)."""
        if _SPECIAL.isdisjoint(map(type, legal)):
            return None  # the common case: one pass over the list instead of one per rule
        for a in legal:
            if isinstance(a, Nominate) and a.mode == "wild":
                self.last_reason = "a wild joker is a free card for the dealer"
                return a
        if any(isinstance(a, Nominate) for a in legal):
            return next(a for a in legal if isinstance(a, Nominate))
        if any(isinstance(a, Float) for a in legal):
            return next(a for a in legal if isinstance(a, Float))
        steals = [a for a in legal if isinstance(a, CallRummy) and (a.on is not None or a.meld is not None)]
        if steals:
            # calling_rummy: steal, before this bot's own draw: a steal costs nothing, the turn goes on.
            an = self.analysis(view)
            best = max(steals, key=lambda a: _steal_points(an, view, a))
            if _steal_points(an, view, best) > 0:
                self.last_reason = "a stolen card scores for me, and I still draw"
                return best
        wild = view.jokers_wild
        for a in legal:
            if isinstance(a, Block) and not wild:
                self.last_reason = "my joker is not wild this hand: block the dealer's"
                return a
        for a in legal:
            # Never swap away the card taken from the pile that must still be used.
            if isinstance(a, Swap) and a.card != view.obligation:
                self.last_reason = "a joker is worth more than the card it stands for"
                return a
        return None

    def play(self, view: View, an: Analysis, legal: list[Action], rng: random.Random) -> Action:
        """The play phase: a Master's Hand when it pays, else lay what keeps the most points layable, else discard."""
        masters = self.masters(an, legal)
        if masters is not None:
            return masters[0]
        if self.rummy_wary:
            safe = an.rummy_safe_play(legal)
            if safe is not None:
                self.last_reason = f"{safe}: going out now would leave a Rummy in the pile"
                return safe
        lay, v = an.best_lay(legal)
        if lay is not None and v > 0:
            self.last_reason = f"{lay} keeps {v:.0f} points layable" if v != GOING_OUT_LAY else f"{lay}: it goes out"
            return lay
        d = self.unstick(view, an, legal, rng)
        if d is not None:
            self.last_reason = f"{d}: I held this hand before with nothing new coming; something else this time"
            return d
        d = an.best_discard(legal)
        if d is not None:
            self.last_reason = f"{d}: the card I miss least and that helps opponents least"
            return d
        if lay is not None:
            return lay
        others = [a for a in legal if not isinstance(a, Block)]
        return (others or legal)[0]

    def masters(self, an: Analysis, legal: list[Action], lay_worth: float | None = None) -> tuple[Action, float] | None:
        """(``masters_hand``) The next play of a Master's Hand and its worth, when that beats the best lay; else None.

        :meth:`~rummy500.bots.heuristics.Analysis.masters_play`'s line is
        chosen when its worth is above the best meld or lay-off's worth (and
        above nothing): ``lay_worth``, or :meth:`~rummy500.bots.heuristics.Analysis.best_lay`'s,
        asked after the line (the order the plan searches ran in: they share one node budget).
        The reason is set when it is chosen.
        """
        masters = an.masters_play(legal)
        if masters is None:
            return None
        act, worth = masters
        if lay_worth is None:
            lay_worth = an.best_lay(legal)[1]
        if worth <= max(lay_worth, 0.0):
            return None
        self.last_reason = f"{act}: a run of seven or more laid and out by a discard this turn is a Master's Hand"
        return masters

    def unstick(self, view: View, an: Analysis, legal: list[Action], rng: random.Random) -> Discard | None:
        """(The stock spent, play going on) a discard drawn at random when this hand was held here before, else None.

        With no fresh card coming, a table where every seat keeps what the
        others need and throws back what it drew never changes again: the same
        hands come round and the round runs to the safety stop. A seat that
        finds itself discarding from a hand it already held this round (since
        the stock ran out) throws a card at random instead of its usual one
        (never a card of a meld it can lay now, nor a wild joker, while
        another card may go), so the cards move on and somebody can meld out.
        """
        if not an.recycling or self._recycled_hands[view.hand] < 2:
            return None  # (the hands are counted as they are observed: a bot without memory never counts one)
        discards = [a for a in legal if isinstance(a, Discard)]
        if len(discards) < 2:
            return None
        return rng.choice(an.loose_discards(discards, jokers=an.wild))

    # ------------------------------------------------------------ out of turn
    def out_of_turn(self, view: View, rng: random.Random) -> Action | None:
        legal = list(view.legal)
        calls = [a for a in legal if isinstance(a, CallRummy)]
        an: Analysis | None = None
        if calls:
            an = found = self.analysis(view)
            if view.calls_steal:
                best = max(calls, key=lambda a: _steal_points(found, view, a))
                self.last_reason = "a stolen card scores for me"
                return best
            outs = [a for a in calls if a.on is None and a.meld is None and an.goes_out_with(a.depth)]
            if outs:
                # Going out ends the round: the opponents are caught with their hands, which is
                # worth far more than the few points of a low card claimed.
                act, v = an.best_draw(outs)
                v += an.catch_worth()
                if v > 0:
                    self.last_reason = f"Rummy! the pile lets me go out, worth about {v:.0f} points"
                    return act
            act, v = an.best_draw(calls)
            if v >= self.call_threshold:
                self.last_reason = f"Rummy! the pile is worth about {v:.0f} points"
                return act
        lays = [a for a in legal if isinstance(a, (Meld, LayOff))]
        if lays:
            an = an or self.analysis(view)
            lay, v = an.best_lay(lays)
            if lay is not None and v > 0 and v >= an.base()[0] - 1e-9:
                self.last_reason = "laying out of turn what I would lay anyway"
                return lay
        self.last_reason = "no call worth making"
        return None


#: The action types :meth:`MediumBot.special` decides.
_SPECIAL: frozenset[type] = frozenset({Nominate, Float, CallRummy, Block, Swap})


def _steal_points(an: Analysis, view: View, call: CallRummy) -> int:
    """What a steal scores: the card laid off, or the meld made from the pile."""
    if call.on is not None:
        return an.planner.points((view.discard[-call.depth],), call.on) or 0
    if call.meld is not None:
        return an.planner.points(call.meld, None) or 0
    return 0
