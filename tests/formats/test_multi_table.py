import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy500.cli import main
from rummy500.formats import FormatError, MultiTableTourney, TableGame, plan_tables, run_multi_table

from .helpers import names, result, rules


def test_plan_tables_balances_and_fills_tables():
    assert plan_tables(8) == ([8], 0)
    assert plan_tables(9) == ([5, 4], 0)
    assert plan_tables(20, 8) == ([7, 7, 6], 0)
    assert plan_tables(17, 4) == ([4, 4, 3, 3, 3], 0)
    assert plan_tables(3, 2) == ([2], 1)


def test_byes_when_tables_cannot_reach_the_minimum():
    assert plan_tables(5, 4, 3) == ([4], 1)
    assert plan_tables(7, 6, 4) == ([6], 1)
    assert plan_tables(9, 4, 4) == ([4, 4], 1)


def test_the_final_table_may_be_below_the_minimum():
    assert plan_tables(2, 8, 6) == ([2], 0)


@pytest.mark.parametrize(("maxi", "mini"), [(9, 2), (4, 1), (3, 4), (True, 2)])
def test_plan_tables_refuses_bad_sizes(maxi, mini):
    with pytest.raises(FormatError):
        plan_tables(10, maxi, mini)
    with pytest.raises(FormatError, match="at least 2"):
        plan_tables(1)


