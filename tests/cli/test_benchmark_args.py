"""The benchmark scripts refuse bad arguments with one argparse error line (exit 2), before any output."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
try:
    import compare_strength
    import speed
    import strength
finally:
    sys.path.pop(0)


def _error(capsys: pytest.CaptureFixture[str], run: object, argv: list[str]) -> str:
    """Run a script's ``main(argv)``, expect exit 2 and no output; return its error line."""
    with pytest.raises(SystemExit) as done:
        run(argv)  # type: ignore[operator]
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no header before the error
    assert "Traceback" not in captured.err
    return captured.err.splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--pairs", "easy"], "strength.py: error: --pairs: 'easy' is not LEVEL:OPPONENT (e.g. hard:medium)"),
        (
            ["--pairs", "foo:random"],
            "strength.py: error: --pairs: unknown bot level(s) foo in 'foo:random' (levels: random, easy, medium, hard, expert)",
        ),
        (
            ["--pairs", "easy:random", "--hard-options", "{bad"],
            "strength.py: error: --hard-options: not JSON: Expecting property name",
        ),
        (
            ["--pairs", "easy:random", "--hard-options", "[24]"],
            "strength.py: error: --hard-options: must be a JSON object of options",
        ),
        (
            ["--pairs", "easy:random", "--hard-options", '{"iterationz": 24}'],
            "strength.py: error: --hard-options: the hard bot refuses these options",
        ),
        (["--pairs", "easy:random", "--target", "0"], "strength.py: error: --target must be at least 1, not 0"),
        (["--pairs", "easy:random", "--games", "0"], "strength.py: error: --games must be at least 1, not 0"),
    ],
)
def test_strength_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    line = _error(capsys, strength.main, [*argv, "--tables", "2p"])
    assert line.startswith(message)


def test_strength_reads_good_pairs() -> None:
    assert strength.parse_pairs("hard:medium, easy:random") == [("hard", "medium"), ("easy", "random")]


def test_speed_refuses_too_few_reps_before_its_header(capsys: pytest.CaptureFixture[str]) -> None:
    line = _error(capsys, speed.main, ["--seconds", "0.1", "--reps", "1", "--no-peers"])
    assert line == "speed.py: error: --reps must be at least 5 (the median of fewer is too noisy), not 1"


def test_compare_strength_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        compare_strength.main(["--help"])
    assert done.value.code == 0
    assert "usage: compare_strength.py [-h] base candidate" in capsys.readouterr().out


def test_compare_strength_names_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    base = BENCHMARKS / "results" / "hard-medium-2p-9101.json"
    line = _error(capsys, compare_strength.main, [str(base), str(missing)])
    assert line == f"compare_strength.py: error: cannot read {missing}: No such file or directory"
    (tmp_path / "bad.json").write_text("{}")
    line = _error(capsys, compare_strength.main, [str(base), str(tmp_path / "bad.json")])
    assert line.endswith("bad.json is not a strength.py --out file (no seed and cells)")


def test_compare_strength_compares_a_run_with_itself(capsys: pytest.CaptureFixture[str]) -> None:
    base = str(BENCHMARKS / "results" / "hard-medium-2p-9101.json")
    assert compare_strength.main([base, base]) == 0
    assert "win rate +0.0%" in capsys.readouterr().out
