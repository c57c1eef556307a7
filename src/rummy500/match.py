"""A match: rounds to the target (or a fixed number), dealer rotation, the winner.

A :class:`Match` owns the current :class:`~rummy500.state.RoundState`, the
running totals and the full history of deals and actions, so it can always
produce its RECORD.md record. Randomness comes only from the ``random.Random``
it is given (live games seed it from :mod:`secrets`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, SupportsIndex, TypeVar

from rummy500.actions import Action, Decline, Reshuffle
from rummy500.cards import Card, natural_cards
from rummy500.events import Dealt, Event, GameOver
from rummy500.rules import FirstDealer, NextDealer, Rules
from rummy500.scoring import game_status
from rummy500.state import Decision, IllegalAction, Phase, RoundState, seat_number
from rummy500.views import View

__all__ = ["Match", "RoundLog", "cut_for_dealer", "final_bonus_to"]

_K = TypeVar("_K")

_PH_SHUFFLE, _PH_OVER = Phase.SHUFFLE, Phase.ROUND_OVER


@dataclass
class RoundLog:
    """One round as the record keeps it: the dealer, the deal, every action."""

    dealer: int
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    actions: list[tuple[int, Action]] = field(default_factory=list)
    round_scores: list[int] | None = None
    went_out: int | None = None

    def to_record(self) -> dict[str, Any]:
        """This round in RECORD.md form."""
        return {
            "dealer": self.dealer,
            "deal": {
                "hands": [[str(c) for c in h] for h in self.hands],
                "stock": [str(c) for c in self.stock],
                "discard": [str(c) for c in self.discard],
            },
            "actions": [{"p": p, **a.to_record()} for p, a in self.actions],
        }


def cut_for_dealer(rules: Rules, rng: random.Random) -> int:
    """Cut for the first dealer: highest card deals (``low_card``: lowest, ace low); ties cut again.

    The cut is drawn from a full 52-card deck whatever the pack, ``short_pack``
    included (where a table would cut the 32 cards it plays with). It only picks
    the dealer, and a stored game's deals follow from its seed through this
    cut: cutting from the short pack re-dealt every short-pack game saved
    before, and they could no longer be resumed or replayed (tried and undone
    on 8 December 2026).
    """
    pack = natural_cards()
    while True:
        cut = rng.sample(pack, rules.players)
        ranks = [c.rank for c in cut]
        best = max(ranks) if rules.first_dealer is FirstDealer.HIGH_CARD else min(ranks)
        if ranks.count(best) == 1:
            return ranks.index(best)


def final_bonus_to(totals: Mapping[_K, int], winner: _K) -> _K:
    """Who gets ``final_bonus``: RULES.md gives it "to the side with the best total after the last round".

    That is the winner, except that under ``must_go_out_to_win`` the side that
    went out may trail another. A shared best total: the winner if it is among
    them, else the first of them in ``totals``' order (seat order).

    >>> final_bonus_to({0: 651, 1: 1087}, 0), final_bonus_to({0: 600, 1: 600}, 1)
    (1, 1)
    """
    best = max(totals.values())
    return winner if totals[winner] == best else next(k for k, t in totals.items() if t == best)


class Match:
    """A game of Rummy 500 from the first deal to the winner.

    Args:
        rules: the rules (``rules.players`` seats).
        players: names, or None for ``Seat 0``, ``Seat 1`` ...
        scores: totals before the first round (default 0).
        rng: the source of every shuffle (default: ``random.Random(seed)``).
        seed: seed for the default rng (give ``rng`` or ``seed``, not both).
        dealer: the first dealer; by default cut for as the rules say.
        deal: start the first round now (False when replaying a record).

    Raises:
        ValueError: both ``rng`` and ``seed`` given (the seed would be ignored),
            or a number of names or scores other than ``rules.players``.

    ``match.state`` is the round in play: None only before the first deal
    (``deal=False``); :meth:`round_state` gives it typed as always there.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str] | None = None,
        scores: Sequence[int] | None = None,
        *,
        rng: random.Random | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        deal: bool = True,
    ) -> None:
        if rng is not None and seed is not None:
            raise ValueError("give Match an rng or a seed, not both (the seed would be ignored: seed the rng instead)")
        n = rules.players
        self.rules = rules
        self.players = list(players) if players is not None else [f"Seat {i}" for i in range(n)]
        if len(self.players) != n:
            raise ValueError(f"{len(self.players)} player names for a {n}-player game")
        self.initial_scores = list(scores) if scores is not None else [0] * n
        if len(self.initial_scores) != n:
            raise ValueError(f"{len(self.initial_scores)} scores for a {n}-player game")
        self.totals = list(self.initial_scores)
        self.rng = rng if rng is not None else random.Random(seed)
        self.rounds: list[RoundLog] = []
        self.winner: int | list[int] | None = None
        self.bonus_to: int | None = None
        #: The game reached its end with the best totals tied: the next round to leave one best total decides it.
        #: (Scores given that already reach the target tied start the game in its tie-break.)
        self.tie_break = scores is not None and game_status(rules, self.side_totals(), 0).tie_break
        self.state: RoundState | None = None
        if deal:
            first = dealer if dealer is not None else cut_for_dealer(rules, self.rng)
            self.start_round(RoundState.new(rules, first, self.rng))

    def copy(self, rng: random.Random | None = None) -> Match:
        """A copy that plays on independently (search, the OpenSpiel game's clone).

        It has its own totals, round state and the current round's action list
        (the deals of the rounds are shared: nothing changes them).

        Args:
            rng: the copy's random source (default: a copy of this one's, so the
                copy shuffles as this match would).
        """
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        out = Match(self.rules, self.players, self.initial_scores, rng=rng, deal=False)
        out.totals = list(self.totals)
        rounds = self.rounds
        if rounds:  # the round in play gets its own log: the copy appends to it
            last = rounds[-1]
            out.rounds = [*rounds[:-1], replace(last, actions=list(last.actions))]
        out.winner = self.winner
        out.bonus_to = self.bonus_to
        out.tie_break = self.tie_break
        out.state = self.state.copy() if self.state is not None else None
        return out

    def __repr__(self) -> str:
        """``<Match standard, 2 players, round 3, totals 120-85>`` (the winner once over)."""
        rounds = len(self.rounds)
        where = f"round {rounds}" if rounds else "not dealt"
        totals = "-".join(str(t) for t in self.totals)
        if self.winner is not None:
            won = self.winner if isinstance(self.winner, int) else "+".join(map(str, self.winner))
            where += f", won by seat {won}"
        return f"<Match {self.rules.preset}, {self.rules.players} players, {where}, totals {totals}>"

    def round_state(self) -> RoundState:
        """The round in play (or the last one played), typed as always there: :attr:`state` without its None.

        Raises:
            IllegalAction: no round was dealt yet (a ``Match(..., deal=False)``).
        """
        state = self.state
        if state is None:
            raise IllegalAction("no round was dealt yet (the match was built with deal=False)")
        return state

    # ----------------------------------------------------------------- rounds
    def start_round(self, state: RoundState, *, auto: bool = True) -> list[Event]:
        """Begin a round from a dealt state (its deal is logged for the record).

        ``auto``: draw a reshuffle due at once (a deal that left no stock under
        ``stock_out: reshuffle``) from the match's rng; a replay passes False, since its
        record holds the reshuffle.

        Returns:
            The :class:`~rummy500.events.Dealt` event and any reshuffle due at once.
        """
        if self.is_over:
            raise IllegalAction("the game is over")
        self.state = state
        self.rounds.append(
            RoundLog(
                dealer=state.public.dealer,
                hands=[list(h) for h in state.hands],
                stock=state.stock_top_first(),
                discard=list(state.public.discard),
            )
        )
        dealt: list[Event] = [Dealt(len(self.rounds) - 1, state.public.dealer)]
        return [*dealt, *self._resolve_chance()] if auto else dealt

    def next_dealer(self) -> int:
        """Who deals the next round (``next_dealer``)."""
        assert self.state is not None
        if self.rules.next_dealer is NextDealer.ROUND_WINNER and self.state.public.went_out is not None:
            return self.state.public.went_out
        return self.state.next_seat(self.state.public.dealer)

    @property
    def is_over(self) -> bool:
        """True once the game has a winner."""
        return self.winner is not None

    @property
    def round_index(self) -> int:
        """The index of the current (or last) round."""
        return len(self.rounds) - 1

    def side_totals(self) -> list[int]:
        """Totals per side (per seat when not playing partnerships)."""
        if not self.rules.partnership:
            return list(self.totals)
        return [self.totals[0] + self.totals[2], self.totals[1] + self.totals[3]]

    # ------------------------------------------------------------------ play
    def legal_actions(self, seat: SupportsIndex | None = None) -> list[Action]:
        """The current round's legal actions for ``seat`` (default: the seat to move; none once the game is over).

        A whole number that is no seat of this game has none.

        Raises:
            IllegalAction: ``seat`` is not a whole number (a bool, a float, a string), as :meth:`apply` refuses it.
        """
        s = None if seat is None else seat_number(seat, self.rules.players)
        if self.state is None or self.is_over or (s is not None and not 0 <= s < self.state.n):
            return []
        return self.state.legal_actions(s)

    def is_legal(self, action: Action, seat: SupportsIndex | None = None) -> bool:
        """Whether ``seat`` may play ``action`` now (cached per position; see ``RoundState.is_legal``).

        False for a whole number that is no seat of this game (:meth:`apply` refuses it).

        Raises:
            IllegalAction: ``seat`` is not a whole number (a bool, a float, a string), as :meth:`apply` refuses it.
        """
        s = None if seat is None else seat_number(seat, self.rules.players)
        if self.state is None or self.is_over or (s is not None and not 0 <= s < self.state.n):
            return False
        return self.state.is_legal(action, s)

    def decision(self, skip: Iterable[int] = ()) -> Decision | None:
        """Who decides now (see :meth:`RoundState.decision`); None once the game is over (or before the first deal).

        While the match plays with ``auto`` (the default of :meth:`apply`) it
        draws every reshuffle itself, so the decision is a seat's turn or an
        out-of-turn offer. It is chance (``DecisionKind.CHANCE``, a reshuffle
        due) after an :meth:`apply` with ``auto=False``, or in a match rebuilt
        from a record that stops before a reshuffle: :meth:`continue_play`
        draws it (and :func:`~rummy500.drive.drive` calls that first).
        """
        if self.state is None or self.is_over:
            return None
        return self.state.decision(skip)

    def apply(self, seat: SupportsIndex, action: Action, *, check: bool = True, auto: bool = True) -> list[Event]:
        """Play an action; when the round ends, score it and (``auto``) deal the next.

        Returns:
            What happened (:mod:`rummy500.events`): the action, any reshuffle,
            the round's end, the next deal, the game's end.

        Raises:
            IllegalAction: the action is not legal; nothing changes.
        """
        state = self.state
        if state is None:
            raise IllegalAction("no round is in progress")
        if self.is_over:  # (not `self.winner is not None`: mypy would keep that narrowing past _finish_round)
            raise IllegalAction("the game is over")
        if state.is_over:
            raise IllegalAction("the round is over")
        # The engine's own seat number and action (an equal int, numpy's included, is not recorded as given).
        # (The seat is typed SupportsIndex so that the compiled build too refuses a bad one as IllegalAction.)
        n = seat_number(seat, state.n)
        if check:
            action = state.checked(action, n)
        events = state.apply(action, n, check=False)
        if isinstance(action, Decline):
            return events  # a decline changes no position and is never recorded
        self.rounds[-1].actions.append((n, action))
        phase = state.public.phase
        if phase is _PH_SHUFFLE and auto:
            events.extend(self._resolve_chance())
            phase = state.public.phase
        if phase is _PH_OVER:
            self._finish_round()
            if self.is_over:
                assert self.winner is not None
                winner = tuple(self.winner) if isinstance(self.winner, list) else self.winner
                events.append(GameOver(winner, tuple(self.totals)))
            elif auto:
                events.extend(self.start_round(RoundState.new(self.rules, self.next_dealer(), self.rng)))
        return events

    def _resolve_chance(self) -> list[Event]:
        state = self.state
        events: list[Event] = []
        while state is not None and state.public.phase is _PH_SHUFFLE:
            event: Reshuffle = state.chance_reshuffle(self.rng)
            events.extend(state.apply(event))
            self.rounds[-1].actions.append((state.public.to_move, event))
        return events

    def _finish_round(self) -> None:
        assert self.state is not None and self.state.result is not None
        log = self.rounds[-1]
        res = self.state.result
        log.round_scores = list(res.round_scores)
        log.went_out = res.went_out
        for i, s in enumerate(res.round_scores):
            self.totals[i] += s
        self._decide_winner()

    def _decide_winner(self) -> None:
        status = game_status(
            self.rules, self.side_totals(), len(self.rounds), self.rounds[-1].went_out, tied_before=self.tie_break
        )
        if status.over:
            assert status.winner is not None
            self._crown(status.winner)
        else:
            # RULES.md Part 1: "another round is played until the tie is broken" (kept until a
            # round after which one total is best, whoever holds it, under the target or not).
            self.tie_break = self.tie_break or status.tie_break

    def _crown(self, side: int) -> None:
        rules = self.rules
        if rules.final_bonus:
            # In a partnership to the side's first seat.
            seat = final_bonus_to(dict(enumerate(self.side_totals())), side)
            self.totals[seat] += rules.final_bonus
            self.bonus_to = seat
        self.winner = [side, side + 2] if rules.partnership else side

    # ------------------------------------------------------------------ views
    def view(self, seat: SupportsIndex | None) -> View:
        """The current round's view for ``seat`` (None: a spectator) with the match totals.

        Raises:
            IllegalAction: ``seat`` is no seat of this game (as :meth:`apply` refuses it), or no round was dealt yet.
        """
        if self.state is None:
            raise IllegalAction("no round is in progress: there is nothing to see yet")
        return self.state.view(seat, self.totals)

    # ---------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        """The game as a RECORD.md record (every deal and action)."""
        return {
            "rules": self.rules.to_mapping(),
            "players": list(self.players),
            "scores": list(self.initial_scores),
            "rounds": [r.to_record() for r in self.rounds],
        }

    def continue_play(self) -> list[Event]:
        """Make a match rebuilt from a record ready to play on (a record may stop anywhere).

        Deals the next round if the record's last round ended (and the game
        did not), and draws a reshuffle that is due (the record stopped in phase
        ``shuffle``) from the match's rng, as auto play would have.

        Returns:
            What happened (the deal, the reshuffle), nothing if the match was ready.
        """
        if self.is_over or self.state is None:
            return []
        if self.state.is_over:
            return self.start_round(RoundState.new(self.rules, self.next_dealer(), self.rng))
        return self._resolve_chance()
