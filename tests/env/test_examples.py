"""The worked examples run (tiny settings)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_reinforce_runs_and_reports_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    load("train_reinforce").main(["--episodes", "2", "--eval-games", "2"])
    out = capsys.readouterr().out
    assert "trained 2 episodes" in out
    assert "vs random: trained policy wins" in out and "vs easy  : trained policy wins" in out


def test_openspiel_ismcts_plays_medium_to_the_end_of_a_round(capsys: pytest.CaptureFixture[str]) -> None:
    # The clone of every simulation goes through Match.copy: the search must play the round out.
    load("openspiel_ismcts_vs_medium").main(["--games", "1", "--simulations", "3"])
    out = capsys.readouterr().out
    assert "game 1: ISMCTS in seat 0, round reward" in out
    assert "ISMCTS (3 simulations) vs medium: " in out and "/1 won, mean reward" in out
