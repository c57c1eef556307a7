"""An independent, brute-force statement of the standard game's legal moves (RULES.md Part 1).

It shares nothing with the engine's rule code: melds are checked from their
definition, every subset of the hand is tried (a joker as every card it could
stand for), and "the turn can still be finished" is an exhaustive search over
the plays left. It is slow, so it is only used on small positions, where it
must list exactly what ``RoundState.legal_actions()`` lists.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from rummy500.cards import JOKER, Card, declared, natural_cards
from rummy500.state import RoundState

Hand = tuple[Card, ...]
Table = tuple[tuple[Card, ...], ...]

_NATURALS = natural_cards()


def _rank(c: Card) -> int:
    return c.natural.rank


def _suit(c: Card) -> int:
    return c.natural.suit


def run_positions(ranks: list[int]) -> list[int] | None:
    """The positions (1 = low ace .. 14 = high ace) of a run with these ranks, or None."""
    if len(set(ranks)) != len(ranks):
        return None
    for ace in (1, 14):
        pos = sorted(ace if r == 1 else r for r in ranks)
        if pos[-1] - pos[0] == len(pos) - 1:
            return pos
    return None


def is_meld(cards: Hand) -> bool:
    """A new meld: a set (3-4 cards, one rank, distinct suits) or a run (3+ consecutive, one suit), two naturals."""
    if len(cards) < 3 or JOKER in cards:
        return False
    if sum(1 for c in cards if not c.is_joker) < 2:
        return False
    ranks = [_rank(c) for c in cards]
    suits = [_suit(c) for c in cards]
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(set(suits)) == len(cards)
    if len(set(suits)) == 1:
        return run_positions(ranks) is not None
    return False


def extends(meld: Hand, new: Hand) -> bool:
    """Whether ``new`` cards laid off on ``meld`` keep it a valid meld, the old cards staying where they are."""
    if not new or JOKER in new:
        return False
    ranks = [_rank(c) for c in meld]
    if len(set(ranks)) == 1:  # a set
        allc = meld + new
        return all(_rank(c) == ranks[0] for c in allc) and len(allc) <= 4 and len({_suit(c) for c in allc}) == len(allc)
    suit = _suit(meld[0])
    if any(_suit(c) != suit for c in new):
        return False
    old = run_positions(ranks)
    assert old is not None
    new_ranks = [_rank(c) for c in new]
    if len(set(new_ranks)) != len(new_ranks) or set(new_ranks) & set(ranks):
        return False  # a run holds each rank once (the ace is low or high, not both)
    # Try every placement of an ace (low or high) among the new cards.
    options = [[1, 14] if r == 1 else [r] for r in new_ranks]

    def place(i: int, used: list[int]) -> bool:
        if i == len(options):
            allpos = sorted(old + used)
            return len(set(allpos)) == len(allpos) and allpos[-1] - allpos[0] == len(allpos) - 1
        return any(place(i + 1, used + [p]) for p in options[i])

    return place(0, [])


def _declarations(cards: tuple[Card, ...], pool: list[Card]) -> Iterator[Hand]:
    """``cards`` with each bare joker declared as a card of ``pool`` (in every way)."""
    k = cards.count(JOKER)
    base = tuple(c for c in cards if c != JOKER)
    if k == 0:
        yield base
        return
    for chosen in combinations(pool, k):
        yield tuple(sorted(base + tuple(declared(c) for c in chosen)))


def _subsets(hand: Hand) -> set[tuple[Card, ...]]:
    out = set()
    for k in range(1, len(hand) + 1):
        for idx in combinations(range(len(hand)), k):
            out.add(tuple(sorted(hand[i] for i in idx)))
    return out


def _candidate_pools(naturals: list[Card], like: tuple[Card, ...] = ()) -> list[list[Card]]:
    """What jokers may be declared as: cards of the common rank, or of the common suit.

    A meld (and a meld after a lay-off) is all one rank or all one suit, naturals
    and declared jokers alike, so no other declaration can ever be valid.
    """
    every = naturals + [c for c in like]
    pools = []
    if len({_rank(c) for c in every}) == 1:
        pools.append([c for c in _NATURALS if c.rank == _rank(every[0])])
    if len({_suit(c) for c in every}) == 1:
        pools.append([c for c in _NATURALS if c.suit == _suit(every[0])])
    return pools


def canonical(table: Table) -> Table:
    """The table with meld order forgotten (whether a turn can finish does not depend on ids)."""
    return tuple(sorted(tuple(sorted(m)) for m in table))


@lru_cache(maxsize=200_000)
def plays(hand: Hand, table: Table) -> tuple[tuple[str, Hand, Table, Hand], ...]:
    """Every meld and lay-off: (text, hand after, table after, bare cards used)."""
    seen: dict[str, tuple[str, Hand, Table, Hand]] = {}
    for sub in _subsets(hand):
        naturals = [c for c in sub if c != JOKER]
        if not naturals and not table:
            continue
        rest = list(hand)
        for c in sub:
            rest.remove(c)
        after = tuple(sorted(rest))
        if len(sub) >= 3 and len(naturals) >= 2:
            for pool in _candidate_pools(naturals):
                for cards in _declarations(sub, pool):
                    if is_meld(cards):
                        text = "meld " + " ".join(map(str, sorted(cards)))
                        seen.setdefault(text, (text, after, table + (cards,), sub))
        for i, meld in enumerate(table):
            for pool in _candidate_pools(naturals, meld):
                for cards in _declarations(sub, pool):
                    if extends(meld, cards):
                        text = f"layoff {' '.join(map(str, sorted(cards)))} on {i}"
                        new_table = table[:i] + (meld + cards,) + table[i + 1 :]
                        seen.setdefault(text, (text, after, new_table, sub))
    return tuple(seen.values())


@lru_cache(maxsize=200_000)
def finishable(hand: Hand, table: Table, obligation: Card | None, taken_top: Card | None) -> bool:
    """Whether a turn in this position can end legally: going out, or a discard with the obligation met.

    ``table`` must be canonical.
    """
    if not hand:
        return True
    if obligation is None and (any(c != taken_top for c in hand) or hand.count(taken_top) > 1):
        return True
    for _, after, new_table, used in plays(hand, table):
        ob = None if obligation is not None and obligation in used else obligation
        if finishable(after, canonical(new_table), ob, taken_top):
            return True
    return False


def legal_play(hand: Hand, table: Table, obligation: Card | None, taken_top: Card | None) -> set[str]:
    """The legal actions after drawing: plays after which the turn can end, and the allowed discards."""
    out = set()
    for text, after, new_table, used in plays(hand, table):
        ob = None if obligation is not None and obligation in used else obligation
        if finishable(after, canonical(new_table), ob, taken_top):
            out.add(text)
    if obligation is None:
        out |= {f"discard {c}" for c in set(hand) if c != taken_top or hand.count(c) > 1}
    return out


def legal_draw(hand: Hand, table: Table, stock_size: int, pile: list[Card]) -> set[str]:
    """The legal actions of a player who has not drawn yet."""
    out = set()
    if stock_size:
        out.add("draw")
    else:
        out.add("pass")
    for k in range(1, len(pile) + 1):
        taken = tuple(pile[-k:])
        new_hand = tuple(sorted(hand + taken))
        if k == 1:
            ok = finishable(new_hand, canonical(table), None, taken[0])
        else:
            ok = finishable(new_hand, canonical(table), taken[0], None)
        if ok:
            out.add(f"take {k}")
    return out


def legal(state: RoundState) -> set[str]:
    """The oracle's legal actions for the seat to move in a standard-game position."""
    if state.is_over:
        return set()
    hand = tuple(sorted(state.hands[state.public.to_move]))
    table = tuple(tuple(m.cards) for m in state.public.melds)
    if state.public.phase.value == "draw":
        return legal_draw(hand, table, len(state.stock), list(state.public.discard))
    return legal_play(hand, table, state.public.obligation, state.public.taken_top)
