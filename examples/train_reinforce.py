"""Train a masked policy-gradient agent (numpy only) against a built-in bot, then measure it.

The agent is a linear softmax policy over the environment's tokens, on a
compact slice of the observation (own hand, the top three pile cards, the
cards selected so far, phase, obligation, hand sizes...). Illegal tokens get
probability 0 (their logits are masked). Each episode is a one-round match
(``rules={"rounds": 1}``) of :class:`rummy500.env.single.SingleAgentEnv`; the
learning signal is REINFORCE on the episode's reward (round score difference
/ 100) with a running baseline.

Run (numpy; matplotlib only for the curve)::

    nice python examples/train_reinforce.py --episodes 600 --eval-games 100 --curve docs/img/reinforce_curve.png

It prints the win rate of the trained policy and of the untrained (uniform
over legal tokens) policy against ``random`` and ``easy``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rummy500.env.encoding import N_ACTIONS
from rummy500.env.observation import layout_for
from rummy500.env.single import SingleAgentEnv
from rummy500.rules import Rules

RULES = {"preset": "standard", "rounds": 1}
FIELDS = ("hand", "selected", "phase", "offer", "obligation", "taken_top", "hand_sizes", "turn", "stock", "pile_size")


class Features:
    """Picks the compact feature slice out of the full observation."""

    def __init__(self, rules: Rules) -> None:
        lay = layout_for(rules)
        index: list[int] = []
        for name, off, size, _ in lay.fields:
            if name in FIELDS:
                index.extend(range(off, off + size))
            if name == "pile":
                index.extend(range(off, off + 3 * 53))  # the top three pile cards
        self.index = np.array(index)
        self.size = len(index) + 1  # plus a bias

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        return np.append(obs[self.index], 1.0)


class LinearPolicy:
    """Softmax over masked logits ``x @ W``."""

    def __init__(self, n_features: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((n_features, N_ACTIONS), dtype=np.float64)
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = x @ self.w
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        p = self.probs(x, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(N_ACTIONS, p=p))


def run_episode(env: SingleAgentEnv, policy: LinearPolicy | None, feats: Features, seed: int, rng: np.random.Generator):
    """Play one episode; return (reward, trajectory of (x, mask, action), learner won)."""
    obs, info = env.reset(seed=seed)
    total = info["reward_before_first_decision"]
    trajectory = []
    done = False
    while not done:
        mask = obs["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            x = feats(obs["observation"])
            action = policy.act(x, mask)
            trajectory.append((x, mask, action))
        obs, reward, term, trunc, info = env.step(action)
        total += reward
        done = term or trunc
    return total, trajectory, info["winner"] == env.seat


def evaluate(policy: LinearPolicy | None, feats: Features, opponent: str, games: int, seed: int) -> float:
    """The share of ``games`` one-round matches the policy (None: uniform over legal tokens) wins."""
    env = SingleAgentEnv(rules=RULES, opponents=opponent, seat="random")
    rng = np.random.default_rng(seed)
    wins = sum(run_episode(env, policy, feats, seed + g, rng)[2] for g in range(games))
    return wins / games


def main(argv: list[str] | None = None) -> None:
    """Train, report, evaluate, plot."""
    parser = argparse.ArgumentParser(prog="train_reinforce.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=600, help="training episodes, 0 or more (default 600)")
    parser.add_argument("--opponent", default="random", help="bot level to train against")
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--eval-games", type=int, default=100, help="games per evaluation line, at least 1 (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", default=None, help="save the learning curve (PNG, needs matplotlib)")
    args = parser.parse_args(argv)
    if args.episodes < 0:
        parser.error(f"--episodes must be 0 or more, not {args.episodes}")
    if args.eval_games < 1:
        parser.error(f"--eval-games must be at least 1, not {args.eval_games}")
    if args.curve and args.episodes < 50:
        parser.error(f"--curve needs at least 50 --episodes (it plots the mean of the last 50), not {args.episodes}")
    if args.curve:
        try:  # checked now, not after the training
            import matplotlib  # noqa: F401
        except ImportError:
            parser.error("--curve needs matplotlib (pip install matplotlib)")

    rng = np.random.default_rng(args.seed)
    try:
        env = SingleAgentEnv(rules=RULES, opponents=args.opponent, seat="random")
    except ValueError as exc:  # (an unknown bot level)
        parser.error(f"--opponent {args.opponent}: {exc}")
    feats = Features(env.rules)
    policy = LinearPolicy(feats.size, rng)
    baseline = 0.0
    rewards: list[float] = []
    wins: list[float] = []
    steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for ep in range(args.episodes):
        reward, trajectory, won = run_episode(env, policy, feats, 10_000 + ep, rng)
        steps += len(trajectory)
        g = reward / 100.0
        advantage = g - baseline
        baseline += 0.05 * (g - baseline)
        grad = np.zeros_like(policy.w)
        for x, mask, action in trajectory:
            p = policy.probs(x, mask)
            p[action] -= 1.0  # d log pi(a) / d logits = onehot(a) - p, sign flipped
            grad -= np.outer(x, p)
        policy.w += args.lr * advantage * grad / max(1, len(trajectory)) ** 0.5
        rewards.append(reward)
        wins.append(float(won))
        if (ep + 1) % 50 == 0:
            print(
                f"episode {ep + 1:5d}  learner steps {steps:7d}  mean reward (last 50) {np.mean(rewards[-50:]):8.1f}  "
                f"win rate (last 50) {np.mean(wins[-50:]):.2f}  {time.perf_counter() - start:6.0f} s",
                flush=True,
            )
    train_time = time.perf_counter() - start
    print(
        f"trained {args.episodes} episodes, {steps} learner steps in {train_time:.0f} s "
        f"({time.process_time() - cpu:.0f} s of CPU)"
    )
    for opponent in ("random", "easy"):
        trained = evaluate(policy, feats, opponent, args.eval_games, 99_000)
        untrained = evaluate(None, feats, opponent, args.eval_games, 99_000)
        print(
            f"vs {opponent:6s}: trained policy wins {trained:.0%}, uniform-random policy wins {untrained:.0%} "
            f"({args.eval_games} one-round games, random seats)"
        )
    if args.curve:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        k = 50
        smooth = np.convolve(rewards, np.ones(k) / k, mode="valid")
        fig, ax = plt.subplots(figsize=(7, 3.5))
        ax.plot(np.arange(k, len(rewards) + 1), smooth)
        ax.axhline(0, color="grey", linewidth=0.5)
        ax.set_xlabel("episode (one-round match)")
        ax.set_ylabel(f"reward, mean of last {k}")
        ax.set_title(f"Masked REINFORCE vs {args.opponent} ({steps} learner steps)")
        fig.tight_layout()
        fig.savefig(args.curve, dpi=100)
        print(f"curve saved to {args.curve}")


if __name__ == "__main__":
    main()
