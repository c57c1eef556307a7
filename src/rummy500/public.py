"""The public part of a round: everything every seat at the table can see.

:class:`Public` is declared once and everything else is derived from it. A
:class:`~rummy500.state.RoundState` holds its public part as one ``Public``
value, ``state.public``, replaced (never changed) by each action; the hands
and the order of the stock are the only private parts, so ``copy()`` copies
those and shares the public value. The :class:`~rummy500.views.View` is a
``Public`` plus one seat's hand, its legal actions and its rule facts;
``View.to_dict()`` (the JSON every client gets), the position notation and
:func:`~rummy500.state.state_from_view` are generated from the fields.

Adding a stateful rule therefore means declaring its field here (with
whether the rules set it or it follows from the private parts, see
:data:`HELD`), then writing the rule in :mod:`rummy500.state`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from rummy500.cards import Card
from rummy500.melds import TableMeld

__all__ = ["HELD", "Phase", "Public", "PUBLIC_HELD", "copy_public"]


class Phase(StrEnum):
    """Where a round stands."""

    NOMINATE = "nominate"  # Dealer's Gambit: the dealer says what jokers do
    DRAW = "draw"
    PLAY = "play"
    SHUFFLE = "shuffle"  # stock_out: reshuffle -- a chance event is due
    ROUND_OVER = "round_over"


def _held(kind: str) -> Any:
    """Field metadata: how a round holds the value while it changes (see :data:`HELD`)."""
    return field(metadata={"held": kind})


@dataclass(frozen=True, slots=True)
class Public:
    """A round's public facts (a snapshot; cards as :class:`~rummy500.cards.Card`).

    Attributes:
        players: number of seats.
        dealer: the dealer's seat.
        to_move: whose turn it is.
        phase: nominate, draw, play, shuffle (a reshuffle is due) or round_over.
        hand_sizes: cards in each hand.
        stock_count: cards left in the stock.
        discard: the discard pile, bottom first (all of it face up).
        melds: the table melds, with who laid each card.
        known: per seat, the cards seen taken into the hand (from the pile, or a
            joker from a meld by a swap) and still held.
        obligation: a card the player to move took from the pile and must use.
        taken_top: the single top card taken this turn (may not go back).
        drawn: cards the player to move drew this turn (``discard_count: match_drawn``).
        turn_points: points of new melds laid this turn (``first_meld_min``).
        turn_long_run: a run of 7+ laid this turn (``masters_hand``).
        opened: per seat, whether their first melds reached ``first_meld_min``.
        has_melded: per seat, whether they laid a meld of their own this round.
        floating: seats floating with an empty hand.
        removed: cards out of play for the round (Dealer's Gambit blocks and splits).
        last_discarder: the seat that discarded last (may not call Rummy).
        drew_last_card: the seat that drew the last card of the stock (``stock_out: immediate``).
        gambit: the Dealer's Gambit nomination, or None.
        dealer_joker: ``available``, ``used``, ``blocked`` or None.
        claimed_card: the card claimed by calling Rummy that the caller must still use.
        turns: turns completed this round.
        declined: seats that passed on their out-of-turn offer at this position.
        went_out: the seat that went out, once the round is over.
        round_scores: each seat's round score, once the round is over.
    """

    players: int = _held("derived")
    dealer: int = _held("value")
    to_move: int = _held("value")
    phase: Phase = _held("value")
    hand_sizes: tuple[int, ...] = _held("derived")
    stock_count: int = _held("derived")
    discard: tuple[Card, ...] = _held("value")
    melds: tuple[TableMeld, ...] = _held("value")
    known: tuple[tuple[Card, ...], ...] = _held("value")
    obligation: Card | None = _held("value")
    taken_top: Card | None = _held("value")
    drawn: int = _held("value")
    turn_points: int = _held("value")
    turn_long_run: bool = _held("value")
    opened: tuple[bool, ...] = _held("value")
    has_melded: tuple[bool, ...] = _held("value")
    floating: tuple[bool, ...] = _held("value")
    removed: tuple[Card, ...] = _held("value")
    last_discarder: int | None = _held("value")
    drew_last_card: int | None = _held("value")
    gambit: str | None = _held("value")
    dealer_joker: str | None = _held("value")
    claimed_card: Card | None = _held("value")
    turns: int = _held("value")
    declined: frozenset[int] = _held("value")
    went_out: int | None = _held("value")
    round_scores: tuple[int, ...] | None = _held("derived")


HELD: dict[str, str] = {f.name: f.metadata["held"] for f in fields(Public)}
"""Where each public field's value comes from: ``value`` (set by the rules as
the round goes on; a position writes it) or ``derived`` (set by the engine
from the private parts: the number of seats, the hand sizes, the stock count,
the scores of a finished round)."""

PUBLIC_HELD: tuple[str, ...] = tuple(name for name, kind in HELD.items() if kind != "derived")
"""The public fields the rules set (in declaration order): what a round's position writes."""


def _make_copy_public() -> Callable[[Public, Public], None]:
    """Generate :func:`copy_public` from the declared fields (straight-line code: no loop, no ``setattr`` by name)."""
    names = [f.name for f in fields(Public)]
    lines = ["def copy_public(dst, src):"] + [f"    _put_{name}(dst, src.{name})" for name in names]
    namespace: dict[str, Any] = {f"_put_{name}": getattr(Public, name).__set__ for name in names}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from our own field names
    fn: Callable[[Public, Public], None] = namespace["copy_public"]
    fn.__doc__ = """Write every public field of ``src`` into ``dst`` (a Public or a View being built).

    For the engine only: ``dst`` must be a value nobody else holds yet (a draft
    of the next public value, or a view under construction)."""
    return fn


copy_public = _make_copy_public()
