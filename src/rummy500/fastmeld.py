"""Fast meld and lay-off enumeration: hands as bit masks, shapes memoised per suit and per rank.

A hand of one pack is an ``int`` with bit ``c`` set for each natural card code
``c`` it holds (``suit * 16 + rank``), so a suit is a 14-bit rank mask
(``(mask >> 16 * suit) & RANKS``) and a rank is a column of four bits. Every
run a hand can lay depends only on one suit's rank mask and the number of
jokers; every set only on the cards held of one rank and the jokers. Those
few thousand shapes are computed once, on first sight, and kept in tables per
set of rules (:class:`Tables`), so that enumerating a hand is a handful of
dictionary look-ups. Lay-offs are memoised the same way: on a run by its suit,
ends and length and the held rank mask of its suit; on a set by its rank, the
suits it has and the held cards of that rank.

:func:`rummy500.melds.find_melds` and :func:`rummy500.melds.find_layoffs` are
the public entry points; they return exactly what the plain enumeration
(``tests/engine/old_melds.py``) returns, in the same order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement
from operator import is_
from typing import TYPE_CHECKING, Any, TypeVar

from rummy500.cards import JOKER, Card, card, declared
from rummy500.rules import LayoffOnto, SetSuits

if TYPE_CHECKING:
    from rummy500.rules import Rules
    from rummy500.tablemeld import TableMeld

__all__ = ["Hand", "Tables", "find_layoffs", "find_melds", "scan", "tables"]

_DECLARED = 128
# Enum members bound once (reading one off its class is slow in Python 3.11).
_SET_SUITS_DISTINCT = SetSuits.DISTINCT
_LAYOFF_ONTO_ANY = LayoffOnto.ANY
_SHORT_RANKS = frozenset((1, 7, 8, 9, 10, 11, 12, 13))
_ALL_RANKS = frozenset(range(1, 14))
#: Bits 1..13 of a suit's rank mask.
RANKS = 0x3FFE
#: The four aces' bits in a card mask.
_ACES = 0x0002000200020002
#: One bit per suit: shifted left by a rank, the four cards of that rank.
RANK_COLUMN = 0x0001000100010001
#: Tables grow with the shapes seen; past this many entries a table starts afresh.
_MAX_ENTRIES = 200_000

_CARD: list[Card] = [card(i) if 1 <= (i & 15) <= 13 else JOKER for i in range(64)]
_DECL: list[Card] = [declared(card(i)) if 1 <= (i & 15) <= 13 else JOKER for i in range(64)]


class Tables:
    """The memo tables of one set of rules (shared by every equal set of rules).

    Attributes:
        wrap: ``around_the_corner``.
        short: ``short_pack``.
        min_len: the shortest new run.
        distinct: sets need distinct suits.
        cap: the most cards a set may hold.
        wild: jokers are wild.
        allowed: the ranks in the pack.
    """

    __slots__ = ("allowed", "cap", "distinct", "fit_shapes", "fits", "holding", "lay_run", "using", "lay_set", "min_len", "runs", "sets", "short", "wild", "wrap")

    def __init__(self, wrap: bool, short: bool, min_len: int, distinct: bool, cap: int, wild: bool) -> None:
        self.wrap = wrap
        self.short = short
        self.min_len = min_len
        self.distinct = distinct
        self.cap = cap
        self.wild = wild
        self.allowed = _SHORT_RANKS if short else _ALL_RANKS
        self.runs: dict[int, tuple[tuple[Card, ...], ...]] = {}
        self.sets: dict[object, tuple[tuple[Card, ...], ...]] = {}
        self.holding: dict[int, tuple[tuple[Card, ...], ...]] = {}
        self.using: dict[int, tuple[tuple[Card, ...], ...]] = {}
        self.fits: dict[int, tuple[TableMeld, int]] = {}
        self.fit_shapes: dict[tuple[object, ...], int] = {}
        self.lay_run: dict[tuple[int, ...], tuple[tuple[Card, ...], ...]] = {}
        self.lay_set: dict[object, tuple[tuple[Card, ...], ...]] = {}


_V = TypeVar("_V")
_BY_PARAMS: dict[tuple[bool, bool, int, bool, int, bool], Tables] = {}
_BY_ID: dict[int, tuple[Rules, Tables]] = {}
#: The rules last asked for and their tables: most calls ask for the same rules again.
_LAST: list[object] = [None, None]


def tables(rules: Rules) -> Tables:
    """The memo tables for ``rules`` (found by identity first: rules objects are frozen)."""
    if rules is _LAST[0]:
        return _LAST[1]  # type: ignore[return-value]
    hit = _BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        _LAST[:] = hit
        return hit[1]
    distinct = rules.set_suits is _SET_SUITS_DISTINCT
    key: tuple[bool, bool, int, bool, int, bool] = (
        rules.around_the_corner,
        rules.short_pack,
        max(3, rules.min_run),
        distinct,
        4 if distinct else rules.n_decks * 4 + rules.n_jokers,
        rules.jokers_wild,
    )
    t = _BY_PARAMS.get(key)
    if t is None:
        t = _BY_PARAMS[key] = Tables(*key)
    if len(_BY_ID) > 1024:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, t)  # the reference keeps the id from being reused
    _LAST[:] = (rules, t)
    return t


class Hand:
    """A hand as bit masks: ``mask`` (natural cards held), ``jokers`` (bare jokers) and, with duplicates, the cards.

    Attributes:
        mask: bit ``c`` set for every natural card code ``c`` held.
        jokers: bare jokers held.
        dups: the natural cards held, sorted, when some card is held twice
            (two packs); otherwise None.
    """

    __slots__ = ("dups", "jokers", "mask")

    def __init__(self, mask: int, jokers: int, dups: tuple[Card, ...] | None) -> None:
        self.mask = mask
        self.jokers = jokers
        self.dups = dups

    def __reduce__(self) -> tuple[type[Hand], tuple[int, int, tuple[Card, ...] | None]]:
        # Copied and pickled by its fields (the compiled build's native class has no slots to copy).
        return Hand, (self.mask, self.jokers, self.dups)


def scan(hand: Iterable[Card]) -> Hand:
    """Index a hand: its natural-card mask, its jokers and (two packs) its duplicates."""
    mask = 0
    jokers = 0
    dup = False
    for c in hand:
        if c == 64:
            jokers += 1
            continue
        b = 1 << c
        if mask & b:
            dup = True
        mask |= b
    if dup:
        return Hand(mask, jokers, tuple(sorted(c for c in hand if c != 64)))
    return Hand(mask, jokers, None)


def _store(table: dict[Any, _V], key: object, value: _V) -> _V:
    if len(table) >= _MAX_ENTRIES:
        table.clear()
    table[key] = value
    return value


# ------------------------------------------------------------------- melds
def _pair_ranks(mask: int) -> int:
    """Rank bits held in at least two suits."""
    a = mask & RANKS
    b = (mask >> 16) & RANKS
    c = (mask >> 32) & RANKS
    d = (mask >> 48) & RANKS
    return (a & (b | c | d)) | (b & (c | d)) | (c & d)


def run_ranks(sm: int, jokers: int) -> int:
    """The ranks of rank mask ``sm`` that some run with ``jokers`` jokers can hold (runs that do not wrap).

    A held card is in a run only with another held card at most ``jokers + 1``
    positions away (without jokers: three in a row); the others can be dropped
    from ``sm`` without changing its runs, so one memo entry serves them all.
    """
    m = sm | (sm & 2) << 13  # the ace high too (bit 14)
    if jokers == 0:
        t3 = m & (m >> 1) & (m >> 2)
        rel = t3 | t3 << 1 | t3 << 2
    else:
        near = 0
        for d in range(1, jokers + 2):
            near |= m << d | m >> d
        rel = m & near
    return (rel & RANKS) | (rel >> 13 & 2)


def _runs_of(t: Tables, suit: int, sm: int, jokers: int) -> tuple[tuple[Card, ...], ...]:
    """The runs of ``suit`` from rank mask ``sm`` and ``jokers`` jokers (memoised)."""
    if not t.wrap:
        sm = run_ranks(sm, jokers)
    key = ((jokers << 16) | sm) << 2 | suit
    got = t.runs.get(key)
    if got is None:
        got = _store(t.runs, key, _suit_runs(t, suit, sm, jokers))
    return got


def _sets_of(t: Tables, rank: int, col: int, jokers: int) -> tuple[tuple[Card, ...], ...]:
    """The sets of ``rank`` from the suits of column ``col`` and ``jokers`` jokers (memoised)."""
    key = (((jokers << 16) | col) << 4) | rank
    got = t.sets.get(key)
    if got is None:
        held = [_CARD[s * 16 + rank] for s in range(4) if col >> s & 1]
        got = _store(t.sets, key, _rank_sets(t, rank, held, jokers))
    return got


def _column(mask: int, rank: int) -> int:
    """The suits held of ``rank``, as four bits."""
    return ((mask >> rank) & 1) | ((mask >> (rank + 15)) & 2) | ((mask >> (rank + 30)) & 4) | ((mask >> (rank + 45)) & 8)


def melds_of(t: Tables, h: Hand, jokers: int) -> list[tuple[Card, ...]]:
    """Every new meld of hand ``h`` with ``jokers`` wild jokers, unsorted (runs by suit, then sets by rank)."""
    out: list[tuple[Card, ...]] = []
    mask = h.mask
    if jokers or t.wrap:
        for suit in range(4):
            sm = (mask >> (suit << 4)) & RANKS
            if sm & (sm - 1):  # at least two ranks
                out += _runs_of(t, suit, sm, jokers)
    else:
        # Without jokers only a suit with three in a row has runs (the others add nothing).
        m = mask | (mask & _ACES) << 13
        t3 = m & m >> 1 & m >> 2
        for suit in range(4):
            if t3 >> (suit << 4) & 0xFFFF:
                out += _runs_of(t, suit, (mask >> (suit << 4)) & RANKS, 0)
    sets = t.sets
    if h.dups is not None and not t.distinct:
        by_rank: dict[int, list[Card]] = {}
        for c in h.dups:
            by_rank.setdefault(c & 15, []).append(c)
        for rank, held in by_rank.items():
            if len(held) < 2:
                continue
            dkey = (jokers, *held)
            got = sets.get(dkey)
            if got is None:
                got = _store(sets, dkey, _rank_sets(t, rank, held, jokers))
            if got:
                out += got
        return out
    pairs = _pair_ranks(mask) if jokers else _three_ranks(mask)  # a set without jokers needs three cards
    while pairs:
        low = pairs & -pairs
        pairs ^= low
        r = low.bit_length() - 1
        out += _sets_of(t, r, _column(mask, r), jokers)
    return out


def find_melds(
    hand: Iterable[Card], rules: Rules, extra_jokers: int = 0, containing: Card | None = None
) -> list[tuple[Card, ...]]:
    """Every new meld (as a sorted card tuple) that can be laid from ``hand``, sorted; see :func:`rummy500.melds.find_melds`."""
    t = tables(rules)
    h = scan(hand)
    if containing is None:
        return all_melds(t, h, extra_jokers)
    jokers = h.jokers + extra_jokers
    if not t.wild:
        if containing is None or containing == JOKER:
            out = [(JOKER,) * n for n in range(3, min(jokers, 4) + 1)]
        else:
            out = []
        if containing == JOKER:
            return out  # no natural meld holds a joker
        jokers = 0
    else:
        out = []
    if containing is not None and containing != JOKER:
        return list(melds_holding(t, h, jokers, containing))
    out += melds_of(t, h, jokers)
    if containing == JOKER:
        return sorted(m for m in out if m[-1] >= 64)
    out.sort()
    return out


def melds_holding(t: Tables, h: Hand, jokers: int, c: Card) -> tuple[tuple[Card, ...], ...]:
    """Every new meld of hand ``h`` (``jokers`` wild jokers) that holds natural card ``c``, sorted."""
    if h.dups is not None:
        return tuple(sorted(m for m in _melds_with(t, h, jokers, c) if c in m))
    mask = h.mask
    rank = c & 15
    sm = (mask >> (c & 48)) & RANKS
    if not t.wrap:
        sm = run_ranks(sm, jokers)  # the same runs
    col = _column(mask, rank)
    key = (((jokers << 14 | sm) << 4 | col) << 6) | c
    got = t.holding.get(key)
    if got is None:
        got = _store(t.holding, key, tuple(sorted(m for m in _melds_with(t, h, jokers, c) if c in m)))
    return got


def _no_three(mask: int) -> bool:
    """Whether a hand of distinct natural cards ``mask`` has no three of a rank and no three in a row of a suit (ace high too).

    Such a hand melds nothing without jokers (corner-wrapping runs aside): the
    plain turn's quick answer.
    """
    a = mask & RANKS
    b = (mask >> 16) & RANKS
    c = (mask >> 32) & RANKS
    d = (mask >> 48) & RANKS
    if (a & b & (c | d)) | (c & d & (a | b)):
        return False  # three of a rank
    # Every suit at once: bits 0 and 15 of a suit are never held, so no three cross suits.
    m = mask | (mask & _ACES) << 13  # each ace high too (bit 14 of its suit)
    return not m & m >> 1 & m >> 2


def _three_ranks(mask: int) -> int:
    """Rank bits held in at least three suits."""
    a = mask & RANKS
    b = (mask >> 16) & RANKS
    c = (mask >> 32) & RANKS
    d = (mask >> 48) & RANKS
    return (a & b & (c | d)) | (c & d & (a | b))


def all_melds(t: Tables, h: Hand, extra_jokers: int = 0) -> list[tuple[Card, ...]]:
    """Every new meld of the indexed hand ``h``, sorted: ``find_melds(hand, rules, extra_jokers)``."""
    jokers = h.jokers + extra_jokers
    if not jokers and h.dups is None and not t.wrap and _no_three(h.mask):
        return []
    if t.wild:
        out = melds_of(t, h, jokers)
    else:
        out = [(JOKER,) * n for n in range(3, min(jokers, 4) + 1)]
        out += melds_of(t, h, 0)
    out.sort()
    return out


def _melds_with(t: Tables, h: Hand, jokers: int, c: Card) -> list[tuple[Card, ...]]:
    """The runs of ``c``'s suit and the sets of ``c``'s rank (not yet filtered on holding ``c``)."""
    rank, suit = c & 15, c >> 4
    mask = h.mask
    out: list[tuple[Card, ...]] = []
    sm = (mask >> (suit << 4)) & RANKS
    if sm & (sm - 1):
        out += _runs_of(t, suit, sm, jokers)
    if h.dups is not None and not t.distinct:
        held = [x for x in h.dups if x & 15 == rank]
        if len(held) >= 2:
            dkey = (jokers, *held)
            got = t.sets.get(dkey)
            if got is None:
                got = _store(t.sets, dkey, _rank_sets(t, rank, held, jokers))
            out += got
        return out
    col = _column(mask, rank)
    if col & (col - 1):
        out += _sets_of(t, rank, col, jokers)
    return out


def _rank_sets(t: Tables, rank: int, held: list[Card], jokers: int) -> tuple[tuple[Card, ...], ...]:
    """Every set of ``rank`` from ``held`` (the cards of that rank) and ``jokers`` jokers, sorted."""
    out: set[tuple[Card, ...]] = set()
    if rank not in t.allowed:
        return ()
    distinct = t.distinct
    cap = t.cap
    pool = sorted(set(held)) if distinct else sorted(held)
    if len(pool) + jokers < 3 or len(pool) < 2:
        return ()
    for size in range(2, min(len(pool), cap) + 1):
        for nat in set(combinations(pool, size)):
            for j in range(max(0, 3 - size), min(jokers, cap - size) + 1):
                if j == 0:
                    out.add(nat)
                    continue
                if distinct:
                    used = {c.suit for c in nat}
                    free = [s for s in range(4) if s not in used]
                    choices: Iterable[tuple[int, ...]] = combinations(free, j)
                else:
                    choices = combinations_with_replacement(range(4), j)
                for suits in choices:
                    jk = tuple(_DECL[s * 16 + rank] for s in suits)
                    out.add(tuple(sorted(nat + jk)))
    return tuple(sorted(out))


def _suit_runs(t: Tables, suit: int, sm: int, jokers: int) -> tuple[tuple[Card, ...], ...]:
    """Every run of ``suit`` from the held rank mask ``sm`` and ``jokers`` jokers, sorted.

    Windows are grown from each start position and abandoned as soon as they
    need more jokers than there are.
    """
    wrap = t.wrap
    allowed = t.allowed
    min_len = t.min_len
    last_start = 13 if wrap else 14
    out: set[tuple[Card, ...]] = set()
    if not wrap and jokers <= 1:
        # Quick reject: no three in a row (no jokers) or no two within a gap of one (one joker).
        m = sm | (1 << 14) if sm & 2 else sm
        pairs = m & (m >> 1)
        if jokers == 0 and not pairs & (m >> 2):
            return ()
        if jokers == 1 and not (pairs or m & (m >> 2)):
            return ()
    base = suit * 16
    # Positions 1..27 (1 and 14 are both the ace; wrapping runs count on past 14).
    held = [False] * 28
    for p in range(1, 28):
        held[p] = bool(sm >> ((p - 1) % 13 + 1) & 1)
    for s in range(1, last_start + 1):
        # A window must start at most `jokers` positions before a held card.
        if not any(held[s : s + jokers + 1]):
            continue
        limit = s + 12 if wrap else min(14, s + 12)
        missing = 0
        nat = 0
        for e in range(s, limit + 1):
            r = (e - 1) % 13 + 1
            if r not in allowed:
                break
            if held[e]:
                nat += 1
            else:
                missing += 1
                if missing > jokers:
                    break
            if e - s + 1 < min_len or nat < 2:
                continue
            _emit_run(base, s, e, held, jokers - missing, out)
    return tuple(sorted(out))


def _emit_run(base: int, s: int, e: int, held: list[bool], spare: int, out: set[tuple[Card, ...]]) -> None:
    held_r = []
    cards = []
    for p in range(s, e + 1):
        r = (p - 1) % 13 + 1
        if held[p]:
            held_r.append(r)
            cards.append(_CARD[base + r])
        else:
            cards.append(_DECL[base + r])
    out.add(tuple(sorted(cards)))
    if spare <= 0:
        return
    for j in range(1, spare + 1):
        if len(held_r) - j < 2:
            break
        for swap in combinations(held_r, j):
            sw = set(swap)
            cs = [_DECL[base + r] if r in sw else _CARD[base + r] for r in held_r]
            cs.extend(c for c in cards if c >= _DECLARED)
            out.add(tuple(sorted(cs)))


# ---------------------------------------------------------------- lay-offs
def layoffs_of(t: Tables, meld: TableMeld, h: Hand, jokers: int) -> tuple[tuple[Card, ...], ...]:
    """Every group of cards of hand ``h`` (with ``jokers`` jokers, wild or not) that can be laid off on ``meld``, sorted."""
    if meld.sealed:
        return ()
    kind = meld.kind
    if kind == "run":
        if not t.wild:
            jokers = 0
        lo = meld.positions[0]
        hi = meld.positions[-1]
        suit = meld.suit
        sm = (h.mask >> (suit << 4)) & RANKS
        if jokers == 0:
            # Without jokers only held cards next to an end can go: most hands have none.
            rlo = (lo - 2) % 13 + 1
            rhi = hi % 13 + 1
            if not (sm >> rlo & 1 or sm >> rhi & 1):
                return ()
        if not t.wrap:
            sm = _end_ranks(sm, lo, hi, jokers)  # only the held cards a lay-off can reach matter
        key = (suit, lo, hi, len(meld.cards), sm, jokers)
        got = t.lay_run.get(key)
        if got is None:
            got = _store(t.lay_run, key, _run_layoffs(t, meld, sm, jokers))
        return got
    if kind == "set":
        if not t.wild:
            jokers = 0
        rank = meld.rank
        mask = h.mask
        if h.dups is not None and not t.distinct:
            held: tuple[Card, ...] = tuple(c for c in h.dups if c & 15 == rank)
            if not held and not jokers:
                return ()
            skey: object = (rank, jokers, held)
        else:
            col = _column(mask, rank)
            if not col and not jokers:
                return ()
            used = 0
            if t.distinct:
                for c in meld.cards:
                    used |= 1 << ((c - _DECLARED if c >= _DECLARED else c) >> 4 & 3)
            skey = ((((len(meld.cards) << 4 | used) << 4 | col) << 4 | rank) << 8) | jokers
            held = tuple(_CARD[s * 16 + rank] for s in range(4) if col >> s & 1)
        got = t.lay_set.get(skey)
        if got is None:
            got = _store(t.lay_set, skey, _set_layoffs(t, meld, list(held), jokers))
        return got
    # A set of jokers (Persian): only bare jokers, up to four.
    room = 4 - len(meld.cards)
    return tuple((JOKER,) * n for n in range(1, min(room, jokers) + 1))


def _end_ranks(sm: int, lo: int, hi: int, jokers: int) -> int:
    """The ranks of rank mask ``sm`` a lay-off on a run (positions ``lo``..``hi``, no wrap) can reach with ``jokers`` jokers.

    A card goes on with every position between it and the run's end, each held
    or a joker; the cards farther out never take part (see :func:`_run_layoffs`),
    so they can be dropped from the memo key.
    """
    m = sm | (sm & 2) << 13  # the ace high too (bit 14)
    out = 0
    p = lo - 1
    gaps = jokers
    while p >= 1:
        if m >> p & 1:
            out |= 1 << p
        elif gaps:
            gaps -= 1
        else:
            break
        p -= 1
    p = hi + 1
    gaps = jokers
    while p <= 14:
        if m >> p & 1:
            out |= 1 << p
        elif gaps:
            gaps -= 1
        else:
            break
        p += 1
    return (out & RANKS) | (out >> 13 & 2)


def hand_layoffs(t: Tables, meld: TableMeld, h: Hand) -> tuple[tuple[Card, ...], ...]:
    """:func:`layoffs_of` with the hand's own jokers (what :func:`find_layoffs` gives for an indexed hand)."""
    return layoffs_of(t, meld, h, h.jokers)


