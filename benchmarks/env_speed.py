"""Environment steps per second: rummy500's PettingZoo env against gin-rummy environments.

Every environment is driven the way a learner drives it: read the current
observation and action mask, pick a random legal action, step. Measured in
the same run, one after the other:

* ``rummy500`` -- ``rummy500.env.raw_env`` (standard game), one step per
  token; the line below it counts engine decisions instead (a multi-card
  action is several tokens);
* ``pettingzoo gin_rummy_v4`` -- PettingZoo's classic gin rummy (RLCard inside);
* ``rlcard gin-rummy`` -- RLCard's gin-rummy environment (``rlcard.make``), its
  own ``step`` with the state dict it returns.

Peers need ``pip install -e '.[bench]'``. Run::

    nice python benchmarks/env_speed.py --seconds 2 --reps 5 [--cpu]

(``--cpu``: CPU seconds of the process instead of wall time) and it prints the median µs per step of ``reps`` runs of about ``seconds``
each, with our speed-up over each peer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

Result = tuple[int, float, int]  # steps, seconds, engine decisions

#: The clock of every run: wall time, or with ``--cpu`` this process's CPU time (steadier on a loaded machine).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def _run_aec(env, seconds: float, seed: int) -> Result:
    """Random legal play through a PettingZoo AEC environment; decisions counted when it has ``decision``."""
    rng = random.Random(seed)
    steps = decisions = 0
    start = CLOCK[0]()
    game = 0
    while CLOCK[0]() - start < seconds:
        env.reset(seed=seed + game)
        game += 1
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            obs = env.observe(agent)
            legal = np.flatnonzero(obs["action_mask"])
            before = getattr(env, "decision", None)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            # ours: a committed action opens a new decision; a peer's step is one decision
            decisions += before is None or env.decision is not before
    return steps, CLOCK[0]() - start, decisions


def run_ours(seconds: float, seed: int) -> Result:
    from rummy500.env import raw_env

    return _run_aec(raw_env(rules={"preset": "standard", "rounds": 1}), seconds, seed)


def run_pettingzoo_gin(seconds: float, seed: int) -> Result:
    from pettingzoo.classic import gin_rummy_v4

    return _run_aec(gin_rummy_v4.raw_env(), seconds, seed)


def run_rlcard_gin(seconds: float, seed: int) -> Result:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    steps = 0
    start = CLOCK[0]()
    while CLOCK[0]() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, CLOCK[0]() - start, steps


def measure(fn: Callable[[float, int], Result], seconds: float, reps: int) -> tuple[float, float]:
    """Median µs per step and per engine decision over ``reps`` runs."""
    per_step, per_decision = [], []
    for rep in range(reps):
        steps, secs, decisions = fn(seconds, 1000 * rep + 1)
        per_step.append(secs / steps * 1e6)
        per_decision.append(secs / max(decisions, 1) * 1e6)
    return statistics.median(per_step), statistics.median(per_decision)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--reps", type=int, default=5, help="runs per environment (the median is printed)")
    parser.add_argument("--cpu", action="store_true", help="time CPU seconds of the process, not wall time")
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    ours_step, ours_decision = measure(run_ours, args.seconds, args.reps)
    rows = [("rummy500 raw_env (per token step)", ours_step), ("rummy500 raw_env (per engine decision)", ours_decision)]
    peers = []
    for name, fn in (("pettingzoo gin_rummy_v4", run_pettingzoo_gin), ("rlcard gin-rummy env", run_rlcard_gin)):
        try:
            step, _ = measure(fn, args.seconds, args.reps)
        except ModuleNotFoundError as exc:
            print(f"{name}: not measured ({exc}); pip install -e '.[bench]'")
            continue
        rows.append((name, step))
        peers.append((name, step))
    clock = "CPU time" if args.cpu else "wall time"
    print(f"median of {args.reps} runs of {args.seconds:g} s of {clock}, random legal actions")
    print(f"{'environment':42s} {'µs/step':>9s} {'steps/s':>9s}")
    for name, us in rows:
        print(f"{name:42s} {us:9.1f} {1e6 / us:9.0f}")
    for name, us in peers:
        print(f"rummy500 per step is {us / ours_step:.2f}x faster than {name}")


if __name__ == "__main__":
    main()
