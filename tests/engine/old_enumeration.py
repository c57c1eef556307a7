"""The legal-action enumeration of ``RoundState`` as it was before the fast one: the test oracle.

:class:`OldRound` is a ``RoundState`` whose enumeration methods are the
previous bodies, verbatim, on top of the previous meld enumeration
(``old_melds``), with the rule changes made since (a joker swap before using
a card taken from the pile; first_meld_min's lay-off after opening; under
Dealer's Gambit ``double``, a joker taken from the pile put on a set as it is melded). ``test_fast_enumeration.py`` checks that every position of
seeded playouts lists exactly the same actions, in the same order, both ways.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from rummy500.actions import Action, Discard, Draw, Float, LayOff, Meld, Pass, Take
from rummy500.cards import JOKER, Card
from rummy500.melds import RUN, SET, MeldError, TableMeld
from rummy500.rules import CallingRummy, DiscardCount, DiscardDraw, MustUseTaken, SetSuits, StockOut, TakenCardUse
from rummy500.scoring import new_meld_points
from rummy500.state import _DISCARDS, _TAKES, RoundState, _bare, _remove

from .old_melds import find_layoffs, find_melds


class OldRound(RoundState):
    """A round whose legal actions come from the previous enumeration."""

    __slots__ = ()

    @classmethod
    def of(cls, state: RoundState) -> OldRound:
        """A copy of ``state`` that enumerates the old way."""
        c = state.copy()
        c.__class__ = cls
        return c

    def copy(self) -> OldRound:
        c = super().copy()
        c.__class__ = OldRound
        return c

    def _draw_actions(self, seat: int) -> list[Action]:
        rules = self.rules
        acts: list[Action] = []
        if self.stock:
            acts.append(Draw())
        depth = len(self.public.discard) if rules.discard_draw is DiscardDraw.ANY_DEPTH else min(1, len(self.public.discard))
        quick = (
            not rules.around_the_corner
            and rules.set_suits is SetSuits.DISTINCT
            and self._extra_jokers(seat) == 0
            and JOKER not in self.hands[seat]
            and not self._jokers_to_swap()
        )
        have = set(self.hands[seat])
        pile = self.public.discard
        always = rules.must_use_taken is MustUseTaken.ALWAYS
        for k in range(1, depth + 1):
            c = pile[-k]
            have.add(c)
            if quick and (k > 1 or always) and not self._might_use(c, have):
                continue  # a cheap necessary condition already fails
            if self._take_ok(seat, k, split=False):
                acts.append(_TAKES[k] if k < len(_TAKES) else Take(k))
        if self.public.gambit == "split" and self._joker_for(seat):
            for k in range(2, len(self.public.discard) + 1):
                if rules.discard_draw is DiscardDraw.ANY_DEPTH and self._take_ok(seat, k, split=True):
                    acts.append(Take(k, split=True))
        if not self.stock:
            takes = any(isinstance(a, Take) for a in acts)
            if rules.stock_out is not StockOut.PLAY_ON or not takes:
                acts.append(Pass())
        acts.extend(self._call_actions(seat))  # the player about to draw may call Rummy too
        acts.extend(self._block_actions(seat))
        return acts

    def _might_use(self, c: Card, have: set[Card]) -> bool:
        """Necessary condition (no jokers held) for ``c`` to be melded or laid off from ``have``."""
        if c == JOKER or JOKER in have:
            return True
        r, base = c & 15, c & 48
        if sum(1 for su in (0, 16, 32, 48) if su + r in have) >= 3:
            return True
        for p in (1, 14) if r == 1 else (r,):
            lo1 = p > 1 and base + (p - 2) % 13 + 1 in have
            hi1 = p < 14 and base + p % 13 + 1 in have
            if lo1 and (hi1 or (p > 2 and base + (p - 3) % 13 + 1 in have)):
                return True
            if hi1 and p < 13 and base + (p + 1) % 13 + 1 in have:
                return True
        suit = c >> 4
        for meld in self.public.melds:
            if meld.kind == SET and meld.rank == r:
                if len(meld.cards) < 4 and all(m.suit != suit for m in meld.cards):
                    return True
            elif meld.kind == RUN and meld.suit == suit:
                lo, hi = meld.positions[0], meld.positions[-1]
                for p in (1, 14) if r == 1 else (r,):
                    # Every card between the run's end and c must be laid off with it.
                    if p < lo and all(base + (q - 1) % 13 + 1 in have for q in range(p + 1, lo)):
                        return True
                    if p > hi and all(base + (q - 1) % 13 + 1 in have for q in range(hi + 1, p)):
                        return True
        return False

    def _play_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        rules = self.rules
        if not hand:
            # floating / unplayable_discard: the hand is melded out; the turn ends by floating.
            return [Float()]
        acts: list[Action] = []
        acts.extend(self._meld_actions(seat, in_turn=True))
        acts.extend(self._layoff_actions(seat, in_turn=True))
        acts.extend(self._swap_actions(seat))
        acts.extend(self._block_actions(seat))
        if self.public.obligation is None and self._opening_done(seat):
            need = max(1, self.public.drawn) if rules.discard_count is DiscardCount.MATCH_DRAWN else 1
            count = min(need, len(hand))
            counts = Counter(hand)
            if self.public.taken_top is not None and not rules.discard_back:
                counts[self.public.taken_top] -= 1
            if count == 1:
                for c in sorted(k for k, v in counts.items() if v > 0):
                    acts.append(_DISCARDS[c])
            else:
                for combo in sorted(set(combinations(sorted(counts.elements()), count))):
                    acts.append(Discard(combo))
        return acts

    def _meld_actions(self, seat: int, in_turn: bool) -> list[Action]:
        hand = self.hands[seat]
        keep = self._keep_min(seat, in_turn)
        melds = find_melds(self._meld_hand(seat), self.rules, self._meld_extra(seat))
        if self.public.gambit == "double" and self._joker_for(seat):
            # Dealer's Gambit, double: a joker may be placed on a set as it is melded.
            doubled = [m + (JOKER,) for m in melds if len({c.rank for c in m}) == 1 and len(m) <= 4]
            melds = melds + doubled
        out: list[Action] = []
        for cards in melds:
            used, _ = self._hand_cost(seat, cards)
            if len(hand) - used < keep or (in_turn and self._strands_taken_card(seat, cards, used, None)):
                continue
            if not self._meld_keeps_obligation(seat, cards, in_turn):
                continue
            if not self.public.opened[seat] and not self._opening_ok(seat, cards, in_turn):
                continue
            out.append(Meld(cards))
        return out

    def _layoff_actions(self, seat: int, in_turn: bool) -> list[Action]:
        if not self._may_layoff_now(seat):
            return []
        hand = self.hands[seat]
        keep = self._keep_min(seat, in_turn)
        r = self.rules
        mhand = self._meld_hand(seat)
        extra = self._meld_extra(seat)
        out: list[Action] = []
        touch = None if extra or JOKER in mhand else _touch_index(mhand)
        for meld in self.public.melds:
            if not self.may_extend(seat, meld):
                continue
            if touch is not None and not _may_touch(meld, touch):
                continue
            for cards in find_layoffs(meld, mhand, r, extra):
                used, _ = self._hand_cost(seat, cards)
                if len(hand) - used < keep or (in_turn and self._strands_taken_card(seat, cards, used, meld.id)):
                    continue
                if in_turn and self.public.obligation is not None:
                    if self.rules.taken_card_use is TakenCardUse.NEW_MELD and self.public.obligation in _bare(cards):
                        continue
                    if self.public.obligation not in _bare(cards) and not self._still_usable(seat, cards, meld.id):
                        continue
                out.append(LayOff(cards, meld.id))
        return out

    def _strands_taken_card(self, seat: int, cards: Sequence[Card], used: int, onto: int | None | bool = False) -> bool:
        """Whether a play would leave only the top card just taken, which may not be discarded.

        ``onto`` names the play (None: a new meld, an id: a lay-off; False: no
        play on the table). After a meld or lay-off the taken card is not
        stranded when it can itself be laid off next: the player goes out with it.
        """
        hand = self.hands[seat]
        if self.public.taken_top is None or self.rules.discard_back or len(hand) - used != 1:
            return False
        rest = list(hand)
        _remove(rest, _bare(cards)[:used])
        if rest[0] != self.public.taken_top:
            return False
        if self.rules.joker_swap and self._swappable(rest, None):
            return False
        if onto is False:
            return True
        sim, d = self._scratch()
        sim._do_lay(d, seat, cards, onto, check_out=False)
        if not sim._may_layoff_now(seat):
            return True
        return not sim._layoff_uses(seat, sim.hands[seat], self.public.taken_top, self._keep_min(seat, True), sim._meld_extra(seat))

    def _meld_keeps_obligation(self, seat: int, cards: Sequence[Card], in_turn: bool) -> bool:
        """A play that does not use the taken card must leave it usable."""
        if not in_turn or self.public.obligation is None:
            return True
        if self.public.obligation in _bare(cards):
            return True
        return self._still_usable(seat, cards, None)

    def _still_usable(self, seat: int, cards: Sequence[Card], onto: int | None) -> bool:
        sim, d = self._scratch()
        sim._do_lay(d, seat, cards, onto, check_out=False)
        return sim._can_use(seat, sim.hands[seat], self.public.obligation)

    def _take_ok(self, seat: int, k: int, split: bool) -> bool:
        """Whether taking ``k`` cards leaves a turn that can be finished legally."""
        rules = self.rules
        pile = self.public.discard
        chosen = pile[-k]
        hand = self.hands[seat]
        if split:
            new_hand = list(hand) + [chosen]
            if JOKER in new_hand and self._extra_jokers(seat) == 0:
                new_hand.remove(JOKER)
            must_use = True
        else:
            new_hand = [*hand, *pile[-k:]]
            must_use = k > 1 or rules.must_use_taken is MustUseTaken.ALWAYS
        if must_use:
            return self._can_use(seat, new_hand, chosen, split_joker=split)
        if rules.discard_back or hand:
            return True
        # An empty (floating) hand takes the top card alone and may not discard it back:
        # it must be playable.
        return self._can_use(seat, new_hand, chosen)

    def _can_use_as_is(self, seat: int, hand: Sequence[Card], chosen: Card, split_joker: bool = False) -> bool:
        """Whether ``chosen`` (in ``hand``) can be melded or laid off this turn (no joker swap first)."""
        rules = self.rules
        r = self.rules
        keep = self._keep_min(seat, True)
        extra = 0 if split_joker else self._meld_extra(seat)
        mhand = self._meld_hand(seat, hand)
        if chosen == JOKER and chosen not in mhand:
            if self.public.gambit != "double":
                return False  # a joker that is not wild this hand cannot be used
            # Dealer's Gambit, double: the joker goes on a set of the hand as it is melded.
            melds = [m + (JOKER,) for m in find_melds(mhand, r, extra) if len({c.rank for c in m}) == 1 and len(m) <= 4]
        else:
            melds = find_melds(mhand, r, extra, containing=chosen)
            if self.public.gambit == "double" and JOKER in hand:
                melds = melds + [m + (JOKER,) for m in melds if len({c.rank for c in m}) == 1 and len(m) <= 4]
        opened = self.public.opened[seat]
        for cards in melds:
            if chosen not in _bare(cards):
                continue
            used = len(cards) - min(sum(1 for c in cards if c >= 64), extra)
            if len(hand) - used < keep:
                continue
            if not opened:
                try:
                    pts = new_meld_points(self._build_meld(seat, cards, 0), rules)
                except MeldError:
                    continue
                need = rules.first_meld_min - self.public.turn_points - pts
                if need > 0:
                    rest = list(hand)
                    _remove(rest, _bare(cards)[:used])
                    if not self._can_reach(seat, rest, need, extra=extra - (len(cards) - used)):
                        continue
            return True
        if rules.taken_card_use is TakenCardUse.NEW_MELD:
            return False
        if not opened:
            return self._opens_then_lays_off(seat, hand, chosen, keep, extra)
        if rules.layoff_needs_own_meld and not self.public.has_melded[seat]:
            # Lay off only after a meld of one's own: meld something else first.
            for cards in find_melds(mhand, r, extra):
                if chosen in _bare(cards):
                    continue
                # The dealer's joker (``extra``) may stand in such a meld: it is not in the hand.
                used = len(cards) - min(sum(1 for c in cards if c >= 64), extra)
                rest = list(hand)
                _remove(rest, _bare(cards)[:used])
                if len(rest) - 1 < keep:
                    continue
                if self._layoff_uses(seat, rest, chosen, keep, extra - (len(cards) - used)):
                    return True
            return False
        return self._layoff_uses(seat, hand, chosen, keep, extra)

    def _layoff_uses(self, seat: int, hand: Sequence[Card], chosen: Card, keep: int, extra: int) -> bool:
        r = self.rules
        mhand = self._meld_hand(seat, hand)
        for meld in self.public.melds:
            if not self.may_extend(seat, meld):
                continue
            if chosen != JOKER and (meld.suit != chosen.suit if meld.kind == RUN else meld.rank != chosen.rank):
                continue  # the chosen card cannot go on this meld at all
            for cards in find_layoffs(meld, mhand, r, extra):
                if chosen in _bare(cards) and len(hand) - len(cards) >= keep:
                    return True
        return False

    def _playable_from_pile(self, k: int) -> bool:
        """Whether the k-th card from the top could be laid off, or melds with the cards above it."""
        chosen = self.public.discard[-k]
        r = self.rules
        for meld in self.public.melds:
            if find_layoffs(meld, [chosen], r):
                return True
        if k >= 3:
            for cards in find_melds(self.public.discard[-k:], r, 0):
                if chosen in _bare(cards):
                    return True
        return False

    def _callable_depths(self, seat: int, mode: CallingRummy) -> list[int]:
        depths = [1] if mode is CallingRummy.TOP_CARD else range(1, len(self.public.discard) + 1)
        out = []
        for k in depths:
            if k > len(self.public.discard) or not self._playable_from_pile(k):
                continue
            if self._can_use(seat, [*self.hands[seat], *self.public.discard[-k:]], self.public.discard[-k]):
                out.append(k)
        return out


def _touch_index(hand: Sequence[Card]) -> tuple[set[int], set[int]]:
    """(ranks held, suits held) of a hand without jokers, for quick lay-off rejection."""
    return {c & 15 for c in hand}, {c >> 4 for c in hand}


def _may_touch(meld: TableMeld, touch: tuple[set[int], set[int]]) -> bool:
    """Whether a joker-free hand could possibly lay off on ``meld``."""
    ranks, suits = touch
    if meld.kind == SET:
        return meld.rank in ranks
    if meld.kind != RUN or meld.suit not in suits:
        return False
    lo = (meld.positions[0] - 2) % 13 + 1
    hi = meld.positions[-1] % 13 + 1
    return lo in ranks or hi in ranks