def find_layoffs(meld: TableMeld, hand: Iterable[Card], rules: Rules, extra_jokers: int = 0) -> list[tuple[Card, ...]]:
    """Every group of hand cards that can be laid off on ``meld`` in one action; see :func:`rummy500.melds.find_layoffs`."""
    cards = tuple(hand)
    if cards == _LAST_SCAN[0]:
        h: Hand = _LAST_SCAN[1]  # type: ignore[assignment]
    else:
        h = scan(cards)
        _LAST_SCAN[:] = (cards, h)  # callers often ask about every meld for one hand
    return list(layoffs_of(tables(rules), meld, h, h.jokers + extra_jokers))


_LAST_SCAN: list[object] = [None, None]


def _set_layoffs(t: Tables, meld: TableMeld, held: list[Card], jokers: int) -> tuple[tuple[Card, ...], ...]:
    if meld.rank not in t.allowed:
        return ()
    out: set[tuple[Card, ...]] = set()
    if t.distinct:
        used = {c.suit for c in meld.cards}
        free = [s for s in range(4) if s not in used]
        room = 4 - len(meld.cards)
        for k in range(1, room + 1):
            for suits in combinations(free, k):
                nat_opts = []
                for s in suits:
                    opts = []
                    code = card(s * 16 + meld.rank)
                    if code in held:
                        opts.append(code)
                    opts.append(declared(code))
                    nat_opts.append(opts)
                _product_with_jokers(nat_opts, jokers, out)
    else:
        counts = Counter(held)
        pool = sorted(counts.elements())
        for k in range(0, len(pool) + 1):
            for nat in set(combinations(pool, k)):
                for j in range(0, jokers + 1):
                    if k + j == 0:
                        continue
                    for suits in combinations_with_replacement(range(4), j):
                        jk = tuple(declared(card(s * 16 + meld.rank)) for s in suits)
                        out.add(tuple(sorted(nat + jk)))
    return tuple(sorted(out))


