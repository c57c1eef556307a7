"""How a playout stopped before the end of the round is valued: the leaves of ``hard``'s search.

Each leaf takes an unfinished, determinized round (every hand known) and
returns each seat's prospects, of which only the differences between seats
count:

- ``"heuristic"`` (:func:`estimate_round`): hand-written weights;
- ``"fitted"`` (:func:`fitted_round`): ten features of each seat weighted by
  least squares to predict how rounds played by the medium policy end
  (``benchmarks/leaf_fit.py``); ``hard``'s leaf and the review's;
- ``"learned"`` (:func:`learned_round`): a small network over the same
  features and a few more, of both seats at once, trained on the same kind
  of rounds (``benchmarks/leaf_learn.py``); ``expert``'s leaf at two players.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from rummy500.bots import leaf_net
from rummy500.bots.heuristics import Planner
from rummy500.cards import JOKER, Card
from rummy500.public import Phase
from rummy500.scoring import card_value, hand_value, meld_points

if TYPE_CHECKING:
    from rummy500.state import RoundState

__all__ = [
    "LEAF_FEATURES",
    "LEAF_WEIGHTS",
    "LEARNED_INPUTS",
    "LEAVES",
    "estimate_round",
    "fitted_round",
    "leaf_features",
    "learned_inputs",
    "learned_lead",
    "learned_round",
]


#: The features of :func:`leaf_features`, in order.
LEAF_FEATURES = (
    "table",
    "lay",
    "lay*near",
    "dead",
    "dead*near",
    "dead*short",
    "partial",
    "partial*near",
    "cards",
    "tempo",
)


#: :func:`fitted_round`'s weight of each of :data:`LEAF_FEATURES` (``benchmarks/leaf_fit.py``).
LEAF_WEIGHTS = (0.977, -0.141, 3.803, -0.057, 2.267, -0.265, 1.127, -2.774, -4.070, 3.983)


def fitted_round(state: RoundState) -> list[float]:
    """Each seat's prospects in an unfinished round, by weights fitted to round ends (:data:`LEAF_WEIGHTS`).

    Only the differences between seats are meaningful: the weights were
    fitted to predict the difference of two seats' round scores.
    """
    return [sum(w * x for w, x in zip(LEAF_WEIGHTS, f, strict=True)) for f in _all_leaf_features(state)]


def _partner_index(cards: list[Card]) -> tuple[list[int], list[int]]:
    """Of the natural cards among ``cards``: how many of each rank, and each suit's ranks as bits."""
    ranks = [0] * 14
    suits = [0] * 4
    for c in cards:
        if c < JOKER:  # a natural card is ``suit << 4 | rank``
            ranks[c & 15] += 1
            suits[c >> 4] |= 1 << (c & 15)
    return ranks, suits


def _partial_value(cards: list[Card], values: list[int]) -> float:
    """The points of the cards that have a partner among ``cards`` (a pair, or a suit neighbour within two).

    A joker partners anything. ``values`` are the cards' values in hand.
    """
    ranks, suits = _partner_index(cards)
    total = 0.0
    for c, v in zip(cards, values, strict=True):
        if c >= JOKER:
            total += v
            continue
        rank = c & 15
        near = suits[c >> 4] & (0b11111 << rank >> 2) & ~(1 << rank)
        if ranks[rank] > 1 or near:
            total += v
    return total


def leaf_features(state: RoundState, seat: int) -> list[float]:
    """What :data:`LEAF_WEIGHTS` value ``seat``'s prospects by, in an unfinished (determinized) round.

    In the order of :data:`LEAF_FEATURES`: the seat's points on the table;
    the points its hand could lay at once (alone, and times ``near``, the
    share ``10 / (stock + 10)`` that grows to 1 as the stock runs out); the
    points left in the hand after that (alone, times ``near``, and when
    another hand holds two cards or fewer); of those, the points of cards
    with a partner (a pair, or a suit neighbour within two; alone and times
    ``near``); how many cards are left; and 1 if the seat draws next.
    """
    return _all_leaf_features(state, (seat,))[0]


def _all_leaf_features(state: RoundState, seats: tuple[int, ...] | None = None) -> list[list[float]]:
    rules = state.rules
    n = state.n
    table = _table_points(state)
    near = 10.0 / (len(state.stock) + 10.0)
    sizes = [len(h) for h in state.hands]
    pub = state.public
    out = []
    for seat in range(n) if seats is None else seats:
        short = 1.0 if min(sz for s, sz in enumerate(sizes) if s != seat) <= 2 else 0.0
        pts, left = _lay_plan(state, seat)
        values = [card_value(c, rules) for c in left]
        dead = float(sum(values))
        part = _partial_value(left, values)
        tempo = 1.0 if pub.phase is Phase.DRAW and pub.to_move == seat else 0.0
        out.append([table[seat], pts, pts * near, dead, dead * near, dead * short, part, part * near, float(len(left)), tempo])
    return out


def _table_points(state: RoundState) -> list[float]:
    """Each seat's points on the table."""
    table = [0.0] * state.n
    for m in state.public.melds:
        for s, pts in meld_points(m, state.rules).items():
            table[s] += pts
    return table


