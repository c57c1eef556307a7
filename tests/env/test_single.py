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
    with pytest.raises(ValueError, match="render_mode"):
        SingleAgentEnv(render_mode="rgb_array")
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv(illegal_action="ignore")
    e = SingleAgentEnv(opponents="random", illegal_action="raise")
    obs, _ = e.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        e.step(bad)
    assert np.array_equal(e._obs()["observation"], obs["observation"])


def test_an_illegal_token_is_penalised_and_changes_nothing_by_default() -> None:
    e = SingleAgentEnv(opponents="random", illegal_penalty=2.5)
    obs, _ = e.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = e.step(bad)
    assert reward == -2.5 and not terminated and not truncated
    assert "not legal now" in info["illegal_action"]
    assert np.array_equal(after["observation"], obs["observation"]) and np.array_equal(after["action_mask"], obs["action_mask"])
    good = int(np.flatnonzero(obs["action_mask"])[0])
    _, _, _, _, info = e.step(good)
    assert "illegal_action" not in info


@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_gymnasium_s_own_checker_passes(render_mode: str | None) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from rummy500.env import GYM_ID

    # Made by its id, so the checker also tries the other render modes (it needs a spec).
    e = gymnasium.make(GYM_ID, rules={"rounds": 1}, players=3, opponents="easy", render_mode=render_mode).unwrapped
    assert isinstance(e, SingleAgentEnv)
    check_env(e, skip_render_check=render_mode is None)  # it steps action_space.sample(), masks or not
    e.reset(seed=2)
    assert (e.render() is None) == (render_mode is None)


def test_gymnasium_make_builds_the_environment_by_its_id() -> None:
    """``gymnasium.make("rummy500/Rummy500-v1", ...)``, as a Gymnasium user expects: wrapped, seeded, playable."""
    import gymnasium

    from rummy500.env import GYM_ID

    assert GYM_ID == "rummy500/Rummy500-v1"
    made = gymnasium.make(GYM_ID, rules={"rounds": 1}, players=3, opponents="easy")
    direct = SingleAgentEnv(rules={"rounds": 1}, players=3, opponents="easy")
    assert made.spec is not None and made.spec.id == GYM_ID
    obs, _ = made.reset(seed=3)
    want, _ = direct.reset(seed=3)
    for _ in range(400):
        assert (obs["action_mask"] == want["action_mask"]).all()
        token = int(obs["action_mask"].nonzero()[0][0])
        obs, reward, terminated, truncated, _ = made.step(token)
        want, reward2, terminated2, _, _ = direct.step(token)
        assert (reward, terminated) == (reward2, terminated2)
        if terminated or truncated:
            break
    assert terminated


# Eight seats of 13 cards: the bots sometimes finish the round before the last seat's first turn.
EARLY = {"players": 8, "hand_size": 13}


def test_reset_never_returns_an_episode_that_is_already_over() -> None:
    # Seed 7 deals a one-round match that the bots finished before seat 7's first turn (an
    # all-zero mask, a step refused); such a match is dealt again.
    for seed in range(12):
        e = SingleAgentEnv(rules={**EARLY, "rounds": 1}, opponents="random", seat=7)
        obs, info = e.reset(seed=seed)
        assert obs["action_mask"].any() and not e.table.over and not e.table.truncated
        assert info["reward_before_first_decision"] == 0.0
        obs, *_ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        again = SingleAgentEnv(rules={**EARLY, "rounds": 1}, opponents="random", seat=7)
        assert np.array_equal(again.reset(seed=seed)[0]["observation"], e.reset(seed=seed)[0]["observation"])


def test_reset_refuses_rules_that_leave_the_learner_no_decision(monkeypatch) -> None:
    import rummy500.env.single as single

    monkeypatch.setattr(single, "RESET_DEALS", 1)  # seed 7's first match ends before seat 7 decides
    e = SingleAgentEnv(rules={**EARLY, "rounds": 1}, opponents="random", seat=7)
    with pytest.raises(ValueError, match="1 matches in a row ended before seat 7 had a decision"):
        e.reset(seed=7)


def test_reward_before_first_decision_is_the_learners_reward_for_the_rounds_already_over() -> None:
    early = 0
    for seed in range(16):
        e = SingleAgentEnv(rules={**EARLY, "rounds": 3}, opponents="random", seat=7)
        obs, info = e.reset(seed=seed)
        assert obs["action_mask"].any()
        over = [r.round_scores for r in e.table.match.rounds if r.round_scores is not None]
        expected = sum(round_rewards(e.rules, scores)[7] for scores in over)
        assert info["reward_before_first_decision"] == pytest.approx(expected)
        early += bool(over)
    assert early  # some matches had a round over before the learner's first decision
