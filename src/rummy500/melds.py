"""Melds: validating sets and runs, extending them, and finding them in a hand.

A run keeps its cards in order with a *position* per card: 1..14 where 1 is a
low ace and 14 a high ace. With ``around_the_corner`` positions keep counting
past the king (K A 2 is 13 14 15), so a run is always an increasing block of
positions; a card's rank is ``(pos - 1) % 13 + 1``.

A joker on the table is declared (``JK=7H``) and keeps that identity for good,
so it occupies the position of the card it stands for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from rummy500 import fastmeld as _fast
from rummy500.cards import JOKER, Card
from rummy500.rules import Rules, SetSuits
from rummy500.tablemeld import TableMeld, new_meld

__all__ = ["JOKER_SET", "RUN", "SET", "MeldError", "TableMeld", "find_layoffs", "find_melds", "make_meld"]

# Enum members bound once: reading a member off an Enum class costs ~0.7 us in
# Python 3.11 (EnumType.__getattr__), too slow for the legal-move loop.
_SET_SUITS_DISTINCT = SetSuits.DISTINCT


SET, RUN, JOKER_SET = "set", "run", "jokers"
_SHORT_RANKS = frozenset((1, 7, 8, 9, 10, 11, 12, 13))
_ALL_RANKS = frozenset(range(1, 14))


class MeldError(ValueError):
    """Cards that do not make a meld, or do not extend one."""


def rank_of_pos(pos: int) -> int:
    """The rank (1..13) at a run position."""
    return (pos - 1) % 13 + 1


# ---------------------------------------------------------------- validation
def _allowed_ranks(rules: Rules) -> frozenset[int]:
    return _SHORT_RANKS if rules.short_pack else _ALL_RANKS


def _run_positions(ranks: list[int], rules: Rules) -> list[int] | None:
    """Positions for a set of distinct ranks forming one block, or None."""
    n = len(ranks)
    if n > 13 or len(set(ranks)) != n:
        return None
    rs = sorted(ranks)
    if n == 13:
        # Every rank: the ace fits both ends of 2..K and goes high, as it does when laid off on 2..K.
        return list(range(2, 15))
    # Ace low: a plain block in 1..13.
    if rs[-1] - rs[0] == n - 1:
        if rs[0] == 1 and n > 1 and rs[1] != 2:
            pass
        else:
            return rs
    # Ace high: treat ace as 14.
    if 1 in rs:
        hi = sorted(14 if r == 1 else r for r in rs)
        if hi[-1] - hi[0] == n - 1:
            return hi
    if rules.around_the_corner:
        present = set(rs)
        for start in rs:
            block = [start + i for i in range(n)]
            if all(rank_of_pos(p) in present for p in block):
                return block
    return None


def make_meld(cards: Sequence[Card], rules: Rules, meld_id: int, seat: int, *, doubling_joker: bool = False) -> TableMeld:
    """Validate ``cards`` as a new meld and build it.

    Args:
        cards: natural cards and declared jokers (bare ``JK`` only in Persian
            joker sets, or as a Dealer's Gambit doubling joker).
        rules: the rules in force.
        meld_id: the id the meld will get.
        seat: who lays it down.
        doubling_joker: one bare joker in ``cards`` doubles and seals the set.

    Raises:
        MeldError: with the reason, in words.
    """
    if not doubling_joker and rules.jokers_wild and not rules.short_pack:
        plain = _plain_meld(cards, rules, meld_id, seat)
        if plain is not None:
            return plain
    cards = list(cards)
    if doubling_joker:
        if cards.count(JOKER) != 1:
            raise MeldError("a doubling joker is one joker placed on a set as it is melded")
        rest = [c for c in cards if c != JOKER]
        if any(c.is_joker for c in rest):
            raise MeldError("jokers are not wild this hand (the dealer nominated double)")
        base = make_meld(rest, rules, meld_id, seat)
        if base.kind != SET:
            raise MeldError("a doubling joker may only be placed on a set, not a run")
        return replace(
            base,
            cards=(*base.cards, JOKER),
            laid_by=(*base.laid_by, seat),
            initial=base.initial + 1,
            claimed=(*base.claimed, False),
            sealed=True,
            doubled=True,
        )
    n = len(cards)
    if n < 3:
        raise MeldError("a meld needs at least 3 cards")
    bare = [c for c in cards if c == JOKER]
    if not rules.jokers_wild:
        if bare and len(bare) != n:
            raise MeldError("jokers are not wild: they meld only with each other, in sets of 3 or 4 jokers")
        if bare:
            if n > 4:
                raise MeldError("a set of jokers has 3 or 4 jokers")
            return TableMeld(meld_id, JOKER_SET, tuple(cards), (seat,) * n, initial=n, owner=seat, claimed=(False,) * n)
        if any(c.is_joker for c in cards):
            raise MeldError("jokers are not wild in this game")
    elif bare:
        if sum(1 for c in cards if c < 64) < 2:
            # JK JK 5H: declaring the jokers would not help, so name the rule it breaks.
            raise MeldError("a meld must contain at least two natural cards, and each joker says what it stands for (JK=7H)")
        raise MeldError("say what each joker stands for, e.g. JK=7H")
    naturals = [c for c in cards if c < 64]
    if len(naturals) < 2:
        raise MeldError("a meld must contain at least two natural cards")
    allowed = _allowed_ranks(rules)
    for c in cards:
        if c.rank not in allowed:
            raise MeldError(f"{c} is not in the short pack")
    ranks = [c.rank for c in cards]
    suits = [c.suit for c in cards]
    if len(set(ranks)) == 1:
        if rules.set_suits is _SET_SUITS_DISTINCT:
            if len(set(suits)) != n:
                raise MeldError("the cards of a set must all be of different suits")
            if n > 4:
                raise MeldError("a set has 3 or 4 cards")
        else:
            cap = rules.n_decks * 4 + rules.n_jokers
            if n > cap:
                raise MeldError("too many cards for a set")
        order = tuple(sorted(cards, key=lambda c: (c >= 64, c)))
        return TableMeld(meld_id, SET, order, (seat,) * n, rank=ranks[0], initial=n, owner=seat, claimed=(False,) * n)
    if len(set(suits)) != 1:
        raise MeldError("a meld is a set (same rank, different suits) or a run (same suit, consecutive ranks)")
    positions = _run_positions(ranks, rules)
    if positions is None:
        if len(set(ranks)) != n:
            raise MeldError("a run cannot hold the same rank twice")
        if 1 in ranks and 13 in ranks and 2 in ranks:
            raise MeldError("the ace is high or low, not both: K A 2 is not a run")
        raise MeldError("the cards of a run must be in consecutive rank")
    if n < rules.min_run:
        raise MeldError(f"a new run needs at least {rules.min_run} cards")
    by_rank = {c.rank: c for c in cards}
    ordered = tuple(by_rank[rank_of_pos(p)] for p in positions)
    return TableMeld(
        meld_id, RUN, ordered, (seat,) * n, positions=tuple(positions), suit=suits[0], initial=n, owner=seat, claimed=(False,) * n
    )


def _set_order(c: Card) -> tuple[bool, Card]:
    return (c >= 64, c)


def _plain_meld(cards: Sequence[Card], rules: Rules, meld_id: int, seat: int) -> TableMeld | None:
    """:func:`make_meld` for a valid set or run of natural cards and declared jokers (wild jokers, full pack); None otherwise.

    It builds exactly what the general path builds; anything else (a bare joker, a
    meld that breaks a rule) goes the general way, which says what is wrong.
    """
    n = len(cards)
    if n < 3:
        return None
    ranks = []
    suits = []
    naturals = 0
    for c in cards:
        code = int(c)
        if code >= 64:
            if code < 128:
                return None  # a bare joker
            code -= 128
        else:
            naturals += 1
        ranks.append(code & 15)
        suits.append(code >> 4)
    if naturals < 2:
        return None
    if ranks.count(ranks[0]) == n:
        if rules.set_suits is _SET_SUITS_DISTINCT:
            if n > 4 or len(set(suits)) != n:
                return None
        elif n > rules.n_decks * 4 + rules.n_jokers:
            return None
        order = tuple(sorted(cards, key=_set_order))
        return new_meld(meld_id, SET, order, (seat,) * n, (), -1, ranks[0], n, seat, (False,) * n, False, False)
    if suits.count(suits[0]) != n or n < rules.min_run:
        return None
    positions = _run_positions(ranks, rules)
    if positions is None:
        return None
    by_rank = dict(zip(ranks, cards, strict=True))
    ordered = tuple(by_rank[rank_of_pos(p)] for p in positions)
    return new_meld(meld_id, RUN, ordered, (seat,) * n, tuple(positions), suits[0], 0, n, seat, (False,) * n, False, False)


def extend_meld(meld: TableMeld, new: Sequence[Card], rules: Rules, seat: int, claimed: bool = False) -> TableMeld:
    """Lay off ``new`` cards onto ``meld``.

    Raises:
        MeldError: the cards do not extend the meld.
    """
    if meld.sealed:
        raise MeldError(f"meld {meld.id} is sealed by a doubling joker: nothing more may be laid off on it")
    if not new:
        raise MeldError("lay off at least one card")
    if JOKER in new:
        if meld.kind != JOKER_SET or any(c != JOKER for c in new):
            raise MeldError("say what each joker stands for, e.g. JK=7H" if rules.jokers_wild else "jokers are not wild in this game")
        if len(meld.cards) + len(new) > 4:
            raise MeldError("a set of jokers has at most 4 jokers")
        return _grow(meld, meld.cards + tuple(new), None, new, seat, claimed)
    if meld.kind == JOKER_SET:
        raise MeldError("only jokers may be laid off on a set of jokers")
    if len(new) == 1 and meld.kind == RUN:
        c = new[0]
        if c < 64 and c >> 4 == meld.suit and (c & 15) in _allowed_ranks(rules):
            # One natural card of the run's suit (the common case): the high end first, as below.
            lo, hi = meld.positions[0], meld.positions[-1]
            r = c & 15
            if hi % 13 + 1 == r and _pos_ok(hi + 1, lo, hi, rules):
                return _rebuilt(meld, meld.cards + (c,), meld.positions + (hi + 1,), meld.laid_by + (seat,), meld.claimed + (claimed,))
            if (lo - 2) % 13 + 1 == r and _pos_ok(lo - 1, lo, hi, rules):
                return _rebuilt(meld, (c, *meld.cards), (lo - 1, *meld.positions), (seat, *meld.laid_by), (claimed, *meld.claimed))
            raise MeldError(f"{c} does not extend the run of meld {meld.id} at either end")
    if not rules.jokers_wild and any(c.is_joker for c in new):
        raise MeldError("jokers are not wild in this game")
    allowed = _allowed_ranks(rules)
    for c in new:
        if c.rank not in allowed:
            raise MeldError(f"{c} is not in the short pack")
    if meld.kind == SET:
        if any(c.rank != meld.rank for c in new):
            raise MeldError(f"only cards of the set's rank can be laid off on meld {meld.id}")
        total = len(meld.cards) + len(new)
        if rules.set_suits is _SET_SUITS_DISTINCT:
            suits = [c.suit for c in meld.cards] + [c.suit for c in new]
            if len(set(suits)) != len(suits):
                raise MeldError(f"meld {meld.id} already has that suit: the cards of a set must all be of different suits")
            if total > 4:
                raise MeldError("a set has at most 4 cards")
        order = meld.cards + tuple(sorted(new, key=lambda c: (c >= 64, c)))
        return _grow(meld, order, None, new, seat, claimed)
    # A run: place every new card at one end or the other.
    if any(c.suit != meld.suit for c in new):
        raise MeldError(f"only {'CDHS'[meld.suit]} cards can extend the run of meld {meld.id}")
    remaining = list(new)
    lo, hi = meld.positions[0], meld.positions[-1]
    low_cards: list[tuple[int, Card]] = []
    high_cards: list[tuple[int, Card]] = []
    progress = True
    while remaining and progress:
        progress = False
        # High end first: an ace that fits either end of 2..K goes high.
        for p, side in ((hi + 1, high_cards), (lo - 1, low_cards)):
            if not _pos_ok(p, lo, hi, rules):
                continue
            want = rank_of_pos(p)
            for c in remaining:
                if c.rank == want:
                    remaining.remove(c)
                    side.append((p, c))
                    if side is high_cards:
                        hi = p
                    else:
                        lo = p
                    progress = True
                    break
            if progress:
                break
    if remaining:
        raise MeldError(f"{' '.join(map(str, remaining))} does not extend the run of meld {meld.id} at either end")
    low_cards.reverse()
    cards = tuple(c for _, c in low_cards) + meld.cards + tuple(c for _, c in high_cards)
    positions = tuple(p for p, _ in low_cards) + meld.positions + tuple(p for p, _ in high_cards)
    n_low = len(low_cards)
    laid = (seat,) * n_low + meld.laid_by + (seat,) * len(high_cards)
    flags = (claimed,) * n_low + meld.claimed + (claimed,) * len(high_cards)
    return _rebuilt(meld, cards, positions, laid, flags)


def _rebuilt(
    meld: TableMeld, cards: tuple[Card, ...], positions: tuple[int, ...], laid_by: tuple[int, ...], claimed: tuple[bool, ...]
) -> TableMeld:
    """``meld`` with new cards (what ``dataclasses.replace`` builds, without its overhead)."""
    return new_meld(
        meld.id, meld.kind, cards, laid_by, positions, meld.suit, meld.rank, meld.initial, meld.owner, claimed, meld.sealed, meld.doubled,
        meld.swapped,
    )


def _pos_ok(p: int, lo: int, hi: int, rules: Rules) -> bool:
    return _fast.pos_ok(p, lo, hi, rules.around_the_corner, rules.short_pack)


def _grow(meld: TableMeld, cards: tuple[Card, ...], positions: tuple[int, ...] | None, new: Sequence[Card], seat: int, claimed: bool) -> TableMeld:
    k = len(new)
    return _rebuilt(meld, cards, meld.positions, meld.laid_by + (seat,) * k, meld.claimed + (claimed,) * k)


def is_low_ace(meld: TableMeld, index: int) -> bool:
    """Whether card ``index`` of a run is an ace at its low end (A 2 3 ...)."""
    return (
        meld.kind == RUN
        and index == 0
        and len(meld.cards) > 1
        and meld.cards[0].rank == 1
        and meld.cards[1].rank == 2
    )


# --------------------------------------------------------------- enumeration
def find_melds(
    hand: Iterable[Card], rules: Rules, extra_jokers: int = 0, containing: Card | None = None
) -> list[tuple[Card, ...]]:
    """Every new meld (as a sorted card tuple) that can be laid from ``hand``, sorted.

    The shapes are memoised per suit and per rank (:mod:`rummy500.fastmeld`).

    Args:
        hand: the cards held.
        rules: the rules in force.
        extra_jokers: jokers usable besides those in hand (the dealer's joker).
        containing: only melds that use this card (a natural card, or ``JK``:
            melds with a joker).

    >>> from rummy500.cards import parse_cards
    >>> [" ".join(map(str, m)) for m in find_melds(parse_cards("5H 6H 7H 7S 7D"), Rules())]
    ['7D 7H 7S', '5H 6H 7H']
    """
    return _fast.find_melds(hand, rules, extra_jokers, containing)


def fits_alone(meld: TableMeld, card: Card, rules: Rules) -> bool:
    """Whether ``card`` alone can be laid off on ``meld`` (what :func:`extend_meld` would accept).

    >>> from rummy500.cards import parse_card, parse_cards
    >>> run = make_meld(parse_cards("5H 6H 7H"), Rules(), 0, 0)
    >>> fits_alone(run, parse_card("8H"), Rules()), fits_alone(run, parse_card("9H"), Rules())
    (True, False)
    """
    if card < 64:
        return bool(_fast.fits(_fast.tables(rules), meld) >> card & 1)
    try:
        extend_meld(meld, [card], rules, 0)
    except MeldError:
        return False
    return True


def find_layoffs(meld: TableMeld, hand: Iterable[Card], rules: Rules, extra_jokers: int = 0) -> list[tuple[Card, ...]]:
    """Every group of hand cards that can be laid off on ``meld`` in one action.

    >>> from rummy500.cards import parse_cards
    >>> run = make_meld(parse_cards("5H 6H 7H"), Rules(), 0, 0)
    >>> [" ".join(map(str, x)) for x in find_layoffs(run, parse_cards("4H 8H 9H KS"), Rules())]
    ['8H', '8H 9H', '4H', '4H 8H', '4H 8H 9H']
    """
    return _fast.find_layoffs(meld, hand, rules, extra_jokers)
