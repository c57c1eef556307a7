"""Determinization for the search bots: the engine's resampling under the bots' names.

The engine deals the cards a seat cannot see consistently with its view
(:func:`rummy500.state.state_from_view`, written next to the fields it
fills). This module is the only part of :mod:`rummy500.bots` that imports
:mod:`rummy500.state`, and only to build positions of its own: guesses for
search, never the real game.
"""

from __future__ import annotations

import random

from rummy500.state import ResampleError, RoundState, state_from_view, unseen_cards
from rummy500.views import View

__all__ = ["DeterminizeError", "determinize", "unseen_cards"]

DeterminizeError = ResampleError
"""The view does not add up to a position (more cards seen than the pack holds)."""


def determinize(view: View, rng: random.Random) -> RoundState:
    """A random full position consistent with ``view`` (see :func:`rummy500.state.state_from_view`).

    Raises:
        DeterminizeError: the view cannot be completed (inconsistent counts).
    """
    return state_from_view(view, rng)
