"""Example drivers: play every format to the end with real matches and a policy.

These are what the CLI (``rummy500 tournament --format``) and the tests use
to run formats unattended (the web app runs no tourneys). A *policy* is any ``choose_action(view, rng) -> Action``
that picks one of ``view.legal``; :func:`random_policy` picks uniformly.
Instead of one policy for every seat, ``agents`` may give each player (by
name) their own :class:`~rummy500.drive.Agent` -- a bot of
:func:`rummy500.bots.make_bot`, for instance -- which follows them from table
to table (``rummy500 tournament --format`` does this).
Every round is played in a :class:`~rummy500.match.Match`, so each game keeps
its RECORD.md record; randomness comes only from the ``random.Random`` given
(or the seed), so a seed reproduces a whole tourney.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from rummy500.actions import Action
from rummy500.drive import Agent, PolicyAgent, drive
from rummy500.events import Event
from rummy500.formats.chips import RingGame, RingRound
from rummy500.formats.games import FormatError, table_rules
from rummy500.formats.multi import MultiTableTourney
from rummy500.formats.tables import SingleTableTourney, TableGame, check_format_rules
from rummy500.match import Match
from rummy500.rules import Rules
from rummy500.scoring import RoundResult
from rummy500.state import Decision
from rummy500.views import View

__all__ = [
    "Policy",
    "play_ring",
    "play_round",
    "play_table",
    "random_policy",
    "run_multi_table",
    "run_single_table",
]

Policy = Callable[[View, random.Random], Action]
"""``choose_action(view, rng)``: one of ``view.legal`` for the seat the view belongs to."""

MAX_ACTIONS = 200_000
"""A round with more actions than this is taken to be stuck (a policy that never ends it)."""


def random_policy(view: View, rng: random.Random) -> Action:
    """Choose uniformly among the legal actions."""
    return rng.choice(view.legal)


def _child_rng(rng: random.Random) -> random.Random:
    # Each match shuffles from its own generator, seeded from the driver's.
    return random.Random(rng.getrandbits(64))


def play_round(
    match: Match,
    policy: Policy,
    rng: random.Random,
    *,
    max_actions: int = MAX_ACTIONS,
    agents: Mapping[str, Agent] | None = None,
) -> RoundResult:
    """Play the match's current round to its end and return its result.

    The policy plays each seat's turns through the one decision loop
    (:func:`rummy500.drive.drive`); out-of-turn offers are declined (they are
    left to real players). With ``agents``, each seat is played by the agent
    of the player sitting there (``match.players``), offers included. The
    match then deals its next round itself unless it is over.

    Raises:
        FormatError: the match has no round in play, the round exceeds
            ``max_actions``, a player has no agent, or the seat to move has no
            legal action (the engine left the round stuck: the message says
            where).
        IllegalAction: the policy or an agent chose an action that is not legal.
    """
    state = match.state
    if state is None or state.is_over or match.is_over:
        raise FormatError("the match has no round in play")
    where = f"round {match.round_index + 1}"

    def checked(view: View, rng: random.Random) -> Action:
        if not view.legal:
            raise FormatError(f"{where}: seat {view.seat} is to move ({view.phase}) but has no legal action")
        return policy(view, rng)

    seats: list[Agent]
    if agents is None:
        seats = [PolicyAgent(checked)] * match.rules.players
    else:
        missing = [name for name in match.players if name not in agents]
        if missing:
            raise FormatError(f"no agent for {', '.join(missing)}")
        seats = [agents[name] for name in match.players]
    applied = [0]

    def count(_d: Decision, _a: Action, _e: list[Event]) -> None:
        applied[0] += 1

    drive(match, seats, rng, until=lambda: state.is_over or applied[0] >= max_actions, observe=count)
    if not state.is_over:
        raise FormatError(f"the round did not end within {max_actions} actions")
    assert state.result is not None
    return state.result


def play_table(
    game: TableGame,
    policy: Policy = random_policy,
    rng: random.Random | None = None,
    *,
    seed: int | None = None,
    matches: list[Match] | None = None,
    agents: Mapping[str, Agent] | None = None,
) -> str:
    """Play a table to its winner, one ``Match`` per game and one per change of players.

    Args:
        game: the table (a :class:`SingleTableTourney` or a multi-table table).
        policy: the policy of every seat.
        rng: the source of every shuffle and policy choice (default: ``random.Random(seed)``).
        seed: seed for the default rng.
        matches: if given, every match played is appended (for their records).
        agents: each player's own agent, by name (instead of ``policy``).

    Returns:
        The winner's name.
    """
    rng = rng if rng is not None else random.Random(seed)
    match: Match | None = None
    while not game.is_over:
        spec = game.next_round()
        if spec.new_game or match is None or match.is_over:
            match = Match(spec.rules, spec.players, spec.scores, rng=_child_rng(rng))
            if matches is not None:
                matches.append(match)
        game.record_round(play_round(match, policy, rng, agents=agents))
    assert game.winner is not None
    return game.winner


def run_single_table(
    rules: Rules,
    players: Sequence[str],
    policy: Policy = random_policy,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    matches: list[Match] | None = None,
    agents: Mapping[str, Agent] | None = None,
) -> SingleTableTourney:
    """Run a whole single-table tourney and return it, finished (``agents``: see :func:`play_table`)."""
    tourney = SingleTableTourney(rules, players)
    play_table(tourney, policy, rng if rng is not None else random.Random(seed), matches=matches, agents=agents)
    return tourney


def run_multi_table(
    rules: Rules,
    players: Sequence[str],
    policy: Policy = random_policy,
    *,
    seed: int | None = None,
    max_table: int | None = None,
    min_table: int = 2,
    agents: Mapping[str, Agent] | None = None,
) -> MultiTableTourney:
    """Run a whole multi-table tourney and return it, finished.

    One seed drives both the draw (seating, byes) and the play. ``agents``:
    see :func:`play_table`.
    """
    rng = random.Random(seed)
    tourney = MultiTableTourney(rules, players, max_table=max_table, min_table=min_table, rng=_child_rng(rng))
    while not tourney.is_over:
        for table in tourney.open_tables():
            play_table(table, policy, rng, agents=agents)
    return tourney


def play_ring(
    ring: RingGame,
    rules: Rules,
    rounds: int,
    policy: Policy = random_policy,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    agents: Mapping[str, Agent] | None = None,
) -> list[RingRound]:
    """Play ``rounds`` rounds at a ring table, each in its own one-round ``Match``.

    Args:
        ring: the table (its seating decides each round's players and dealer).
        rules: the rules; ``players`` is set to the number seated each round.
        rounds: how many rounds to play.
        policy: the policy of every seat.
        seed: seed for the default rng.
        rng: the source of every shuffle and choice.
        agents: each player's own agent, by name (instead of ``policy``).

    Returns:
        The settled rounds.

    Raises:
        FormatError: partnership rules (a ring game's chips are settled
            player by player: partners would pay each other).
    """
    check_format_rules(rules)
    rng = rng if rng is not None else random.Random(seed)
    out = []
    for _ in range(rounds):
        players, dealer = ring.start_round()
        match = Match(table_rules(rules, len(players)), players, rng=_child_rng(rng), dealer=dealer)
        out.append(ring.finish_round(play_round(match, policy, rng, agents=agents)))
    return out
