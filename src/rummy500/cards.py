"""Cards, the text notation, and building packs.

A :class:`Card` is an ``int`` subclass. Every card value exists exactly once
(a pre-built singleton), so cards hash, compare and sort as plain ints -- fast
enough for search -- while printing in the notation of RULES.md.

Encoding:

* a natural card is ``suit * 16 + rank`` (suits C=0, D=1, H=2, S=3; rank 1 is
  the ace, 13 the king);
* ``JOKER`` (64) is a joker in a hand, in the stock or in the discard pile;
* a joker on the table standing for natural card ``x`` is ``128 + x`` and
  prints as ``JK=7H``.

Two packs hold identical duplicates, so hands are multisets of these values.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = [
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "JOKER",
    "RANK_CHARS",
    "SPADES",
    "SUIT_CHARS",
    "Card",
    "CardError",
    "card",
    "declared",
    "format_cards",
    "natural_cards",
    "parse_card",
    "parse_cards",
]

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_CHARS = "CDHS"
RANK_CHARS = " A23456789TJQK"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "",
    "Ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "Jack",
    "Queen",
    "King",
)
_JOKER_CODE = 64
_DECLARED = 128


class CardError(ValueError):
    """A string that is not a card in the notation."""


class Card(int):
    """One card, as a pre-built ``int`` singleton with a notation ``str``."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        """True for a joker, in hand or declared on the table."""
        return self >= _JOKER_CODE

    @property
    def is_declared(self) -> bool:
        """True for a joker on the table that stands for a card (``JK=7H``)."""
        return self >= _DECLARED

    @property
    def natural(self) -> Card:
        """The natural card this card is or stands for (a bare joker: itself)."""
        return _CARDS[self - _DECLARED] if self >= _DECLARED else self

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king); for a declared joker, the rank it stands for; 0 for a bare joker."""
        if self == _JOKER_CODE:
            return 0
        return (self - _DECLARED if self >= _DECLARED else self) & 15

    @property
    def suit(self) -> int:
        """0..3 (C D H S); for a declared joker, the suit it stands for; -1 for a bare joker."""
        if self == _JOKER_CODE:
            return -1
        return ((self - _DECLARED if self >= _DECLARED else self) >> 4) & 3

    @property
    def bare(self) -> Card:
        """The card as it is held in a hand: a declared joker becomes a bare joker."""
        return JOKER if self >= _JOKER_CODE else self

    @property
    def label(self) -> str:
        """Words for screen readers: ``Queen of spades``, ``Joker standing for 7 of hearts``."""
        if self == _JOKER_CODE:
            return "Joker"
        if self >= _DECLARED:
            return f"Joker standing for {self.natural.label}"
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return _TEXT[self]

    # Cards stay singletons through pickle, copy and deepcopy: each comes back as the pre-built
    # card of its code (``card(code)``), not as a new ``Card`` equal to it.
    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return card, (int(self),)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: Any) -> Card:
        return self


def _make_all() -> tuple[list[Card | None], dict[int, str]]:
    table: list[Card | None] = [None] * (_DECLARED + 64)
    text: dict[int, str] = {}
    for suit in range(4):
        for rank in range(1, 14):
            code = suit * 16 + rank
            table[code] = Card(code)
            text[code] = RANK_CHARS[rank] + SUIT_CHARS[suit]
            table[_DECLARED + code] = Card(_DECLARED + code)
            text[_DECLARED + code] = "JK=" + text[code]
    table[_JOKER_CODE] = Card(_JOKER_CODE)
    text[_JOKER_CODE] = "JK"
    return table, text


_CARDS_OPT, _TEXT = _make_all()
_CARDS: list[Card] = _CARDS_OPT  # type: ignore[assignment]  # holes are never indexed
JOKER: Card = _CARDS[_JOKER_CODE]
_BY_TEXT: dict[str, Card] = {v: _CARDS[k] for k, v in _TEXT.items()}


def card(code: int) -> Card:
    """The card singleton for an integer code."""
    return _CARDS[code]


def natural_cards() -> list[Card]:
    """The 52 natural cards, clubs first, ace to king within a suit."""
    return [_CARDS[s * 16 + r] for s in range(4) for r in range(1, 14)]


def declared(stands_for: Card) -> Card:
    """A joker on the table standing for ``stands_for``."""
    return _CARDS[_DECLARED + stands_for.natural]


def parse_card(text: str) -> Card:
    """Parse ``AS``, ``TD``, ``10H``, ``JK`` or ``JK=7H`` (case-insensitive).

    Raises:
        CardError: the text is not a card.
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be a string like 'AS', not {text!r}")
    t = text.strip()
    if not t.isascii():
        # Before upper(): Unicode uppercasing makes cards of other letters ("ſ", the long s, becomes "S").
        raise CardError(f"unknown card {text!r}: a card is written in ASCII letters and digits (AS, TD, 7H, JK, JK=7H)")
    t = t.upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    elif t.startswith("JK=10"):
        t = "JK=T" + t[5:]
    found = _BY_TEXT.get(t)
    if found is None:
        raise CardError(f"unknown card {text!r} (cards are written like AS, TD, 7H, JK, JK=7H)")
    return found


def parse_cards(items: Iterable[str] | str) -> list[Card]:
    """Parse a list of cards, or one string of cards separated by spaces or commas."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [parse_card(x) for x in items]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Cards in the notation, as a list of strings."""
    return [_TEXT[c] for c in cards]


