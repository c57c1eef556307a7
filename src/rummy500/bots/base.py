"""The bot contract: a seat's :class:`~rummy500.views.View` in, one legal action out.

A bot never sees a :class:`~rummy500.state.RoundState`: it is handed the view
of its own seat (its hand, the other hand sizes, the cards others were seen
taking from the pile, the pile, the melds with who laid each card, the scores,
the phase, any obligation, and ``view.legal``) and a ``random.Random``.

* On its turn (``view.seat == view.to_move``) :meth:`Bot.act` returns an
  element of ``view.legal``.
* Out of turn (``view.seat != view.to_move`` with ``view.legal`` non-empty:
  calling Rummy, ``meld_out_of_turn``; the list ends with ``Decline()``) it
  returns :class:`~rummy500.actions.Decline` for "no call".

This is the agent protocol of :func:`rummy500.drive.drive`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from rummy500.actions import Action, Decline
from rummy500.views import View

__all__ = ["Bot"]


class Bot(ABC):
    """Base class of every bot level.

    Args:
        seed: seeds the bot's own ``random.Random``, used when :meth:`act` is
            called without one.
    """

    level: str = "?"
    #: Why the last action was chosen, in a player's words (:meth:`explain`; empty when the bot keeps no reason).
    last_reason: str = ""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, view: View, rng: random.Random | None = None) -> Action | None:
        """Choose an action for ``view.seat``.

        Args:
            view: the seat's view; ``view.legal`` lists what it may do.
            rng: randomness for this decision (default: the bot's own).

        Returns:
            An element of ``view.legal``: out of turn possibly ``Decline()``
            (no call). ``None`` when ``view.legal`` is empty.
        """
        if not view.legal:
            return None
        r = rng if rng is not None else self.rng
        if view.seat != view.to_move:
            if view.legal == (Decline(),):
                self.last_reason = "there is nothing to call"
                return Decline()
            call = self.out_of_turn(view, r)
            return call if call is not None else Decline()
        if len(view.legal) == 1:
            self.last_reason = f"{view.legal[0]} is the only move"
            return view.legal[0]
        return self.choose(view, r)

    @abstractmethod
    def choose(self, view: View, rng: random.Random) -> Action:
        """Choose among ``view.legal`` (at least two) on the bot's own turn."""

    def out_of_turn(self, view: View, rng: random.Random) -> Action | None:
        """Choose an out-of-turn action (a Rummy call, a meld), or ``None`` for no call.

        ``view.legal`` ends with ``Decline()``; never return it from here.
        """
        return None

    def explain(self) -> str:
        """One line on why the last action was chosen (empty when the bot keeps no reason)."""
        return self.last_reason

    def __repr__(self) -> str:
        return f"<{type(self).__name__} level={self.level!r} seed={self.seed!r}>"
