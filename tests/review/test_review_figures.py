"""What the review's JSON says: its points, its rounds, its guesses and its candidates."""

from __future__ import annotations

from typing import Any

import pytest

from rummy500 import Rules
from rummy500.review import DEFAULT_BUDGET, Budget, Review, _in_doubt, _settled, review_record
from rummy500.sim.runner import play_game

from .positions import layoff_position

TINY = Budget(samples=4, candidates=3, horizon=4, extend=2)


def _missed_layoff(divisor: int = 1) -> dict[str, Any]:
    """Ann discards KS at move 5 where laying it off on Bob's kings, then discarding 4D, goes out."""
    record = layoff_position([{"p": 0, "discard": "KS"}, {"p": 1, "draw": "stock"}])
    record["rules"]["score_divisor"] = divisor
    return record


def _step(review: Review, step: int) -> dict[str, Any]:
    return next(d for d in review.to_dict()["decisions"] if d["step"] == step)


def test_a_quick_game_is_reviewed_in_its_own_points() -> None:
    """Score divisor 5 (the Quick preset): every figure is a fifth of the same game's at divisor 1."""
    ann = lambda seat, n: seat == 0  # noqa: E731 - Ann's two decisions (moves 4 and 5)
    whole = review_record(_missed_layoff(1), budget=TINY, seed=1, select=ann).to_dict()
    fifth = review_record(_missed_layoff(5), budget=TINY, seed=1, select=ann).to_dict()
    assert whole["thresholds"] == {"inaccuracy": 3.0, "mistake": 8.0, "blunder": 20.0}
    assert fifth["thresholds"] == {"inaccuracy": 0.6, "mistake": 1.6, "blunder": 4.0}
    assert (whole["accuracy_scale"], fifth["accuracy_scale"]) == (10.0, 2.0)
    assert [d["step"] for d in whole["decisions"]] == [d["step"] for d in fifth["decisions"]] == [4, 5]
    one, five = whole["decisions"][1], fifth["decisions"][1]
    # The missed lay-off: a blunder in both games, judged on the same guesses, its loss a fifth.
    assert one["verdict"] == five["verdict"] == "blunder" and one["loss"] >= 20.0
    assert (one["played"], one["best"]) == (five["played"], five["best"]) == ("discard KS", "layoff KS on 0")
    # (Round scores divided by 5 are rounded, so the fifth is near, not exact.)
    assert five["loss"] == pytest.approx(one["loss"] / 5, rel=0.03)
    assert five["stderr"] == pytest.approx(one["stderr"] / 5, rel=0.03)
    for move, value in one["values"].items():
        assert five["values"][move] == pytest.approx(value / 5, abs=0.5)
    assert fifth["players"][0]["loss"] == pytest.approx(whole["players"][0]["loss"] / 5, rel=0.03)
    assert fifth["players"][0]["accuracy"] == pytest.approx(whole["players"][0]["accuracy"], abs=0.5)


def test_the_moves_are_also_given_as_record_actions() -> None:
    d = _step(review_record(_missed_layoff(), budget=TINY, seed=1, select=lambda seat, n: seat == 0), 5)
    assert d["played_action"] == {"discard": "KS"}
    assert d["best_action"] == {"layoff": ["KS"], "on": 0}


def test_points_lost_per_round_count_only_the_rounds_played() -> None:
    rules = Rules.from_mapping({"preset": "standard", "rounds": 2})
    record = play_game(["medium", "random"], rules, 5, keep_record=True).record
    assert len(record["rounds"]) == 2 and record["rounds"][1]["actions"]
    record["rounds"][1]["actions"] = []  # the record stops before the second round's first move
    first = lambda seat, n: seat == 1 and n < 6  # noqa: E731 - the random bot's first six decisions
    review = review_record(record, budget=TINY, seed=0, select=first)
    bot = review.players[1]
    assert review.rounds == 2 and bot.decisions == 6
    assert bot.loss > 0
    assert bot.loss_per_round == bot.loss  # one round played, not two


def test_a_mistake_is_never_sure_on_fewer_guesses_than_the_floor() -> None:
    # The floor in guesses never slows the default budget: its batches a mistake needs are more.
    assert DEFAULT_BUDGET.confirm * DEFAULT_BUDGET.samples >= DEFAULT_BUDGET.confirm_guesses == 32
    small = Budget(samples=2, prior_sd=0.0, settle_after=1)
    clear = {"a": [40.0, 42.0, 38.0, 40.0], "b": [0.0, 0.0, 0.0, 0.0]}  # 40 ± 0.8: a blunder
    sixteen = {k: v * 4 for k, v in clear.items()}  # the 8 batches of 2 a mistake needs: 16 guesses
    thirty_two = {k: v * 8 for k, v in clear.items()}
    assert _in_doubt(sixteen, "b", small) and not _settled(sixteen, "b", small)
    assert not _in_doubt(thirty_two, "b", small) and _settled(thirty_two, "b", small)
    # In a review at --budget 2: the missed lay-off is played out 32 times before it is sure ...
    two = Budget(samples=2, candidates=3, horizon=4)
    d = _step(review_record(_missed_layoff(), budget=two, seed=1, select=lambda seat, n: seat == 0), 5)
    assert d["verdict"] == "blunder" and d["sure"] is True and d["samples"] >= 32
    # ... and when the cap comes first (16 guesses), it is a blunder all the same, but not a sure one.
    capped = Budget(samples=2, candidates=3, horizon=4, extend=7)
    d = _step(review_record(_missed_layoff(), budget=capped, seed=1, select=lambda seat, n: seat == 0), 5)
    assert d["verdict"] == "blunder" and d["sure"] is False and d["samples"] == 16


def test_values_list_the_candidates_played_out_on_every_guess_first() -> None:
    rules = Rules.from_mapping({"preset": "standard", "rounds": 1})
    record = play_game(["medium", "random"], rules, 7, keep_record=True).record
    # Every candidate is played out in the first batch only, then the hopeless ones are dropped.
    budget = Budget(samples=3, candidates=3, horizon=2, extend=3, prune_after=1)
    review = review_record(record, budget=budget, seed=2, select=lambda seat, n: n < 8)
    dropped = 0
    for d in review.to_dict()["decisions"]:
        values, counts = d["values"], d["value_samples"]
        assert list(values) == list(counts) and counts[d["played"]] == d["samples"] == max(counts.values())
        full = [m for m in values if counts[m] == d["samples"]]
        assert list(values)[: len(full)] == full  # those played out on every guess first ...
        assert [values[m] for m in full] == sorted((values[m] for m in full), reverse=True)  # ... best first
        rest = [m for m in values if counts[m] < d["samples"]]
        assert [values[m] for m in rest] == sorted((values[m] for m in rest), reverse=True)
        dropped += len(rest)
        # The best move is the first of them, or the move played when nothing was clearly better.
        assert d["best"] == full[0] or (d["best"] == d["played"] and d["loss"] == 0.0)
    assert dropped > 0
