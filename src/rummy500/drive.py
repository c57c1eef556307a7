"""The one decision loop: play a match (or a round) with any mix of agents.

An *agent* is anything with ``act(view, rng) -> Action`` (every bot, the
terminal's human, a policy wrapped by :class:`PolicyAgent`). :func:`drive`
asks the position who decides (:meth:`~rummy500.match.Match.decision`): the
seat to move, a seat offered an out-of-turn play (it answers with the play or
:class:`~rummy500.actions.Decline`; ``None`` also means "no call"), or chance
(a reshuffle, drawn from ``rng``). It checks every answer against the
decision's legal list and applies the engine's own action (an answer only
*equal* to a legal one, with plain ints for cards, is played and recorded as
the legal one; ``Take(True)`` is refused), until the game (or round) ends or
``until()`` says stop.

>>> import random
>>> from rummy500.match import Match
>>> from rummy500.rules import Rules
>>> m = Match(Rules.preset_rules("popular", players=3), seed=7)
>>> agents = [PolicyAgent(lambda view, rng: rng.choice(view.legal))] * 3
>>> _ = drive(m, agents, random.Random(7))
>>> m.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from rummy500.actions import Action, Block, Decline, Draw, Float, Pass, listed_form
from rummy500.events import Event
from rummy500.match import Match
from rummy500.state import Decision, DecisionKind, IllegalAction, RoundState
from rummy500.views import View

__all__ = ["Agent", "AgentError", "PolicyAgent", "drive"]


class Agent(Protocol):
    """A player of any kind: given its seat's view, it answers one action of ``view.legal``.

    Out of turn (an offer) it may answer :class:`~rummy500.actions.Decline`
    (or ``None``) for "no call".
    """

    def act(self, view: View, rng: random.Random) -> Action | None:
        """Choose an action for ``view.seat``."""
        ...


class AgentError(IllegalAction):
    """An agent answered something that is not among its legal actions (nothing was applied).

    Attributes:
        seat: the agent's seat.
        action: what it answered (None: nothing, on its own turn).
        reason: why an answer equal to a legal action is refused (``Take(True)``:
            a bool where a number goes), or None.
    """

    def __init__(self, seat: int, action: Action | None, reason: str | None = None) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        if action is None:
            super().__init__(f"seat {seat} made no move on its turn")
        else:
            why = f": {reason}" if reason else ""
            super().__init__(f"seat {seat} chose {action}, which is not among its legal actions{why}")


class PolicyAgent:
    """An agent from a function ``policy(view, rng) -> Action`` (out of turn it declines).

    Args:
        policy: chooses among ``view.legal`` on the seat's own turn.
        offers: also ask ``policy`` on out-of-turn offers (their legal list
            ends with ``Decline``); by default offers are declined.
    """

    def __init__(self, policy: Callable[[View, random.Random], Action], *, offers: bool = False) -> None:
        self.policy = policy
        self.offers = offers

    def act(self, view: View, rng: random.Random) -> Action | None:
        """The policy's choice on the seat's turn; ``Decline`` on offers unless ``offers``."""
        if view.seat != view.to_move and not self.offers and Decline() in view.legal:
            return Decline()
        return self.policy(view, rng)


#: The actions without fields: one equal to a legal action is that action.
_NO_FIELDS = frozenset({Draw, Pass, Float, Block, Decline})

Observer = Callable[[Decision, Action, list[Event]], None]
"""``observe(decision, action, events)``: called after each applied decision."""


def drive(
    game: Match | RoundState,
    agents: Sequence[Agent] | Mapping[int, Agent],
    rng: random.Random,
    *,
    until: Callable[[], bool] | None = None,
    observe: Observer | None = None,
) -> int:
    """Play ``game`` to its end with one agent per seat.

    Args:
        game: a :class:`Match` (plays to the end of the game; the match deals
            and reshuffles from its own rng) or a :class:`RoundState` (plays
            the round; reshuffles are drawn from ``rng``).
        agents: the agent of each seat.
        rng: randomness handed to the agents (and chance, for a round).
        until: checked before each decision; True stops the loop.
        observe: called after each applied decision with what happened.

    Returns:
        The number of decisions applied.

    Raises:
        AgentError: an agent answered outside its legal actions (nothing was applied).
    """
    count = 0
    if isinstance(game, Match):
        game.continue_play()  # a match rebuilt from a record may stop between rounds or before a reshuffle
    while until is None or not until():
        decision = game.decision()
        if decision is None:
            break
        if decision.kind is DecisionKind.CHANCE:
            assert isinstance(game, RoundState)  # a match draws its own chance (auto play, continue_play)
            action: Action | None = game.chance_reshuffle(rng)
            assert action is not None
            events = game.apply(action, check=False)
        else:
            seat = decision.seat
            assert seat is not None
            action = agents[seat].act(game.view(seat), rng)
            if action is None and decision.kind is DecisionKind.OFFER:
                action = Decline()
            if action is None:
                raise AgentError(seat, action)
            legal = decision.legal
            try:
                own = legal[legal.index(action)]
            except ValueError:
                own = None  # (a discard of several cards may name them in any order)
            if own is not action:
                # Not the legal list's own object: play the engine's action equal to it (as Match.apply
                # does), so nothing but cards and whole numbers reaches the table or a record.
                if own is not None and type(action) in _NO_FIELDS:
                    action = own  # (a new Decline(), Draw() ...: nothing in it to check)
                elif own is None and listed_form(action) not in legal:
                    raise AgentError(seat, action)
                else:
                    try:
                        action = (game.round_state() if isinstance(game, Match) else game).checked(action, seat)
                    except IllegalAction as exc:
                        raise AgentError(seat, action, str(exc)) from exc
            if isinstance(game, Match):
                events = game.apply(seat, action, check=False)
            else:
                events = game.apply(action, seat, check=False)
        count += 1
        if observe is not None:
            observe(decision, action, events)
    return count
