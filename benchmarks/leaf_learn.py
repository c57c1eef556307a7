"""Train the learned leaf: a small network that values an unfinished 2-player round.

The fitted leaf (``benchmarks/leaf_fit.py``) weighs ten features of each
seat by least squares. This script trains, on the same kind of rounds (the
playout policy, some rounds opened by ``random`` or ``easy`` moves), a
network with one hidden layer of rectified units over
:data:`rummy500.bots.leaves.LEARNED_INPUTS` (both seats' features and a few
more, and the table's) to predict seat 0's round score less seat 1's. The
network ``g`` is read both ways, ``(g(seen from 0) - g(seen from 1)) / 2``,
so it is antisymmetric by construction (:func:`rummy500.bots.leaves.learned_round`).
Training: mean squared error, Adam, minibatches of 256, a small L2 penalty, a
tenth of the positions held back to keep the best epoch. It prints how well
each leaf predicts rounds held out (seeds not used for training): the
hand-written estimate, the fitted weights, the shipped network
(:mod:`rummy500.bots.leaf_net`) and the one just trained. ``--write``
replaces the shipped network's weights.

Needs numpy (the ``research`` extra). About five minutes with the default
sizes on the pure-Python engine (most of it playing the rounds).

Usage: ``python benchmarks/leaf_learn.py [--rounds 6000] [--holdout 2000] [--seed 1] [--hidden 32] [--epochs 80] [--write]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from rummy500.bots import leaf_net
from rummy500.bots.leaves import LEARNED_INPUTS, estimate_round, fitted_round, learned_inputs, learned_lead
from rummy500.state import RoundState

sys.path.insert(0, str(Path(__file__).resolve().parent))
from leaf_fit import play_rounds  # noqa: E402

NET_FILE = Path(__file__).resolve().parent.parent / "src" / "rummy500" / "bots" / "leaf_net.py"


def positions(rounds: int, seed: int) -> dict[str, np.ndarray]:
    """Every turn's start of ``rounds`` seeded 2-player rounds: both readings of the inputs, the leaves' leads, the outcome."""

    def record(state: RoundState) -> tuple[list[float], list[float], float, float, float]:
        mine, theirs = learned_inputs(state)
        est, fit = estimate_round(state), fitted_round(state)
        return mine, theirs, est[0] - est[1], fit[0] - fit[1], learned_lead(mine, theirs)

    cols: dict[str, list] = {k: [] for k in ("a", "b", "heuristic", "fitted", "shipped", "y")}
    for pending, state in play_rounds(rounds, seed, "standard", 2, record):
        assert state.result is not None
        y = float(state.result.round_scores[0] - state.result.round_scores[1])
        for row in pending:
            for k, v in zip(("a", "b", "heuristic", "fitted", "shipped"), row, strict=True):
                cols[k].append(v)
            cols["y"].append(y)
    return {k: np.asarray(v, dtype=float) for k, v in cols.items()}


class Net:
    """``(g(a) - g(b)) / 2`` with ``g(x) = relu(((x - mean) / scale) @ w1 + b1) @ w2``."""

    def __init__(self, mean: np.ndarray, scale: np.ndarray, hidden: int, rng: np.random.Generator) -> None:
        k = len(mean)
        self.mean, self.scale = mean, scale
        self.params = [rng.normal(0.0, np.sqrt(2.0 / k), (k, hidden)), np.zeros(hidden), rng.normal(0.0, np.sqrt(1.0 / hidden), hidden)]

    def predict(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self._forward((a - self.mean) / self.scale, (b - self.mean) / self.scale)[0]

    def _forward(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        w1, b1, w2 = self.params
        ha = np.maximum(0.0, a @ w1 + b1)
        hb = np.maximum(0.0, b @ w1 + b1)
        return (ha - hb) @ w2 / 2.0, ha, hb

    def gradients(self, a: np.ndarray, b: np.ndarray, y: np.ndarray, l2: float) -> list[np.ndarray]:
        """Of half the mean squared error (plus the L2 penalty), on scaled inputs."""
        w1, _b1, w2 = self.params
        p, ha, hb = self._forward(a, b)
        g = (p - y) / len(y)
        ga = np.outer(g, w2) / 2.0 * (ha > 0)
        gb = -np.outer(g, w2) / 2.0 * (hb > 0)
        return [a.T @ ga + b.T @ gb + l2 * w1, ga.sum(0) + gb.sum(0), (ha - hb).T @ g / 2.0 + l2 * w2]


def train(data: dict[str, np.ndarray], hidden: int, epochs: int, seed: int, *, lr: float = 1e-3, batch: int = 256, l2: float = 1e-4) -> Net:
    rng = np.random.default_rng(seed)
    both = np.vstack([data["a"], data["b"]])
    scale = both.std(0)
    scale[scale == 0.0] = 1.0
    net = Net(both.mean(0), scale, hidden, rng)
    a, b, y = (data["a"] - net.mean) / scale, (data["b"] - net.mean) / scale, data["y"]
    order = rng.permutation(len(y))
    held, fit = order[: len(y) // 10], order[len(y) // 10 :]
    m = [np.zeros_like(p) for p in net.params]
    v = [np.zeros_like(p) for p in net.params]
    best, kept, step = float("inf"), [p.copy() for p in net.params], 0
    for epoch in range(epochs):
        rng.shuffle(fit)
        for start in range(0, len(fit), batch):
            j = fit[start : start + batch]
            step += 1
            for i, g in enumerate(net.gradients(a[j], b[j], y[j], l2)):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                net.params[i] -= lr * (m[i] / (1 - 0.9**step)) / (np.sqrt(v[i] / (1 - 0.999**step)) + 1e-8)
        loss = float(((net._forward(a[held], b[held])[0] - y[held]) ** 2).mean())
        if loss < best:
            best, kept = loss, [p.copy() for p in net.params]
        print(f"  epoch {epoch + 1:>2}: rms error {loss**0.5:.2f} on the positions held back", flush=True)
    net.params = kept
    return net


def fit_of(pred: np.ndarray, y: np.ndarray) -> str:
    sse = float(((pred - y) ** 2).sum())
    return f"R^2 {1.0 - sse / float(((y - y.mean()) ** 2).sum()):.3f}  rms error {(sse / len(y)) ** 0.5:.2f} points"


def _numbers(head: str, values: list[float], indent: str = "", close: str = ")") -> list[str]:
    """``head``, then ``values`` in rows of at most 118 characters, then ``close``."""
    lines = [f"{indent}{head}"]
    row = indent + "   "
    for x in values:
        item = f" {x:.6g},"
        if len(row) + len(item) > 118:
            lines.append(row)
            row = indent + "   "
        row += item
    lines.append(row)
    lines.append(f"{indent}{close}")
    return lines


def write(net: Net, note: str) -> None:
    w1, b1, w2 = net.params
    lines = [
        '"""The learned leaf\'s network (:func:`rummy500.bots.leaves.learned_round`): weights, not code.',
        "",
        f"Written by ``benchmarks/leaf_learn.py --write`` ({note}); do not edit.",
        "``HIDDEN[j]`` weighs the scaled inputs ``(x - MEAN) / SCALE`` (in the order of",
        ":data:`rummy500.bots.leaves.LEARNED_INPUTS`) for hidden unit ``j``, a rectified",
        "unit with bias ``BIAS[j]`` and output weight ``OUT[j]``.",
        '"""',
        "",
        *_numbers("MEAN = (", [float(x) for x in net.mean]),
        *_numbers("SCALE = (", [float(x) for x in net.scale]),
        "HIDDEN = (",
    ]
    for j in range(w1.shape[1]):
        lines.extend(_numbers("(", [float(x) for x in w1[:, j]], "    ", "),"))
    lines.append(")")
    lines.extend(_numbers("BIAS = (", [float(x) for x in b1]))
    lines.extend(_numbers("OUT = (", [float(x) for x in w2]))
    text = "\n".join(lines) + "\n"
    NET_FILE.write_text(text)
    print(f"wrote {NET_FILE}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6000)
    parser.add_argument("--holdout", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=80)
    parser.add_argument("--write", action="store_true", help="replace the shipped network (src/rummy500/bots/leaf_net.py)")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    data = positions(args.rounds, args.seed)
    test = positions(args.holdout, args.seed + 10_000)
    print(f"{len(data['y'])} positions to train on, {len(test['y'])} held out ({len(LEARNED_INPUTS)} inputs), {time.perf_counter() - t0:.0f} s")
    net = train(data, args.hidden, args.epochs, args.seed)
    y = test["y"]
    for label, key in (("heuristic leaf", "heuristic"), ("fitted leaf", "fitted"), ("learned, shipped", "shipped")):
        print(f"{label:<24}{fit_of(test[key], y)} (held out)")
    print(f"{'learned, trained now':<24}{fit_of(net.predict(test['a'], test['b']), y)} (held out)")
    print(f"shipped network: {len(leaf_net.BIAS)} hidden units")
    if args.write:
        write(net, f"--rounds {args.rounds} --seed {args.seed} --hidden {args.hidden} --epochs {args.epochs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
