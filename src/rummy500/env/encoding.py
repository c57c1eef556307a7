"""A fixed, discrete action space for every engine action, multi-card ones included.

An engine action (:mod:`rummy500.actions`) is written as a short sequence of
*tokens*, integers in ``range(N_ACTIONS)``. Tokens are of two kinds:

* **argument tokens** select something and wait for more: ``SELECT`` a card
  (one of 105 card kinds: the 52 natural cards, a bare joker, and a joker
  declared as each natural card, ``JK=7H``), or ``DEPTH`` (a pile depth, used
  by Rummy steals);
* **verb tokens** end the sequence and commit it: ``DRAW``, ``TAKE k``,
  ``MELD``, ``LAYOFF_ON m``, ``DISCARD c``, ``RUMMY k`` ...

Every sequence is zero or more argument tokens followed by exactly one verb
token, so no sequence is a prefix of another: the environment applies the
engine action as soon as a verb token arrives. Cards are selected in the
engine's sorted card order (naturals by suit then rank, then the bare joker,
then declared jokers), which makes each action's sequence unique.

=====================================  ==========================================
engine action                          tokens
=====================================  ==========================================
``Draw()``                             ``DRAW``
``Take(k)`` / ``Take(k, split=True)``  ``TAKE+k-1`` / ``TAKE_SPLIT+k-1``
``Meld((5H, 6H, JK=7H))``              ``SELECT 5H, SELECT 6H, SELECT JK=7H, MELD``
``LayOff((8H,), 4)``                   ``SELECT 8H, LAYOFF_ON+4``
``Swap(7H, 2)``                        ``SELECT 7H, SWAP_ON+2``
``Discard((KS,))``                     ``DISCARD+KS`` (one step)
``Discard((3C, KS))``                  ``SELECT 3C, DISCARD+KS``
``Pass()`` ``Float()`` ``Block()``     ``PASS`` ``FLOAT`` ``BLOCK``
``Nominate(mode)``                     ``NOMINATE+i`` (wild, double, split)
``CallRummy(k)``                       ``RUMMY+k-1``
``CallRummy(k, on=m)``                 ``DEPTH+k-1, RUMMY_ON+m``
``CallRummy(k, meld=cards)``           ``DEPTH+k-1, SELECT c..., RUMMY_MELD``
``Decline()``                          ``DECLINE`` (an out-of-turn offer refused)
=====================================  ==========================================

:class:`Decision` holds the legal actions of one decision as a trie of token
sequences: :meth:`Decision.next_tokens` gives the tokens that continue the current
prefix towards at least one legal action, so every legal action is reachable
and nothing else is. :func:`decode` turns a complete sequence back into the
action without looking at the position.

>>> from rummy500.actions import Meld
>>> from rummy500.cards import parse_cards
>>> seq = encode(Meld(tuple(parse_cards(["5H", "6H", "JK=7H"]))))
>>> [token_name(t) for t in seq]
['SELECT 5H', 'SELECT 6H', 'SELECT JK=7H', 'MELD']
>>> decode(seq)
Meld(cards=(5H, 6H, JK=7H))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rummy500.actions import (
    Action,
    Block,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Float,
    LayOff,
    Meld,
    Nominate,
    Pass,
    Swap,
    Take,
)
from rummy500.cards import JOKER, Card, natural_cards

__all__ = [
    "BLOCK",
    "CARD_KINDS",
    "DECLINE",
    "DEPTH",
    "DISCARD",
    "DRAW",
    "FLOAT",
    "HAND_KINDS",
    "LAYOFF_ON",
    "MAX_MELDS",
    "MAX_PILE",
    "MELD",
    "NOMINATE",
    "N_ACTIONS",
    "PASS",
    "RUMMY",
    "RUMMY_MELD",
    "RUMMY_ON",
    "SELECT",
    "SWAP_ON",
    "TAKE",
    "TAKE_SPLIT",
    "Decision",
    "EncodingError",
    "card_index",
    "decode",
    "encode",
    "token_name",
]

#: The largest pack of any rules: two packs and four jokers. Bounds pile depths.
MAX_PILE = 108
#: The most melds a round can hold (each takes at least 3 of the 108 cards).
MAX_MELDS = MAX_PILE // 3
#: Card kinds a hand, the pile or a discard can hold: 52 naturals and the joker.
HAND_KINDS = 53
#: Card kinds of a meld: the hand kinds plus a joker declared as each natural card.
CARD_KINDS = HAND_KINDS + 52
GAMBIT_MODES = ("wild", "double", "split")

_NATURALS: list[Card] = natural_cards()
_KIND_CARD: list[Card] = [*_NATURALS, JOKER, *(Card(128 + c) for c in _NATURALS)]
_CARD_KIND: dict[int, int] = {int(c): i for i, c in enumerate(_KIND_CARD)}


class _Layout:
    """Token blocks, laid out one after the other."""

    def __init__(self) -> None:
        self.size = 0
        self.names: list[tuple[str, int, int]] = []

    def block(self, name: str, n: int) -> int:
        start = self.size
        self.names.append((name, start, n))
        self.size += n
        return start


_L = _Layout()
SELECT = _L.block("SELECT", CARD_KINDS)
DEPTH = _L.block("DEPTH", MAX_PILE)
DRAW = _L.block("DRAW", 1)
PASS = _L.block("PASS", 1)
FLOAT = _L.block("FLOAT", 1)
BLOCK = _L.block("BLOCK", 1)
DECLINE = _L.block("DECLINE", 1)
NOMINATE = _L.block("NOMINATE", len(GAMBIT_MODES))
MELD = _L.block("MELD", 1)
RUMMY_MELD = _L.block("RUMMY_MELD", 1)
TAKE = _L.block("TAKE", MAX_PILE)
TAKE_SPLIT = _L.block("TAKE_SPLIT", MAX_PILE)
RUMMY = _L.block("RUMMY", MAX_PILE)
DISCARD = _L.block("DISCARD", HAND_KINDS)
LAYOFF_ON = _L.block("LAYOFF_ON", MAX_MELDS)
SWAP_ON = _L.block("SWAP_ON", MAX_MELDS)
RUMMY_ON = _L.block("RUMMY_ON", MAX_MELDS)
#: Size of the discrete action space.
N_ACTIONS = _L.size
#: Tokens that wait for more (all others commit an action).
ARGUMENT_END = DEPTH + MAX_PILE


class EncodingError(ValueError):
    """An action or token sequence outside what the encoding can carry."""


def card_index(card: Card) -> int:
    """The card kind (0..104) of a card: naturals, the bare joker, declared jokers."""
    try:
        return _CARD_KIND[int(card)]
    except KeyError:
        raise EncodingError(f"{card!r} is not a card") from None


def _depth(k: int) -> int:
    if not 1 <= k <= MAX_PILE:
        raise EncodingError(f"pile depth {k} is outside 1..{MAX_PILE}")
    return k - 1


def _meld_id(m: int) -> int:
    if not 0 <= m < MAX_MELDS:
        raise EncodingError(f"meld id {m} is outside 0..{MAX_MELDS - 1}")
    return m


def _select(cards: Iterable[Card]) -> tuple[int, ...]:
    return tuple(SELECT + card_index(c) for c in cards)


def encode(action: Action) -> tuple[int, ...]:
    """The token sequence of an engine action (see the module docstring).

    Actions are immutable values and the same ones recur at every decision:
    their sequences are remembered.

    Raises:
        EncodingError: the action cannot be written (a depth or meld id out of range).
    """
    got = _ENCODED.get(action)
    if got is None:
        got = _encode(action)
        if len(_ENCODED) > 100_000:
            _ENCODED.clear()
        _ENCODED[action] = got
    return got


_ENCODED: dict[Action, tuple[int, ...]] = {}


def _encode(action: Action) -> tuple[int, ...]:
    match action:
        case Draw():
            return (DRAW,)
        case Take(k, split):
            return ((TAKE_SPLIT if split else TAKE) + _depth(k),)
        case Meld(cards):
            return (*_select(cards), MELD)
        case LayOff(cards, on):
            return (*_select(cards), LAYOFF_ON + _meld_id(on))
        case Swap(card, on):
            return (SELECT + card_index(card), SWAP_ON + _meld_id(on))
        case Discard(cards):
            last = card_index(cards[-1])
            if last >= HAND_KINDS:
                raise EncodingError(f"cannot discard {cards[-1]}")
            return (*_select(cards[:-1]), DISCARD + last)
        case Pass():
            return (PASS,)
        case Float():
            return (FLOAT,)
        case Block():
            return (BLOCK,)
        case Decline():
            return (DECLINE,)
        case Nominate(mode):
            return (NOMINATE + GAMBIT_MODES.index(mode),)
        case CallRummy(k, None, None):
            return (RUMMY + _depth(k),)
        case CallRummy(k, on, None):
            return (DEPTH + _depth(k), RUMMY_ON + _meld_id(on))  # type: ignore[arg-type]
        case CallRummy(k, None, meld):
            return (DEPTH + _depth(k), *_select(meld or ()), RUMMY_MELD)
    raise EncodingError(f"no encoding for {action!r}")


def _block_of(token: int) -> tuple[str, int]:
    for name, start, n in _L.names:
        if start <= token < start + n:
            return name, token - start
    raise EncodingError(f"token {token} is outside 0..{N_ACTIONS - 1}")


def token_name(token: int) -> str:
    """A readable name: ``SELECT JK=7H``, ``TAKE 3``, ``LAYOFF_ON 4``, ``DRAW``."""
    name, i = _block_of(token)
    if name == "SELECT":
        return f"SELECT {_KIND_CARD[i]}"
    if name == "DISCARD":
        return f"DISCARD {_KIND_CARD[i]}"
    if name in ("DEPTH", "TAKE", "TAKE_SPLIT", "RUMMY"):
        return f"{name} {i + 1}"
    if name in ("LAYOFF_ON", "SWAP_ON", "RUMMY_ON"):
        return f"{name} {i}"
    if name == "NOMINATE":
        return f"NOMINATE {GAMBIT_MODES[i]}"
    return name


def decode(tokens: Sequence[int]) -> Action:
    """The engine action written by a complete token sequence (the inverse of :func:`encode`).

    Args:
        tokens: argument tokens then one verb token.

    Raises:
        EncodingError: the sequence is not one :func:`encode` writes.
    """
    if not tokens:
        raise EncodingError("an empty token sequence is no action")
    *args, verb = tokens
    name, i = _block_of(verb)
    cards: list[Card] = []
    depth: int | None = None
    for pos, t in enumerate(args):
        aname, j = _block_of(t)
        if aname == "SELECT":
            cards.append(_KIND_CARD[j])
        elif aname == "DEPTH" and pos == 0:
            depth = j + 1
        else:
            raise EncodingError(f"{token_name(t)} cannot stand at position {pos} of a sequence")
    if list(cards) != sorted(cards):
        raise EncodingError("cards must be selected in sorted order")
    simple: dict[str, Action] = {
        "DRAW": Draw(),
        "PASS": Pass(),
        "FLOAT": Float(),
        "BLOCK": Block(),
        "DECLINE": Decline(),
    }
    takes_cards = {"MELD", "LAYOFF_ON", "SWAP_ON", "DISCARD", "RUMMY_MELD"}
    if (cards and name not in takes_cards) or (depth is not None) != (name in ("RUMMY_ON", "RUMMY_MELD")):
        raise EncodingError(f"{name} does not take these arguments")
    match name:
        case _ if name in simple:
            return simple[name]
        case "NOMINATE":
            return Nominate(GAMBIT_MODES[i])
        case "TAKE" | "TAKE_SPLIT":
            return Take(i + 1, name == "TAKE_SPLIT")
        case "RUMMY":
            return CallRummy(i + 1)
        case "RUMMY_ON":
            return CallRummy(depth, on=i)  # type: ignore[arg-type]
        case "RUMMY_MELD" if cards:
            return CallRummy(depth, meld=tuple(cards))  # type: ignore[arg-type]
        case "MELD" if cards:
            return Meld(tuple(cards))
        case "LAYOFF_ON" if cards:
            return LayOff(tuple(cards), i)
        case "SWAP_ON" if len(cards) == 1:
            return Swap(cards[0], i)
        case "DISCARD":
            return Discard((*cards, _KIND_CARD[i]))
    raise EncodingError(f"{name} needs other arguments")


def _root(action: Action) -> tuple[int, bool]:
    """The first token of ``action``'s sequence and whether it is the last (``encode(action)[0]``, cheaper)."""
    kind = type(action)
    a: Any = action  # the type is checked by hand: faster than a match on every legal action
    if kind is Discard:
        if len(a.cards) == 1:
            k = _CARD_KIND.get(int(a.cards[0]), HAND_KINDS)
            if k < HAND_KINDS:
                return DISCARD + k, True
    elif kind is Meld or kind is LayOff:
        k = _CARD_KIND.get(int(a.cards[0]), -1) if a.cards else -1
        if k >= 0:
            return SELECT + k, False
    elif kind is Take:
        if 1 <= a.n <= MAX_PILE:
            return (TAKE_SPLIT if a.split else TAKE) + a.n - 1, True
    else:
        simple = _SIMPLE.get(kind)
        if simple is not None:
            return simple, True
    seq = encode(action)
    return seq[0], len(seq) == 1


