"""OpenSpiel observers: the kind of observation asked for (``IIGObservationType``) is the kind given.

``private_info=SINGLE_PLAYER`` is the player's observation or information
state (the game's default tensors and strings); ``NONE`` is the public part
alone (no hand, no offer, no selection in progress: a smaller tensor, as
OpenSpiel's own games leave their private pieces out); anything else is
refused.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

import rummy500.env.openspiel  # noqa: F401 - registers the game
from rummy500.env.encoding import HAND_KINDS
from rummy500.env.observation import layout_for
from rummy500.env.openspiel import GAME_NAME, PRIVATE_FIELDS, Rummy500State

PUBLIC = pyspiel.PrivateInfoType.NONE
SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER
ALL = pyspiel.PrivateInfoType.ALL_PLAYERS


def kind(perfect_recall: bool, private_info: pyspiel.PrivateInfoType, public_info: bool = True):  # noqa: ANN201
    return pyspiel.IIGObservationType(perfect_recall=perfect_recall, public_info=public_info, private_info=private_info)


def observer(game: pyspiel.Game, perfect_recall: bool, private_info: pyspiel.PrivateInfoType):  # noqa: ANN201
    return make_observation(game, kind(perfect_recall, private_info))


def positions(game: pyspiel.Game, seed: int, every: int = 7) -> list[Rummy500State]:
    """Decision states of a random one-round game (every ``every``-th, and each with a selection in progress)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    k = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        k += 1
        if k % every == 0 or state.c.decision.selected:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    out.append(state)
    return out


def private_entries(game: pyspiel.Game) -> np.ndarray:
    lay = layout_for(game.rules)
    mask = np.zeros(lay.size, bool)
    for name, off, size, _ in lay.fields:
        mask[off : off + size] = name in PRIVATE_FIELDS
    return mask


@pytest.mark.parametrize(
    "params",
    [{"players": 2}, {"preset": "popular", "meld_out_of_turn": True, "players": 3}],
    ids=["standard", "offers"],
)
def test_the_public_observer_is_the_players_observation_less_its_private_fields(params: dict) -> None:
    game = pyspiel.load_game(GAME_NAME, {**params, "max_rounds": 1})
    n = game.num_players()
    hidden = private_entries(game)
    own = observer(game, False, SINGLE)
    own_info = observer(game, True, SINGLE)
    pub = observer(game, False, PUBLIC)
    pub_info = observer(game, True, PUBLIC)
    lay = layout_for(game.rules)
    assert pub.tensor.size == lay.size - hidden.sum()
    assert pub_info.tensor.size == pub.tensor.size + n * HAND_KINDS
    had_hand = had_selection = 0
    for state in positions(game, seed=3):
        for p in range(n):
            own.set_from(state, p)
            pub.set_from(state, p)
            np.testing.assert_array_equal(pub.tensor, own.tensor[~hidden])
            own_info.set_from(state, p)
            pub_info.set_from(state, p)
            np.testing.assert_array_equal(pub_info.tensor[: pub.tensor.size], pub.tensor)
            np.testing.assert_array_equal(pub_info.tensor[pub.tensor.size :], own_info.tensor[lay.size :])
            had_hand += bool(own.tensor[hidden].any())
            text, history = pub.string_from(state, p), pub_info.string_from(state, p)
            had_selection += "selected" in own.string_from(state, p)
            assert " hand" not in text and "selected" not in text
            assert "hand=" not in history and "selected" not in history
            assert history.splitlines()[-1] == text
    assert had_hand and had_selection


def test_the_public_observation_does_not_change_when_the_hidden_cards_are_dealt_again() -> None:
    game = pyspiel.load_game(GAME_NAME, {"preset": "popular", "players": 3, "max_rounds": 1})
    pub, pub_info, own = observer(game, False, PUBLIC), observer(game, True, PUBLIC), observer(game, False, SINGLE)
    changed = 0
    for state in positions(game, seed=5, every=11)[:-1]:
        for p in range(3):
            for q in range(3):
                if q == p:
                    continue
                world = state.resample_from_infostate(q, random.Random(p * 3 + q).random)
                for obs in (pub, pub_info):
                    obs.set_from(state, p)
                    before = obs.tensor.copy()
                    obs.set_from(world, p)
                    np.testing.assert_array_equal(obs.tensor, before)
                    assert obs.string_from(world, p) == obs.string_from(state, p)
                own.set_from(state, p)
                before = own.tensor.copy()
                own.set_from(world, p)
                changed += not np.array_equal(own.tensor, before)  # p's own hand was dealt again
    assert changed


def test_the_default_observers_are_the_players_observation_and_information_state() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "max_rounds": 1})
    state = positions(game, seed=1)[3]
    for obs, tensor, string in (
        (make_observation(game), state.observation_tensor, state.observation_string),
        (observer(game, False, SINGLE), state.observation_tensor, state.observation_string),
        (make_observation(game, INFO_STATE_OBS_TYPE), state.information_state_tensor, state.information_state_string),
    ):
        for p in range(2):
            obs.set_from(state, p)
            assert list(obs.tensor) == pytest.approx(tensor(p))
            assert obs.string_from(state, p) == string(p)
            assert f"p{p} hand " in string(p)


@pytest.mark.parametrize(
    ("obs_type", "params", "named"),
    [
        (kind(False, ALL), None, "ALL_PLAYERS"),
        (kind(True, ALL), None, "ALL_PLAYERS"),
        (kind(False, SINGLE, public_info=False), None, "public_info=False"),
        (kind(False, PUBLIC, public_info=False), None, "public_info=False"),
        (None, {"hands": "all"}, "observation parameters"),
    ],
    ids=["all-players", "all-players-recall", "private-only", "nothing", "params"],
)
def test_an_observation_not_supported_is_refused_by_name(obs_type, params, named: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "max_rounds": 1})
    with pytest.raises(ValueError, match=named):
        make_observation(game, obs_type, params)
