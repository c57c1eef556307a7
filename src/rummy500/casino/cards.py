"""Cards, the shoe, hand totals and the three-card bonuses of Costa Rican Rummy."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rummy500.casino.rules import CasinoRules

__all__ = [
    "Card",
    "RANKS",
    "SUITS",
    "Shoe",
    "bonus_multiple",
    "hand_total",
    "is_soft",
    "parse_card",
]

RANKS = "A23456789TJQK"
SUITS = "SHDC"
_SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A card: ``rank`` 1 (ace) to 13 (king), ``suit`` 0-3 (spades, hearts, diamonds, clubs).

    ``value`` is its points toward 21: ace 1 (or 11, see :func:`hand_total`), face cards 10.

    >>> Card(1, 0).value, Card(12, 1).value, str(Card(10, 2))
    (1, 10, 'TD')
    """

    rank: int
    suit: int
    value: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", min(self.rank, 10))

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def pretty(self) -> str:
        """Rank and suit symbol, e.g. ``'Q♥'``."""
        r = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return r + _SUIT_SYMBOLS[SUITS[self.suit]]


def parse_card(text: str) -> Card:
    """A card from its two-character name (``'7H'``, ``'TS'``, ``'10S'``, ``'AD'``).

    >>> parse_card('qh')
    Card(rank=12, suit=1)

    Raises:
        ValueError: not a card name.
    """
    t = text.strip().upper().replace("10", "T")
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"not a card: {text!r} (rank A 2-9 T J Q K, then suit S H D C, e.g. 7H)")
    return Card(RANKS.index(t[0]) + 1, SUITS.index(t[1]))


def _hard_count(cards: list[Card] | tuple[Card, ...]) -> tuple[int, bool]:
    """Points counting every ace as 1, and whether there is an ace."""
    hard = 0
    ace = False
    for c in cards:
        hard += c.value
        if c.rank == 1:
            ace = True
    return hard, ace


def hand_total(cards: list[Card] | tuple[Card, ...]) -> int:
    """The best total: one ace counts 11 when that does not pass 21.

    >>> hand_total([parse_card('AS'), parse_card('KH')]), hand_total([parse_card('AS'), parse_card('9H'), parse_card('5C')])
    (21, 15)
    """
    hard, ace = _hard_count(cards)
    return hard + 10 if ace and hard <= 11 else hard


def is_soft(cards: list[Card] | tuple[Card, ...]) -> bool:
    """Whether an ace is counted as 11 in the total."""
    hard, ace = _hard_count(cards)
    return ace and hard <= 11


def _is_straight(ranks: list[int], rules: CasinoRules) -> bool:
    r = sorted(ranks)
    if r[0] + 1 == r[1] and r[1] + 1 == r[2]:
        return r[0] != 1 or rules.ace_low_straight
    return r == [1, 12, 13] and rules.ace_high_straight


def bonus_multiple(cards: list[Card] | tuple[Card, ...], rules: CasinoRules) -> int:
    """The bonus the first three cards of an original hand win, as a multiple of the bet (0 for none).

    Three of a kind (same rank) pays 3, or 5 when the three are suited or total 21
    (7-7-7); a straight flush pays 3, or 5 when it totals 21 (6-7-8, and Q-K-A when
    that straight counts).

    >>> cards = [parse_card(t) for t in ('7S', '7H', '7D')]
    >>> bonus_multiple(cards, CasinoRules())
    5
    >>> bonus_multiple([parse_card(t) for t in ('9S', '9H', '9D')], CasinoRules())
    3
    >>> bonus_multiple([parse_card(t) for t in ('2C', '3C', 'AC')], CasinoRules())
    3
    """
    if len(cards) != 3:
        return 0
    ranks = [c.rank for c in cards]
    suited = cards[0].suit == cards[1].suit == cards[2].suit
    twenty_one = sum(c.value for c in cards) == 21
    if ranks[0] == ranks[1] == ranks[2]:
        return 5 if suited or twenty_one else 3
    if suited and _is_straight(ranks, rules):
        return 5 if twenty_one else 3
    return 0


class Shoe:
    """The shoe: ``decks`` shuffled decks, dealt from the top, reshuffled at the cut card.

    The cards dealt since the last shuffle are either on the table (``in_play``: the
    round being dealt) or in the discard tray (``discards``: the earlier rounds'). If
    the shoe runs out in the middle of a round, the dealer shuffles the discards and
    deals on from them, as at a real table: the cards on the table stay there, so no
    card is dealt twice in one round. The whole shoe is then shuffled before the next
    round (:attr:`needs_shuffle`).

    Args:
        decks: number of decks.
        rng: the random source (seeded for reproducible play).
        penetration: fraction of the shoe dealt before the reshuffle.
    """

    def __init__(self, decks: int, rng: random.Random, penetration: float = 0.75) -> None:
        self.decks = decks
        self.rng = rng
        self.penetration = penetration
        self.cards: list[Card] = []
        self.in_play: list[Card] = []
        self.discards: list[Card] = []
        self._reshuffled = False
        self.shuffle()

    def shuffle(self) -> None:
        """Put every card back and shuffle."""
        self.cards = [Card(r, s) for _ in range(self.decks) for s in range(4) for r in range(1, 14)]
        self.rng.shuffle(self.cards)
        self._cut = int(len(self.cards) * (1 - self.penetration))
        self.in_play = []
        self.discards = []
        self._reshuffled = False

    def clear_table(self) -> None:
        """The cards on the table go to the discards (a new round is about to be dealt)."""
        if self.in_play:
            self.discards += self.in_play
            self.in_play = []

    @property
    def needs_shuffle(self) -> bool:
        """Whether the cut card has come out, or the discards were dealt mid-round (checked between rounds)."""
        return self._reshuffled or len(self.cards) <= self._cut

    def draw(self) -> Card:
        """The next card; if the shoe is empty mid-round, the discards are shuffled and dealt first.

        Raises:
            RuntimeError: every card is on the table (more cards than one round can use).
        """
        if not self.cards:
            if not self.discards:
                raise RuntimeError("the shoe is empty and every card is on the table")
            self.cards, self.discards = self.discards, []
            self.rng.shuffle(self.cards)
            self._reshuffled = True
        card = self.cards.pop()
        self.in_play.append(card)
        return card
