"""Every level plays every preset and variant, 2 to 8 players, and only ever plays legal moves."""

from __future__ import annotations

import pytest

from rummy500 import Rules
from rummy500.bots import BOT_LEVELS
from rummy500.sim.runner import play_game, run_games

from .conftest import CONFIGS, FAST

OPTIONS: dict[str, dict[str, object]] = dict(FAST)


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_mixed_table_plays_a_round_legally(cfg: dict[str, object]) -> None:
    rules = Rules.from_mapping({**cfg, "rounds": 1})
    levels = [BOT_LEVELS[s % len(BOT_LEVELS)] for s in range(rules.players)]
    # play_game raises BotIllegalAction on any move outside the view's legal list.
    result = play_game(levels, rules, seed=7, bot_options=OPTIONS, keep_record=True)
    assert result.round_scores
    assert result.record is not None


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_each_level_finishes_whole_games(level: str) -> None:
    rules = Rules.from_mapping({"preset": "quick"})
    results = run_games([level, "random"], rules, 2, seed=3, bot_options=OPTIONS)
    assert all(r.finished and r.winners for r in results)


def test_same_seed_same_game() -> None:
    rules = Rules.from_mapping({"preset": "popular", "players": 3, "target": 150})
    levels = ["hard", "medium", "easy"]
    a = play_game(levels, rules, seed=42, bot_options=OPTIONS, keep_record=True)
    b = play_game(levels, rules, seed=42, bot_options=OPTIONS, keep_record=True)
    assert a.record == b.record
    c = play_game(levels, rules, seed=43, bot_options=OPTIONS, keep_record=True)
    assert c.record != a.record


def test_levels_are_ordered() -> None:
    """A quick sanity check of strength (the real measurement is benchmarks/strength.py)."""
    rules = Rules.from_mapping({"target": 300})
    results = run_games(["medium", "random"], rules, 6, seed=5)
    medium_wins = sum(1 for r in results if r.entries[r.winners[0]] == 0)
    assert medium_wins >= 5


def test_duplicate_deals_give_each_side_the_same_cards() -> None:
    """``duplicate=2``: games 0 and 1 share a deal, the hands dealt to the other bot; game 2 is a new deal."""
    rules = Rules.from_mapping({"target": 100})
    results = run_games(["medium", "random"], rules, 3, seed=11, duplicate=2, keep_records=True)
    first = [r.record["rounds"][0]["deal"] for r in results if r.record is not None]
    assert [r.levels for r in results] == [["medium", "random"], ["random", "medium"], ["medium", "random"]]
    assert first[0] == first[1]  # same seat, same cards: now the other level holds them
    assert first[2] != first[0]
