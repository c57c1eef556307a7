"""Hints: the strongest bot's move for a player's own view, and one line saying why.

The move comes from the strongest level that answers within the table's hint
budget (``expert``, else ``hard``, else ``medium``:
:func:`rummy500.bots.hinting.strongest_hint`); the hint names that level.

The bot sees exactly what the player sees (their :class:`~rummy500.views.View`),
so a hint can never reveal another hand or the stock. The reason is built from
the move and public card values, in a player's words.
"""

from __future__ import annotations

import random
import re
from typing import Any

from rummy500.actions import Action, CallRummy, Discard, Draw, Float, LayOff, Meld, Pass, Swap, Take
from rummy500.bots.hinting import DEFAULT_HINT_BUDGET, strongest_hint
from rummy500.scoring import card_value
from rummy500.server.bots import settle_choice

__all__ = ["card_words", "hint_for", "reason", "searched_words"]

_SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def card_words(card: Any) -> str:
    """A card as a player writes it: ``Q♥``, ``10♠``, ``joker``.

    >>> card_words("TH"), card_words("JK=7S"), card_words("JK")
    ('10♥', 'joker (as 7♠)', 'joker')
    """
    text = str(card)
    if text.startswith("JK"):
        return f"joker (as {card_words(text[3:])})" if "=" in text else "joker"
    rank, suit = text[:-1], text[-1]
    return ("10" if rank == "T" else rank) + _SUITS.get(suit, suit)


def _points(cards: Any, view: Any) -> int:
    return sum(card_value(c, view.rules, in_hand=False) for c in cards)


def reason(view: Any, action: Action) -> str:  # noqa: PLR0911 - one sentence per kind of move
    """One line on why ``action`` is a good move from ``view``."""
    pile = list(view.discard)
    if isinstance(action, Draw):
        return "Nothing in the discard pile helps your hand enough: draw a fresh card from the stock."
    if isinstance(action, Take):
        card = card_words(pile[-action.n]) if action.n <= len(pile) else "card"
        if action.n == 1:
            return f"The {card} on top of the pile fits your cards: take it."
        return f"Taking {action.n} cards is worth it: the {card} goes into a meld this turn."
    if isinstance(action, Meld):
        words = " ".join(card_words(c) for c in action.cards)
        return f"Meld {words}: {_points(action.cards, view)} points are safe on the table before anyone goes out."
    if isinstance(action, LayOff):
        words = " ".join(card_words(c) for c in action.cards)
        return f"Lay off {words} on meld {action.on + 1}: {_points(action.cards, view)} more points, fewer cards to be caught with."
    if isinstance(action, Swap):
        return f"Swap the {card_words(action.card)} for the joker on meld {action.on + 1}: a joker is worth more in your hand."
    if isinstance(action, Discard):
        words = " ".join(card_words(c) for c in action.cards)
        return f"Discard {words}: it fits nothing you hold and is the card you can best spare."
    if isinstance(action, CallRummy):
        card = card_words(pile[-action.depth]) if action.depth <= len(pile) else "card"
        return f"Call Rummy!: the {card} in the pile can be played, and it scores for you."
    if isinstance(action, Pass):
        return "The stock is empty and nothing in the pile helps: pass."
    if isinstance(action, Float):
        return "Float: your hand is empty; you go out with a discard at a later turn."
    return f"The strongest bot would play: {action}."


_CARD = re.compile(r"\bJK(?:=[2-9TJQKA][CDHS])?\b|\b[2-9TJQKA][CDHS]\b")


def searched_words(text: str) -> str | None:
    """What a searching bot found (its reason after the move: "played out 48 times ..."), in card words.

    None when the reason is no search's (a rule of thumb's move, or none).

    >>> searched_words("discard 7H: played out 48 times a few turns ahead, it ended 8 points better than meld TC QC JK=JC")
    'Played out 48 times a few turns ahead, it ended 8 points better than meld 10♣ Q♣ joker (as J♣).'
    >>> searched_words("discard 7H") is None
    True
    """
    _, sep, rest = text.partition(": ")
    if not sep or "played out" not in rest:
        return None
    rest = _CARD.sub(lambda m: card_words(m.group(0)), rest.strip().rstrip("."))
    return f"{rest[0].upper()}{rest[1:]}."


def hint_for(view: Any, seed: int, budget: float = DEFAULT_HINT_BUDGET) -> dict[str, Any]:
    """The strongest bot's move from ``view``, as ``action``, ``text``, ``reason`` and ``level``.

    ``level`` is the bot level that chose the move: the strongest that
    answered within ``budget`` seconds. Runs the bots (in a worker thread:
    strong bots think for a while); a bot failure falls back to a legal move,
    as for bot seats.
    """
    rng = random.Random(seed)
    legal = list(view.legal)
    level = "medium"
    found = None
    try:
        found = strongest_hint(view, seed, budget)
        choice: Any = found.action
        level = found.level
    except Exception as exc:  # noqa: BLE001 - a bot's failure only costs the hint's quality
        choice = exc
    action = settle_choice(choice, legal, rng, lambda a: None if a in legal else _refuse(), may_decline=False)
    if action is None:
        action = legal[0]
    why = reason(view, action)
    # A search's finding says what the rule of thumb cannot: why holding a meld back beat laying it down.
    searched = searched_words(found.reason) if found is not None and found.action == action else None
    if searched:
        why = f"{why} {searched}"
    return {"action": action.to_record(), "text": str(action), "reason": why, "level": level}


def _refuse() -> None:
    raise ValueError("not a legal move")