def pos_ok(p: int, lo: int, hi: int, wrap: bool, short: bool) -> bool:
    """Whether run position ``p`` may join a run spanning ``lo``..``hi`` (``around_the_corner``: ``wrap``; short pack)."""
    if (hi if hi > p else p) - (lo if lo < p else p) >= 13:
        return False
    if not wrap and not 1 <= p <= 14:
        return False
    return not short or (p - 1) % 13 + 1 in _SHORT_RANKS


def _pos_ok(p: int, lo: int, hi: int, t: Tables) -> bool:
    return pos_ok(p, lo, hi, t.wrap, t.short)


def _run_layoffs(t: Tables, meld: TableMeld, sm: int, jokers: int) -> tuple[tuple[Card, ...], ...]:
    """A run: choose how far to extend below and above."""
    lo, hi = meld.positions[0], meld.positions[-1]
    base = meld.suit * 16
    held_set = {_CARD[base + r] for r in range(1, 14) if sm >> r & 1}
    size = len(meld.cards)
    if jokers == 0:
        return _plain_run_layoffs(t, meld, held_set)
    below: list[Card] = []
    p = lo - 1
    while _pos_ok(p, lo, hi, t) and len(below) < 13:
        below.append(_CARD[base + (p - 1) % 13 + 1])
        p -= 1
    above: list[Card] = []
    p = hi + 1
    while _pos_ok(p, lo, hi, t) and len(above) < 13:
        above.append(_CARD[base + (p - 1) % 13 + 1])
        p += 1
    out: set[tuple[Card, ...]] = set()
    for a in range(0, len(below) + 1):
        for b in range(0, len(above) + 1):
            if a + b == 0 or size + a + b > 13:
                continue
            needed = below[:a] + above[:b]
            if len(set(needed)) != len(needed):
                continue  # around the corner: the same rank at both ends
            missing = [c for c in needed if c not in held_set]
            if len(missing) > jokers:
                continue
            opts = [[c, declared(c)] if c in held_set else [declared(c)] for c in needed]
            _product_with_jokers(opts, jokers, out)
    # An ace fitting both ends of 2..K goes high (see extend_meld): keep only what extend accepts.
    return tuple(sorted(o for o in out if _extends(meld, o, t)))


