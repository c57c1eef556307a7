"""The environments' decision loop (``rummy500.env.table.Table``): copies and pickles play on alike."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from rummy500.env.table import Table
from rummy500.rules import Rules


def _play(table: Table, rng: random.Random, decisions: int) -> list[tuple[int, str]]:
    """Play random legal actions; what was played, as (seat, action)."""
    out = []
    for _ in range(decisions):
        turn = table.turn()
        if turn is None:
            break
        action = turn.legal[rng.randrange(len(turn.legal))]
        table.play(action)
        out.append((turn.seat, str(action)))
    return out


@pytest.mark.parametrize("how", ["deepcopy", "pickle", "with_match"])
def test_a_copied_table_plays_on_like_the_original_and_apart_from_it(how):
    table = Table(Rules.from_mapping({"preset": "popular", "players": 3}), seed=5, max_rounds=2)
    _play(table, random.Random(1), 40)
    if how == "deepcopy":
        twin = copy.deepcopy(table)
    elif how == "pickle":
        twin = pickle.loads(pickle.dumps(table))
    else:
        twin = table.with_match(copy.deepcopy(table.match))
    assert twin.turn() == table.turn() and twin.max_rounds == table.max_rounds and twin.auto == table.auto
    ahead = _play(twin, random.Random(2), 60)
    assert len(ahead) > 10
    # the original did not move with the copy, and then plays the same moves from the same position
    assert _play(table, random.Random(2), 60) == ahead
