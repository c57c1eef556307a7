"""Round-robin tournaments between bot levels, rated with OpenSkill.

Every pair of entrants plays the same number of seat-balanced head-to-head
matches (:func:`~rummy500.sim.runner.run_games` with the seats rotated each
game). Each finished match updates the entrants' ratings with the
Plackett-Luce model of the ``openskill`` package (a tie after the round cap
is rated as a draw); the leaderboard orders entrants by the conservative
rating estimate ``ordinal = mu - 3 * sigma``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from rummy500.rules import Rules
from rummy500.sim.runner import GameResult, run_games
from rummy500.sim.stats import wilson

__all__ = ["Standing", "TournamentResult", "run_tournament"]


@dataclass
class Standing:
    """One entrant's line of the leaderboard."""

    bot: str
    mu: float
    sigma: float
    ordinal: float
    games: int = 0
    wins: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The standing as JSON."""
        lo, hi = wilson(self.wins, self.games)
        return {
            "bot": self.bot,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
        }


@dataclass
class TournamentResult:
    """The leaderboard (best first) and the head-to-head scores."""

    leaderboard: list[Standing]
    pairs: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The tournament as JSON."""
        return {"leaderboard": [s.to_dict() for s in self.leaderboard], "pairs": self.pairs}


def run_tournament(
    bots: Sequence[str],
    rules: Rules,
    games: int,
    *,
    seed: int | None = 0,
    jobs: int = 1,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> TournamentResult:
    """Play ``games`` matches for every pair of ``bots`` and rate everyone.

    Args:
        bots: the entrants (distinct bot levels).
        rules: 2-player rules for the matches.
        games: matches per pair.
        seed: the tournament's seed (each pair gets its own run seed from it).
        jobs: worker processes.
        bot_options: per level, options for :func:`~rummy500.bots.make_bot`.
        on_result: called after each match.

    Raises:
        ModuleNotFoundError: ``openskill`` is not installed.
        ValueError: fewer than two entrants, a repeated entrant, or rules not for 2 players.
    """
    from openskill.models import PlackettLuce

    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise ValueError("a tournament needs at least two different bots")
    if rules.players != 2:
        raise ValueError(f"tournament matches are head-to-head: players must be 2 (got {rules.players})")
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    games_played = dict.fromkeys(bots, 0)
    wins = dict.fromkeys(bots, 0.0)
    pairs: list[dict[str, Any]] = []
    base = seed if seed is not None else 0
    for k, (a, b) in enumerate(combinations(bots, 2)):
        results = run_games([a, b], rules, games, seed=base * 1000 + k, jobs=jobs, bot_options=bot_options, on_result=on_result)
        score = {a: 0.0, b: 0.0}
        for r in results:
            names = [[a, b][e] for e in r.entries]
            winner = names[r.winners[0]] if r.winners else None
            ra, rb = ratings[a], ratings[b]
            if winner is None:
                [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[1, 1])
                score[a] += 0.5
                score[b] += 0.5
            elif winner == a:
                [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[1, 2])
                score[a] += 1
            else:
                [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[2, 1])
                score[b] += 1
            ratings[a], ratings[b] = ra, rb
        for x in (a, b):
            games_played[x] += len(results)
            wins[x] += score[x]
        pairs.append({"bots": [a, b], "games": len(results), "wins": [score[a], score[b]]})
    board = [
        Standing(b, ratings[b].mu, ratings[b].sigma, ratings[b].ordinal(), games_played[b], wins[b]) for b in bots
    ]
    board.sort(key=lambda s: -s.ordinal)
    return TournamentResult(board, pairs)
