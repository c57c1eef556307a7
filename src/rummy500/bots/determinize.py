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
    if not weights:
        return state_from_view(view, rng)
    seat = view.seat
    if seat is None:
        raise ResampleError("a spectator's view has no seat to resample for")
    pool = unseen_cards(view)
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for s in range(view.players):
        if s == seat:
            hands.append(list(view.hand))
            continue
        known = list(view.known[s])
        need = view.hand_sizes[s] - len(known)
        if need < 0 or need > len(pool):
            raise ResampleError(f"seat {s} holds {view.hand_sizes[s]} cards but was seen taking {len(known)}")
        w = weights.get(s)
        if not w:
            hands.append(known + pool[:need])
            pool = pool[need:]
            continue
        # Efraimidis and Spirakis: the ``need`` largest keys u ** (1 / w) are a weighted sample.
        rand = rng.random
        keys = [rand() ** (1.0 / max(1e-3, w.get(c, 1.0))) for c in pool]
        order = sorted(range(len(pool)), key=keys.__getitem__, reverse=True)
        chosen = set(order[:need])
        hands.append(known + [pool[i] for i in order[:need]])
        pool = [c for i, c in enumerate(pool) if i not in chosen]
    if len(pool) < view.stock_count:
        raise ResampleError("the unseen cards do not fill the hidden hands and the stock")
    try:
        return RoundState.from_parts(view.rules, view.public(), hands, pool[: view.stock_count])
    except ValueError as exc:
        raise ResampleError(str(exc)) from None
