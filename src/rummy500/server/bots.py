"""Bots for the server's empty and abandoned seats.

The project's bot registry (:func:`rummy500.bots.make_bot`) is used when it is
there. Until then, and for any level it does not know, the server falls back to
:class:`RandomBot`, which picks uniformly among the legal actions of its view.
A bot only ever receives its seat's view, so it cannot cheat.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any, Protocol

from rummy500.server.engine import Action, parse_action

__all__ = ["Bot", "RandomBot", "bot_levels", "choose_action", "make_bot"]

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "random"


class Bot(Protocol):
    """What the server needs of a bot."""

    def act(self, view: Any, rng: random.Random) -> Action:
        """Choose an action from the seat's view."""


class RandomBot:
    """Picks a legal action at random (the fallback bot)."""

    def act(self, view: Any, rng: random.Random) -> Action:
        """Choose uniformly among ``view.legal``."""
        choice = rng.choice(list(view.legal))
        return choice if not isinstance(choice, dict) else parse_action(choice)


def _registry() -> Any | None:
    try:
        from rummy500 import bots
    except ImportError:
        return None
    return bots if hasattr(bots, "make_bot") else None


def bot_levels() -> list[str]:
    """The bot levels a table may ask for, the default first."""
    bots = _registry()
    levels: list[str] = []
    if bots is not None:
        for name in ("LEVELS", "BOT_LEVELS", "levels"):
            found = getattr(bots, name, None)
            if callable(found):
                found = found()
            if found:
                levels = [str(x) for x in found]
                break
    if FALLBACK_LEVEL not in levels:
        levels.append(FALLBACK_LEVEL)
    return levels


def make_bot(level: str, seed: int) -> Bot:
    """A bot of ``level`` from the registry, else the random fallback."""
    bots = _registry()
    if bots is not None:
        try:
            return bots.make_bot(level, seed)
        except (KeyError, ValueError) as exc:
            if level != FALLBACK_LEVEL:
                log.warning("bot level %r unavailable (%s); using a random bot", level, exc)
    return RandomBot()


def choose_action(
    bot: Bot,
    view: Any,
    legal: list[Action],
    rng: random.Random,
    check: Callable[[Action], None],
) -> Action:
    """Ask a bot for an action, falling back to a random legal one if it fails.

    A bot bug must never stall or crash a table: any exception, or an answer
    that ``check`` refuses, is logged and replaced by a random legal action.

    Args:
        bot: The bot.
        view: The seat's view (the engine's ``View``).
        legal: The seat's legal actions.
        rng: Randomness for the bot and the fallback.
        check: Raises ``ValueError`` for an illegal action.
    """
    try:
        action = bot.act(view, rng)
        check(action)
    except Exception:  # noqa: BLE001 - a bot's failure is contained here
        log.exception("bot failed; playing a random legal action instead")
        return rng.choice(legal)
    return action
