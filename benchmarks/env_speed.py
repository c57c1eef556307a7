"""Environment steps per second: rummy500's PettingZoo env against gin-rummy environments.

Every environment is driven the way its users drive it, picking a random
legal action at each step:

* PettingZoo environments (ours and ``gin_rummy_v4``): ``for agent in
  env.agent_iter()``, ``env.last()`` (which builds the observation with its
  ``action_mask``), a random action among the mask's ones, ``env.step``;
* ``rlcard gin-rummy`` -- RLCard's gin-rummy environment (``rlcard.make``):
  ``env.step`` and the state dict it returns (its ``legal_actions``).

A *step* is one call of ``step`` that plays an action. Ours is
``rummy500.env.raw_env`` (the standard game, one round per episode); a
multi-card action takes several token steps, so the line below it divides the
same time by engine decisions instead; ``env()`` is the same environment
inside PettingZoo's order-enforcing and assertion wrappers. PettingZoo's
``gin_rummy_v4`` is its ``raw_env`` too.

The environments take turns, one run of about ``seconds`` each, ``reps``
times, so a load that comes and goes weighs on all of them alike; the median
of the runs is printed. ``--baseline DIR`` adds another rummy500 (a checkout
or its ``src/``, e.g. ``git archive`` of an older commit), timed in a child
process in the same rotation; ``--compiled DIR`` likewise the compiled build of
``scripts/build_compiled.py`` (``build/compiled``). A folder with no
``rummy500`` package (nor in its ``src/``), or one a child process does not
import rummy500 from, is refused with one line (exit 2) before any timing.

Peers need ``pip install -e '.[bench]'``. Run::

    nice python benchmarks/env_speed.py --cpu --seconds 1 --reps 5 [--baseline /tmp/base/src] [--compiled build/compiled]

(``--cpu``: CPU seconds of the process instead of wall time).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_folder import engine_src  # noqa: E402

Result = tuple[int, float, int]  # steps, seconds, engine decisions

#: The clock of every run: wall time, or with ``--cpu`` this process's CPU time (steadier on a loaded machine).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def _run_aec(env, seconds: float, seed: int) -> Result:
    """Random legal play through a PettingZoo AEC environment, as its users write it.

    Engine decisions are counted when the environment has ``decision`` (ours:
    a committed action opens a new one); for a peer a step is a decision.
    """
    rng = random.Random(seed)
    steps = decisions = 0
    clock = CLOCK[0]
    start = clock()
    game = 0
    while clock() - start < seconds:
        env.reset(seed=seed + game)
        game += 1
        played, decided = play_episode(env, rng)
        steps += played
        decisions += decided
    return steps, clock() - start, decisions


def play_episode(env, rng: random.Random) -> tuple[int, int]:
    """One episode (the environment just reset) of random legal tokens; (steps, engine decisions)."""
    base = env.unwrapped
    steps = decisions = 0
    for _agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        before = getattr(base, "decision", None)
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        decisions += before is None or base.decision is not before
    return steps, decisions


def run_ours(seconds: float, seed: int) -> Result:
    from rummy500.env import raw_env

    return _run_aec(raw_env(rules={"preset": "standard", "rounds": 1}), seconds, seed)


def run_ours_wrapped(seconds: float, seed: int) -> Result:
    from rummy500.env import env

    return _run_aec(env(rules={"preset": "standard", "rounds": 1}), seconds, seed)


def run_pettingzoo_gin(seconds: float, seed: int) -> Result:
    from pettingzoo.classic import gin_rummy_v4

    return _run_aec(gin_rummy_v4.raw_env(), seconds, seed)


def run_rlcard_gin(seconds: float, seed: int) -> Result:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    steps = 0
    clock = CLOCK[0]
    start = clock()
    while clock() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, clock() - start, steps


def baseline_runner(src: str, cpu: bool, flag: str = "--baseline") -> Callable[[float, int], Result]:
    """A run of another rummy500's ``raw_env`` (``src``: a checkout or its ``src/``) in a child process.

    Raises:
        ValueError: no rummy500 package in ``src`` (nor in its ``src/``), or a
            child process does not import it from there; the message names
            ``flag`` (see :func:`engine_folder.engine_src`).
    """
    path = engine_src(flag, src)

    def run(seconds: float, seed: int) -> Result:
        cmd = [sys.executable, __file__, "--worker", "--seconds", str(seconds), "--seed", str(seed)]
        env = {**os.environ, "PYTHONPATH": str(path)}
        out = subprocess.run([*cmd, *(["--cpu"] if cpu else [])], env=env, capture_output=True, text=True, check=True)
        steps, secs, decisions = json.loads(out.stdout.strip().splitlines()[-1])
        return steps, secs, decisions

    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="env_speed.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--reps", type=int, default=5, help="runs per environment (the median is printed)")
    parser.add_argument("--cpu", action="store_true", help="time CPU seconds of the process, not wall time")
    parser.add_argument("--baseline", metavar="DIR", help="also time the rummy500 in DIR (a checkout or its src/)")
    parser.add_argument("--compiled", metavar="DIR", help="also time the compiled build in DIR (scripts/build_compiled.py)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.seconds > 0:  # (NaN too)
        parser.error(f"--seconds must be more than 0, not {args.seconds:g}")
    if args.reps < 1:
        parser.error(f"--reps must be at least 1, not {args.reps}")
    if args.cpu:
        CLOCK[0] = time.process_time
    if args.worker:  # one run of the rummy500 on PYTHONPATH, for --baseline
        print(json.dumps(run_ours(args.seconds, args.seed)))
        return
    envs: list[tuple[str, Callable[[float, int], Result]]] = [
        ("rummy500 raw_env", run_ours),
        ("rummy500 env() (PettingZoo wrappers)", run_ours_wrapped),
    ]
    for flag, label, folder in (("--baseline", "baseline", args.baseline), ("--compiled", "compiled", args.compiled)):
        if folder:
            try:
                envs.append((f"{label} raw_env ({folder})", baseline_runner(folder, args.cpu, flag)))
            except ValueError as exc:
                parser.error(str(exc))
    envs += [("pettingzoo gin_rummy_v4", run_pettingzoo_gin), ("rlcard gin-rummy env", run_rlcard_gin)]
    per_step: dict[str, list[float]] = {}
    per_decision: dict[str, list[float]] = {}
    for rep in range(args.reps):
        for name, fn in envs:
            if name in per_step and not per_step[name]:
                continue  # not installed
            try:
                steps, secs, decisions = fn(args.seconds, 1000 * rep + 1)
            except ImportError as exc:  # not installed, or installed without what it needs (rlcard)
                print(f"{name}: not measured ({exc}); pip install -e '.[bench]'")
                per_step[name] = []
                continue
            per_step.setdefault(name, []).append(secs / steps * 1e6)
            per_decision.setdefault(name, []).append(secs / max(decisions, 1) * 1e6)
    median = {name: statistics.median(v) for name, v in per_step.items() if v}
    clock = "CPU time" if args.cpu else "wall time"
    print(f"median of {args.reps} runs of {args.seconds:g} s of {clock} each (taking turns), random legal actions")
    print(f"{'environment':58s} {'µs/step':>9s} {'steps/s':>9s}")
    for name, us in median.items():
        print(f"{name:58s} {us:9.1f} {1e6 / us:9.0f}")
        if name.startswith(("rummy500 raw_env", "baseline", "compiled")):
            d = statistics.median(per_decision[name])
            print(f"{'  same, per engine decision':58s} {d:9.1f} {1e6 / d:9.0f}")
    for label in [name for name in median if name == "rummy500 raw_env" or name.startswith("compiled")]:
        ours = median[label]
        for name, us in median.items():
            if name != label and not name.startswith(("rummy500 env()", "compiled")):
                print(f"{label.split(' (')[0]} per step is {us / ours:.2f}x as fast as {name}")


if __name__ == "__main__":
    main()
