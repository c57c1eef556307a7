"""The ``hard`` level: information-set Monte Carlo search over determinizations.

Strategy. ``hard`` plays the turns' routine steps like ``medium`` (it answers
out-of-turn chances the same way, and picks the meld or lay-off that keeps
the most points layable) and searches the decisions that swing a round:
**how to draw** (the stock, or how deep to dig into the pile), **what to
discard**, and (``hold_back``, on by default) **whether to lay now** or
keep the cards in hand a while (the best discard instead). Under
``masters_hand`` a Master's Hand this turn is a candidate too (worth the
round's 500 less the seat's table points, so it is played at once).

For such a decision it scores the actions with the medium heuristics (the
stock valued by averaging over every card it may hold), keeps those within a
margin of the best (at most a few), and when more than one is left runs an
information-set Monte Carlo search:

1. **Determinize.** Deal the cards this seat cannot see at random, consistent
   with everything it saw (:mod:`rummy500.bots.determinize`: known pickups stay
   in their holders' hands, hand sizes and the stock size are respected).
2. **Play out.** In that position, play each candidate and then a fast default
   policy (the medium heuristics, for every seat, on the views of the
   determinized position) for ``horizon`` turns (by default 4, but two turns
   of every seat at four or more players each alone; None: to the end of
   the round). With ``sync_stock`` (the default) every seat draws the
   same stock cards whichever candidate was played (:func:`stock_streams`).
3. **Evaluate.** A finished round is worth its real score difference; an
   unfinished one is valued per side by the leaf (:data:`LEAVES`): by default
   :func:`fitted_round`, weights fitted to how rounds played by the medium
   policy really end (the game review's judge). The reward is this seat's
   side minus the best opposing side.

Every candidate is played out in the same determinizations with the same
random numbers (common random numbers), so the comparison between candidates
is paired and far less noisy than the raw outcomes; after half the budget the
weaker half of the candidates is dropped (successive halving). The budget is a
number of playouts (:attr:`HardBot.iterations`, deterministic for a given
seed), optionally capped by a time limit.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from rummy500 import fastmeld
from rummy500.actions import Action, CallRummy, Decline, Discard, Draw, LayOff, Meld, Pass, Take
from rummy500.bots.base import Bot
from rummy500.bots.determinize import DeterminizeError, determinize
from rummy500.bots.heuristics import Analysis, _need, bare
from rummy500.bots.leaves import (
    LEAF_FEATURES,
    LEAF_WEIGHTS,
    LEAVES,
    estimate_round,
    fitted_round,
    leaf_features,
    learned_round,
)
from rummy500.bots.medium import MediumBot
from rummy500.cards import JOKER, Card, card
from rummy500.drive import Agent, AgentError, drive
from rummy500.public import Phase
from rummy500.scoring import in_round_points
from rummy500.views import View

if TYPE_CHECKING:
    from rummy500.events import Event
    from rummy500.rules import Rules
    from rummy500.state import Decision, RoundState

__all__ = [
    "LEAF_FEATURES",
    "LEAF_WEIGHTS",
    "LEAVES",
    "HardBot",
    "Searched",
    "estimate_round",
    "fitted_round",
    "infer_weights",
    "leaf_features",
    "learned_round",
    "win_chance",
]

#: A playout "to the end of the round" stops after this many turns (long
#: rounds under ``stock_out: play_on`` or ``reshuffle``) and is estimated.
MAX_PLAYOUT_TURNS = 40

#: ``horizon="auto"``: playouts of this many turns at two or three players and in partnerships,
AUTO_TURNS = 4
#: and of this many turns of every seat (``2 × players`` in all) at four or more players each alone.
AUTO_LAPS = 2

#: ``win_chance``: a side scores about this share of the match's goal in a round ...
ROUND_SHARE = 0.2
#: ... and the difference between two sides' round scores spreads by about this share of the goal
#: (its standard deviation: 61 points over 963 rounds of ``hard`` against ``medium`` to 500).
ROUND_SPREAD = 0.12

#: ``inference``: the weight of a hidden card for an opponent, per card of theirs it
#: shares a rank with, or sits next to (one, two apart) in a suit: for a card they
#: discarded (they would have kept a card with partners) ...
DISCARD_WEIGHTS = (0.6, 0.6, 0.8)
#: ... and for a card they let lie on top of the pile (it would have melded with partners).
DECLINE_WEIGHTS = (0.5, 0.5, 0.75)

#: ``consistent``: a hand that holds a meld its seat would have laid is dealt again at most
#: this many times ...
MAX_DEALS = 40
#: ... and then repaired by at most this many swaps with the stock.
MAX_SWAPS = 24


def _lay_key(a: Action) -> tuple[tuple[Card, ...], int | None]:
    """A meld's or lay-off's hand cards (bare, sorted) and the meld it extends (None: a new meld)."""
    assert isinstance(a, (Meld, LayOff))
    return _need(tuple(a.cards)), a.on if isinstance(a, LayOff) else None


class _PlayoutPolicy(MediumBot):
    """The medium heuristics without memory: the default policy of playouts."""

    level = "medium-playout"

    def _observe(self, view: View) -> None:
        return None


class HardBot(Bot):
    """ISMCTS over determinizations with medium-policy playouts.

    Args:
        seed: seeds the bot's own randomness.
        iterations: playouts per searched decision (split among candidates).
        candidates: how many of the heuristically best actions are searched.
        horizon: turns (of all seats together) played out after the
            candidate before evaluating; ``"auto"`` (the default): 4 turns
            at two or three players and in partnerships, two turns of every
            seat at four or more players each alone (8 at four, 12 at six;
            :meth:`turns_ahead`); None: to the end of the round, at most
            :data:`MAX_PLAYOUT_TURNS`. Four turns at two players valued by the
            fitted leaf cost about 2.4 times less than playouts to the end of
            the round and their paired differences spread about half as far.
            At four players alone 4 turns (one turn of each seat) won a
            third of the games against three ``medium`` seats, 8 half of
            them; at three players 6 turns won fewer games than 4, and in
            partnerships 8 as many (``docs/bots.md``).
        margin: heuristic points within which actions are close enough to search.
        confidence: standard errors by which a candidate must beat the
            heuristic favourite in paired playouts to be chosen instead.
        time_limit: stop searching after this many seconds (None: no limit;
            a limit makes play depend on the machine's speed).
        hold_back: also search holding a meld or lay-off back (the best
            discard instead) where the heuristics would lay at once; the lay
            stays the favourite unless the playouts clearly prefer waiting.
        win_chance: value a playout by the estimated chance of winning the
            match from the totals it ends with (:func:`win_chance`) instead
            of by the round's score margin.
        inference: deal each opponent's hidden cards weighted by what they
            discarded and what they let lie on the pile (:func:`infer_weights`)
            instead of uniformly.
        consistent: repair each determinization so that every other seat that
            has played a turn since the deal (and may lay freely) holds no meld
            it could have laid, nor one with the card of this seat it let lie
            on the pile (:func:`conform`): players lay what they can, as the
            medium policy of the playouts does.
        discard_model: each determinization is chosen among this many deals
            (0 or 1: the first) with chances in proportion to how likely the
            medium heuristics, holding the last thrower's dealt hand and the
            card it threw, were to throw that card
            (:func:`discard_likelihood`): hands that would have kept the card
            they threw are dealt less often.
        sync_stock: in each determinization every seat draws the stock cards
            of its own stream (:func:`stock_streams`, :class:`_Streams`),
            whichever candidate was played, so the candidates' playouts stay
            alike for longer and their paired comparison is less noisy.
        leaf: how a playout stopped before the end of the round is valued
            (:data:`LEAVES`, :mod:`rummy500.bots.leaves`): ``"heuristic"``
            (:func:`estimate_round`), ``"fitted"`` (:func:`fitted_round`,
            the game review's choice) or ``"learned"`` (:func:`learned_round`,
            a small network trained on the same rounds; at two players).
        endgame: when the stock holds at most this many cards, or another
            seat holds at most two, the decision's playouts run to the end of
            the round (real scores instead of the leaf's estimate; 0: never).
        draw_candidates: how many draws (the stock, pile depths) are searched
            (None: :attr:`candidates`).
        draw_margin: heuristic points within which draws are searched
            (None: :attr:`margin`).
        lay_choices: where the plan would lay a meld or lay-off, also search
            this many other lays (0: none): the best-valued melds and
            lay-offs that are not part of the hand's best plan, within
            :attr:`margin` of the plan's value (another way to split the
            cards between melds, or a lay-off instead of a meld).
    """

    level = "hard"

    #: Decisions with this many cards or fewer in hand are not searched.
    TRIVIAL_HAND = 2

    #: Playouts per searched decision, by default (``expert`` makes a multiple of it).
    ITERATIONS = 48

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int = ITERATIONS,
        candidates: int = 3,
        horizon: int | Literal["auto"] | None = "auto",
        margin: float = 10.0,
        confidence: float = 1.0,
        time_limit: float | None = None,
        hold_back: bool = True,
        win_chance: bool = False,
        inference: bool = False,
        consistent: bool = False,
        discard_model: int = 0,
        sync_stock: bool = True,
        leaf: str = "fitted",
        endgame: int = 0,
        draw_candidates: int | None = None,
        draw_margin: float | None = None,
        lay_choices: int = 0,
        structure: float = 0.0,
    ) -> None:
        super().__init__(seed)
        self.iterations = max(0, int(iterations))
        self.candidates = max(1, int(candidates))
        if horizon is not None and horizon != "auto" and (isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1):
            raise ValueError(f"horizon must be a number of turns (at least 1), 'auto' or None, not {horizon!r}")
        self.horizon = horizon
        if leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}, not {leaf!r}")
        self.leaf = LEAVES[leaf]
        self.time_limit = time_limit
        self.hold_back = bool(hold_back)
        self.margin = float(margin)
        self.confidence = float(confidence)
        self.win_chance = bool(win_chance)
        self.inference = bool(inference)
        self.consistent = bool(consistent)
        self.discard_model = max(0, int(discard_model))
        self.sync_stock = bool(sync_stock)
        self.endgame = max(0, int(endgame))
        self.draw_candidates = self.candidates if draw_candidates is None else max(1, int(draw_candidates))
        self.draw_margin = self.margin if draw_margin is None else float(draw_margin)
        self.lay_choices = max(0, int(lay_choices))
        self.structure = max(0.0, float(structure))
        self.guide = MediumBot(seed)
        self.policy = _PlayoutPolicy(seed)
        self.last_reason = ""
        self.last_stats: dict[str, float] = {}
        #: What the last decision's search found (None: the decision was not searched).
        self.last_search: Searched | None = None
        #: Whether the last decision's search stopped at :attr:`time_limit` before its full budget.
        self.timed_out = False
        # What the opponents let lie this round: per seat, the cards this seat discarded
        # that the next seat did not take (see _track).
        self._declined: dict[int, list[Card]] = {}
        self._my_discard: Card | None = None
        #: The cards this seat threw this round (kept by :meth:`act`, read by :meth:`score_actions`).
        self._thrown: set[Card] = set()
        self._scores: tuple[int, ...] | None = None

    # ------------------------------------------------------------ decisions
    def choose(self, view: View, rng: random.Random) -> Action:
        action = self._choose(view, rng)
        self._my_discard = action.cards[0] if isinstance(action, Discard) and len(action.cards) == 1 else None
        return action

    def act(self, view: View, rng: random.Random | None = None) -> Action | None:
        # Every card this seat throws this round is remembered, a forced throw (the only legal
        # move, which never reaches choose()) too; a new round forgets them.
        if view.seat == view.to_move and self.guide._new_round(view):
            self._thrown = set()
        action = super().act(view, rng)
        if isinstance(action, Discard) and view.seat == view.to_move:
            self._thrown.update(action.cards)
        return action

    def _track(self, view: View) -> None:
        """Remember which of this seat's discards the next seat let lie (for :attr:`inference`).

        Called before the guide observes ``view``: a new round is recognised
        as the guide recognises it (another dealer, or the stock grew back
        over an empty table), and what was let lie is forgotten with it.
        """
        if self.guide._new_round(view):
            self._declined = {}
            self._my_discard = None
        mine = self._my_discard
        if mine is not None and view.phase == "draw" and view.seat is not None:
            nxt = (view.seat + view.rules.step) % view.players
            if mine in view.discard and mine not in view.known[nxt]:
                self._declined.setdefault(nxt, []).append(mine)
            self._my_discard = None

    def _choose(self, view: View, rng: random.Random) -> Action:
        guide = self.guide
        self._track(view)
        guide._observe(view)
        self.last_stats = {}
        self.last_search = None
        self.timed_out = False
        legal = list(view.legal)
        special = guide.special(view, legal, rng)
        if special is not None:
            self.last_reason = guide.last_reason
            return special
        if len(legal) == 1:
            self.last_reason = f"{legal[0]} is the only move"
            return legal[0]
        guide.last_reason = ""  # (a reason of the guide's last decision would explain the wrong move)
        an = guide.analysis(view)
        safe = an.rummy_safe_play(legal) if guide.rummy_wary else None
        if safe is not None:
            self.last_reason = f"{safe}: going out now would leave a Rummy in the pile"
            return safe
        ranked = self._candidates(view, an, legal)
        if len(ranked) == 1 or self.iterations <= 0 or self._trivial(view):
            self.last_reason = guide.last_reason or f"{ranked[0]} is clearly best by the heuristics"
            return ranked[0]
        return self._search(view, ranked, rng)

    def _trivial(self, view: View) -> bool:
        """A decision not worth a search: a hand of at most :attr:`TRIVIAL_HAND` cards.

        With one or two cards left the heuristics already see every way out
        (take what goes out, lay everything, keep the card that can still go
        out); playouts only add noise and time.
        """
        return len(view.hand) <= self.TRIVIAL_HAND

    def _endgame(self, view: View) -> bool:
        """Whether the round is near its end (:attr:`endgame`): playouts then run to it."""
        if not self.endgame or view.seat is None:
            return False
        others = [n for s, n in enumerate(view.hand_sizes) if s != view.seat]
        return view.stock_count <= self.endgame or (bool(others) and min(others) <= 2)

    def out_of_turn(self, view: View, rng: random.Random) -> Action | None:
        act = self.guide.out_of_turn(view, rng)
        self.last_reason = self.guide.last_reason
        return act

    def _candidates(self, view: View, an: Analysis, legal: list[Action]) -> list[Action]:
        """The actions worth searching, best first, within :attr:`margin` of the best."""
        scored = self.score_actions(view, an, legal)
        if not scored:
            return legal[:1]
        scored.sort(key=lambda s: -s[0])
        top = scored[0][0]
        drawing = view.phase == "draw"
        margin = self.draw_margin if drawing else self.margin
        return [a for v, a in scored if v >= top - margin][: self.draw_candidates if drawing else self.candidates]

    def score_actions(self, view: View, an: Analysis, legal: list[Action]) -> list[tuple[float, Action]]:
        """Heuristic values of the decision's actions (higher is better).

        Draws: the stock is valued by averaging over every card it may hold
        (``medium`` uses a rule of thumb); pile takes as ``medium`` values
        them. Discards: what the card may still become, against the risk of
        being caught with it and what it gives the opponents, as ``medium``
        scores them. A meld or lay-off that keeps the most points layable is
        played at once. (``masters_hand``) The next play of a Master's Hand
        this turn (:meth:`~rummy500.bots.heuristics.Analysis.masters_play`)
        is a candidate worth the round's score less the seat's table points.
        """
        out: list[tuple[float, Action]] = []
        if view.phase == "draw":
            for a in legal:
                match a:
                    case Draw():
                        out.append((an.expected_draw_value(), a))
                    case Take(n, split):
                        # A card this seat threw this round is worth taking back only to use it now:
                        # kept in hand it was the card the seat wanted least. (Without this rule two
                        # seats can pass the same few cards between them through the pile for ever,
                        # each taking the other's throw to pair with the card it holds.)
                        back = view.discard[-n] in self._thrown
                        v = an.take_value(n, must_use=back or an.must_use(n, split=split), split=split)
                        if v > float("-inf"):
                            out.append((v - (4.0 if split else 0.0), a))
                    case CallRummy(n, None, None):  # steals are decided by the guide's special()
                        v = an.take_value(n, must_use=True)
                        if v > float("-inf"):
                            out.append((v, a))
                    case Pass():
                        out.append((0.0, a))
            return out
        lay, v = an.best_lay(legal)
        discards = [a for a in legal if isinstance(a, Discard)]
        masters = self.guide.masters(an, legal, v)
        if masters is not None:
            # A Master's Hand this turn: the round's score at once, searched against the usual lay
            # or discard (its playouts end the round, so only a far better line could beat it).
            act, worth = masters
            if lay is not None and v > 0:
                return [(worth, act), (float(v), lay)]
            return [(worth, act), *((-an.discard_score(d.cards), d) for d in discards if d != act)]
        if lay is not None and v > 0:
            self.guide.last_reason = f"{lay} keeps {v:.0f} points layable"
            out = [(float(v), lay)]
            if self.hold_back and discards and len(view.hand) > self.TRIVIAL_HAND + 2:
                wait = max(discards, key=lambda d: -an.discard_score(d.cards))
                out.append((float(v) - self.margin / 2, wait))
            if self.lay_choices:
                out += self._other_lays(an, legal, lay, float(v))
            return out
        if discards:
            return [(-an.discard_score(d.cards), d) for d in discards]
        others = [a for a in legal if isinstance(a, (Meld, LayOff))]
        return [(0.0, a) for a in (others or legal)[:1]]

    def _other_lays(self, an: Analysis, legal: list[Action], lay: Action, best: float) -> list[tuple[float, Action]]:
        """Up to :attr:`lay_choices` lays outside the hand's best plan, within :attr:`margin` of ``best``.

        Every group of the best plan is worth the plan's value when laid
        first (the rest of the plan follows), so laying them in another order
        is no choice; a meld or lay-off outside the plan splits the cards
        another way. ``lay`` (the heuristics' choice) and any other way of
        writing the same cards on the same meld are left out too.
        """
        seen = {(g.need, g.on) for g in an.base()[1]}
        seen.add(_lay_key(lay))
        others: list[tuple[float, Action]] = []
        for a in legal:
            if not isinstance(a, (Meld, LayOff)):
                continue
            key = _lay_key(a)
            if key in seen:
                continue
            seen.add(key)
            w = an.lay_value(a)
            if w >= best - self.margin:
                others.append((w, a))
        others.sort(key=lambda s: -s[0])
        return others[: self.lay_choices]

    # ------------------------------------------------------------ search
    def _search(self, view: View, cands: list[Action], rng: random.Random) -> Action:
        """Play every candidate out in the same determinizations; keep the favourite unless beaten clearly.

        The heuristic favourite (``cands[0]``) is replaced only when another
        candidate beats it by more than :attr:`confidence` standard errors of
        their paired differences: with a few dozen playouts the noise is of the
        same size as the differences between close moves, and a change of
        mind on noise alone costs more than it gains.
        """
        r = random.Random(rng.getrandbits(64))
        start = time.perf_counter()
        seat = view.seat
        assert seat is not None
        self._scores = view.scores if self.win_chance else None
        to_end = self._endgame(view)
        guess = self.guesser(view)
        results: dict[Action, dict[int, float]] = {a: {} for a in cands}
        alive = list(cands)
        budget = self.iterations
        used = 0
        it = 0
        half_done = False
        while used < budget and alive:
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                self.timed_out = True
                break
            try:
                world = guess(r)
            except DeterminizeError:
                break
            seed = r.getrandbits(64)
            streams = stock_streams(world) if self.sync_stock else None
            for a in alive:
                results[a][it] = self.playout(world.copy(), seat, a, random.Random(seed), streams, to_end=to_end)
                used += 1
            it += 1
            if not half_done and used >= budget // 2 and len(alive) > 2:
                half_done = True
                alive.sort(key=lambda a: -_mean(results[a]))
                alive = alive[: max(2, len(alive) // 2)]
        fav = cands[0]
        best, edge = fav, 0.0
        for a in cands[1:]:
            shared = [i for i in results[a] if i in results[fav]]
            if len(shared) < 2:
                continue
            diffs = [results[a][i] - results[fav][i] for i in shared]
            mean = sum(diffs) / len(diffs)
            var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
            se = (var / len(diffs)) ** 0.5
            if mean > self.confidence * se and mean > edge:
                best, edge = a, mean
        self.last_stats = {"playouts": float(used), "seconds": time.perf_counter() - start}
        n = len(results[best])
        self.last_search = Searched(best, fav, edge, n, _mean(results[best]) if n else 0.0, partners=view.rules.n_sides != view.rules.players)
        self.last_reason = self.last_search.words(str)
        return best

    def guesser(self, view: View) -> Callable[[random.Random], RoundState]:
        """How this bot guesses the cards ``view`` hides: a function dealing one guess per call.

        The deal follows the bot's settings (:attr:`inference`,
        :attr:`discard_model`, :attr:`consistent`) and its memory of the
        round; the guess is consistent with ``view``.

        Raises (when called):
            DeterminizeError: the view does not add up to a position.
        """
        weights = infer_weights(view, self.guide._seen_discards, self._declined) if self.inference else None
        last = {o: cards[-1] for o, cards in self._declined.items() if cards}
        throw = _last_throw(view, self.guide._seen_discards) if self.discard_model > 1 else None
        deals = self.discard_model
        consistent = self.consistent
        beta = self.structure

        def guess(r: random.Random) -> RoundState:
            world = determinize(view, r, weights)
            if throw is not None:
                more = [determinize(view, r, weights) for _ in range(deals - 1)]
                world = _likeliest([world, *more], *throw, r)
            if consistent:
                conform(world, view, r, last)
            if beta > 0:
                structure(world, view, r, beta)
            return world

        return guess

    def playout(
        self,
        state: RoundState,
        seat: int,
        first: Action,
        rng: random.Random,
        streams: list[list[int]] | None = None,
        *,
        to_end: bool = False,
        then: Discard | None = None,
    ) -> float:
        """Play ``first`` then the default policy; return ``seat``'s side advantage.

        With ``streams`` (:func:`stock_streams` of the position), every draw
        from the stock takes the drawing seat's next card of its own stream
        (:class:`_Streams`), so the candidates of one guess deal each seat the
        same stock cards however their turns go. ``to_end`` plays to the end of
        the round whatever :attr:`horizon` says (:attr:`endgame`). ``then``
        (after a meld or lay-off): where the policy would end this turn with
        another discard, ``seat`` throws ``then`` instead, if it may
        (:class:`_Finish`; the game review judges a lay apart from the
        throw that follows it).
        """
        start = state.public.turns  # the horizon counts from the decision, whatever ``first`` is
        agents: list[Agent] = [self.policy] * state.n
        if streams is not None:
            synced = _Streams(state, streams, self.policy)
            agents = [synced] * state.n
            if isinstance(first, Draw):
                synced.arrange(seat)
        if then is not None:
            agents = list(agents)
            agents[seat] = _Finish(agents[seat], seat, start, then)
        state.apply(first, seat, check=False)
        horizon = MAX_PLAYOUT_TURNS if to_end else self.turns_ahead(state.rules)
        steps = [0]

        def count(_d: Decision, action: Action, _e: list[Event]) -> None:
            if not isinstance(action, Decline):
                steps[0] += 1

        with contextlib.suppress(AgentError):  # the policy found no move: score what there is
            drive(
                state,
                agents,
                rng,
                until=lambda: state.public.turns - start >= horizon or steps[0] >= 400,
                observe=count,
            )
        return self._evaluate(state, seat)

    def turns_ahead(self, rules: Rules) -> int:
        """How many turns a playout runs after its candidate under ``rules`` (:attr:`horizon`).

        >>> from rummy500.rules import Rules
        >>> [HardBot().turns_ahead(Rules(players=n)) for n in (2, 3, 4, 6)]
        [4, 4, 8, 12]
        >>> HardBot().turns_ahead(Rules(players=4, partnership=True)), HardBot(horizon=5).turns_ahead(Rules(players=4))
        (4, 5)
        >>> HardBot(horizon=None).turns_ahead(Rules()) == MAX_PLAYOUT_TURNS
        True
        """
        if self.horizon is None:
            return MAX_PLAYOUT_TURNS
        if self.horizon == "auto":
            alone = rules.n_sides == rules.players  # no partnerships
            return AUTO_LAPS * rules.players if alone and rules.players >= 4 else AUTO_TURNS
        return self.horizon

    def _evaluate(self, state: RoundState, seat: int) -> float:
        rules = state.rules
        n = state.n
        if state.is_over and state.result is not None:
            per_seat = [float(x) for x in state.result.round_scores]
        else:
            # The leaf estimates in card points; a finished round's scores and the match totals are
            # divided by score_divisor: every value in the game's own points.
            per_seat = [in_round_points(v, rules) for v in self.leaf(state)]
        mine = rules.side_of(seat)
        scores = self._scores
        goal = rules.winning_total
        if scores is not None and len(scores) == n and goal is not None:
            totals = rules.side_sums([scores[s] + per_seat[s] for s in range(n)])
            rest = [v for k, v in enumerate(totals) if k != mine]
            return win_chance(totals[mine], max(rest), goal) if rest else 1.0
        sides = rules.side_sums(per_seat)
        others = [v for k, v in enumerate(sides) if k != mine]
        return sides[mine] - (max(others) if others else 0.0)


#: ``discard_model``: a thrown card this many points of ``discard_score`` worse than the
#: hand's best throw is ``e`` times less likely.
THROW_TEMPERATURE = 3.0


def stock_streams(state: RoundState) -> list[list[int]]:
    """Each seat's stream of the stock: the stock dealt out in turn order, top card first.

    The seat due to draw next (the seat to move in the draw phase, else the
    next seat) gets the top card, the seat after it the second, and so on: the
    cards each seat would draw if everyone drew from the stock. A stream lists
    places in ``state.stock`` (bottom first, as the engine keeps it).
    """
    n = state.n
    step = state.rules.step
    pub = state.public
    seat = pub.to_move if pub.phase is Phase.DRAW else (pub.to_move + step) % n
    out: list[list[int]] = [[] for _ in range(n)]
    for place in range(len(state.stock) - 1, -1, -1):
        out[seat].append(place)
        seat = (seat + step) % n
    return out


class _Streams:
    """A playout's agent that gives every seat the stock cards of its own stream.

    Before a seat's draw from the stock is applied, the card of the next place
    of its stream still in the stock is swapped to the top (a seat whose stream
    is spent takes the top card as it is; after a reshuffle, a new shuffle,
    every seat does). Each playout alone still draws like a shuffled stock:
    the next place of a stream is a place nobody has looked at yet, of a
    uniformly shuffled stock, whichever place the course of play picks, so its
    card is equally likely to be any card not yet seen. Across the candidates
    of one guess the same seat draws the same cards even when one candidate
    changes who draws from the stock when (a take from the pile instead of the
    stock): their playouts stay alike for longer, and the paired comparison is
    less noisy.
    """

    __slots__ = ("next", "places", "policy", "state", "stock", "streams")

    def __init__(self, state: RoundState, streams: list[list[int]], policy: Agent) -> None:
        self.state = state
        self.stock = state.stock
        #: Where each card of the stock list came from (its place in the stock the streams were made for).
        self.places = list(range(len(state.stock)))
        self.streams = streams
        self.next = [0] * len(streams)
        self.policy = policy

    def act(self, view: View, rng: random.Random) -> Action | None:
        action = self.policy.act(view, rng)
        if isinstance(action, Draw) and view.seat is not None:
            self.arrange(view.seat)
        return action

    def arrange(self, seat: int) -> None:
        """Put the card of ``seat``'s next stream place still in the stock on top of the stock."""
        stock = self.state.stock
        if stock is not self.stock:
            return  # reshuffled: a new shuffle, the streams are spent
        places = self.places
        del places[len(stock) :]  # cards leave the stock from the top only
        stream = self.streams[seat]
        i = self.next[seat]
        top = len(stock) - 1
        while i < len(stream):
            place = stream[i]
            i += 1
            try:
                j = places.index(place)
            except ValueError:
                continue  # drawn already (by another seat, from the top)
            stock[j], stock[top] = stock[top], stock[j]
            places[j], places[top] = places[top], place
            break
        self.next[seat] = i


class _Finish:
    """An agent that ends one turn of ``seat`` with the discard ``then`` wherever its policy would throw another card.

    The policy's lays of that turn are kept; ``then`` replaces only a
    different discard, and only while it is legal. The game review plays a
    lay candidate out this way (:meth:`HardBot.playout`'s ``then``) so that
    the lay is not charged with the throw the policy would make after it.
    """

    __slots__ = ("policy", "seat", "then", "turn")

    def __init__(self, policy: Agent, seat: int, turn: int, then: Discard) -> None:
        self.policy = policy
        self.seat = seat
        self.turn = turn
        self.then = then

    def act(self, view: View, rng: random.Random) -> Action | None:
        action = self.policy.act(view, rng)
        if (
            isinstance(action, Discard)
            and action != self.then
            and view.turns == self.turn
            and view.to_move == self.seat
            and self.then in view.legal
        ):
            return self.then
        return action


def _last_throw(view: View, seen: Mapping[int, list[Card]]) -> tuple[int, Card] | None:
    """The opponent who threw last and the card, while nobody has thrown since (public).

    Only the latest throw is modelled: the thrower's hand has not changed
    since, so it is the hand they held then less the card. (An earlier throw
    of another seat was followed by their later draws and lays.)
    """
    seat, o = view.seat, view.last_discarder
    rules = view.rules
    if seat is None or o is None or o == seat or rules.side_of(o) == rules.side_of(seat):
        return None
    cards = seen.get(o)
    if not cards or view.hand_sizes[o] == 0:
        return None
    return o, cards[-1]


def discard_likelihood(world: RoundState, seat: int, thrown: Card) -> float:
    """How likely the medium heuristics were to throw ``thrown`` from ``seat``'s dealt hand plus that card.

    ``exp(-(score(thrown) - best) / THROW_TEMPERATURE)`` with the heuristics'
    :meth:`~rummy500.bots.heuristics.Analysis.discard_score` of each card of
    the hand (lower is a better throw), judged on ``seat``'s view of the
    guessed position: 1 when ``thrown`` is the card they would have thrown.
    """
    view = world.view(seat)
    pile = view.discard
    if pile and pile[-1] == thrown:
        pile = pile[:-1]
    before = replace(view, hand=tuple(sorted((*view.hand, thrown))), discard=pile)
    an = Analysis(before, track_opponents=False)
    scores = {c: an.discard_score((c,)) for c in set(before.hand)}
    return math.exp(-(scores[thrown] - min(scores.values())) / THROW_TEMPERATURE)


def _likeliest(worlds: list[RoundState], thrower: int, thrown: Card, rng: random.Random) -> RoundState:
    """One of the guessed positions, drawn in proportion to the chance of the thrower's last throw in each."""
    weights = [discard_likelihood(w, thrower, thrown) for w in worlds]
    return rng.choices(worlds, weights)[0] if sum(weights) > 0 else worlds[0]


def win_chance(mine: float, other: float, goal: int) -> float:
    """The chance that a side with total ``mine`` wins the match against one with ``other``.

    Once a total reaches ``goal`` the higher total has won. Before, each
    round left is taken to add a difference spread normally by
    :data:`ROUND_SPREAD` of the goal, and the rounds left to be about the
    leader's distance to the goal over :data:`ROUND_SHARE` of it (at least one).
    """
    lead = max(mine, other)
    if lead >= goal and mine != other:
        return 1.0 if mine > other else 0.0
    rounds = max(1.0, (goal - lead) / (ROUND_SHARE * goal))
    z = (mine - other) / (ROUND_SPREAD * goal * math.sqrt(rounds))
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def infer_weights(view: View, discarded: Mapping[int, list[Card]], declined: Mapping[int, list[Card]]) -> dict[int, dict[Card, float]]:
    """Per opponent, a weight for each unseen natural card of being in their hand.

    A player who threw a card, or let one lie on top of the pile, probably
    holds no partner for it: a card of its rank or its suit neighbours
    (one or two apart) is less likely in their hand. Each such card they
    threw or let lie multiplies a hidden card's weight by
    :data:`DISCARD_WEIGHTS` or :data:`DECLINE_WEIGHTS` (same rank, one apart,
    two apart). Read only from the view and this seat's memory of it.
    """
    out: dict[int, dict[Card, float]] = {}
    seat = view.seat
    for s in range(view.players):
        if s == seat:
            continue
        marks = [(c, DISCARD_WEIGHTS) for c in discarded.get(s, ()) if c != JOKER and c < 64]
        marks += [(c, DECLINE_WEIGHTS) for c in declined.get(s, ()) if c != JOKER and c < 64]
        if not marks:
            continue
        w: dict[Card, float] = {}
        for suit in range(4):
            for rank in range(1, 14):
                x = 1.0
                for c, (same, one, two) in marks:
                    cr, cs = c & 15, c >> 4
                    if cr == rank and cs != suit:
                        x *= same
                    elif cs == suit:
                        gap = abs(cr - rank)
                        gap = min(gap, 13 - gap)
                        if gap == 1:
                            x *= one
                        elif gap == 2:
                            x *= two
                if x != 1.0:
                    w[card(suit * 16 + rank)] = x
        out[s] = w
    return out


def conform(world: RoundState, view: View, rng: random.Random, declined: Mapping[int, Card]) -> None:
    """Deal again the hidden cards of a seat that holds a meld it would have laid.

    A seat that has played a turn since the deal and may lay any meld
    (``view.opened``) would have laid every meld its hand holds (the medium
    policy does); and when it let this seat's last discard lie on the pile
    (``declined``), that card made no meld with its hand either. For each
    such seat whose hand breaks this, its hidden cards and the stock are
    shuffled together and dealt again (the cards it was seen taking stay),
    up to :data:`MAX_DEALS` times, until its hand holds no such meld:
    rejection sampling, so the deal is drawn from the uniform deals that
    agree with the seat's play. When no deal agrees, the last one is kept
    and the meld's hidden cards are swapped with stock cards, at most
    :data:`MAX_SWAPS` times. The position stays consistent with the view:
    only which unseen card lies where changes.
    """
    seat = view.seat
    rules = view.rules
    n = view.players
    t = fastmeld.tables(rules)
    stock = world.stock
    changed = False
    for o in range(n):
        if o == seat or not view.opened[o] or not stock:
            continue
        # Seat o has played a turn when its place in the turn order (the dealer's is n) is reached.
        place = ((o - view.dealer) * rules.step) % n or n
        if view.turns < place:
            continue
        hand = world.hands[o]
        known = list(view.known[o])
        c = declined.get(o)
        if not _melds_with(t, hand, c):
            continue
        changed = True
        hidden = list(hand)
        for x in known:
            hidden.remove(x)
        pool = hidden + stock
        need = len(hidden)
        for _ in range(MAX_DEALS):
            rng.shuffle(pool)
            hand[:] = known + pool[:need]
            if not _melds_with(t, hand, c):
                break
        stock[:] = pool[need:]
        for _ in range(MAX_SWAPS):
            melds = _melds_with(t, hand, c)
            if not melds:
                break
            meld = melds[rng.randrange(len(melds))]
            movable = [x for x in bare(meld) if hand.count(x) > known.count(x)]
            if not movable:
                break
            x = movable[rng.randrange(len(movable))]
            j = rng.randrange(len(stock))
            hand[hand.index(x)], stock[j] = stock[j], x
    if changed:
        world.forget_caches()


#: ``structure``: swaps proposed per opponent and guess (:func:`structure`).
STRUCTURE_STEPS = 60


def linked(hand: list[Card]) -> int:
    """How many cards of ``hand`` work with another: a natural card with a partner in the hand (a card of the same rank, or of the same suit within two ranks, the ace next to the two and the king), and every joker (a player keeps those).

    >>> from rummy500.cards import parse_cards
    >>> linked(parse_cards("7H 7S 9H KD AD 4C"))  # 7H-7S-9H linked; K and A of diamonds; 4C alone
    5
    >>> linked(parse_cards("JK 4C 9D"))  # the joker; no natural card has a partner
    1
    """
    mask = 0
    for c in hand:
        if c < JOKER:
            mask |= 1 << c
    n = 0
    for c in hand:
        if c >= JOKER:
            n += 1
            continue
        r = c & 15
        column = mask >> r & 0x0001000100010001
        if column & (column - 1):
            n += 1  # another card of its rank
            continue
        ranks = mask >> (c & 48) & 0x3FFE  # the suit's ranks 1..13 as bits 1..13
        if r == 1:
            if ranks & 0x300C:  # the 2 or 3 (A 2 3), or the queen or king (Q K A)
                n += 1
        elif ranks & ~(1 << r) & (0b11111 << r >> 2) or r >= 12 and ranks & 2:  # within two ranks, or Q/K with the ace
            n += 1
    return n


def structure(world: RoundState, view: View, rng: random.Random, beta: float, steps: int = STRUCTURE_STEPS) -> None:
    """Make each opponent's guessed hand as connected as real hands are (Metropolis swaps with the stock).

    A player keeps the cards that work together and throws loose ones, so a
    real hand holds far more cards with a partner (:func:`linked`) than a
    uniform deal of the unseen cards: in 2-player rounds of ``hard`` against
    ``hard``, 71% of the opponent's cards against 53-57% in uniform guesses
    (``benchmarks/guesses.py``; 74-78% with ``beta`` 1). Each step proposes
    to swap a hidden card of the hand with a stock card and accepts with chance
    ``min(1, exp(beta * gain))``, ``gain`` being the change in :func:`linked`:
    the hands are drawn in proportion to ``exp(beta * linked)`` among the
    deals consistent with the view (the cards the seat was seen taking stay;
    only which unseen card lies where changes).
    """
    seat = view.seat
    stock = world.stock
    if not stock:
        return
    changed = False
    for o in range(view.players):
        if o == seat:
            continue
        hand = world.hands[o]
        known = list(view.known[o])
        hidden = []
        for i, c in enumerate(hand):
            if c in known:
                known.remove(c)
            else:
                hidden.append(i)
        if not hidden:
            continue
        changed = True
        cur = linked(hand)
        for _ in range(steps):
            i = hidden[rng.randrange(len(hidden))]
            j = rng.randrange(len(stock))
            x = hand[i]
            hand[i] = stock[j]
            new = linked(hand)
            if new >= cur or rng.random() < math.exp(beta * (new - cur)):
                cur = new
                stock[j] = x
            else:
                hand[i] = x
    if changed:
        world.forget_caches()


def _melds_with(t: fastmeld.Tables, hand: list[Card], extra: Card | None) -> list[tuple[Card, ...]]:
    """The melds ``hand`` holds, with ``extra`` (a card the seat let lie) added when given."""
    return fastmeld.all_melds(t, fastmeld.scan(hand if extra is None else [*hand, extra]))


@dataclass(frozen=True)
class Searched:
    """What a search found, for a player: the move chosen and the rule of thumb's, in the round's own points.

    Attributes:
        best: the move chosen.
        favourite: the heuristics' first choice (``best`` when no other move did clearly better).
        edge: how much better ``best`` ended than ``favourite`` on average (0 when they are the same move).
        playouts: the guesses of the hidden cards ``best`` was played out in.
        mean: ``best``'s average playout: the seat's side minus the best other side.
        partners: the game is played in partnerships (the words then say "your side").
    """

    best: Action
    favourite: Action
    edge: float
    playouts: int
    mean: float
    partners: bool = False

    def words(self, move: Callable[[Action], str]) -> str:
        """The finding in a player's words, with the moves written by ``move``.

        >>> from rummy500.actions import Discard, Draw, parse_action
        >>> Searched(parse_action("discard 7H"), Draw(), 0.3, 48, -2.0).words(str)
        'discard 7H: in 48 trial games a few turns ahead, with the hidden cards guessed, it did less than a point better on average than draw, the obvious move'
        >>> Searched(Draw(), Draw(), 0.0, 48, -14.2).words(str)
        'draw: the obvious move, and in 48 trial games a few turns ahead, with the hidden cards guessed, no other move did clearly better (you ended on average 14 points behind the leader)'
        """
        return f"{move(self.best)}: {self.finding(move)}"

    def finding(self, move: Callable[[Action], str]) -> str:
        """:meth:`words` without the move chosen in front.

        The trial games are the search's playouts: the position with the hidden
        cards dealt at a guess, each move played and the game played on a few
        turns by the bots' rule of thumb ("the obvious move" is that rule's
        own first choice). Their outcome is the player's side against the best
        of the others: "you" and "the leader" (or the next best player) when
        everyone plays alone, "your side" and "the other side" in partnerships.

        >>> from rummy500.actions import Draw, parse_action
        >>> Searched(Draw(), parse_action("take 1"), 6.0, 48, 3.0).finding(lambda a: f"<{a}>")
        'in 48 trial games a few turns ahead, with the hidden cards guessed, it did 6 points better on average than <take 1>, the obvious move'
        >>> Searched(Draw(), Draw(), 0.0, 48, 3.4).finding(str)
        'the obvious move, and in 48 trial games a few turns ahead, with the hidden cards guessed, no other move did clearly better (you ended on average 3 points ahead of the next best player)'
        >>> Searched(Draw(), Draw(), 0.0, 48, 0.2, partners=True).finding(str)
        'the obvious move, and in 48 trial games a few turns ahead, with the hidden cards guessed, no other move did clearly better (your side ended on average level with the other side)'
        >>> Searched(Draw(), Draw(), 0.0, 0, 0.0).finding(str)
        'the obvious move (no guess of the hidden cards fitted what is known, so nothing was tried out)'
        """
        if not self.playouts:
            return "the obvious move (no guess of the hidden cards fitted what is known, so nothing was tried out)"
        tried = f"in {self.playouts} trial games a few turns ahead, with the hidden cards guessed"
        if self.best != self.favourite:
            return f"{tried}, it did {_points(self.edge)} better on average than {move(self.favourite)}, the obvious move"
        avg = self.mean
        if self.partners:
            who, rival = "your side", "the other side"
        else:
            who, rival = "you", "the leader" if round(avg) <= 0 else "the next best player"
        where = f"{_points(abs(avg))} {'ahead of' if avg >= 0 else 'behind'}" if round(avg) else "level with"
        return f"the obvious move, and {tried}, no other move did clearly better ({who} ended on average {where} {rival})"


def _points(x: float) -> str:
    """``x`` points in words, rounded (less than a point says so).

    >>> _points(1.2), _points(12.4), _points(0.4)
    ('1 point', '12 points', 'less than a point')
    """
    n = round(x)
    if n == 0:
        return "less than a point"
    return f"{n} point" if n == 1 else f"{n} points"


def _mean(values: dict[int, float]) -> float:
    return sum(values.values()) / len(values) if values else float("-inf")
