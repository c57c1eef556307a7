"""Observation spaces with finite bounds that hold every observation; bad opponent levels refused up front."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from rummy500.env import raw_env
from rummy500.env.single import SingleAgentEnv

RULES = [
    {"rounds": 1},
    {"preset": "persian", "rounds": 1},
    {"custom_values": {"A": 1000, "K": -300}, "rounds": 1},
    {"decks": 2, "jokers": 4, "players": 3, "rounds": 1},
    {"preset": "dealers_gambit", "rounds": 1},
]
IDS = ["standard", "persian", "custom-values", "two-packs", "dealers-gambit"]


def assert_finite(space) -> None:  # noqa: ANN001 - a gymnasium Dict space
    box = space["observation"]
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert (box.low < box.high).all()


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_single_agent_observations_lie_inside_finite_bounds(rules: dict) -> None:
    e = SingleAgentEnv(rules=rules, opponents="random", max_rounds=3)
    assert_finite(e.observation_space)
    rng = np.random.default_rng(0)
    obs, _ = e.reset(seed=0)
    done = False
    while not done:
        assert e.observation_space.contains(obs)
        obs, _, terminated, truncated, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = terminated or truncated
    assert e.observation_space.contains(obs)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_pettingzoo_observations_lie_inside_finite_bounds(rules: dict) -> None:
    e = raw_env(rules=rules, max_rounds=3)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    for agent in e.agent_iter():
        space = e.observation_space(agent)
        assert_finite(space)
        for other in e.agents:
            assert space.contains(e.observe(other))
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_gymnasium_s_checker_has_no_bound_to_warn_about() -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(SingleAgentEnv(rules={"rounds": 1}, opponents="easy"), skip_render_check=True)
    assert not [w for w in caught if "infinity" in str(w.message)]


def test_an_unknown_opponent_level_is_refused_when_the_environment_is_made() -> None:
    with pytest.raises(ValueError, match=r"unknown opponent level 'strong' \(levels: random, easy, medium, hard, expert\)"):
        SingleAgentEnv(opponents="strong")
    with pytest.raises(ValueError, match="unknown opponent level 'strong'"):
        SingleAgentEnv(players=3, opponents=["easy", "strong"])
    with pytest.raises(ValueError, match="unknown opponent level 3"):
        SingleAgentEnv(opponents=[3])
    SingleAgentEnv(opponents=" Expert ")  # a level as make_bot reads it: case and spaces do not matter
