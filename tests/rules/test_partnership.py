"""Partnerships (RULES.md Part 2): seats 0 & 2 against 1 & 3, scores per side."""

from __future__ import annotations

import pytest

from rummy500.rules import Rules, RulesError

from .scenario import contrast, play

HANDS = ["5H 6H 7H", "KD QD 2S", "4C 9D", "AS 3S"]  # seat 0 goes out; 22, 13 and 18 left in hand
OUT = ["0 draw", "0 meld 5H 6H 7H", "0 discard 4D"]
PARTNERS = {"partnership": True}


def test_partnership_adds_side_totals_and_a_side_wins_on_its_combined_total():
    base, opt = contrast(PARTNERS, HANDS, "4D 9C", "8D", OUT, scores=[250, 0, 260, 0])
    assert base.winner is None and "side_totals" not in base.result
    assert base.totals == opt.totals == [268, -22, 247, -18]  # round scores stay per seat
    assert opt.winner == [0, 2] and opt.result["side_totals"] == [515, -40]


def test_partnership_reaching_the_target_needs_the_side_total():
    base, opt = contrast(PARTNERS, HANDS, "4D 9C", "8D", OUT, scores=[490, 0, 0, 0])
    assert base.winner == 0
    assert opt.winner is None and opt.result["side_totals"] == [508 - 13, -40]


def test_partnership_the_side_with_the_higher_total_over_the_target_wins():
    out = play(PARTNERS, HANDS, "4D 9C", "8D", OUT, scores=[300, 300, 300, 300])
    assert out.result["side_totals"] == [618 - 13, 600 - 40] and out.winner == [0, 2]
    out = play(PARTNERS, HANDS, "4D 9C", "8D", OUT, scores=[300, 300, 200, 350])
    assert out.result["side_totals"] == [505, 610] and out.winner == [1, 3]


def test_partnership_hand_penalty_to_goer_takes_only_the_opponents_hands():
    base, opt = contrast(PARTNERS, HANDS, "4D 9C", "8D", OUT, base={"hand_penalty": "to_goer"})
    assert base.scores == [18 + 22 + 13 + 18, 0, 0, 0]
    assert opt.scores == [18 + 22 + 18, 0, 0, 0]


def test_partnership_hand_penalty_to_goer_with_nobody_out_each_side_adds_the_others_hands():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 4D", "1 pass"]
    hands = ["5H 6H 7H 9C", "KD QD 2S", "4C 9D", "AS 3S"]
    base, opt = contrast(PARTNERS, hands, "4D", "8D", actions, base={"hand_penalty": "to_goer"})
    assert base.scores == [18, 0, 0, 0]  # four sides: nobody adds
    # two sides: each adds the other side's hands once, to its first seat
    assert opt.scores == [18 + 22 + 18, 9 + 13, 0, 0] and opt.result["side_totals"] == [58, 22]


def test_partnership_going_out_bonus_goes_to_the_side_of_the_goer():
    out = play({**PARTNERS, "going_out_bonus": 25}, HANDS, "4D 9C", "8D", OUT)
    assert out.scores == [18 + 25, -22, -13, -18] and out.result["side_totals"] == [30, -40]


def test_partnership_final_bonus_goes_to_the_winning_sides_first_seat():
    hands = ["KD QD 2S", "AS 3S", "5H 6H 7H", "4C 9D"]
    actions = ["0 draw", "0 discard 4D", "1 draw", "1 discard 9C", "2 draw", "2 meld 5H 6H 7H", "2 discard TC"]
    out = play({**PARTNERS, "rounds": 1, "final_bonus": 50}, hands, "4D 9C TC", "8D", actions)
    assert out.winner == [0, 2] and out.totals == [-22 + 50, -18, 18, -13]


def test_partnership_lets_partners_extend_each_others_melds():
    hands = ["5H 6H 7H 9C", "KD QD 2S", "8H 9D TD", "AS 3S 4S"]
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C", "1 draw", "1 discard 2S", "2 draw", "2 layoff 8H on 0"]
    out = play(PARTNERS, hands, "4D 9S TS", "8D", actions)
    assert out.ok and out.state["melds"][0]["laid_by"] == [0, 0, 0, 2]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_partnership_needs_four_players(players):
    with pytest.raises(RulesError, match="partnership.*players"):
        Rules.from_mapping({"partnership": True, "players": players})


def test_partnership_refuses_layoff_onto_own_naming_both_options():
    # RULES.md: "Partners may lay off on each other's melds"; own melds only would forbid it.
    with pytest.raises(RulesError) as refused:
        Rules.from_mapping({"partnership": True, "players": 4, "layoff_onto": "own"})
    message = str(refused.value)
    assert "layoff_onto: own" in message and "partnership: true" in message
    assert "own_and_partner" in message and "any" in message
    for fine in ("any", "own_and_partner"):
        assert Rules.from_mapping({"partnership": True, "players": 4, "layoff_onto": fine}).partnership


def test_side_sums_add_partners_together_and_leave_single_seats_alone():
    partners = Rules.from_mapping({"partnership": True, "players": 4})
    assert partners.side_sums([10, -5, 2.5, 7]) == [12.5, 2.0]
    alone = Rules.from_mapping({"players": 3})
    assert alone.side_sums([10, -5, 2.5]) == [10.0, -5.0, 2.5]
