"""``benchmarks/agreement.py``: where two bots shown the same positions choose differently."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
try:
    import agreement
finally:
    sys.path.pop(0)

FAST = {"iterations": 4}


def test_a_bot_asked_beside_its_own_twin_never_differs() -> None:
    got = agreement.measure(2, 1, "hard", "hard", "medium", FAST, FAST)
    assert got["searched"] > 0 and got["decisions"] > got["searched"]
    assert got["differ"] == 0 and got["kinds"] == {}
    # With its own random numbers (other guesses of the hidden cards) the twin's few playouts disagree somewhere.
    noisy = agreement.measure(2, 1, "hard", "hard", "medium", FAST, FAST, independent=True)
    assert noisy["decisions"] == got["decisions"]  # the same games: only the player's moves are played
    assert 0 < noisy["differ"] <= noisy["searched"]


def test_the_search_overrules_the_heuristics_somewhere(capsys: pytest.CaptureFixture[str]) -> None:
    # hard keeps medium's choice unless its playouts say otherwise: a few differences, all in searched decisions.
    got = agreement.measure(3, 1, "hard", "medium", "medium", FAST)
    assert 0 < got["differ"] <= got["searched"]
    assert sum(got["kinds"].values()) == got["differ"]
    assert all(k.split(":")[0] in ("draw", "play") for k in got["kinds"])
    assert agreement.main(["--rounds", "3", "--seed", "1", "--player", "hard", "--shadow", "medium", "--opponent", "medium", "--player-options", '{"iterations": 4}']) == 0
    out = capsys.readouterr().out
    assert f"answered otherwise {got['differ']} " in out


def test_options_that_are_not_json_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert agreement.main(["--player-options", "{iterations: 4}"]) == 2
    assert "options are not JSON" in capsys.readouterr().err
