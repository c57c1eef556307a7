"""The game review: blunders are marked, hidden cards never reach a verdict."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest

from rummy500 import Rules
from rummy500.record import load_record, replay_match
from rummy500.review import (
    Budget,
    ReviewError,
    _compare,
    _Estimator,
    _in_doubt,
    _loss,
    clear_cache,
    judge_moves,
    review_record,
    verdict_for,
)
from rummy500.sim.runner import play_game

from .positions import layoff_position

TINY = Budget(samples=4, candidates=3, horizon=4, extend=2)


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
        assert d.verdict == verdict_for(d.loss, d.stderr, one.budget.confidence)
        assert d.played in d.values and d.best in d.values
        assert d.legal >= 2
        assert d.hindsight is None


def test_bad_input_is_refused_with_one_line():
    with pytest.raises(ReviewError, match="rules"):
        review_record({"rules": {"preset": "nope"}})
    record = layoff_position([{"p": 0, "discard": "QS"}])
    with pytest.raises(ReviewError, match="^round 1 action 5: you do not hold QS$"):
        review_record(record, budget=TINY)
    with pytest.raises(ReviewError, match="seat 5"):
        review_record(layoff_position([]), seats=[5])


def test_docstring_examples_run():
    import doctest

    from rummy500 import review

    failures, attempted = doctest.testmod(review, raise_on_error=False)
    assert attempted > 0 and failures == 0


def test_a_verdict_needs_its_threshold_by_a_margin_of_standard_errors():
    assert verdict_for(9.0) == "mistake"
    assert verdict_for(9.0, stderr=1.0, confidence=2.0) == "inaccuracy"
    assert verdict_for(12.0, stderr=2.0, confidence=2.0) == "mistake"
    assert verdict_for(25.0, stderr=3.0, confidence=2.0) == "mistake"
    assert verdict_for(26.0, stderr=3.0, confidence=2.0) == "blunder"
    assert verdict_for(2.0, stderr=0.0, confidence=2.0) == "good"


def test_more_samples_only_while_the_mistake_threshold_is_within_the_margin():
    budget = Budget(confidence=2.0, prior_sd=0.0, settle_after=1, confirm=2)
    near = {"a": [10.0, 0.0, 20.0, 0.0], "b": [0.0, 0.0, 0.0, 0.0]}  # a beats b by 7.5 ± 4.8
    assert _in_doubt(near, "b", budget)
    assert not _in_doubt(near, "a", budget)  # a is ahead, and b cannot be 8 points better
    # A move ahead by noise is in doubt too: with this spread its rival may be 8 points better.
    wide = {"a": [30.0, -20.0, 25.0, -30.0], "b": [0.0, 0.0, 0.0, 0.0]}  # a ahead by 1.25 ± 14
    assert _in_doubt(wide, "a", budget) and _in_doubt(wide, "b", budget)
    clear = {"a": [40.0, 42.0, 38.0, 40.0], "b": [0.0, 0.0, 0.0, 0.0]}  # 40 ± 0.8: a blunder, surely
    # (The batches a mistake needs, without the floor in guesses: see the floor's own test.)
    assert not _in_doubt(clear, "b", Budget(samples=2, prior_sd=0.0, settle_after=1, confirm=2, confirm_guesses=0))
    # ... but not from a single batch: one batch can miss a whole kind of deal.
    assert _in_doubt(clear, "b", Budget(samples=4, prior_sd=0.0, settle_after=1, confirm=2))
    # By default a mistake needs 8 batches: a few batches can hold the few costly deals by chance.
    assert _in_doubt(clear, "b", Budget(samples=2, prior_sd=0.0, settle_after=1))
    eight = {"a": clear["a"] * 4, "b": clear["b"] * 4}
    assert not _in_doubt(eight, "b", Budget(samples=2, prior_sd=0.0, settle_after=1, confirm_guesses=0))
    # Every live rival counts, not only the one with the best mean: c may be 8 points better than b.
    three = {"a": [2.0, 2.0, 2.0, 2.0], "b": [0.0, 0.0, 0.0, 0.0], "c": [30.0, -20.0, 25.0, -30.0]}
    assert _in_doubt(three, "b", budget)
    tiny = {"a": [1.0, 0.0, 1.0, 0.0], "b": [0.0, 0.0, 0.0, 0.0]}  # 0.5 ± 0.3: surely no mistake
    assert not _in_doubt(tiny, "b", budget)
    # A candidate dropped after the first batch (fewer samples) is no rival any more.
    assert not _in_doubt({"a": [9.0, 9.0, 9.0], "b": [0.0, 0.0, 0.0, 0.0]}, "b", budget)
    # The prior spread keeps two identical playouts from settling anything.
    assert _in_doubt({"a": [8.0, 8.0], "b": [0.0, 0.0]}, "b", Budget(prior_sd=8.0, settle_after=1))


def test_no_decision_is_settled_by_its_first_batch():
    # b is surely no mistake after one batch of four (a is 0.5 ± 0.3 better), and the rule would
    # stop there; but a first batch can miss the few deals where a move costs most.
    tiny = {"a": [1.0, 0.0, 1.0, 0.0], "b": [0.0, 0.0, 0.0, 0.0]}
    once = Budget(samples=4, confidence=2.0, prior_sd=0.0, settle_after=1)
    assert not _in_doubt(tiny, "b", once)
    assert _in_doubt(tiny, "b", replace(once, settle_after=2))
    twice = {"a": tiny["a"] * 2, "b": tiny["b"] * 2}
    assert not _in_doubt(twice, "b", replace(once, settle_after=2))


def test_every_candidate_is_played_out_on_the_same_guesses_and_a_clear_call_stops_soon():
    record = layoff_position([{"p": 0, "discard": "KS"}, {"p": 1, "draw": "stock"}])
    point = next(p for p in _points(record) if p.step == 5)
    view, played = point.view, point.action
    budget = Budget(samples=4, candidates=3, extend=3, confirm=2, settle_after=2, confirm_guesses=0)
    est = _Estimator(budget)
    cands = est.candidates(view, played)
    assert len(cands) == 3 and cands[0] == played
    vals, seeds, _ = _compare(est, view, cands, [played], "s")
    # A clear blunder (the lay-off went out): settled by the two batches a mistake needs, on shared guesses.
    assert len(seeds) == 8 and len(vals[played]) == 8 and len(vals[cands[1]]) >= 4
    assert all(len(v) in (4, 8) for v in vals.values())
    # judge_moves is the review's judgement of the same decision (same seed, same guesses).
    review = review_record(record, budget=budget, seed=7, seats=[0])
    d = _decision(review, 5)
    judged = judge_moves(view, [played], budget=budget, seed=f"7:{point.round}:{point.index}")
    assert round(judged["loss"][played], 2) == d.loss and judged["verdict"][played] == d.verdict
    assert judged["samples"] == d.samples == 8
    # At the default settle_after (8 batches), nothing is settled sooner, not even a clear blunder.
    patient = replace(budget, settle_after=8, extend=15)
    vals, seeds, _ = _compare(_Estimator(patient), view, cands, [played], "s")
    assert len(seeds) == 32 and all(len(v) == 32 for v in vals.values())


def _points(record):
    from rummy500.review import _walk

    return _walk(load_record(record))[0]


def test_sampling_goes_on_until_the_mistake_line_is_settled_or_the_cap():
    """Each decision either settles the mistake line with 2 standard errors (sure) or used every batch."""
    budget = Budget(samples=3, candidates=3, horizon=2, extend=3, reach=2.0, first_reach=2.0, futile=0.0, estimate_unsure=False)
    review = review_record(_short_game(7), budget=budget, seed=2, select=_first(12))
    assert len(review.decisions) == 24
    cap = budget.samples * (1 + budget.extend)
    for d in review.decisions:
        if d.verdict in ("mistake", "blunder"):
            assert d.sure
        if not d.sure:
            assert d.samples == cap
        # The default settle_after: no decision settled by its first batch.
        assert d.samples % budget.samples == 0 and 2 * budget.samples <= d.samples <= cap
    # With estimate_unsure, the same decisions, and an unsure one's verdict is its point estimate's.
    guess = review_record(_short_game(7), budget=replace(budget, estimate_unsure=True), seed=2, select=_first(12))
    assert [(d.step, d.samples, d.sure) for d in guess.decisions] == [(d.step, d.samples, d.sure) for d in review.decisions]
    for d in guess.decisions:
        assert d.verdict == verdict_for(d.loss, d.stderr, 2.0 if d.sure else 0.0)
    assert any(not d.sure for d in guess.decisions)
    data = review.to_dict()
    assert all(isinstance(d["sure"], bool) for d in data["decisions"])


def test_a_mistake_is_sure_only_when_its_interval_clears_the_line():
    from rummy500.review import _settled

    budget = Budget(confidence=2.0, prior_sd=0.0, confirm_guesses=4)
    assert _settled({"a": [30.0, 31.0, 29.0, 30.0], "b": [0.0, 0.0, 0.0, 0.0]}, "b", budget)  # 30 ± 0.4: a blunder
    assert _settled({"a": [1.0, 0.0, 1.0, 0.0], "b": [0.0, 0.0, 0.0, 0.0]}, "b", budget)  # 0.5 ± 0.3: surely no mistake
    assert not _settled({"a": [10.0, 0.0, 20.0, 0.0], "b": [0.0, 0.0, 0.0, 0.0]}, "b", budget)  # 7.5 ± 4.8: may be one
    # Any rival that may be a mistake's margin better leaves it open, not only the best by its mean.
    three = {"a": [2.0, 2.0, 2.0, 2.0], "b": [0.0, 0.0, 0.0, 0.0], "c": [30.0, -20.0, 25.0, -30.0]}
    assert not _settled(three, "b", budget)


def test_a_decision_too_near_the_line_to_settle_by_the_cap_is_left_unsure_early():
    # b is 8.0 ± 1.9 points worse than a after two batches of 4: the line runs through the middle of
    # the interval, and even 4 * 4 more guesses (se about 1.1) could not settle it by 2 standard errors.
    near = {"a": [12.0, 4.0, 16.0, 0.0, 8.0, 12.0, 4.0, 8.0], "b": [0.0] * 8}
    patient = Budget(samples=4, extend=5, confidence=2.0, prior_sd=0.0, reach=2.0, first_reach=2.0, futile=0.0, confirm=2, settle_after=2)
    assert _in_doubt(near, "b", patient)
    assert not _in_doubt(near, "b", replace(patient, futile=0.5))
    # Far enough from the line for the cap to settle it: the guesses go on.
    far = {"a": [x + 2.0 for x in near["a"]], "b": [0.0] * 8}
    assert _in_doubt(far, "b", replace(patient, futile=0.5))


def test_a_review_in_two_processes_is_the_same_review():
    """``jobs`` splits the decisions between processes; each is seeded by itself, so nothing changes."""
    record = _short_game(3)
    budget = Budget(samples=2, candidates=2, horizon=2, extend=1)
    seen: list[tuple[int, int]] = []
    one = review_record(record, budget=budget, seed=5, select=_first(6))
    two = review_record(record, budget=budget, seed=5, select=_first(6), jobs=2, progress=lambda d, t: seen.append((d, t)))
    assert len(one.decisions) == 12
    assert one.to_dict() == two.to_dict()
    # The progress reaches the end, never goes back, and counts every decision once.
    assert seen[-1] == (12, 12) and [d for d, _ in seen] == sorted(d for d, _ in seen)


class _ScriptedEstimator(_Estimator):
    """Candidates' values set by the test: the played move 0, a steady rival 8, and a late one.

    The late rival loses 30 points in the first batch (bad luck) and wins 40 in every later one.
    """

    def __init__(self, budget: Budget, cands: list) -> None:
        super().__init__(budget)
        self.played, self.steady, self.late = cands
        self.batches = 0

    def rollouts(self, worlds, seeds, seat, cands):  # noqa: ANN001, ANN201
        self.batches += 1
        late = -30.0 if self.batches == 1 else 40.0
        value = {self.played: 0.0, self.steady: 8.0, self.late: late}
        return {a: [value[getattr(a, "lay", a)]] * len(worlds) for a in cands}  # a lay's ways alike


def test_a_rival_unlucky_in_the_first_batches_is_kept_until_prune_after():
    record = layoff_position([{"p": 0, "discard": "KS"}, {"p": 1, "draw": "stock"}])
    point = next(p for p in _points(record) if p.step == 5)
    base = Budget(samples=2, candidates=3, extend=5)
    cands = _Estimator(base).candidates(point.view, point.action)
    played, steady, late = cands
    # Dropped after one batch (-30 points: it cannot be a mistake's margin better), the late
    # rival never shows what it is worth; the played move is judged against the steady one.
    once = replace(base, prune_after=1)
    vals, _, _ = _compare(_ScriptedEstimator(once, cands), point.view, cands, [played], "s")
    assert len(vals[late]) == 2 and len(vals[played]) == len(vals[steady]) == 12
    loss, _, best = _loss(vals, played, once)
    assert best == steady and loss == pytest.approx(8.0)
    # Kept for every batch, it is found to be the best move by far.
    kept = replace(base, prune_after=6)
    vals, _, _ = _compare(_ScriptedEstimator(kept, cands), point.view, cands, [played], "s")
    assert all(len(v) == 12 for v in vals.values())
    loss, _, best = _loss(vals, played, kept)
    assert best == late and loss == pytest.approx((2 * -30.0 + 10 * 40.0) / 12)
    # Pruned after three batches: six samples of the late rival, which then stays.
    three = replace(base, prune_after=3)
    vals, _, _ = _compare(_ScriptedEstimator(three, cands), point.view, cands, [played], "s")
    assert len(vals[late]) == 12
