"""The Gymnasium single-agent environment against built-in bots."""

from __future__ import annotations

import numpy as np
import pytest

from rummy500.env import round_rewards
from rummy500.env.single import SingleAgentEnv


def play(e: SingleAgentEnv, seed: int) -> tuple[float, list[np.ndarray], dict]:
    rng = np.random.default_rng(seed)
    obs, info = e.reset(seed=seed)
    total = info["reward_before_first_decision"]
    seen = [obs["observation"]]
    done = False
    while not done:
        assert e.observation_space.contains(obs)
        token = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, term, trunc, info = e.step(token)
        total += reward
        seen.append(obs["observation"])
        done = term or trunc
    return total, seen, info


@pytest.mark.parametrize(("opponents", "players"), [("random", 2), ("easy", 3), (["medium", "random", "easy"], 4)])
def test_episode_reward_is_the_learners_round_reward(opponents, players) -> None:
    e = SingleAgentEnv(rules={"preset": "standard", "rounds": 1}, players=players, opponents=opponents, seat="random")
    total, _, info = play(e, seed=9)
    m = e.table.match
    assert m.is_over and info["winner"] == m.winner
    expected = sum(round_rewards(e.rules, r.round_scores)[e.seat] for r in m.rounds)
    assert total == pytest.approx(expected)
    assert not e.action_masks().any()
    with pytest.raises(ValueError, match="episode is over"):
        e.step(0)


def test_same_seed_same_episode() -> None:
    make = lambda: SingleAgentEnv(rules={"preset": "quick", "rounds": 1}, opponents="easy")  # noqa: E731
    a, b = play(make(), seed=4), play(make(), seed=4)
    assert a[0] == b[0] and len(a[1]) == len(b[1])
    assert all(np.array_equal(x, y) for x, y in zip(a[1], b[1], strict=True))


def test_bad_arguments_and_bad_tokens() -> None:
    with pytest.raises(ValueError, match="opponent levels"):
        SingleAgentEnv(players=3, opponents=["easy"])
    with pytest.raises(ValueError, match="seat must be"):
        SingleAgentEnv(seat=5)
    e = SingleAgentEnv(opponents="random")
    obs, _ = e.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        e.step(bad)
    assert np.array_equal(e._obs()["observation"], obs["observation"])
