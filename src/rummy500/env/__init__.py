"""Rummy 500 for reinforcement learning and game theory (the ``research`` extra).

* :func:`env` / :class:`raw_env`: a PettingZoo AEC environment;
* :class:`~rummy500.env.single.SingleAgentEnv`: one learning seat against built-in bots (Gymnasium;
  ``gymnasium.make("rummy500/Rummy500-v1", ...)`` once this package is imported);
* :mod:`rummy500.env.openspiel`: the OpenSpiel game ``python_rummy500``;
* :mod:`rummy500.env.encoding`: the fixed action space (token sequences);
* :mod:`rummy500.env.observation`: the observation tensor.

See ``docs/research.md``.
"""

import gymnasium

from rummy500.env.aec import env, make_rules, raw_env, round_rewards
from rummy500.env.encoding import N_ACTIONS, Decision, decode, encode, token_name

__all__ = ["GYM_ID", "N_ACTIONS", "Decision", "decode", "encode", "env", "make_rules", "raw_env", "round_rewards", "token_name"]

#: The Gymnasium id of :class:`~rummy500.env.single.SingleAgentEnv`: ``gymnasium.make(GYM_ID, opponents="easy")``
#: takes the environment's keyword arguments (the version follows the observation layout's).
GYM_ID = "rummy500/Rummy500-v1"

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="rummy500.env.single:SingleAgentEnv")
