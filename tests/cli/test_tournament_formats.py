"""``rummy500 tournament --format single|multi|ring``: the formats of RULES.md Part 4 from the command line.

Each run is small (easy and random bots, short targets or one-round games)
and seeded, so it is quick and reproducible.
"""

from __future__ import annotations

import json

import pytest

from rummy500.cli import main
from rummy500.cli.tournament import FORMAT_CHOICES, entrant_names, expand_bots


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(["tournament", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_single_table_tourney_crowns_the_best_total(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--format", "single", "--bots", "random,easy,random", "--target", "60", "--seed", "4"]
    out = _json(capsys, argv)
    assert out["format"] == "single"
    assert out["entrants"] == {"random-1": "random", "easy": "easy", "random-2": "random"}
    table = out["table"]
    totals = table["totals"]
    winner = out["winner"]
    assert winner in out["entrants"] and table["winner"] == winner
    assert out["standings"][0] == [winner]
    assert sorted(n for group in out["standings"] for n in group) == sorted(out["entrants"])
    assert totals[winner] == max(totals.values()) and totals[winner] >= 60
    assert table["rounds_played"] >= 1
    assert out["rules"]["target"] == 60
    # The same seed plays the same tourney.
    assert _json(capsys, argv) == out


def test_multi_table_tourney_advances_table_winners_to_one_champion(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["--format", "multi", "--bots", "easy*3,random*2", "--max-table", "3", "--rules", '{"rounds": 1}', "--seed", "2"])
    assert list(out["entrants"]) == ["easy-1", "easy-2", "easy-3", "random-1", "random-2"]
    levels = out["tourney"]["levels"]
    assert len(levels) >= 2
    assert all(len(t["players"]) <= 3 for level in levels for t in level["tables"])
    # Who advances from a level is exactly who plays the next one.
    for level, nxt in zip(levels, levels[1:], strict=False):
        advancing = sorted([t["winner"] for t in level["tables"]] + level["byes"])
        assert sorted([p for t in nxt["tables"] for p in t["players"]] + nxt["byes"]) == advancing
    final = levels[-1]["tables"]
    assert len(final) == 1 and final[0]["winner"] == out["winner"]
    places = [n for group in out["standings"] for n in group]
    assert sorted(places) == sorted(out["entrants"]) and out["standings"][0] == [out["winner"]]


def test_ring_game_settles_every_round_in_chips(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, ["--format", "ring", "--bots", "random,easy,random", "--rounds", "3", "--pcr", "2", "--seed", "5"])
    rounds = out["rounds"]
    assert [r["number"] for r in rounds] == [1, 2, 3]
    assert [r["dealer"] for r in rounds] == [0, 1, 2]  # the deal passes to the left
    balances = dict.fromkeys(out["entrants"], 0)
    for r in rounds:
        assert sum(r["net"].values()) == 0
        best = max(r["round_scores"])
        for name, score in zip(r["players"], r["round_scores"], strict=True):
            # Everyone below the best pays (best - own) x PCR; the best share the pot.
            if score < best:
                assert r["net"][name] == -(best - score) * 2
            else:
                assert r["net"][name] >= 0
            balances[name] += r["net"][name]
    assert out["balances"] == balances and sum(balances.values()) == 0


def test_text_output_names_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--format", "single", "--bots", "random,random", "--rules", '{"rounds": 1}', "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("single-table tourney: random-1 (random), random-2 (random)")
    assert "winner: random-" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--format", "single", "--bots", "easy*0"], "LEVEL*N with N from 1 to 64"),
        (["--format", "single", "--bots", "easy,grandmaster"], "unknown bot level(s) grandmaster"),
        (["--format", "single", "--preset", "partnership"], "individual players"),
        (["--format", "ring", "--pcr", "0"], "point-chip ratio must be a positive whole number"),
        (["--format", "ring", "--rounds", "0"], "--rounds must be at least 1"),
        (["--format", "multi", "--max-table", "9"], "max_table must be 2 to 8, not 9"),
        (["--format", "single", "--rules", '{"decks": "two"}'], "option 'decks' cannot be 'two'"),
    ],
)
def test_bad_arguments_exit_2_naming_the_problem(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(["tournament", *argv]) == 2
    assert message in capsys.readouterr().err


def test_help_lists_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["tournament", "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for name in FORMAT_CHOICES:
        assert name in text
    assert "--max-table" in text and "--pcr" in text and "LEVEL*N" in text


def test_entrants_are_named_by_level() -> None:
    assert expand_bots("easy*2, random") == ["easy", "easy", "random"]
    assert entrant_names(["easy", "easy", "random"]) == ["easy-1", "easy-2", "random"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "--games", "0"], "--games must be at least 1, not 0"),
        (["tournament", "--jobs", "0"], "--jobs must be at least 1, not 0"),
        (["tournament", "--format", "single", "--hard-iterations", "-5"], "--hard-iterations must be at least 1, not -5"),
        (["tournament", "--format", "ring", "--preset", "partnership", "--bots", "random*4"], "individual players"),
        (["simulate", "--jobs", "-2"], "--jobs must be at least 1, not -2"),
        (["simulate", "--hard-iterations", "0"], "--hard-iterations must be at least 1, not 0"),
    ],
)
def test_counts_below_one_and_ring_partnerships_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_a_single_table_tourney_settles_in_chips(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--format", "single", "--bots", "random*3", "--rules", '{"target": 100}', "--pcr", "3", "--seed", "2"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    totals = out["table"]["totals"]
    winner = out["winner"]
    # RULES.md Part 4: each loser pays the winner (winner's points - own points) x PCR.
    assert out["pcr"] == 3
    for name, chips in out["chips"].items():
        if name != winner:
            assert chips == -3 * (totals[winner] - totals[name])
    assert sum(out["chips"].values()) == 0 and out["chips"][winner] > 0
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "chips at 3 a point" in text and f"{winner:<12} {out['chips'][winner]:+d}" in text
