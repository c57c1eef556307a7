"""Basic strategy computed from the exact analysis, and the advice it gives at the table.

The chart is total dependent, as printed charts are: for each two-card row (hard
total, soft total or pair) and up-card, the actions ranked by their expectation
averaged over every unsuited two-card hand of that row, card removal included. The
bonuses add **exceptions** for suited hands (a straight-flush or suited three of a
kind draw): a suited two-card hand whose best play differs both from the same ranks
unsuited and from its row is listed with its own ranking. Hands of three or more
cards hit or stand by a total-dependent table computed on the shoe less the up-card.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from rummy500.casino.cards import RANKS, Card, is_soft
from rummy500.casino.exact import ACTIONS, EdgeResult, _take, house_edge, shoe_analysis
from rummy500.casino.rules import BENCHMARK, VARIANTS, CasinoRules

__all__ = ["Chart", "UPS", "advise", "build_chart", "chart_for", "row_of", "shipped_rules"]

#: Dealer up-card values in chart order (2-10, then ace).
UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
_UP_LABEL = {1: "A", 10: "T"}


def row_of(v1: int, v2: int) -> str:
    """The chart row of a two-card hand by values: ``P8`` (pair), ``S17`` (soft), ``H12`` (hard).

    >>> row_of(8, 8), row_of(1, 6), row_of(10, 2)
    ('P8', 'S17', 'H12')
    """
    lo, hi = sorted((v1, v2))
    if lo == hi:
        return f"P{lo}"
    if lo == 1:
        return f"S{11 + hi}"
    return f"H{lo + hi}"


@dataclass
class Chart:
    """A computed basic strategy, with the exact figures it came from.

    Attributes:
        rules: the rules it is for.
        ev: the player's expectation (optimal play, exact analysis).
        bonus: the part of ``ev`` paid by bonuses.
        by_up: ``ev`` by up-card value.
        rows: row -> up-card value -> actions, best first.
        exceptions: ``"r1,r2"`` (ranks of a suited hand, r1 <= r2) -> up-card value -> actions.
        hit_stand: ``H4``-``H21``/``S12``-``S21`` -> up-card -> ``H`` or ``S``, for three cards or more.
        basic_ev: the exact expectation of playing this chart (``None``: not computed).
    """

    rules: CasinoRules
    ev: float
    bonus: float
    by_up: dict[int, float]
    rows: dict[str, dict[int, list[str]]]
    exceptions: dict[str, dict[int, list[str]]] = field(default_factory=dict)
    hit_stand: dict[str, dict[int, str]] = field(default_factory=dict)
    basic_ev: float | None = None

    @property
    def edge(self) -> float:
        """The house edge in percent (optimal play)."""
        return -100 * self.ev

    def advise(self, cards: list[Card], up: int, allowed: list[str], original: bool) -> str:
        """The action this chart plays (see :func:`advise`)."""
        return advise(self, cards, up, allowed, original)

    @property
    def basic_edge(self) -> float | None:
        """The house edge in percent of playing this chart, when computed."""
        return None if self.basic_ev is None else -100 * self.basic_ev

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "rules": asdict(self.rules),
            "ev": self.ev,
            "bonus": self.bonus,
            "by_up": self.by_up,
            "rows": self.rows,
            "exceptions": self.exceptions,
            "hit_stand": self.hit_stand,
            "basic_ev": self.basic_ev,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chart:
        """The inverse of :meth:`to_dict` (also after a JSON round trip)."""

        def ints(m: dict[str, Any]) -> dict[int, Any]:
            return {int(k): v for k, v in m.items()}

        return cls(
            CasinoRules(**d["rules"]),
            d["ev"],
            d["bonus"],
            ints(d["by_up"]),
            {k: ints(v) for k, v in d["rows"].items()},
            {k: ints(v) for k, v in d["exceptions"].items()},
            {k: ints(v) for k, v in d["hit_stand"].items()},
            d.get("basic_ev"),
        )

    def cell(self, row: str, up: int) -> str:
        """The chart's code for a row and up-card: ``H S P``, or ``Dh Ds Rh Rs Rp`` (else ...)."""
        acts = self.rows[row][up]
        return _code(acts)

    def exception_lines(self) -> list[str]:
        """The suited exceptions in words, one line per hand and action."""
        lines = []
        for key, by_up in sorted(self.exceptions.items(), key=lambda kv: [int(x) for x in kv[0].split(",")]):
            r1, r2 = (int(x) for x in key.split(","))
            row = row_of(min(r1, 10), min(r2, 10))
            groups: dict[str, list[int]] = {}
            for up in UPS:
                if up in by_up:
                    groups.setdefault(_code(by_up[up]), []).append(up)
            name = f"suited {RANKS[r1 - 1]}{RANKS[r2 - 1]}"
            for code, ups in groups.items():
                against = " ".join(_UP_LABEL.get(u, str(u)) for u in ups)
                chart = "/".join(sorted({self.cell(row, u) for u in ups}))
                lines.append(f"{name}: {code} against {against} (chart {row}: {chart})")
        return lines


def _code(acts: list[str]) -> str:
    first = acts[0]
    if first in "DR" and len(acts) > 1:
        second = next((a for a in acts[1:] if a != "D"), acts[1]) if first == "R" else acts[1]
        return first + second.lower()
    return first


