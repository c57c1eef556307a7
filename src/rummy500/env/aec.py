"""PettingZoo AEC environment of Rummy 500.

>>> from rummy500.env import env
>>> e = env(rules={"preset": "standard"}, players=2)
>>> e.reset(seed=7)
>>> obs, reward, termination, truncation, info = e.last()
>>> int(obs["action_mask"].sum()) > 0, e.agent_selection
(True, 'player_0')
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from rummy500.env.bounds import observation_bounds
from rummy500.env.encoding import N_ACTIONS, Decision, EncodingError, token_name
from rummy500.env.observation import SeatEncoder, layout_for
from rummy500.env.table import Table, Turn
from rummy500.rules import Rules

__all__ = ["env", "make_rules", "raw_env", "round_rewards"]


def make_rules(rules: Rules | Mapping[str, Any] | str | None = None, players: int | None = None) -> Rules:
    """Rules from a :class:`~rummy500.rules.Rules`, a ``rules`` mapping or a preset name.

    ``players`` (if given) overrides the seat count.
    """
    if isinstance(rules, Rules):
        return rules if players is None or players == rules.players else rules.replace(players=players)
    mapping: dict[str, Any] = {"preset": rules} if isinstance(rules, str) else dict(rules or {})
    if players is not None:
        mapping["players"] = players
    return Rules.from_mapping(mapping)


def round_rewards(rules: Rules, round_scores: list[int]) -> list[float]:
    """Each seat's reward for a finished round: its side's round score minus the mean of the other sides'.

    Rewards sum to zero over the seats. In a partnership both partners get their side's reward.
    """
    if rules.partnership:
        sides = [round_scores[0] + round_scores[2], round_scores[1] + round_scores[3]]
        return [float(sides[s % 2] - sides[1 - s % 2]) for s in range(4)]
    n = len(round_scores)
    total = sum(round_scores)
    return [float(s - (total - s) / (n - 1)) for s in round_scores]


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Rummy 500 as a PettingZoo AEC game (see ``docs/research.md``).

    Args:
        rules: a :class:`~rummy500.rules.Rules`, a ``rules`` mapping
            (``{"preset": "popular", "first_meld_min": 30}``) or a preset name.
        players: number of seats (overrides the rules).
        render_mode: ``"human"`` (print) or ``"ansi"`` (return the text), or None.
        max_rounds: truncate a match still without a winner after this many rounds.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "rummy500_v1", "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules | Mapping[str, Any] | str | None = None,
        players: int | None = None,
        render_mode: str | None = None,
        max_rounds: int = 50,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules, players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.max_rounds = max_rounds
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        lay = layout_for(self.rules)
        low, high = observation_bounds(self.rules, max_rounds)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._seed_rng = random.Random()
        self.table: Table | None = None
        self.decision: Decision | None = None
        self.turn_info: Turn | None = None
        # Each seat's observation, updated from position to position (only what changed is rewritten).
        target = float(self.rules.target) or 1.0
        self._encoders = [SeatEncoder(n, s, target, lay.cards) for s in range(n)]
        self._zero_rewards = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; ``seed`` fixes every shuffle of it."""
        if seed is not None:
            self._seed_rng = random.Random(seed)
        self.table = Table(self.rules, self._seed_rng.getrandbits(63), self.max_rounds)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._zero_rewards = True  # every reward is 0 (the dict is renewed only once one is not)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._next_decision()

    def _next_decision(self) -> None:
        assert self.table is not None
        turn = self.table.turn()
        self.turn_info = turn
        if turn is None:
            self.decision = None
            return
        self.decision = Decision(turn.legal)
        self.agent_selection = self.possible_agents[turn.seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation and action mask of ``agent`` (its mask is all 0 unless it decides now)."""
        table = self.table
        assert table is not None
        seat = self.agent_name_mapping[agent]
        turn = self.turn_info
        state = table.match.state
        assert state is not None
        if turn is not None and turn.seat == seat:
            # The seat's encoder rewrites only the fields this position changed; it hands out a copy.
            return self._encoders[seat].observe(state.public, state.seen_hand(seat), table.match.totals, turn.offer, self.decision)
        obs = self._encoders[seat].update(state.public, state.seen_hand(seat), table.match.totals, False).copy()
        return {"observation": obs, "action_mask": np.zeros(N_ACTIONS, dtype=np.int8)}

    def action_mask(self) -> np.ndarray:
        """The action mask of the agent to act (cheaper than a full observation)."""
        if self.decision is None:
            return np.zeros(N_ACTIONS, dtype=np.int8)
        return _mask(self.decision)

    def step(self, action: int | None) -> None:
        """Play one token of the acting agent (None for an agent that is done).

        Raises:
            ValueError: the token is not allowed by the action mask; nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table, decision = self.table, self.decision
        assert table is not None and decision is not None
        try:
            engine_action = decision.push(int(action))  # type: ignore[arg-type]
        except (EncodingError, TypeError, ValueError) as exc:
            raise ValueError(str(exc)) from None
        self._cumulative_rewards[agent] = 0.0
        if not self._zero_rewards:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._zero_rewards = True
        if engine_action is not None:
            finished = table.play(engine_action)
            if finished:
                rewards = self.rewards = dict.fromkeys(self.agents, 0.0)
                for scores in finished:
                    for i, r in enumerate(round_rewards(self.rules, scores)):
                        rewards[self.possible_agents[i]] += r
                self._zero_rewards = False
            self._next_decision()
            # the match ends only with a round (or, without a decision, nothing is left to play)
            if (finished or self.decision is None) and (table.over or table.truncated):
                done = table.over
                for a in self.agents:
                    self.terminations[a] = done
                    self.truncations[a] = not done
                    self.infos[a] = {"totals": list(table.match.totals), "winner": table.match.winner}
        if not self._zero_rewards:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text from the acting seat's side (its hand only)."""
        if self.render_mode is None:
            return None
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_text(self) -> str:
        """The text of :meth:`render`."""
        if self.table is None:
            return "(no game: call reset())"
        seat = self.agent_name_mapping[self.agent_selection]
        v = self.table.view(seat)
        lines = [
            f"round {len(self.table.match.rounds)}  totals {list(self.table.match.totals)}  "
            f"{self.agent_selection} to decide ({'offer' if self.turn_info and self.turn_info.offer else v.phase})",
            "pile (top last): " + " ".join(str(c) for c in v.discard),
            f"stock: {v.stock_count}  hand sizes: {list(v.hand_sizes)}",
        ]
        for m in v.melds:
            lines.append(f"  meld {m.id} (player_{m.owner}): " + " ".join(str(c) for c in m.cards))
        lines.append(f"{self.agent_selection} hand: " + " ".join(str(c) for c in v.hand))
        if self.decision is not None and self.decision.selected:
            lines.append("selected: " + ", ".join(token_name(t) for t in self.decision.selected))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def _mask(decision: Decision) -> np.ndarray:
    """The action mask of a decision at its current prefix."""
    return np.frombuffer(decision.mask(), dtype=np.int8)


def env(**kwargs: Any) -> AECEnv:
    """:class:`raw_env` wrapped in PettingZoo's assertion and order-enforcing wrappers.

    They are PettingZoo's ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``
    with the same checks, made cheaper per step: ``last``, ``step`` and
    ``agent_iter`` reach the environment directly instead of through two
    ``__getattr__`` forwards for every attribute.
    """
    e: AECEnv = raw_env(**kwargs)
    e = _AssertOutOfBounds(e)
    e = _OrderEnforcing(e)
    return e


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's check that a step's action is in the action space (or None for a finished agent)."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def step(self, action: Any) -> None:
        raw = self._raw
        agent = raw.agent_selection
        # Discrete(N_ACTIONS).contains, an int first (the common case) without numpy
        ok = (action is None and (raw.terminations[agent] or raw.truncations[agent])) or (
            0 <= action < N_ACTIONS if type(action) is int else raw.action_space(agent).contains(action)
        )
        assert ok, "action is not in action space"
        raw.step(action)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing (reset first, step in an ``agent_iter`` loop), with a direct path per step."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # PettingZoo's errors
        return self._raw.last(observe)

    def step(self, action: Any) -> None:
        if self._has_reset and self._raw.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # PettingZoo's error
        return _AgentIterable(self, max_iter)


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the agents from the environment directly."""

    def __next__(self) -> str:
        env = self.env
        raw = env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        agent: str = raw.agent_selection
        return agent
