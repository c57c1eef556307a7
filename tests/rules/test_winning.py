"""Winning options (RULES.md Part 2): each value against the standard game.

In every scenario seat 0 goes out melding 5H 6H 7H (18 points) while seat 1
is caught with KD QD 2S (22 points); the totals before the round decide who
has won.
"""

from __future__ import annotations

import pytest

from .scenario import contrast, one_round

HANDS = ["5H 6H 7H", "KD QD 2S"]
OUT = ["0 draw", "0 meld 5H 6H 7H", "0 discard 4D"]


def _round(hands=HANDS, stock="4D 9C", discard="8D", actions=OUT):
    rnd = one_round(hands, stock, discard, actions)
    del rnd["dealer"]
    return rnd


@pytest.mark.parametrize("target", [100, 250])
def test_target_sets_the_winning_total(target):
    base, opt = contrast({"target": target}, HANDS, "4D 9C", "8D", OUT, scores=[target - 10, 0])
    assert base.winner is None and base.totals == [target + 8, -22]
    assert opt.winner == 0


def test_must_go_out_to_win_refuses_the_win_to_a_player_who_did_not_go_out():
    base, opt = contrast({"must_go_out_to_win": True}, HANDS, "4D 9C", "8D", OUT, scores=[0, 530])
    assert base.winner == 1
    assert opt.winner is None and opt.totals == [18, 508]


def test_must_go_out_to_win_crowns_the_player_who_went_out_and_reached_the_target():
    base, opt = contrast({"must_go_out_to_win": True}, HANDS, "4D 9C", "8D", OUT, scores=[490, 540])
    assert base.winner == 1 and base.totals == [508, 518]  # the highest total
    assert opt.winner == 0  # the only one who went out


def test_rounds_plays_a_fixed_number_of_rounds_and_the_highest_total_wins():
    base, opt = contrast({"rounds": 1}, HANDS, "4D 9C", "8D", OUT)
    assert base.winner is None
    assert opt.winner == 0 and opt.totals == [18, -22]
    two = contrast({"rounds": 2}, HANDS, "4D 9C", "8D", OUT)[1]
    assert two.winner is None
    two = contrast({"rounds": 2}, HANDS, "4D 9C", "8D", OUT, more_rounds=[_round(["KC KH", "AS 2S 3S"], actions=["1 draw", "1 meld AS 2S 3S", "1 discard 4D"])])[1]
    assert two.winner == 0 and two.totals == [18 - 20, -22 + 6]


def test_rounds_plays_tie_break_rounds_when_the_totals_are_level():
    tie = contrast({"rounds": 1}, HANDS, "4D 9C", "8D", OUT, scores=[0, 40])[1]
    assert tie.totals == [18, 18] and tie.winner is None
    broken = contrast({"rounds": 1}, HANDS, "4D 9C", "8D", OUT, scores=[0, 40], more_rounds=[_round(actions=["1 draw", "1 discard 4D", "0 draw", "0 meld 5H 6H 7H", "0 discard 9C"])])[1]
    assert broken.ok and broken.winner == 0


def test_final_bonus_goes_to_the_side_with_the_best_total_at_the_end():
    base, opt = contrast({"final_bonus": 50}, HANDS, "4D 9C", "8D", OUT, base={"rounds": 1})
    assert base.winner == opt.winner == 0
    assert base.totals == [18, -22] and opt.totals == [68, -22]
