"""Card values and scoring options (RULES.md Part 2): each value against the standard game.

One finished round serves for the value tables: seat 0 melds a low-ace run
A 2 3 of hearts, a high-ace run Q K A of clubs and 7S 8S JK=9S, then goes out;
seat 1 is caught holding AS 9D JK 5C.
"""

from __future__ import annotations

import pytest

from .scenario import contrast, play

HANDS = ["AH 2H 3H QC KC AC 7S 8S JK", "AS 9D JK 5C"]
OUT = ["0 draw", "0 meld AH 2H 3H", "0 meld QC KC AC", "0 meld 7S 8S JK=9S", "0 discard 4D"]
STANDARD = [(1 + 2 + 3) + (10 + 10 + 15) + (7 + 8 + 15), -(15 + 9 + 15 + 5)]


def _scores(rules: dict) -> list[int]:
    out = play(rules, HANDS, "4D", "8D", OUT)
    assert out.ok and out.over and out.went_out == 0, out.message
    return out.scores


def test_the_scenario_scores_the_standard_values():
    assert _scores({}) == STANDARD == [71, -44]


# ----------------------------------------------------------------- card_values
@pytest.mark.parametrize(
    ("values", "expected"),
    [
        # 2-9 count 5, ten to king 10, ace 15 (5 when low), joker 15
        ("flat", [(5 + 5 + 5) + (10 + 10 + 15) + (5 + 5 + 15), -(15 + 5 + 15 + 5)]),
        # aces 25 wherever they are
        ("ace_25", [(25 + 2 + 3) + (10 + 10 + 25) + (7 + 8 + 15), -(25 + 9 + 15 + 5)]),
        # ace 1, pips, J 11 Q 12 K 13, joker 15
        ("pip_rank", [(1 + 2 + 3) + (12 + 13 + 1) + (7 + 8 + 15), -(1 + 9 + 15 + 5)]),
        # ace 11 (1 low), a melded joker counts as its card; in hand aces and jokers 15
        ("ace_11", [(1 + 2 + 3) + (10 + 10 + 11) + (7 + 8 + 9), -(15 + 9 + 15 + 5)]),
    ],
)
def test_card_values_change_what_each_card_scores(values, expected):
    assert _scores({"card_values": values}) == expected != STANDARD


@pytest.mark.parametrize("low", [5, 0])
def test_low_ace_value_overrides_only_the_low_ace_of_a_run(low):
    assert _scores({"low_ace_value": low}) == [STANDARD[0] - 1 + low, STANDARD[1]]


@pytest.mark.parametrize(
    ("value", "table_joker", "hand_joker"),
    [(0, 0, 0), (20, 20, 20), ("represented", 9, 15)],
)
def test_joker_value_overrides_the_joker(value, table_joker, hand_joker):
    assert _scores({"joker_value": value}) == [STANDARD[0] - 15 + table_joker, STANDARD[1] + 15 - hand_joker]


def test_joker_value_15_overrides_the_represented_joker_of_ace_11():
    ace_11 = _scores({"card_values": "ace_11"})
    assert _scores({"card_values": "ace_11", "joker_value": 15}) == [ace_11[0] - 9 + 15, ace_11[1]]


@pytest.mark.parametrize(
    ("custom", "expected"),
    [
        ({"QC": 40}, [STANDARD[0] + 30, STANDARD[1]]),
        # a rank: every ace, low or high, on the table or in hand
        ({"A": 20}, [STANDARD[0] + 19 + 5, STANDARD[1] - 5]),
        ({"JK": 25}, [STANDARD[0] + 10, STANDARD[1] - 10]),
    ],
)
def test_custom_values_are_applied_last(custom, expected):
    assert _scores({"custom_values": custom}) == expected
    assert _scores({"custom_values": custom, "card_values": "flat"})[0] != _scores({"card_values": "flat"})[0]


# ------------------------------------------------------------ four of a kind
FOUR_ACES = ["0 draw", "0 meld AC AD AH AS", "0 discard 4D"]


