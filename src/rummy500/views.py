"""What one seat may see: the only thing bots, clients and logs ever receive.

:func:`make_view` strips hidden information at one boundary: another seat's
hand becomes its size plus the cards that seat was *seen* taking from the
discard pile and has not played; the stock becomes a count. A spectator
(``seat=None``) sees no hand at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rummy500.actions import Action
from rummy500.cards import Card
from rummy500.melds import TableMeld

if TYPE_CHECKING:
    from rummy500.rules import Rules
    from rummy500.state import RoundState

__all__ = ["View", "make_view"]


@dataclass(frozen=True)
class View:
    """A seat's view of a round (``seat`` None: a spectator).

    Attributes:
        seat: whose view this is, or None for a spectator.
        rules: the rules in force.
        players: number of seats.
        dealer: the dealer's seat.
        to_move: whose turn it is.
        phase: ``nominate``, ``draw``, ``play`` or ``round_over``.
        hand: the seat's own hand (empty for a spectator).
        hand_sizes: cards in each hand.
        known: per seat, the cards seen taken from the pile and still held.
        stock_count: cards left in the stock.
        discard: the discard pile, bottom first (all of it is face up).
        melds: the table melds, with who laid each card.
        obligation: a card the player to move took from the pile and must use.
        taken_top: the single top card taken this turn (may not go back).
        last_discarder: the seat that discarded last (may not call Rummy).
        floating: seats floating with an empty hand.
        gambit: the Dealer's Gambit nomination, or None.
        dealer_joker: ``available``, ``used``, ``blocked`` or None.
        went_out: the seat that went out, once the round is over.
        round_scores: each seat's round score, once the round is over.
        scores: the match totals before this round (if known).
        legal: the actions this seat may take now.
        final_hands: every hand, once the round is over.
        drawn: cards the player to move drew this turn (``discard_count: match_drawn``).
        turn_points: points of new melds the player to move laid this turn (``first_meld_min``).
        opened: per seat, whether their first melds reached ``first_meld_min``.
        has_melded: per seat, whether they laid down a meld of their own this round.
        removed: cards out of play for the round (Dealer's Gambit blocks and splits).
        rummy_due: the player who went out must claim a playable card (``rummy_after_going_out``).
        claimed_card: the card claimed by calling Rummy that the caller must still use.
        stock_emptied_by: the seat that drew the last stock card (``stock_out: immediate``).
        turns: turns completed this round.
        turn_long_run: the player to move laid a run of 7 or more this turn (``masters_hand``).
        declined: seats that passed on their out-of-turn offer at this position.
    """

    seat: int | None
    rules: Rules
    players: int
    dealer: int
    to_move: int
    phase: str
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]
    stock_count: int
    discard: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    obligation: Card | None
    taken_top: Card | None
    last_discarder: int | None
    floating: tuple[bool, ...]
    gambit: str | None
    dealer_joker: str | None
    went_out: int | None
    round_scores: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    legal: tuple[Action, ...] = field(default=())
    final_hands: tuple[tuple[Card, ...], ...] | None = None
    # Public facts of the turn and the table that search bots need to rebuild a
    # position (every one of them is visible to everybody at a real table).
    drawn: int = 0
    turn_points: int = 0
    opened: tuple[bool, ...] = ()
    has_melded: tuple[bool, ...] = ()
    removed: tuple[Card, ...] = ()
    rummy_due: bool = False
    claimed_card: Card | None = None
    stock_emptied_by: int | None = None
    turns: int = 0
    turn_long_run: bool = False
    declined: frozenset[int] = frozenset()

    @property
    def my_turn(self) -> bool:
        """Whether this seat is the one to move."""
        return self.seat == self.to_move and self.phase not in ("round_over",)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON (cards in the notation, actions as record verbs)."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "hand": [str(c) for c in self.hand] if self.seat is not None else None,
            "hand_sizes": list(self.hand_sizes),
            "known": [[str(c) for c in k] for k in self.known],
            "stock_count": self.stock_count,
            "discard": [str(c) for c in self.discard],
            "melds": [m.to_dict() for m in self.melds],
            "obligation": str(self.obligation) if self.obligation is not None else None,
            "taken_top": str(self.taken_top) if self.taken_top is not None else None,
            "last_discarder": self.last_discarder,
            "floating": list(self.floating),
            "gambit": self.gambit,
            "dealer_joker": self.dealer_joker,
            "went_out": self.went_out,
            "round_scores": list(self.round_scores) if self.round_scores is not None else None,
            "scores": list(self.scores) if self.scores is not None else None,
            "legal": [a.to_record() for a in self.legal],
        }
        if self.final_hands is not None:
            out["final_hands"] = [[str(c) for c in h] for h in self.final_hands]
        return out


def make_view(state: RoundState, seat: int | None, scores: Sequence[int] | None = None) -> View:
    """Build ``seat``'s view of ``state`` (None: a spectator)."""
    over = state.phase.value == "round_over"
    if seat is not None and not 0 <= seat < state.n:
        raise ValueError(f"seat {seat} is not a seat of this {state.n}-player game")
    hand = tuple(sorted(state.hands[seat])) if seat is not None else ()
    legal = tuple(state.legal_actions(seat)) if seat is not None else ()
    phase = state.phase.value
    if phase == "shuffle":
        phase = "draw"  # the reshuffle is the table's chance event, not anybody's move
    return View(
        seat=seat,
        rules=state.rules,
        players=state.n,
        dealer=state.dealer,
        to_move=state.to_move,
        phase=phase,
        hand=hand,
        hand_sizes=tuple(len(h) for h in state.hands),
        known=tuple(tuple(sorted(k)) for k in state.known),
        stock_count=len(state.stock),
        discard=tuple(state.discard),
        melds=tuple(state.melds),
        obligation=state.obligation,
        taken_top=state.taken_top,
        last_discarder=state.last_discarder,
        floating=tuple(state.floating),
        gambit=state.gambit,
        dealer_joker=state.dealer_joker,
        went_out=state.went_out if over else None,
        round_scores=tuple(state.result.round_scores) if over and state.result else None,
        scores=tuple(scores) if scores is not None else None,
        legal=legal,
        # Once the round is over every hand is shown, as at a real table.
        final_hands=tuple(tuple(sorted(h)) for h in state.hands) if over else None,
        drawn=state.drawn,
        turn_points=state.turn_points,
        opened=tuple(state.opened),
        has_melded=tuple(state.has_melded),
        removed=tuple(state.removed),
        rummy_due=state.rummy_due,
        claimed_card=state.claimed_card,
        stock_emptied_by=state.stock_emptied_by,
        turns=state.turns,
        turn_long_run=state.turn_long_run,
        declined=state.declined,
    )
