"""The meld and lay-off enumeration as it was before the memoised one (``rummy500.fastmeld``): the test oracle.

Kept verbatim (only this paragraph is new) so that ``test_fast_enumeration.py``
can check that ``find_melds`` and ``find_layoffs`` still return exactly what
this straightforward version returns.

Melds: validating sets and runs, extending them, and finding them in a hand.

A run keeps its cards in order with a *position* per card: 1..14 where 1 is a
low ace and 14 a high ace. With ``around_the_corner`` positions keep counting
past the king (K A 2 is 13 14 15), so a run is always an increasing block of
positions; a card's rank is ``(pos - 1) % 13 + 1``.

A joker on the table is declared (``JK=7H``) and keeps that identity for good,
so it occupies the position of the card it stands for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, combinations_with_replacement

from rummy500.cards import JOKER, Card, card, declared
from rummy500.rules import Rules

__all__ = ["JOKER_SET", "RUN", "SET", "MeldError", "TableMeld", "find_layoffs", "find_melds", "make_meld"]

SET, RUN, JOKER_SET = "set", "run", "jokers"
_DECLARED = 128
_SHORT_RANKS = frozenset((1, 7, 8, 9, 10, 11, 12, 13))
_ALL_RANKS = frozenset(range(1, 14))


class MeldError(ValueError):
    """Cards that do not make a meld, or do not extend one."""


def rank_of_pos(pos: int) -> int:
    """The rank (1..13) at a run position."""
    return (pos - 1) % 13 + 1


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table. Immutable: a lay-off builds a new one with the same id.

    Attributes:
        id: 0, 1, 2 ... in the order melds were laid down this round.
        kind: ``set``, ``run`` or ``jokers`` (Persian joker set).
        cards: the cards; a run's in position order.
        laid_by: the seat that laid each card.
        positions: a run's card positions (empty for sets).
        suit: a run's suit (-1 for sets).
        rank: a set's rank (0 for runs and joker sets).
        initial: how many cards were laid down when the meld was made.
        owner: the seat that laid the meld down.
        claimed: per card, True when it was claimed by calling Rummy.
        sealed: (Dealer's Gambit double) nothing more may be laid off.
        doubled: (Dealer's Gambit double) the set's value counts double.
    """

    id: int
    kind: str
    cards: tuple[Card, ...]
    laid_by: tuple[int, ...]
    positions: tuple[int, ...] = ()
    suit: int = -1
    rank: int = 0
    initial: int = 0
    owner: int = 0
    claimed: tuple[bool, ...] = ()
    sealed: bool = False
    doubled: bool = False

    def to_dict(self) -> dict[str, object]:
        """The meld as JSON: ``id``, ``cards``, ``laid_by``, ``kind`` and flags."""
        out: dict[str, object] = {
            "id": self.id,
            "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "laid_by": list(self.laid_by),
            "owner": self.owner,
        }
        if self.sealed:
            out["sealed"] = True
        if self.doubled:
            out["doubled"] = True
        return out


# ---------------------------------------------------------------- validation
def _allowed_ranks(rules: Rules) -> frozenset[int]:
    return _SHORT_RANKS if rules.short_pack else _ALL_RANKS


def _run_positions(ranks: list[int], rules: Rules) -> list[int] | None:
    """Positions for a set of distinct ranks forming one block, or None."""
    n = len(ranks)
    if n > 13 or len(set(ranks)) != n:
        return None
    rs = sorted(ranks)
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
        if rules.set_suits == "distinct":
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
        if rules.set_suits == "distinct":
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
    return replace(meld, cards=cards, positions=positions, laid_by=laid, claimed=flags)


def _pos_ok(p: int, lo: int, hi: int, rules: Rules) -> bool:
    if (hi if hi > p else p) - (lo if lo < p else p) >= 13:
        return False
    if not rules.around_the_corner and not 1 <= p <= 14:
        return False
    return not rules.short_pack or (p - 1) % 13 + 1 in _SHORT_RANKS


