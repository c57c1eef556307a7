"""The OpenSpiel game's parameters: game strings, serialization and pickling, explicit values, utility bounds."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest

import rummy500.env.openspiel  # noqa: F401 - registers the game
from rummy500.env.openspiel import GAME_NAME
from rummy500.rules import RulesError

from .test_openspiel import play_to_decision

# Every option whose values are words and numbers, given a number, and custom_values with several keys.
STRING_TYPED = [
    {"jokers": "4"},
    {"rounds": "1"},
    {"decks": "2", "players": 3},
    {"hand_size": "10"},
    {"joker_value": "20"},
    {"low_ace_value": "5"},
    {"preset": "popular", "rummy_card_value": "15"},
    {"custom_values": '{"QS": 40, "A": 20}'},
]


@pytest.mark.parametrize("params", STRING_TYPED, ids=lambda p: ",".join(p))
def test_string_typed_options_survive_game_strings_serialization_and_pickling(params: dict) -> None:
    game = pyspiel.load_game(GAME_NAME, {**params, "max_rounds": 1})
    rules = game.rules
    assert pyspiel.load_game(str(game)).rules == rules
    assert pyspiel.load_game(GAME_NAME, game.get_parameters()).rules == rules
    state = game.new_initial_state()
    play_to_decision(state, np.random.default_rng(0), 150)
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert game2.rules == rules and str(state2) == str(state)
    assert pickle.loads(pickle.dumps(game)).rules == rules
    unpickled = pickle.loads(pickle.dumps(state))
    assert str(unpickled) == str(state) and unpickled.legal_actions() == state.legal_actions()
    assert unpickled.get_game().rules == rules
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_an_unpickled_game_plays() -> None:
    game = pickle.loads(pickle.dumps(pyspiel.load_game(GAME_NAME, {"preset": "quick", "max_rounds": 1})))
    state = game.new_initial_state()
    play_to_decision(state, np.random.default_rng(1), 60)
    assert game.rules.target == 100 and not state.is_chance_node()


def test_game_strings_write_numbers_in_quotes_and_card_values_without_commas() -> None:
    game = pyspiel.load_game(GAME_NAME, {"jokers": "4", "custom_values": '{"QS": 40, "A": 20}'})
    text = str(game)
    assert "jokers='4'" in text and "custom_values={QS:40;A:20}" in text
    typed = pyspiel.load_game("python_rummy500(jokers='4',decks='2',players=3,custom_values={QS:40;A:20})")
    assert (typed.rules.jokers, typed.rules.decks, typed.rules.custom_values) == (4, 2, {"QS": 40, "A": 20})
    assert pyspiel.load_game(GAME_NAME, {"custom_values": "{QS:40;A:20}"}).rules.custom_values == {"QS": 40, "A": 20}
    with pytest.raises(RulesError, match="custom_values"):
        pyspiel.load_game(GAME_NAME, {"custom_values": "{QS=40}"})
    with pytest.raises(RulesError, match="custom_values"):
        pyspiel.load_game(GAME_NAME, {"custom_values": "{QS:forty}"})


def test_an_option_given_wins_over_the_preset_even_at_the_standard_value() -> None:
    popular = pyspiel.load_game(GAME_NAME, {"preset": "popular", "calling_rummy": "off"})
    assert popular.rules.calling_rummy == "off"
    assert "calling_rummy=off" in str(popular) and pyspiel.load_game(str(popular)).rules.calling_rummy == "off"
    quick = pyspiel.load_game(GAME_NAME, {"preset": "quick", "target": 500})
    assert quick.rules.target == 500 and pyspiel.load_game(str(quick)).rules.target == 500
    hoyle = pyspiel.load_game(GAME_NAME, {"preset": "hoyle", "jokers": "auto"})
    assert hoyle.rules.n_jokers == 2
    # left out, an option keeps the preset's value
    assert pyspiel.load_game(GAME_NAME, {"preset": "quick"}).rules.target == 100
    assert pyspiel.load_game(GAME_NAME, {"preset": "partnership"}).num_players() == 4
    with pytest.raises(RulesError, match="partnership needs players: 4"):
        pyspiel.load_game(GAME_NAME, {"preset": "partnership", "players": 2})


def test_str_of_a_game_names_the_preset_and_what_differs_from_it() -> None:
    game = pyspiel.load_game(GAME_NAME, {"preset": "quick", "target": 500, "first_meld_min": 30})
    assert str(game) == "python_rummy500(first_meld_min=30,max_rounds=20,players=2,preset=quick,target=500)"
    assert str(pyspiel.load_game(GAME_NAME, {"preset": "popular", "players": 4})) == (
        "python_rummy500(max_rounds=20,players=4,preset=popular)"
    )


def test_old_game_strings_load_the_games_they_were() -> None:
    short = pyspiel.load_game("python_rummy500(preset=popular,players=4)")
    assert (short.rules.calling_rummy, short.num_players()) == ("pile", 4)
    # str(game) of {"preset": "popular", "players": 4} before 7 December 2026: every option at its
    # standard value, which then meant "the preset's" (saved strings and pickles hold it).
    old = (
        "python_rummy500(around_the_corner=False,calling_rummy=off,card_values=standard,custom_values={},"
        "dealers_gambit=False,decks=auto,direction=clockwise,discard_back=False,discard_count=one,"
        "discard_draw=any_depth,final_bonus=0,first_dealer=high_card,first_discard=upcard,first_meld_min=0,"
        "four_aces_bonus=False,four_of_a_kind_double=False,going_out=any,going_out_bonus=0,hand_penalty=own,"
        "hand_size=auto,joker_swap=False,joker_use=wild,joker_value=auto,jokers=auto,layoff_needs_own_meld=False,"
        "layoff_onto=any,low_ace_value=auto,masters_hand=False,max_rounds=20,meld_out_of_turn=False,min_run=3,"
        "must_go_out_to_win=False,must_use_taken=if_several,next_dealer=left,partnership=False,players=4,"
        "preset=popular,rounds=to_target,rummy_after_going_out=False,rummy_card_value=normal,score_divisor=1,"
        "set_suits=distinct,short_pack=False,stock_draw_count=1,stock_out=end_round,stock_out_penalty=True,"
        "taken_card_use=meld_or_layoff,target=500)"
    )
    assert pyspiel.load_game(old).rules == short.rules


def random_returns(game: pyspiel.Game, seed: int) -> list[float]:
    state = game.new_initial_state()
    play_to_decision(state, np.random.default_rng(seed), 10**6)
    assert state.is_terminal()
    return state.returns()


@pytest.mark.parametrize(
    ("params", "seeds"),
    [
        ({"custom_values": '{"A": 1000}', "max_rounds": 1}, range(12)),  # seed 1 returns 4,150 (2,000 was declared)
        ({"custom_values": '{"K": -400, "JK": 300}', "players": 3, "max_rounds": 1}, range(4)),
        ({"preset": "persian", "max_rounds": 1}, range(3)),
    ],
    ids=["ace-1000", "negative-king", "persian"],
)
def test_utility_bounds_hold_the_returns(params: dict, seeds: range) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    assert game.min_utility() == -game.max_utility()
    largest = max(max(abs(r) for r in random_returns(game, seed)) for seed in seeds)
    assert 0 < largest <= game.max_utility()


def test_utility_bounds_follow_the_rules() -> None:
    bound = {
        key: pyspiel.load_game(GAME_NAME, params).max_utility()
        for key, params in {
            "standard": {"max_rounds": 1},
            "two rounds": {"max_rounds": 2},
            "ace 1000": {"custom_values": '{"A": 1000}', "max_rounds": 1},
            "two packs": {"decks": "2", "jokers": "4", "max_rounds": 1},
            "quick": {"preset": "quick", "max_rounds": 1},
        }.items()
    }
    assert bound["two rounds"] == 2 * bound["standard"]
    assert bound["ace 1000"] > bound["two packs"] > bound["standard"] > bound["quick"]


def test_max_rounds_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="max_rounds must be at least 1, not 0"):
        pyspiel.load_game(GAME_NAME, {"max_rounds": 0})
