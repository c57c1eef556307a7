"""Bounds worked out from the rules: round scores, returns and every observation entry.

The environments declare them (OpenSpiel's ``min_utility``/``max_utility``,
the Gymnasium and PettingZoo observation spaces), so they are computed from
the options that move them -- the card values (``card_values``,
``custom_values``, ``joker_value``, ``low_ace_value``, ``rummy_card_value``),
the pack (``decks``, ``jokers``, ``short_pack``), the bonuses and
``score_divisor`` -- not fixed numbers. They are safe, not tight: no play can
leave them, and a typical game stays well inside.

>>> from rummy500.rules import Rules
>>> round_score_bound(Rules()) < round_score_bound(Rules.from_mapping({"custom_values": {"A": 1000}}))
True
"""

from __future__ import annotations

import numpy as np

from rummy500.cards import JOKER, Card, natural_cards
from rummy500.env.observation import layout_for
from rummy500.rules import Rules
from rummy500.scoring import joker_value, natural_value
from rummy500.state import MAX_TURNS, build_pack

__all__ = ["observation_bounds", "return_bound", "round_score_bound"]


def _card_bound(rules: Rules) -> dict[int, int]:
    """Per card of the pack (by ``int``), the largest number of points it can score or cost, in any place."""
    claimed = abs(rules.claimed_card_points or 0)
    naturals = natural_cards()

    def natural(c: Card) -> int:
        return max(
            abs(natural_value(c, rules)),
            abs(natural_value(c, rules, low=True)),
            abs(natural_value(c, rules, in_hand=True)),
        )

    out = {int(c): max(natural(c), claimed) for c in naturals}
    # a joker: its own value in hand or on the table, or (declared) any natural card's
    out[int(JOKER)] = max(
        abs(joker_value(JOKER, rules, in_hand=True)),
        abs(joker_value(JOKER, rules, in_hand=False)),
        max(out.values()),
        claimed,
    )
    return out


def _table_bound(rules: Rules) -> int:
    """The most points (in absolute value, before ``score_divisor``) all the pack's cards can score on the table.

    Each card at its largest value, at most doubled (``four_of_a_kind_double``,
    a Dealer's Gambit double), plus the four aces bonus of every four aces.
    """
    per_card = _card_bound(rules)
    pack = build_pack(rules)
    total = 2 * sum(per_card[int(c)] for c in pack)
    if rules.four_aces_bonus:
        total += 100 * (sum(1 for c in pack if c != JOKER and c.rank == 1) // 4)
    return total


def round_score_bound(rules: Rules) -> int:
    """The largest absolute round score of one side (a seat, or a partnership), in points after ``score_divisor``.

    Every card of the pack ends the round either on the table (scoring for
    whoever laid it, at most doubled by ``four_of_a_kind_double`` or a
    Dealer's Gambit double) or in a hand (counting against its holder, or for
    the player who went out): twice the pack's largest values, plus the
    bonuses (four aces, going out, a Master's Hand's 500).
    """
    # A side's score is its table points less its hands (or plus the others' hands): every card
    # counted once, on the table at most doubled.
    total = _table_bound(rules) + abs(rules.going_out_bonus)
    if rules.masters_hand:
        total += 500
    # each seat's score is rounded (half away from zero) on its own: half a point per seat at most
    return -(-total // rules.score_divisor) + rules.players


def return_bound(rules: Rules, max_rounds: int) -> float:
    """The largest absolute sum of round rewards (:func:`~rummy500.env.aec.round_rewards`) over ``max_rounds`` rounds.

    A round's reward is the side's round score minus the mean of the other
    sides': at most twice :func:`round_score_bound`. ``final_bonus`` is not a
    reward.
    """
    return float(2 * round_score_bound(rules) * max(1, max_rounds))


def observation_bounds(rules: Rules, max_rounds: int) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value of each entry of the observation (:func:`~rummy500.env.observation.layout_for`).

    Counts of a card kind are at most the copies of a kind in the pack; one-hot
    fields and flags 0 or 1; the sizes as the layout divides them. The match
    totals (divided by the target) are bounded by ``max_rounds`` rounds of
    :func:`round_score_bound` plus ``final_bonus``, the meld points of a turn
    by the table's share of the same bound, and the turns by the engine's
    limit on a round's turns.

    Args:
        rules: the rules.
        max_rounds: the most rounds the environment plays (it truncates after them).
    """
    lay = layout_for(rules)
    low = np.zeros(lay.size, dtype=np.float32)
    high = np.ones(lay.size, dtype=np.float32)
    copies = float(max(rules.n_decks, rules.n_jokers, 1))
    cards = float(rules.pack_size)
    target = float(rules.target) or 1.0
    score = (max(1, max_rounds) * round_score_bound(rules) + abs(rules.final_bonus)) / target
    turn_points = _table_bound(rules) / 100.0
    for name, off, size, _ in lay.fields:
        part = slice(off, off + size)
        if name in ("hand", "meld_cards", "laid_by", "claimed", "known", "removed", "selected"):
            high[part] = copies
        elif name == "hand_sizes":
            high[part] = cards / 20.0
        elif name == "scores":
            low[part], high[part] = -score, score
        elif name == "turn":
            # cards drawn this turn / 2, meld points this turn / 100, turns / 100
            high[off] = cards / 2.0
            low[off + 1], high[off + 1] = -turn_points, turn_points
            high[off + 2] = MAX_TURNS / 100.0
    return low, high
