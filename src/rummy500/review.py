"""Game review: where each player's points went, decision by decision.

:func:`review_record` takes a finished game's RECORD.md record and, for every
decision of every seat (a turn's action with more than one legal choice),
estimates what the move played and its best alternatives were worth **from
that seat's information at that moment**: the seat's
:class:`~rummy500.views.View`, with the cards it could not see dealt out at
random as the ``hard`` bot does (:func:`rummy500.state.state_from_view`). Hidden
cards of the record are never used for a verdict; only the optional
**hindsight** figures (:attr:`Decision.hindsight`) replay the moves against
the real deal, and they stay apart.

The estimator (see ``docs/review.md``):

* **Candidates.** The move played, plus the best few legal moves by a cheap
  prior (the ``hard`` bot's heuristic scores: the draw values, the lay that
  keeps most points layable, the discards by what they cost and give away),
  at most :attr:`Budget.candidates` in all.
* **Rollouts.** ``samples`` determinizations of the view; in each one every
  candidate is played, then the ``medium`` heuristics play every seat for
  :attr:`Budget.horizon` turns (or to the end of the round), and the position
  is valued in round points, this seat's side minus the best other side
  (:func:`rummy500.bots.hard.estimate_round` when the round is unfinished).
  Every candidate sees the same determinizations and the same random numbers
  (common random numbers), so the differences between candidates are paired.
* **Loss.** The expected points lost is the best candidate's mean minus the
  move played's mean, counted only when the paired difference exceeds
  :attr:`Budget.confidence` standard errors (else 0: no alternative was
  clearly better). Verdicts follow :data:`THRESHOLDS`.
* **Accuracy.** Per decision ``100 * exp(-loss / ACCURACY_SCALE)``; a
  player's accuracy is the mean over their reviewed decisions.

Everything is seeded: the same record, budget and seed give the same review.
Decisions that are not reviewed: forced ones (one legal action), chance
events (reshuffles) and out-of-turn calls (the record does not keep the
calls that were *not* made, so there is nothing to compare them with).

    >>> from rummy500.review import verdict_for
    >>> [verdict_for(x) for x in (0.0, 4.0, 9.0, 30.0)]
    ['good', 'inaccuracy', 'mistake', 'blunder']
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from rummy500.actions import Action, Discard, LayOff, Meld, Reshuffle
from rummy500.bots.hard import HardBot
from rummy500.bots.medium import MediumBot
from rummy500.match import Match
from rummy500.record import Record, RecordError, deal_round, load_record
from rummy500.state import IllegalAction, ResampleError, RoundState, state_from_view
from rummy500.views import View

__all__ = [
    "ACCURACY_SCALE",
    "THRESHOLDS",
    "Budget",
    "Decision",
    "PlayerSummary",
    "Review",
    "ReviewError",
    "accuracy_of",
    "clear_cache",
    "judge_moves",
    "review_record",
    "verdict_for",
]

#: Expected points lost from which a move is an inaccuracy, a mistake, a blunder.
THRESHOLDS: dict[str, float] = {"inaccuracy": 3.0, "mistake": 8.0, "blunder": 20.0}
#: Points lost at which a decision's accuracy falls to 100/e (about 37%).
ACCURACY_SCALE = 10.0
VERDICTS: tuple[str, ...] = ("good", "inaccuracy", "mistake", "blunder")


class ReviewError(ValueError):
    """The record cannot be reviewed (malformed, or an illegal action in it)."""


@dataclass(frozen=True)
class Budget:
    """How hard the review looks at each decision.

    Attributes:
        samples: determinizations per decision (each candidate is played out in each).
        candidates: moves compared per decision, the move played included.
        horizon: turns played out after the candidate before the position is
            valued (None: to the end of the round).
        confidence: standard errors by which the best move must beat the move
            played for the difference to count as a loss.
        extend: while the verdict is in doubt (the loss's confidence interval
            straddles a threshold), up to this many more batches of
            ``samples`` are played out.
    """

    samples: int = 8
    candidates: int = 3
    horizon: int | None = 4
    confidence: float = 2.0
    extend: int = 1


#: The default budget (``rummy500 review --budget`` sets ``samples``).
DEFAULT_BUDGET = Budget()


def verdict_for(loss: float) -> str:
    """The verdict of a decision that lost ``loss`` expected points (see :data:`THRESHOLDS`)."""
    if loss >= THRESHOLDS["blunder"]:
        return "blunder"
    if loss >= THRESHOLDS["mistake"]:
        return "mistake"
    if loss >= THRESHOLDS["inaccuracy"]:
        return "inaccuracy"
    return "good"


def accuracy_of(losses: Iterable[float]) -> float | None:
    """Mean per-decision accuracy ``100 * exp(-loss / ACCURACY_SCALE)``; None without decisions.

    >>> accuracy_of([0.0, 0.0])
    100.0
    >>> round(accuracy_of([10.0]), 1)
    36.8
    """
    xs = [100.0 * math.exp(-max(0.0, x) / ACCURACY_SCALE) for x in losses]
    return sum(xs) / len(xs) if xs else None


@dataclass
class Decision:
    """One reviewed decision.

    Attributes:
        round: the round (from 0).
        index: the action's index within the round's ``actions``.
        step: the action's number in the whole game (from 1), as the replay viewer counts.
        seat: who decided.
        phase: ``draw`` or ``play``.
        played: the move played (action text, e.g. ``discard KS``).
        best: the best move found (the move played when none was clearly better).
        loss: expected round points lost against ``best`` (0 when it was the best).
        verdict: ``good``, ``inaccuracy``, ``mistake`` or ``blunder``.
        values: each candidate's mean value (this seat's side minus the best
            other side, in round points), best first.
        stderr: standard error of the paired difference between ``best`` and ``played``.
        standing: the seat's expected standing after the move: its side's total
            minus the best other total, plus the move's expected round value.
        legal: how many legal moves there were.
        hindsight: with ``hindsight=True``, the played and best moves' values
            with the real hidden cards (never used for the verdict), else None.
    """

    round: int
    index: int
    step: int
    seat: int
    phase: str
    played: str
    best: str
    loss: float
    verdict: str
    values: dict[str, float]
    stderr: float
    standing: float
    legal: int
    hindsight: dict[str, float] | None = None


@dataclass
class PlayerSummary:
    """One player's figures over the reviewed decisions."""

    seat: int
    name: str
    decisions: int
    accuracy: float | None
    loss: float
    loss_per_round: float
    verdicts: dict[str, int] = field(default_factory=dict)


