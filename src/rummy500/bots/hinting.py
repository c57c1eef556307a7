"""Hints: the strongest level that answers within a time budget.

Both hint paths (the terminal client's ``hint`` and the web table's hint)
ask :func:`strongest_hint`. It tries the levels of :data:`HINT_LEVELS`,
strongest first, each with the time that is left of the budget as its
search limit. A level *answers* when its search finished its full budget of
playouts before the limit (a decision it does not search, such as a
two-card hand, always answers); a search cut short by the clock does not
count, and the next weaker level is asked with what time is left. The last
level (``medium``, a few milliseconds) always answers, so a hint never waits
much past the budget. The bot sees only the asking seat's view.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass

from rummy500.actions import Action
from rummy500.bots import make_bot
from rummy500.bots.base import Bot
from rummy500.views import View

__all__ = ["DEFAULT_HINT_BUDGET", "HINT_LEVELS", "Hint", "hint_budget", "strongest_hint"]

#: The levels a hint may come from, strongest first; the last always answers.
HINT_LEVELS: tuple[str, ...] = ("expert", "hard", "medium")

#: Seconds a hint may think when the table sets no shorter limit.
DEFAULT_HINT_BUDGET = 2.0


@dataclass(frozen=True)
class Hint:
    """A hinted move (``None``: let an out-of-turn chance pass), the level that chose it, and why."""

    action: Action | None
    level: str
    reason: str
    seconds: float


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
        levels: levels to try, strongest first; the last is asked without a
            time limit and always answers.
        options: per level, settings for its bot (e.g. a smaller ``iterations``).
    """
    start = time.perf_counter()
    rng = random.Random(seed)
    for i, level in enumerate(levels):
        last = i == len(levels) - 1
        left = budget - (time.perf_counter() - start)
        if not last and left <= 0:
            continue
        settings = dict((options or {}).get(level, {}))
        bot_seed = rng.getrandbits(32)
        bot = make_bot(level, bot_seed, **settings) if last else _timed_bot(level, bot_seed, left, settings)
        action = bot.act(view, random.Random(rng.getrandbits(64)))
        if not last and getattr(bot, "timed_out", False):
            continue
        return Hint(action, level, bot.explain(), time.perf_counter() - start)
    raise ValueError("no levels to ask for a hint")


def _timed_bot(level: str, seed: int, limit: float, settings: dict[str, object]) -> Bot:
    try:
        return make_bot(level, seed, **settings, time_limit=limit)
    except TypeError:  # a level without a search takes no time limit
        return make_bot(level, seed, **settings)