def _plain_run_layoffs(t: Tables, meld: TableMeld, held: set[Card]) -> tuple[tuple[Card, ...], ...]:
    """Lay-offs on a run without jokers: unbroken sequences of held cards at either end."""
    lo, hi = meld.positions[0], meld.positions[-1]
    base = meld.suit * 16
    below: list[Card] = []
    p = lo - 1
    while _pos_ok(p, lo, hi, t):
        c = _CARD[base + (p - 1) % 13 + 1]
        if c not in held:
            break
        below.append(c)
        p -= 1
    above: list[Card] = []
    p = hi + 1
    while _pos_ok(p, lo, hi, t):
        c = _CARD[base + (p - 1) % 13 + 1]
        # An ace can be reached at both ends (3..K with A 2 held): keep it here too,
        # so the ace alone on the high end is offered; repeats are dropped below.
        if c not in held:
            break
        above.append(c)
        p += 1
    if not below and not above:
        return ()
    size = len(meld.cards)
    out = []
    for a in range(len(below) + 1):
        for b in range(len(above) + 1):
            if a + b == 0 or size + a + b > 13:
                continue
            combo = below[:a] + above[:b]
            key = tuple(sorted(combo))
            if len(set(combo)) == len(combo) and key not in out:
                out.append(key)
    if t.wrap and len(out) > 1:
        # Wrapping runs can offer one rank at both ends: keep what extend_meld accepts.
        return tuple(sorted(o for o in set(out) if _extends(meld, o, t)))
    return tuple(out)


