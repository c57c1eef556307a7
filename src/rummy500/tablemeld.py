"""A meld on the table: the value the rules, the views and the enumeration share.

It lives alone so that :mod:`rummy500.melds` (the rules of melds) and
:mod:`rummy500.fastmeld` (their fast enumeration, which :mod:`~rummy500.melds`
uses) can both name it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummy500.cards import Card

__all__ = ["TableMeld", "new_meld"]


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table. Immutable: a lay-off builds a new one with the same id.

    Attributes:
        id: 0, 1, 2 ... in the order melds were laid down this round.
        kind: ``set``, ``run`` or ``jokers`` (Persian joker set).
        cards: the cards; a run's in position order.
        laid_by: the seat that laid each card.
        positions: a run's card positions (empty for sets).
        suit: a run's suit (-1 for sets).
        rank: a set's rank (0 for runs and joker sets).
        initial: how many cards were laid down when the meld was made.
        owner: the seat that laid the meld down.
        claimed: per card, True when it was claimed by calling Rummy.
        sealed: (Dealer's Gambit double) nothing more may be laid off.
        doubled: (Dealer's Gambit double) the set's value counts double.
        swapped: (``joker_swap``) a joker among the cards laid when the meld was made
            was later replaced by a natural: those cards were not all naturals when laid
            (no ``four_aces_bonus`` for them).
    """

    id: int
    kind: str
    cards: tuple[Card, ...]
    laid_by: tuple[int, ...]
    positions: tuple[int, ...] = ()
    suit: int = -1
    rank: int = 0
    initial: int = 0
    owner: int = 0
    claimed: tuple[bool, ...] = ()
    sealed: bool = False
    doubled: bool = False
    swapped: bool = False

    def to_dict(self) -> dict[str, object]:
        """The meld as JSON: ``id``, ``cards``, ``laid_by``, ``kind`` and flags (``claimed``: one per card)."""
        out: dict[str, object] = {
            "id": self.id,
            "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "laid_by": list(self.laid_by),
            "owner": self.owner,
        }
        if self.sealed:
            out["sealed"] = True
        if self.doubled:
            out["doubled"] = True
        if self.swapped:
            out["swapped"] = True
        if any(self.claimed):  # (the cards claimed by calling Rummy, one flag per card: public, as the call was)
            out["claimed"] = list(self.claimed)
        return out


class _Draft:
    """A TableMeld being built: the same slots, written as plain attributes, then made a TableMeld in place."""

    __slots__ = TableMeld.__slots__


_new = object.__new__


def new_meld(
    id: int,  # noqa: A002 - the field's name
    kind: str,
    cards: tuple[Card, ...],
    laid_by: tuple[int, ...],
    positions: tuple[int, ...],
    suit: int,
    rank: int,
    initial: int,
    owner: int,
    claimed: tuple[bool, ...],
    sealed: bool,
    doubled: bool,
    swapped: bool = False,
) -> TableMeld:
    """``TableMeld(...)`` with every field given in order, without the frozen dataclass's per-field ``object.__setattr__``.

    For the meld rules (:mod:`rummy500.melds`), which build melds constantly.
    """
    m: Any = _new(_Draft)
    m.id = id
    m.kind = kind
    m.cards = cards
    m.laid_by = laid_by
    m.positions = positions
    m.suit = suit
    m.rank = rank
    m.initial = initial
    m.owner = owner
    m.claimed = claimed
    m.sealed = sealed
    m.doubled = doubled
    m.swapped = swapped
    m.__class__ = TableMeld  # immutable from now on
    built: TableMeld = m
    return built
