"""The PettingZoo environment: API and seed tests, rewards, hidden information, bad input."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from rummy500.env import env, raw_env, round_rewards
from rummy500.env.encoding import N_ACTIONS, token_name
from rummy500.env.observation import encode_view, layout, layout_for
from rummy500.env.table import Table
from rummy500.rules import Rules
from rummy500.state import Phase

# The standard game and presets with 2, 4 and 6 players.
CONFIGS = [
    ("standard", None),
    ("hoyle", 2),
    ("partnership", 4),
    ("popular", 6),
    ("dealers_gambit", 3),
]


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_pettingzoo_api_and_seed(preset: str, players: int | None) -> None:
    with warnings.catch_warnings():
        # Dict observations with an action mask are PettingZoo's own convention for card games.
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(env(rules={"preset": preset, "rounds": 1}, players=players), num_cycles=400)
        seed_test(lambda: env(rules=preset, players=players), num_cycles=150)


def random_episode(e, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=50_000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize(("preset", "players"), [("standard", 2), ("quick", 4), ("partnership", 4)])
def test_one_round_episode_rewards_are_score_differences(preset: str, players: int) -> None:
    e = raw_env(rules={"preset": preset, "rounds": 1}, players=players)
    totals = random_episode(e, seed=3)
    match = e.table.match
    assert e.agents == []  # every agent was stepped out after the end
    scores = match.rounds[0].round_scores
    expected = round_rewards(e.rules, scores)
    assert [totals[a] for a in e.possible_agents] == pytest.approx(expected)
    assert sum(expected) == pytest.approx(0.0)
    if len(match.rounds) == 1:
        assert match.is_over


def test_round_rewards() -> None:
    assert round_rewards(Rules(), [40, -10]) == [50.0, -50.0]
    assert round_rewards(Rules(players=3), [30, 0, -30]) == [45.0, 0.0, -45.0]
    partners = Rules.preset_rules("partnership")
    assert round_rewards(partners, [10, 5, 20, -5]) == [30.0, -30.0, 30.0, -30.0]


def test_masks_only_for_the_deciding_agent_and_observation_fits_the_space() -> None:
    e = raw_env(rules="popular", players=3)
    e.reset(seed=11)
    rng = random.Random(0)
    for _ in range(300):
        deciding = e.agent_selection
        for agent in e.possible_agents:
            obs = e.observe(agent)
            assert e.observation_space(agent).contains(obs)
            assert (obs["action_mask"].sum() > 0) == (agent == deciding)
        mask = e.observe(deciding)["action_mask"]
        e.step(rng.choice(list(np.flatnonzero(mask))))


def test_illegal_token_is_refused_with_a_clear_message_and_nothing_changes() -> None:
    e = raw_env(rules="standard")
    e.reset(seed=5)
    before = e.observe(e.agent_selection)
    bad = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {bad} .*not legal now"):
        e.step(bad)
    with pytest.raises(ValueError, match="out of range"):
        e.step(N_ACTIONS + 3)
    after = e.observe(e.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_render_shows_the_deciders_hand_only() -> None:
    e = raw_env(rules="standard", render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    seat = e.agent_name_mapping[e.agent_selection]
    hand = " ".join(str(c) for c in sorted(e.table.match.state.hands[seat]))
    assert f"{e.agent_selection} hand: {hand}" in text
    assert "hand:" in text and text.count("hand:") == 1
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert "round 1" in e.render()
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_selected_tokens_show_in_the_observation() -> None:
    e = raw_env(rules={"first_discard": "first_player"})  # the first decision is a discard or a meld
    e.reset(seed=1)
    lay = layout_for(e.rules)
    for _ in range(2000):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        selects = [t for t in np.flatnonzero(mask) if token_name(int(t)).startswith("SELECT")]
        if selects:
            e.step(int(selects[0]))
            obs = e.observe(agent)["observation"]
            assert obs[lay.offset("selected") + int(selects[0])] == 1.0
            assert e.agent_selection == agent  # still building the same decision
            return
        e.step(int(np.flatnonzero(mask)[0]))
    raise AssertionError("no meld was ever available")


HIDDEN_RULES = [
    {"preset": "standard"},
    {"preset": "popular", "players": 4},
    {"preset": "dealers_gambit"},
    {"players": 6, "calling_rummy": "steal"},
]


@pytest.mark.parametrize("mapping", HIDDEN_RULES)
def test_no_observation_holds_a_hidden_card(mapping: dict) -> None:
    """Swapping a card hidden from a seat (another hand's unseen card, the stock) never changes its observation."""
    rules = Rules.from_mapping(mapping)
    rng = random.Random(4)
    table = Table(rules, 4, max_rounds=1)
    checked = 0
    for _ in range(120):
        turn = table.turn()
        if turn is None:
            break
        state = table.match.state
        for seat in range(rules.players):
            other = rng.choice([s for s in range(rules.players) if s != seat])
            hidden = [c for c in state.hands[other] if c not in state.public.known[other]]
            stock = [c for c in state.stock if c not in hidden]
            if not hidden or not stock:
                continue
            obs = encode_view(state.view(seat, table.match.totals))
            twin = state.copy()
            a, b = rng.choice(hidden), rng.choice(stock)
            twin.hands[other][twin.hands[other].index(a)] = b
            twin.stock[twin.stock.index(b)] = a
            twin.forget_caches()  # the hands were edited directly
            assert np.array_equal(obs, encode_view(twin.view(seat, table.match.totals)))
            # The same swap is visible to the seat that holds the card, once it has looked at its cards
            # (Dealer's Gambit: nobody has before the dealer nominates).
            holder_sees = state.public.phase is not Phase.NOMINATE
            assert holder_sees != np.array_equal(
                encode_view(state.view(other, table.match.totals)), encode_view(twin.view(other, table.match.totals))
            )
            checked += 1
        table.play(rng.choice(turn.legal))
    assert checked > 100


def test_match_without_a_winner_is_truncated_at_max_rounds() -> None:
    e = raw_env(rules="standard", max_rounds=1)
    e.reset(seed=8)
    ends = []
    for agent in e.agent_iter(max_iter=50_000):
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            ends.append((agent, term, trunc, info["totals"]))
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(ends) == 2 and all(trunc and not term for _, term, trunc, _ in ends)
    assert len(e.table.match.rounds) == 2 and not e.table.match.is_over  # the next deal was never played


def test_observation_counts_cards_held_twice() -> None:
    """Two packs: a hand may hold two of a card; the hand field counts copies."""
    rules = Rules.from_mapping({"players": 6, "jokers": 4})
    table = Table(rules, 3)
    lay = layout_for(rules)
    rng = random.Random(1)
    twice = 0
    for _ in range(60):
        turn = table.turn()
        view = table.view(turn.seat)
        obs = encode_view(view)
        hand = obs[lay.offset("hand") : lay.offset("hand") + 53]
        assert hand.sum() == len(view.hand)
        twice += int(hand.max() >= 2)
        table.play(rng.choice(turn.legal))
    assert twice > 0


def test_wrapped_env_keeps_pettingzoo_checks() -> None:
    e = env(rules="standard")
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        _ = e.agent_selection
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        e.last()
    e.reset(seed=1)
    for bad in (N_ACTIONS, -1, "DRAW", 1.5):
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(bad)
    it = iter(e.agent_iter())
    agent = next(it)
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)
    obs, *_ = e.last()
    e.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))  # numpy integers are actions too
    assert next(it) == e.agent_selection
    assert agent in e.possible_agents


