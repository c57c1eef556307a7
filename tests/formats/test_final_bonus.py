"""``final_bonus`` goes "to the side with the best total after the last round" (RULES.md), even when
``must_go_out_to_win`` crowns a side that trails: in a ``Match`` and at a tourney table alike."""

from __future__ import annotations

import random

from rummy500 import Match
from rummy500.formats import SingleTableTourney, play_round, random_policy

from .helpers import names, result, rules

BONUS = 50


def test_a_match_gives_the_bonus_to_the_best_total_not_to_a_trailing_winner() -> None:
    """A at 495 needs only to go out to win; B, at 2000, keeps the best total whoever goes out."""
    r = rules(must_go_out_to_win=True, final_bonus=BONUS)
    trailing_winners = 0
    for seed in range(12):
        rng = random.Random(seed)
        match = Match(r, ["A", "B"], [495, 2000], rng=random.Random(seed))
        while not match.is_over:
            play_round(match, random_policy, rng)
        before = [t - (BONUS if seat == 1 else 0) for seat, t in enumerate(match.totals)]
        assert match.bonus_to == 1, (seed, match.totals)
        assert before[1] > before[0]  # B had the best total before the bonus
        trailing_winners += match.winner == 0
    assert trailing_winners > 0  # some of these games were won by A, who went out behind B


def test_a_table_gives_the_bonus_to_the_best_total_when_the_player_who_went_out_trails() -> None:
    t = SingleTableTourney(rules(players=2, must_go_out_to_win=True, final_bonus=BONUS), ["A", "B"])
    t.record_round(result([500, 520], went_out=0))
    assert t.winner == "A" and t.decided_by == "went_out"
    assert t.totals == {"A": 500, "B": 570} and t.bonus_to == "B"


def test_a_shared_best_total_gives_the_bonus_to_the_winner_when_it_shares_it() -> None:
    t = SingleTableTourney(rules(players=3, must_go_out_to_win=True, final_bonus=BONUS), names(3))
    t.record_round(result([520, 520, 100], went_out=0))
    assert t.winner == "P0" and t.bonus_to == "P0"
    assert t.totals == {"P0": 570, "P1": 520, "P2": 100}


def test_a_shared_best_total_without_the_winner_gives_the_bonus_to_the_first_in_seat_order() -> None:
    t = SingleTableTourney(rules(players=3, must_go_out_to_win=True, final_bonus=BONUS), names(3))
    t.record_round(result([500, 520, 520], went_out=0))
    assert t.winner == "P0" and t.bonus_to == "P1"
    assert t.totals == {"P0": 500, "P1": 570, "P2": 520}


def test_a_player_who_left_at_a_tie_break_gets_no_bonus() -> None:
    """The bonus goes to the best total among the players of the last round."""
    t = SingleTableTourney(rules(players=3, final_bonus=BONUS), names(3))
    t.record_round([510, 510, 505])
    assert t.stage == "tie_break" and t.active == ("P0", "P1")
    t.record_round([-30, -20])
    assert t.winner == "P1" and t.bonus_to == "P1"
    assert t.totals == {"P0": 480, "P1": 540, "P2": 505}


def test_without_must_go_out_to_win_the_winner_gets_the_bonus() -> None:
    t = SingleTableTourney(rules(players=2, target=100, final_bonus=BONUS), ["A", "B"])
    t.record_round([120, 90])
    assert t.winner == "A" and t.bonus_to == "A" and t.totals == {"A": 170, "B": 90}
