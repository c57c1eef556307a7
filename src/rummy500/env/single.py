"""Gymnasium single-agent environment: one learning seat against built-in bots.

The learning seat sees the same observation and takes the same tokens as in
the PettingZoo environment; every other decision (the opponents' turns and
their out-of-turn offers) is played by :mod:`rummy500.bots` between two of its
steps. The reward of a step is the learner's round reward (see
:func:`~rummy500.env.aec.round_rewards`) summed over the rounds that step
finished.

>>> from rummy500.env.single import SingleAgentEnv
>>> e = SingleAgentEnv(rules={"preset": "standard", "rounds": 1}, opponents="easy")
>>> obs, info = e.reset(seed=3)
>>> obs["observation"].shape == e.observation_space["observation"].shape
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from rummy500.actions import Decline
from rummy500.bots import BOT_LEVELS, Bot, make_bot
from rummy500.env.aec import make_rules, round_rewards
from rummy500.env.bounds import observation_bounds
from rummy500.env.encoding import N_ACTIONS, Decision, EncodingError
from rummy500.env.observation import encode_public, layout_for
from rummy500.env.table import Table
from rummy500.rules import Rules

__all__ = ["RESET_DEALS", "SingleAgentEnv"]

#: How many matches :meth:`SingleAgentEnv.reset` deals, at most, to find one where the learner decides.
RESET_DEALS = 100


class SingleAgentEnv(gymnasium.Env):
    """One seat learns; the others are bots.

    Args:
        rules: rules, a ``rules`` mapping or a preset name.
        players: number of seats (overrides the rules).
        opponents: a bot level for every other seat, or one level per other seat
            (``random``, ``easy``, ``medium``, ``hard``, ``expert``).
        seat: the learner's seat, or ``"random"`` for a new one each episode.
        max_rounds: truncate a match still without a winner after this many rounds.
        render_mode: ``"ansi"`` (:meth:`render` returns the learner's view as
            text) or None (it returns None).
        illegal_action: what a token outside the action mask does: ``"penalty"``
            (the default: nothing changes, the step's reward is
            ``-illegal_penalty`` and ``info["illegal_action"]`` says why, so a
            learner without masks, or Gymnasium's ``check_env`` sampling
            ``action_space``, can step on) or ``"raise"`` (``ValueError``,
            nothing changes).
        illegal_penalty: the penalty of an illegal token (in round points).

    Raises:
        ValueError: an unknown opponent level, render mode or ``illegal_action``,
            a seat out of range, or a number of levels that is not one per other seat.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        rules: Rules | Mapping[str, Any] | str | None = None,
        players: int | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int | str = 0,
        max_rounds: int = 50,
        render_mode: str | None = None,
        illegal_action: str = "penalty",
        illegal_penalty: float = 1.0,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.rules = make_rules(rules, players)
        n = self.rules.players
        levels = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != n - 1:
            raise ValueError(f"{len(levels)} opponent levels for {n - 1} other seats")
        unknown = [lv for lv in levels if not isinstance(lv, str) or lv.strip().lower() not in BOT_LEVELS]
        if unknown:
            raise ValueError(f"unknown opponent level {unknown[0]!r} (levels: {', '.join(BOT_LEVELS)})")
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        self.levels = levels
        self.seat_choice = seat
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        lay = layout_for(self.rules)
        self._cards = lay.cards
        low, high = observation_bounds(self.rules, max_rounds)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.table: Table | None = None
        self.decision: Decision | None = None
        self.seat = 0
        self._bots: dict[int, Bot] = {}
        self._rng = random.Random()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """Deal a new match and play the bots up to the learner's first decision.

        A match that ends before the learner has anything to decide (the bots
        finish its last round, or the ``max_rounds``-th, before the learner's
        first turn or offer) is no episode: it is dropped and another one is
        dealt, with new bots, from the environment's random sequence (so a
        seed still fixes the episode), at most :data:`RESET_DEALS` times.

        The returned ``info["reward_before_first_decision"]`` is the learner's
        reward for the rounds that ended before its first decision (rounds the
        bots finished before the learner's first turn or offer; 0.0 almost
        always). No step returns it: add it to the episode's return.

        Raises:
            ValueError: :data:`RESET_DEALS` matches in a row ended before the
                learner's first decision (rules and a seat that leave it none).
        """
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.rules.players
        self.seat = self._rng.randrange(n) if self.seat_choice == "random" else int(self.seat_choice)
        others = [s for s in range(n) if s != self.seat]
        for _ in range(RESET_DEALS):
            levels = zip(others, self.levels, strict=True)
            self._bots = {s: make_bot(level, self._rng.getrandbits(32)) for s, level in levels}
            self.table = Table(self.rules, self._rng.getrandbits(63), self.max_rounds)
            reward = self._play_bots()
            if self.decision is not None:
                return self._obs(), {"reward_before_first_decision": reward, **self._info()}
        raise ValueError(
            f"{RESET_DEALS} matches in a row ended before seat {self.seat} had a decision: "
            "these rules and this seat leave the learner nothing to do"
        )

    def _play_bots(self) -> float:
        """Let the bots decide until it is the learner's turn or the match ends; the learner's reward meanwhile."""
        assert self.table is not None
        reward = 0.0
        while (turn := self.table.turn()) is not None and turn.seat != self.seat:
            view = self.table.view(turn.seat)
            action = self._bots[turn.seat].act(view, self._rng)
            reward += self._rewards(self.table.play(Decline() if action is None else action))
        self.decision = Decision(turn.legal) if turn is not None else None
        return reward

    def _rewards(self, finished: list[list[int]]) -> float:
        return sum(round_rewards(self.rules, scores)[self.seat] for scores in finished)

    def _obs(self) -> dict[str, np.ndarray]:
        assert self.table is not None
        turn = self.table.turn()
        selected = self.decision.selected if self.decision is not None else ()
        match = self.table.match
        state = match.state
        assert state is not None
        # what the learner's view holds: the public facts and its own hand
        target = float(self.rules.target) or 1.0
        obs = encode_public(
            state.public, self.seat, state.seen_hand(self.seat), match.totals, target, selected, turn is not None and turn.offer, self._cards
        )
        return {"observation": obs, "action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """The learner's action mask now (all 0 once the episode has ended)."""
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        if self.decision is not None:
            mask[list(self.decision.next_tokens())] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        assert self.table is not None
        m = self.table.match
        return {"seat": self.seat, "totals": list(m.totals), "winner": m.winner, "rounds": len(m.rounds)}

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        """Play one token of the learner; the bots answer before the learner's next decision.

        A token outside the action mask changes nothing: under
        ``illegal_action="penalty"`` the step returns the same observation,
        reward ``-illegal_penalty`` and ``info["illegal_action"]`` (the reason).

        Raises:
            ValueError: the episode is over, or (``illegal_action="raise"``) the
                token is not allowed by the action mask (nothing changes).
        """
        if self.table is None or self.decision is None:
            raise ValueError("the episode is over: call reset()")
        try:
            engine_action = self.decision.push(int(action))
        except (EncodingError, TypeError, ValueError) as exc:
            if self.illegal_action == "raise":
                raise ValueError(str(exc)) from None
            return self._obs(), -self.illegal_penalty, False, False, {**self._info(), "illegal_action": str(exc)}
        reward = 0.0
        if engine_action is not None:
            reward += self._rewards(self.table.play(engine_action))
            reward += self._play_bots()
        terminated = self.table.over
        truncated = self.table.truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``; None without a render mode)."""
        if self.table is None or self.render_mode is None:
            return None
        v = self.table.view(self.seat)
        return (
            f"seat {self.seat} totals {list(self.table.match.totals)} phase {v.phase}\n"
            f"pile: {' '.join(map(str, v.discard))}\nhand: {' '.join(map(str, v.hand))}"
        )
