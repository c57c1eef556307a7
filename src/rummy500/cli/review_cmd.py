"""``rummy500 review GAME.json``: where each player's points went (see :mod:`rummy500.review`).

Prints a table per player of the decisions that lost points (rich), then
each player's accuracy and expected points lost per round; ``--json`` prints
the whole review as JSON instead. A progress bar runs on standard error.
Exit status 0, or 2 with one line on standard error for a file that cannot be
read or a record that cannot be reviewed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from rummy500.bots.hard import LEAVES
from rummy500.review import DEFAULT_BUDGET, THRESHOLDS, Review, ReviewError, cores, parse_horizon, review_record

__all__ = ["main"]

_STYLE = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def _read(path: str) -> object:
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    return json.loads(text)


def main(argv: list[str]) -> int:
    """Run the reviewer."""
    parser = argparse.ArgumentParser(prog="rummy500 review", description="Review a finished game: each decision's expected points lost.")
    parser.add_argument("file", help="the game record (JSON), or - for standard input")
    parser.add_argument("--seat", type=int, action="append", help="review only this seat (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET.samples, metavar="S",
        help=(
            f"samples: dealt-out guesses of the hidden cards per batch (default {DEFAULT_BUDGET.samples}; "
            f"a close decision gets up to {DEFAULT_BUDGET.extend} more batches)"
        ),
    )
    parser.add_argument(
        "--horizon", default=str(DEFAULT_BUDGET.horizon), metavar="N|auto|end",
        help=(
            "turns played out after each move before the position is valued: a number, "
            "auto (the default, as the hard bot plays out: 4, or two turns of every seat at 4+ players each alone), "
            "or end: to the end of the round (a less short-sighted judge, several times slower)"
        ),
    )
    parser.add_argument(
        "--leaf", choices=tuple(LEAVES), default=DEFAULT_BUDGET.leaf,
        help=f"how a playout stopped at the horizon is valued (default {DEFAULT_BUDGET.leaf}; heuristic: the hard bot's hand-written estimate)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the guesses and playouts (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=0, metavar="N",
        help="review in N processes (default 0: one per core; the review is the same for any N)",
    )
    parser.add_argument("--hindsight", action="store_true", help="also value the moves with the real hidden cards (kept apart)")
    parser.add_argument("--all", action="store_true", help="list every decision, not only those that lost points")
    args = parser.parse_args(argv)
    if args.jobs < 0:
        print("rummy500 review: --jobs must be 0 (one per core) or more", file=sys.stderr)
        return 2
    jobs = args.jobs or cores()
    if args.budget < 2:
        print("rummy500 review: --budget must be at least 2 (a difference needs two samples to be judged)", file=sys.stderr)
        return 2
    try:
        horizon = parse_horizon(args.horizon)
    except ValueError as exc:
        print(f"rummy500 review: {exc}", file=sys.stderr)
        return 2
    try:
        record = _read(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"rummy500 review: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, RecursionError) as exc:
        print(f"rummy500 review: malformed record: not JSON ({exc})", file=sys.stderr)
        return 2
    if not isinstance(record, dict):
        print("rummy500 review: malformed record: a record must be a JSON object", file=sys.stderr)
        return 2
    try:
        from rich.console import Console
        from rich.progress import Progress
    except ModuleNotFoundError:  # pragma: no cover - the cli extra brings rich
        print("rummy500 review: this command needs rich; install with: pip install -e '.[cli]'", file=sys.stderr)
        return 2
    budget = replace(DEFAULT_BUDGET, samples=args.budget, horizon=horizon, leaf=args.leaf)
    err = Console(stderr=True)
    try:
        with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("reviewing", total=None)

            def tick(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            review = review_record(record, budget=budget, seed=args.seed, seats=args.seat, hindsight=args.hindsight, progress=tick, jobs=jobs)
    except ReviewError as exc:
        print(f"rummy500 review: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("rummy500 review: malformed record: nested too deeply", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(review.to_dict()))
        return 0
    print_review(review, Console(), every=args.all)
    return 0


def print_review(review: Review, console: object, *, every: bool = False) -> None:
    """Print a review as rich tables on ``console`` (a :class:`rich.console.Console`)."""
    from rich.table import Table

    names = {p.seat: p.name for p in review.players}
    hind = any(d.hindsight for d in review.decisions)
    for p in review.players:
        rows = [d for d in review.decisions if d.seat == p.seat and (every or d.verdict != "good")]
        t = Table(title=f"{p.name} (seat {p.seat})", title_justify="left")
        for col, just in (("round", "right"), ("move", "right"), ("played", "left"), ("best", "left"), ("lost", "right"), ("verdict", "left")):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        if hind:
            t.add_column("hindsight played / best", justify="right")
        for d in rows:
            cells = [str(d.round + 1), str(d.step), d.played, "" if d.best == d.played else d.best, f"{d.loss:.1f}", f"[{_STYLE[d.verdict]}]{d.verdict}{'' if d.sure else '?'}[/]"]
            if hind:
                cells.append("" if d.hindsight is None else f"{d.hindsight['played']:+.0f} / {d.hindsight['best']:+.0f}")
            t.add_row(*cells)
        if rows:
            console.print(t)  # type: ignore[attr-defined]
    summary = Table(title="Summary", title_justify="left")
    for col in ("player", "decisions", "accuracy", "points lost / round", "inaccuracies", "mistakes", "blunders"):
        summary.add_column(col, justify="left" if col == "player" else "right")
    for p in review.players:
        acc = "-" if p.accuracy is None else f"{p.accuracy:.1f}%"
        v = p.verdicts
        summary.add_row(names[p.seat], str(p.decisions), acc, f"{p.loss_per_round:.1f}", str(v["inaccuracy"]), str(v["mistake"]), str(v["blunder"]))
    console.print(summary)  # type: ignore[attr-defined]
    th = ", ".join(f"{k} from {v:g}" for k, v in THRESHOLDS.items())
    b = review.budget
    console.print(  # type: ignore[attr-defined]
        f"Expected round points lost, judged from each player's own view ({min(b.samples * b.settle_after, b.samples * (1 + b.extend))} to {b.samples * (1 + b.extend)} "
        f"guesses of the hidden cards, more where the verdict is close; {b.candidates} moves compared per decision; "
        f"{th} points, each by a margin of {b.confidence:g} standard errors)."
        + (
            " A verdict marked ? is unsure: after the most guesses the move may still be 8 points worse than the best, or not;"
            " the verdict shown is the estimate's, without the margin."
            if b.estimate_unsure
            else " A verdict marked ? is unsure: after the most guesses, the move may still be 8 points worse than the best, or not."
        )
        + (" Hindsight columns use the real hidden cards and play no part in the verdicts." if hind else "")
    )
