"""Bots for the server's bot seats and for players away past the grace period.

Bots come from the project's registry (:func:`rummy500.bots.make_bot`); this
module adds what a server needs around them: the default level, running a bot
without trusting it (:func:`ask_bot` in a worker thread, then
:func:`settle_choice`), so a bot bug can never stall or crash a table. A bot
only ever receives its seat's view, so it cannot cheat.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any, Protocol

from rummy500 import bots as registry
from rummy500.server.engine import Action

__all__ = [
    "Bot",
    "ask_bot",
    "bot_levels",
    "default_level",
    "make_bot",
    "settle_choice",
    "thinks_instantly",
    "thinks_long",
]

#: Levels that search (a second or more per decision): they think in worker processes.
SEARCHING_LEVELS = frozenset({"hard", "expert"})
#: Levels that only pick among the legal actions (microseconds): they think in the event loop.
#: (``easy`` and ``medium`` stay in a thread: in the loop they cut the CPU per action by ~9 % at
#: 500 tables, but their slowest decisions, up to ~10 ms, raised the p99 from 13 to 44 ms.)
INSTANT_LEVELS = frozenset({"random"})

log = logging.getLogger(__name__)


class Bot(Protocol):
    """What the server needs of a bot."""

    def act(self, view: Any, rng: random.Random) -> Action | None:
        """Choose an action from the seat's view (``None``: no out-of-turn claim)."""


def bot_levels() -> list[str]:
    """The bot levels a table may ask for, weakest first."""
    return list(registry.BOT_LEVELS)


def default_level(levels: list[str]) -> str:
    """The level for open seats and stand-ins: ``medium`` (strong yet quick) if there is one."""
    return "medium" if "medium" in levels else levels[0]


def thinks_long(level: str) -> bool:
    """Whether a level's bot searches (its thinking goes to a worker process).

    The other levels answer within a few milliseconds: sending them to a
    process would cost more than they think.
    """
    return level in SEARCHING_LEVELS


def thinks_instantly(level: str) -> bool:
    """Whether a level's bot answers in microseconds (a pick among the legal actions).

    Handing it to a thread would cost more than its thinking; the others
    (a few milliseconds) think in a thread, the searching levels in a process.
    """
    return level in INSTANT_LEVELS


def make_bot(level: str, seed: int) -> Bot:
    """A bot of ``level``; an unknown level (say, from an older database) gets the default."""
    try:
        return registry.make_bot(level, seed)
    except KeyError:
        fallback = default_level(bot_levels())
        log.warning("unknown bot level %r; playing a %s bot instead", level, fallback)
        return registry.make_bot(fallback, seed)


def ask_bot(bot: Bot, view: Any, rng: random.Random) -> Action | BaseException | None:
    """Run a bot on a view, returning its exception instead of raising (for a thread)."""
    try:
        return bot.act(view, rng)
    except Exception as exc:  # noqa: BLE001 - a bot's failure is contained here
        return exc


def settle_choice(
    choice: Action | BaseException | None,
    legal: list[Action],
    rng: random.Random,
    check: Callable[[Action], None],
    *,
    may_decline: bool = False,
) -> Action | None:
    """Turn a bot's answer into an action to play, never trusting it blindly.

    A bot bug must never stall or crash a table: an exception, an answer that
    ``check`` refuses, or no answer on its own turn is logged and replaced by a
    random legal action.

    Args:
        choice: What :func:`ask_bot` returned.
        legal: The seat's legal actions.
        rng: Randomness for the fallback.
        check: Raises ``ValueError`` for an illegal action.
        may_decline: Out of turn, ``None`` means "no claim" and is kept.

    Returns:
        The action, or ``None`` for a declined out-of-turn claim.
    """
    if choice is None:
        if may_decline or not legal:
            return None
        log.warning("bot passed on its own turn; playing a random legal action")
        return rng.choice(legal)
    if isinstance(choice, BaseException):
        # Only the exception's type: its text might name the bot's cards.
        log.error("bot failed (%s); playing a random legal action", type(choice).__name__)
        return None if may_decline else rng.choice(legal)
    try:
        check(choice)
    except ValueError:
        # The verb only: the refused action would name cards of a hidden hand.
        log.warning("bot's %s was refused; playing a random legal action", type(choice).__name__)
        return None if may_decline else rng.choice(legal)
    return choice
