"""The format drivers with one agent per player: each player's agent plays that player's seat, table after table."""

from __future__ import annotations

import random

import pytest

from rummy500.actions import Action
from rummy500.formats import FormatError, RingGame, play_ring, run_multi_table, run_single_table
from rummy500.match import Match
from rummy500.views import View

from .helpers import names, rules


class Recorder:
    """Plays uniformly at random and remembers the seats it was asked to play."""

    def __init__(self) -> None:
        self.seats: list[int] = []

    def act(self, view: View, rng: random.Random) -> Action | None:
        self.seats.append(view.seat)
        return rng.choice(view.legal)


def _seated_where(name: str, matches: list[Match]) -> set[int]:
    return {m.players.index(name) for m in matches if name in m.players}


def test_each_player_is_played_by_its_own_agent_at_a_single_table() -> None:
    players = names(3)
    agents = {p: Recorder() for p in players}
    matches: list[Match] = []
    run_single_table(rules(rounds=1), players, seed=3, agents=agents, matches=matches)
    for p, agent in agents.items():
        assert agent.seats, f"{p} never played"
        assert set(agent.seats) <= _seated_where(p, matches)


def test_agents_follow_their_players_across_tables_and_ring_rounds() -> None:
    players = names(5)
    agents = {p: Recorder() for p in players}
    tourney = run_multi_table(rules(rounds=1), players, seed=1, max_table=3, agents=agents)
    assert tourney.winner in players
    assert all(agents[p].seats for p in players)  # all 5 sat at a first-level table (no byes with 3 + 2)
    ring = RingGame(1, names(3))
    ring_agents = {p: Recorder() for p in names(3)}
    play_ring(ring, rules(), 2, seed=2, agents=ring_agents)
    assert all(a.seats for a in ring_agents.values())


def test_a_player_without_an_agent_is_refused() -> None:
    with pytest.raises(FormatError, match="no agent for P2"):
        run_single_table(rules(), names(3), seed=1, agents={"P0": Recorder(), "P1": Recorder()})