@pytest.mark.parametrize(
    ("rules", "cards"),
    [
        ({"preset": "standard"}, 54),
        ({"preset": "hoyle"}, 52),
        ({"preset": "persian"}, 56),
        ({"players": 6, "jokers": 4}, 108),
    ],
)
def test_the_observation_has_a_pile_row_per_card_of_the_game_and_a_meld_slot_per_three(rules, cards) -> None:
    e = raw_env(rules=rules)
    e.reset(seed=2)
    lay = layout_for(e.rules)
    assert (lay.cards, lay.meld_slots) == (cards, cards // 3)
    sizes = {name: size for name, _, size, _ in lay.fields}
    assert sizes["pile"] == cards * 53 and sizes["selected_depth"] == cards
    assert sizes["meld_cards"] == (cards // 3) * 105 and sizes["meld_owner"] == (cards // 3) * e.rules.players
    obs = e.observe(e.agent_selection)["observation"]
    assert obs.shape == (lay.size,) == e.observation_space(e.agent_selection)["observation"].shape
    # the two-pack layout is the default of layout(); the counts are divided by 108 in every layout
    assert layout(e.rules.players).cards == 108
    pile = e.table.view(e.agent_name_mapping[e.agent_selection]).discard
    assert obs[lay.offset("pile_size")] == pytest.approx(len(pile) / 108)


def test_a_layout_has_room_for_at_most_two_packs_and_four_jokers() -> None:
    with pytest.raises(ValueError, match="room for 3 to 108"):
        layout(2, 109)
