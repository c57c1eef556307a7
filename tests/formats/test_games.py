import random

import pytest

from rummy500 import Match, RulesError
from rummy500.formats import (
    FormatError,
    GameStatus,
    game_status,
    leaders,
    quick_game_rules,
    random_policy,
    standings,
    table_rules,
    target_game_rules,
)
from rummy500.formats.drive import play_round

from .helpers import rules


def test_target_game_is_the_standard_game_by_default():
    r = target_game_rules()
    assert r.rounds == "to_target" and r.target == 500
    assert r == rules()


def test_target_game_sets_the_target_and_undoes_a_fixed_number_of_rounds():
    r = target_game_rules(rules(rounds=2, players=3), target=150)
    assert (r.rounds, r.target, r.players) == ("to_target", 150, 3)


def test_target_game_refuses_a_bad_target():
    with pytest.raises(RulesError, match="target"):
        target_game_rules(target=0)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_quick_game_plays_one_to_three_rounds(n):
    assert quick_game_rules(n).rounds == n
    assert quick_game_rules(n, rules(preset="quick")).card_values == "flat"


@pytest.mark.parametrize("n", [0, 4, -1, True, "2", 2.0])
def test_quick_game_refuses_other_round_counts(n):
    with pytest.raises(FormatError, match="1 to 3 rounds"):
        quick_game_rules(n)


def test_quick_game_keeps_a_rules_conflict_visible():
    with pytest.raises(RulesError, match="must_go_out_to_win"):
        quick_game_rules(2, rules(must_go_out_to_win=True))


def test_table_rules_reseats_and_reports_unplayable_sizes():
    assert table_rules(rules(players=6), 3).players == 3
    with pytest.raises(FormatError, match="cannot seat 5 players"):
        table_rules(rules(players=4, decks=1, hand_size=13), 5)


def test_leaders_and_standings_group_ties():
    assert leaders([10, 30, 30]) == (1, 2)
    assert standings([40, 120, 40, 75]) == [(1,), (3,), (0, 2)]
    with pytest.raises(FormatError):
        leaders([])


def test_to_target_needs_a_total_at_the_target():
    r = rules(players=3, target=100)
    assert game_status(r, [99, 20, 0], 1) == GameStatus(False, None, (0,))
    assert game_status(r, [100, 20, 0], 1) == GameStatus(True, 0, (0,))


def test_tied_totals_over_the_target_mean_another_round():
    r = rules(players=3, target=100)
    assert game_status(r, [120, 120, 130 - 40], 4) == GameStatus(False, None, (0, 1), tie_break=True)


def test_quick_game_decides_after_its_last_round_only():
    r = quick_game_rules(2, rules(players=3))
    assert not game_status(r, [900, 0, 0], 1).over
    assert game_status(r, [10, 30, 20], 2).winner == 1
    assert game_status(r, [30, 30, 20], 2).tie_break
    assert game_status(r, [30, 35, 20], 3).winner == 1


def test_must_go_out_to_win_crowns_only_the_player_who_went_out():
    r = rules(players=3, target=100, must_go_out_to_win=True)
    assert not game_status(r, [150, 120, 0], 3, went_out=None).over
    assert not game_status(r, [150, 90, 0], 3, went_out=1).over
    assert game_status(r, [150, 120, 0], 3, went_out=1).winner == 1


def test_partnership_totals_are_per_side():
    r = rules(preset="partnership", target=100)
    assert game_status(r, [100, 50], 2, went_out=3).winner == 0
    with pytest.raises(FormatError, match="2 sides"):
        game_status(r, [100, 50, 0, 0], 2)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "target": 60},
        {"players": 2, "target": 40, "rounds": 2},
        {"players": 3, "target": 40, "must_go_out_to_win": True},
        {"preset": "partnership", "target": 60},
        {"players": 4, "target": 60, "final_bonus": 50},
    ],
)
def test_game_status_agrees_with_match_after_every_round(options):
    r = rules(**options)
    for seed in range(6):
        rng = random.Random(seed)
        match = Match(r, seed=seed)
        while not match.is_over:
            res = play_round(match, random_policy, rng)
            totals = match.side_totals()
            if match.bonus_to is not None:
                totals[r.side_of(match.bonus_to)] -= r.final_bonus
            status = game_status(r, totals, len(match.rounds) if match.is_over else len(match.rounds) - 1, res.went_out)
            expected = match.winner[0] if isinstance(match.winner, list) else match.winner
            assert status.winner == expected