def test_four_aces_bonus_scores_four_aces_laid_at_once_100():
    base, opt = contrast({"four_aces_bonus": True}, ["AC AD AH AS", "KD QD 2S"], "4D", "8D", FOUR_ACES)
    assert base.scores == [60, -22]
    assert opt.scores == [100, -22]


def test_four_aces_bonus_needs_the_four_laid_at_once():
    actions = ["0 draw", "0 meld AC AD AH", "0 layoff AS on 0", "0 discard 4D"]
    assert play({"four_aces_bonus": True}, ["AC AD AH AS", "KD QD 2S"], "4D", "8D", actions).scores == [60, -22]


def test_four_aces_bonus_is_not_won_by_an_opponents_joker_swap():
    # Seat 0 lays three aces and a joker at once; seat 1 swaps the fourth ace into the joker's place.
    # The four were not natural aces when laid: no 100 (until 7 December 2026 the swap gave it).
    rules = {"four_aces_bonus": True, "joker_swap": True}
    hands = ["AS AH AD JK 9C", "AC KD QD 2S"]
    actions = ["0 draw", "0 meld AS AH AD JK=AC", "0 discard 9C", "1 draw", "1 swap AC on 0", "1 discard 3C", "0 pass"]
    swapped = play(rules, hands, "4D 3C", "8D", actions)
    unswapped = play(rules, hands, "4D 3C", "8D", [a for a in actions if "swap" not in a])
    assert swapped.ok and swapped.meld(0) == ["AD", "AH", "AS", "AC"]
    assert swapped.scores == unswapped.scores == [56, -37]
    # The position notation keeps it (a 12th field of the meld), and reads it back.
    state = swapped.match().state
    assert state.public.melds[0].swapped
    assert type(state).from_position(state.rules, state.position()).public.melds[0].swapped


def test_four_aces_bonus_takes_precedence_over_four_of_a_kind_double():
    both = {"four_aces_bonus": True, "four_of_a_kind_double": True}
    assert play(both, ["AC AD AH AS", "KD QD 2S"], "4D", "8D", FOUR_ACES).scores == [100, -22]


def test_four_of_a_kind_double_doubles_a_set_of_four_laid_at_once():
    actions = ["0 draw", "0 meld 7C 7D 7H 7S", "0 discard 4D"]
    base, opt = contrast({"four_of_a_kind_double": True}, ["7C 7D 7H 7S", "KD QD 2S"], "4D", "8D", actions)
    assert base.scores == [28, -22]
    assert opt.scores == [56, -22]


def test_four_of_a_kind_double_adds_a_later_fourth_card_at_its_plain_value():
    actions = ["0 draw", "0 meld 7C 7D 7H", "0 discard 9C", "1 draw", "1 layoff 7S on 0", "1 discard 2S", "0 pass"]
    base, opt = contrast({"four_of_a_kind_double": True}, ["7C 7D 7H 9C", "7S KD QD 2S"], "4D 3C", "8D", actions)
    assert base.over and base.went_out is None
    assert opt.scores == base.scores == [21 - 4, 7 - (10 + 10 + 3)]


# ----------------------------------------------------------------- score_divisor
def test_score_divisor_5_divides_round_scores_rounding_half_away_from_zero():
    base, opt = contrast({"score_divisor": 5}, HANDS, "4D", "8D", OUT)
    assert base.scores == [71, -44]
    assert opt.scores == [14, -9]  # 14.2 and -8.8


# ------------------------------------------------------------------ hand_penalty
def test_hand_penalty_to_goer_gives_the_other_hands_to_the_player_who_went_out():
    base, opt = contrast({"hand_penalty": "to_goer"}, HANDS, "4D", "8D", OUT)
    assert base.scores == [71, -44]
    assert opt.scores == [71 + 44, 0]


def test_hand_penalty_to_goer_with_nobody_out_two_players_add_each_others_hand():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 2C", "1 pass"]
    base, opt = contrast({"hand_penalty": "to_goer"}, ["5H 6H 7H 9C", "KD QD 2S 3S"], "2C", "8D", actions)
    assert base.scores == [18 - 9, -25]
    assert opt.scores == [18 + 25, 9]


