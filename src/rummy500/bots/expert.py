"""The ``expert`` level: ``hard``'s search with twice the playouts.

Strategy. ``expert`` decides like ``hard`` (information-set Monte Carlo search
over determinizations, medium-policy playouts of 4 turns (two turns of every
seat at four or more players alone) valued by the fitted leaf, stock streams,
waiting searched against laying at once, paired comparisons against the
heuristic favourite; see :mod:`rummy500.bots.hard`)
with **twice the playouts**: 96 per searched decision (``hard``: 48), so a
smaller edge over the heuristic favourite is trusted. It searches the same
candidates (the 3 best within 10 heuristic points): a wider choice (5
within 16 or 20) measured weaker with 4-turn playouts, which overrate moves
the heuristics rank far down. Measured against ``hard`` it is **no
measurably stronger**, far from the 60% issue 14 asks: 215 of 400 games
(53.8%, 95% interval 48.9% - 58.6%; ``docs/bots.md``, *Measured strength*,
*Replayed after the take-back rule*; 221 before ``hard``'s take-back rule).
Its former edge, searching when to lay, is now ``hard``'s too, and neither a wider or longer search, playouts to the end
of the round near it, a stricter or a looser confidence rule, searching
other ways to split the cards into melds (``lay_choices``), nor a learned
leaf (``leaf="learned"``, :func:`rummy500.bots.leaves.learned_round`) gave a
larger one (*Screening an edge for expert*, *Two more screens for expert*,
*Searching other ways to lay*, *A learned leaf*). Two searches of one position by the same bot disagree on
a quarter of the searched decisions, with twice the playouts on a fifth
(``benchmarks/agreement.py``): the candidates are mostly worth the same to
the 4-turn judge, so a finer estimate of that judge gains little (*How often
expert and hard choose differently*). Shown the opponent's real hand (a
measuring stick, ``benchmarks/oracle.py``), the same search wins 141 of 200
games against ``hard`` where it wins 117 fair. Yet a random deal already
guesses about a fifth of the opponent's hidden cards right, and none of
``hard``'s guessing models does more than two points better
(``benchmarks/guesses.py``). The information ``expert`` lacks is mostly not
to be had (*What seeing the hands is worth*).

**Opponent modelling** comes from the shared heuristics: the cards each
opponent was seen taking stay in their hand in every determinization, and
the medium policy (its own and the playouts') denies the pile to an opponent
collecting toward it and races to go out once one has taken a big pile
(:class:`rummy500.bots.heuristics.Analysis`).

Trivial decisions (one legal move, a hand of at most two cards) are answered
from the heuristics at once, as ``hard`` does.
"""

from __future__ import annotations

from rummy500.bots.hard import HardBot

__all__ = ["EXPERT_BUDGET", "ExpertBot"]

#: ``expert`` makes this many times ``hard``'s playouts per searched decision.
EXPERT_BUDGET = 2


class ExpertBot(HardBot):
    """``hard`` with twice the playouts (see the module docstring).

    Args:
        seed: seeds the bot's own randomness.
        iterations: playouts per searched decision.
        options: any other :class:`~rummy500.bots.hard.HardBot` setting.
    """

    level = "expert"

    def __init__(self, seed: int | None = None, *, iterations: int = EXPERT_BUDGET * HardBot.ITERATIONS, **options: object) -> None:
        super().__init__(seed, iterations=iterations, **options)  # type: ignore[arg-type]