_SIMPLE: dict[type, int] = {Draw: DRAW, Pass: PASS, Float: FLOAT, Block: BLOCK, Decline: DECLINE}

#: ``id(action)`` -> (the action, its first token, whether that token commits it): :func:`_root` of the
#: legal actions seen lately. The entry holds the action, so its id is not reused while it is kept.
_ROOTS: dict[int, tuple[Action, int, bool]] = {}
_ROOTS_MAX = 50_000


class Decision:
    """The legal actions of one decision, as a trie of token sequences built as it is walked.

    Args:
        legal: the engine's legal actions for the deciding seat.

    Only the level of the trie under the current prefix is worked out: at the
    start, the first token of each legal action; after an argument token, the
    next tokens of the actions that begin with the prefix.

    >>> from rummy500.actions import Draw, Take
    >>> d = Decision([Draw(), Take(1)])
    >>> sorted(token_name(t) for t in d.next_tokens())
    ['DRAW', 'TAKE 1']
    >>> d.push(TAKE)
    Take(n=1, split=False)
    """

    __slots__ = ("_level", "_matching", "_prefix", "legal")

    def __init__(self, legal: Iterable[Action]) -> None:
        self.legal: tuple[Action, ...] = legal if isinstance(legal, tuple) else tuple(legal)
        self._prefix: tuple[int, ...] = ()
        # token -> the action it commits (a verb token) or None (an argument token: more to come)
        self._level: dict[int, Action | None] | None = None
        # (sequence, action) of the legal actions that begin with the prefix (once it is not empty)
        self._matching: list[tuple[tuple[int, ...], Action]] = []

    def _root_level(self) -> dict[int, Action | None]:
        level: dict[int, Action | None] = {}
        roots = _ROOTS
        for action in self.legal:
            # The engine's legal actions are mostly the same objects from position to position (it
            # keeps one of each discard, take, meld and lay-off): their first token is looked up.
            hit = roots.get(id(action))
            if hit is not None and hit[0] is action:
                level[hit[1]] = action if hit[2] else None
                continue
            token, last = _root(action)
            level[token] = action if last else None
            if len(roots) >= _ROOTS_MAX:
                roots.clear()
            roots[id(action)] = (action, token, last)
        self._level = level
        return level

    def level(self) -> dict[int, Action | None]:
        """The tokens that continue the current prefix: each to the action it commits, or None if more follow.

        Do not change the dict.
        """
        level = self._level
        if level is None:
            level = self._root_level() if not self._prefix else self._walk(self._prefix)
        return level

    def mask(self) -> bytearray:
        """The action mask of the current prefix: ``N_ACTIONS`` bytes, 1 for each token of :meth:`level`."""
        out = bytearray(N_ACTIONS)
        for token in self.level():
            out[token] = 1
        return out

    def next_tokens(self) -> set[int]:
        """The tokens that continue the current prefix towards a legal action."""
        return set(self.level())

    def push(self, token: int) -> Action | None:
        """Add a token; return the action once the sequence is complete (None while building).

        Raises:
            EncodingError: the token leads to no legal action; nothing changes.
        """
        level = self._level
        if level is None:
            level = self.level()
        try:
            action = level[token]
        except (KeyError, TypeError):
            raise EncodingError(
                f"action {token} ({token_name(token) if isinstance(token, int) and 0 <= token < N_ACTIONS else 'out of range'}) "
                "is not legal now: its action_mask entry is 0"
            ) from None
        if action is not None:
            self._prefix = ()
            self._level = None
            self._matching = []
            return action
        self._descend(token)
        return None

    def _descend(self, token: int) -> None:
        """Go one argument token further down the trie."""
        depth = len(self._prefix)
        if depth == 0:
            matching = []
            for a in self.legal:
                seq = encode(a)
                if seq[0] == token:
                    matching.append((seq, a))
        else:
            matching = [(seq, a) for seq, a in self._matching if seq[depth] == token]
        self._prefix = (*self._prefix, token)
        self._matching = matching
        depth += 1
        level: dict[int, Action | None] = {}
        for seq, a in matching:
            level[seq[depth]] = a if len(seq) == depth + 1 else None
        self._level = level

    def _walk(self, prefix: tuple[int, ...]) -> dict[int, Action | None]:
        """Set the prefix to ``prefix`` from the start (an empty level if no legal action begins so)."""
        self._prefix, self._level, self._matching = (), None, []
        for token in prefix:
            if self.level().get(token, 0) is not None:  # not an argument token that leads on
                self._prefix, self._level, self._matching = prefix, {}, []
                return self._level
            self._descend(token)
        return self.level()

    @property
    def prefix(self) -> tuple[int, ...]:
        """The argument tokens chosen so far (setting it walks the trie from the start)."""
        return self._prefix

    @prefix.setter
    def prefix(self, value: tuple[int, ...]) -> None:
        self._walk(tuple(value))

    @property
    def selected(self) -> tuple[int, ...]:
        """The argument tokens chosen so far in this decision."""
        return self._prefix

    def copy(self) -> Decision:
        """A decision at the same point that can be walked on its own."""
        out = Decision.__new__(Decision)
        out.legal, out._prefix, out._level, out._matching = self.legal, self._prefix, self._level, self._matching
        return out

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Copied and pickled by its fields (the compiled build's native class has no slots to copy).
        return _decision, (self.legal, self._prefix, self._level, self._matching)


def _decision(
    legal: tuple[Action, ...],
    prefix: tuple[int, ...],
    level: dict[int, Action | None] | None,
    matching: list[tuple[tuple[int, ...], Action]],
) -> Decision:
    """A :class:`Decision` of these fields (what copying and unpickling one build)."""
    out = Decision(legal)
    out._prefix, out._level, out._matching = prefix, level, matching
    return out
