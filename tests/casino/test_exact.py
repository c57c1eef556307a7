"""The exact analysis: its parts against brute force, and its figures against the published ones."""

from __future__ import annotations

import pytest

from rummy500.casino.exact import _split_counts, dealer_outcomes, house_edge
from rummy500.casino.rules import BENCHMARK, VARIANTS
from rummy500.casino.strategy import chart_for, shipped_rules


def brute_dealer(shoe: list[int], cards: list[int], h17: bool) -> list[float]:
    """Every ordered draw, one card at a time, with its probability."""
    hard = sum(cards)
    soft = 1 in cards and hard <= 11
    total = hard + 10 if soft else hard
    if total > 21:
        return [0, 0, 0, 0, 0, 1]
    if len(cards) >= 2 and (total > 17 or (total == 17 and not (h17 and soft))):
        out = [0.0] * 6
        out[total - 17] = 1
        return out
    n = sum(shoe)
    out = [0.0] * 6
    for v in range(1, 11):
        if shoe[v - 1]:
            p = shoe[v - 1] / n
            shoe[v - 1] -= 1
            sub = brute_dealer(shoe, [*cards, v], h17)
            shoe[v - 1] += 1
            out = [a + p * b for a, b in zip(out, sub, strict=True)]
    return out


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("up", [1, 2, 6, 10])
def test_dealer_outcomes_match_brute_force_on_a_small_shoe(up: int, h17: bool) -> None:
    shoe = [2, 1, 2, 1, 1, 2, 1, 1, 1, 5]
    got = dealer_outcomes(tuple(shoe), up, h17)
    want = brute_dealer(shoe, [up], h17)
    assert got == pytest.approx(want, abs=1e-12)


def test_split_hand_counts() -> None:
    assert _split_counts(0, 100, 4) == (2.0, 0.0)  # no pair card left: two hands
    other, pair = _split_counts(10, 100, 2)  # no re-split: still two hands, some of them pairs
    assert other + pair == pytest.approx(2) and pair == pytest.approx(2 * 10 / 100, rel=0.05)
    other, pair = _split_counts(1, 10, 4)  # one pair card in ten: drawn by one of the first two with p 0.2
    assert (other, pair) == (pytest.approx(2.2), 0.0)


def test_shipped_figures_reproduce_the_published_house_edge_and_variant_effects() -> None:
    base = chart_for(BENCHMARK, compute=False)
    assert base is not None
    assert base.edge == pytest.approx(1.00, abs=0.02)
    for name, rules, published in VARIANTS:
        chart = chart_for(rules, compute=False)
        assert chart is not None, name
        assert chart.edge - base.edge == pytest.approx(published, abs=0.02), name


@pytest.mark.parametrize("rules", [r for r in shipped_rules() if not r.h17], ids=lambda r: r.describe())
def test_shipped_figures_are_what_the_analysis_computes(rules) -> None:
    """A test-sized run: the dealer-ten part of the sum, recomputed (the full run is benchmarks/casino_exact.py).

    (Against a ten the dealer can never hold soft 17, so the hits-soft-17 set is left to the benchmark.)
    """
    shipped = chart_for(rules, compute=False)
    assert shipped is not None
    part = house_edge(rules, ups=(10,))
    assert part.by_up[10] == pytest.approx(shipped.by_up[10], abs=1e-12)
    assert sum(shipped.by_up.values()) == pytest.approx(shipped.ev, abs=1e-12)
