"""The fitted leaf value (``leaf="fitted"``): what a playout stopped mid-round is worth."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy500.bots.expert import ExpertBot
from rummy500.bots.hard import (
    LEAF_FEATURES,
    LEAF_WEIGHTS,
    HardBot,
    _partial_value,
    estimate_round,
    fitted_round,
    leaf_features,
)
from rummy500.cards import JOKER, Card, parse_card
from rummy500.rules import Rules
from rummy500.scoring import card_value
from rummy500.state import RoundState

STOCK = "stock=QD.7S.5C.8H.4D.AS"
# Seat 0 (to draw) holds a set of nines; seat 1 five loose cards.
SET_VS_LOOSE = f"dealer=1 to_move=0 phase=draw discard=TC hands=9H.9S.9C.KD.2C|KS.QH.8D.5C.3S {STOCK}"
# The same hands the other way round, seat 0 still to draw.
LOOSE_VS_SET = f"dealer=1 to_move=0 phase=draw discard=TC hands=KS.QH.8D.5C.3S|9H.9S.9C.KD.2C {STOCK}"


def features(position: str, seat: int) -> dict[str, float]:
    return dict(zip(LEAF_FEATURES, leaf_features(RoundState.from_position(Rules(), position), seat), strict=True))


def test_the_features_read_what_a_player_sees_in_the_hand() -> None:
    # Six cards in the stock: the round is 10 / (6 + 10) = 5/8 of the way to its end.
    assert features(SET_VS_LOOSE, 0) == {
        "table": 0.0,
        "lay": 27,  # 9H 9S 9C
        "lay*near": 27 * 5 / 8,
        "dead": 12.0,  # KD 2C
        "dead*near": 12 * 5 / 8,
        "dead*short": 0.0,  # the other hand has five cards
        "partial": 0.0,  # KD and 2C have no partner
        "partial*near": 0.0,
        "cards": 2.0,
        "tempo": 1.0,  # seat 0 draws next
    }
    near_meld = f"dealer=1 to_move=1 phase=draw discard=TC hands=KS.QS.8D.8C.3S|AH.2H {STOCK}"
    got = features(near_meld, 0)
    assert (got["lay"], got["dead"], got["partial"], got["tempo"]) == (0, 39.0, 36.0, 0.0)  # KS QS and 8D 8C have partners
    assert got["dead*short"] == 39.0  # seat 1 may go out at any moment


def test_a_meld_in_hand_is_worth_more_than_loose_cards_whoever_holds_it() -> None:
    one = fitted_round(RoundState.from_position(Rules(), SET_VS_LOOSE))
    other = fitted_round(RoundState.from_position(Rules(), LOOSE_VS_SET))
    assert one[0] > one[1] and other[1] > other[0]
    # Only the turn differs between the two positions, seen from the set's holder.
    tempo = LEAF_WEIGHTS[LEAF_FEATURES.index("tempo")]
    assert (one[0] - one[1]) - (other[1] - other[0]) == pytest.approx(2 * tempo)


def test_the_hand_written_value_is_still_there() -> None:
    state = RoundState.from_position(Rules(), SET_VS_LOOSE)
    assert HardBot(0, horizon=4, leaf="heuristic").leaf(state) == estimate_round(state)
    assert HardBot(0, horizon=4, leaf="fitted").leaf(state) == fitted_round(state)


def test_hard_and_expert_search_four_turns_valued_by_the_fitted_leaf_by_default() -> None:
    state = RoundState.from_position(Rules(), SET_VS_LOOSE)
    bot = HardBot(0)
    assert (bot.horizon, bot.iterations, bot.sync_stock, bot.hold_back) == ("auto", 48, True, True)
    expert = ExpertBot(0)
    assert (expert.horizon, expert.iterations, expert.sync_stock, expert.hold_back, expert.candidates) == ("auto", 96, True, True, 3)
    assert bot.leaf(state) == fitted_round(state) != estimate_round(state)


def test_an_unknown_leaf_is_refused_with_the_names_that_exist() -> None:
    with pytest.raises(ValueError, match="heuristic, fitted.*'deep'"):
        HardBot(0, leaf="deep")


def test_the_fitting_script_prints_its_weights_beside_the_shipped_ones(capsys: pytest.CaptureFixture[str]) -> None:
    """A small fit runs end to end and prints the shipped weights beside its own."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        import leaf_fit
    finally:
        sys.path.pop(0)
    assert leaf_fit.main(["--rounds", "12", "--holdout", "6"]) == 0
    out = capsys.readouterr().out
    for name, weight in zip(LEAF_FEATURES, LEAF_WEIGHTS, strict=True):
        assert name in out and f"{weight:9.3f}" in out
    assert "shipped" in out and "R^2" in out


DECK = [parse_card(r + s) for r in "A23456789TJQK" for s in "CDHS"] * 2 + [JOKER, JOKER]


def partial_by_definition(cards: list[Card]) -> int:
    """A card counts when another card in the hand shares its rank or sits within two of it in its suit; a joker always."""
    total = 0
    for i, c in enumerate(cards):
        partners = [d for j, d in enumerate(cards) if j != i and not d.is_joker]
        if c.is_joker or any(d.rank == c.rank or (d.suit == c.suit and abs(d.rank - c.rank) <= 2) for d in partners):
            total += card_value(c, Rules())
    return total


@given(st.lists(st.sampled_from(DECK), max_size=14))
def test_the_partial_points_follow_their_definition(cards: list[Card]) -> None:
    assert _partial_value(cards, [card_value(c, Rules()) for c in cards]) == partial_by_definition(cards)
