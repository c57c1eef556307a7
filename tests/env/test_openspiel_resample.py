"""OpenSpiel: resample_from_infostate for every seat gives a state that decides from its own hands and plays on."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import rummy500.env.openspiel  # noqa: F401 - registers the game
from rummy500.env.encoding import Decision
from rummy500.env.openspiel import GAME_NAME, Rummy500State


def step(state: Rummy500State, rng: np.random.Generator) -> None:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def legal_of_own_hands(state: Rummy500State) -> list[int]:
    """The next tokens of the engine's legal actions for the decider's hand as the state deals it."""
    decision = Decision(state.c.table.match.state.view(state.current_player()).legal)
    decision.prefix = state.c.decision.selected  # the tokens it has selected so far
    return sorted(decision.next_tokens())


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"preset": "popular", "players": 3},
        {"preset": "popular", "meld_out_of_turn": True, "players": 3},  # offers depend on the hands
        {"must_use_taken": "always", "players": 2},  # a card taken from the pile must be used
    ],
    ids=["standard", "popular-3", "meld-out-of-turn", "must-use-taken"],
)
def test_resampling_for_every_seat_gives_a_state_that_plays_to_the_end(params: dict) -> None:
    game = pyspiel.load_game(GAME_NAME, {**params, "max_rounds": 1})
    n = game.num_players()
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    decisions = resampled = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            decisions += 1
        if state.is_chance_node() or decisions % 9:
            step(state, rng)
            continue
        decider = state.current_player()
        for player in range(n):
            other = state.resample_from_infostate(player, random.Random(decisions * n + player).random)
            resampled += 1
            # the seat to decide gets the legal actions of the hand it holds in the resampled state
            assert other.legal_actions() == legal_of_own_hands(other)
            if player == decider:
                assert other.current_player() == decider
                assert other.legal_actions() == state.legal_actions()
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.information_state_tensor(player) == state.information_state_tensor(player)
            play_on = np.random.default_rng(resampled)
            while not other.is_terminal():
                step(other, play_on)
            assert sum(other.returns()) == pytest.approx(0.0)
        step(state, rng)
    assert resampled >= 4 * n


def test_a_selection_in_progress_stays_with_its_decider_only() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "max_rounds": 1})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node() or not state.c.decision.selected:
        step(state, rng)
    decider = state.current_player()
    own = state.resample_from_infostate(decider, random.Random(1).random)
    assert own.legal_actions() == state.legal_actions()
    assert "| selected SELECT" in own.observation_string(decider)
    for seed in range(5):
        other = state.resample_from_infostate(1 - decider, random.Random(seed).random)
        # the decider's selection was its own secret: in the new deal it starts its action afresh
        assert "selected" not in other.observation_string(decider)
        assert other.legal_actions() == legal_of_own_hands(other)
        play_on = np.random.default_rng(seed)
        while not other.is_terminal():
            step(other, play_on)
