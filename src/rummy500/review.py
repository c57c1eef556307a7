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
* **Rollouts.** A first batch of ``samples`` determinizations of the view;
  in each one every candidate is played, then the ``medium`` heuristics play
  every seat for :attr:`Budget.horizon` turns (or to the end of the round),
  and the position is valued in round points, this seat's side minus the
  best other side (:func:`rummy500.bots.hard.estimate_round` when the round
  is unfinished). Every candidate sees the same determinizations and the
  same random numbers (common random numbers), so the differences between
  candidates are paired.
* **A sequential test at the mistake line.** While, against some live
  rival, neither "mistake" (``diff - confidence * stderr >= 8``) nor "not a
  mistake" (``diff + reach * stderr < 8``; ``reach`` is ``confidence`` by
  default) holds, or a mistake rests on fewer than :attr:`Budget.confirm`
  batches or :attr:`Budget.confirm_guesses` guesses, further batches (at most :attr:`Budget.extend`) play the move
  played and the rivals still in reach on new shared determinizations. A
  decision too near the line for the cap to settle stops early
  (:attr:`Budget.futile`, off by default). No decision is settled by its
  first batch (:attr:`Budget.settle_after`). Each decision ends *sure* either
  way or *unsure* (:attr:`Decision.sure`); with :attr:`Budget.estimate_unsure`
  an unsure decision's verdict is the point estimate's.
* **Loss and verdict.** The expected points lost is the best candidate's
  mean minus the move played's mean (paired), counted only when it exceeds
  ``confidence`` standard errors (else 0: nothing was clearly better). A
  verdict of :data:`THRESHOLDS` needs the same margin: ``loss - confidence *
  stderr`` must reach the threshold, so a move is a mistake only when it is
  confidently at least 8 points worse. The standard error counts two
  pseudo-samples of spread :attr:`Budget.prior_sd`, so a few identical
  playouts cannot settle a verdict.
* **Accuracy.** Per decision ``100 * exp(-loss / ACCURACY_SCALE)``; a
  player's accuracy is the mean over their reviewed decisions.
