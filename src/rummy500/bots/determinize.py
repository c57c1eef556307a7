"""Determinization for the search bots: the engine's resampling under the bots' names.

The engine deals the cards a seat cannot see consistently with its view
(:func:`rummy500.state.state_from_view`, written next to the fields it
fills). This module is the only part of :mod:`rummy500.bots` that imports
:mod:`rummy500.state`, and only to build positions of its own: guesses for
search, never the real game.

:func:`determinize` can also deal the hidden cards unevenly: with a weight
per card for a seat (what the searcher infers from that seat's play), the
seat's hidden cards are drawn from the unseen ones with chances in
proportion to the weights (weighted sampling without replacement); every
other place (the other hands, the stock) is filled as before. The position
stays consistent with the view whatever the weights: only which unseen card
lies where changes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from rummy500.cards import Card
from rummy500.state import ResampleError, RoundState, state_from_view, unseen_cards
from rummy500.views import View

__all__ = ["DeterminizeError", "determinize", "unseen_cards"]

DeterminizeError = ResampleError
"""The view does not add up to a position (more cards seen than the pack holds)."""


def determinize(view: View, rng: random.Random, weights: Mapping[int, Mapping[Card, float]] | None = None) -> RoundState:
    """A random full position consistent with ``view`` (see :func:`rummy500.state.state_from_view`).

    Args:
        view: the searching seat's view.
        rng: the randomness of the deal.
        weights: per seat, a relative weight for each card (1.0 where
            absent) of being among that seat's hidden cards. None or empty:
            every unseen card is equally likely anywhere, the engine's deal.

    Raises:
        DeterminizeError: the view cannot be completed (inconsistent counts).
    """
    return state_from_view(view, rng, weights)
