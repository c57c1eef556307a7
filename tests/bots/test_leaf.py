"""The leaf values (``leaf="fitted"``, ``"learned"``): what a playout stopped mid-round is worth."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy500.bots import leaf_net
from rummy500.bots.expert import ExpertBot
from rummy500.bots.hard import (
    LEAF_FEATURES,
    LEAF_WEIGHTS,
    HardBot,
    estimate_round,
    fitted_round,
    leaf_features,
    learned_round,
)
from rummy500.bots.leaves import LEARNED_INPUTS, _partial_value, learned_inputs
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


def _benchmark(name: str):  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


def test_the_fitting_script_prints_its_weights_beside_the_shipped_ones(capsys: pytest.CaptureFixture[str]) -> None:
    """A small fit runs end to end and prints the shipped weights beside its own."""
    leaf_fit = _benchmark("leaf_fit")
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


def test_the_learned_leaf_reads_both_seats_and_the_table() -> None:
    mine, theirs = learned_inputs(RoundState.from_position(Rules(), SET_VS_LOOSE))
    assert len(mine) == len(theirs) == len(LEARNED_INPUTS)
    seen = dict(zip(LEARNED_INPUTS, mine, strict=True))
    assert seen["me.lay"] == 27 and seen["other.lay"] == 0  # seat 0's nines
    assert (seen["me.hand"], seen["me.jokers held"], seen["other.hand"]) == (5.0, 0.0, 5.0)
    # The ten of clubs on the pile sits next to seat 0's nine of clubs; seat 1 has nothing near it.
    assert (seen["me.pile fits"], seen["me.pile fit points"]) == (1.0, 10.0)
    assert (seen["other.pile fits"], seen["other.pile fit points"]) == (0.0, 0.0)
    assert (seen["stock"], seen["pile cards"], seen["pile points"], seen["near"]) == (6.0, 1.0, 10.0, 10 / 16)
    # Seen from seat 1, the seats' parts change places and the table's stays.
    half = (len(LEARNED_INPUTS) - 4) // 2
    assert theirs == mine[half : 2 * half] + mine[:half] + mine[2 * half :]


def test_the_learned_leaf_favours_the_meld_and_swapping_the_seats_swaps_its_verdict() -> None:
    one = learned_round(RoundState.from_position(Rules(), SET_VS_LOOSE))
    assert one[0] > one[1] and one[0] + one[1] == pytest.approx(0.0)
    # The same table with the seats' roles exchanged, the set's holder still to draw.
    swapped = SET_VS_LOOSE.replace("dealer=1 to_move=0", "dealer=0 to_move=1").replace(
        "9H.9S.9C.KD.2C|KS.QH.8D.5C.3S", "KS.QH.8D.5C.3S|9H.9S.9C.KD.2C"
    )
    other = learned_round(RoundState.from_position(Rules(), swapped))
    assert other[1] - other[0] == pytest.approx(one[0] - one[1])


def test_the_learned_leaf_hands_over_to_the_fitted_one_beyond_two_players() -> None:
    position = f"dealer=2 to_move=0 phase=draw discard=TC hands=9H.9S.9C.KD.2C|KS.QH.8D.5C.3S|AH.2H.4S {STOCK}"
    state = RoundState.from_position(Rules(players=3), position)
    assert learned_round(state) == fitted_round(state)
    assert HardBot(0, leaf="learned").leaf is learned_round


def test_the_shipped_network_fits_its_inputs() -> None:
    assert len(leaf_net.MEAN) == len(leaf_net.SCALE) == len(LEARNED_INPUTS)
    assert len(leaf_net.HIDDEN) == len(leaf_net.BIAS) == len(leaf_net.OUT) > 0
    assert all(len(row) == len(LEARNED_INPUTS) for row in leaf_net.HIDDEN)
    assert all(s > 0 for s in leaf_net.SCALE)


def test_the_training_script_reports_every_leaf_on_rounds_held_out(capsys: pytest.CaptureFixture[str]) -> None:
    leaf_learn = _benchmark("leaf_learn")
    assert leaf_learn.main(["--rounds", "12", "--holdout", "6", "--epochs", "2", "--hidden", "4"]) == 0
    out = capsys.readouterr().out
    for label in ("heuristic leaf", "fitted leaf", "learned, shipped", "learned, trained now"):
        assert label in out
    assert out.count("R^2") == 4 and "epoch  2" in out