def _lay_plan(state: RoundState, seat: int) -> tuple[int, list[Card]]:
    """The most points ``seat``'s hand could lay at once, and the cards it would keep.

    Under Dealer's Gambit the jokers do what the dealer nominated: wild, or
    placed on a set as it is melded to double it (``double``; the dealer's
    free joker too), or nothing (``split``).
    """
    gambit = state.public.gambit
    doubling = gambit == "double"
    planner = Planner(
        state.rules,
        state.public.melds,
        seat,
        may_layoff=state.may_lay_off_now(seat),
        may_extend=partial(state.may_extend, seat),
        wild=gambit is None or gambit == "wild",
        doubling=doubling,
    )
    hand = state.hands[seat]
    free = state.free_jokers(seat) if doubling else 0
    pts, plan = planner.best([*hand, *[JOKER] * free] if free else hand)
    left = list(hand)
    for g in plan:
        for c in g.need:
            if c == JOKER and free:
                free -= 1  # the dealer's joker is spent before the hand's own
            elif c in left:
                left.remove(c)
    return pts, left


def estimate_round(state: RoundState) -> list[float]:
    """Each seat's expected round score in an unfinished (determinized) round.

    Table points count in full; what a hand can lay at once counts 90%; the
    rest of the hand counts against its holder, weighted by how near the
    round is to its end.
    """
    rules = state.rules
    n = state.n
    table = _table_points(state)
    total_stock = max(1, len(state.stock) + 10)
    near_end = 1.0 - min(1.0, len(state.stock) / total_stock)
    shortest = min(len(h) for h in state.hands)
    risk = 0.55 + 0.4 * near_end
    if shortest <= 2:
        risk = 0.95
    out = []
    for s in range(n):
        pts, left = _lay_plan(state, s)
        out.append(table[s] + 0.9 * pts - risk * hand_value(left, rules))
    return out


#: The inputs of :func:`learned_round`'s network, in order: :data:`LEAF_FEATURES` and four
#: more of the seat it values (``me.``), the same of its opponent (``other.``), then four of the table.
LEARNED_INPUTS = (
    *(f"{who}.{name}" for who in ("me", "other") for name in (*LEAF_FEATURES, "hand", "jokers held", "pile fits", "pile fit points")),
    "stock",
    "pile cards",
    "pile points",
    "near",
)


def _pile_fits(hand: list[Card], pile: list[Card], values: list[int]) -> tuple[float, float]:
    """How many cards of the pile have a partner in ``hand`` (as :func:`_partial_value` pairs them), and their points."""
    ranks, suits = _partner_index(hand)
    count = 0.0
    points = 0.0
    for c, v in zip(pile, values, strict=True):
        if c >= JOKER or ranks[c & 15] or suits[c >> 4] & (0b11111 << (c & 15) >> 2) & ~(1 << (c & 15)):
            count += 1.0
            points += v
    return count, points


def learned_inputs(state: RoundState) -> tuple[list[float], list[float]]:
    """The inputs of :data:`LEARNED_INPUTS` in a 2-player round: seen from seat 0, and from seat 1.

    Each seat's part is its :func:`leaf_features` and four more: its cards in
    hand, its jokers, and how many cards of the discard pile (and their
    points) have a partner in its hand. The table's part is the stock's
    size, the pile's size and points, and ``near`` (``10 / (stock + 10)``).
    """
    rules = state.rules
    pile = list(state.public.discard)
    values = [card_value(c, rules) for c in pile]
    seats = []
    for seat, features in enumerate(_all_leaf_features(state, (0, 1))):
        hand = state.hands[seat]
        fits, fit_points = _pile_fits(hand, pile, values)
        seats.append([*features, float(len(hand)), float(sum(1 for c in hand if c >= JOKER)), fits, fit_points])
    stock = float(len(state.stock))
    table = [stock, float(len(pile)), float(sum(values)), 10.0 / (stock + 10.0)]
    return seats[0] + seats[1] + table, seats[1] + seats[0] + table


def _net_rows() -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """:mod:`~rummy500.bots.leaf_net`'s first layer with the inputs' scaling folded in."""
    rows = []
    biases = []
    for weights, bias in zip(leaf_net.HIDDEN, leaf_net.BIAS, strict=True):
        rows.append(tuple(w / s for w, s in zip(weights, leaf_net.SCALE, strict=True)))
        biases.append(bias - sum(w * m / s for w, m, s in zip(weights, leaf_net.MEAN, leaf_net.SCALE, strict=True)))
    return tuple(rows), tuple(biases)


_ROWS, _BIASES = _net_rows()


def _net(inputs: list[float]) -> float:
    total = 0.0
    for row, bias, out in zip(_ROWS, _BIASES, leaf_net.OUT, strict=True):
        h = bias
        for w, x in zip(row, inputs, strict=True):
            h += w * x
        if h > 0.0:
            total += out * h
    return total


def learned_round(state: RoundState) -> list[float]:
    """Each seat's prospects in an unfinished 2-player round, by the learned network (:mod:`~rummy500.bots.leaf_net`).

    The network ``g`` (one hidden layer of rectified units) reads
    :func:`learned_inputs`; seat 0's lead is ``(g(seen from 0) - g(seen from 1)) / 2``,
    so swapping the seats swaps the signs, and it was trained to predict seat
    0's round score less seat 1's. At more than two players (where it was
    not trained) this is :func:`fitted_round`.
    """
    if state.n != 2:
        return fitted_round(state)
    lead = learned_lead(*learned_inputs(state))
    return [lead / 2.0, -lead / 2.0]


def learned_lead(mine: list[float], theirs: list[float]) -> float:
    """Seat 0's lead over seat 1 by the network, from :func:`learned_inputs`' two readings."""
    return (_net(mine) - _net(theirs)) / 2.0


#: The values of an unfinished playout, by name (``HardBot(leaf=...)``, :attr:`rummy500.review.Budget.leaf`).
LEAVES: dict[str, Callable[[RoundState], list[float]]] = {"heuristic": estimate_round, "fitted": fitted_round, "learned": learned_round}