def _extends(meld: TableMeld, cards: Sequence[Card], t: Tables) -> bool:
    """Whether ``cards`` (of the run's suit) extend the run as :func:`rummy500.melds.extend_meld` places them."""
    remaining = [(c - _DECLARED if c >= _DECLARED else c) & 15 for c in cards]
    lo, hi = meld.positions[0], meld.positions[-1]
    while remaining:
        placed = False
        # High end first: an ace that fits either end of 2..K goes high.
        for p, high in ((hi + 1, True), (lo - 1, False)):
            if not _pos_ok(p, lo, hi, t):
                continue
            want = (p - 1) % 13 + 1
            if want in remaining:
                remaining.remove(want)
                if high:
                    hi = p
                else:
                    lo = p
                placed = True
                break
        if not placed:
            return False
    return True


def _product_with_jokers(options: list[list[Card]], jokers: int, out: set[tuple[Card, ...]]) -> None:
    """Add every choice of one card per slot that uses at most ``jokers`` jokers."""
    acc: list[tuple[tuple[Card, ...], int]] = [((), 0)]
    for opts in options:
        nxt = []
        for cards, used in acc:
            for c in opts:
                u = used + (1 if c >= _DECLARED else 0)
                if u <= jokers:
                    nxt.append((cards + (c,), u))
        acc = nxt
    for cards, _ in acc:
        out.add(tuple(sorted(cards)))


