"""``benchmarks/search.py``: hard's search speed, against the compiled build or another version."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from rummy500.state import RoundState

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
try:
    import search
finally:
    sys.path.pop(0)


def test_searches_count_the_actions_they_apply_and_put_the_engine_back() -> None:
    apply = RoundState.apply
    short = search.measure(1, 4, 3)
    assert RoundState.apply is apply  # the counting wrapper is gone again
    long = search.measure(1, 4, 3, to_end=True)
    assert (short["playouts"], long["playouts"]) == ("4 turns", "to the end")
    for got in (short, long):
        assert got["searched"] > 0 and got["search_playouts"] >= 4 * got["searched"] - 4
        # Each playout applies its candidate and then the moves of the turns that follow.
        assert got["search_actions"] > got["search_playouts"]
        assert got["actions_per_s"] > 0 and got["playouts_per_s"] > 0
    per_short = short["search_actions"] / short["search_playouts"]
    per_long = long["search_actions"] / long["search_playouts"]
    assert per_short < per_long  # played to the end of the round, a playout is longer


def test_older_versions_public_parts_are_read_too() -> None:
    public = SimpleNamespace(phase="draw", to_move=1)
    assert search._public(SimpleNamespace(public=lambda: public)) is public
    assert search._public(SimpleNamespace(public=public)) is public
    assert search._public(public) is public  # the oldest: phase and turn on the state


def test_a_baseline_folder_is_measured_beside_this_version(capsys: pytest.CaptureFixture[str]) -> None:
    # This version's own src as the baseline: the same bots, so the same games in both columns.
    assert search.main(["--rounds", "1", "--iterations", "4", "--seed", "3", "--baseline", str(ROOT / "src")]) == 0
    out = capsys.readouterr().out
    assert "baseline" in out and "this version" in out and "actions/s in searches" in out
    games = out.split("games played: ")[1].split()
    assert games[0] == games[2]


def test_compiled_and_baseline_are_one_or_the_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        search.main(["--compiled", "build/compiled", "--baseline", "src"])
    assert "not allowed with argument" in capsys.readouterr().err
