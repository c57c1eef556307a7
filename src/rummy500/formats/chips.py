"""Chip settlement with a point-chip ratio, and the ring game that settles every round.

RULES.md Part 4: "each loser pays the winner (winner's points - loser's
points) x PCR chips" (:func:`settle`), and in a ring game "after each round,
players settle by points; players who tie share equally"
(:func:`settle_shared`, :class:`RingGame`). Every settlement is a list of
payments between players, so it conserves chips: the net amounts sum to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummy500.formats.games import FormatError, leaders
from rummy500.scoring import RoundResult

__all__ = ["Payment", "RingGame", "RingRound", "Settlement", "check_pcr", "settle", "settle_shared"]


@dataclass(frozen=True)
class Payment:
    """``chips`` chips passing from ``payer`` to ``payee`` (indices into the points)."""

    payer: int
    payee: int
    chips: int

    def to_dict(self) -> dict[str, int]:
        """The payment as JSON."""
        return {"payer": self.payer, "payee": self.payee, "chips": self.chips}


@dataclass(frozen=True)
class Settlement:
    """Who pays whom after a game or a round.

    Attributes:
        pcr: the point-chip ratio used.
        points: the points settled on (totals, or round scores), per player.
        winners: the players who collect (several when they tie and share).
        payments: every transfer, payer by payer in index order.
    """

    pcr: int
    points: tuple[int, ...]
    winners: tuple[int, ...]
    payments: tuple[Payment, ...]

    @property
    def net(self) -> tuple[int, ...]:
        """Chips won (positive) or lost (negative) by each player; they sum to zero."""
        out = [0] * len(self.points)
        for p in self.payments:
            out[p.payer] -= p.chips
            out[p.payee] += p.chips
        return tuple(out)

    def paid_by(self, payer: int) -> int:
        """Chips ``payer`` pays in all."""
        return sum(p.chips for p in self.payments if p.payer == payer)

    def to_dict(self) -> dict[str, Any]:
        """The settlement as JSON."""
        return {
            "pcr": self.pcr,
            "points": list(self.points),
            "winners": list(self.winners),
            "payments": [p.to_dict() for p in self.payments],
            "net": list(self.net),
        }


def check_pcr(pcr: object) -> int:
    """Return ``pcr`` if it is a usable point-chip ratio (a positive integer).

    Raises:
        FormatError: it is not.
    """
    if not isinstance(pcr, int) or isinstance(pcr, bool) or pcr < 1:
        raise FormatError(f"the point-chip ratio must be a positive whole number of chips per point, not {pcr!r}")
    return pcr


def _check_points(points: Sequence[int]) -> tuple[int, ...]:
    pts = tuple(points)
    if len(pts) < 2:
        raise FormatError(f"a settlement needs at least 2 players, got {len(pts)}")
    for p in pts:
        if not isinstance(p, int) or isinstance(p, bool):
            raise FormatError(f"points must be whole numbers, not {p!r}")
    return pts


def settle(points: Sequence[int], winner: int, pcr: int) -> Settlement:
    """Settle a game won by ``winner``: each loser pays (winner's points - loser's points) x PCR.

    A loser whose points are not below the winner's (possible when the
    winner was decided otherwise, e.g. by ``must_go_out_to_win``, or by a
    player who left at a tie the winner then broke with a negative round)
    pays nothing: a loser never collects from the winner.

    >>> s = settle([100, 70, 60], winner=0, pcr=3)
    >>> [p.chips for p in s.payments], s.net
    ([90, 120], (210, -90, -120))

    Args:
        points: each player's final total.
        winner: the index of the winner.
        pcr: the point-chip ratio (chips per point).

    Raises:
        FormatError: bad ratio, points or winner.
    """
    pcr = check_pcr(pcr)
    pts = _check_points(points)
    if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < len(pts):
        raise FormatError(f"winner {winner!r} is not one of the {len(pts)} players")
    payments = []
    for i, p in enumerate(pts):
        if i == winner:
            continue
        chips = max(0, pts[winner] - p) * pcr
        if chips:
            payments.append(Payment(i, winner, chips))
    return Settlement(pcr, pts, (winner,), tuple(payments))


def _share_order(winners: Sequence[int], n: int, first: int) -> list[int]:
    """The tied winners in seat order starting at seat ``first`` (who gets odd chips first)."""
    return sorted(winners, key=lambda w: (w - first) % n)


def settle_shared(points: Sequence[int], pcr: int, *, first: int = 0) -> Settlement:
    """Settle on points where everyone with the best points wins and ties share equally.

    Every player below the best pays (best - their points) x PCR into a pot;
    the players tied for the best split the pot equally. Chips that do not
    divide (the pot modulo the number of winners) go one each to the winners
    in seat order starting at seat ``first`` -- pass the seat left of the
    dealer, as a card room gives the odd chip, so it moves round the table.
    Each payer's chips are then routed to the winners in that same order, so
    the result is a list of payments that conserves chips exactly.

    >>> s = settle_shared([30, 30, 20], pcr=1)
    >>> s.winners, s.net
    ((0, 1), (5, 5, -10))
    >>> settle_shared([30, 30, 25], pcr=1, first=1).net
    (2, 3, -5)

    Args:
        points: each player's points (a ring game uses round scores).
        pcr: the point-chip ratio.
        first: the seat whose turn it is first to receive an odd chip.

    Raises:
        FormatError: bad ratio, points or seat.
    """
    pcr = check_pcr(pcr)
    pts = _check_points(points)
    n = len(pts)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
        raise FormatError(f"seat {first!r} is not one of the {n} players")
    best = pts[leaders(pts)[0]]
    winners = _share_order(leaders(pts), n, first)
    dues = [(i, (best - p) * pcr) for i, p in enumerate(pts) if p < best]
    pot = sum(d for _, d in dues)
    share, odd = divmod(pot, len(winners))
    quota = {w: share + (1 if k < odd else 0) for k, w in enumerate(winners)}
    payments: list[Payment] = []
    order = iter(winners)
    payee = next(order)
    for payer, due in dues:
        while due:
            while quota[payee] == 0:
                payee = next(order)
            chips = min(due, quota[payee])
            payments.append(Payment(payer, payee, chips))
            quota[payee] -= chips
            due -= chips
    return Settlement(pcr, pts, tuple(sorted(winners)), tuple(payments))


@dataclass(frozen=True)
class RingRound:
    """One settled round of a ring game.

    Attributes:
        number: 1 for the first round at the table.
        players: who played it, in seat order.
        dealer: the dealer's seat.
        round_scores: each seat's round score.
        settlement: the round's settlement (indices are seats).
    """

    number: int
    players: tuple[str, ...]
    dealer: int
    round_scores: tuple[int, ...]
    settlement: Settlement

    @property
    def net(self) -> dict[str, int]:
        """Chips won or lost by each player this round."""
        return dict(zip(self.players, self.settlement.net, strict=True))


class RingGame:
    """A sit-in ("ring") table: play a round, settle it by points, repeat.

    Players join and leave between rounds; one who joins or leaves while a
    round is being played is seated, or leaves, when that round has been
    settled. Each round is settled with :func:`settle_shared` on the round
    scores: everyone pays the best round score's holders (best - own score)
    x PCR, tied best scores share, odd chips go first to the seat left of the
    dealer. The deal moves one seat to the left each round; if the next
    dealer has left (during the round or after it), the deal goes to the
    next player after them who is still seated.

    The table only keeps score in chips (``balances``: net since sitting
    down, kept after leaving); stakes, buy-ins and cash-outs are left to
    whoever runs the table (nothing in this project handles them).

    Args:
        pcr: the point-chip ratio.
        players: the players seated at the start, in seat order.
        max_seats: how many may sit (2 to 8).
    """

    def __init__(self, pcr: int, players: Sequence[str] = (), *, max_seats: int = 8) -> None:
        self.pcr = check_pcr(pcr)
        if not isinstance(max_seats, int) or not 2 <= max_seats <= 8:
            raise FormatError(f"a ring table has 2 to 8 seats, not {max_seats!r}")
        self.max_seats = max_seats
        self._seated: list[str] = []
        self._waiting: list[str] = []
        self._leaving: set[str] = set()
        self.balances: dict[str, int] = {}
        self.history: list[RingRound] = []
        self._round: tuple[tuple[str, ...], int] | None = None
        self._button: str | None = None
        for name in players:
            self.join(name)

    @property
    def seated(self) -> tuple[str, ...]:
        """The players at the table now, in seat order."""
        return tuple(self._seated)

    @property
    def waiting(self) -> tuple[str, ...]:
        """Players who joined during a round and sit down when it is settled."""
        return tuple(self._waiting)

    @property
    def leaving(self) -> tuple[str, ...]:
        """Players playing the current round who leave once it is settled."""
        return tuple(n for n in self._seated if n in self._leaving)

    @property
    def in_round(self) -> bool:
        """A round has been started and not yet settled."""
        return self._round is not None

    @property
    def dealer(self) -> str | None:
        """Who deals the next round (None while nobody is seated)."""
        if self._button in self._seated:
            return self._button
        return self._seated[0] if self._seated else None

    def join(self, name: str) -> None:
        """Take a seat (at the end of the seat order), now or after the current round.

        Raises:
            FormatError: the name is empty or already at the table, or the table is full.
        """
        if not isinstance(name, str) or not name:
            raise FormatError(f"a player needs a non-empty name, not {name!r}")
        if name in self._seated or name in self._waiting:
            raise FormatError(f"{name} is already at the table")
        if len(self._seated) + len(self._waiting) >= self.max_seats:
            raise FormatError(f"the table is full ({self.max_seats} seats)")
        self.balances.setdefault(name, 0)
        (self._waiting if self.in_round else self._seated).append(name)

    def leave(self, name: str) -> None:
        """Get up, now or (if playing the current round) once it is settled.

        Raises:
            FormatError: the player is not at the table.
        """
        if name in self._waiting:
            self._waiting.remove(name)
        elif name not in self._seated:
            raise FormatError(f"{name} is not at the table")
        elif self._round is not None and name in self._round[0]:
            self._leaving.add(name)
        else:
            seat = self._seated.index(name)
            self._seated.remove(name)
            if name == self._button:
                # The next dealer got up between rounds: the deal passes on to whoever
                # sat after them (now in their seat number), round to the first seat.
                self._button = self._seated[seat % len(self._seated)] if self._seated else None

    def start_round(self) -> tuple[tuple[str, ...], int]:
        """Begin a round: who plays it (in seat order) and the dealer's seat.

        Raises:
            FormatError: a round is already in progress, or fewer than 2 are seated.
        """
        if self._round is not None:
            raise FormatError("the current round has not been settled yet")
        if len(self._seated) < 2:
            raise FormatError(f"a round needs at least 2 players seated, not {len(self._seated)}")
        players = tuple(self._seated)
        button = self.dealer
        assert button is not None  # somebody is seated
        dealer = players.index(button)
        self._round = (players, dealer)
        return self._round

    def finish_round(self, result: RoundResult | Sequence[int]) -> RingRound:
        """Settle the current round from its result (or its round scores, seat by seat).

        Raises:
            FormatError: no round is in progress, or the scores do not fit the table.
        """
        if self._round is None:
            raise FormatError("no round has been started")
        players, dealer = self._round
        scores = tuple(result.round_scores if isinstance(result, RoundResult) else result)
        if len(scores) != len(players):
            raise FormatError(f"{len(scores)} round scores for a round of {len(players)} players")
        n = len(players)
        settlement = settle_shared(scores, self.pcr, first=(dealer + 1) % n)
        for name, chips in zip(players, settlement.net, strict=True):
            self.balances[name] += chips
        done = RingRound(len(self.history) + 1, players, dealer, scores, settlement)
        self.history.append(done)
        self._round = None
        self._seated = [p for p in self._seated if p not in self._leaving]
        self._leaving.clear()
        self._seated.extend(self._waiting)
        self._waiting.clear()
        # The deal passes left: to the first player after the dealer still seated.
        self._button = next(
            (players[(dealer + k) % n] for k in range(1, n + 1) if players[(dealer + k) % n] in self._seated), None
        )
        return done
