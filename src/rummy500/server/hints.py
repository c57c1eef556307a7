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
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, TypeVar

from rummy500.actions import Action, CallRummy, Decline, Discard, Draw, Float, LayOff, Meld, Pass, Swap, Take
from rummy500.bots.hard import Searched
from rummy500.bots.hinting import DEFAULT_HINT_BUDGET, Hint, strongest_hint
from rummy500.scoring import card_value
from rummy500.server.bots import settle_choice
from rummy500.server.workers import RenewingPool, worker_pool

__all__ = [
    "HINT_SEARCHES",
    "SEARCHES",
    "LET_IT_PASS",
    "HintSearches",
    "card_words",
    "hint_for",
    "move_words",
    "reason",
    "searched_words",
]

T = TypeVar("T")

#: How many hint searches one server process runs at once. Each holds a worker process (or a thread)
#: of its own for up to its budget (2 s, then a round of playouts); more hints wait their turn in a
#: queue, so a burst of hints never takes the threads that storage calls (``asyncio.to_thread``) run in.
HINT_SEARCHES = 2


class HintSearches:
    """Where hint searches run: a small pool of their own, threads or processes.

    Storage calls (reading a table, a token, the chat; writing to PostgreSQL
    under a table's lock) go through the event loop's default executor; a hint
    search may hold a thread for seconds. Run there, a dozen hints at once kept
    every table of the process waiting for its storage. Here at most ``size``
    searches run at once; the others wait in the pool's queue, in the order
    asked (a request cancelled while it waits is dropped without running).

    With ``processes`` (a server with worker processes: ``workers`` > 0 in
    its settings) the searches run in worker processes of their own, at the
    workers' lower priority: a search in a thread holds the interpreter lock
    for most of its time, which slowed every other table's requests during a
    burst of hints. A worker that died (killed) is replaced by a new pool.
    Threads are the default (tests, tiny installs, ``workers`` 0). The pool
    starts on first use (again in a forked child).
    """

    def __init__(self, size: int = HINT_SEARCHES, *, processes: bool = False) -> None:
        """A pool-to-be of ``size`` threads, or worker processes (at least one)."""
        self.size = max(1, size)
        self.processes = processes
        self._pool = RenewingPool(self._make)

    def _make(self) -> Executor:
        if self.processes:
            return worker_pool(self.size)
        return ThreadPoolExecutor(self.size, thread_name_prefix="hint-search")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool, once a place is free (tried once more in a new pool if a worker died).

        Raises:
            BrokenExecutor: The new pool broke too.
        """
        return await self._pool.run(fn, *args)

    def close(self) -> None:
        """Stop the pool (searches still queued are dropped; a later search starts a new one)."""
        self._pool.close()


#: The process's hint searches (:func:`rummy500.server.session.match.search_hint` runs them here).
SEARCHES = HintSearches()

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
    if isinstance(action, Decline):
        return "letting the chance pass"
    return str(action)


def searched_words(search: Searched | None, action: Action) -> str | None:
    """What a searching bot found for ``action``, in a player's words (None: no search chose it).

    >>> from rummy500.actions import parse_action
    >>> from rummy500.bots.hard import Searched
    >>> throw = parse_action("discard 7H")
    >>> searched_words(Searched(throw, parse_action("meld TC QC JK=JC"), 8.2, 48, 3.0), throw)
    'In 48 trial games a few turns ahead, with the hidden cards guessed, it did 8 points better on average than melding 10♣ Q♣ joker (as J♣), the obvious move.'
    >>> searched_words(None, throw) is None
    True
    """
    if search is None or search.best != action or not search.playouts:
        return None
    text = search.finding(move_words)
    return f"{text[0].upper()}{text[1:]}."


#: The ``text`` of a hint to let an out-of-turn chance to call Rummy! pass (its ``action`` is ``None``).
LET_IT_PASS = "let the chance pass"


def _let_it_pass(view: Any, calls: list[Action]) -> str:
    """Why a seat offered an out-of-turn Rummy! call should not make it, and what to do instead (nothing)."""
    pile = list(view.discard)
    cards = sorted(
        {a.depth for a in calls if isinstance(a, CallRummy) and 1 <= a.depth <= len(pile)},
    )
    named = " or the ".join(card_words(pile[-d]) for d in cards)
    what = f"Calling Rummy! on the {named}" if named else "Calling Rummy!"
    # (The page shows the move, "let the chance pass", before the reason: the reason does not repeat it.)
    return f"{what} would not pay off for your hand. There is nothing to send: do not press Rummy!, and play goes on."


def hint_for(view: Any, seed: int, budget: float = DEFAULT_HINT_BUDGET) -> dict[str, Any]:
    """The strongest bot's move from ``view``, as ``action``, ``text``, ``reason`` and ``level``.

    ``level`` is the bot level that chose the move: the strongest that
    answered within ``budget`` seconds. Runs the bots (in a worker thread:
    strong bots think for a while); a bot failure falls back to a legal move,
    as for bot seats.

    Offered an out-of-turn call (calling Rummy! while another seat is to
    move), the bot may let the chance pass. Nothing is sent for that (a
    ``decline`` is no move a client can send), so that hint's ``action`` is
    ``None``, its ``text`` :data:`LET_IT_PASS` and its ``reason`` says so in
    words. A ``decline`` is never offered as a move.
    """
    rng = random.Random(seed)
    legal = [a for a in view.legal if not isinstance(a, Decline)]
    may_decline = len(legal) < len(view.legal)
    level = "medium"
    found = None
    try:
        found = strongest_hint(view, seed, budget)
        choice: Any = found.action
        level = found.level
    except Exception as exc:  # noqa: BLE001 - a bot's failure only costs the hint's quality
        choice = exc
    if may_decline and (not legal or choice is None or isinstance(choice, Decline)):
        why = _with_search(_let_it_pass(view, legal), found, choice)
        return {"action": None, "text": LET_IT_PASS, "reason": why, "level": level}
    action = settle_choice(choice, legal, rng, lambda a: None if a in legal else _refuse(), may_decline=False)
    if action is None:
        action = legal[0]
    why = _with_search(reason(view, action), found, action)
    return {"action": action.to_record(), "text": str(action), "reason": why, "level": level}


def _with_search(why: str, found: Hint | None, action: Any) -> str:
    """``why``, and what a search found when one chose ``action``.

    The search says what the rule of thumb cannot: why holding a meld back beat laying it down, say.
    """
    searched = searched_words(found.search if found is not None else None, action)
    return f"{why} {searched}" if searched else why


def _refuse() -> None:
    raise ValueError("not a legal move")