def test_hand_penalty_to_goer_with_nobody_out_three_players_nobody_adds():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 2C", "1 pass"]
    hands = ["5H 6H 7H 9C", "KD QD 2S 3S", "4C 4D"]
    base, opt = contrast({"hand_penalty": "to_goer"}, hands, "2C", "8D", actions)
    assert base.scores == [9, -25, -8]
    assert opt.scores == [18, 0, 0]


def test_hand_penalty_to_goer_with_three_players_gives_both_hands_to_the_goer():
    hands = ["5H 6H 7H", "KD QD 2S 3S", "4C 4D"]
    base, opt = contrast({"hand_penalty": "to_goer"}, hands, "2C", "8D", ["0 draw", "0 meld 5H 6H 7H", "0 discard 2C"])
    assert base.scores == [18, -25, -8]
    assert opt.scores == [18 + 25 + 8, 0, 0]


# -------------------------------------------------------------- going_out_bonus
@pytest.mark.parametrize("bonus", [25, 10])
def test_going_out_bonus_rewards_the_player_who_goes_out(bonus):
    base, opt = contrast({"going_out_bonus": bonus}, HANDS, "4D", "8D", OUT)
    assert opt.scores == [base.scores[0] + bonus, base.scores[1]]


# ----------------------------------------------------------------- masters_hand
SEVEN = ["3H 4H 5H 6H 7H 8H 9H", "KD QD 2S"]


def test_masters_hand_scores_500_for_a_seven_card_run_and_a_going_out_discard():
    actions = ["0 draw", "0 meld 3H 4H 5H 6H 7H 8H 9H", "0 discard KS"]
    base, opt = contrast({"masters_hand": True}, SEVEN, "KS", "8D", actions)
    assert base.scores == [42, -22]
    assert opt.scores == [500, -22]
    assert play({"masters_hand": True, "score_divisor": 5}, SEVEN, "KS", "8D", actions).scores == [100, -4]


def test_masters_hand_is_not_the_player_to_moves_for_a_run_someone_else_laid_out_of_turn():
    hands = ["5H 6H 7H", "2S 3S 4S 5S 6S 7S 8S KD QD"]
    actions = ["0 draw", "0 meld 5H 6H 7H", "1 meld 2S 3S 4S 5S 6S 7S 8S", "0 discard 9C"]
    out = play({"masters_hand": True, "meld_out_of_turn": True}, hands, "9C 2C", "9D", actions)
    assert out.over and out.went_out == 0
    assert out.scores == [18, 35 - 20]  # plain counts (not 500): seat 0's run; seat 1's run less KD QD


def test_masters_hand_needs_the_run_laid_at_once_and_a_discard():
    in_parts = ["0 draw", "0 meld 3H 4H 5H 6H", "0 layoff 7H 8H 9H on 0", "0 discard KS"]
    assert play({"masters_hand": True}, SEVEN, "KS", "8D", in_parts).scores == [42, -22]
    melded_out = ["0 draw", "0 meld 3H 4H 5H 6H 7H 8H 9H TH"]
    assert play({"masters_hand": True}, SEVEN, "TH", "8D", melded_out).scores == [52, -22]


def test_an_ace_closing_a_run_of_every_rank_goes_high_whether_melded_at_once_or_laid_off():
    # docs/rules.md: an ace that fits both ends of 2..K goes high. All thirteen hearts melded at once
    # scored the ace 1 (as A 2 ... K), where the same cards with the ace laid off scored it 15.
    hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    at_once = play({}, [hearts, "KS QS 4D"], "9C 3C", "8D", ["0 draw", f"0 meld {hearts}", "0 discard 9C"])
    laid_off = play({}, [hearts, "KS QS 4D"], "9C 3C", "8D",
                    ["0 draw", f"0 meld {hearts[:-3]}", "0 layoff AH on 0", "0 discard 9C"])
    for out in (at_once, laid_off):
        assert out.ok and out.over, out.message
        assert out.scores == [2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4 + 15, -(10 + 10 + 4)] == [99, -24]
    assert at_once.meld(0)[-1] == "AH"
