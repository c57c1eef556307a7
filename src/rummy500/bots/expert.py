"""The ``expert`` level: ``hard``'s search with a larger budget and a wider choice.

Strategy. ``expert`` decides like ``hard`` (information-set Monte Carlo search
over determinizations, medium-policy playouts, paired comparisons against
the heuristic favourite; see :mod:`rummy500.bots.hard`) and spends more:

* **More playouts**: 64 per searched decision (``hard``: 24), so a smaller
  edge over the heuristic favourite is trusted.
* **More candidates**: up to 5 actions within 16 heuristic points of the best
  (``hard``: 3 within 10), so holding a meld back instead of laying it, or a
  less obvious discard, gets searched.
* **Opponent modelling** comes from the shared heuristics: the cards each
  opponent was seen taking stay in their hand in every determinization, and
  the medium policy (its own and the playouts') denies the pile to an
  opponent collecting toward it and races to go out once one has taken a big
  pile (:class:`rummy500.bots.heuristics.Analysis`).

Trivial decisions (one legal move, a hand of at most two cards) are answered
from the heuristics at once, as ``hard`` does.
"""

from __future__ import annotations

from rummy500.bots.hard import HardBot

__all__ = ["ExpertBot"]


class ExpertBot(HardBot):
    """``hard`` with a larger budget and more candidates (see the module docstring).

    Args:
        seed: seeds the bot's own randomness.
        iterations: playouts per searched decision.
        candidates: how many of the heuristically best actions are searched.
        margin: heuristic points within which actions are close enough to search.
        options: any other :class:`~rummy500.bots.hard.HardBot` setting.
    """

    level = "expert"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int = 64,
        candidates: int = 5,
        margin: float = 16.0,
        **options: object,
    ) -> None:
        super().__init__(seed, iterations=iterations, candidates=candidates, margin=margin, **options)  # type: ignore[arg-type]
