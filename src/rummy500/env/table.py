"""Who decides next: one seat at a time, out-of-turn offers included.

:class:`Table` wraps a :class:`~rummy500.match.Match` and names exactly one
decider at each point. Before the seat to move decides, every other seat with
a legal out-of-turn action (a Rummy call, a meld under ``meld_out_of_turn``)
is offered it, in turn order from the seat to move; that seat answers with an
action or with ``Decline``. After any action the offers start again from the
new position. Chance (deals, reshuffles) is resolved by the match's own
random source, or (``auto=False``) left to the caller: :attr:`Table.chance`
says which chance event is due.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rummy500.actions import Action
from rummy500.env.encoding import Decline
from rummy500.match import Match
from rummy500.rules import Rules
from rummy500.state import Phase
from rummy500.views import View

__all__ = ["Table", "Turn"]


@dataclass(frozen=True)
class Turn:
    """One decision: the seat, whether it is an out-of-turn offer, and its legal actions."""

    seat: int
    offer: bool
    legal: tuple[object, ...]


class Table:
    """A match driven one decision at a time.

    Args:
        rules: the rules.
        seed: seed of every shuffle.
        max_rounds: stop (truncate) after this many rounds.
        auto: deal rounds and reshuffle with the match's random source; when
            False the match starts undealt and the caller resolves :attr:`chance`.
    """

    def __init__(self, rules: Rules, seed: int | None, max_rounds: int = 50, auto: bool = True) -> None:
        self.rules = rules
        self.auto = auto
        self.match = Match(rules, rng=random.Random(seed), deal=auto)
        self.max_rounds = max_rounds
        self._declined: set[int] = set()
        self._turn: Turn | None = None

    @property
    def n(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def over(self) -> bool:
        """True once the match has a winner."""
        return self.match.is_over

    @property
    def truncated(self) -> bool:
        """True when the round limit stopped a match that has no winner yet."""
        if self.match.is_over:
            return False
        rounds = len(self.match.rounds)
        return rounds > self.max_rounds or (rounds == self.max_rounds and self._round_over())

    def _round_over(self) -> bool:
        return self.match.state is None or self.match.state.is_over

    @property
    def chance(self) -> str | None:
        """The chance event due (``auto=False`` only): ``deal``, ``reshuffle`` or None."""
        if self.over or self.truncated:
            return None
        if self._round_over():
            return "deal"
        return "reshuffle" if self.match.state.phase is Phase.SHUFFLE else None  # type: ignore[union-attr]

    def turn(self) -> Turn | None:
        """The current decision (None once the match is over or truncated)."""
        if self._turn is not None:
            return self._turn
        if self.over or self.truncated or self.chance is not None:
            return None
        state = self.match.state
        assert state is not None
        for s in state.actors()[1:]:
            if s not in self._declined:
                self._turn = Turn(s, True, (*state.legal_actions(s), Decline()))
                return self._turn
        seat = state.to_move
        self._turn = Turn(seat, False, tuple(state.legal_actions(seat)))
        return self._turn

    def play(self, action: object) -> list[list[int]]:
        """Play the current decider's action; return the scores of rounds it finished."""
        turn = self.turn()
        if turn is None:
            raise ValueError("the match is over")
        self._turn = None
        if isinstance(action, Decline):
            self._declined.add(turn.seat)
            return []
        rounds = len(self.match.rounds)
        self.match.apply(turn.seat, action, check=False, auto=self.auto)  # type: ignore[arg-type]
        self._declined = set()
        finished = self.match.rounds[rounds - 1].round_scores
        return [list(finished)] if finished is not None else []

    def view(self, seat: int) -> View:
        """What ``seat`` may see now."""
        return self.match.view(seat)

    def legal_of(self, action: Action) -> bool:
        """Whether ``action`` is legal for the current decider (for tests)."""
        turn = self.turn()
        return turn is not None and action in turn.legal
