"""Card values and round scoring, as pure functions of the rules and the table.

Scoring is never an action: :func:`score_round` reads a finished round (the
melds with who laid each card, the hands left, who went out) and returns each
seat's round score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummy500.cards import JOKER, Card
from rummy500.melds import JOKER_SET, RUN, SET, TableMeld, is_low_ace
from rummy500.rules import CardValues, HandPenalty, JokerValue, Rules

__all__ = [
    "GameStatus",
    "RoundResult",
    "card_value",
    "divide_points",
    "game_status",
    "hand_value",
    "in_round_points",
    "meld_points",
    "score_round",
]

# Enum members bound once: reading a member off an Enum class costs ~0.7 us in
# Python 3.11 (EnumType.__getattr__), too slow for the legal-move loop.
_CARD_VALUES_ACE_11 = CardValues.ACE_11
_CARD_VALUES_ACE_25 = CardValues.ACE_25
_CARD_VALUES_FLAT = CardValues.FLAT
_CARD_VALUES_PIP_RANK = CardValues.PIP_RANK
_HAND_PENALTY_OWN = HandPenalty.OWN



def _base_value(rank: int, rules: Rules, *, low: bool) -> int:
    """Value of a natural rank under ``card_values`` (before overrides)."""
    cv = rules.card_values
    if rank == 1:
        if cv is _CARD_VALUES_PIP_RANK:
            return 1
        if cv is _CARD_VALUES_ACE_25:
            return 25
        if cv is _CARD_VALUES_FLAT:
            return 5 if low else 15
        if cv is _CARD_VALUES_ACE_11:
            return 1 if low else 11
        return 1 if low else 15
    if cv is _CARD_VALUES_PIP_RANK:
        return rank
    if rank >= 10:
        return 10
    return 5 if cv is _CARD_VALUES_FLAT else rank


def _custom(c: Card, rules: Rules) -> int | None:
    custom = rules.custom_values
    if not custom:
        return None
    name = str(c.natural)
    if name in custom:
        return custom[name]
    rank_key = "A23456789TJQK"[c.rank - 1]
    return custom.get(rank_key)


def natural_value(c: Card, rules: Rules, *, low: bool = False, in_hand: bool = False) -> int:
    """Value of a natural card (or of the card a joker represents)."""
    custom = _custom(c, rules)
    if custom is not None:
        return custom
    if low and c.rank == 1 and rules.low_ace_points is not None:
        return rules.low_ace_points
    if in_hand and rules.card_values is _CARD_VALUES_ACE_11 and c.rank == 1:
        return 15
    return _base_value(c.rank, rules, low=low)


def joker_value(c: Card, rules: Rules, *, in_hand: bool, low: bool = False) -> int:
    """Value of a joker, in hand or declared on the table."""
    if "JK" in rules.custom_values:
        return rules.custom_values["JK"]
    jv = rules.joker_value
    if isinstance(jv, int):
        return jv
    if rules.dealers_gambit and jv is JokerValue.AUTO:
        return 0
    if jv is JokerValue.REPRESENTED or rules.card_values is _CARD_VALUES_ACE_11:
        if in_hand or not c.is_declared:
            return 15
        return natural_value(c.natural, rules, low=low)
    return 15


def card_value(c: Card, rules: Rules, *, in_hand: bool = True, low: bool = False) -> int:
    """The value of one card, in hand or on the table (``low``: a low ace of a run)."""
    if c >= 64:
        return joker_value(c, rules, in_hand=in_hand, low=low)
    return natural_value(c, rules, low=low, in_hand=in_hand)


def hand_value(hand: Sequence[Card], rules: Rules) -> int:
    """What the cards in a hand count against their holder."""
    return sum(card_value(c, rules, in_hand=True) for c in hand)


def meld_card_values(meld: TableMeld, rules: Rules) -> list[int]:
    """The value each card of a table meld scores for the player who laid it."""
    values = []
    claimed_points = rules.claimed_card_points
    for i, c in enumerate(meld.cards):
        if claimed_points is not None and meld.claimed[i]:
            values.append(claimed_points)
        elif meld.doubled and c == JOKER:
            values.append(0)
        else:
            values.append(card_value(c, rules, in_hand=False, low=is_low_ace(meld, i)))
    return values


def _at_once_bonus(meld: TableMeld, rules: Rules, values: list[int]) -> int:
    """Extra points for the cards laid down when the meld was made."""
    if meld.kind not in (SET, JOKER_SET) or meld.initial == 0:
        return 0
    initial = meld.cards[: meld.initial]
    naturals = [c for c in initial if c != JOKER] if meld.doubled else list(initial)
    base = sum(values[: meld.initial])
    if meld.doubled:
        # Dealer's Gambit: the joker doubles the whole set's value, later cards never come.
        return sum(values[i] for i in range(len(meld.cards)) if meld.cards[i] != JOKER)
    if rules.four_aces_bonus and len(naturals) == 4 and not meld.swapped and all(c < 64 and c.rank == 1 for c in naturals):
        return 100 - base
    if rules.four_of_a_kind_double and len(naturals) == 4:
        return base
    return 0


def meld_points(meld: TableMeld, rules: Rules) -> dict[int, int]:
    """Points a table meld gives each seat that laid cards on it."""
    values = meld_card_values(meld, rules)
    out: dict[int, int] = {}
    for seat, v in zip(meld.laid_by, values, strict=True):
        out[seat] = out.get(seat, 0) + v
    bonus = _at_once_bonus(meld, rules, values)
    if bonus:
        out[meld.owner] = out.get(meld.owner, 0) + bonus
    return out


def new_meld_points(meld: TableMeld, rules: Rules) -> int:
    """What a freshly laid meld is worth to its owner (for ``first_meld_min``)."""
    return sum(meld_points(meld, rules).values())


@dataclass(frozen=True)
class RoundResult:
    """A scored round: per-seat scores and what produced them."""

    round_scores: list[int]
    table_points: list[int]
    hand_points: list[int]
    went_out: int | None


def divide_points(x: int, d: int) -> int:
    """Points ``x`` divided by ``d`` (a ``score_divisor``) as round scores are: rounded, halves away from zero.

    >>> divide_points(12, 5), divide_points(13, 5), divide_points(-13, 5), divide_points(7, 1)
    (2, 3, -3, 7)
    """
    if d == 1:
        return x
    q, r = divmod(abs(x), d)
    q += 1 if 2 * r >= d else 0  # half away from zero
    return q if x >= 0 else -q


def in_round_points(points: float, rules: Rules) -> float:
    """Card points (a hand's value, a meld's, an estimate of them) in the round's own points.

    Divided by ``score_divisor`` as round scores are, but unrounded (for
    estimates; :func:`score_round` rounds).

    >>> from rummy500.rules import Rules
    >>> in_round_points(64, Rules()), in_round_points(64, Rules(score_divisor=5))
    (64, 12.8)
    """
    d = rules.score_divisor
    return points if d == 1 else points / d


def score_round(
    rules: Rules,
    melds: Sequence[TableMeld],
    hands: Sequence[Sequence[Card]],
    went_out: int | None,
    *,
    masters: int | None = None,
) -> RoundResult:
    """Score a finished round.

    Args:
        rules: the rules in force.
        melds: the table at the end of the round.
        hands: the cards left in each hand.
        went_out: the seat that went out, or None (stock exhausted).
        masters: the seat that made the Rummy Master's Hand, if any.
    """
    n = len(hands)
    table = [0] * n
    for meld in melds:
        for seat, pts in meld_points(meld, rules).items():
            table[seat] += pts
    in_hand = [hand_value(h, rules) for h in hands]
    scores = list(table)
    if went_out is None and not rules.stock_out_penalty:
        pass  # nobody deducts their hand when the stock ran out
    elif rules.hand_penalty is _HAND_PENALTY_OWN:
        scores = [t - h for t, h in zip(table, in_hand, strict=True)]
    elif went_out is not None:
        # "Add opponent's hand": the hands of the other side go to the player who went out.
        goer_side = rules.side_of(went_out)
        scores[went_out] += sum(in_hand[s] for s in range(n) if rules.side_of(s) != goer_side)
    elif rules.n_sides == 2:
        # Each side adds the other side's hands once: seats 0 and 1 are the first
        # seat of each side (in a partnership partners would otherwise add them twice).
        for s in range(2):
            scores[s] += sum(in_hand[o] for o in range(n) if rules.side_of(o) != rules.side_of(s))
    if went_out is not None and rules.going_out_bonus:
        scores[went_out] += rules.going_out_bonus
    bonus = rules.masters_hand_score
    if masters is not None and bonus is not None:
        scores[masters] = bonus  # "500 for the round", divided like every score by score_divisor
    scores = [divide_points(s, rules.score_divisor) for s in scores]
    return RoundResult(scores, table, in_hand, went_out)


__all__ += ["JOKER_SET", "RUN", "SET", "new_meld_points"]


@dataclass(frozen=True)
class GameStatus:
    """Where a game stands after a round.

    Attributes:
        over: a winner is decided.
        winner: the winning index (a side in a partnership), or None.
        leaders: the indices with the best total now.
        tie_break: the game reached its end (target or last round) but the
            best totals are tied, so another round is played (RULES.md Part 1).
    """

    over: bool
    winner: int | None
    leaders: tuple[int, ...]
    tie_break: bool = False


def game_status(
    rules: Rules,
    totals: Sequence[int],
    rounds_played: int,
    went_out: int | None = None,
    *,
    tied_before: bool = False,
) -> GameStatus:
    """Decide a game from its side totals after a round (what :class:`~rummy500.match.Match` does).

    Args:
        rules: the rules (``target``, ``rounds``, ``must_go_out_to_win``).
        totals: the running total of each side (each seat unless playing
            partnerships; then side 0 is seats 0 & 2, side 1 seats 1 & 3).
        rounds_played: rounds finished so far, the one just played included.
        went_out: the *seat* that went out in the round just played, if any
            (only ``must_go_out_to_win`` looks at it).
        tied_before: the game had reached its end with the best totals tied
            (an earlier status said ``tie_break``), so the round just played
            was a tie-break round: one best total now wins, under the target
            or not (RULES.md Part 1: "another round is played until the tie
            is broken").

    Returns:
        The status; ``final_bonus`` is not included in ``totals`` (the match
        adds it to the winner after this decision).
    """
    best = max(totals)
    top = tuple(i for i, t in enumerate(totals) if t == best)
    if tied_before:
        return GameStatus(len(top) == 1, top[0] if len(top) == 1 else None, top, tie_break=len(top) > 1)
    fixed = rules.fixed_rounds
    if fixed is not None:
        if rounds_played < fixed:
            return GameStatus(False, None, top)
        if len(top) > 1:
            return GameStatus(False, None, top, tie_break=True)
        return GameStatus(True, top[0], top)
    if totals[top[0]] < rules.target:
        return GameStatus(False, None, top)
    if rules.must_go_out_to_win:
        # Only the side that went out can win, however high the others are;
        # it never ties, so there is no tie-break round.
        if went_out is None:
            return GameStatus(False, None, top)
        side = rules.side_of(went_out)
        if totals[side] >= rules.target:
            return GameStatus(True, side, top)
        return GameStatus(False, None, top)
    if len(top) > 1:
        return GameStatus(False, None, top, tie_break=True)
    return GameStatus(True, top[0], top)
