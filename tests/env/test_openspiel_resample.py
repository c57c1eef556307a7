"""OpenSpiel: resample_from_infostate for every seat gives a state that decides from its own hands and plays on."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import rummy500.env.openspiel  # noqa: F401 - registers the game
from rummy500.cards import JOKER
from rummy500.env.encoding import Decision
from rummy500.env.openspiel import GAME_NAME, Rummy500State
from rummy500.events import Discarded, LaidOff, Melded, Swapped


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


def test_a_joker_won_by_a_swap_stays_with_the_swapper_in_every_resampled_state() -> None:
    # Everybody saw the joker go from the meld into the swapper's hand: until the swapper plays a
    # joker again, every state resampled for another seat deals it one (before the fix, 72 worlds
    # in 100 of the first swap below left it none).
    game = pyspiel.load_game(GAME_NAME, {"joker_swap": True, "players": 3, "max_rounds": 1})
    swaps = checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        won = [0, 0, 0]  # per seat: jokers won by a swap and not played since
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            seen = len(state.c.history)
            state.apply_action(rng.choice(state.legal_actions()))
            for e in state.c.history[seen:]:
                if isinstance(e, Swapped):
                    won[e.seat] += 1
                    swaps += 1
                elif isinstance(e, Melded | LaidOff | Discarded):
                    won[e.seat] = max(0, won[e.seat] - sum(c.is_joker for c in e.cards))
            if state.is_terminal() or state.is_chance_node() or not any(won):
                continue
            for seat in (s for s in range(3) if won[s]):
                other = (seat + 1) % 3
                for i in range(5):
                    world = state.resample_from_infostate(other, random.Random(i).random)
                    assert world.c.table.match.state.hands[seat].count(JOKER) >= won[seat]
                    checked += 1
    assert swaps >= 3 and checked >= 100
