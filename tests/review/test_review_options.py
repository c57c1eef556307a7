"""``rummy500 review``'s option errors: one line each, with the range or the usage, exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummy500.cli import main

from .test_review_cli_audit import finished


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished()))
    return path


def test_a_budget_past_the_cap_is_refused_in_one_line_naming_the_range(game: Path) -> None:
    # Run as a user runs it: before the cap this grew memory until a MemoryError traceback.
    done = subprocess.run(
        [sys.executable, "-m", "rummy500", "review", str(game), "--budget", "100000000", "--horizon", "1", "--jobs", "1", "--json"],
        capture_output=True, text=True, timeout=30,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("rummy500 review: --budget") and "2 to 64" in done.stderr


def test_the_largest_budget_is_accepted(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(game), "--budget", "65", "--jobs", "1", "--json"]) == 2
    assert "2 to 64" in capsys.readouterr().err
    assert main(["review", str(game), "--budget", "64", "--horizon", "1", "--jobs", "1", "--json", "--seat", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["budget"]["samples"] == 64


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--budget", "many"], "--budget: invalid int value: 'many'"),
        (["--leaf", "oak"], "--leaf: invalid choice: 'oak'"),
        (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
        ([], "the following arguments are required: file"),
    ],
)
def test_an_option_error_is_one_line_with_the_usage(argv: list[str], words: str, game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["review", *([str(game)] if argv else []), *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("rummy500 review: ") and words in err
    assert "(usage: rummy500 review FILE|- [options]" in err
