"""The OpenSpiel game python_rummy500: random simulation test, parameters, tensors, resampling."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import rummy500.env.openspiel  # noqa: F401 - registers the game
from rummy500.env.openspiel import GAME_NAME, Rummy500State
from rummy500.rules import RulesError


@pytest.mark.parametrize(
    "params",
    [
        {"max_rounds": 1},
        {"preset": "popular", "players": 4, "max_rounds": 1},
        {"preset": "dealers_gambit", "max_rounds": 1},
        {"stock_out": "reshuffle", "players": 3, "max_rounds": 1, "jokers": "4"},
    ],
    ids=["standard", "popular-4", "dealers_gambit", "reshuffle"],
)
def test_random_sim_test(params: dict) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_random_sim_test_with_serialization() -> None:
    game = pyspiel.load_game(GAME_NAME, {"preset": "quick", "players": 5, "max_rounds": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_parameters_pick_the_rules() -> None:
    quick = pyspiel.load_game(GAME_NAME, {"preset": "quick", "first_meld_min": 30, "decks": "2"})
    rules = quick.rules
    assert (rules.card_values, rules.target, rules.first_meld_min, rules.decks) == ("flat", 100, 30, 2)
    assert pyspiel.load_game(GAME_NAME, {"players": 6}).num_players() == 6
    with pytest.raises(RulesError, match="calling_rummy"):
        pyspiel.load_game(GAME_NAME, {"calling_rummy": "sometimes"})


def play_to_decision(state: Rummy500State, rng: np.random.Generator, decisions: int) -> None:
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        if made == decisions:
            return
        state.apply_action(int(rng.choice(state.legal_actions())))
        made += 1


def test_chance_deals_card_by_card_with_the_right_odds() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, pytest.approx(1 / 3)), (1, pytest.approx(1 / 3)), (2, pytest.approx(1 / 3))]
    state.apply_action(1)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 53 and outcomes[52] == pytest.approx(2 / 54)  # two jokers in 54 cards
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_resample_keeps_what_the_player_sees_and_redeals_the_rest() -> None:
    game = pyspiel.load_game(GAME_NAME, {"preset": "popular", "players": 3})
    state = game.new_initial_state()
    play_to_decision(state, np.random.default_rng(2), 40)
    player = state.current_player()
    hidden = [sorted(h) for s, h in enumerate(state.c.table.match.state.hands) if s != player]
    differs = 0
    for _ in range(5):
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.legal_actions() == state.legal_actions()
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.information_state_string(player) == state.information_state_string(player)
        differs += [sorted(h) for s, h in enumerate(other.c.table.match.state.hands) if s != player] != hidden
    assert differs >= 4
    # the original is untouched by its resamples and clones
    assert [sorted(h) for s, h in enumerate(state.c.table.match.state.hands) if s != player] == hidden


def test_information_state_string_has_own_draws_only() -> None:
    game = pyspiel.load_game(GAME_NAME, {})
    state = game.new_initial_state()
    play_to_decision(state, np.random.default_rng(5), 60)
    texts = [state.information_state_string(p) for p in range(2)]
    hands = state.c.history[0].hands
    for p in range(2):
        other = 1 - p
        lines = texts[p].splitlines()
        own = [line for line in lines if line.startswith(f"drew seat={p} ")]
        theirs = [line for line in lines if line.startswith(f"drew seat={other} ")]
        assert own and theirs
        assert all("cards=" in line for line in own)  # the drawn card is named
        assert all("cards=" not in line for line in theirs)
        assert lines[0] == f"dealt round=1 dealer={state.c.history[0].dealer} hand={' '.join(map(str, hands[p]))}"


def test_ismcts_bot_plays_a_move() -> None:
    game = pyspiel.load_game(GAME_NAME, {"preset": "quick", "max_rounds": 1})
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 8, random_state=np.random.RandomState(1)
    )
    state = game.new_initial_state()
    play_to_decision(state, np.random.default_rng(0), 0)
    action = bot.step(state)
    assert action in state.legal_actions()


def test_reshuffle_is_dealt_by_chance_card_by_card() -> None:
    game = pyspiel.load_game(GAME_NAME, {"stock_out": "reshuffle", "players": 3, "max_rounds": 1, "jokers": "4"})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)  # this seed's random play empties the stock
    while not state.is_terminal():
        if state.is_chance_node() and state.c.dealer is not None and state.c.table.chance == "reshuffle":
            round_state = state.c.table.match.state
            under_top = sorted(round_state.public.discard[:-1])
            top = round_state.public.discard[-1]
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                state.apply_action(int(rng.choice([o for o, _ in outcomes], p=[p for _, p in outcomes])))
            assert sorted(round_state.stock) == under_top and round_state.public.discard == (top,)
            return
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    raise AssertionError("the stock never ran out")


def test_rewards_of_every_state_chance_nodes_included_sum_to_the_returns() -> None:
    # OpenSpiel (spiel.h): Returns(S_t) is the sum of Rewards(S_0..S_t). A round's rewards are paid at
    # the first decision after the next deal, never at the deal's chance nodes.
    game = pyspiel.load_game(GAME_NAME, {"preset": "quick", "max_rounds": 2})
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    summed = np.zeros(2)
    paid_at_chance = 0
    rounds_paid = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        rewards = np.array(state.rewards())
        summed += rewards
        paid_at_chance += int(state.is_chance_node() and bool(rewards.any()))
        rounds_paid += int(rewards.any())
        assert np.allclose(summed, state.returns())
    assert paid_at_chance == 0
    assert rounds_paid == len(state.c.table.match.rounds) == 2
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)  # decision nodes alone agree too


def test_a_selection_in_progress_is_the_deciders_secret() -> None:
    game = pyspiel.load_game(GAME_NAME, {})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(400):
        play_to_decision(state, rng, 1)
        player = state.current_player()
        selects = [a for a in state.legal_actions() if state.action_to_string(player, a).startswith("SELECT")]
        if selects:
            break
    else:
        pytest.fail("no selection met")
    other = 1 - player
    before = (state.information_state_string(other), state.observation_string(other))
    state.apply_action(selects[0])
    assert state.current_player() == player
    assert "selected SELECT" in state.observation_string(player)
    # The other player's strings are unchanged, as its tensors are.
    assert (state.information_state_string(other), state.observation_string(other)) == before


def test_under_dealers_gambit_the_hands_are_looked_at_only_after_the_nomination() -> None:
    """The information state does not show a hand before the dealer nominates; after, each seat looks at its own."""
    game = pyspiel.load_game(GAME_NAME, {"preset": "dealers_gambit", "players": 2, "max_rounds": 1})
    state = game.new_initial_state()
    play_to_decision(state, np.random.default_rng(3), 0)  # dealt: the dealer is to nominate
    assert [state.action_to_string(a) for a in state.legal_actions()][0] == "NOMINATE wild"
    for player in range(2):
        text = state.information_state_string(player)
        assert "hand=face down" in text and "looked" not in text, text
        assert text.splitlines()[-1].startswith(f"p{player} hand  | pile"), text
    state.apply_action(state.legal_actions()[0])  # the dealer nominates
    for player in range(2):
        text = state.information_state_string(player)
        hand = " ".join(str(c) for c in sorted(state.c.table.match.state.hands[player]))
        assert f"looked hand={hand}" in text, text
        assert text.splitlines()[-1].startswith(f"p{player} hand {hand} | pile"), text
