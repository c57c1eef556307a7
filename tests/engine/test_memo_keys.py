"""The memo tables of :mod:`rummy500.fastmeld` key a shape by the cards that can matter only.

A suit's runs are keyed by the ranks some run can hold (:func:`fastmeld.run_ranks`),
and the lay-offs on a run by the held ranks a lay-off can reach
(``fastmeld._end_ranks``): every hand that shares such a key must get the same
runs and the same lay-offs as its own full rank mask gives. Hypothesis draws the
masks; the shape functions are the ones the memo tables are filled by.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy500 import fastmeld
from rummy500.tablemeld import TableMeld

MASKS = st.integers(min_value=0, max_value=(1 << 14) - 1).map(lambda m: m & fastmeld.RANKS)


def _tables(short: bool, min_len: int) -> fastmeld.Tables:
    return fastmeld.Tables(wrap=False, short=short, min_len=min_len, distinct=True, cap=4, wild=True)


@settings(max_examples=400, deadline=None)
@given(MASKS, st.integers(0, 4), st.booleans(), st.sampled_from([3, 4]), st.integers(0, 3))
def test_runs_depend_only_on_the_ranks_a_run_can_hold(sm: int, jokers: int, short: bool, min_len: int, suit: int) -> None:
    t = _tables(short, min_len)
    kept = fastmeld.run_ranks(sm, jokers)
    assert kept & ~sm == 0
    assert fastmeld._suit_runs(t, suit, kept, jokers) == fastmeld._suit_runs(t, suit, sm, jokers)


@settings(max_examples=400, deadline=None)
@given(MASKS, st.integers(0, 2), st.booleans(), st.integers(1, 12), st.integers(2, 13), st.integers(0, 3))
def test_run_layoffs_depend_only_on_the_ranks_a_layoff_can_reach(
    sm: int, jokers: int, short: bool, lo: int, span: int, suit: int
) -> None:
    hi = min(14, lo + span)
    positions = tuple(range(lo, hi + 1))
    cards = tuple(fastmeld._CARD[suit * 16 + (p - 1) % 13 + 1] for p in positions)
    n = len(cards)
    meld = TableMeld(0, "run", cards, (0,) * n, positions, suit, 0, n, 0, (False,) * n)
    t = _tables(short, 3)
    kept = fastmeld._end_ranks(sm, lo, hi, jokers)
    assert kept & ~sm == 0
    assert fastmeld._run_layoffs(t, meld, kept, jokers) == fastmeld._run_layoffs(t, meld, sm, jokers)