def _grow(meld: TableMeld, cards: tuple[Card, ...], positions: tuple[int, ...] | None, new: Sequence[Card], seat: int, claimed: bool) -> TableMeld:
    k = len(new)
    return replace(meld, cards=cards, laid_by=meld.laid_by + (seat,) * k, claimed=meld.claimed + (claimed,) * k)


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
def _set_melds(by_rank: dict[int, list[Card]], jokers: int, rules: Rules, out: set[tuple[Card, ...]]) -> None:
    distinct = rules.set_suits == "distinct"
    allowed = _allowed_ranks(rules)
    cap = 4 if distinct else rules.n_decks * 4 + rules.n_jokers
    for rank, held in by_rank.items():
        if rank not in allowed:
            continue
        if distinct:
            pool = sorted(set(held))
        else:
            pool = sorted(held)
        if len(pool) + jokers < 3 or len(pool) < 2:
            continue
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
                        jk = tuple(declared(card(s * 16 + rank)) for s in suits)
                        out.add(tuple(sorted(nat + jk)))


def _run_melds(
    by_suit: dict[int, set[int]],
    jokers: int,
    rules: Rules,
    out: set[tuple[Card, ...]],
    *,
    min_len: int,
    only: Card | None = None,
) -> None:
    """Add every run (with jokers filling gaps or standing in) from the held ranks.

    Windows are grown from each start position and abandoned as soon as they
    need more jokers than there are, so the work follows what the hand holds.
    """
    wrap = rules.around_the_corner
    allowed = _SHORT_RANKS if rules.short_pack else _ALL_RANKS
    last_start = 13 if wrap else 14
    for suit, ranks in by_suit.items():
        if len(ranks) < 2 or (only is not None and suit != only.suit):
            continue
        if not wrap and jokers <= 1:
            # Quick reject: no three in a row (no jokers) or no two within a gap of one (one joker).
            m = 0
            for r in ranks:
                m |= 1 << r
            if m & 2:
                m |= 1 << 14
            pairs = m & (m >> 1)
            if jokers == 0 and not pairs & (m >> 2):
                continue
            if jokers == 1 and not (pairs or m & (m >> 2)):
                continue
        base = suit * 16
        # Positions 1..27 (1 and 14 are both the ace; wrapping runs count on past 14).
        held = [False] * 28
        for p in range(1, 28):
            held[p] = ((p - 1) % 13 + 1) in ranks
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
                if only is not None:
                    orank = only.rank
                    if not any(((q - 1) % 13 + 1) == orank for q in range(s, e + 1)):
                        continue
                _emit_run(base, s, e, held, jokers - missing, out)


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


_CARD = [card(i) if 1 <= (i & 15) <= 13 else None for i in range(64)]
_DECL = [declared(card(i)) if 1 <= (i & 15) <= 13 else None for i in range(64)]


def find_melds(
    hand: Iterable[Card], rules: Rules, extra_jokers: int = 0, containing: Card | None = None
) -> list[tuple[Card, ...]]:
    """Every new meld (as a sorted card tuple) that can be laid from ``hand``.

    Args:
        hand: the cards held.
        rules: the rules in force.
        extra_jokers: jokers usable besides those in hand (the dealer's joker).
        containing: only melds that use this (natural) card.
    """
    out: set[tuple[Card, ...]] = set()
    jokers = extra_jokers
    if containing is not None and containing != JOKER and rules.jokers_wild:
        return _melds_with(hand, rules, extra_jokers, containing)
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, set[int]] = {}
    for c in hand:
        if c == JOKER:
            jokers += 1
            continue
        by_rank.setdefault(c & 15, []).append(c)
        by_suit.setdefault(c >> 4, set()).add(c & 15)
    if not rules.jokers_wild:
        if jokers >= 3 and (containing is None or containing == JOKER):
            for n in range(3, min(jokers, 4) + 1):
                out.add((JOKER,) * n)
        jokers = 0
    if containing is not None and containing != JOKER:
        rank, suit = containing & 15, containing >> 4
        by_rank = {rank: by_rank[rank]} if rank in by_rank else {}
        by_suit = {suit: by_suit[suit]} if suit in by_suit else {}
        _set_melds(by_rank, jokers, rules, out)
        _run_melds(by_suit, jokers, rules, out, min_len=max(3, rules.min_run), only=containing)
        bare = containing
        return sorted(m for m in out if bare in m)
    _set_melds(by_rank, jokers, rules, out)
    _run_melds(by_suit, jokers, rules, out, min_len=max(3, rules.min_run))
    if containing == JOKER:
        return sorted(m for m in out if any(c >= 64 for c in m))
    return sorted(out)


