"""The benchmark and example scripts refuse what they cannot measure honestly, with one line.

Each check runs a script's ``main`` with tiny arguments and stops at the
refusal (exit 2, one ``prog: error:`` line, nothing measured): cells of two
``strength.py`` runs that were not dealt alike, an engine folder the child
process would not import from, an oracle run passing for a fair one, unknown
setups, counts below 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import rummy500.bots.hard as hard_module
import rummy500.sim.runner as runner
from rummy500.casino.rules import CasinoRules
from rummy500.casino.simulate import simulate
from rummy500.casino.strategy import chart_for

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "examples")]
try:
    import casino_simulate
    import compare_strength
    import engine_folder
    import env_speed
    import instructions
    import load
    import oracle
    import search
    import speed
    import strength
finally:
    del sys.path[:2]


def _refused(capsys: pytest.CaptureFixture[str], run: Callable[[list[str]], Any], argv: list[str]) -> str:
    """Run ``run(argv)``, expect exit status 2 and no output; return the last line on stderr."""
    with pytest.raises(SystemExit) as done:
        run(argv)
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err
    return captured.err.strip().splitlines()[-1]


# -- compare_strength.py: cells keyed on the preset too, and only cells dealt alike compared ------------------


def _cell(preset: str = "standard", level: str = "easy", table: str = "2p", **fields: Any) -> dict[str, Any]:
    outcomes = [1.0, 0.0]
    return {
        "preset": preset, "level": level, "opponent": "random", "table": table, "seed": 500, "target": 500,
        "duplicate": 1, "games": 2, "wins": 1.0, "win_rate": 0.5, "median_decision_s": 0.001,
        "outcomes": outcomes, "round_margins": [[10.0, -4.0], [-20.0]], **fields,
    }


def _file(tmp_path: Path, name: str, *cells: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"seed": 500, "cells": list(cells)}))
    return str(path)


def test_compare_strength_pairs_each_preset_with_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    both = [_cell("standard"), _cell("quick", seed=501, target=100)]
    a, b = _file(tmp_path, "a.json", *both), _file(tmp_path, "b.json", *reversed(both))
    assert compare_strength.main([a, b]) == 0
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if not line.startswith("  ")]
    assert heads == ["easy vs random at 2p, preset standard", "easy vs random at 2p, preset quick"]
    assert out.count("win rate +0.0%") == 2  # each cell against its own twin


@pytest.mark.parametrize(
    ("other", "why"),
    [
        ({"seed": 501}, "seed (500 and 501)"),
        ({"target": 100}, "target (500 and 100)"),
        ({"duplicate": 2}, "duplicate (1 and 2)"),
    ],
)
def test_compare_strength_refuses_cells_not_dealt_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], other: dict[str, Any], why: str
) -> None:
    a, b = _file(tmp_path, "a.json", _cell()), _file(tmp_path, "b.json", _cell(**other))
    assert compare_strength.main([a, b]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"compare_strength.py: error: easy vs random at 2p, preset standard: the cells differ in {why}: "
        "not the same games (a cell is dealt from --seed plus its place in the run)\n"
    )


def test_compare_strength_says_when_no_cell_is_in_common(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _file(tmp_path, "a.json", _cell()), _file(tmp_path, "b.json", _cell("quick"), _cell(table="3p"))
    assert compare_strength.main([a, b]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("compare_strength.py: error: no cells in common: ")


# -- the other engine's folder: DIR or DIR/src, and the child must import rummy500 from it --------------------


def test_an_engine_folder_is_a_checkout_or_its_src(tmp_path: Path) -> None:
    assert engine_folder.engine_src("--baseline", ROOT) == ROOT / "src"
    assert engine_folder.engine_src("--baseline", ROOT / "src") == ROOT / "src"
    with pytest.raises(ValueError, match=r"^--compiled .*: no rummy500 package there"):
        engine_folder.engine_src("--compiled", tmp_path)


def test_a_folder_the_child_does_not_import_rummy500_from_is_refused(tmp_path: Path) -> None:
    (tmp_path / "rummy500").mkdir()  # no __init__.py: the installed package comes first
    with pytest.raises(ValueError, match=r"^--baseline .*: a child process imports rummy500 from .*, not from "):
        engine_folder.engine_src("--baseline", tmp_path)
    (tmp_path / "rummy500" / "__init__.py").write_text("raise ImportError('half copied')\n")
    with pytest.raises(ValueError, match=r"its rummy500 does not import \(ImportError: half copied\)$"):
        engine_folder.engine_src("--baseline", tmp_path)


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[str]:
    yield str(tmp_path)


def test_speed_refuses_a_missing_engine_before_its_header(capsys: pytest.CaptureFixture[str], empty: str) -> None:
    for flag in ("--baseline", "--compiled"):
        line = _refused(capsys, speed.main, ["--seconds", "0.1", "--no-peers", flag, empty])
        assert line == f"speed.py: error: {flag} {empty}: no rummy500 package there (give a checkout, its src/ folder or a compiled build)"


def test_search_refuses_a_missing_engine_and_no_rounds(capsys: pytest.CaptureFixture[str], empty: str) -> None:
    line = _refused(capsys, search.main, ["--rounds", "1", "--compiled", empty])
    assert line.startswith(f"search.py: error: --compiled {empty}: no rummy500 package there")
    assert _refused(capsys, search.main, ["--rounds", "0"]) == "search.py: error: --rounds must be at least 1, not 0"


def test_env_speed_names_the_flag_it_refuses(capsys: pytest.CaptureFixture[str], empty: str) -> None:
    line = _refused(capsys, env_speed.main, ["--seconds", "0.05", "--reps", "1", "--compiled", empty])
    assert line.startswith(f"env_speed.py: error: --compiled {empty}: no rummy500 package there")
    assert _refused(capsys, env_speed.main, ["--seconds", "0"]) == "env_speed.py: error: --seconds must be more than 0, not 0"
    assert _refused(capsys, env_speed.main, ["--reps", "0"]) == "env_speed.py: error: --reps must be at least 1, not 0"


def test_instructions_refuses_a_missing_engine_before_callgrind(capsys: pytest.CaptureFixture[str], empty: str) -> None:
    line = _refused(capsys, instructions.main, ["--baseline", empty])
    assert line.startswith(f"instructions.py: error: --baseline {empty}: no rummy500 package there")
    assert _refused(capsys, instructions.main, ["--ours", empty]).startswith(f"instructions.py: error: --ours {empty}:")


def test_load_refuses_unknown_setups_and_engines(capsys: pytest.CaptureFixture[str], empty: str) -> None:
    line = _refused(capsys, load.main, ["--setups", "one,nope"])
    assert line == "load.py: error: --setups: unknown setup(s) 'nope' (setups: one, hard, pg, two, failover)"
    line = _refused(capsys, load.main, ["--setups", "one", "--baseline", empty])
    assert line.startswith(f"load.py: error: --baseline {empty}: no rummy500 package there")


# -- oracle.py: its files never pass for a fair run's -----------------------------------------------------------

TINY = ["--pairs", "easy:random", "--tables", "2p", "--games", "1", "--target", "100", "--seed", "3"]
SETTINGS = {"duplicate": False, "seed": 3, "target": 100, "presets": None, "options": {}}


@pytest.fixture
def restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever ``oracle.install`` replaces is put back after the test."""
    monkeypatch.setattr(runner, "drive", runner.drive)
    monkeypatch.setattr(hard_module, "determinize", hard_module.determinize)


