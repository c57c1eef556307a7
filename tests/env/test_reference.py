"""The environment's observations and masks are exactly those of the reference encoders.

The environment keeps each seat's observation up to date from position to
position and walks the mask trie lazily; ``reference.py`` builds both from
scratch from the seat's view. Over seeded playouts of every preset and of the
variants whose actions no preset produces, at every token step, the seats
observed (the deciding one always, others at random, so each seat's encoder
also catches up over several positions at once) get the same tensor and mask.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from tests.env.reference import ReferenceDecision, reference_observation
from tests.env.test_encoding import VARIANTS

from rummy500.env import raw_env
from rummy500.env.observation import encode_view
from rummy500.rules import PRESETS


def play_and_compare(mapping: dict, seed: int, max_steps: int) -> int:
    """Random tokens through ``raw_env``; every observation checked against the reference. Returns the count."""
    e = raw_env(rules=mapping, max_rounds=3)
    e.reset(seed=seed)
    rng = random.Random(seed)
    ref: ReferenceDecision | None = None
    ref_for = None
    compared = 0
    for _ in range(max_steps):
        if not e.agents:
            break
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        if e.decision is not ref_for:  # a new decision
            ref, ref_for = ReferenceDecision(e.turn_info.legal), e.decision
        assert ref is not None
        seat = e.agent_name_mapping[agent]
        observed = [a for a in e.possible_agents if a == agent or rng.random() < 0.3]
        for other in observed:
            s = e.agent_name_mapping[other]
            got = e.observe(other)
            deciding = s == seat
            want = reference_observation(
                e.table.view(s), ref.prefix if deciding else (), deciding and e.turn_info.offer
            )
            assert got["observation"].dtype == want.dtype
            np.testing.assert_array_equal(got["observation"], want, err_msg=f"seat {s}")
            want_mask = ref.mask() if deciding else np.zeros_like(got["action_mask"])
            np.testing.assert_array_equal(got["action_mask"], want_mask, err_msg=f"mask of seat {s}")
            compared += 1
        np.testing.assert_array_equal(e.action_mask(), ref.mask())
        legal = np.flatnonzero(ref.mask())
        # Prefer argument tokens now and then, so multi-token actions are built often.
        token = int(legal[rng.randrange(len(legal))])
        ref.push(token)
        e.step(token)
        if ref.prefix == () and e.decision is ref_for:
            raise AssertionError("the reference committed an action the environment did not")
    return compared


CASES = {**{name: {"preset": name} for name in PRESETS}, **{k: v for k, v in VARIANTS.items() if ":" not in k}}


@pytest.mark.parametrize("name", list(CASES))
def test_observations_and_masks_match_the_reference(name: str) -> None:
    compared = seed = 0
    while compared < 1200 and seed < 20:  # some formats end after a round or two
        compared += play_and_compare(CASES[name], seed, 700)
        seed += 1
    assert compared >= 1200


def test_encode_view_matches_the_reference() -> None:
    e = raw_env(rules={"preset": "popular", "players": 4})
    e.reset(seed=5)
    rng = random.Random(5)
    for _ in range(400):
        for s in range(4):
            view = e.table.view(s)
            np.testing.assert_array_equal(encode_view(view, (), s == 1), reference_observation(view, (), s == 1))
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_a_copied_environment_plays_on_alike() -> None:
    e = raw_env(rules="standard")
    e.reset(seed=9)
    for _ in range(30):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    twin = copy.deepcopy(e)
    for _ in range(200):
        if not e.agents or e.terminations[e.agent_selection]:
            break
        a, b = e.observe(e.agent_selection), twin.observe(twin.agent_selection)
        np.testing.assert_array_equal(a["observation"], b["observation"])
        np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
        token = int(np.flatnonzero(a["action_mask"])[-1])
        e.step(token)
        twin.step(token)


@pytest.mark.parametrize("params", [{"max_rounds": 2}, {"preset": "popular", "players": 3, "max_rounds": 1}])
def test_openspiel_observation_tensor_matches_the_reference(params: dict) -> None:
    import pyspiel

    import rummy500.env.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_rummy500", params)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    compared = 0
    while not state.is_terminal() and compared < 1500:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        turn = state.c.table.turn()
        for player in range(game.num_players()):
            deciding = player == turn.seat
            want = reference_observation(
                state.view_of(player), state.c.decision.selected if deciding else (), deciding and turn.offer
            )
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(player)), want)
            compared += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert compared >= 400


def test_single_agent_observation_matches_the_reference() -> None:
    from rummy500.env.single import SingleAgentEnv

    e = SingleAgentEnv(rules={"preset": "standard"}, opponents="easy")
    obs, _ = e.reset(seed=2)
    rng = random.Random(2)
    for _ in range(600):
        turn = e.table.turn()
        offer = turn is not None and turn.offer
        want = reference_observation(e.table.view(e.seat), e.decision.selected if e.decision else (), offer)
        np.testing.assert_array_equal(obs["observation"], want)
        if e.decision is None:
            break
        mask = ReferenceDecision(turn.legal)
        mask.prefix = e.decision.selected
        np.testing.assert_array_equal(obs["action_mask"], mask.mask())
        obs, _, terminated, truncated, _ = e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        if terminated or truncated:
            break
