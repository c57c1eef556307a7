"""The game review: blunders are marked, hidden cards never reach a verdict."""

from __future__ import annotations

import copy
import json
import random

import pytest

from rummy500 import Rules
from rummy500.record import load_record, replay_match
from rummy500.review import Budget, ReviewError, clear_cache, review_record, verdict_for
from rummy500.sim.runner import play_game

from .positions import layoff_position

TINY = Budget(samples=4, candidates=3, horizon=4)


def _decision(review, step):
    return next(d for d in review.decisions if d.step == step)


def test_discarding_a_card_instead_of_laying_it_off_to_go_out_is_marked():
    record = layoff_position([{"p": 0, "discard": "KS"}, {"p": 1, "draw": "stock"}])
    review = review_record(record, budget=TINY, seed=1)
    d = _decision(review, 5)
    assert (d.seat, d.played) == (0, "discard KS")
    assert d.best == "layoff KS on 0"
    assert d.verdict in ("mistake", "blunder")
    assert d.loss >= 8
    ann = review.players[0]
    assert ann.verdicts["mistake"] + ann.verdicts["blunder"] >= 1
    assert ann.accuracy is not None and ann.accuracy < 100


def test_laying_off_then_going_out_is_good():
    record = layoff_position([{"p": 0, "layoff": ["KS"], "on": 0}, {"p": 0, "discard": "4D"}])
    review = review_record(record, budget=TINY, seed=1)
    d = _decision(review, 5)
    assert (d.played, d.best, d.loss, d.verdict) == ("layoff KS on 0", "layoff KS on 0", 0.0, "good")


def _short_game(seed: int) -> dict:
    rules = Rules.from_mapping({"preset": "standard", "rounds": 1})
    return play_game(["medium", "random"], rules, seed, keep_record=True).record


def _verdicts(review, seat):
    return [(d.step, d.played, d.best, d.loss, d.verdict, d.values) for d in review.decisions if d.seat == seat]


def _first(n):
    return lambda seat, k: k < n


@pytest.mark.parametrize("seed", [5])
def test_verdicts_do_not_depend_on_the_hidden_cards(seed):
    record = _short_game(seed)
    match, error = replay_match(load_record(record))
    assert error is None
    state = match.state
    deal = record["rounds"][0]["deal"]
    undrawn = [str(c) for c in state.stock_top_first()]
    assert len(undrawn) >= 2, "the seeded round must end with cards left in the stock"
    # 1. Another order of the stock cards nobody ever drew: every seat's views are unchanged.
    reordered = copy.deepcopy(record)
    stock = reordered["rounds"][0]["deal"]["stock"]
    k = len(stock) - len(undrawn)
    assert stock[k:] == undrawn
    tail = stock[k:]
    random.Random(seed).shuffle(tail)
    if tail == undrawn:
        tail.reverse()
    stock[k:] = tail
    # 2. A card Bob held all round, never shown, swapped with a card that stayed in the stock: Ann's views are unchanged.
    played = json.dumps(record["rounds"][0]["actions"])
    kept = [c for c in deal["hands"][1] if c in [str(x) for x in state.hands[1]] and f'"{c}"' not in played]
    assert kept, "Bob must keep a dealt card to the end of the round"
    swapped = copy.deepcopy(record)
    sdeal = swapped["rounds"][0]["deal"]
    other = next(c for c in undrawn if c not in deal["hands"][1])
    sdeal["hands"][1][sdeal["hands"][1].index(kept[0])] = other
    sdeal["stock"][sdeal["stock"].index(other)] = kept[0]
    for changed in (reordered, swapped):
        assert replay_match(load_record(changed))[1] is None
    # Each review starts with an empty cache: the per-decision results must come from the views again.
    clear_cache()
    base = review_record(record, budget=TINY, seed=3, select=_first(8), hindsight=True)
    clear_cache()
    again = review_record(reordered, budget=TINY, seed=3, select=_first(8))
    assert _verdicts(again, 0) == _verdicts(base, 0) and _verdicts(again, 1) == _verdicts(base, 1)
    clear_cache()
    ann = review_record(swapped, budget=TINY, seed=3, seats=[0], select=_first(8))
    assert _verdicts(ann, 0) == _verdicts(base, 0)
    assert len(_verdicts(base, 0)) == 8


def test_a_review_is_reproducible_and_summarised_per_player():
    record = _short_game(11)
    one = review_record(record, budget=Budget(samples=2, candidates=2), seed=4, select=_first(5))
    two = review_record(json.dumps(record), budget=Budget(samples=2, candidates=2), seed=4, select=_first(5))
    assert one.to_dict() == two.to_dict()
    data = one.to_dict()
    assert [p["seat"] for p in data["players"]] == [0, 1]
    for p in one.players:
        mine = [d for d in one.decisions if d.seat == p.seat]
        assert p.decisions == len(mine) == 5
        assert sum(p.verdicts.values()) == 5
        assert p.loss == pytest.approx(sum(d.loss for d in mine), abs=0.2)
    for d in one.decisions:
        assert d.verdict == verdict_for(d.loss)
        assert d.played in d.values and d.best in d.values
        assert d.legal >= 2
        assert d.hindsight is None


def test_bad_input_is_refused_with_one_line():
    with pytest.raises(ReviewError, match="rules"):
        review_record({"rules": {"preset": "nope"}})
    record = layoff_position([{"p": 0, "discard": "QS"}])
    with pytest.raises(ReviewError, match="round 0 action 4"):
        review_record(record, budget=TINY)
    with pytest.raises(ReviewError, match="seat 5"):
        review_record(layoff_position([]), seats=[5])


def test_docstring_examples_run():
    import doctest

    from rummy500 import review

    failures, attempted = doctest.testmod(review, raise_on_error=False)
    assert attempted > 0 and failures == 0