def test_a_fair_run_does_not_resume_an_oracle_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.json"
    out.write_text(json.dumps({"games_per_cell": 1, **SETTINGS, "oracle": oracle.marker("easy"), "cells": []}))
    assert strength.main([*TINY, "--out", str(out), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err == f"strength: {out} is an oracle run ({oracle.marker('easy')}), this run is a fair run: cannot resume it\n"


@pytest.mark.usefixtures("restored")
def test_an_oracle_run_does_not_resume_a_fair_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fair.json"
    out.write_text(json.dumps({"games_per_cell": 1, **SETTINGS, "cells": []}))
    assert oracle.main(["--oracle", "easy", *TINY, "--out", str(out), "--resume"]) == 2
    assert "is a fair run, this run is an oracle run (easy saw" in capsys.readouterr().err
    assert "oracle" not in json.loads(out.read_text())  # the file left as it was


def test_every_save_of_an_oracle_run_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run stopped after its first partial save already carries the marker."""
    out = tmp_path / "o.json"

    def stopped(*args: Any, on_partial: Callable[[dict[str, Any]], None], **kwargs: Any) -> dict[str, Any]:
        on_partial({"preset": "standard", "level": "easy", "opponent": "random", "table": "2p", "complete": False})
        raise KeyboardInterrupt

    monkeypatch.setattr(strength, "measure", stopped)
    with pytest.raises(KeyboardInterrupt):
        strength.main([*TINY, "--out", str(out)], oracle="seen")
    assert json.loads(out.read_text())["oracle"] == "seen"
    with pytest.raises(KeyboardInterrupt):
        strength.main([*TINY, "--out", str(out)])
    assert "oracle" not in json.loads(out.read_text())  # a fair run's file has no entry


def test_oracle_help_describes_oracle_then_strength(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        oracle.main(["-h"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: oracle.py [-h] [--oracle LEVEL] STRENGTH.PY ARGUMENTS")
    assert "--oracle LEVEL" in out and out.index("--oracle LEVEL") < out.index("usage: strength.py")


# -- counts below 1 ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--hands", "-5"], "--hands must be at least 1, not -5"),
        (["--hands", "0"], "--hands must be at least 1, not 0"),
        (["--jobs", "0"], "--jobs must be at least 1, not 0"),
    ],
)
def test_casino_simulate_refuses_counts_below_1(capsys: pytest.CaptureFixture[str], argv: list[str], line: str) -> None:
    assert _refused(capsys, casino_simulate.main, argv) == f"casino_simulate.py: error: {line}"


def test_simulate_refuses_a_negative_number_of_rounds() -> None:
    chart = chart_for(compute=False)
    assert chart is not None
    with pytest.raises(ValueError, match="the number of rounds must be 0 or more, not -5"):
        simulate(CasinoRules(), chart, -5)
    with pytest.raises(ValueError, match="a chunk must hold at least 1 round, not 0"):
        simulate(CasinoRules(), chart, 10, chunk=0)
    assert simulate(CasinoRules(), chart, 0).rounds == 0


def _example(name: str) -> Any:
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--games", "0"], "--games must be at least 1, not 0"),
        (["--games", "-1"], "--games must be at least 1, not -1"),
        (["--preset", "nope"], "--preset nope: unknown preset 'nope' (presets: "),
    ],
)
def test_the_ismcts_example_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], line: str) -> None:
    import pyspiel  # noqa: F401  (a dev dependency: missing, it fails)
    main = _example("openspiel_ismcts_vs_medium").main
    assert _refused(capsys, main, argv).startswith(f"openspiel_ismcts_vs_medium.py: error: {line}")


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--eval-games", "0"], "--eval-games must be at least 1, not 0"),
        (["--episodes", "-1"], "--episodes must be 0 or more, not -1"),
        (["--opponent", "nope"], "--opponent nope: unknown opponent level 'nope' (levels: "),
    ],
)
def test_the_reinforce_example_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], line: str) -> None:
    import numpy  # noqa: F401  (a dev dependency: missing, it fails)
    main = _example("train_reinforce").main
    assert _refused(capsys, main, argv).startswith(f"train_reinforce.py: error: {line}")
