"""``rummy500 review`` as a player sees it: names shown as written, unfinished records refused,
rows that add up to the summary, the real scores, plain words, 80 columns."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from rummy500.cli import main
from rummy500.cli.review_cmd import print_review
from rummy500.review import DEFAULT_BUDGET, Decision, PlayerSummary, Review

from .positions import layoff_position


def finished(players: list[str] | None = None) -> dict[str, Any]:
    """A one-round game, over in six actions: Ann lays off KS and goes out."""
    game = layoff_position([{"p": 0, "layoff": ["KS"], "on": 0}, {"p": 0, "discard": "4D"}])
    game["rules"] = {"preset": "standard", "rounds": 1}
    if players is not None:
        game["players"] = players
    return game


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], record: object, *flags: str) -> tuple[int, str, str]:
    game = tmp_path / "game.json"
    game.write_text(json.dumps(record))
    rc = main(["review", str(game), "--budget", "2", "--jobs", "1", *flags])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")


def test_names_with_markup_are_shown_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(tmp_path, capsys, finished(["[/]", "[bold red]Bob"]))
    assert rc == 0, err
    assert "│ [/]  " in out
    assert "[bold red]Bob" in out
    assert "Winner: [/]" in out


def test_unfinished_or_empty_records_are_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = layoff_position([])
    cut["rules"] = {"preset": "standard", "rounds": 1}
    cut["actions"] = cut["actions"][:3]
    rc, out, err = run(tmp_path, capsys, cut)
    assert (rc, out) == (2, "")
    assert err == "rummy500 review: the game is not finished: round 1 stops after 3 actions (--unfinished reviews it as far as it goes)\n"
    rc, out, err = run(tmp_path, capsys, {**cut, "actions": []})
    assert (rc, out) == (2, "") and err.count("\n") == 1 and "holds no action" in err
    for empty in ({}, {"rules": {"players": 2}, "players": ["Ann", "Bob"], "rounds": []}):
        rc, out, err = run(tmp_path, capsys, empty)
        assert (rc, out, err) == (2, "", "rummy500 review: the record holds no round\n")
    # every round over, but nobody has reached 500 yet
    rc, out, err = run(tmp_path, capsys, {**finished(), "rules": {"preset": "standard"}})
    assert (rc, out) == (2, "") and "the game is not finished: nobody has won after round 1" in err
    # asked for, an unfinished game is reviewed as far as it goes, and the scores say so
    rc, out, err = run(tmp_path, capsys, cut, "--unfinished")
    assert rc == 0, err
    flat = " ".join(out.split())  # the words under the table, whatever the lines they wrap to
    assert "Round 1 is unfinished: the record stops after 3 of its actions." in flat and "Nobody has won yet." in flat
    assert "Summary" in out


def test_an_illegal_action_counts_rounds_and_actions_from_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = finished()
    bad["actions"] = [{"p": 1, "draw": "stock"}, {"p": 1, "discard": "AS"}]
    rc, out, err = run(tmp_path, capsys, bad)
    assert (rc, out) == (2, "")
    assert err.startswith("rummy500 review: round 1 action 2: ") and err.count("\n") == 1


def test_the_scores_of_each_round_come_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(tmp_path, capsys, finished())
    assert rc == 0, err
    assert out.index("Scores, round by round") < out.index("Summary")
    rows = [re.sub(r"\s+", " ", line.strip("│ ")) for line in out.splitlines() if line.startswith("│")]
    assert "1 │ Ann (went out) │ 10 │ 0 │ +10 │ 10" in rows
    assert "Bob │ 30 │ 54 │ -24 │ -24" in rows
    assert "Winner: Ann; final totals: Ann 10, Bob -24." in " ".join(out.split())


def _decision(step: int, loss: float, verdict: str) -> Decision:
    return Decision(
        round=0, index=step - 1, step=step, seat=0, phase="play", played=f"discard {step}C", best="discard KS",
        loss=loss, verdict=verdict, values={}, stderr=2.0, standing=0.0, legal=3,
    )


def _review(decisions: list[Decision], name: str = "Ann") -> Review:
    total = round(sum(d.loss for d in decisions), 1)
    verdicts = {v: sum(d.verdict == v for d in decisions) for v in ("good", "inaccuracy", "mistake", "blunder")}
    ann = PlayerSummary(seat=0, name=name, decisions=len(decisions), accuracy=80.0, loss=total, loss_per_round=total, verdicts=verdicts)
    return Review([ann], decisions, rounds=1, steps=20, budget=DEFAULT_BUDGET, seed=0, skipped={})


def _print(review: Review, every: bool = False) -> str:
    buf = io.StringIO()
    print_review(review, Console(file=buf, width=80), every=every)
    return buf.getvalue()


def test_the_rows_listed_add_up_to_the_points_lost() -> None:
    # a close call: 4.5 points lost, but within the margin, so "good"
    review = _review([_decision(3, 4.5, "good"), _decision(5, 12.0, "mistake"), _decision(7, 0.0, "good")])
    out = _print(review)
    assert "discard 3C" in out and "discard 5C" in out and "discard 7C" not in out
    lost = [float(m) for m in re.findall(r"│\s+1 │\s+\d+ │ discard \dC\s+│ discard KS │\s+([\d.]+) │", out)]
    assert sum(lost) == pytest.approx(16.5)
    assert re.search(r"│ Ann\s+│\s+3 │\s+80\.0% │\s+16\.5 │", out)
    flat = " ".join(out.split())
    assert "every decision that lost points (--all lists every decision)" in flat
    assert "a loss marked good is a close call" in flat
    assert "discard 7C" in _print(review, every=True)


def test_a_table_titled_with_markup_prints_it_as_written() -> None:
    out = _print(_review([_decision(5, 12.0, "mistake")], name="[bold red]Bob[/]"))
    assert "[bold red]Bob[/] (seat 0)" in out and "│ [bold red]Bob[/]" in out


def test_the_output_fits_80_columns_in_plain_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    review = _review([_decision(3, 4.5, "inaccuracy"), _decision(5, 12.0, "mistake")])
    review.decisions[0].sure = False
    out = _print(review)
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "…" not in out and "inaccuracies" in out and "inaccuracy?" in out
    flat = " ".join(out.split())
    assert "move: the action's number in the whole game" in flat
    assert "standard error" not in flat and "guesses" not in flat


def test_two_seats_of_the_same_name_are_told_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(tmp_path, capsys, finished(["Ann", "Ann"]))
    assert rc == 0, err
    assert all(len(line) <= 80 for line in out.splitlines())
    assert re.search(r"│ Ann \(seat 0\)\s+│\s+2 │", out) and re.search(r"│ Ann \(seat 1\)\s+│\s+3 │", out)


def test_hindsight_help_says_what_it_computes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["review", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "the medium bot's way for the same horizon (4 turns by default)" in help_text
    assert "not the points the moves really scored" in help_text
    assert "so the rows add up to the summary" in help_text



def test_a_record_that_names_a_key_twice_is_refused_as_replay_refuses_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The review reads records as strictly as ``rummy500 replay``: a key given twice is no last-one-wins."""
    game = tmp_path / "game.json"
    game.write_text(json.dumps(finished())[:-1] + ', "rules": {"preset": "popular"}}')  # "rules" a second time
    rc = main(["review", str(game), "--budget", "2", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert (rc, out) == (2, "")
    assert err == "rummy500 review: malformed record: top level: duplicate key 'rules' (each key may be given once)\n"
