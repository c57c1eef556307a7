"""``rummy500 simulate`` and ``tournament``: seating, the players default, ``--save``, labels and ``--pcr``.

Small seeded runs (random and easy bots, short targets) check what a user
sees: the exit status, the one-line error, the JSON and the table's words.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

import rummy500.cli.simulate as simulate_cli
from rummy500.cli import main
from rummy500.rules import Rules
from rummy500.sim.runner import run_games


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``argv``, expect exit 2 with nothing on stdout, and return the one error line."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    return lines[0]


# ------------------------------------------------------------ partnership seating
@pytest.mark.parametrize("bots", ["random", "random,easy,medium"])
def test_a_partnership_table_refuses_a_bot_on_both_sides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bots: str
) -> None:
    save = tmp_path / "games"
    line = _refused(
        capsys, ["simulate", "--preset", "partnership", "--bots", bots, "--games", "2", "--save", str(save)]
    )
    n = len(bots.split(","))
    assert (
        line == f"rummy500 simulate: partnership tables need 2 bots (one per side) or one per seat (4 or more): got {n}"
    )
    assert not save.exists()  # refused before anything was played or written


def test_the_runner_refuses_the_same_seating() -> None:
    rules = Rules.from_mapping({"preset": "partnership"})
    with pytest.raises(ValueError, match="partnership tables need 2 bots"):
        run_games(["random", "easy", "medium"], rules, 1)


def _partnership_games(bots: str) -> list[str]:
    """``simulate`` of two partnership games to 100 between ``bots``."""
    return ["simulate", "--preset", "partnership", "--target", "100", "--bots", bots, "--games", "2", "--seed", "1"]


def test_two_bots_sit_one_per_side_alternating(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = _json(capsys, [*_partnership_games("random,easy"), "--save", str(tmp_path)])
    sides = []
    for f in sorted(tmp_path.glob("*.json")):
        players = json.loads(f.read_text())["players"]
        assert players[0] == players[2] != players[1] == players[3]
        sides.append(players[0])
    assert sides == ["random", "easy"]  # the sides swap from game to game
    assert sum(r["wins"] for r in out["results"]) == out["games"] == 2  # one winning bot a game, never both


def test_four_bots_sit_one_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, _partnership_games("random,easy,random,easy"))
    assert [r["games"] for r in out["results"]] == [2, 2, 2, 2]
    assert sum(r["wins"] for r in out["results"]) == 4  # two partners win each game


def test_help_says_how_repeated_bots_are_counted(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["simulate", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "counts once a game, with two chances to win" in text
    assert "Partnership tables need 2 bots (one per side) or one per seat" in text


# ------------------------------------------------------- the players default first
@pytest.mark.parametrize(
    ("argv", "players"),
    [
        (
            [
                "simulate",
                "--rules",
                '{"partnership": true, "target": 100}',
                "--bots",
                "random,easy,random,easy",
                "--games",
                "1",
            ],
            4,
        ),
        (
            [
                "simulate",
                "--rules",
                '{"set_suits": "any", "target": 100}',
                "--bots",
                "random,easy,random,easy,random",
                "--games",
                "1",
            ],
            5,
        ),
        (
            [
                "tournament",
                "--format",
                "single",
                "--rules",
                '{"set_suits": "any", "target": 100}',
                "--bots",
                "random*5",
            ],
            5,
        ),
    ],
)
def test_rules_are_checked_for_the_players_the_bots_fill(
    capsys: pytest.CaptureFixture[str], argv: list[str], players: int
) -> None:
    out = _json(capsys, argv)
    assert out["rules"]["players"] == players


def test_partnership_rules_with_a_player_count_that_does_not_fit_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = _refused(capsys, ["simulate", "--rules", '{"partnership": true}', "--players", "3", "--bots", "random,easy"])
    assert "partnership needs players: 4 (got players: 3)" in line


# ------------------------------------------------------------------------ --save
def test_save_to_a_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("keep me\n")
    line = _refused(capsys, ["simulate", "--bots", "random,easy", "--games", "1", "--save", str(afile)])
    assert line == f"rummy500 simulate: --save {afile}: not a folder (it is a file)"
    assert afile.read_text() == "keep me\n"


def test_save_under_a_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    inside = tmp_path / "afile" / "games"
    line = _refused(capsys, ["simulate", "--bots", "random,easy", "--games", "1", "--save", str(inside)])
    assert line.startswith(f"rummy500 simulate: --save {inside}: cannot create the folder")


# ------------------------------------------------------------------------ labels
def _table(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    import rich  # noqa: F401  (a dev dependency: missing, it fails)
    assert main(argv) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("options", "title"),
    [
        (["--preset", "persian"], "rummy500 simulate - persian, 4 players in partnerships, 2 rounds"),
        (["--rules", '{"rounds": 1}'], "rummy500 simulate - standard, 2 players, 1 round"),
        (["--target", "100"], "rummy500 simulate - standard, 2 players, target 100"),
    ],
)
def test_the_title_says_how_the_game_ends(capsys: pytest.CaptureFixture[str], options: list[str], title: str) -> None:
    text = _table(capsys, ["simulate", "--bots", "random,easy", "--games", "1", *options])
    assert title in text
    assert ("target" in text) == ("--target" in options)


def test_the_table_shows_unfinished_games(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["simulate", "--bots", "random,random", "--games", "2"]
    assert "unfinished" not in _table(capsys, [*argv, "--target", "50"])
    monkeypatch.setattr(simulate_cli, "run_games", functools.partial(run_games, max_rounds=1))
    text = _table(capsys, argv)  # random play does not reach 500 in two rounds
    assert "2 unfinished (stopped after 200 rounds, the best total won)" in text


# ------------------------------------------------------------------- tournament
@pytest.mark.parametrize("fmt", ["single", "multi", "ring"])
def test_tournament_refuses_pcr_0_before_playing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    import rummy500.formats as formats

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    for name in ("run_single_table", "run_multi_table", "play_ring"):
        monkeypatch.setattr(formats, name, never)
    line = _refused(capsys, ["tournament", "--format", fmt, "--bots", "random,easy", "--pcr", "0"])
    if fmt == "multi":  # a multi-table tourney settles no chips: --pcr is refused whatever its value
        assert line == "rummy500 tournament: --pcr is for --format ring and --format single, not --format multi"
        return
    assert (
        line
        == "rummy500 tournament: --pcr: the point-chip ratio must be a positive whole number of chips per point, not 0"
    )


@pytest.mark.parametrize(
    ("argv", "players"),
    [
        (["--format", "single", "--bots", "random,easy,random"], 3),
        (["--format", "ring", "--bots", "random,easy,random", "--rounds", "1"], 3),
        (["--format", "multi", "--bots", "random*5", "--max-table", "3"], None),
    ],
)
def test_tournament_json_rules_are_the_rules_the_tables_played(
    capsys: pytest.CaptureFixture[str], argv: list[str], players: int | None
) -> None:
    out = _json(capsys, ["tournament", *argv, "--target", "60", "--seed", "3"])
    assert out["rules"].get("players") == players
    assert out["rules"]["target"] == 60
    if out["format"] == "single":
        assert len(out["table"]["players"]) == players
    if out["format"] == "multi":  # tables of different sizes: each table's players are in the tourney
        sizes = {len(t["players"]) for lv in out["tourney"]["levels"] for t in lv["tables"]}
        assert len(sizes) > 1
