"""Shared builders for the format tests: rules, names and constructed round results."""

from __future__ import annotations

from collections.abc import Sequence

from rummy500 import Rules
from rummy500.scoring import RoundResult


def rules(**options: object) -> Rules:
    return Rules.from_mapping(dict(options))


def names(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def result(
    scores: Sequence[int],
    table: Sequence[int] | None = None,
    hand: Sequence[int] | None = None,
    went_out: int | None = None,
) -> RoundResult:
    """A round result; by default every point came from the table and no hand was left."""
    table = list(table) if table is not None else [max(s, 0) for s in scores]
    hand = list(hand) if hand is not None else [t - s for t, s in zip(table, scores, strict=True)]
    return RoundResult(list(scores), table, hand, went_out)