@dataclass
class Review:
    """A whole game's review (see :func:`review_record`)."""

    players: list[PlayerSummary]
    decisions: list[Decision]
    rounds: int
    steps: int
    budget: Budget
    seed: int
    skipped: dict[str, int]
    thresholds: dict[str, float] = field(default_factory=lambda: dict(THRESHOLDS))

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data (``rummy500 review --json``)."""
        return {
            "budget": asdict(self.budget),
            "seed": self.seed,
            "rounds": self.rounds,
            "steps": self.steps,
            "thresholds": dict(self.thresholds),
            "accuracy_scale": ACCURACY_SCALE,
            "skipped": dict(self.skipped),
            "players": [asdict(p) for p in self.players],
            "decisions": [asdict(d) for d in self.decisions],
        }


# ---------------------------------------------------------------- the estimator
class _Estimator:
    """Candidates, rollouts and the paired comparison of one decision."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.bot = HardBot(0, horizon=budget.horizon)
        self.guide = MediumBot(0)

    def candidates(self, view: View, played: Action, extra: Iterable[Action] = ()) -> list[Action]:
        """The move played (and ``extra`` moves), then the best few others by the heuristic prior."""
        legal = list(view.legal)
        try:
            an = self.guide.analysis(view)
            if view.phase == "draw":
                scored = self.bot.score_actions(view, an, legal)
                ranked = [a for _, a in sorted(scored, key=lambda s: -s[0])]
            else:
                lay, _ = an.best_lay(legal)
                discards = sorted((a for a in legal if isinstance(a, Discard)), key=lambda d: an.discard_score(d.cards))
                lays: list[Action] = [a for a in legal if isinstance(a, (Meld, LayOff)) and a != lay]
                ranked = ([lay] if lay is not None else []) + list(discards) + lays
        except (ValueError, KeyError, IndexError):
            ranked = []
        ranked += [a for a in legal if a not in ranked]
        out = [played] + [a for a in dict.fromkeys(extra) if a != played]
        room = max(self.budget.candidates, len(out) + 1)
        for a in ranked:
            if len(out) >= room:
                break
            if a not in out:
                out.append(a)
        return out

    def rollouts(self, worlds: list[RoundState], seeds: list[int], seat: int, cands: list[Action]) -> dict[Action, list[float]]:
        """Each candidate's values over the same worlds and random numbers."""
        out: dict[Action, list[float]] = {a: [] for a in cands}
        for world, seed in zip(worlds, seeds, strict=True):
            for a in cands:
                out[a].append(self.bot.playout(world.copy(), seat, a, random.Random(seed)))
        return out


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` (paired)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    m = _mean(d)
    if len(d) < 2:
        return m, float("inf")
    var = sum((x - m) ** 2 for x in d) / (len(d) - 1)
    return m, math.sqrt(var / len(d))


_CACHE: OrderedDict[str, tuple[Any, ...]] = OrderedDict()
_CACHE_SIZE = 4096


def clear_cache() -> None:
    """Forget the per-decision results kept by this process."""
    _CACHE.clear()


def _view_key(view: View, played: Action, budget: Budget, seed: str) -> str:
    d = dict(view.to_dict(), rules=view.rules.to_mapping())
    blob = json.dumps([d, str(played), asdict(budget), seed], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def _sample(view: View, n: int, rng: random.Random) -> tuple[list[RoundState], list[int]]:
    """``n`` more determinizations and rollout seeds (the same for every candidate)."""
    worlds: list[RoundState] = []
    seeds: list[int] = []
    for _ in range(n):
        try:
            worlds.append(state_from_view(view, rng))
        except ResampleError:
            break
        seeds.append(rng.getrandbits(64))
    return worlds, seeds


def _loss(vals: dict[Action, list[float]], best: Action, move: Action, confidence: float) -> tuple[float, float]:
    """(points lost, standard error) of ``move`` against ``best``; 0 unless clearly worse."""
    if best == move:
        return 0.0, 0.0
    diff, se = _paired(vals[best], vals[move])
    return (diff if diff > confidence * se else 0.0), se


def judge_moves(view: View, moves: list[Action], *, budget: Budget = DEFAULT_BUDGET, seed: str | int = 0) -> dict[str, Any]:
    """Compare several moves for ``view.seat`` on the same guesses of the hidden cards.

    The moves, and the best few others by the prior, are played out in the
    same determinizations with the same random numbers; each move's loss is
    measured against the best candidate as in a review.

    Args:
        view: the seat's view (its ``legal`` holds every move).
        moves: the moves to judge (e.g. what several players would play here).
        budget: samples, candidates, horizon and confidence.
        seed: seeds the determinizations and rollouts.

    Returns:
        ``{"best": action, "means": {action: mean}, "loss": {move: points lost}}``.
    """
    est = _Estimator(budget)
    seat = view.seat
    assert seat is not None
    cands = est.candidates(view, moves[0], moves[1:])
    vals, _ = _compare(est, view, cands, moves, str(seed))
    means = {a: _mean(v) for a, v in vals.items()}
    best = max(cands, key=lambda a: means[a])
    return {"best": best, "means": means, "loss": {m: _loss(vals, best, m, budget.confidence)[0] for m in moves}}


def _compare(
    est: _Estimator, view: View, cands: list[Action], judged: list[Action], seed: str
) -> tuple[dict[Action, list[float]], list[int]]:
    """Play the candidates out in batches of determinizations until the judged moves' verdicts are clear.

    Returns each candidate's values and the rollout seeds used.
    """
    budget = est.budget
    seat = view.seat
    assert seat is not None
    rng = random.Random(seed)
    vals: dict[Action, list[float]] = {a: [] for a in cands}
    used: list[int] = []
    for batch in range(1 + max(0, budget.extend)):
        worlds, seeds = _sample(view, budget.samples, rng)
        if not worlds:
            break
        for a, v in est.rollouts(worlds, seeds, seat, cands).items():
            vals[a].extend(v)
        used.extend(seeds)
        if batch == budget.extend or not any(_in_doubt(vals, m, budget.confidence) for m in judged):
            break
    return vals, used


def _in_doubt(vals: dict[Action, list[float]], move: Action, confidence: float) -> bool:
    """Whether more samples could make ``move`` a mistake or a blunder, or stop it being one.

    That is, whether its loss's confidence interval straddles the mistake or
    the blunder threshold (an inaccuracy is not worth more playouts).
    """
    best = max(vals, key=lambda a: _mean(vals[a]))
    if best == move:
        return False
    diff, se = _paired(vals[best], vals[move])
    if not math.isfinite(se):
        return True
    lo, hi = diff - confidence * se, diff + confidence * se
    return any(lo < THRESHOLDS[k] <= hi for k in ("mistake", "blunder"))


def _evaluate(
    est: _Estimator, view: View, played: Action, seed: str, truth: RoundState | None
) -> tuple[Action, dict[Action, float], float, float, float, dict[str, float] | None]:
    """(best, means, loss, stderr, played mean, hindsight) for one decision."""
    budget = est.budget
    key = _view_key(view, played, budget, seed)
    hit = _CACHE.get(key)
    if hit is not None and (truth is None or hit[5] is not None):
        _CACHE.move_to_end(key)
        return hit
    seat = view.seat
    assert seat is not None
    cands = est.candidates(view, played)
    vals, seeds = _compare(est, view, cands, [played], seed)
    means = {a: _mean(v) for a, v in vals.items()}
    best = max(cands, key=lambda a: (means[a], a == played))
    loss, se = _loss(vals, best, played, budget.confidence)
    if loss == 0.0:
        best = played
    hind: dict[str, float] | None = None
    if truth is not None:
        real = est.rollouts([truth] * len(seeds), seeds, seat, [played] + ([best] if best != played else []))
        hind = {"played": _mean(real[played]), "best": _mean(real[best])}
    out = (best, dict(sorted(means.items(), key=lambda kv: -kv[1])), loss, se, means[played], hind)
    _CACHE[key] = out
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out


# ---------------------------------------------------------------- the game walk
@dataclass
class _Point:
    round: int
    index: int
    step: int
    seat: int
    action: Action
    view: View
    state: RoundState
    totals: list[int]


def _walk(rec: Record) -> tuple[list[_Point], dict[str, int], int]:
    """Every in-turn decision with a choice, the skipped counts and the step count."""
    rules = rec.rules
    match = Match(rules, rec.players, rec.scores, deal=False)
    points: list[_Point] = []
    skipped = {"forced": 0, "chance": 0, "out_of_turn": 0}
    step = 0
    for r, spec in enumerate(rec.rounds):
        try:
            deal_round(match, rec, r)
        except (RecordError, IllegalAction) as exc:
            raise ReviewError(str(exc)) from None
        for i, (seat, action) in enumerate(spec.actions):
            state = match.state
            assert state is not None
            step += 1
            if isinstance(action, Reshuffle):
                skipped["chance"] += 1
            elif seat != state.public.to_move:
                skipped["out_of_turn"] += 1
            else:
                view = state.view(seat, match.totals)
                if len(view.legal) <= 1:
                    skipped["forced"] += 1
                else:
                    points.append(_Point(r, i, step, seat, action, view, state.copy(), list(match.totals)))
            try:
                match.apply(seat, action, auto=False)
            except IllegalAction as exc:
                raise ReviewError(f"round {r} action {i}: {exc}") from None
    return points, skipped, step


def _standing(rules: Any, totals: list[int], seat: int, value: float) -> float:
    sides: dict[int, int] = {}
    for s, t in enumerate(totals):
        sides[rules.side_of(s)] = sides.get(rules.side_of(s), 0) + t
    mine = rules.side_of(seat)
    others = [v for k, v in sides.items() if k != mine]
    return sides[mine] - (max(others) if others else 0) + value


def review_record(
    record: Any,
    *,
    budget: Budget = DEFAULT_BUDGET,
    seed: int = 0,
    seats: Iterable[int] | None = None,
    hindsight: bool = False,
    select: Callable[[int, int], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every decision of a game record.

    Args:
        record: a RECORD.md record (parsed JSON, JSON text or a :class:`~rummy500.record.Record`).
        budget: how hard to look at each decision.
        seed: seeds the determinizations and rollouts (each decision's own
            stream is drawn from it and the decision's place in the game, so a
            decision's result does not depend on which others are reviewed).
        seats: review only these seats (default: all).
        hindsight: also value the played and best moves with the real hidden cards.
        select: ``select(seat, n)`` for the seat's ``n``-th decision (from 0):
            review it or not (a sampled review; default: all).
        progress: called as ``progress(done, total)`` after each decision.

    Returns:
        The :class:`Review`.

    Raises:
        ReviewError: the record is malformed or an action in it is illegal.
    """
    try:
        rec = record if isinstance(record, Record) else load_record(record)
    except RecordError as exc:
        raise ReviewError(str(exc)) from None
    rules = rec.rules
    want = set(range(rules.players)) if seats is None else set(seats)
    bad = [s for s in want if not 0 <= s < rules.players]
    if bad:
        raise ReviewError(f"seat {bad[0]} is not a seat of this {rules.players}-player game")
    points, skipped, steps = _walk(rec)
    count = [0] * rules.players
    chosen: list[_Point] = []
    for p in points:
        n = count[p.seat]
        count[p.seat] += 1
        if p.seat in want and (select is None or select(p.seat, n)):
            chosen.append(p)
    est = _Estimator(budget)
    decisions: list[Decision] = []
    for k, p in enumerate(chosen):
        dseed = f"{seed}:{p.round}:{p.index}"
        best, means, loss, se, mine, hind = _evaluate(est, p.view, p.action, dseed, p.state if hindsight else None)
        decisions.append(
            Decision(
                round=p.round,
                index=p.index,
                step=p.step,
                seat=p.seat,
                phase=p.view.phase,
                played=str(p.action),
                best=str(best),
                loss=round(loss, 2),
                verdict=verdict_for(loss),
                values={str(a): round(v, 2) for a, v in means.items()},
                stderr=round(se, 2) if math.isfinite(se) else -1.0,
                standing=round(_standing(rules, p.totals, p.seat, mine), 2),
                legal=len(p.view.legal),
                hindsight={k2: round(v, 2) for k2, v in hind.items()} if hind else None,
            )
        )
        if progress is not None:
            progress(k + 1, len(chosen))
    nrounds = max(1, len(rec.rounds))
    players = []
    for s in sorted(want):
        mine_d = [d for d in decisions if d.seat == s]
        total = sum(d.loss for d in mine_d)
        players.append(
            PlayerSummary(
                seat=s,
                name=rec.players[s],
                decisions=len(mine_d),
                accuracy=None if not mine_d else round(accuracy_of(d.loss for d in mine_d) or 0.0, 1),
                loss=round(total, 1),
                loss_per_round=round(total / nrounds, 1),
                verdicts={v: sum(1 for d in mine_d if d.verdict == v) for v in VERDICTS},
            )
        )
    return Review(players, decisions, len(rec.rounds), steps, budget, seed, skipped)
