"""A meld or lay-off is judged apart from the throw that follows it, and a lay held back is named."""

from __future__ import annotations

from rummy500.actions import Discard, LayOff, Meld, parse_action
from rummy500.cli.review_cmd import _best_text
from rummy500.record import load_record
from rummy500.review import Budget, Decision, _compare, _Estimator, _kept, _loss, _Then, _walk

from .positions import layoff_position


def _lay_decision():
    """Ann holds KS 7D and draws 4D with Bob's three kings on the table: lay off KS, or throw a card."""
    record = layoff_position([{"p": 0, "layoff": ["KS"], "on": 0}, {"p": 0, "discard": "7D"}])
    record["deal"]["hands"][0] = ["KS", "7D"]
    point = next(p for p in _walk(load_record(record))[0] if p.step == 5)
    assert str(point.action) == "layoff KS on 0" and point.view.phase == "play"
    return point


class _Scripted(_Estimator):
    """Playout values set by the test: a lay ending its turn the policy's way loses ``plain``, ending it otherwise ``then``."""

    def __init__(self, budget: Budget, plain: float, then: float) -> None:
        super().__init__(budget)
        self.plain, self.then = plain, then

    def rollouts(self, worlds, seeds, seat, cands):  # noqa: ANN001, ANN201
        def value(k):  # noqa: ANN001, ANN202
            if isinstance(k, _Then):
                return self.then
            return self.plain if isinstance(k, (Meld, LayOff)) else 0.0

        return {k: [value(k)] * len(worlds) for k in cands}


BUDGET = Budget(samples=4, candidates=3, extend=3, prune_after=2, settle_after=2, confirm=1, confirm_guesses=0, prior_sd=1.0)


def test_a_lay_is_not_charged_with_the_policy_s_throw_after_it() -> None:
    point = _lay_decision()
    cands = _Estimator(BUDGET).candidates(point.view, point.action)
    assert any(isinstance(a, Discard) for a in cands)
    # Ending the turn with the policy's throw costs 30 points; ending it with a discard the review compares costs nothing.
    vals, _, ways = _compare(_Scripted(BUDGET, plain=-30.0, then=0.0), point.view, cands, [point.action], "s")
    assert isinstance(ways[point.action], _Then) and ways[point.action].lay == point.action
    loss, _, best = _loss(vals, point.action, BUDGET)
    assert loss == 0.0 and best == point.action


def test_a_lay_worse_every_way_is_still_a_mistake() -> None:
    point = _lay_decision()
    cands = _Estimator(BUDGET).candidates(point.view, point.action)
    vals, _, _ = _compare(_Scripted(BUDGET, plain=-30.0, then=-30.0), point.view, cands, [point.action], "s")
    loss, _, best = _loss(vals, point.action, BUDGET)
    assert isinstance(best, Discard) and loss == 30.0


def test_a_lay_held_back_names_the_cards_kept() -> None:
    meld, throw = parse_action("meld 6C 7C 8C"), parse_action("discard KD")
    assert _kept(meld, throw) == ["6C", "7C", "8C"]
    assert _kept(throw, meld) is None and _kept(parse_action("layoff AC on 3"), throw) == ["AC"]
    d = Decision(
        round=0, index=3, step=4, seat=0, phase="play", played="meld 6C 7C 8C", best="discard KD", loss=9.0,
        verdict="mistake", values={}, stderr=1.0, standing=0.0, legal=9, kept=["6C", "7C", "8C"],
    )
    assert _best_text(d) == "discard KD (keep 6C 7C 8C for now)"
