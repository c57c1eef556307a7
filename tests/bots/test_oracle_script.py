"""``benchmarks/oracle.py``: a level's searches shown the real hands, a measuring stick for its guesses."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import rummy500.bots.hard as hard_module
import rummy500.sim.runner as runner
from rummy500.match import Match
from rummy500.rules import Rules
from rummy500.sim.runner import play_game
from rummy500.state import RoundState

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
try:
    import oracle
finally:
    sys.path.pop(0)

FAST = '{"iterations": 4}'


@pytest.fixture
def restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever ``oracle.install`` replaces is put back after the test."""
    monkeypatch.setattr(runner, "drive", runner.drive)
    monkeypatch.setattr(hard_module, "determinize", hard_module.determinize)


def _middle_of_a_round() -> RoundState:
    state = RoundState.new(Rules(), 0, random.Random(4))
    for _ in range(6):
        seat = state.public.to_move
        state.apply(state.legal_actions(seat)[0], seat)
    return state


def test_the_guess_is_the_real_position_with_the_stock_shuffled_only_while_the_oracle_decides() -> None:
    truth = _middle_of_a_round()
    view = truth.view(0)
    oracle._truth[0] = truth
    try:
        world = oracle.oracle_guess(view, random.Random(1))
    finally:
        oracle._truth[0] = None
    assert world is not truth and world.hands == truth.hands  # the opponent's real hand
    assert sorted(world.stock) == sorted(truth.stock) and world.stock != truth.stock  # a fresh order
    fair = oracle.oracle_guess(view, random.Random(1))  # nobody deciding: the fair guess
    assert sorted(fair.hands[0]) == sorted(truth.hands[0]) and sorted(fair.hands[1]) != sorted(truth.hands[1])
    assert sorted(fair.hands[1] + fair.stock) == sorted(truth.hands[1] + truth.stock)


def test_the_agent_shows_the_match_only_during_its_own_decision() -> None:
    match = Match(Rules(), ["a", "b"], seed=3)
    match.decision()
    seen: list[Any] = []

    class Stub:
        def act(self, view: Any, rng: random.Random) -> None:
            seen.append(oracle._truth[0])

    oracle.OracleAgent(Stub(), match).act(None, random.Random(0))
    assert seen == [match.state] and seen[0] is not None
    assert oracle._truth[0] is None


@pytest.mark.usefixtures("restored")
def test_only_the_chosen_levels_searches_see_the_hands() -> None:
    guesses = {"real": 0, "fair": 0}
    guess = oracle.oracle_guess

    def counted(*args: Any) -> RoundState:
        guesses["fair" if oracle._truth[0] is None else "real"] += 1
        return guess(*args)

    oracle.install("expert")
    hard_module.determinize = counted
    opts = {"expert": {"iterations": 4}, "hard": {"iterations": 4}}
    play_game(["expert", "hard"], Rules.preset_rules("standard", players=2), 5, bot_options=opts, max_rounds=1)
    assert guesses["real"] > 0 and guesses["fair"] > 0


@pytest.mark.usefixtures("restored")
def test_the_file_says_it_was_no_fair_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.json"
    argv = ["--oracle", "expert", "--pairs", "expert:hard", "--tables", "2p", "--games", "2", "--target", "100", "--seed", "2"]
    assert oracle.main([*argv, "--expert-options", FAST, "--hard-options", FAST, f"--out={out}"]) == 0
    data = json.loads(out.read_text())
    assert "not a fair run" in data["oracle"] and data["cells"][0]["games"] == 2
    assert "expert | hard | 2p | 2 |" in capsys.readouterr().out


def test_an_unknown_level_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert oracle.main(["--oracle", "grandmaster", "--games", "1"]) == 2
    assert "unknown level 'grandmaster'" in capsys.readouterr().err
