"""``benchmarks/strength.py --presets`` plays each cell under each preset's own rules and table."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
try:
    import strength
finally:
    sys.path.pop(0)


def test_each_preset_is_played_under_its_own_target_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "presets.json"
    argv = ["--presets", "quick,persian", "--pairs", "random:medium", "--games", "2", "--seed", "3", "--out", str(out)]
    assert strength.main(argv) == 0
    cells = json.loads(out.read_text())["cells"]
    assert [(c["preset"], c["table"], c["target"], c["games"]) for c in cells] == [("quick", "2p", 100, 2), ("persian", "4p-partners", 500, 2)]
    printed = capsys.readouterr().out
    assert "| preset | level |" in printed and "| quick | random | medium | 2p | 2 |" in printed
    # medium never loses a game to random play in either variant
    assert all(c["wins"] == 0 for c in cells)


def test_an_unknown_preset_is_refused_with_the_names_that_exist(capsys: pytest.CaptureFixture[str]) -> None:
    assert strength.main(["--presets", "quick,house", "--games", "1"]) == 2
    assert "unknown preset in 'quick,house' (presets: standard, popular" in capsys.readouterr().err


def test_a_preset_that_fixes_the_table_is_played_at_its_own_table() -> None:
    assert strength.preset_tables("standard", ["2p", "3p"]) == ["2p", "3p"]
    assert strength.preset_tables("partnership", ["2p"]) == ["4p-partners"]


@pytest.mark.parametrize("table, players", [("5p", 5), ("6p", 6), ("7p", 7), ("8p", 8)])
def test_five_to_eight_players_are_tables_of_their_own(
    table: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--tables 5p`` to ``8p``: one seat of the level against the opponent in every other seat, each deal played from every seat."""
    out = tmp_path / f"{table}.json"
    argv = ["--pairs", "random:medium", "--tables", table, "--games", "1", "--duplicate", "--target", "100", "--out", str(out)]
    assert strength.main(argv) == 0
    (cell,) = json.loads(out.read_text())["cells"]
    assert (cell["table"], cell["games"], cell["fair"]) == (table, players, pytest.approx(1 / players))
    assert f"| random | medium | {table} | {players} |" in capsys.readouterr().out


def test_a_run_stopped_early_leaves_the_games_it_finished(tmp_path: Path) -> None:
    """``--out`` is written after every game: a stopped run's file holds its finished games, marked incomplete."""
    seen: list[dict[str, Any]] = []
    cell = strength.measure(
        "random", "medium", "2p", 2, seed=5, jobs=1, options={}, target=100, duplicate=True, on_partial=seen.append
    )
    assert [(c["games"], c["complete"], len(c["outcomes"])) for c in seen] == [(1, False, 1)]
    assert (cell["games"], cell["complete"], len(cell["outcomes"])) == (2, True, 2)
    assert seen[0]["outcomes"] == cell["outcomes"][:1] and seen[0]["round_margins"] == cell["round_margins"][:1]

    out = tmp_path / "run.json"
    assert strength.main(["--pairs", "random:medium", "--tables", "2p", "--games", "2", "--target", "100", "--seed", "5", "--out", str(out)]) == 0
    (final,) = json.loads(out.read_text())["cells"]
    assert final["complete"] is True and len(final["outcomes"]) == 2


def _run(*extra: str) -> list[str]:
    return ["--pairs", "medium:random", "--tables", "2p", "--duplicate", "--target", "100", "--seed", "5", *extra]


def _same_games(cell: dict[str, Any]) -> dict[str, Any]:
    """A cell less what the clock decides (times, and the decision times of each game kept)."""
    games = [{k: v for k, v in g.items() if k != "decision_times"} for g in cell["game_results"]]
    return {k: v for k, v in cell.items() if k not in ("seconds", "median_decision_s", "game_results")} | {"games_kept": games}


def test_a_resumed_run_plays_only_the_games_after_those_it_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--resume`` keeps the file's games and plays the rest: the same games as one run of them all."""
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    assert strength.main(_run("--games", "4", "--out", str(whole))) == 0
    assert strength.main(_run("--games", "2", "--out", str(part))) == 0
    capsys.readouterr()
    assert strength.main(_run("--games", "4", "--out", str(part), "--resume")) == 0
    progress = capsys.readouterr().err
    assert "3/4 games" in progress and "4/4 games" in progress
    assert "1/4 games" not in progress and "2/4 games" not in progress  # the kept games are not played again
    (resumed,) = json.loads(part.read_text())["cells"]
    (once,) = json.loads(whole.read_text())["cells"]
    assert resumed["games"] == 4 and resumed["complete"] is True
    assert _same_games(resumed) == _same_games(once)
    assert resumed["decisions"] == once["decisions"]  # every decision time of the level kept, the first two games' too
    # Fewer games than the file holds would drop some: refused.
    assert strength.main(_run("--games", "2", "--out", str(part), "--resume")) == 2
    assert "holds 4 games of medium against random at 2p, more than --games 2" in capsys.readouterr().err


def test_a_run_that_cannot_be_resumed_is_refused_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.json"
    assert strength.main(_run("--games", "2", "--resume")) == 2
    assert "--resume needs --out" in capsys.readouterr().err
    assert strength.main(_run("--games", "2", "--out", str(out), "--resume")) == 0  # no file yet: a run from the start
    played = out.read_text()
    assert strength.main(["--pairs", "medium:random", "--tables", "2p", "--duplicate", "--target", "100", "--seed", "6", "--games", "4", "--out", str(out), "--resume"]) == 2
    assert "was played with seed 5, this run asks for 6" in capsys.readouterr().err
    assert strength.main(_run("--games", "4", "--out", str(out), "--resume", "--expert-options", '{"iterations": 8}')) == 2
    assert "was played with options {}" in capsys.readouterr().err
    assert out.read_text() == played  # a refusal leaves the file as it was
    old = json.loads(played)
    for cell in old["cells"]:
        del cell["game_results"]  # as strength.py wrote it before --resume
    out.write_text(json.dumps(old))
    assert strength.main(_run("--games", "4", "--out", str(out), "--resume")) == 2
    assert "holds no per-game results" in capsys.readouterr().err
    out.write_text("{not json")
    assert strength.main(_run("--games", "4", "--out", str(out), "--resume")) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_run_whose_cells_come_in_another_order_is_refused_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each cell is played from the run's seed plus its place: pairs in another order are other games."""
    out = tmp_path / "two.json"
    common = ["--tables", "2p", "--duplicate", "--target", "100", "--seed", "5", "--games", "2", "--out", str(out)]
    assert strength.main(["--pairs", "medium:random,easy:random", *common]) == 0
    played = out.read_text()
    assert [c["seed"] for c in json.loads(played)["cells"]] == [5, 6]
    capsys.readouterr()
    # The first cell matches; a new one comes between, so the last is played from another seed.
    assert strength.main(["--pairs", "medium:random,medium:easy,easy:random", *common, "--resume"]) == 2
    err = capsys.readouterr().err
    assert "played easy against random at 2p from seed 6, this run from 7" in err
    assert "/2 games" not in err  # refused before the new cell's games were played
    assert out.read_text() == played