def _melds_with(hand: Iterable[Card], rules: Rules, extra_jokers: int, c: Card) -> list[tuple[Card, ...]]:
    """find_melds restricted to melds using natural card ``c`` (wild jokers)."""
    rank, suit = c & 15, c >> 4
    jokers = extra_jokers
    same_rank: list[Card] = []
    suit_ranks: set[int] = set()
    for x in hand:
        if x == JOKER:
            jokers += 1
        else:
            if x & 15 == rank:
                same_rank.append(x)
            if x >> 4 == suit:
                suit_ranks.add(x & 15)
    out: set[tuple[Card, ...]] = set()
    if len(same_rank) >= 2 and len(same_rank) + jokers >= 3:
        _set_melds({rank: same_rank}, jokers, rules, out)
    if len(suit_ranks) >= 2:
        _run_melds({suit: suit_ranks}, jokers, rules, out, min_len=max(3, rules.min_run), only=c)
    return sorted(m for m in out if c in m)


def find_layoffs(meld: TableMeld, hand: Iterable[Card], rules: Rules, extra_jokers: int = 0) -> list[tuple[Card, ...]]:
    """Every group of hand cards that can be laid off on ``meld`` in one action."""
    if meld.sealed:
        return []
    hand = list(hand)
    jokers = hand.count(JOKER) + extra_jokers
    out: set[tuple[Card, ...]] = set()
    if meld.kind == JOKER_SET:
        room = 4 - len(meld.cards)
        for n in range(1, min(room, jokers) + 1):
            out.add((JOKER,) * n)
        return sorted(out)
    if not rules.jokers_wild:
        jokers = 0
    allowed = _allowed_ranks(rules)
    if meld.kind == SET:
        if meld.rank not in allowed:
            return []
        held = [c for c in hand if c != JOKER and (c & 15) == meld.rank]
        if rules.set_suits == "distinct":
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
        return sorted(out)
    # A run: choose how far to extend below and above.
    lo, hi = meld.positions[0], meld.positions[-1]
    held_set = {c for c in hand if c != JOKER and (c >> 4) == meld.suit}
    base = meld.suit * 16
    if jokers == 0:
        return _plain_run_layoffs(meld, held_set, rules)
    below: list[Card] = []
    p = lo - 1
    while _pos_ok(p, lo, hi, rules) and len(below) < 13:
        below.append(card(base + rank_of_pos(p)))
        p -= 1
    above: list[Card] = []
    p = hi + 1
    while _pos_ok(p, lo, hi, rules) and len(above) < 13:
        above.append(card(base + rank_of_pos(p)))
        p += 1
    size = len(meld.cards)
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
    return sorted(o for o in out if _extends(meld, o, rules))


def _plain_run_layoffs(meld: TableMeld, held: set[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """Lay-offs on a run without jokers: unbroken sequences of held cards at either end."""
    lo, hi = meld.positions[0], meld.positions[-1]
    base = meld.suit * 16
    below: list[Card] = []
    p = lo - 1
    while _pos_ok(p, lo, hi, rules):
        c = _CARD[base + rank_of_pos(p)]
        if c not in held:
            break
        below.append(c)  # type: ignore[arg-type]
        p -= 1
    above: list[Card] = []
    p = hi + 1
    while _pos_ok(p, lo, hi, rules):
        c = _CARD[base + rank_of_pos(p)]
        # An ace can be reached at both ends (3..K with A 2 held): keep it here too,
        # so the ace alone on the high end is offered; repeats are dropped below.
        if c not in held:
            break
        above.append(c)  # type: ignore[arg-type]
        p += 1
    if not below and not above:
        return []
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
    if rules.around_the_corner and len(out) > 1:
        # Wrapping runs can offer one rank at both ends: keep what extend_meld accepts.
        return sorted(o for o in set(out) if _extends(meld, o, rules))
    return out


def _extends(meld: TableMeld, cards: tuple[Card, ...], rules: Rules) -> bool:
    try:
        extend_meld(meld, cards, rules, 0)
    except MeldError:
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


def meld_cards_in_hand(cards: Iterable[Card]) -> Counter[Card]:
    """The hand cards a meld or lay-off consumes (a declared joker uses a bare joker)."""
    return Counter(JOKER if c >= 64 else c for c in cards)
