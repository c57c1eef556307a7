"""Bots: players that see only their seat's :class:`~rummy500.views.View`.

Levels, weakest first (see ``docs/bots.md``):

* ``random`` -- uniform over the legal actions;
* ``easy`` -- the medium heuristics with a beginner's blind spots;
* ``medium`` -- meld plans, pile digging and careful discards;
* ``hard`` -- information-set Monte Carlo tree search over determinizations;
* ``expert`` -- ``hard``'s search with twice the playouts.

``make_bot(level, seed)`` builds one; every bot has
``act(view, rng) -> Action | None`` (see :mod:`rummy500.bots.base`).
"""

from __future__ import annotations

from collections.abc import Callable

from rummy500.bots.base import Bot

__all__ = ["BOT_LEVELS", "Bot", "make_bot", "search_options"]

#: The bot levels, weakest first.
BOT_LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard", "expert")


def _factories() -> dict[str, Callable[[int | None], Bot]]:
    from rummy500.bots.easy import EasyBot
    from rummy500.bots.expert import ExpertBot
    from rummy500.bots.hard import HardBot
    from rummy500.bots.medium import MediumBot
    from rummy500.bots.random_bot import RandomBot

    return {"random": RandomBot, "easy": EasyBot, "medium": MediumBot, "hard": HardBot, "expert": ExpertBot}


def make_bot(level: str, seed: int | None = None, **options: object) -> Bot:
    """A new bot of ``level`` (one of :data:`BOT_LEVELS`).

    Args:
        level: ``random``, ``easy``, ``medium``, ``hard`` or ``expert``
            (case-insensitive).
        seed: seeds the bot's own randomness.
        options: level-specific settings, e.g. ``hard``'s ``iterations`` or
            ``time_limit``.

    Raises:
        KeyError: an unknown level (the message lists the levels).
    """
    name = level.strip().lower() if isinstance(level, str) else level
    factories = _factories()
    if name not in factories:
        raise KeyError(f"unknown bot level {level!r} (levels: {', '.join(BOT_LEVELS)})")
    return factories[name](seed, **options)


def search_options(hard_iterations: int | None) -> dict[str, dict[str, object]]:
    """Per-level options giving ``hard`` ``hard_iterations`` playouts and ``expert`` its share.

    The ``--hard-iterations`` flag of ``rummy500 simulate`` and ``tournament``:
    ``expert`` keeps :data:`rummy500.bots.expert.EXPERT_BUDGET` times
    ``hard``'s budget, as its defaults do. ``None`` leaves both at their
    defaults.

    >>> search_options(12)
    {'hard': {'iterations': 12}, 'expert': {'iterations': 24}}
    >>> search_options(None)
    {}
    """
    if hard_iterations is None:
        return {}
    from rummy500.bots.expert import EXPERT_BUDGET

    return {"hard": {"iterations": hard_iterations}, "expert": {"iterations": hard_iterations * EXPERT_BUDGET}}
