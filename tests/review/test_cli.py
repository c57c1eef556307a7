"""``rummy500 review``: JSON for tools, a table for people, one line for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy500.cli import main

from .positions import layoff_position

POSITION = layoff_position([{"p": 0, "discard": "KS"}])


def test_review_json_names_the_missed_layoff(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    game = tmp_path / "game.json"
    game.write_text(json.dumps(POSITION))
    assert main(["review", str(game), "--unfinished", "--json", "--budget", "4", "--seat", "0", "--hindsight"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in out["players"]] == ["Ann"]
    (d,) = [d for d in out["decisions"] if d["step"] == 5]
    assert (d["played"], d["best"]) == ("discard KS", "layoff KS on 0")
    assert d["verdict"] in ("mistake", "blunder") and d["sure"] is True
    assert set(d["hindsight"]) == {"played", "best"}
    assert out["budget"]["samples"] == 4


def test_review_table_lists_the_lost_points(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    game = tmp_path / "game.json"
    game.write_text(json.dumps(POSITION))
    assert main(["review", str(game), "--unfinished", "--budget", "4"]) == 0
    out = capsys.readouterr().out
    assert "discard KS" in out and "layoff KS on 0" in out
    assert "Summary" in out and "Ann" in out and "Bob" in out


def test_review_refuses_bad_input_in_one_line(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["review", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("rummy500 review: malformed record")
    assert main(["review", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad.write_text(json.dumps({**POSITION, "actions": [{"p": 0, "discard": "QS"}]}))
    assert main(["review", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "round 1 action 1" in err
    assert main(["review", str(bad), "--budget", "1"]) == 2
    assert "--budget" in capsys.readouterr().err


def test_review_can_judge_to_the_end_of_the_round(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    game = tmp_path / "game.json"
    game.write_text(json.dumps(POSITION))
    assert main(["review", str(game), "--unfinished", "--json", "--budget", "2", "--seat", "0", "--horizon", "end"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["budget"]["horizon"] is None
    (d,) = [d for d in out["decisions"] if d["step"] == 5]
    assert d["best"] == "layoff KS on 0"
    assert main(["review", str(game), "--horizon", "0"]) == 2
    assert "--horizon" in capsys.readouterr().err
    assert main(["review", str(game), "--horizon", "far"]) == 2
    assert "a number of turns (at least 1), auto or end" in capsys.readouterr().err


def test_review_plays_out_as_the_hard_bot_does_by_default(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    game = tmp_path / "game.json"
    game.write_text(json.dumps(POSITION))
    assert main(["review", str(game), "--unfinished", "--json", "--budget", "2", "--seat", "0"]) == 0
    auto = json.loads(capsys.readouterr().out)
    assert auto["budget"]["horizon"] == "auto"
    assert main(["review", str(game), "--unfinished", "--json", "--budget", "2", "--seat", "0", "--horizon", "4"]) == 0
    four = json.loads(capsys.readouterr().out)
    assert four["budget"]["horizon"] == 4
    # two players: "auto" is four turns, the same judge
    assert auto["decisions"] == four["decisions"]


def test_review_can_value_playouts_by_the_hand_written_estimate(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    game = tmp_path / "game.json"
    game.write_text(json.dumps(POSITION))
    assert main(["review", str(game), "--unfinished", "--json", "--budget", "2", "--seat", "0", "--leaf", "heuristic"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["budget"]["leaf"] == "heuristic"
    (d,) = [d for d in out["decisions"] if d["step"] == 5]
    assert d["best"] == "layoff KS on 0"
    with pytest.raises(SystemExit):
        main(["review", str(game), "--leaf", "deep"])
    assert "--leaf" in capsys.readouterr().err
