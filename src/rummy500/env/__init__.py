"""Rummy 500 for reinforcement learning and game theory (the ``research`` extra).

* :func:`env` / :class:`raw_env`: a PettingZoo AEC environment;
* :class:`~rummy500.env.gym.SingleAgentEnv`: one learning seat against built-in bots (Gymnasium);
* :mod:`rummy500.env.openspiel`: the OpenSpiel game ``python_rummy500``;
* :mod:`rummy500.env.encoding`: the fixed action space (token sequences);
* :mod:`rummy500.env.observation`: the observation tensor.

See ``docs/research.md``.
"""

from rummy500.env.aec import env, make_rules, raw_env, round_rewards
from rummy500.env.encoding import N_ACTIONS, Decision, decode, encode, token_name

__all__ = ["N_ACTIONS", "Decision", "decode", "encode", "env", "make_rules", "raw_env", "round_rewards", "token_name"]
