"""One table's game inside a tourney, and the single-table tourney.

A :class:`TableGame` never deals or plays a card: it is told each round's
result and says what happens next (:meth:`TableGame.next_round`: who plays,
with which rules and totals), whether the table is finished, and who won.
That lets the CLI (``rummy500 tournament --format``) and the drivers of
:mod:`rummy500.formats.drive` drive it with real
:class:`~rummy500.match.Match` objects, and tests drive it with constructed
results.

The game ends as the rules say (:func:`~rummy500.formats.games.game_status`).
If players tie for the win the table breaks the tie in one of two ways
(RULES.md Part 4):

* ``"rounds"`` (single-table tourney): the others leave and the tied players
  play tie-break rounds until one has the best total alone;
* ``"points"`` (multi-table tourney): the higher total of melded and laid-off
  points over the table's rounds, then the lower total value of cards left in
  hand; players still level after both play tie-break rounds, broken the same
  way after each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rummy500.formats.chips import Settlement, settle
from rummy500.formats.games import FormatError, game_status, leaders, table_rules
from rummy500.match import final_bonus_to
from rummy500.rules import Rules
from rummy500.scoring import RoundResult

__all__ = [
    "RoundSpec",
    "SingleTableTourney",
    "TableGame",
    "TableRound",
    "TieBreak",
    "check_format_rules",
    "check_players",
]

TieBreak = Literal["rounds", "points"]


def check_players(players: Sequence[str], *, least: int = 2, most: int | None = 8) -> tuple[str, ...]:
    """Player names as a tuple, checked: non-empty strings, no repeats, a sensible count.

    Raises:
        FormatError: naming the problem.
    """
    names = tuple(players)
    for name in names:
        if not isinstance(name, str) or not name:
            raise FormatError(f"a player needs a non-empty name, not {name!r}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise FormatError(f"player names must differ: {', '.join(repeated)} repeated")
    if len(names) < least or (most is not None and len(names) > most):
        span = f"{least} to {most}" if most is not None else f"at least {least}"
        raise FormatError(f"{span} players needed, got {len(names)}")
    return names


def check_format_rules(rules: Rules) -> None:
    """Refuse rules a tourney cannot run: partnerships score by side, not by player.

    Raises:
        FormatError: the rules play partnerships.
    """
    if rules.partnership:
        raise FormatError("tourneys and ring games are played by individual players (partnership: true)")


@dataclass(frozen=True)
class RoundSpec:
    """What the next round at a table is.

    Attributes:
        table: the table's id.
        number: the round's number at this table, from 1.
        players: who plays, in seat order (seat ``i`` is ``players[i]``).
        scores: their totals before the round (a ``Match``'s ``scores``).
        rules: the rules for this many players.
        tie_break: the round is a tie-break round.
        new_game: the players differ from the previous round's, so a driver
            keeping one ``Match`` for the table starts a new one (and cuts
            for the dealer); otherwise it plays the match's next round.
    """

    table: int
    number: int
    players: tuple[str, ...]
    scores: tuple[int, ...]
    rules: Rules
    tie_break: bool
    new_game: bool

    def to_dict(self) -> dict[str, Any]:
        """The spec as JSON (the rules as a record's ``rules`` object)."""
        return {
            "table": self.table,
            "number": self.number,
            "players": list(self.players),
            "scores": list(self.scores),
            "rules": self.rules.to_mapping(),
            "tie_break": self.tie_break,
            "new_game": self.new_game,
        }


@dataclass(frozen=True)
class TableRound:
    """A finished round at a table: who played and what each scored.

    Attributes:
        players: who played, in seat order.
        round_scores: each seat's round score.
        table_points: each seat's melded and laid-off points (None if unknown).
        hand_points: the value of each seat's cards left in hand (None if unknown).
        went_out: the seat that went out, or None.
        tie_break: it was a tie-break round.
    """

    players: tuple[str, ...]
    round_scores: tuple[int, ...]
    table_points: tuple[int, ...] | None
    hand_points: tuple[int, ...] | None
    went_out: int | None
    tie_break: bool


class TableGame:
    """A game at one tourney table, from the first round to its one winner.

    Args:
        rules: the rules; ``rules.players`` is adjusted to the table.
        players: the players in seat order (2 to 8).
        tie_break: ``"rounds"`` or ``"points"`` (see the module docstring).
        table_id: the table's id in its tourney.
        level: the tourney level (round of tables) the table belongs to.
        on_over: called with the table once it has its winner (a tourney
            uses it to seat its next level however the table was driven).

    Raises:
        FormatError: bad players, a bad tie-break, partnership rules or rules
            that cannot seat this many players.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        *,
        tie_break: TieBreak = "rounds",
        table_id: int = 1,
        level: int = 1,
        on_over: Callable[[TableGame], None] | None = None,
    ) -> None:
        if tie_break not in ("rounds", "points"):
            raise FormatError(f"tie_break must be 'rounds' or 'points', not {tie_break!r}")
        check_format_rules(rules)
        self.players = check_players(players)
        self.rules = table_rules(rules, len(self.players))
        self.tie_break: TieBreak = tie_break
        self.table_id = table_id
        self.level = level
        self.totals = dict.fromkeys(self.players, 0)
        self.table_points = dict.fromkeys(self.players, 0)
        self.hand_points = dict.fromkeys(self.players, 0)
        self.history: list[TableRound] = []
        self.winner: str | None = None
        self.decided_by: str | None = None
        self.bonus = 0
        self.bonus_to: str | None = None
        self._active = self.players
        self._in_tie_break = False
        self._rules_for = {len(self.players): self.rules}
        self._on_over = on_over

    # ------------------------------------------------------------------ state
    @property
    def is_over(self) -> bool:
        """The table has its winner."""
        return self.winner is not None

    @property
    def active(self) -> tuple[str, ...]:
        """Who plays the next round, in seat order (empty once the table is over)."""
        return () if self.is_over else self._active

    @property
    def stage(self) -> str:
        """``"game"``, ``"tie_break"`` or ``"over"``."""
        if self.is_over:
            return "over"
        return "tie_break" if self._in_tie_break else "game"

    @property
    def rounds_played(self) -> int:
        """Rounds finished at this table, tie-break rounds included."""
        return len(self.history)

    @property
    def losers(self) -> tuple[str, ...]:
        """Everyone but the winner, once the table is over."""
        return tuple(p for p in self.players if p != self.winner) if self.is_over else ()

    def next_round(self) -> RoundSpec:
        """The round to play next.

        Raises:
            FormatError: the table is over.
        """
        if self.is_over:
            raise FormatError(f"table {self.table_id} is over: {self.winner} won")
        players = self._active
        n = len(players)
        if n not in self._rules_for:
            # Only a tie-break shrinks a table: the players left play with their game's cards.
            self._rules_for[n] = table_rules(self.rules, n, same_pack=True)
        new_game = not self.history or self.history[-1].players != players
        return RoundSpec(
            table=self.table_id,
            number=self.rounds_played + 1,
            players=players,
            scores=tuple(self.totals[p] for p in players),
            rules=self._rules_for[n],
            tie_break=self._in_tie_break,
            new_game=new_game,
        )

    # --------------------------------------------------------------- results
    def record_round(self, result: RoundResult | Sequence[int]) -> None:
        """Record the result of the round :meth:`next_round` described.

        Args:
            result: the round's :class:`~rummy500.scoring.RoundResult`
                (``RoundState.result``), seat by seat in the spec's order; or
                just the round scores (not enough for ``tie_break="points"``).

        Raises:
            FormatError: the table is over, or the result does not fit the round.
        """
        if self.is_over:
            raise FormatError(f"table {self.table_id} is over: {self.winner} won")
        players = self._active
        done = self._as_round(players, result)
        self.history.append(done)
        for i, name in enumerate(players):
            self.totals[name] += done.round_scores[i]
            if done.table_points is not None and done.hand_points is not None:
                self.table_points[name] += done.table_points[i]
                self.hand_points[name] += done.hand_points[i]
        self._decide(done)

    def _as_round(self, players: tuple[str, ...], result: RoundResult | Sequence[int]) -> TableRound:
        n = len(players)
        if isinstance(result, RoundResult):
            scores = tuple(result.round_scores)
            table = tuple(result.table_points)
            hand = tuple(result.hand_points)
            went_out = result.went_out
        else:
            scores, table, hand, went_out = tuple(result), None, None, None
            if self.tie_break == "points":
                raise FormatError("a table breaking ties on points needs each round's RoundResult, not only its scores")
        for name, values in (("round scores", scores), ("table points", table), ("hand points", hand)):
            if values is None:
                continue
            if len(values) != n:
                raise FormatError(f"{len(values)} {name} for a round of {n} players at table {self.table_id}")
            if any(not isinstance(v, int) or isinstance(v, bool) for v in values):
                raise FormatError(f"{name} must be whole numbers: {list(values)!r}")
        if went_out is not None and not 0 <= went_out < n:
            raise FormatError(f"went_out {went_out} is not a seat of this {n}-player round")
        return TableRound(players, scores, table, hand, went_out, self._in_tie_break)

    def _decide(self, done: TableRound) -> None:
        players = self._active
        totals = [self.totals[p] for p in players]
        if not self._in_tie_break:
            main_rounds = sum(1 for r in self.history if not r.tie_break)
            status = game_status(self.rules, totals, main_rounds, done.went_out)
            if status.over:
                assert status.winner is not None
                self._crown(players[status.winner], "went_out" if self.rules.must_go_out_to_win else "total")
                return
            if not status.tie_break:
                return
            tied = [players[i] for i in status.leaders]
        else:
            tied = [players[i] for i in leaders(totals)]
            if len(tied) == 1:
                self._crown(tied[0], "tie_break_round")
                return
        if self.tie_break == "points":
            # RULES.md Part 4: more melded and laid-off points, then fewer points left in hand.
            best = max(self.table_points[p] for p in tied)
            tied = [p for p in tied if self.table_points[p] == best]
            if len(tied) == 1:
                self._crown(tied[0], "table_points")
                return
            low = min(self.hand_points[p] for p in tied)
            tied = [p for p in tied if self.hand_points[p] == low]
            if len(tied) == 1:
                self._crown(tied[0], "hand_points")
                return
        # Still tied: the others leave; the tied players play a tie-break round.
        self._in_tie_break = True
        self._active = tuple(p for p in self.players if p in tied)

    def _crown(self, name: str, how: str) -> None:
        self.winner = name
        self.decided_by = how
        if self.rules.final_bonus:
            # As in a Match, among the players still in.
            self.bonus = self.rules.final_bonus
            self.bonus_to = final_bonus_to({p: self.totals[p] for p in self._active}, name)
            self.totals[self.bonus_to] += self.bonus
        if self._on_over is not None:
            self._on_over(self)

    # ---------------------------------------------------------------- results
    def standings(self) -> list[tuple[str, ...]]:
        """Players grouped by final place, best first.

        The winner is alone in first place; the others are ranked by total
        (then, at a ``"points"`` table, by table points and hand points);
        players still level share a place.
        """

        def key(p: str) -> tuple[int, ...]:
            if self.tie_break == "points":
                return (self.totals[p], self.table_points[p], -self.hand_points[p])
            return (self.totals[p],)

        rest = [p for p in self.players if p != self.winner]
        keys = [key(p) for p in rest]
        groups: list[tuple[str, ...]] = [(self.winner,)] if self.winner is not None else []
        for k in sorted(set(keys), reverse=True):
            groups.append(tuple(p for p, pk in zip(rest, keys, strict=True) if pk == k))
        return groups

    def settlement(self, pcr: int) -> Settlement:
        """Chips after the table: each loser pays (winner's total - own total) x PCR.

        Totals are final: the winner's includes tie-break rounds, the best
        total any ``final_bonus``; a player who left at a tie-break keeps the
        total they had then. Indices are seats in :attr:`players` order.

        Raises:
            FormatError: the table is not over.
        """
        if self.winner is None:
            raise FormatError(f"table {self.table_id} is not over yet")
        return settle([self.totals[p] for p in self.players], self.players.index(self.winner), pcr)

    def to_dict(self) -> dict[str, Any]:
        """The table's state as JSON."""
        return {
            "table": self.table_id,
            "level": self.level,
            "players": list(self.players),
            "stage": self.stage,
            "active": list(self.active),
            "totals": dict(self.totals),
            "table_points": dict(self.table_points),
            "hand_points": dict(self.hand_points),
            "rounds_played": self.rounds_played,
            "winner": self.winner,
            "decided_by": self.decided_by,
        }


class SingleTableTourney(TableGame):
    """A single-table tourney: play to the target; tied winners play tie-break rounds.

    RULES.md Part 4: "if players tie for the win, the others leave and the
    tied players play tie-break rounds until one wins". After every
    tie-break round the players tied for the best total stay and the others
    leave, until one is alone at the top.

    Args:
        rules: the rules; ``rules.players`` is set to the number of players.
        players: 2 to 8 players in seat order.
    """

    def __init__(self, rules: Rules, players: Sequence[str]) -> None:
        super().__init__(rules, players, tie_break="rounds", table_id=1, level=1)
