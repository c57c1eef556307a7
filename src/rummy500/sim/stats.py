"""Statistics of a run: wins with Wilson intervals, points per round, round lengths."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rummy500.sim.runner import GameResult

__all__ = ["EntryStats", "summarize", "wilson"]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class EntryStats:
    """One competitor's results over a run."""

    bot: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    mean_score: float
    mean_total: float

    def to_dict(self) -> dict[str, object]:
        """The stats as JSON."""
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(self.low, 4), round(self.high, 4)],
            "mean_score": round(self.mean_score, 2),
            "mean_total": round(self.mean_total, 2),
        }


def entry_labels(bots: Sequence[str]) -> list[str]:
    """Names for a run's entries: the level, numbered when a level appears twice."""
    out = []
    for i, b in enumerate(bots):
        out.append(f"{b}#{i + 1}" if bots.count(b) > 1 else b)
    return out


def summarize(bots: Sequence[str], results: Sequence[GameResult]) -> tuple[list[EntryStats], float]:
    """Per-entry stats and the mean round length in turns.

    A game an entry played in several seats (more seats than entries) counts
    once for it; a win shared by several entries (a partnership of two
    levels) counts for each of them. A game stopped at the round cap with the
    best total tied is shared by the entries holding it (half each for two;
    a whole win for an entry that holds every tied seat); the others lose it.
    """
    labels = entry_labels(bots)
    games = [0] * len(bots)
    wins = [0.0] * len(bots)
    score_sum = [0.0] * len(bots)
    score_n = [0] * len(bots)
    totals = [0.0] * len(bots)
    turn_sum = 0
    turn_n = 0
    for r in results:
        present = sorted(set(r.entries))
        winners = {r.entries[s] for s in r.winners}
        sharing = {r.entries[s] for s in r.tied}
        for e in present:
            games[e] += 1
            seats = [s for s in range(len(r.entries)) if r.entries[s] == e]
            totals[e] += sum(r.totals[s] for s in seats) / len(seats)
            if e in winners:
                wins[e] += 1.0
            elif e in sharing:
                wins[e] += 1.0 / len(sharing)
            for rs in r.round_scores:
                for s in seats:
                    score_sum[e] += rs[s]
                    score_n[e] += 1
        turn_sum += sum(r.round_turns)
        turn_n += len(r.round_turns)
    stats = []
    for e, label in enumerate(labels):
        g = games[e]
        lo, hi = wilson(wins[e], g)
        stats.append(
            EntryStats(
                bot=label,
                games=g,
                wins=wins[e],
                win_rate=wins[e] / g if g else 0.0,
                low=lo,
                high=hi,
                mean_score=score_sum[e] / score_n[e] if score_n[e] else 0.0,
                mean_total=totals[e] / g if g else 0.0,
            )
        )
    return stats, (turn_sum / turn_n if turn_n else 0.0)
