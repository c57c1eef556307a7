"""The public part of a round: everything every seat at the table can see.

:class:`Public` is declared once and everything else is derived from it:
:class:`~rummy500.state.RoundState`'s attributes and ``copy()``, the
:class:`~rummy500.views.View` (a ``Public`` plus one seat's hand, its legal
actions and its rule facts), ``View.to_dict()`` (the JSON every client gets),
the position notation and :func:`~rummy500.state.state_from_view`. The hands
and the order of the stock are the only private parts of a round.

Adding a stateful rule therefore means declaring its field here (with how a
round holds it, see :data:`HELD`), then writing the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from rummy500.cards import Card
from rummy500.melds import TableMeld

__all__ = ["HELD", "Phase", "Public", "PUBLIC_HELD"]


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
        known: per seat, the cards seen taken from the pile and still held.
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
        rummy_due: the player who went out must claim a playable card (``rummy_after_going_out``).
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
    discard: tuple[Card, ...] = _held("list")
    melds: tuple[TableMeld, ...] = _held("list")
    known: tuple[tuple[Card, ...], ...] = _held("lists")
    obligation: Card | None = _held("value")
    taken_top: Card | None = _held("value")
    drawn: int = _held("value")
    turn_points: int = _held("value")
    turn_long_run: bool = _held("value")
    opened: tuple[bool, ...] = _held("list")
    has_melded: tuple[bool, ...] = _held("list")
    floating: tuple[bool, ...] = _held("list")
    removed: tuple[Card, ...] = _held("list")
    last_discarder: int | None = _held("value")
    drew_last_card: int | None = _held("value")
    gambit: str | None = _held("value")
    dealer_joker: str | None = _held("value")
    rummy_due: bool = _held("value")
    claimed_card: Card | None = _held("value")
    turns: int = _held("value")
    declined: frozenset[int] = _held("value")
    went_out: int | None = _held("value")
    round_scores: tuple[int, ...] | None = _held("derived")


HELD: dict[str, str] = {f.name: f.metadata["held"] for f in fields(Public)}
"""How a :class:`~rummy500.state.RoundState` holds each public field while the round changes:
``value`` (an immutable value, shared by copies), ``list`` (a list, a tuple in
the snapshot), ``lists`` (a list of lists) or ``derived`` (computed from the
private parts: hand sizes, stock count, the scores of a finished round)."""

PUBLIC_HELD: tuple[str, ...] = tuple(name for name, kind in HELD.items() if kind != "derived")
"""The public fields a round holds as attributes (in declaration order)."""
