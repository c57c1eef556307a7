"""``rummy500 simulate`` and ``rummy500 tournament``: output shape, determinism, records."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from rummy500.cli import main
from rummy500.record import replay


def _json(capsys, argv: list[str]) -> dict:  # noqa: ANN001 - pytest fixture
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_shape(capsys) -> None:  # noqa: ANN001
    out = _json(capsys, ["simulate", "--bots", "medium,random", "--games", "4", "--target", "150", "--seed", "2", "--json"])
    assert out["games"] == 4
    names = [r["bot"] for r in out["results"]]
    assert names == ["medium", "random"]
    for r in out["results"]:
        assert set(r) >= {"bot", "wins", "win_rate", "mean_score"}
        assert 0.0 <= r["win_rate"] <= 1.0
    assert sum(r["wins"] for r in out["results"]) == 4
    assert out["mean_round_turns"] > 0


def test_simulate_same_seed_same_results_whatever_the_jobs(capsys) -> None:  # noqa: ANN001
    argv = ["simulate", "--bots", "medium,easy,random", "--games", "4", "--target", "200", "--seed", "9", "--json"]
    one = _json(capsys, [*argv, "--jobs", "1"])
    two = _json(capsys, [*argv, "--jobs", "2"])
    assert one == two
    hard = ["simulate", "--bots", "hard,random", "--games", "2", "--rules", '{"rounds": 1}', "--seed", "9", "--json", "--hard-iterations", "4"]
    assert _json(capsys, [*hard, "--jobs", "1"]) == _json(capsys, [*hard, "--jobs", "2"])


def test_a_run_from_a_later_game_plays_those_games_as_a_whole_run_does() -> None:
    """``run_games(first=n)``: games n onward, dealt and seated as in the whole run (how a stopped run goes on)."""
    from dataclasses import replace

    from rummy500.rules import Rules
    from rummy500.sim.runner import run_games

    rules = Rules.from_mapping({"target": 150})
    whole = run_games(["medium", "random"], rules, 6, seed=4, duplicate=2)
    rest = run_games(["medium", "random"], rules, 6, seed=4, duplicate=2, first=4)
    longer = run_games(["medium", "random"], rules, 8, seed=4, duplicate=2, first=6)  # the seeds do not depend on the length
    assert [r.index for r in rest] == [4, 5] and [r.index for r in longer] == [6, 7]
    untimed = [replace(r, decision_times=[]) for r in (*whole[4:], *rest)]
    assert untimed[:2] == untimed[2:]
    assert (longer[0].seed, longer[0].entries) == (longer[1].seed, longer[1].entries[::-1])  # one deal, seats swapped


def test_simulate_saves_replayable_records(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    out = _json(capsys, ["simulate", "--bots", "easy,random", "--games", "2", "--rules", '{"players": 3, "target": 100}', "--save", str(tmp_path), "--json"])
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == out["games"] == 2
    for f in files:
        result = replay(json.loads(f.read_text()))
        assert result["ok"] and result["winner"] is not None


def test_simulate_table_output(capsys) -> None:  # noqa: ANN001
    import rich  # noqa: F401  (a dev dependency: missing, it fails)
    assert main(["simulate", "--bots", "medium,random", "--games", "2", "--target", "100"]) == 0
    text = capsys.readouterr().out
    assert "win rate" in text and "95% interval" in text and "pts/round" in text and "medium" in text


def test_simulate_refuses_bad_input(capsys) -> None:  # noqa: ANN001
    assert main(["simulate", "--bots", "medium,wizard"]) == 2
    assert "unknown bot level" in capsys.readouterr().err
    assert main(["simulate", "--rules", "{not json"]) == 2


def test_tournament_leaderboard(capsys) -> None:  # noqa: ANN001
    import openskill  # noqa: F401  (a dev dependency: missing, it fails)
    out = _json(capsys, ["tournament", "--bots", "random,easy,medium", "--games", "2", "--target", "150", "--json"])
    board = out["leaderboard"]
    assert {s["bot"] for s in board} == {"random", "easy", "medium"}
    assert all(s["games"] == 4 for s in board)
    assert board == sorted(board, key=lambda s: -s["ordinal"])
    assert len(out["pairs"]) == 3
    assert main(["tournament", "--bots", "random,easy", "--games", "1", "--target", "100"]) == 0
    assert "Leaderboard" in capsys.readouterr().out


def test_simulate_shows_progress_on_a_terminal(capsys, monkeypatch) -> None:  # noqa: ANN001
    import sys

    import rich  # noqa: F401  (a dev dependency: missing, it fails)

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(["simulate", "--bots", "easy,random", "--games", "2", "--target", "100"]) == 0
    captured = capsys.readouterr()
    assert "easy vs random" in captured.err  # the progress bar, on standard error
    assert "win rate" in captured.out


def test_a_game_stopped_at_the_round_cap_with_a_tie_is_shared_by_the_tied_only() -> None:
    """Seats 0 and 1 tie for the best total when the game is stopped; seat 2, behind, won nothing.

    Every entry present got half a win before, the one behind included.
    """
    from rummy500 import Rules
    from rummy500.sim.runner import play_game
    from rummy500.sim.stats import summarize

    game = play_game(["random"] * 3, Rules.from_mapping({"players": 3}), 9, max_rounds=1, entries=[0, 1, 2])
    assert not game.finished and game.totals == [84, 84, 52]
    assert game.winners == [] and game.tied == [0, 1]
    stats, _ = summarize(["easy", "medium", "random"], [game])
    assert [s.wins for s in stats] == [0.5, 0.5, 0.0]
    # One entry holding both tied seats has the whole win.
    stats, _ = summarize(["easy", "random"], [replace(game, entries=[0, 1, 0]), replace(game, entries=[0, 0, 1])])
    assert [s.wins for s in stats] == [1.5, 0.5]