# ------------------------------------------------------- using one card
def holds(cards: Sequence[Card], c: Card) -> bool:
    """Whether a meld or lay-off uses hand card ``c`` (a joker: any joker, declared or bare)."""
    if c == JOKER:
        return any(x >= 64 for x in cards)
    return c in cards


def melds_using(t: Tables, h: Hand, jokers: int, c: Card) -> Sequence[tuple[Card, ...]]:
    """The new melds of hand ``h`` (with ``jokers`` jokers in all) that use card ``c``, in no set order.

    The same melds as ``find_melds(hand, rules, extra, containing=c)``.
    """
    if not t.wild:
        if c == JOKER:
            return [(JOKER,) * n for n in range(3, min(jokers, 4) + 1)]
        return melds_holding(t, h, 0, c)
    if c == JOKER:
        return [m for m in melds_of(t, h, jokers) if m[-1] >= 64]
    if h.dups is not None:
        return melds_holding(t, h, jokers, c)
    # The runs through c and the sets of c's rank, each memoised on its own (unsorted together).
    mask = h.mask
    rank = c & 15
    sm = (mask >> (c & 48)) & RANKS
    if not t.wrap:
        sm = run_ranks(sm, jokers)  # the same runs
    col = _column(mask, rank)
    memo = t.using
    rkey = ((jokers << 14 | sm) << 6) | c
    runs = memo.get(rkey)
    if runs is None:
        runs = tuple(m for m in _runs_of(t, c >> 4, sm, jokers) if c in m) if sm & (sm - 1) else ()
        _store(memo, rkey, runs)
    skey = -(((jokers << 4 | col) << 6) | c) - 1
    sets = memo.get(skey)
    if sets is None:
        sets = tuple(m for m in _sets_of(t, rank, col, jokers) if c in m) if col & (col - 1) else ()
        _store(memo, skey, sets)
    if not sets:
        return runs
    return runs + sets if runs else sets