* **Points.** Everything is judged in card points (each playout's value
  times the rules' ``score_divisor``) and shown in the game's own points: in
  a game that divides its scores by 5, every figure of the review, and its
  :attr:`Review.thresholds`, is divided by 5.

Everything is seeded: the same record, budget and seed give the same review.
Decisions that are not reviewed: forced ones (one legal action), chance
events (reshuffles) and out-of-turn calls (the record does not keep the
calls that were *not* made, so there is nothing to compare them with).

    >>> from rummy500.review import verdict_for
    >>> [verdict_for(x) for x in (0.0, 4.0, 9.0, 30.0)]
    ['good', 'inaccuracy', 'mistake', 'blunder']
    >>> verdict_for(30.0, stderr=6.0, confidence=2.0)  # at least 18 points worse, surely
    'mistake'
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import random
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from rummy500.actions import Action, Decline, Discard, LayOff, Meld, Reshuffle
from rummy500.bots.hard import HardBot, stock_streams
from rummy500.bots.medium import MediumBot
from rummy500.match import Match
from rummy500.pools import ignore_ctrl_c, stop_pool
from rummy500.record import Record, RecordError, deal_round, load_record
from rummy500.state import IllegalAction, ResampleError, RoundState, state_from_view
from rummy500.views import View

__all__ = [
    "ACCURACY_SCALE",
    "MAX_SAMPLES",
    "THRESHOLDS",
    "Budget",
    "Decision",
    "PlayerSummary",
    "Review",
    "ReviewError",
    "accuracy_of",
    "clear_cache",
    "cores",
    "judge_moves",
    "parse_horizon",
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
        samples: determinizations in the first batch (every candidate is
            played out in each), and in each further batch.
        candidates: moves compared per decision, the move played included.
        horizon: turns played out after the candidate before the position is
            valued: ``"auto"`` (the default) as ``hard`` plays out, 4 turns
            (two turns of every seat at four or more players each alone); a
            number of turns; None: to the end of the round.
        confidence: the margin, in standard errors of the paired difference,
            by which a move must be worse than the best to lose points at all,
            and to be rated at least an inaccuracy, a mistake or a blunder
            (``loss - confidence * stderr`` must reach the threshold).
        extend: at most this many further batches of ``samples``
            determinizations (the move played against its live rivals only)
            while the verdict is in doubt (see ``reach``).
        reach: a decision stays in doubt only while the mistake threshold is
            within this many standard errors above its loss (a loss further
            below the threshold is "not a mistake", settled). The default,
            equal to ``confidence``, makes the sampling a sequential test
            that stops when the 2-standard-error interval clears the line
            either way (or at the cap).
        first_reach: ``reach`` after the first batch only (a first batch is
            the likeliest to have missed the deals where a move costs most).
        confirm: a mistake is not settled before this many batches (a batch or
            two can miss the deals where the move costs nothing, or most).
        confirm_guesses: nor before this many guesses, however few
            ``samples`` a batch holds; a mistake or blunder judged on fewer
            guesses (the cap came first) is not :attr:`Decision.sure`. At the
            default ``samples`` (6) ``confirm`` batches are more (48), so
            this only slows a smaller batch (``rummy500 review --budget 2``).
        futile: after ``confirm`` batches, a decision whose loss lies nearer
            the mistake line than ``futile * confidence`` standard errors
            *projected at the cap* (the current one times ``sqrt(n / cap)``)
            is left unsure at once: even every batch left could not settle
            it, and its playouts are worth more elsewhere (0: never).
        prior_sd: the spread (points) of a paired difference assumed before
            any is seen; it stands in for two samples in the standard error,
            so a handful of identical playouts cannot settle a verdict alone.
        estimate_unsure: an unsure decision (the guesses ran out with the
            interval still across the mistake line) takes its loss and verdict
            from the point estimate, without the ``confidence`` margin.
        settle_after: no decision is settled, either way, before this many
            batches (a first batch can miss the few deals where a move costs
            most, and look sure that it costs nothing).
        sync_stock: in each guess every seat draws the stock cards of its own
            stream (:func:`rummy500.bots.hard.stock_streams`), whichever
            candidate was played, so the candidates' playouts stay alike for
            longer and their paired difference is less noisy.
        leaf: how a playout stopped at the horizon is valued:
            ``"heuristic"`` (:func:`rummy500.bots.hard.estimate_round`),
            ``"fitted"`` (:func:`rummy500.bots.hard.fitted_round`) or
            ``"learned"`` (:func:`rummy500.bots.hard.learned_round`, a small
            network; 2-player rounds, else the fitted leaf).
        prune_after: every candidate is played out in this many batches
            before the ones that cannot be a mistake's margin better than
            the judged moves are dropped (:func:`_live`); a rival dropped
            after a batch of bad luck could never show that it was the
            better move.
    """

    samples: int = 6
    candidates: int = 3
    horizon: int | Literal["auto"] | None = "auto"
    confidence: float = 2.0
    extend: int = 255
    prior_sd: float = 20.0
    reach: float = 2.0
    first_reach: float = 2.0
    confirm: int = 8
    confirm_guesses: int = 32
    futile: float = 0.0
    estimate_unsure: bool = False
    settle_after: int = 8
    sync_stock: bool = True
    leaf: str = "fitted"
    prune_after: int = 8


#: The default budget (``rummy500 review --budget`` sets ``samples``).
DEFAULT_BUDGET = Budget()

#: The most samples per batch a review takes (``rummy500 review --budget``, the web server's
#: ``RUMMY500_REVIEW_SAMPLES``): ten times the default. A batch's playouts are all kept in
#: memory, so a budget of millions ran out of memory instead of being refused.
MAX_SAMPLES = 64


def parse_horizon(text: str) -> int | Literal["auto"] | None:
    """A ``--horizon`` value as :attr:`Budget.horizon` takes it: a number of turns (at least 1), ``auto`` or ``end``.

    >>> parse_horizon("8"), parse_horizon("auto"), parse_horizon("end")
    (8, 'auto', None)
    >>> parse_horizon("0")
    Traceback (most recent call last):
    ValueError: --horizon must be a number of turns (at least 1), auto or end, not '0'
    """
    if text in ("end", "None"):
        return None
    if text == "auto":
        return "auto"
    if text.isascii() and text.isdigit() and int(text) >= 1:
        return int(text)
    raise ValueError(f"--horizon must be a number of turns (at least 1), auto or end, not {text!r}")


def verdict_for(loss: float, stderr: float = 0.0, confidence: float = 0.0) -> str:
    """The verdict of a decision that lost ``loss`` expected points (see :data:`THRESHOLDS`).

    A verdict needs the loss to reach its threshold with a margin of
    ``confidence`` standard errors: ``loss - confidence * stderr >= threshold``.

    >>> verdict_for(9.0), verdict_for(9.0, stderr=1.0, confidence=2.0)
    ('mistake', 'inaccuracy')
    """
    sure = loss - confidence * stderr
    if sure >= THRESHOLDS["blunder"]:
        return "blunder"
    if sure >= THRESHOLDS["mistake"]:
        return "mistake"
    if sure >= THRESHOLDS["inaccuracy"]:
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
        round: the round (from 0; ``rummy500 review`` shows it from 1).
        index: the action's index within the round's ``actions`` (from 0).
        step: the action's number in the whole game (from 1), as the replay viewer counts:
            the players' actions only, a reshuffle of the record not counted.
        seat: who decided.
        phase: ``draw`` or ``play``.
        played: the move played (action text, e.g. ``discard KS``; a meld is
            numbered from 0 there, ``layoff KS on 0`` being the first meld).
        best: the best move found (the move played when none was clearly better).
        loss: expected round points lost against ``best`` (0 when it was the best).
        verdict: ``good``, ``inaccuracy``, ``mistake`` or ``blunder``.
        values: each candidate's mean value (this seat's side minus the best
            other side, in round points): first the candidates played out on
            every guess (``samples`` of them), best mean first, then those
            dropped early (see ``value_samples``). ``best`` is the first of
            them unless its lead over the move played is within the margin
            (then ``best`` is the move played).
        stderr: standard error of the paired difference between ``best`` and ``played``.
        standing: the seat's expected standing after the move: its side's total
            minus the best other total, plus the move's expected round value.
        legal: how many legal moves there were.
        samples: determinizations the move played was played out in.
        sure: whether the mistake line is settled either way with the review's
            confidence: the move is marked (``mistake`` or ``blunder``, so
            ``loss - confidence * stderr >= 8``), or no candidate may be 8
            points better (``difference + confidence * stderr < 8`` against
            every rival still played out). False: the guesses ran out (the cap
            of ``1 + extend`` batches) with the interval still across the line;
            with :attr:`Budget.estimate_unsure` the loss and the verdict are
            then the point estimate's, without the margin.
        hindsight: with ``hindsight=True``, the played and best moves' values
            with the real hidden cards (never used for the verdict), else None.
        played_action: the move played as a RECORD.md action (``{"layoff":
            ["KS"], "on": 0}``), as the web app reads actions.
        best_action: the best move found, the same way.
        value_samples: the guesses each candidate of ``values`` was played
            out in: a candidate dropped early (no rival of the judged move
            any more) has fewer, and its mean is the less certain.
        kept: where a meld or lay-off was played and the best move found is
            a discard: the cards laid, which the best move keeps in hand for
            now (waiting to lay them did better); else None.
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
    samples: int = 0
    sure: bool = True
    hindsight: dict[str, float] | None = None
    played_action: dict[str, Any] | None = None
    best_action: dict[str, Any] | None = None
    value_samples: dict[str, int] = field(default_factory=dict)
    kept: list[str] | None = None


def _kept(played: Action, best: Action) -> list[str] | None:
    """The cards a lay played laid, where the best move throws a card instead (see :attr:`Decision.kept`)."""
    if isinstance(played, (Meld, LayOff)) and isinstance(best, Discard):
        return [str(c) for c in played.cards]
    return None


@dataclass
class PlayerSummary:
    """One player's figures over the reviewed decisions.

    Attributes:
        seat: the player's seat.
        name: the player's name, as the record gives it.
        decisions: decisions reviewed.
        accuracy: mean accuracy over them (None without any).
        loss: expected points lost over them, in all.
        loss_per_round: ``loss`` divided by the rounds played (the rounds of
            the record with at least one action).
        verdicts: how many decisions got each verdict.
    """

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
    accuracy_scale: float = ACCURACY_SCALE

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data (``rummy500 review --json``)."""
        return {
            "budget": asdict(self.budget),
            "seed": self.seed,
            "rounds": self.rounds,
            "steps": self.steps,
            "thresholds": dict(self.thresholds),
            "accuracy_scale": self.accuracy_scale,
            "skipped": dict(self.skipped),
            "players": [asdict(p) for p in self.players],
            "decisions": [asdict(d) for d in self.decisions],
        }


# ---------------------------------------------------------------- the estimator
class _Estimator:
    """Candidates, rollouts and the paired comparison of one decision."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.bot = HardBot(0, horizon=budget.horizon, leaf=budget.leaf)
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

    def rollouts(self, worlds: list[RoundState], seeds: list[int], seat: int, cands: list[_Key]) -> dict[_Key, list[float]]:
        """Each candidate's values over the same worlds and random numbers (a :class:`_Then` ends its turn its way)."""
        out: dict[_Key, list[float]] = {a: [] for a in cands}
        sync = self.budget.sync_stock
        for world, seed in zip(worlds, seeds, strict=True):
            streams = stock_streams(world) if sync else None
            # In card points (the game's points times score_divisor): the thresholds, the prior spread
            # and the stopping rules mean the same in every game; review_record divides what it shows.
            k = world.rules.score_divisor
            for a in cands:
                if isinstance(a, _Then):
                    v = self.bot.playout(world.copy(), seat, a.lay, random.Random(seed), streams, then=a.discard)
                else:
                    v = self.bot.playout(world.copy(), seat, a, random.Random(seed), streams)
                out[a].append(k * v)
        return out


@dataclass(frozen=True)
class _Then:
    """A lay played out with the turn's throw fixed: ``lay``, the policy's further lays, then ``discard``.

    A meld or lay-off does not end the turn: played out plainly, the medium
    policy chooses the throw after it, and the lay would be charged with
    that throw (a throw the review judges as a decision of its own, against
    the discards the review compares, the best of which may differ). So a
    lay is also played out ending with the first discard candidate it leaves
    in hand (unless that is the policy's own throw), and judged by the
    better of its two ways to end its turn (:func:`_compare`).
    """

    lay: Action
    discard: Discard


_Key = Action | _Then


def _completions(est: _Estimator, view: View, cands: list[Action], world: RoundState | None) -> dict[Action, list[_Key]]:
    """Each candidate's ways to be played out: itself, and for a lay, the lay ending with the first discard candidate it leaves.

    The lay played plainly ends its turn with the policy's throw, which the
    seat's view alone decides (``world``, a guess of the hidden cards, is
    where it is asked): ending with that same throw is no other way.
    """
    out: dict[Action, list[_Key]] = {}
    hand = Counter(c.bare for c in view.hand)
    throws = [d for d in cands if isinstance(d, Discard)]
    for a in cands:
        ways: list[_Key] = [a]
        if view.phase == "play" and isinstance(a, (Meld, LayOff)) and world is not None:
            left = hand - Counter(c.bare for c in a.cards)
            fits = [d for d in throws if not Counter(d.cards) - left]
            if fits:
                own = _policy_throw(est, world, a)
                ways += [_Then(a, d) for d in fits if d != own][:1]
        out[a] = ways
    return out


def _policy_throw(est: _Estimator, world: RoundState, lay: Action) -> Action | None:
    """The discard the playouts' policy ends the turn with after ``lay`` (None: it ends it otherwise)."""
    state = world.copy()
    seat = state.public.to_move
    turn = state.public.turns
    rng = random.Random(0)
    try:
        state.apply(lay, seat, check=False)
        for _ in range(len(state.hands[seat]) + 1):
            if state.public.turns != turn or state.public.to_move != seat:
                return None
            action = est.bot.policy.act(state.view(seat), rng)
            if action is None or isinstance(action, Discard):
                return action
            state.apply(action, seat)
    except IllegalAction:
        return None
    return None


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _paired(a: list[float], b: list[float], prior_sd: float = 0.0) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` over the samples both have (paired).

    With ``prior_sd``, two pseudo-samples of that spread join the variance
    estimate, so a few identical differences do not give a standard error of 0.

    >>> _paired([3.0, 5.0], [1.0, 1.0])
    (3.0, 1.0)
    """
    d = [x - y for x, y in zip(a, b, strict=False)]
    m = _mean(d)
    n = len(d)
    ss = sum((x - m) ** 2 for x in d) + 2.0 * prior_sd**2
    dof = (n - 1) + (2 if prior_sd > 0 else 0)
    if n == 0 or dof <= 0:
        return m, float("inf")
    return m, math.sqrt(ss / dof / n)


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


def _rival(vals: dict[Action, list[float]], move: Action) -> Action | None:
    """The best other candidate still played out as often as ``move`` (None: there is none)."""
    n = len(vals[move])
    others = [a for a, v in vals.items() if a != move and len(v) == n]
    return max(others, key=lambda a: _mean(vals[a])) if others else None


def _loss(vals: dict[Action, list[float]], move: Action, budget: Budget) -> tuple[float, float, Action]:
    """(points lost, standard error, best move) of ``move`` against its best rival.

    The loss is the rival's mean minus the move's (paired), counted only when
    it exceeds ``budget.confidence`` standard errors; the best move is then
    the rival, else ``move`` itself.
    """
    rival = _rival(vals, move)
    if rival is None:
        return 0.0, 0.0, move
    diff, se = _paired(vals[rival], vals[move], budget.prior_sd)
    if diff > budget.confidence * se:
        return diff, se, rival
    return 0.0, se, move


def judge_moves(view: View, moves: list[Action], *, budget: Budget = DEFAULT_BUDGET, seed: str | int = 0) -> dict[str, Any]:
    """Compare several moves for ``view.seat`` on the same guesses of the hidden cards.

    The moves, and the best few others by the prior, are played out in the
    same determinizations with the same random numbers; each move's loss is
    measured against the best candidate as in a review, with the same
    adaptive sampling (more batches while any judged move's verdict is in doubt).

    Args:
        view: the seat's view (its ``legal`` holds every move).
        moves: the moves to judge (e.g. what several players would play here).
        budget: samples, candidates, horizon, confidence and extra batches.
        seed: seeds the determinizations and rollouts.

    Returns:
        ``{"best": action, "means": {action: mean}, "loss": {move: points lost},
        "stderr": {move: standard error}, "verdict": {move: verdict}, "samples": n, "sure": {move: settled}}``.
    """
    est = _Estimator(budget)
    seat = view.seat
    assert seat is not None
    cands = est.candidates(view, moves[0], moves[1:])
    vals, seeds, _ = _compare(est, view, cands, list(dict.fromkeys(moves)), str(seed))
    best = _best(vals, moves[0])
    means = {a: _mean(v) for a, v in vals.items()}
    losses = {m: _loss(vals, m, budget)[:2] for m in moves}
    return {
        "best": best,
        "means": means,
        "loss": {m: x for m, (x, _) in losses.items()},
        "stderr": {m: se for m, (_, se) in losses.items()},
        "verdict": {m: verdict_for(x, se, budget.confidence) for m, (x, se) in losses.items()},
        "samples": len(seeds),
        "sure": {m: _settled(vals, m, budget) for m in moves},
    }


def _best(vals: dict[Action, list[float]], played: Action) -> Action:
    """The candidate with the best mean over the most samples (ties: the move played)."""
    most = max(len(v) for v in vals.values())
    alive = [a for a, v in vals.items() if len(v) == most]
    return max(alive, key=lambda a: (_mean(vals[a]), a == played))


def _compare(
    est: _Estimator, view: View, cands: list[Action], judged: list[Action], seed: str
) -> tuple[dict[Action, list[float]], list[int], dict[Action, _Key]]:
    """Play the candidates out in batches of determinizations until the judged moves' verdicts are clear.

    The first ``budget.prune_after`` batches play every candidate; the
    further batches (at most ``budget.extend`` after the first) play only the
    judged moves and the other candidates still worth it then
    (:func:`_live`), on new determinizations shared by all of them, while
    some judged move's verdict is in doubt (:func:`_in_doubt`).

    A meld or lay-off is played out in two ways (:class:`_Then`): as the
    policy ends its turn, and ending it with the first discard candidate it
    leaves (see :func:`_completions`). Until ``budget.prune_after`` its values are those of its best
    way so far (the same guesses for every way); from then on only that way
    is played.

    Returns each candidate's values (the dropped candidates keep the values
    of the batches they were played in), the rollout seeds used, and the way
    each candidate was played out.
    """
    budget = est.budget
    seat = view.seat
    assert seat is not None
    rng = random.Random(seed)
    worlds, seeds = _sample(view, max(2, budget.samples), rng)
    ways = _completions(est, view, cands, worlds[0] if worlds else None)
    raw: dict[_Key, list[float]] = {k: [] for a in cands for k in ways[a]}
    chosen: dict[Action, _Key] = {}

    def folded() -> dict[Action, list[float]]:
        # Each candidate's values are those of its best way to end the turn (the same guesses for all of them).
        return {a: raw[chosen.get(a) or _best_way(raw, ways[a])] for a in cands}

    if not worlds:
        return folded(), [], {a: a for a in cands}
    for k, v in est.rollouts(worlds, seeds, seat, list(raw)).items():
        raw[k].extend(v)
    used = list(seeds)
    alive: list[_Key] = list(raw)
    for batch in range(1, 1 + max(0, budget.extend)):
        vals = folded()
        if batch == max(1, budget.prune_after):
            # From here on each candidate is played out one way only: the best so far.
            chosen = {a: _best_way(raw, ways[a]) for a in cands}
            alive = [chosen[a] for a in _live(vals, judged, budget)]
        if not any(_in_doubt(vals, m, budget) for m in judged):
            break
        worlds, seeds = _sample(view, max(2, budget.samples), rng)
        if not worlds:
            break
        for k, v in est.rollouts(worlds, seeds, seat, alive).items():
            raw[k].extend(v)
        used.extend(seeds)
    chosen = {a: chosen.get(a) or _best_way(raw, ways[a]) for a in cands}
    return folded(), used, chosen


def _best_way(raw: dict[_Key, list[float]], ways: list[_Key]) -> _Key:
    """The way of playing a candidate out with the best mean, among those played out most (the first on a tie)."""
    most = max(len(raw[k]) for k in ways)
    return max((k for k in ways if len(raw[k]) == most), key=lambda k: _mean(raw[k]))


def _in_doubt(vals: dict[Action, list[float]], move: Action, budget: Budget) -> bool:
    """Whether more samples could make ``move`` a mistake (or worse), or stop it being one.

    That is, whether against some live rival (the move played leading or
    not: a move ahead by noise may be a mistake all the same) the verdict
    "mistake" is not yet settled (``diff - confidence * stderr`` is below the
    threshold) while the threshold is within ``reach`` standard errors above
    the difference (it may still be reached: the verdict line lies above the
    threshold, so a difference far below it needs no more samples), or the
    move looks like a mistake after fewer than ``budget.confirm``
    batches or ``budget.confirm_guesses`` guesses (one batch can miss a whole
    kind of deal). The other thresholds
    are not worth more playouts: the line that matters is between the moves
    a player should look at again and the rest.
    """
    n = len(vals[move])
    if n <= (budget.settle_after - 1) * max(2, budget.samples):
        return True
    for rival, v in vals.items():
        if rival == move or len(v) != n:
            continue
        diff, se = _paired(v, vals[move], budget.prior_sd)
        if not math.isfinite(se):
            return True
        reach = budget.first_reach if n <= max(2, budget.samples) else budget.reach
        lo, hi = diff - budget.confidence * se, diff + reach * se
        if lo < THRESHOLDS["mistake"] <= hi:
            cap = max(2, budget.samples) * (1 + max(0, budget.extend))
            batches = n // max(2, budget.samples)
            near = abs(diff - THRESHOLDS["mistake"]) < budget.futile * budget.confidence * se * math.sqrt(n / cap)
            if not (batches >= budget.confirm and near):
                return True
        if lo >= THRESHOLDS["mistake"] and n < max(budget.confirm * max(2, budget.samples), budget.confirm_guesses):
            return True
    return False


def _settled(vals: dict[Action, list[float]], move: Action, budget: Budget) -> bool:
    """Whether the mistake line is settled for ``move`` with ``budget.confidence`` either way (see :attr:`Decision.sure`).

    A mistake (or blunder) is settled only on ``budget.confirm_guesses`` guesses or more.

    >>> _settled({"a": [20.0, 22.0, 21.0], "b": [0.0, 0.0, 0.0]}, "b", Budget(prior_sd=0.0, confirm_guesses=3))
    True
    >>> _settled({"a": [20.0, 22.0, 21.0], "b": [0.0, 0.0, 0.0]}, "b", Budget(prior_sd=0.0))  # a mistake on 3 guesses
    False
    >>> _settled({"a": [20.0, -4.0, 12.0], "b": [0.0, 0.0, 0.0]}, "b", Budget(prior_sd=0.0, confirm_guesses=3))
    False
    """
    loss, se, _ = _loss(vals, move, budget)
    if math.isfinite(se) and verdict_for(loss, se, budget.confidence) in ("mistake", "blunder"):
        return len(vals[move]) >= budget.confirm_guesses
    n = len(vals[move])
    for rival, v in vals.items():
        if rival == move or len(v) != n:
            continue
        diff, se = _paired(v, vals[move], budget.prior_sd)
        if not math.isfinite(se) or diff + budget.confidence * se >= THRESHOLDS["mistake"]:
            return False
    return True


def _live(vals: dict[Action, list[float]], judged: list[Action], budget: Budget) -> list[Action]:
    """The candidates worth more playouts: the judged moves, the best other, and any other that may be a mistake's margin better."""
    others = [a for a in vals if a not in judged]
    keep = list(judged)
    if others:
        keep.append(max(others, key=lambda a: _mean(vals[a])))
    for a in others:
        if a in keep:
            continue
        for m in judged:
            diff, se = _paired(vals[a], vals[m], budget.prior_sd)
            if diff + budget.reach * se >= THRESHOLDS["mistake"]:
                keep.append(a)
                break
    return keep


def _evaluate(
    est: _Estimator, view: View, played: Action, seed: str, truth: RoundState | None
) -> tuple[Action, dict[Action, float], float, float, float, dict[str, float] | None, int, bool, dict[Action, int]]:
    """(best, means, loss, stderr, played mean, hindsight, samples, sure, guesses per candidate) for one decision.

    The means come first those of the candidates played out on every guess,
    best first, then those dropped early (fewer guesses), best first.
    """
    budget = est.budget
    key = _view_key(view, played, budget, seed)
    hit = _CACHE.get(key)
    if hit is not None and (truth is None or hit[5] is not None):
        _CACHE.move_to_end(key)
        return hit
    seat = view.seat
    assert seat is not None
    cands = est.candidates(view, played)
    vals, seeds, ways = _compare(est, view, cands, [played], seed)
    means = {a: _mean(v) for a, v in vals.items()}
    loss, se, best = _loss(vals, played, budget)
    hind: dict[str, float] | None = None
    if truth is not None:
        seeds = seeds[: max(2, budget.samples)]
        real = est.rollouts([truth] * len(seeds), seeds, seat, list(dict.fromkeys([ways[played], ways[best]])))
        hind = {"played": _mean(real[ways[played]]), "best": _mean(real[ways[best]])}
    sure = _settled(vals, played, budget)
    if not sure and budget.estimate_unsure:
        loss, se, best = _loss(vals, played, replace(budget, confidence=0.0))
    order = sorted(means, key=lambda a: (-len(vals[a]), -means[a]))
    out = (best, {a: means[a] for a in order}, loss, se, means[played], hind, len(vals[played]), sure, {a: len(vals[a]) for a in order})
    _CACHE[key] = out
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out


def cores() -> int:
    """The cores this process may run on (``rummy500 review``'s default number of processes)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


_Task = tuple[View, Action, str, "RoundState | None"]
_Result = tuple[Action, dict[Action, float], float, float, float, "dict[str, float] | None", int, bool, dict[Action, int]]


def _evaluate_chunk(budget: Budget, tasks: list[_Task]) -> list[_Result]:
    """Evaluate some decisions (in a worker process)."""
    est = _Estimator(budget)
    return [_evaluate(est, view, action, seed, truth) for view, action, seed, truth in tasks]


def _evaluate_all(
    budget: Budget, tasks: list[_Task], jobs: int, progress: Callable[[int, int], None] | None
) -> list[_Result]:
    """Evaluate every decision, in ``jobs`` processes when there are enough of them, in order."""
    total = len(tasks)
    if jobs <= 1 or total < 2 * jobs:
        est = _Estimator(budget)
        out: list[_Result] = []
        for view, action, seed, truth in tasks:
            out.append(_evaluate(est, view, action, seed, truth))
            if progress is not None:
                progress(len(out), total)
        return out
    # Chunks of one or two decisions, handed out as workers free up: a few decisions take many more
    # guesses than most, and a worker left alone with a long chunk at the end wastes the others.
    size = max(1, min(2, total // (4 * jobs)))
    chunks = [tasks[i : i + size] for i in range(0, total, size)]
    results: list[list[_Result] | None] = [None] * len(chunks)
    done = 0
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=ignore_ctrl_c)
    try:
        futures = {pool.submit(_evaluate_chunk, budget, chunk): i for i, chunk in enumerate(chunks)}
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            done += len(chunks[i])
            if progress is not None:
                progress(done, total)
    except BaseException:  # Ctrl-C or an error: the queued chunks are not waited for
        stop_pool(pool)
        raise
    pool.shutdown()
    return [r for chunk in results if chunk is not None for r in chunk]


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
    """Every in-turn decision with a choice, the skipped counts and the step count.

    Steps count the players' actions, as the replay viewer does: a reshuffle
    (a chance event of the record) is no step, so the decision after it has
    the viewer's number.
    """
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
            # The replay viewer (server.workers.replay_steps) steps through the players' actions only:
            # a reshuffle is the table's chance event, in the record but no step of the viewer's
            # (nor would a decline be, a "no call" the server never takes as a move).
            if not isinstance(action, Reshuffle | Decline):
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
                raise ReviewError(f"round {r + 1} action {i + 1}: {exc}") from None
    return points, skipped, step


def _standing(rules: Any, totals: list[int], seat: int, value: float) -> float:
    sides = rules.side_sums(totals)
    mine = rules.side_of(seat)
    others = [v for k, v in enumerate(sides) if k != mine]
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
    jobs: int = 1,
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
        jobs: review the decisions in this many processes (each decision is
            seeded by itself, so the review is the same for any ``jobs``).

    Returns:
        The :class:`Review`.

    Raises:
        ReviewError: the record is malformed or an action in it is illegal (an
            illegal action's message counts rounds and actions from 1: ``round 1
            action 5: ...``; a malformed record's names the place by its JSON path,
            counting from 0: ``rounds[0].actions[4]: ...``).
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
    tasks = [(p.view, p.action, f"{seed}:{p.round}:{p.index}", p.state if hindsight else None) for p in chosen]
    decisions: list[Decision] = []
    # Judged in card points (see _Estimator.rollouts), shown in the game's own points.
    div = rules.score_divisor
    raw: list[float] = []
    for p, (best, means, loss, se, mine, hind, n, sure, counts) in zip(chosen, _evaluate_all(budget, tasks, jobs, progress), strict=True):
        raw.append(loss)
        decisions.append(
            Decision(
                round=p.round,
                index=p.index,
                step=p.step,
                seat=p.seat,
                phase=p.view.phase,
                played=str(p.action),
                best=str(best),
                loss=round(loss / div, 2),
                verdict=verdict_for(loss, se if math.isfinite(se) else 0.0, 0.0 if not sure and budget.estimate_unsure else budget.confidence),
                values={str(a): round(v / div, 2) for a, v in means.items()},
                stderr=round(se / div, 2) if math.isfinite(se) else -1.0,
                standing=round(_standing(rules, p.totals, p.seat, mine / div), 2),
                legal=len(p.view.legal),
                samples=n,
                sure=sure,
                hindsight={k2: round(v / div, 2) for k2, v in hind.items()} if hind else None,
                played_action=p.action.to_record(),
                best_action=best.to_record(),
                value_samples={str(a): c for a, c in counts.items()},
                kept=_kept(p.action, best),
            )
        )
    # Per round played: a round the record stops before its first action is not counted.
    nrounds = max(1, sum(1 for spec in rec.rounds if spec.actions))
    players = []
    for s in sorted(want):
        mine_d = [d for d in decisions if d.seat == s]
        total = sum(d.loss for d in mine_d)
        players.append(
            PlayerSummary(
                seat=s,
                name=rec.players[s],
                decisions=len(mine_d),
                accuracy=None if not mine_d else round(accuracy_of(x for x, d in zip(raw, decisions, strict=True) if d.seat == s) or 0.0, 1),
                loss=round(total, 1),
                loss_per_round=round(total / nrounds, 1),
                verdicts={v: sum(1 for d in mine_d if d.verdict == v) for v in VERDICTS},
            )
        )
    return Review(
        players, decisions, len(rec.rounds), steps, budget, seed, skipped,
        thresholds={k: v / div for k, v in THRESHOLDS.items()}, accuracy_scale=ACCURACY_SCALE / div,
    )
