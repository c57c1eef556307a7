"""Hints: the strongest level that answers within a time budget.

Both hint paths (the terminal client's ``hint`` and the web table's hint)
ask :func:`strongest_hint`: the move of the strongest level of
:data:`HINT_LEVELS` (``expert``, else ``hard``, else ``medium``) that answers
within the budget. A level *answers* when its search finished its full
budget of playouts before its time limit (a decision it does not search,
such as a two-card hand, always answers); a search cut short by the clock
does not count. The levels are asked weakest first, so a slow strong level
can never starve a quicker one: ``medium`` (a few milliseconds, no limit)
always answers; then ``hard`` with what is left of the budget as its limit;
if it answered, ``expert`` with what is left after that. The first level
that does not answer in time ends the climb, and the hint is the strongest
answer so far. A hint waits at most the budget plus one round of playouts.
The bots see only the asking seat's view.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace

from rummy500.actions import Action
from rummy500.bots import make_bot
from rummy500.bots.base import Bot
from rummy500.bots.hard import Searched
from rummy500.views import View

__all__ = ["DEFAULT_HINT_BUDGET", "HINT_LEVELS", "Hint", "hint_budget", "strongest_hint"]

#: The levels a hint may come from, strongest first; the last always answers.
HINT_LEVELS: tuple[str, ...] = ("expert", "hard", "medium")

#: Seconds a hint may think when the table sets no shorter limit.
DEFAULT_HINT_BUDGET = 2.0


@dataclass(frozen=True)
class Hint:
    """A hinted move (``None``: let an out-of-turn chance pass), the level that chose it, and why.

    ``search`` is what the level's search found (:class:`~rummy500.bots.hard.Searched`),
    None when the move was not searched.
    """

    action: Action | None
    level: str
    reason: str
    seconds: float
    search: Searched | None = None


def hint_budget(turn_clock: float | None) -> float:
    """The hint's time budget at a table whose turn clock is ``turn_clock`` seconds (``None``: no clock).

    A tenth of the turn clock, so a hint leaves the player nearly all of
    their turn, and never more than :data:`DEFAULT_HINT_BUDGET`.

    >>> hint_budget(None), hint_budget(60), hint_budget(5)
    (2.0, 2.0, 0.5)
    """
    if turn_clock is None or turn_clock <= 0:
        return DEFAULT_HINT_BUDGET
    return min(DEFAULT_HINT_BUDGET, turn_clock / 10)


def strongest_hint(
    view: View,
    seed: int,
    budget: float = DEFAULT_HINT_BUDGET,
    levels: tuple[str, ...] = HINT_LEVELS,
    options: Mapping[str, Mapping[str, object]] | None = None,
) -> Hint:
    """The move of the strongest level in ``levels`` that answers within ``budget`` seconds.

    Args:
        view: the asking seat's view (all a bot ever sees).
        seed: seeds the bots and their randomness (same seed, same hint
            when no level runs out of time).
        budget: seconds the hint may think in all.
        levels: levels to choose from, strongest first; the last is asked
            first, without a time limit, and always answers.
        options: per level, settings for its bot (e.g. a smaller ``iterations``).
    """
    if not levels:
        raise ValueError("no levels to ask for a hint")
    start = time.perf_counter()
    rng = random.Random(seed)
    best: Hint | None = None
    for level in reversed(levels):
        settings = dict((options or {}).get(level, {}))
        bot_seed, act_seed = rng.getrandbits(32), rng.getrandbits(64)
        if best is None:
            bot = make_bot(level, bot_seed, **settings)
        else:
            left = budget - (time.perf_counter() - start)
            if left <= 0:
                break
            bot = _timed_bot(level, bot_seed, left, settings)
        action = bot.act(view, random.Random(act_seed))
        if best is not None and getattr(bot, "timed_out", False):
            break
        best = Hint(action, level, bot.explain(), time.perf_counter() - start, getattr(bot, "last_search", None))
    assert best is not None
    return replace(best, seconds=time.perf_counter() - start)


def _timed_bot(level: str, seed: int, limit: float, settings: dict[str, object]) -> Bot:
    try:
        return make_bot(level, seed, **settings, time_limit=limit)
    except TypeError:  # a level without a search takes no time limit
        return make_bot(level, seed, **settings)