def lays_off(t: Tables, rules: Rules, melds: Sequence[TableMeld], seat: int, h: Hand, jokers: int, c: Card, room: int) -> bool:
    """Whether ``seat`` can lay off card ``c`` of hand ``h`` on one of ``melds``, using at most ``room`` cards."""
    joker = c == JOKER
    suit, rank = c >> 4, c & 15
    anyone = rules.layoff_onto is _LAYOFF_ONTO_ANY
    for meld in melds:
        if not joker and (meld.suit != suit if meld.kind == "run" else meld.rank != rank):
            continue  # the card cannot go on this meld at all
        if not anyone and not rules.may_lay_off_on(seat, meld.owner):
            continue
        for cards in layoffs_of(t, meld, h, jokers):
            if len(cards) <= room and holds(cards, c):
                return True
    return False


def fits(t: Tables, meld: TableMeld) -> int:
    """The natural cards that can be laid off alone on ``meld``, as a card mask (memoised per meld)."""
    hit = t.fits.get(id(meld))
    if hit is not None and hit[0] is meld:
        return hit[1]
    # What fits depends on the meld's shape only: a run's suit, ends and length, a set's cards.
    kind = meld.kind
    shape: tuple[object, ...]
    if kind == "run":
        shape = (0, meld.suit, meld.positions[0], meld.positions[-1], len(meld.cards), meld.sealed)
    elif kind == "set":
        shape = (1, meld.rank, meld.cards, meld.sealed)
    else:
        shape = (2,)
    mask = t.fit_shapes.get(shape, -1)
    if mask < 0:
        mask = 0
        if kind == "run":
            cands = [_CARD[meld.suit * 16 + r] for r in range(1, 14)]
        elif kind == "set":
            cands = [_CARD[s * 16 + meld.rank] for s in range(4)]
        else:
            cands = []
        for c in cands:
            if layoffs_of(t, meld, Hand(1 << c, 0, None), 0):
                mask |= 1 << c
        _store(t.fit_shapes, shape, mask)
    if len(t.fits) >= _MAX_ENTRIES:
        t.fits.clear()
    t.fits[id(meld)] = (meld, mask)  # the reference keeps the id from being reused
    return mask


def table_fits(t: Tables, melds: Sequence[TableMeld]) -> int:
    """The natural cards that can be laid off alone on at least one of ``melds``, as a card mask.

    Without jokers a hand can lay off nothing on the table unless one of its
    cards fits alone (every lay-off of natural cards holds a card next to the
    meld), so one ``and`` with the hand's mask rules most hands out. The last
    table asked about is remembered (tables change seldom; the melds are
    compared by identity, and held, so the answer is exact).
    """
    last = _LAST_TABLE
    prev = last[0]
    if prev is not None and last[2] is t and (prev is melds or len(prev) == len(melds) and all(map(is_, prev, melds))):
        known: int = last[1]
        return known
    each = [fits(t, meld) for meld in melds]
    mask = 0
    for m in each:
        mask |= m
    last[0] = tuple(melds)
    last[1] = mask
    last[2] = t
    last[3] = each
    return mask


