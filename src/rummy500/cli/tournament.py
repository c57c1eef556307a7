"""``rummy500 tournament``: a round-robin between bot levels, with ratings and a leaderboard.

Every pair of bots plays ``--games`` seat-balanced head-to-head matches; the
results are rated with OpenSkill (Plackett-Luce) and shown as a leaderboard
ordered by ``mu - 3 sigma``. Needs ``openskill`` (``pip install -e '.[bots]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rummy500.bots import BOT_LEVELS
from rummy500.cli.simulate import parse_bots, rules_from_args
from rummy500.rules import RulesError

__all__ = ["main"]


def main(argv: list[str]) -> int:
    """Run ``rummy500 tournament``."""
    p = argparse.ArgumentParser(prog="rummy500 tournament", description="Round-robin between bots, rated with OpenSkill.")
    p.add_argument("--bots", default=",".join(BOT_LEVELS), help=f"comma-separated bot levels (default {','.join(BOT_LEVELS)})")
    p.add_argument("--games", type=int, default=20, help="matches per pair (default 20)")
    p.add_argument("--preset", default=None, help="a rules preset (2 players)")
    p.add_argument("--rules", default=None, help="rule options as a JSON object")
    p.add_argument("--target", type=int, default=None, help="winning total (overrides the rules)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--hard-iterations", type=int, default=None, help="playouts per searched decision of the hard bot (expert gets 8/3 as many)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    try:
        bots = parse_bots(args.bots)
        rules = rules_from_args(args.preset, args.rules, target=args.target, default_players=2)
    except (ValueError, RulesError) as exc:
        print(f"rummy500 tournament: {exc}", file=sys.stderr)
        return 2
    try:
        from rummy500.sim.tournament import run_tournament
    except ModuleNotFoundError as exc:  # pragma: no cover - openskill missing
        print(f"rummy500 tournament: needs {exc.name} (pip install -e '.[bots]')", file=sys.stderr)
        return 2
    options: dict[str, dict[str, Any]] = {}
    if args.hard_iterations is not None:
        options["hard"] = {"iterations": args.hard_iterations}
        options["expert"] = {"iterations": args.hard_iterations * 8 // 3}
    try:
        result = run_tournament(bots, rules, args.games, seed=args.seed, jobs=args.jobs, bot_options=options)
    except ModuleNotFoundError as exc:
        print(f"rummy500 tournament: needs {exc.name} (pip install -e '.[bots]')", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"rummy500 tournament: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"games_per_pair": args.games, "bots": bots, **result.to_dict()}))
        return 0
    _print(result, args.games)
    return 0


def _print(result: Any, games: int) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ModuleNotFoundError:  # pragma: no cover
        for i, s in enumerate(result.leaderboard, 1):
            print(f"{i}. {s.bot:8} ordinal {s.ordinal:6.2f}  mu {s.mu:6.2f}  sigma {s.sigma:5.2f}  wins {s.wins:g}/{s.games}")
        return
    table = Table(title=f"Leaderboard ({games} games per pair, OpenSkill Plackett-Luce)")
    for col, just in (("#", "right"), ("bot", "left"), ("rating (mu - 3 sigma)", "right"), ("mu", "right"), ("sigma", "right"), ("wins", "right"), ("win rate", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for i, s in enumerate(result.leaderboard, 1):
        table.add_row(str(i), s.bot, f"{s.ordinal:.2f}", f"{s.mu:.2f}", f"{s.sigma:.2f}", f"{s.wins:g}/{s.games}", f"{s.wins / s.games:.1%}" if s.games else "-")
    pairs = Table(title="Head to head")
    pairs.add_column("pair")
    pairs.add_column("score", justify="right")
    for pr in result.pairs:
        a, b = pr["bots"]
        pairs.add_row(f"{a} vs {b}", f"{pr['wins'][0]:g} - {pr['wins'][1]:g}")
    console = Console()
    console.print(table)
    console.print(pairs)
