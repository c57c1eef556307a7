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
from typing import Any

from rummy500.actions import Action, CallRummy, Discard, Draw, Float, LayOff, Meld, Pass, Swap, Take
from rummy500.bots.hard import Searched
from rummy500.bots.hinting import DEFAULT_HINT_BUDGET, strongest_hint
from rummy500.scoring import card_value
from rummy500.server.bots import settle_choice

__all__ = ["card_words", "hint_for", "move_words", "reason", "searched_words"]

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


def _points(cards: Any, view: Any) -> str:
    """The cards' points in the game's own points (a game that divides its scores divides them too)."""
    total = sum(card_value(c, view.rules, in_hand=False) for c in cards)
    div = view.rules.score_divisor
    n = total / div
    if n == int(n):
        return f"{int(n)} point" if n == 1 else f"{int(n)} points"
    return f"about {round(n)} points"


def reason(view: Any, action: Action) -> str:  # noqa: PLR0911 - one sentence per kind of move
    """One line on why ``action`` is a good move from ``view`` (the move itself is not repeated: the page shows it)."""
    pile = list(view.discard)
    if isinstance(action, Draw):
        return "Nothing in the discard pile helps your hand enough: a fresh card from the stock is better."
    if isinstance(action, Take):
        card = card_words(pile[-action.n]) if action.n <= len(pile) else "card"
        if action.n == 1:
            return f"The {card} on top of the pile fits your cards."
        return f"Taking {action.n} cards is worth it: the {card} goes into a meld this turn."
    if isinstance(action, Meld):
        return f"{_points(action.cards, view).capitalize()} are safe on the table before anyone goes out."
    if isinstance(action, LayOff):
        return f"{_points(action.cards, view).capitalize()} more on the table, and fewer cards to be caught with."
    if isinstance(action, Swap):
        return "A joker is worth more in your hand than on the table."
    if isinstance(action, Discard):
        if len(view.hand) == len(action.cards):
            return "It is your last card: throwing it takes you out."
        return "It fits nothing you hold and is the card you can best spare."
    if isinstance(action, CallRummy):
        card = card_words(pile[-action.depth]) if action.depth <= len(pile) else "card"
        return f"The {card} in the pile can be played, and it scores for you."
    if isinstance(action, Pass):
        return "The stock is empty and nothing in the pile helps."
    if isinstance(action, Float):
        return "Your hand is empty; you go out with a discard at a later turn."
    return "The strongest bot would play it."


def move_words(action: Action) -> str:
    """A move as the end of a player's sentence ("... better than laying off 5♠ on meld 3"), melds counted from 1.

    >>> from rummy500.actions import parse_action
    >>> [move_words(parse_action(t)) for t in ("draw", "take 1", "take 3", "layoff 5S on 2", "meld TC QC JK=JC", "discard 2H")]
    ['drawing from the stock', 'taking the top card of the pile', 'taking 3 cards from the pile', 'laying off 5♠ on meld 3', 'melding 10♣ Q♣ joker (as J♣)', 'throwing 2♥']
    """
    words = " ".join(card_words(c) for c in getattr(action, "cards", ()))
    if isinstance(action, Draw):
        return "drawing from the stock"
    if isinstance(action, Take):
        first = "taking the top card of the pile" if action.n == 1 else f"taking {action.n} cards from the pile"
        return first + (" (splitting the pile with a joker)" if action.split else "")
    if isinstance(action, Meld):
        return f"melding {words}"
    if isinstance(action, LayOff):
        return f"laying off {words} on meld {action.on + 1}"
    if isinstance(action, Discard):
        return f"throwing {words}"
    if isinstance(action, Swap):
        return f"swapping the {card_words(action.card)} for the joker on meld {action.on + 1}"
    if isinstance(action, CallRummy):
        return "calling Rummy"
    if isinstance(action, Pass):
        return "passing"
    if isinstance(action, Float):
        return "floating"
    return str(action)


def searched_words(search: Searched | None, action: Action) -> str | None:
    """What a searching bot found for ``action``, in a player's words (None: no search chose it).

    >>> from rummy500.actions import parse_action
    >>> from rummy500.bots.hard import Searched
    >>> throw = parse_action("discard 7H")
    >>> searched_words(Searched(throw, parse_action("meld TC QC JK=JC"), 8.2, 48, 3.0), throw)
    'Played out 48 times a few turns ahead, over guesses of the hidden cards, it ended 8 points better on average than melding 10♣ Q♣ joker (as J♣), the first choice by rule of thumb.'
    >>> searched_words(None, throw) is None
    True
    """
    if search is None or search.best != action or not search.playouts:
        return None
    text = search.finding(move_words)
    return f"{text[0].upper()}{text[1:]}."


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
    searched = searched_words(found.search, action) if found is not None else None
    if searched:
        why = f"{why} {searched}"
    return {"action": action.to_record(), "text": str(action), "reason": why, "level": level}


def _refuse() -> None:
    raise ValueError("not a legal move")