def each_fits(t: Tables, melds: Sequence[TableMeld]) -> list[int]:
    """:func:`fits` of each of ``melds``, in order (kept with the last table :func:`table_fits` was asked about)."""
    table_fits(t, melds)
    each: list[int] = _LAST_TABLE[3]
    return each


def table_fits_each(t: Tables, melds: Sequence[TableMeld]) -> tuple[int, list[int]]:
    """(:func:`table_fits`, :func:`each_fits`) of ``melds`` in one call."""
    last = _LAST_TABLE
    if last[0] is melds and last[2] is t:
        return last[1], last[3]
    union = table_fits(t, melds)
    return union, last[3]


_LAST_TABLE: list[Any] = [None, 0, None, []]


def playable_depths(t: Tables, melds: Sequence[TableMeld], pile: Sequence[Card], depths: Iterable[int]) -> list[int]:
    """The depths ``k`` whose card could be laid off on ``melds``, or melds with the pile cards above it.

    The whole pile (``range(1, len(pile) + 1)``, what the Rummy calls ask) takes
    the incremental :func:`_every_playable_depth`; other depths are tested one by one.
    """
    table = table_fits(t, melds)
    if isinstance(depths, range) and depths.start == 1 and depths.step == 1 and depths.stop == len(pile) + 1:
        return _every_playable_depth(t, melds, pile, table)
    out = []
    for k in depths:
        if k > len(pile):
            continue
        chosen = pile[-k]
        if chosen == JOKER:
            if joker_fits(t, melds):
                out.append(k)
                continue
        elif table >> chosen & 1:
            out.append(k)
            continue
        if k >= 3:
            h = scan(pile[-k:])
            if melds_using(t, h, h.jokers, chosen):
                out.append(k)
    return out


_ONE_JOKER = Hand(0, 1, None)


def joker_fits(t: Tables, melds: Sequence[TableMeld]) -> bool:
    """Whether a lone joker could be laid off on one of ``melds``, standing for some card (or on a joker set).

    What makes a joker in the pile playable (:func:`playable_depths`) and a
    going-out joker playable under ``going_out: unplayable_discard``.
    """
    return any(layoffs_of(t, meld, _ONE_JOKER, 1) for meld in melds)


def _every_playable_depth(t: Tables, melds: Sequence[TableMeld], pile: Sequence[Card], table: int) -> list[int]:
    """:func:`playable_depths` at every depth of the pile, top first (``table``: :func:`table_fits` of ``melds``)."""
    out = []
    mask = jokers = 0  # the cards from the top down to the chosen one (jokers counted apart)
    dup = False
    quick = not t.wrap
    wild = t.wild
    k = 0
    for chosen in reversed(pile):
        k += 1
        if chosen == 64:
            jokers += 1
            if joker_fits(t, melds):
                out.append(k)
                continue
        else:
            b = 1 << chosen
            if mask & b:
                dup = True
            mask |= b
            if table >> chosen & 1:
                out.append(k)
                continue
        if k < 3:
            continue
        if dup:
            h = scan(pile[-k:])
        else:
            if quick and (not jokers or not wild) and chosen != 64:
                # No natural meld through the chosen card without three of its rank or
                # three in a row of its suit through it (the ace high too).
                r = chosen & 15
                if (mask >> r & RANK_COLUMN).bit_count() < 3:
                    sm = (mask >> (chosen & 48)) & RANKS
                    w = (sm | (sm & 2) << 13) << 2
                    t3 = w & w >> 1 & w >> 2
                    if not ((t3 >> 1 | t3 >> 14) & 7 if r == 1 else t3 >> r & 7):
                        continue
            h = Hand(mask, jokers, None)
        if melds_using(t, h, h.jokers, chosen):
            out.append(k)
    return out


def ways_to_use(t: Tables, h: Hand, jokers: int, c: Card) -> list[tuple[int, int, int]]:
    """Each new meld of a hand without duplicates that uses ``c``, as (natural-card mask, jokers, size)."""
    return [(*_mask_and_jokers(m), len(m)) for m in melds_using(t, h, jokers, c)]


def _mask_and_jokers(cards: Sequence[Card]) -> tuple[int, int]:
    """The natural cards of ``cards`` as a mask, and how many jokers (bare or declared) it has."""
    mask = 0
    jk = 0
    for x in cards:
        if x >= 64:
            jk += 1
        else:
            mask |= 1 << x
    return mask, jk


def spared(ways: list[tuple[int, int, int]], cards: Sequence[Card], jokers: int, room: int) -> bool:
    """Whether one of ``ways`` (see :func:`ways_to_use`) needs none of the hand cards ``cards`` takes, and at most ``room`` cards.

    ``jokers`` is the number of jokers in the hand: the way and the play share them.
    """
    mask, jk = _mask_and_jokers(cards)
    free = jokers - jk
    return any(not m & mask and j <= free and n <= room for m, j, n in ways)
