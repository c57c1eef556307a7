"""Hand analysis for the heuristic bots: meld plans, card potential and discard danger.

Everything here reads only what a seat may see (its hand, the table, the pile,
the cards others were seen taking) and is shared by the ``easy``, ``medium``
and ``hard`` levels:

* :class:`Planner` finds the most points a hand can lay down now -- new melds
  plus lay-offs on the table -- as an exact search over which melds use which
  cards (each meld candidate is enumerated once by the engine's
  :func:`~rummy500.melds.find_melds`, then combined under memoisation).
* :func:`card_outs` counts the unseen cards that would turn a card into a meld.
* :class:`Analysis` bundles one view's facts (unseen cards, the risk of being
  caught with cards in hand, what the opponents collect) and scores the
  choices a turn offers: which draw, which lay, which discard.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import cast

from rummy500 import fastmeld
from rummy500.actions import Action, CallRummy, Discard, Draw, LayOff, Meld, Pass, Take
from rummy500.cards import JOKER, Card, card
from rummy500.melds import RUN, MeldError, TableMeld, extend_meld, fits_alone, make_meld
from rummy500.rules import CallingRummy, Rules
from rummy500.scoring import card_value, meld_points, new_meld_points
from rummy500.views import View

__all__ = ["Analysis", "Group", "PlanContext", "Planner", "bare", "card_outs", "hand_masks", "left_after", "pack_counter", "recycling"]

_JK = JOKER


#: (``masters_hand``) The shortest run whose laying makes a Master's Hand of the turn it goes out in.
MASTERS_RUN = 7
#: An opponent seen taking this many cards still held is racing us to a big table.
RACE_PILE = 4
#: The share of an opponent's want for the cards a pile take denies them.
DENY_WEIGHT = 0.3
#: (The stock spent, play going on) what keeping a card one card of those in play melds is worth beyond twice its value.
RECYCLE_KEEP = 8.0
#: (The stock spent, play going on) the share of a discard's danger still weighed.
RECYCLE_DANGER = 0.25
#: The worth of a lay that scores nothing (a joker counting 0) but goes out: above nothing, so it is made.
GOING_OUT_LAY = 0.5


def recycling(view: View) -> bool:
    """Whether the stock ran out this round and the round goes on all the same.

    Under ``stock_out`` ``reshuffle`` or ``play_on`` (read from the view: the
    seat that drew the last stock card is recorded, and the round is still
    being played) no card comes that is not already in play: the pile is
    shuffled into a new stock or taken from, so the round ends only when
    somebody melds their way out. (Under the other rules the round is ending
    then; the last discard of such a round is judged this way too.)
    """
    return view.drew_last_card is not None and view.went_out is None and view.phase in ("draw", "play")


def bare(cards: Iterable[Card]) -> list[Card]:
    """Cards as a hand holds them: a declared joker (``JK=7H``) is a bare ``JK``."""
    return [_JK if c >= 64 else c for c in cards]


def pack_counter(rules: Rules) -> Counter[Card]:
    """The whole pack as a multiset (the same cards as the engine's ``build_pack``)."""
    key = (rules.short_pack, rules.n_decks, rules.n_jokers)
    got = _PACKS.get(key)
    if got is None:
        got = _PACKS[key] = _pack_counter(rules)
    return Counter(got)


_PACKS: dict[tuple[bool, int, int], Counter[Card]] = {}


def _shared_pack(rules: Rules) -> Counter[Card]:
    """The cached pack multiset itself (never mutate it); :func:`pack_counter` returns copies."""
    key = (rules.short_pack, rules.n_decks, rules.n_jokers)
    got = _PACKS.get(key)
    if got is None:
        got = _PACKS[key] = _pack_counter(rules)
    return got


#: rules -> {card code: its value in hand}, for every card a hand can hold.
_HAND_VALUES: dict[Rules, dict[int, int]] = {}


def _hand_values(rules: Rules) -> dict[int, int]:
    got = _HAND_VALUES.get(rules)
    if got is None:
        if len(_HAND_VALUES) > 256:
            _HAND_VALUES.clear()
        got = _HAND_VALUES[rules] = {
            c: card_value(card(c) if c != _JK else _JK, rules, in_hand=True)
            for c in [*(s * 16 + r for s in range(4) for r in range(1, 14)), int(_JK)]
        }
    return got


def _pack_counter(rules: Rules) -> Counter[Card]:
    naturals = [card(s * 16 + r) for s in range(4) for r in range(1, 14)]
    if rules.short_pack:
        naturals = [c for c in naturals if c.rank == 1 or c.rank >= 7]
    pack: Counter[Card] = Counter()
    for c in naturals:
        pack[c] += rules.n_decks
    if rules.n_jokers:
        pack[_JK] += rules.n_jokers
    return pack


@dataclass(frozen=True, slots=True)
class Group:
    """One way to lay cards: a new meld (``on`` None) or a lay-off on meld ``on``.

    Attributes:
        cards: the cards as the action writes them (jokers declared).
        need: the hand cards it uses, bare and sorted.
        on: the table meld it extends, or None for a new meld.
        points: what it scores for the player laying it.
    """

    cards: tuple[Card, ...]
    need: tuple[Card, ...]
    on: int | None
    points: int


# rules -> (cards, id of the table meld or of None, seat) -> (that meld, points); melds and rules
# are immutable values. The meld is held in the entry (so its id stays its own) and compared
# by identity: hashing a meld's every field at each look-up cost more than the points.
_POINTS: dict[Rules, dict[tuple[object, ...], tuple[TableMeld | None, int | None]]] = {}
# The same for planners that may place a doubling joker on a set (Dealer's Gambit, double).
_DOUBLED_POINTS: dict[Rules, dict[tuple[object, ...], tuple[TableMeld | None, int | None]]] = {}
# cards as an action writes them -> the hand cards they use, bare and sorted.
_NEEDS: dict[tuple[Card, ...], tuple[Card, ...]] = {}


def _need(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    got = _NEEDS.get(cards)
    if got is None:
        if len(_NEEDS) > 200_000:
            _NEEDS.clear()
        got = _NEEDS[cards] = tuple(sorted(bare(cards)))
    return got


def _sub(hand: tuple[Card, ...], need: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """``hand`` minus ``need`` (both sorted), or None when ``need`` is not all there."""
    out: list[Card] = []
    i = 0
    n = len(need)
    for c in hand:
        if i < n and c == need[i]:
            i += 1
        elif i < n and c > need[i]:
            return None
        else:
            out.append(c)
    return tuple(out) if i == n else None


def left_after(hand: Iterable[Card], plan: Iterable[Group]) -> Counter[Card]:
    """The cards of ``hand`` that the groups of ``plan`` do not lay, counted (in the hand's order).

    A count below zero is a card the plan lays that the hand lacks (a free
    dealer's joker); ``+left_after(...)`` keeps only the cards left.

    >>> from rummy500.cards import parse_cards
    >>> hand = parse_cards("7H 8H 9H KS")
    >>> g = Group(tuple(hand[:3]), tuple(hand[:3]), None, 24)
    >>> list(left_after(hand, [g]).elements()) == [hand[3]]
    True
    """
    left = Counter(hand)
    for g in plan:
        for c in g.need:
            left[c] -= 1
    return left


class Planner:
    """The most points a hand can lay down this turn.

    Args:
        rules: the rules in force.
        table: the melds on the table.
        seat: who would lay the cards.
        may_layoff: whether lay-offs are allowed now (``first_meld_min``,
            ``layoff_needs_own_meld``).
        may_extend: which table melds this seat may extend (``layoff_onto``).
        wild: whether jokers are wild this hand.
        doubling: (Dealer's Gambit, ``double`` nominated) a joker may be
            placed on a set as it is melded, doubling the set's points and
            sealing it: every set of the hand is also offered with a joker.
        node_budget: a cap on the search (it stays exact for ordinary hands).
    """

    def __init__(
        self,
        rules: Rules,
        table: Sequence[TableMeld],
        seat: int,
        *,
        may_layoff: bool = True,
        may_extend: Callable[[TableMeld], bool] | None = None,
        wild: bool = True,
        doubling: bool = False,
        node_budget: int = 4000,
    ) -> None:
        self.rules = rules
        self.table = list(table)
        self.seat = seat
        self.may_layoff = may_layoff
        self.may_extend = may_extend or (lambda m: True)
        self.wild = wild
        self.doubling = doubling
        self.node_budget = node_budget
        # The rules' points memo, found once here rather than hashing the rules at every look-up
        # (a doubling planner has its own: a bare joker on a set scores there, and nowhere else).
        memos = _DOUBLED_POINTS if doubling else _POINTS
        if len(memos) > 64 and rules not in memos:
            memos.clear()
        self._points = memos.setdefault(rules, {})

    # -- groups
    def groups(self, hand: Sequence[Card]) -> list[Group]:
        """Every meld and lay-off the hand could make (one per cards-used and target)."""
        usable = list(hand) if self.wild or not self.rules.jokers_wild else [c for c in hand if c != _JK]
        best: dict[tuple[tuple[Card, ...], int | None], Group] = {}
        # One index of the hand for the melds and every lay-off (what find_melds and find_layoffs do).
        t = fastmeld.tables(self.rules)
        index = fastmeld.scan(usable)
        melds = fastmeld.all_melds(t, index, 0)
        if self.doubling and _JK in hand:
            # Dealer's Gambit, double: a joker placed on a set (of at most four) as it is melded.
            melds = [*melds, *(m + (_JK,) for m in melds if len(m) <= 4 and len({c & 15 for c in m}) == 1)]
        for cards in melds:
            pts = self.points(cards, None)
            if pts is None:
                continue
            need = _need(cards)
            key: tuple[tuple[Card, ...], int | None] = (need, None)
            if key not in best or best[key].points < pts:
                best[key] = Group(cards, need, None, pts)
        if self.may_layoff:
            for meld in self.table:
                if meld.sealed or not self.may_extend(meld):
                    continue
                for cards in fastmeld.hand_layoffs(t, meld, index):
                    pts = self.points(cards, meld.id)
                    if pts is None:
                        continue
                    need = _need(cards)
                    key = (need, meld.id)
                    if key not in best or best[key].points < pts:
                        best[key] = Group(cards, need, meld.id, pts)
        return list(best.values())

    def points(self, cards: Sequence[Card], on: int | None) -> int | None:
        """Points ``cards`` score for the seat as a new meld or laid off on meld ``on``."""
        meld = None
        if on is not None:
            meld = self.table[on] if on < len(self.table) and self.table[on].id == on else _by_id(self.table, on)
        memo = self._points
        key = (tuple(cards), id(meld), self.seat)
        hit = memo.get(key)
        if hit is not None and hit[0] is meld:
            return hit[1]
        try:
            if meld is None:
                doubling = self.doubling and _JK in cards
                pts: int | None = new_meld_points(make_meld(cards, self.rules, 0, self.seat, doubling_joker=doubling), self.rules)
            else:
                before = meld_points(meld, self.rules).get(self.seat, 0)
                after = meld_points(extend_meld(meld, cards, self.rules, self.seat), self.rules).get(self.seat, 0)
                pts = after - before
        except MeldError:
            pts = None
        if len(memo) > 200_000:
            memo.clear()
        memo[key] = (meld, pts)
        return pts

    # -- the search
    def context(self, hand: Sequence[Card]) -> PlanContext:
        """A search context for ``hand`` and any part of it (groups found once, results shared)."""
        return PlanContext(self, hand)

    def best(self, hand: Sequence[Card], *, must_use: Card | None = None) -> tuple[int, tuple[Group, ...]]:
        """The best plan for ``hand``: (points, groups); see :meth:`PlanContext.best`."""
        return PlanContext(self, hand).best(hand, must_use=must_use)


class PlanContext:
    """The meld groups of one hand, and memoised best plans for it and its sub-hands.

    Every meld a sub-hand can make is a meld of the whole hand, so the groups
    are enumerated once and each search only filters them.
    """

    def __init__(self, planner: Planner, hand: Sequence[Card]) -> None:
        self.planner = planner
        self.hand = tuple(sorted(hand))
        self.groups = planner.groups(self.hand)
        # Per natural card, the groups that use it, best first, each with its bit form:
        # (natural cards' mask (-1: a card twice, which no bit-mask hand holds), jokers, meld-id bit).
        self.gbits: list[tuple[int, int, int]] = []
        by_bit: dict[int, list[tuple[int, int, int, Group]]] = {}
        for g in self.groups:
            need, jokers = _need_bits(g.need)
            entry = (need, jokers, 0 if g.on is None else 1 << g.on, g)
            self.gbits.append(entry[:3])
            for c in set(g.need):
                if c != _JK:
                    by_bit.setdefault(int(c), []).append(entry)
        for lst in by_bit.values():
            lst.sort(key=lambda e: -e[3].points)
        self.by_bit = by_bit
        self.joker_layoffs = sorted(
            (g.points for g in self.groups if g.on is not None and g.need == (_JK,)), reverse=True
        )
        self.memo: dict[tuple[tuple[Card, ...], frozenset[int]], tuple[int, tuple[Group, ...]]] = {}
        self.nodes = 0
        # A hand without two copies of a natural card (always, with one pack) is searched as a
        # bit mask of its natural cards and a count of jokers: the same search, visiting the same
        # sub-hands in the same order (so the same plans and the same node count), with cheaper
        # steps. A query hand that has two copies of a card takes the tuple search.
        self.masked = _mask_of(self.hand) is not None
        self.mmemo: dict[int, tuple[int, tuple[Group, ...]]] = {}

    def _mrec(self, mask: int, jk: int, used: int) -> tuple[int, tuple[Group, ...]]:
        """:meth:`_rec` on a hand as (natural cards' bit mask, jokers), ``used`` as meld-id bits."""
        key = mask | jk << 64 | used << 72
        got = self.mmemo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if mask == 0:
            res: tuple[int, tuple[Group, ...]] = (0, ())
            self.mmemo[key] = res
            return res
        low = mask & -mask
        res = self._mrec(mask ^ low, jk, used)
        if self.nodes <= self.planner.node_budget:
            for need, jokers, on, g in self.by_bit.get(low.bit_length() - 1, ()):
                if on & used or need & mask != need or jokers > jk:
                    continue
                sub = self._mrec(mask ^ need, jk - jokers, used | on)
                v = g.points + sub[0]
                if v > res[0]:
                    res = (v, (g, *sub[1]))
        self.mmemo[key] = res
        return res

    def _rec(self, h: tuple[Card, ...], used: frozenset[int]) -> tuple[int, tuple[Group, ...]]:
        key = (h, used)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        x = next((c for c in h if c != _JK), None)
        if x is None:
            res: tuple[int, tuple[Group, ...]] = (0, ())
            self.memo[key] = res
            return res
        i = h.index(x)
        res = self._rec(h[:i] + h[i + 1 :], used)
        if self.nodes <= self.planner.node_budget:
            for _, _, _, g in self.by_bit.get(int(x), ()):
                if g.on is not None and g.on in used:
                    continue
                rest = _sub(h, g.need)
                if rest is None:
                    continue
                sub = self._rec(rest, used | {g.on} if g.on is not None else used)
                v = g.points + sub[0]
                if v > res[0]:
                    res = (v, (g, *sub[1]))
        self.memo[key] = res
        return res

    def best(self, hand: Sequence[Card] | None = None, *, must_use: Card | None = None, used: frozenset[int] = frozenset()) -> tuple[int, tuple[Group, ...]]:
        """The most points ``hand`` (default: the whole hand) can lay, and the groups that do it.

        Args:
            hand: the whole hand of the context or a part of it.
            must_use: a card the plan must lay (a card taken from the pile);
                the result is ``(-1, ())`` when no plan can.
            used: table melds already extended in this plan.
        """
        h = self.hand if hand is None else tuple(sorted(hand))
        bits = _mask_of(h) if self.masked else None
        if bits is not None and bits[1] < 256:
            pts, plan = self._mbest(bits[0], bits[1], used, must_use)
            if pts < 0:
                return -1, ()
        elif must_use is None:
            pts, plan = self._rec(h, used)
        else:
            pts, plan = -1, ()
            for g in self.groups:
                if must_use not in g.need or (g.on is not None and g.on in used):
                    continue
                rest = _sub(h, g.need)
                if rest is None:
                    continue
                sub = self._rec(rest, used | {g.on} if g.on is not None else used)
                v = g.points + sub[0]
                if v > pts:
                    pts, plan = v, (g, *sub[1])
            if pts < 0:
                return -1, ()
        # Jokers nobody melded can still be laid off where they fit.
        spare = h.count(_JK) - sum(g.need.count(_JK) for g in plan)
        if spare > 0 and self.joker_layoffs:
            pts += sum(self.joker_layoffs[:spare])
        return pts, plan

    def _mbest(self, mask: int, jk: int, used: frozenset[int], must_use: Card | None) -> tuple[int, tuple[Group, ...]]:
        """:meth:`best`'s search on the bit-mask form of a hand."""
        ubits = 0
        for u in used:
            ubits |= 1 << u
        if must_use is None:
            return self._mrec(mask, jk, ubits)
        pts = -1
        plan: tuple[Group, ...] = ()
        for g, (need, jokers, on) in zip(self.groups, self.gbits, strict=True):
            if must_use not in g.need or on & ubits:
                continue
            if need & mask != need or jokers > jk:
                continue
            sub = self._mrec(mask ^ need, jk - jokers, ubits | on)
            v = g.points + sub[0]
            if v > pts:
                pts, plan = v, (g, *sub[1])
        return pts, plan


def _mask_of(hand: Sequence[Card]) -> tuple[int, int] | None:
    """(bit mask of the natural cards, number of bare jokers), or None when a natural card is there twice."""
    mask = 0
    jk = 0
    for c in hand:
        if c == _JK:
            jk += 1
            continue
        bit = 1 << c
        if mask & bit:
            return None
        mask |= bit
    return mask, jk


_NEED_BITS: dict[tuple[Card, ...], tuple[int, int]] = {}


def _need_bits(need: tuple[Card, ...]) -> tuple[int, int]:
    """A group's needed cards as (natural cards' mask, jokers); mask -1 when it needs a card twice."""
    got = _NEED_BITS.get(need)
    if got is None:
        if len(_NEED_BITS) > 200_000:
            _NEED_BITS.clear()
        bits = _mask_of(need)
        got = _NEED_BITS[need] = (-1, 0) if bits is None else bits
    return got


def _extend_test(rules: Rules, seat: int) -> Callable[[TableMeld], bool]:
    """Whether ``seat`` may lay off on a table meld (``layoff_onto``)."""
    return lambda meld: rules.may_lay_off_on(seat, meld.owner)


def _by_id(table: Sequence[TableMeld], meld_id: int) -> TableMeld:
    for m in table:
        if m.id == meld_id:
            return m
    raise MeldError(f"no meld {meld_id}")


def hand_masks(hand: Iterable[Card]) -> tuple[list[int], list[int]]:
    """The hand as bit masks: per rank the suits held, per suit the ranks held (what :func:`card_outs` reads).

    >>> from rummy500.cards import parse_cards
    >>> seven, _, eight = hand = parse_cards("7H 7S 8H")
    >>> by_rank, by_suit = hand_masks(hand)
    >>> [s for s in range(4) if by_rank[7] >> s & 1] == sorted({seven.suit, hand[1].suit})
    True
    >>> [r for r in range(16) if by_suit[seven.suit] >> r & 1]
    [7, 8]
    """
    by_rank = [0] * 16
    by_suit = [0] * 5
    for h in hand:
        # A card is suit * 16 + rank; a bare joker (code 64) lands on "rank" 0 and "suit" 4,
        # which no natural card reads.
        by_rank[h & 15] |= 1 << (h >> 4)
        by_suit[h >> 4] |= 1 << (h & 15)
    return by_rank, by_suit


def card_outs(
    c: Card, hand: Sequence[Card], live: Mapping[Card, int], rules: Rules, masks: tuple[list[int], list[int]] | None = None
) -> float:
    """How many live cards would make ``c`` part of a 3-card meld with one other held card.

    ``live`` counts the cards that may still come (the stock and hidden hands);
    a joker in hand makes every card worth keeping, so jokers score high.
    ``masks``: :func:`hand_masks` of ``hand``, when the caller has them.
    """
    if c == _JK:
        return 20.0
    rank, suit = c & 15, c >> 4
    by_rank, by_suit = hand_masks(hand) if masks is None else masks
    outs = 0.0
    get = cast("dict[int, int]", live).get  # cards are their int codes
    same_rank = by_rank[rank] & ~(1 << suit)  # the other suits of its rank held
    if same_rank:
        for s in range(4):
            if s != suit and not same_rank >> s & 1:
                outs += get(s * 16 + rank, 0)
    else:
        # A lone card: two more of its rank would do; count them at a discount.
        outs += 0.15 * sum(get(s * 16 + rank, 0) for s in range(4) if s != suit)
    ranks = by_suit[suit]  # the ranks of its suit held
    top = 14 if rules.short_pack else 13

    def live_rank(r: int) -> int:
        if r == 14:
            r = 1
        if r < 1 or r > 13:
            return 0
        return get(suit * 16 + r, 0)

    for d in (1, 2):
        for nb in (rank - d, rank + d):
            if 1 <= nb <= top + 1 and ranks >> (1 if nb == 14 else nb) & 1:
                if d == 1:
                    lo, hi = min(rank, nb), max(rank, nb)
                    outs += live_rank(lo - 1) + live_rank(hi + 1)
                else:
                    outs += live_rank((rank + nb) // 2)
    if rank == 1:
        # the ace also sits above the king
        for nb, mid in ((13, None), (12, 13)):
            if ranks >> nb & 1:
                outs += live_rank(12) if mid is None else live_rank(mid)
    return outs


class Analysis:
    """What one view tells a heuristic player, and how it scores the turn's choices.

    Args:
        view: the seat's view.
        track_opponents: weigh what the opponents were seen taking (and
            discarding, via ``discards``) when choosing a discard.
        discards: per seat, cards that seat was seen discarding this round.
    """

    def __init__(self, view: View, *, track_opponents: bool = True, discards: dict[int, list[Card]] | None = None) -> None:
        assert view.seat is not None
        self.view = view
        self.rules = rules = view.rules
        self.seat = seat = view.seat
        self.hand = list(view.hand)
        self.track = track_opponents
        self.discards = discards or {}
        # The rule facts come from the engine, through the view: never decided here.
        self.wild = view.jokers_wild
        # Jokers that are no wild cards but meld in sets of jokers (Persian), and score there
        # as they count in hand; not the Dealer's Gambit jokers of a hand nominated double or
        # split (they count nothing and make no joker set).
        self.joker_sets = not rules.jokers_wild
        # Dealer's Gambit, double: a joker placed on a set as it is melded doubles it.
        self.doubling = view.gambit == "double"
        # The dealer's joker counts as a joker the dealer holds while it is free (under double,
        # as a joker it may place on a set).
        self.extra = view.extra_jokers
        if self.doubling and seat == view.dealer and view.dealer_joker == "available":
            self.extra += 1
        self.plan_hand = self.hand + [_JK] * self.extra
        self.may_layoff = view.may_lay_off_now
        # (A function of the rules and the seat, not a bound method: the analysis would hold
        # itself through its planner, a reference cycle only the garbage collector frees.)
        self.planner = Planner(
            rules,
            view.melds,
            seat,
            may_layoff=self.may_layoff,
            may_extend=_extend_test(rules, seat),
            wild=self.wild,
            doubling=self.doubling,
        )
        self._base: tuple[int, tuple[Group, ...]] | None = None
        self._ctx: PlanContext | None = None
        self._layoff_memo: dict[Card, bool] = {}
        self._opp_fits: int | None = None
        self._opp_known: list[list[Card]] | None = None
        self._pile_suits: dict[int, set[int]] | None = None
        self._plan_cards: Counter[Card] | None = None
        self._extendable: list[TableMeld] | None = None
        self._masks: tuple[list[int], list[int]] | None = None
        self._values = _hand_values(rules)
        side = rules.side_of(seat)
        self._opps = opps = [s for s in range(view.players) if s != seat and rules.side_of(s) != side]
        # Cards that may still come: the pack less everything this seat can see, counted down
        # in a copy of the pack (so in the pack's order, as the counts were always listed).
        seen: list[Card] = [*view.hand, *view.discard, *view.removed]
        for m in view.melds:
            seen.extend(_need(m.cards))
        for s, k in enumerate(view.known):
            if s != seat:
                seen.extend(k)
        live: dict[Card, int] = dict(_shared_pack(rules))
        for c in seen:
            r = live.get(c, 0) - 1
            if r > 0:
                live[c] = r
            elif r == 0:
                del live[c]  # none left to come
        self.live = live
        # The stock ran out this round and play goes on (a new stock shuffled from the pile, or
        # play from the pile alone): no fresh card is coming, the cards still in play come round.
        self.recycling = recycling(view)
        pool = live
        if self.recycling:
            # Every card of the pile comes round again: in a new stock, or taken from the pile.
            pool = dict(live)
            for c in bare(view.discard):
                pool[c] = pool.get(c, 0) + 1
        self._pool = pool
        n = view.players
        dealt = n * rules.n_hand + 1
        start_stock = max(1, rules.pack_size - dealt)
        progress = 1.0 - min(1.0, view.stock_count / start_stock)
        others = [view.hand_sizes[s] for s in opps]
        shortest = min(others) if others else 99
        # The chance of being caught holding a card when the round ends.
        risk = 0.3 + 0.6 * progress
        if shortest <= 2:
            risk = max(risk, 0.95)
        elif shortest <= 4:
            risk = max(risk, 0.7)
        # Racing: an opponent who took a big pile is building a big table and
        # may go out soon; hold less, lay more, keep fewer high cards.
        self.racing = track_opponents and any(len(view.known[o]) >= RACE_PILE for o in opps)
        if self.racing:
            risk = max(risk, 0.85)
        self.risk = risk

    # -------------------------------------------------------------- values
    def value(self, c: Card) -> int:
        """A card's value in hand."""
        got = self._values.get(c)
        return card_value(c, self.rules, in_hand=True) if got is None else got

    @property
    def ctx(self) -> PlanContext:
        """The plan search context of the hand as it is."""
        if self._ctx is None:
            self._ctx = self.planner.context(self.plan_hand)
        return self._ctx

    def base(self) -> tuple[int, tuple[Group, ...]]:
        """The best plan for the hand as it is."""
        if self._base is None:
            self._base = self.ctx.best()
        return self._base

    def keep_value(self, c: Card, hand: Sequence[Card] | None = None) -> float:
        """How much holding ``c`` is worth: its chances to meld less the risk of being caught."""
        # ``c`` itself is not taken out of the hand: card_outs never counts a card of c's own
        # suit and rank (other suits of its rank, other ranks of its suit), so it is the same.
        pool = self._pool
        if hand is None:
            if self._masks is None:
                self._masks = hand_masks(self.hand)
            outs = card_outs(c, self.hand, pool, self.rules, self._masks)
        else:
            outs = card_outs(c, hand, pool, self.rules)
        v = self.value(c)
        if c == _JK:
            return 100.0 if self.wild else -v * self.risk
        if self.recycling:
            if len(self.hand if hand is None else hand) <= 2:
                # The card is all that would be left after the discard: a single card goes out by a
                # lay-off (and would be laid off), never in a meld of its own hand.
                outs = 0.0
            # Nothing new comes: the round ends only when someone melds their way out, so a card
            # one card of the cards going round would meld is the way out and is kept whatever
            # its value (one out is nearly sure to come round again); a card no card melds is
            # only a card to be caught with.
            return (1.0 - math.exp(-outs)) * (2.0 * v + RECYCLE_KEEP) - v * self.risk
        # Each out is a chance to score the card (and its partners) instead of losing it.
        return outs * (2.0 + 0.25 * v) * (1.2 - self.risk) - v * self.risk

    def danger(self, c: Card) -> float:
        """What discarding ``c`` may give the opponents."""
        view = self.view
        v = self.value(c)
        d = 0.0
        if c == _JK:
            if self.wild:
                return 40.0
            # A joker of joker sets (Persian) scores its value for whoever melds it, more in a
            # set of four laid at once: worth holding back unless it will soon be caught in hand.
            return v * (1.0 - self.risk) if self.joker_sets else 0.0
        if self.opp_layoff(c):
            d += v + 4
        if not self.track:
            return d
        d += self.opp_want(c)
        rank, suit = c.rank, c.suit
        for o in self._opps:
            for k in self.discards.get(o, ()):
                # They let a card of this rank or a neighbour go: they are less likely to want it.
                if k.rank == rank or (k.suit == suit and abs(k.rank - rank) == 1):
                    d -= 2.0
        # Cards in the pile it melds with: whoever digs gets a meld.
        suits = self._pile_suits
        if suits is None:
            suits = self._pile_suits = {}
            for k in view.discard:
                if k != _JK:
                    suits.setdefault(k & 15, set()).add(k >> 4)
        pile_same = suits.get(rank)
        if pile_same is not None and len(pile_same - {suit}) >= 2:
            d += 0.5 * v
        return d

    def opp_want(self, c: Card) -> float:
        """How much the opponents want ``c``, from the cards they were seen taking (``view.known``).

        A card of a rank they took in another suit, or a near neighbour in a
        suit they took, is one they are collecting toward.
        """
        if c == _JK:
            return 0.0
        v = self.value(c)
        want = 0.0
        rank, suit = c.rank, c.suit
        every = self._opp_known
        if every is None:
            # Known cards are natural cards or bare jokers: suit * 16 + rank.
            every = self._opp_known = [[k for k in self.view.known[o] if k != _JK] for o in self._opps]
        for known in every:
            if not known:
                continue
            same = {k >> 4 for k in known if k & 15 == rank and k >> 4 != suit}
            if same:
                want += (0.6 if len(same) == 1 else 1.0) * (v + 5)
            near = [k for k in known if k >> 4 == suit and 0 < abs((k & 15) - rank) <= 2]
            if near:
                want += 0.5 * (v + 5) * min(2, len(near))
        return want

    def opp_layoff(self, c: Card) -> bool:
        """Whether an opponent could lay ``c`` off on a table meld (memoised per view)."""
        if c < 64:
            # A natural card: one mask of every card that fits alone on a meld an opponent may extend.
            fits = self._opp_fits
            if fits is None:
                fits = 0
                t = fastmeld.tables(self.rules)
                for meld in self.view.melds:
                    if meld.sealed or not any(self._opp_may_extend(o, meld) for o in self._opps):
                        continue
                    fits |= fastmeld.fits(t, meld)
                self._opp_fits = fits
            return bool(fits >> c & 1)
        memo = self._layoff_memo
        got = memo.get(c)
        if got is None:
            got = False
            for meld in self.view.melds:
                if meld.sealed or not any(self._opp_may_extend(o, meld) for o in self._opps):
                    continue
                if fits_alone(meld, c, self.rules):
                    got = True
                    break
            memo[c] = got
        return got

    def could_meld(self, c: Card, hand: Sequence[Card]) -> bool:
        """A quick necessary condition for ``c`` to be melded or laid off with ``hand``.

        ``c`` needs a natural partner of its rank, or of its suit close enough
        for the jokers held to bridge the gap, or a table meld it extends:
        alone, or with jokers of the hand between it and the meld (the ace
        laid off with a joker as the king on a run up to the queen). Two wild
        jokers may meld with it on their own.
        """
        if c == _JK:
            return True
        jokers = sum(1 for h in hand if h == _JK) if self.wild else 0
        if jokers >= 2:
            return True
        if jokers and self.extendable():
            return True  # a joker may bridge it to a table meld: let the search decide
        reach = 1 + jokers
        for h in hand:
            if h == _JK:
                continue
            if h == c:
                if self.rules.sets_repeat_cards:
                    return True  # two packs: a set may repeat a card
                continue
            if h.rank == c.rank:
                return True
            if h.suit == c.suit:
                gap = abs(h.rank - c.rank)
                # 13 - gap: the ace is next to the king (and to the 2 around the corner)
                if min(gap, 13 - gap) <= reach:
                    return True
        return any(fits_alone(meld, c, self.rules) for meld in self.extendable())

    def extendable(self) -> list[TableMeld]:
        """The table melds this seat may lay off on now (none while it may not lay off at all)."""
        if self._extendable is None:
            may = self.may_layoff
            self._extendable = [m for m in self.view.melds if may and not m.sealed and self.planner.may_extend(m)]
        return self._extendable

    def _opponents(self) -> list[int]:
        return list(self._opps)

    def _opp_may_extend(self, seat: int, meld: TableMeld) -> bool:
        return self.rules.may_lay_off_on(seat, meld.owner)

    # -------------------------------------------------------------- choices
    def lay_value(self, action: Meld | LayOff) -> float:
        """Points of ``action`` plus the best the rest of the hand can still lay."""
        on = action.on if isinstance(action, LayOff) else None
        pts = self.planner.points(action.cards, on)
        if pts is None:
            return float("-inf")
        rest = _sub(self.ctx.hand, tuple(sorted(bare(action.cards))))
        if rest is None:
            return float("-inf")
        sub = self.ctx.best(rest, used=frozenset({on}) if on is not None else frozenset())[0]
        return pts + sub

    def must_use(self, k: int, *, split: bool = False) -> bool:
        """Whether taking ``k`` pile cards is worth it only if the chosen card is used this turn.

        The rules oblige it for more than one card, a split and (``must_use_taken``)
        the top card. A player also sets it for themself when the stock is spent and
        they may end the round instead (``Pass``): a card taken then that is not laid
        is thrown back and taken again, turn after turn, and the round never ends.
        """
        if k > 1 or split or self.view.must_use_top_card:
            return True
        return self.view.stock_count == 0 and any(isinstance(a, Pass) for a in self.view.legal)

    def _take_plan(
        self, chosen: Card, taken: list[Card], *, must_use: bool, split: bool = False
    ) -> tuple[list[Card], int, tuple[Group, ...]] | None:
        """The hand after taking ``taken`` from the pile (``chosen`` the deepest), its best plan's points and groups.

        ``must_use``: the plan must lay ``chosen`` (None when no plan can);
        ``split``: a joker of the hand is spent on the take.
        """
        new_hand = self.plan_hand + taken
        if split and _JK in new_hand:
            new_hand.remove(_JK)  # the splitting joker is spent
        if must_use and not self.could_meld(chosen, new_hand):
            return None
        ctx = self.planner.context(new_hand)
        if must_use:
            pts, plan = ctx.best(must_use=chosen)
            if pts < 0:
                return None
        else:
            pts, plan = ctx.best()
        return new_hand, pts, plan

    def take_value(self, k: int, *, must_use: bool, split: bool = False) -> float:
        """The worth of taking ``k`` cards from the pile (``split``: the chosen card alone)."""
        pile = list(self.view.discard)
        chosen = pile[-k]
        taken = [chosen] if split else pile[-k:]
        got = self._take_plan(chosen, taken, must_use=must_use, split=split)
        if got is None:
            return float("-inf")
        new_hand, pts, plan = got
        gain = pts - self.base()[0]
        # The hand after the plan, and the taken cards still in it (each in first-seen order).
        left = {c: r for c, r in left_after(new_hand, plan).items() if r > 0}
        # Cards taken but not laid become hand cards: they may meld later, or be caught.
        rest_hand = [c for c, r in left.items() for _ in range(r)]
        extra = 0.0
        for c, n in Counter(taken).items():
            for _ in range(min(n, left.get(c, 0))):
                extra += 0.5 * self.keep_value(c, rest_hand)
        # Each card taken is a card one turn further from going out.
        extra -= 1.5 * max(0, len(taken) - 1) * self.risk
        if self.track:
            # Denial: what we take, an opponent collecting toward it cannot dig for.
            extra += DENY_WEIGHT * sum(self.opp_want(c) for c in taken)
        return gain + extra

    def goes_out_with(self, k: int) -> bool:
        """Whether taking the top ``k`` pile cards and laying the deepest lets this seat go out this turn.

        The best plan of the hand and the taken cards that lays the chosen
        card must lay every card but at most one (the going-out discard).
        """
        pile = self.view.discard
        if not 1 <= k <= len(pile):
            return False
        chosen = pile[-k]
        got = self._take_plan(chosen, bare(pile[-k:]), must_use=True)
        if got is None:
            return False
        new_hand, _, plan = got
        left = left_after(new_hand, plan)
        # A free dealer's joker left over is no card of the hand.
        left[_JK] = max(0, left[_JK] - self.extra)
        return sum(n for n in left.values() if n > 0) <= 1

    def catch_worth(self) -> float:
        """What going out now catches: the opponents' cards in hand, at the average value of the cards this seat has not seen."""
        pool = self.live
        total = sum(pool.values())
        mean = sum(self.value(c) * n for c, n in pool.items()) / total if total else 5.0
        return mean * sum(self.view.hand_sizes[o] for o in self._opps)

    def draw_value(self) -> float:
        """The worth of the unknown top card of the stock, as a rule of thumb."""
        return 3.0

    def expected_draw_value(self) -> float:
        """The worth of the stock's top card averaged over every card it may be.

        The top card is equally likely to be any card this seat has not seen
        (the stock and the hidden hands are one pool to it); each is valued as
        :meth:`take_value` values the top card of the pile.
        """
        pool = self.live
        total = sum(pool.values())
        if total == 0 or self.view.stock_count == 0:
            return self.draw_value()
        base = self.base()[0]
        acc = 0.0
        for c, w in pool.items():
            ctx = self.planner.context([*self.plan_hand, c])
            pts, plan = ctx.best()
            v = float(pts - base)
            left = left_after(ctx.hand, plan)
            if left[c] > 0:  # the card drawn is not laid
                rest = list(left.elements())
                v += 0.5 * self.keep_value(c, rest)
            acc += w * v
        return acc / total

    def discard_score(self, cards: Sequence[Card]) -> float:
        """Lower is a better discard: what is lost by letting these cards go."""
        hand = list(self.hand)
        total = 0.0
        planned = self._plan_cards
        if planned is None:
            planned = self._plan_cards = Counter()
            for g in self.base()[1]:
                planned.update(g.need)
        single = len(cards) == 1
        plan_cards = planned if single else planned.copy()  # counted down below: a copy
        for c in cards:
            k = self.keep_value(c, None if len(hand) == len(self.hand) else hand)  # nothing taken out yet: the hand's own masks
            if plan_cards[c] > 0:
                # A card of a meld we could lay: keep it (a meld we may not lay yet, say).
                k += 2 * self.value(c) + 10
                if not single:
                    plan_cards[c] -= 1
            d = self.danger(c)
            if self.recycling and c != _JK:
                # Nothing new comes: a card held back from the others only keeps the round going
                # (and is a card to be caught with); it is the way out that counts.
                d *= RECYCLE_DANGER
            total += k + d
            if c in hand:
                hand.remove(c)
        return total

    # -------------------------------------------------------------- rummy_after_going_out
    def left_rummy(self, groups: Sequence[Group], discard: Sequence[Card]) -> tuple[Card, ...] | None:
        """(``rummy_after_going_out``) What laying ``groups`` then going out by throwing ``discard`` brings back.

        A cautious estimate of the engine's rule, on the table and pile this
        seat sees: if the pile then holds a playable card, the cards above the
        one nearest the top come back into hand (an empty tuple: the discard
        itself is playable, and the hand floats empty). None: the seat goes out.
        (The engine makes it a Rummy only when another seat could legally call
        that card, which may turn on hands this seat cannot see: the estimate
        counts every playable card.)
        """
        if self.rules.going_out_rummy is None:
            return None
        return self._left_rummy_on(self._table_after(groups), discard)

    def _table_after(self, groups: Sequence[Group]) -> list[TableMeld] | None:
        """The table this seat sees once ``groups`` are laid on it, or None when they cannot all be laid."""
        rules = self.rules
        melds = list(self.view.melds)
        try:
            for g in groups:
                if g.on is None:
                    melds.append(make_meld(g.cards, rules, len(melds), self.seat))
                else:
                    melds[g.on] = extend_meld(melds[g.on], g.cards, rules, self.seat)
        except (MeldError, IndexError):
            return None
        return melds

    def _left_rummy_on(self, melds: list[TableMeld] | None, discard: Sequence[Card]) -> tuple[Card, ...] | None:
        """:meth:`left_rummy` on ``melds``, the table after the lays (None: they could not be laid, the seat goes out)."""
        mode = self.rules.going_out_rummy
        if mode is None or melds is None:
            return None
        rules = self.rules
        pile = (*self.view.discard, *discard)
        depths: Iterable[int] = [1] if mode is CallingRummy.TOP_CARD else range(1, len(pile) + 1)
        playable = fastmeld.playable_depths(fastmeld.tables(rules), melds, pile, depths)
        if not playable:
            return None
        return tuple(pile[len(pile) - playable[0] + 1 :])

    def rummy_safe_play(self, legal: Sequence[Action]) -> Action | None:
        """(``rummy_after_going_out``) A play that keeps a card back rather than go out into a Rummy, or None.

        When the hand's best plan lays every card but one and throws that one,
        and :meth:`left_rummy` says the throw would leave a callable card in
        the pile, going out fails: the cards above that card come back and
        the card is left for the others. Going out anyway is worth the plan's
        points less the risk of being caught with the cards that come back
        and the card given away; holding back one group of the plan keeps its
        cards (they may still be laid later, or be caught) and throws one of
        them or the last card (what it gives the opponents counted, as
        :meth:`danger` counts it). The better of the two is played: None when
        going out is better (or clean), else the next lay of the plan without
        the group held back, or, once those are laid, that discard.
        """
        view = self.view
        if self.rules.going_out_rummy is None or view.phase != "play":
            return None
        plan = self.base()[1]
        rest = left_after(view.hand, plan)
        if any(n < 0 for n in rest.values()):
            return None  # the plan spends the dealer's joker: not judged here
        left = list(rest.elements())
        if len(left) != 1 or Discard((left[0],)) not in legal:
            return None  # not going out by one discard now (a meld of every card goes out cleanly)
        back = self.left_rummy(plan, left)
        if back is None:
            return None
        risk = self.risk
        after = (*view.discard, left[0])
        given = after[-len(back) - 1]  # the callable card, left on top
        # Laying the held group later is worth its points if the round lasts; its cards
        # are caught if it does not. Going out into the Rummy lays everything now.
        go = -risk * sum(self.value(c) for c in back) - self.value(given)
        best: tuple[float, Group, Card] | None = None
        for g in plan:
            if view.obligation is not None and view.obligation in g.need:
                continue  # the card taken from the pile must be used this turn
            held = [*left, *g.need]
            for d in set(held):
                kept = list(held)
                kept.remove(d)
                v = (1 - risk) * g.points - risk * sum(self.value(c) for c in kept) - g.points - self.danger(d)
                if best is None or v > best[0]:
                    best = (v, g, d)
        if best is None or best[0] <= go:
            return None
        _, hold, throw = best
        for g in plan:
            if g is hold:
                continue
            lay: Action = Meld(g.cards) if g.on is None else LayOff(g.cards, g.on)
            if lay in legal:
                return lay
        out = Discard((throw,))
        return out if out in legal else None

    # -------------------------------------------------------------- masters_hand
    def masters_play(self, legal: Sequence[Action]) -> tuple[Action, float] | None:
        """(``masters_hand``) The next play of a Master's Hand this turn and its worth, or None.

        A Master's Hand lays a run of :data:`MASTERS_RUN` or more cards and
        goes out by a discard in the same turn; it scores
        :attr:`~rummy500.rules.Rules.masters_hand_score` for the round instead
        of the seat's melds. The line is: a legal run of that length (unless
        one was laid this turn already), then melds and lay-offs that lay
        every other card but the discard (the hand's best plan of the rest
        must lay them all), then the discard. Of the discards that finish
        the line, one that leaves no Rummy in the pile
        (``rummy_after_going_out``, :meth:`left_rummy`) is needed, and one
        that fits no meld of the table after the lays is preferred (under
        ``going_out: unplayable_discard`` a playable discard floats): the
        first such throw found is played, else the first that finishes the line.

        The worth is on :meth:`best_lay`'s scale: the score less this seat's
        points on the table now (what its round score rises by). Its first
        action is returned: the run, then the lays of the plan, then the discard.
        """
        score = self.rules.masters_hand_score
        view = self.view
        if score is None or view.phase != "play" or view.to_move != self.seat:
            return None
        discards = {a for a in legal if isinstance(a, Discard)}
        sizes = sorted({len(a.cards) for a in discards}) or [1]
        hand = self.ctx.hand
        if len(hand) < (0 if view.turn_long_run else MASTERS_RUN) + sizes[0]:
            return None
        runs: list[Group | None] = []
        if view.turn_long_run:
            runs.append(None)  # the run is on the table: lay the rest and go out
        else:
            for a in legal:
                if not isinstance(a, Meld) or len(a.cards) < MASTERS_RUN:
                    continue
                try:
                    meld = make_meld(a.cards, self.rules, len(view.melds), self.seat)
                except MeldError:
                    continue
                if meld.kind == RUN:
                    cards = tuple(a.cards)
                    runs.append(Group(cards, _need(cards), None, new_meld_points(meld, self.rules)))
        held = Counter(self.hand)
        rummy = self.rules.going_out_rummy is not None
        best: Action | None = None  # the first line found (its throw may float while no other is found)
        found = False  # a line whose throw fits no meld: the answer
        for run in runs:
            rest = hand if run is None else _sub(hand, run.need)
            if rest is None:
                continue
            for k in sizes:
                for throw in set(combinations(rest, k)):
                    if any(held[c] < n for c, n in Counter(throw).items()) or view.obligation in throw:
                        continue  # the discard is of the hand's own cards, not the card to use
                    out = Discard(throw)
                    if discards and out not in discards:
                        continue  # not a throw this seat may make (the top card just taken)
                    if found:
                        # The answer is settled, but the plan search still runs on the other throws:
                        # its node budget is the hand's, shared with the turn's later searches, and
                        # spending less of it here could change what they find (hands at the cap).
                        self._rest_plan(rest, throw)
                        continue
                    line = self._lay_all(rest, throw)
                    if line is None:
                        continue
                    groups = line if run is None else [run, *line]
                    melds: list[TableMeld] | None = None
                    if rummy:
                        melds = self._table_after(groups)  # laid once, for this question and the next
                        if self._left_rummy_on(melds, throw) is not None:
                            continue  # the throw would leave a Rummy: no going out, no Master's Hand
                    act = Meld(run.cards) if run is not None else self._group_action(line[0], legal) if line else out
                    if act is None or isinstance(act, Discard) and act not in discards:
                        continue  # (no throw is legal yet: the card taken must be used first)
                    if not self._fits(melds if rummy else self._table_after(groups), throw):
                        best, found = act, True
                    elif best is None:
                        best = act
        if best is None:
            return None
        table = sum(meld_points(m, self.rules).get(self.seat, 0) for m in view.melds)
        return best, float(score - table)

    def _rest_plan(self, rest: tuple[Card, ...], throw: tuple[Card, ...]) -> tuple[list[Card], list[Group]]:
        """``rest`` less ``throw``, and the best plan of it (searched in the hand's context)."""
        left = list(rest)
        for c in throw:
            left.remove(c)
        return left, list(self.ctx.best(left)[1]) if left else []

    def _lay_all(self, rest: tuple[Card, ...], throw: tuple[Card, ...]) -> list[Group] | None:
        """The best plan of ``rest`` less ``throw`` when it lays every card of the hand, else None.

        ``rest`` is of the planned hand: a free dealer's joker it holds need not be laid.
        """
        left, plan = self._rest_plan(rest, throw)
        over = +left_after(left, plan)
        # A joker left over is the dealer's (the engine spends its joker before the hand's)
        # unless the hand keeps one of its own besides the throw.
        jokers = over.pop(_JK, 0)
        if over or jokers and self.hand.count(_JK) > throw.count(_JK):
            return None
        return plan

    def _fits(self, melds: list[TableMeld] | None, throw: Sequence[Card]) -> bool:
        """Whether a card of ``throw`` fits a meld of ``melds``, the table after the lays (None: they could not be laid, taken as fitting)."""
        if melds is None:
            return True
        return any(not m.sealed and fits_alone(m, c, self.rules) for m in melds for c in throw)

    @staticmethod
    def _group_action(g: Group, legal: Sequence[Action]) -> Action | None:
        """The legal meld or lay-off that lays group ``g`` (its cards, on its meld), or None."""
        want: Action = Meld(g.cards) if g.on is None else LayOff(g.cards, g.on)
        if want in legal:
            return want
        for a in legal:
            if isinstance(a, Meld) and g.on is None and _need(tuple(a.cards)) == g.need:
                return a
            if isinstance(a, LayOff) and a.on == g.on and _need(tuple(a.cards)) == g.need:
                return a
        return None

    # -------------------------------------------------------------- policies
    def best_draw(self, legal: Sequence[Action], *, max_depth: int | None = None) -> tuple[Action, float]:
        """The best draw-phase action and its worth."""
        best: tuple[Action, float] | None = None
        for a in legal:
            match a:
                case Draw():
                    v = self.draw_value()
                case Take(k, split):
                    if max_depth is not None and k > max_depth:
                        continue
                    v = self.take_value(k, must_use=self.must_use(k, split=split), split=split)
                    if split:
                        v -= 4.0  # the joker spent
                case CallRummy(k, None, None):  # a steal is no draw: the bot's turn goes on after it
                    v = self.take_value(k, must_use=True)
                case Pass():
                    v = 0.0
                case _:
                    continue
            if best is None or v > best[1]:
                best = (a, v)
        if best is None:
            return legal[0], 0.0
        return best

    def best_lay(self, legal: Sequence[Action]) -> tuple[Action | None, float]:
        """The meld or lay-off that keeps the most points layable, and its worth.

        A lay worth no points (a wild joker under ``joker_value: 0`` or a Dealer's
        Gambit) is still worth :data:`GOING_OUT_LAY` when it leaves at most the
        card to throw: it goes out.
        """
        best: tuple[Action | None, float] = (None, float("-inf"))
        out: Action | None = None
        for a in legal:
            if isinstance(a, (Meld, LayOff)):
                v = self.lay_value(a)
                # Prefer new melds on ties: they score now and make room for more lay-offs.
                v += 0.01 * len(a.cards) if isinstance(a, Meld) else 0.0
                if v > best[1]:
                    best = (a, v)
                if out is None and v > float("-inf") and len(self.view.hand) - len(a.cards) <= 1:
                    out = a
        if best[1] <= 0 and out is not None:
            return out, GOING_OUT_LAY
        return best

    def loose_discards(self, discards: list[Discard], *, jokers: bool) -> list[Discard]:
        """The discards that keep every card of the hand's best plan (and, with ``jokers``, the jokers).

        When none does: those that keep the jokers (with ``jokers``), else all of them.
        """
        keep = {c for g in self.base()[1] for c in g.need}
        if jokers:
            keep.add(_JK)  # (a hand holds its jokers bare)
            loose = [d for d in discards if not any(c in keep for c in d.cards)]
            return loose or [d for d in discards if _JK not in d.cards] or discards
        return [d for d in discards if not any(c in keep for c in d.cards)] or discards

    def best_discard(self, legal: Sequence[Action]) -> Discard | None:
        """The discard that loses the least."""
        best: tuple[Discard | None, float] = (None, float("inf"))
        for a in legal:
            if isinstance(a, Discard):
                s = self.discard_score(a.cards)
                if s < best[1]:
                    best = (a, s)
        return best[0]
