"""Who decides next: the engine's decision loop, one decider at a time.

:class:`Table` wraps a :class:`~rummy500.match.Match` and asks it who decides
(:meth:`~rummy500.match.Match.decision`): the seat to move, a seat offered an
out-of-turn play (a Rummy call, a meld under ``meld_out_of_turn``; it answers
with the play or :class:`~rummy500.actions.Decline`), or chance. With
``auto`` (the default) the match deals every round and draws every reshuffle
from its own random source; with ``auto=False`` the match starts undealt and
the caller resolves :attr:`Table.chance` (the OpenSpiel game does).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, NamedTuple

from rummy500.actions import Action
from rummy500.events import Event
from rummy500.match import Match
from rummy500.rules import Rules
from rummy500.state import DecisionKind
from rummy500.views import View

__all__ = ["Table", "Turn"]

_CHANCE, _OFFER = DecisionKind.CHANCE, DecisionKind.OFFER


class Turn(NamedTuple):
    """One decision: the seat, whether it is an out-of-turn offer, and its legal actions."""

    seat: int
    offer: bool
    legal: tuple[Action, ...]


class Table:
    """A match driven one decision at a time.

    Args:
        rules: the rules.
        seed: seed of every shuffle.
        max_rounds: stop (truncate) after this many rounds.
        auto: deal rounds and reshuffle with the match's random source; when
            False the match starts undealt and the caller resolves :attr:`chance`.
        match: the match to drive (``seed`` and ``auto`` then do not deal a new one).
    """

    def __init__(
        self, rules: Rules, seed: int | None, max_rounds: int = 50, auto: bool = True, match: Match | None = None
    ) -> None:
        self.rules = rules
        self.auto = auto
        self.match: Match = Match(rules, rng=random.Random(seed), deal=auto) if match is None else match
        self.max_rounds = max_rounds
        self._turn: Turn | None = None
        self.events: list[Event] = []

    def with_match(self, match: Match) -> Table:
        """A table like this one (rules, limits, the decision due and the last events) around ``match``."""
        return _table(self.rules, self.max_rounds, self.auto, match, self._turn, self.events)

    def forget_turn(self, skip: Iterable[int] = ()) -> None:
        """Work the current decision out again.

        :meth:`turn` keeps the decision it worked out until :meth:`play`; call
        this after changing the match's position other than through
        :meth:`play` (a resampled deal replacing ``match.state``).

        Args:
            skip: seats whose out-of-turn offers to pass over, as if declined,
                in this decision (:meth:`~rummy500.state.RoundState.decision`'s
                ``skip``); the next one is worked out as usual.
        """
        self._turn = None
        skip = tuple(skip)
        if not skip or self.turn() is None:
            return
        state = self.match.state
        assert state is not None  # turn() found a decision
        decision = state.decider(skip)
        assert decision is not None and decision[1] is not None  # the checks turn() made still hold
        kind, seat, legal = decision
        self._turn = tuple.__new__(Turn, (seat, kind is _OFFER, legal))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Copied and pickled by its fields (the compiled build makes it a native class, which has no
        # __dict__ to copy).
        return _table, (self.rules, self.max_rounds, self.auto, self.match, self._turn, self.events)

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
        decision = self.match.decision()
        return "reshuffle" if decision is not None and decision.kind is DecisionKind.CHANCE else None

    def turn(self) -> Turn | None:
        """The current decision (None once the match is over or truncated, or while chance is due)."""
        if self._turn is not None:
            return self._turn
        match = self.match
        state = match.state
        # over, truncated (a round past max_rounds, or the last one finished) or between rounds
        if match.winner is not None or state is None or state.is_over or len(match.rounds) > self.max_rounds:
            return None
        decision = state.decider()  # what match.decision() gives once the checks above passed, as a tuple
        if decision is None:
            return None
        kind, seat, legal = decision
        if kind is _CHANCE or seat is None:
            return None
        # tuple.__new__: the NamedTuple's own __new__ is a Python function (and this is every decision)
        self._turn = turn = tuple.__new__(Turn, (seat, kind is _OFFER, legal))
        return turn

    def play(self, action: Action) -> list[list[int]]:
        """Play the current decider's action; return the scores of rounds it finished.

        What happened is left in :attr:`events` (the engine's events).
        """
        turn = self.turn()
        if turn is None:
            raise ValueError("no seat decides now")
        self._turn = None
        rounds = len(self.match.rounds)
        self.events = self.match.apply(turn.seat, action, check=False, auto=self.auto)
        finished = self.match.rounds[rounds - 1].round_scores
        return [list(finished)] if finished is not None else []

    def view(self, seat: int) -> View:
        """What ``seat`` may see now."""
        return self.match.view(seat)


def _table(
    rules: Rules, max_rounds: int, auto: bool, match: Match, turn: Turn | None, events: list[Event]
) -> Table:
    """A :class:`Table` of these fields (what copying and unpickling one build)."""
    out = Table(rules, None, max_rounds, auto, match)
    out._turn = turn
    out.events = events
    return out
