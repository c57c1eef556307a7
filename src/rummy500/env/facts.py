"""The public facts an observation encodes, read in one call of interpreted code.

:meth:`rummy500.env.observation.SeatEncoder.update` reads some twenty fields of
a :class:`~rummy500.public.Public` (or a :class:`~rummy500.views.View`) at every
position. In the optional compiled build (``scripts/build_compiled.py``) that
module is compiled, and compiled code reads an attribute of an ordinary Python
class through the generic attribute protocol, several times the cost of the
interpreter's specialised slot read. This module stays interpreted, so the
encoder reads them all here at once: one call instead of twenty generic reads.

>>> from rummy500.rules import Rules
>>> from rummy500.state import RoundState
>>> import random
>>> pub = RoundState.new(Rules(), dealer=0, rng=random.Random(1)).public
>>> facts = read(pub)
>>> len(facts) == len(FIELDS) and facts[FIELDS.index("phase")] == pub.phase
True
"""

from __future__ import annotations

from typing import Any

__all__ = ["FIELDS", "read"]

#: The fields :func:`read` returns, in order.
FIELDS = (
    "discard",
    "melds",
    "known",
    "removed",
    "floating",
    "opened",
    "has_melded",
    "phase",
    "to_move",
    "dealer",
    "last_discarder",
    "obligation",
    "taken_top",
    "claimed_card",
    "gambit",
    "dealer_joker",
    "hand_sizes",
    "stock_count",
    "drawn",
    "turn_points",
    "turns",
)


def read(p: Any) -> tuple[Any, ...]:
    """The values of :data:`FIELDS` of ``p`` (a ``Public`` or a ``View``), in that order."""
    return (
        p.discard,
        p.melds,
        p.known,
        p.removed,
        p.floating,
        p.opened,
        p.has_melded,
        p.phase,
        p.to_move,
        p.dealer,
        p.last_discarder,
        p.obligation,
        p.taken_top,
        p.claimed_card,
        p.gambit,
        p.dealer_joker,
        p.hand_sizes,
        p.stock_count,
        p.drawn,
        p.turn_points,
        p.turns,
    )