def _ranked(evs: list[float | None]) -> list[str]:
    pairs = [(ev, a) for a, ev in zip(ACTIONS, evs, strict=True) if ev is not None]
    return [a for ev, a in sorted(pairs, key=lambda p: -p[0])]


def _hit_stand_table(rules: CasinoRules) -> dict[str, dict[int, str]]:
    sa = shoe_analysis(rules.decks, rules.h17)
    table: dict[str, dict[int, str]] = {}
    for up in range(1, 11):
        shoe = _take(sa.full, up)
        n = sum(shoe)

        @cache
        def best(hard: int, ace: bool, shoe: tuple[int, ...] = shoe, up: int = up, n: int = n) -> tuple[float, str]:
            t = hard + 10 if ace and hard <= 11 else hard
            stand = sa.stand(shoe, up, t)
            if t >= 21:
                return stand, "S"
            hit = 0.0
            for v in range(1, 11):
                if hard + v > 21:
                    hit -= shoe[v - 1] / n
                else:
                    hit += shoe[v - 1] / n * best(hard + v, ace or v == 1)[0]
            return (hit, "H") if hit > stand else (stand, "S")

        for hard in range(4, 22):
            table.setdefault(f"H{hard}", {})[up] = best(hard, False)[1]
        for hard in range(2, 12):
            table.setdefault(f"S{hard + 10}", {})[up] = best(hard, True)[1]
    return table


def build_chart(rules: CasinoRules = BENCHMARK, result: EdgeResult | None = None, basic: bool = False) -> Chart:
    """Compute the basic strategy (and the exact edge) for ``rules``; minutes for a new shoe size.

    Args:
        rules: the table rules.
        result: the exact analysis of ``rules``, when already computed.
        basic: also compute the exact expectation of playing the chart (as long again).
    """
    res = result or house_edge(rules)
    sums: dict[tuple[str, int], list[float]] = {}
    best_of: dict[tuple[int, int, int, int], list[str]] = {}
    for key, (weight_or_none, *evs) in res.classes.items():
        weight = weight_or_none or 0.0
        r1, r2, suited, up = (int(x) for x in key.split(","))
        best_of[(r1, r2, suited, up)] = _ranked(evs)
        if suited:
            continue
        acc = sums.setdefault((row_of(min(r1, 10), min(r2, 10)), up), [0.0] * 6)
        acc[0] += weight
        for i, ev in enumerate(evs, 1):
            acc[i] = float("nan") if ev is None else acc[i] + weight * ev
    rows: dict[str, dict[int, list[str]]] = {}
    for (row, up), acc in sums.items():
        evs = [None if x != x else x / acc[0] for x in acc[1:]]
        rows.setdefault(row, {})[up] = _ranked(evs)
    exceptions: dict[str, dict[int, list[str]]] = {}
    for (r1, r2, suited, up), acts in best_of.items():
        if not suited:
            continue
        plain = best_of.get((r1, r2, 0, up))
        row_best = rows[row_of(min(r1, 10), min(r2, 10))][up][0]
        if plain is not None and acts[0] != plain[0] and acts[0] != row_best:
            exceptions.setdefault(f"{r1},{r2}", {})[up] = acts
    chart = Chart(rules, res.ev, res.bonus, res.by_up, rows, exceptions, _hit_stand_table(rules))
    if basic:
        chart.basic_ev = house_edge(rules, chart=chart).ev
    return chart


def shipped_rules() -> list[CasinoRules]:
    """The rule sets whose charts ship precomputed: the benchmark and the seed's variants."""
    return [BENCHMARK] + [r for _, r, _ in VARIANTS]


@cache
def _shipped() -> dict[str, dict[str, Any]]:
    text = resources.files("rummy500.casino").joinpath("data/charts.json").read_text()
    return {json.dumps(c["rules"], sort_keys=True): c for c in json.loads(text)["charts"]}


def chart_for(rules: CasinoRules = BENCHMARK, compute: bool = True) -> Chart | None:
    """The chart for ``rules``: precomputed when shipped, else computed (slow) or ``None``."""
    d = _shipped().get(json.dumps(asdict(rules), sort_keys=True))
    if d is not None:
        return Chart.from_dict(d)
    return build_chart(rules) if compute else None


def advise(chart: Chart, cards: list[Card], up: int, allowed: list[str], original: bool) -> str:
    """The basic-strategy action for a hand.

    Args:
        chart: the strategy.
        cards: the hand.
        up: the dealer's up-card value.
        allowed: the action codes allowed now.
        original: the hand can still win a bonus (not from a split).

    Returns:
        An action code from ``allowed``.
    """
    if len(cards) == 2:
        c1, c2 = cards
        acts = chart.rows[row_of(c1.value, c2.value)][up]
        if original and c1.suit == c2.suit:
            lo, hi = sorted((c1.rank, c2.rank))
            acts = chart.exceptions.get(f"{lo},{hi}", {}).get(up, acts)
        for a in acts:
            if a in allowed:
                return a
    hard = sum(c.value for c in cards)
    key = f"S{hard + 10}" if is_soft(cards) else f"H{min(hard, 21)}"
    choice = chart.hit_stand.get(key, {}).get(up, "S")
    return choice if choice in allowed else allowed[0] if "S" not in allowed else "S"
