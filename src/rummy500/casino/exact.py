"""Exact (combinatorial) analysis of Costa Rican Rummy on a finite shoe.

The method, in the order the numbers are built:

1. **Dealer.** For each up-card the dealer's possible draws form a small graph of
   card multisets (at most a few hundred nodes); the probabilities of 17-21 and
   bust for any shoe composition are one forward pass over it, with every card the
   dealer draws removed from the shoe. Results are memoized on the remaining
   composition, so every player hand is played against a dealer that has seen
   exactly the cards that left the shoe (the player's cards and the up-card).
2. **Player (composition dependent).** Standing, hitting and doubling are
   evaluated by recursion over the multiset of the player's cards, each hit card
   removed from the shoe; after each card the better of standing and hitting is
   taken (the optimal composition-dependent play).
3. **Third card and bonuses.** The bonuses depend on rank and suit, which the
   value recursion forgets, so the first decision is made card by card: every
   ordered (player card, player card, up-card) of the 52 distinct cards, each card
   removed exactly, and the bonus a hit or double would earn added from the exact
   count of each completing card still in the shoe.
4. **Splits** (the standard approximation): a split hand's second card and play
   are evaluated on the shoe less the up-card and both pair cards; the expected
   number of final hands of each kind (second card not a pair card, or a pair card
   once no more splits are allowed) comes from the re-split process with each
   re-split pair card removed; the split's value is the sum of count times value.
   This ignores the cards of the other split hands, an error of a few
   ten-thousandths of a percent.

Everything is exact rational-free floating point; the house edge is the negative
of the player's expectation per initial unit bet.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

from rummy500.casino.cards import Card, bonus_multiple
from rummy500.casino.rules import BENCHMARK, CasinoRules

__all__ = [
    "ACTIONS",
    "EdgeResult",
    "HandEVs",
    "ShoeAnalysis",
    "house_edge",
]

#: Action codes: stand, hit, double, split, surrender.
ACTIONS = ("S", "H", "D", "P", "R")

Shoe = tuple[int, ...]


def _full_shoe(decks: int) -> Shoe:
    return tuple([4 * decks] * 9 + [16 * decks])


def _take(shoe: Shoe, v: int) -> Shoe:
    s = list(shoe)
    s[v - 1] -= 1
    return tuple(s)


def _best(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


def _row(v1: int, v2: int) -> str:
    lo, hi = sorted((v1, v2))
    return f"P{lo}" if lo == hi else f"S{11 + hi}" if lo == 1 else f"H{lo + hi}"


@cache
def _dealer_graph(up: int, h17: bool) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, int, int], ...], ...]]:
    """The dealer's draw graph for an up-card: nodes are multisets drawn so far.

    Returns (cards drawn at each node, edges of each node). An edge is (value index,
    copies of that value already drawn at the node, target): a node index, or
    ``-1 - k`` for outcome k (0-4: 17-21, 5: bust).
    """
    nodes: list[tuple[int, ...]] = [(0,) * 10]
    index = {nodes[0]: 0}
    ncards = [0]
    edges: list[tuple[tuple[int, int, int], ...]] = []
    i = 0
    while i < len(nodes):
        m = nodes[i]
        hard = up + sum((j + 1) * c for j, c in enumerate(m))
        ace = up == 1 or m[0] > 0
        out = []
        for v in range(1, 11):
            h = hard + v
            if h > 21:
                out.append((v - 1, m[v - 1], -6))
                continue
            a = ace or v == 1
            if a and h <= 11:
                t = h + 10
                stands = t >= 18 or (t == 17 and not h17)
            else:
                t = h
                stands = h >= 17
            if stands:
                out.append((v - 1, m[v - 1], -1 - (t - 17)))
                continue
            child = list(m)
            child[v - 1] += 1
            key = tuple(child)
            j = index.get(key)
            if j is None:
                j = len(nodes)
                nodes.append(key)
                index[key] = j
                ncards.append(ncards[i] + 1)
            out.append((v - 1, m[v - 1], j))
        edges.append(tuple(out))
        i += 1
    return tuple(ncards), tuple(edges)


def dealer_outcomes(shoe: Shoe, up: int, h17: bool) -> tuple[float, ...]:
    """Probabilities of the dealer finishing on 17, 18, 19, 20, 21 and busting.

    Args:
        shoe: remaining count of each value 1-10 (the up-card already removed).
        up: the dealer's up-card value (1 = ace).
        h17: the dealer hits soft 17.

    >>> p = dealer_outcomes((4, 4, 4, 4, 3, 4, 4, 4, 4, 16), 5, False)
    >>> round(sum(p), 12), round(p[5], 4)
    (1.0, 0.4289)
    """
    ncards, edges = _dealer_graph(up, h17)
    total = sum(shoe)
    reach = [0.0] * len(ncards)
    reach[0] = 1.0
    out = [0.0] * 6
    for i, node_edges in enumerate(edges):
        r = reach[i]
        if not r:
            continue
        scale = r / (total - ncards[i])
        for vi, drawn, target in node_edges:
            c = shoe[vi] - drawn
            if c > 0:
                if target >= 0:
                    reach[target] += c * scale
                else:
                    out[~target] += c * scale
    return tuple(out)


@dataclass
class HandEVs:
    """Expectations (per unit of the initial bet, no bonus) of one value hand v1, v2 against an up-card.

    ``third`` lists per third-card value (1-10) its probability, the value of the
    hand after hitting it (then played optimally; -1 for a bust) and the value per
    unit bet of standing on it (-1 for a bust) for doubling. ``double`` is per the
    whole doubled bet (two units). ``split`` is ``None`` unless the two are a pair.
    """

    stand: float
    hit: float
    double: float
    split: float | None
    third: list[tuple[float, float, float]] = field(default_factory=list)


class ShoeAnalysis:
    """Memoized exact expectations for one shoe size and dealer rule.

    Args:
        decks: decks in the shoe.
        h17: the dealer hits soft 17.
    """

    def __init__(self, decks: int, h17: bool) -> None:
        self.decks = decks
        self.h17 = h17
        self.full = _full_shoe(decks)
        self._dealer: dict[tuple[Shoe, int], tuple[float, ...]] = {}
        self._stand: dict[tuple[Shoe, int, int], float] = {}
        self._hit: dict[tuple[Shoe, int, int, bool], float] = {}
        self.policy: Any = None

    def with_policy(self, chart: Any) -> ShoeAnalysis:
        """An analysis of the same shoe that plays ``chart`` (a :class:`~rummy500.casino.strategy.Chart`).

        Hands of three cards or more hit or stand by the chart's total-dependent
        table and split hands play the chart's rows, instead of the optimal play.
        The dealer and stand values are shared with this analysis.
        """
        other = ShoeAnalysis(self.decks, self.h17)
        other._dealer = self._dealer
        other._stand = self._stand
        other.policy = chart
        return other

    # -- building blocks ---------------------------------------------------------------

    def stand(self, shoe: Shoe, up: int, total: int) -> float:
        """Value of standing on ``total`` with ``shoe`` left (dealer's cards come from it)."""
        key = (shoe, up, total if total >= 17 else 16)
        v = self._stand.get(key)
        if v is None:
            dk = (shoe, up)
            d = self._dealer.get(dk)
            if d is None:
                d = self._dealer[dk] = dealer_outcomes(shoe, up, self.h17)
            if total < 17:
                v = 2 * d[5] - 1
            else:
                v = d[5]
                for k in range(5):
                    if 17 + k < total:
                        v += d[k]
                    elif 17 + k > total:
                        v -= d[k]
            self._stand[key] = v
        return v

    def _after_card(self, shoe: Shoe, up: int, hard: int, ace: bool) -> float:
        """Best value of a hand just dealt a card (shoe already without it); -1 if bust."""
        if hard > 21:
            return -1.0
        t = _best(hard, ace)
        if t == 21:
            return self.stand(shoe, up, 21)
        if self.policy is not None:
            key = f"S{t}" if t != hard else f"H{hard}"
            if self.policy.hit_stand[key][up] == "S":
                return self.stand(shoe, up, t)
            return self.hit(shoe, up, hard, ace)
        if t <= 11:  # standing on 11 or less is never better than a hit that cannot bust
            return self.hit(shoe, up, hard, ace)
        return max(self.stand(shoe, up, t), self.hit(shoe, up, hard, ace))

    def hit(self, shoe: Shoe, up: int, hard: int, ace: bool) -> float:
        """Value of hitting (then playing on optimally) a hand of ``hard`` points."""
        key = (shoe, up, hard, ace)
        v = self._hit.get(key)
        if v is None:
            n = sum(shoe)
            v = 0.0
            for val in range(1, 11):
                c = shoe[val - 1]
                if c:
                    v += c / n * self._after_card(_take(shoe, val), up, hard + val, ace or val == 1)
            self._hit[key] = v
        return v

    def third_cards(self, shoe: Shoe, up: int, hard: int, ace: bool) -> list[tuple[float, float, float]]:
        """Per next-card value: (probability, value after it played on, value standing on it)."""
        n = sum(shoe)
        rows = []
        for val in range(1, 11):
            c = shoe[val - 1]
            if not c:
                rows.append((0.0, 0.0, 0.0))
                continue
            s2 = _take(shoe, val)
            h = hard + val
            a = ace or val == 1
            after = self._after_card(s2, up, h, a)
            stood = -1.0 if h > 21 else self.stand(s2, up, _best(h, a))
            rows.append((c / n, after, stood))
        return rows

    # -- splits --------------------------------------------------------------------------

    def split(self, pair: int, up: int, rules: CasinoRules) -> float:
        """Value of splitting a pair of ``pair`` (value) against ``up`` (total over all hands)."""
        shoe = _take(_take(_take(self.full, up), pair), pair)
        n = sum(shoe)
        one_card = pair == 1 and not rules.draw_split_aces
        values = []
        for val in range(1, 11):
            c = shoe[val - 1]
            if not c:
                values.append(0.0)
                continue
            s2 = _take(shoe, val)
            hard = pair + val
            ace = pair == 1 or val == 1
            t = _best(hard, ace)
            if one_card:
                values.append(self.stand(s2, up, t))
                continue
            if self.policy is not None:
                acts = self.policy.rows[_row(pair, val)][up]
                choice = next(a for a in acts if a in ("S", "H") or (a == "D" and rules.das))
            else:
                choice = "*"
            if choice == "S":
                values.append(self.stand(s2, up, t))
                continue
            if choice == "H":
                values.append(self.hit(s2, up, hard, ace))
                continue
            best = max(self.stand(s2, up, t), self.hit(s2, up, hard, ace)) if choice == "*" else -9.0
            if rules.das:
                dbl = 0.0
                for r in self.third_cards(s2, up, hard, ace):
                    dbl += r[0] * r[2]
                best = max(best, 2 * dbl)
            values.append(best)
        p_pair = shoe[pair - 1] / n
        ev_other = sum(shoe[v - 1] / n * values[v - 1] for v in range(1, 11) if v != pair) / (1 - p_pair)
        ev_pair = values[pair - 1]
        limit = rules.max_hands if (pair != 1 or rules.resplit_aces) else 2
        n_other, n_pair = _split_counts(shoe[pair - 1], n, limit)
        return n_other * ev_other + n_pair * ev_pair

    # -- the two-card table ---------------------------------------------------------------

    def hand(self, v1: int, v2: int, up: int, rules: CasinoRules) -> HandEVs:
        """Expectations of the value hand v1, v2 against ``up`` (no bonus, no surrender)."""
        shoe = _take(_take(_take(self.full, up), v1), v2)
        hard = v1 + v2
        ace = v1 == 1 or v2 == 1
        third = self.third_cards(shoe, up, hard, ace)
        hit = sum(p * a for p, a, _ in third)
        double = 2 * sum(p * s for p, _, s in third)
        stand = self.stand(shoe, up, _best(hard, ace))
        split = self.split(v1, up, rules) if v1 == v2 and rules.max_hands >= 2 else None
        return HandEVs(stand, hit, double, split, third)


def _split_counts(pairs_left: int, cards: int, limit: int) -> tuple[float, float]:
    """Expected final split hands whose second card is not / is a pair card (no re-split left).

    Starts from two one-card hands; each pair card drawn while fewer than ``limit``
    hands exist starts another hand. ``pairs_left`` of ``cards`` are pair cards,
    each removed as it is drawn.
    """

    @cache
    def go(pending: int, hands: int, drawn_pairs: int, drawn: int) -> tuple[float, float]:
        if pending == 0:
            return 0.0, 0.0
        q = max(pairs_left - drawn_pairs, 0) / (cards - drawn)
        a, b = go(pending - 1, hands, drawn_pairs, drawn + 1)
        other = (1 - q) * (a + 1)
        pair_b = (1 - q) * b
        if hands < limit:
            c, d = go(pending + 1, hands + 1, drawn_pairs + 1, drawn + 1)
            return other + q * c, pair_b + q * d
        c, d = go(pending - 1, hands, drawn_pairs + 1, drawn + 1)
        return other + q * c, pair_b + q * (d + 1)

    return go(2, 2, 0, 0)


@dataclass
class EdgeResult:
    """The player's expectation under optimal play, and what it was made of.

    Attributes:
        rules: the rules analysed.
        ev: the player's expectation per unit of initial bet (negative: the house wins).
        bonus: the part of ``ev`` that bonuses pay.
        by_up: the part of ``ev`` from each dealer up-card value.
        classes: per starting class ``"r1,r2,suited,up"`` (ranks 1-13, r1 <= r2; suited
            0/1; up-card value 1-10): ``[probability, EV of S, H, D, P, R]`` with each EV
            the probability-weighted mean over that class (``None``: not allowed).
    """

    rules: CasinoRules
    ev: float
    bonus: float
    classes: dict[str, list[float | None]]
    by_up: dict[int, float] = field(default_factory=dict)

    @property
    def edge(self) -> float:
        """The house edge in percent."""
        return -100 * self.ev

    def to_json(self) -> str:
        """The result as JSON (rules as an object)."""
        return json.dumps(
            {"rules": asdict(self.rules), "ev": self.ev, "bonus": self.bonus, "classes": self.classes, "by_up": self.by_up}
        )

    @classmethod
    def from_json(cls, text: str) -> EdgeResult:
        """The inverse of :meth:`to_json`."""
        d = json.loads(text)
        by_up = {int(k): v for k, v in d["by_up"].items()}
        return cls(CasinoRules(**d["rules"]), d["ev"], d["bonus"], d["classes"], by_up)


_ANALYSES: dict[tuple[int, bool], ShoeAnalysis] = {}


def shoe_analysis(decks: int, h17: bool) -> ShoeAnalysis:
    """The shared memoized analysis for a shoe size and dealer rule."""
    key = (decks, h17)
    if key not in _ANALYSES:
        _ANALYSES[key] = ShoeAnalysis(decks, h17)
    return _ANALYSES[key]


def hand_table(
    rules: CasinoRules,
    ups: tuple[int, ...] = tuple(range(1, 11)),
    progress: Callable[[int], None] | None = None,
    sa: ShoeAnalysis | None = None,
) -> dict[tuple[int, int, int], HandEVs]:
    """The value-hand expectations for every two-card hand against the given up-cards."""
    sa = sa or shoe_analysis(rules.decks, rules.h17)
    table = {}
    for up in ups:
        for v1 in range(1, 11):
            for v2 in range(v1, 11):
                table[(v1, v2, up)] = sa.hand(v1, v2, up, rules)
        if progress:
            progress(up)
    return table


def _bonus_cards(c1: Card, c2: Card, rules: CasinoRules) -> list[tuple[Card, int]]:
    if c1.rank != c2.rank and c1.suit != c2.suit:
        return []
    out = []
    for r in range(1, 14):
        for s in range(4):
            c3 = Card(r, s)
            m = bonus_multiple((c1, c2, c3), rules)
            if m:
                out.append((c3, m))
    return out


def house_edge(
    rules: CasinoRules = BENCHMARK,
    ups: tuple[int, ...] = tuple(range(1, 11)),
    progress: Callable[[int], None] | None = None,
    chart: Any = None,
) -> EdgeResult:
    """The exact expectation of optimal play, or of a chart (see the module docstring for the method).

    Args:
        rules: the table rules.
        ups: restrict the sum to these dealer up-card values (a partial sum, for tests
            and progress; the full edge needs all ten).
        progress: called with each up-card value once its hands are done.
        chart: play this basic strategy (:class:`~rummy500.casino.strategy.Chart`)
            instead of the optimal composition-dependent play.
    """
    sa = shoe_analysis(rules.decks, rules.h17)
    if chart is not None:
        sa = sa.with_policy(chart)
    table = hand_table(rules, ups, progress, sa)
    d = rules.decks
    n = 52 * d
    deck = [Card(r, s) for r in range(1, 14) for s in range(4)]
    ev = 0.0
    bonus_ev = 0.0
    by_up = dict.fromkeys(ups, 0.0)
    agg: dict[tuple[int, int, int, int], list[float]] = {}
    for r1 in range(1, 14):
        c1 = Card(r1, 0)  # suits are symmetric: the first card's suit is fixed, weight 4
        for c2 in deck:
            w12 = 4 * d / n * (d - (c2 == c1)) / (n - 1)
            bonus_cards = _bonus_cards(c1, c2, rules)
            lo, hi = sorted((c1.value, c2.value))
            suited = int(c1.suit == c2.suit)
            rlo, rhi = sorted((c1.rank, c2.rank))
            for cu in deck:
                if cu.value not in ups:
                    continue
                w = w12 * (d - (cu == c1) - (cu == c2)) / (n - 2)
                e = table[(lo, hi, cu.value)]
                hit, dbl = e.hit, e.double
                b = 0.0
                for c3, m in bonus_cards:
                    p = (d - (c3 == c1) - (c3 == c2) - (c3 == cu)) / (n - 3)
                    if not p:
                        continue
                    row = e.third[c3.value - 1]
                    b += p * m
                    if not rules.bonus_adds:
                        hit -= p * row[1]
                        dbl -= 2 * p * row[2]
                hit += b
                dbl += 2 * b
                options: list[float | None] = [e.stand, hit, dbl, e.split, -0.5 if rules.surrender else None]
                if chart is None:
                    best = max(x for x in options if x is not None)
                else:
                    allowed = [a for a, x in zip(ACTIONS, options, strict=True) if x is not None]
                    best = options[ACTIONS.index(chart.advise([c1, c2], cu.value, allowed, True))]  # type: ignore[assignment]
                ev += w * best
                by_up[cu.value] += w * best
                if best == hit:
                    bonus_ev += w * b
                elif best == dbl:
                    bonus_ev += w * 2 * b
                key = (rlo, rhi, suited, cu.value)
                a = agg.get(key)
                if a is None:
                    a = agg[key] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
                a[0] += w
                for i, x in enumerate(options, 1):
                    if x is not None:
                        a[i] += w * x
    classes: dict[str, list[float | None]] = {}
    for (rlo, rhi, suited, up), a in sorted(agg.items()):
        pair_ok = table[(min(rlo, 10), min(rhi, 10), up)].split is not None if min(rlo, 10) == min(rhi, 10) else False
        evs: list[float | None] = [a[i] / a[0] for i in range(1, 6)]
        if not pair_ok:
            evs[3] = None
        if not rules.surrender:
            evs[4] = None
        classes[f"{rlo},{rhi},{suited},{up}"] = [a[0], *evs]
    return EdgeResult(rules, ev, bonus_ev, classes, by_up)