@given(st.integers(2, 300), st.data())
def test_plans_seat_everyone_and_always_make_progress(n, data):
    maxi = data.draw(st.integers(2, 8))
    mini = data.draw(st.integers(2, maxi))
    sizes, byes = plan_tables(n, maxi, mini)
    assert sum(sizes) + byes == n
    assert sizes and max(sizes) - min(sizes) <= 1 and max(sizes) <= maxi
    if len(sizes) > 1 or byes:
        assert min(sizes) >= mini
    else:
        assert sizes == [n]
    assert len(sizes) + byes < n  # each level knocks someone out
    # no plan with fewer byes would do
    for fewer in range(byes):
        seated = n - fewer
        tables = -(-seated // maxi)
        assert seated < tables * mini


def points_table(n=3, **options):
    return TableGame(rules(players=n, **{"target": 100, **options}), names(n), tie_break="points")


def test_a_tie_is_broken_by_more_melded_and_laid_off_points():
    t = points_table()
    t.record_round(result([60, 60, 10], table=[70, 80, 10], hand=[10, 20, 0]))
    t.record_round(result([40, 40, 0], table=[45, 40, 0], hand=[5, 0, 0]))
    # Both on 100; table points 115 v 120: P1 advances.
    assert t.winner == "P1" and t.decided_by == "table_points"
    assert (t.table_points["P1"], t.hand_points["P1"]) == (120, 20)
    assert t.standings() == [("P1",), ("P0",), ("P2",)]


def test_then_by_less_left_in_hand():
    # With stock_out_penalty off a hand left when the stock runs out costs nothing,
    # so totals and table points can be level while the hands differ.
    t = points_table(stock_out_penalty=False)
    t.record_round(result([70, 70, 0], table=[70, 70, 0], hand=[25, 10, 30], went_out=None))
    t.record_round(result([30, 30, 5], table=[40, 40, 5], hand=[10, 10, 0], went_out=0))
    assert t.winner == "P1" and t.decided_by == "hand_points"
    assert (t.hand_points["P0"], t.hand_points["P1"]) == (35, 20)


def test_level_on_total_table_and_hand_points_means_a_tie_break_round():
    t = points_table()
    t.record_round(result([60, 60, 0], table=[70, 75, 0], hand=[10, 15, 0]))
    t.record_round(result([40, 40, 0], table=[50, 45, 0], hand=[10, 5, 0]))
    assert not t.is_over and t.stage == "tie_break" and t.active == ("P0", "P1")


def test_a_full_tie_goes_to_a_tie_break_round_broken_the_same_way():
    t = points_table(4)
    t.record_round(result([100, 100, 100, 5], table=[110, 110, 110, 5], hand=[10, 10, 10, 0]))
    assert t.active == ("P0", "P1", "P2")
    spec = t.next_round()
    assert spec.tie_break and spec.new_game and spec.scores == (100, 100, 100)
    # P0 and P2 tie again on total; P2 melded more over the table's rounds.
    t.record_round(result([20, 5, 20], table=[20, 5, 25], hand=[0, 0, 5]))
    assert t.winner == "P2" and t.decided_by == "table_points"


def test_a_tie_break_round_can_be_won_outright():
    t = points_table(2)
    t.record_round(result([100, 100], table=[100, 100], hand=[0, 0]))
    t.record_round(result([-10, 15], table=[0, 15], hand=[10, 0]))
    assert t.winner == "P1" and t.decided_by == "tie_break_round"


def tourney(n, seed=3, **kw):
    return MultiTableTourney(rules(players=4, target=100), names(n), seed=seed, **kw)


def test_the_first_level_seats_balanced_tables_from_the_seed():
    t = tourney(10)
    assert [len(tb.players) for tb in t.level.tables] == [4, 3, 3]
    assert sorted(p for tb in t.level.tables for p in tb.players) == sorted(names(10))
    assert [tb.table_id for tb in t.open_tables()] == [1, 2, 3]
    assert tourney(10).to_dict() == t.to_dict()
    assert tourney(10, seed=4).to_dict() != t.to_dict()


def win(t: MultiTableTourney, table_id: int, seat: int) -> None:
    n = len(t.next_round(table_id).players)
    t.record_round(table_id, result([100 if i == seat else 0 for i in range(n)]))


def test_winners_advance_and_the_last_player_standing_wins():
    t = tourney(10)
    firsts = [tb.players[0] for tb in t.level.tables]
    for tb in t.open_tables():
        win(t, tb.table_id, 0)
    assert t.level.number == 2
    final = t.level.tables
    assert len(final) == 1 and sorted(final[0].players) == sorted(firsts)
    assert final[0].rules.players == 3
    win(t, final[0].table_id, 1)
    assert t.is_over and t.winner == final[0].players[1]
    assert t.open_tables() == []
    places = t.standings()
    assert places[0] == (t.winner,) and len(places[1]) == 2 and len(places[2]) == 7
    assert all(t.out_at[p] == 1 for p in places[2])


def test_tables_may_be_played_in_any_order():
    t = tourney(8)
    a, b = t.open_tables()
    win(t, b.table_id, 2)
    assert t.level.number == 1 and t.open_tables() == [a]
    win(t, a.table_id, 0)
    assert t.level.number == 2


def test_byes_advance_without_playing_and_go_to_those_who_have_had_fewest():
    t = MultiTableTourney(rules(players=4, target=100), names(5), max_table=4, min_table=3, seed=1)
    lv = t.level
    assert [len(tb.players) for tb in lv.tables] == [4] and len(lv.byes) == 1
    bye = lv.byes[0]
    win(t, lv.tables[0].table_id, 0)
    assert t.level.number == 2 and set(t.level.tables[0].players) == {bye, lv.tables[0].players[0]}


def test_byes_rotate_among_players():
    # 3 players, heads-up tables: one bye per level.
    t = MultiTableTourney(rules(target=100), names(3), seed=0)
    first_bye = t.level.byes
    assert len(first_bye) == 1 and len(t.level.tables[0].players) == 2
    win(t, t.level.tables[0].table_id, 0)
    assert t.level.byes == ()  # two left: the final table


def test_a_table_can_be_driven_directly_and_the_tourney_catches_up():
    t = tourney(5)
    tables = t.open_tables()
    for tb in tables:
        tb.record_round(result([100] + [0] * (len(tb.players) - 1)))
    assert t.level.number == 2 and t.open_tables() == list(t.level.tables)


def test_round_results_must_carry_table_and_hand_points():
    t = tourney(4)
    with pytest.raises(FormatError, match="RoundResult"):
        t.record_round(1, [100, 0, 0, 0])  # type: ignore[arg-type]
    with pytest.raises(FormatError, match="no table 9"):
        t.next_round(9)


def test_bad_setups_are_refused():
    with pytest.raises(FormatError, match="at least 2 players"):
        MultiTableTourney(rules(), ["A"])
    with pytest.raises(FormatError, match="max_table"):
        MultiTableTourney(rules(), names(5), max_table=9)
    with pytest.raises(FormatError, match="cannot seat"):
        MultiTableTourney(rules(players=2, hand_size=13, decks=1), names(8), max_table=5)
    with pytest.raises(FormatError, match="partnership"):
        MultiTableTourney(rules(preset="partnership"), names(8))


@pytest.mark.parametrize(
    ("n", "table", "least", "seed"),
    [
        (2, 2, 2, 0),
        (3, 2, 2, 6),
        (7, 3, 2, 1),
        (12, 4, 2, 2),
        (23, 4, 2, 3),
        (30, 8, 2, 4),
        (17, 5, 2, 5),
        (13, 4, 4, 7),
    ],
)
def test_random_tourneys_end_with_one_player_standing(n, table, least, seed):
    t = run_multi_table(rules(players=table, target=50), names(n), seed=seed, min_table=least)
    assert t.is_over and t.winner in t.players
    assert set(t.out_at) == set(t.players) - {t.winner}
    places = t.standings()
    assert places[0] == (t.winner,)
    assert sorted(p for g in places for p in g) == sorted(t.players)
    for level in t.levels:
        assert level.is_over
        for tb in level.tables:
            assert 2 <= len(tb.players) <= table
            assert tb.winner is not None
            assert all(t.out_at[p] == level.number for p in tb.losers)
    assert t.levels[-1].tables[-1].winner == t.winner
    entrants = set(t.players)
    for level in t.levels:  # everyone still in plays or has a bye, once
        seated = [p for tb in level.tables for p in tb.players] + list(level.byes)
        assert sorted(seated) == sorted(entrants)
        entrants = set(level.advancing)


def test_random_tourneys_are_reproducible_from_the_seed():
    a = run_multi_table(rules(players=3, target=40), names(11), seed=9)
    b = run_multi_table(rules(players=3, target=40), names(11), seed=9)
    assert a.to_dict() == b.to_dict()


def test_a_points_tie_break_is_played_out_with_real_matches():
    from rummy500.formats import play_table

    for seed in range(5):
        t = points_table(4)
        t.record_round(result([100, 100, 40, 100], table=[120, 120, 40, 120], hand=[20, 20, 0, 20]))
        assert t.active == ("P0", "P1", "P3")
        winner = play_table(t, seed=seed)
        assert winner in ("P0", "P1", "P3")
        assert t.decided_by in ("tie_break_round", "table_points", "hand_points")


def test_table_sizes_above_the_number_of_entrants_are_not_checked():
    # Three entrants never sit four at a table, so rules that cannot deal to four are fine.
    thirteen = rules(players=3, hand_size=13, jokers=0, target=50)
    t = MultiTableTourney(thirteen, names(3), max_table=4, seed=1)
    assert [sorted(tb.players) for tb in t.open_tables()] == [names(3)]
    assert run_multi_table(thirteen, names(3), seed=1, max_table=4).winner in names(3)
    # With a fourth entrant a table of four may be needed, and is refused.
    with pytest.raises(FormatError, match="cannot seat 4 players"):
        MultiTableTourney(thirteen, names(4), max_table=4)


def test_the_cli_runs_a_multi_tourney_whose_rules_fit_only_the_entrants(capsys: pytest.CaptureFixture[str]) -> None:
    # docs/formats.md: the rules are checked for the number of entrants, at most --max-table (4 by default).
    argv = ["tournament", "--format", "multi", "--bots", "random*3", "--target", "50", "--seed", "1", "--json"]
    assert main([*argv, "--rules", '{"hand_size": 13, "jokers": 0}']) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["entrants"]) == ["random-1", "random-2", "random-3"]
    assert out["winner"] in out["entrants"] and out["standings"][0] == [out["winner"]]
    assert [len(t["players"]) for t in out["tourney"]["levels"][0]["tables"]] == [3]
