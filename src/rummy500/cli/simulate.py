"""``rummy500 simulate``: many bot matches, and a table of who won.

Plays complete matches to the target (every round dealt by the match itself),
rotating the seats from game to game, and reports per bot: wins, win rate with
its 95% Wilson interval, mean points per round, and the mean round length in
turns. ``--json`` prints one JSON object instead; ``--save DIR`` writes every
game as a RECORD.md record; ``--jobs`` plays on several processes with the
same results as one.

With fewer bots than seats the list repeats around the table, so a bot may
hold two seats of a game: it is counted once for that game, with two chances
to win it. At a partnership table that would put a bot on both sides, so a
partnership table takes 2 bots (one per side, alternating) or one per seat.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from rummy500.bots import BOT_LEVELS, search_options
from rummy500.cli.args import seed as seed_arg
from rummy500.record import record_to_json
from rummy500.rules import PRESETS, Rules, RulesError
from rummy500.sim.runner import MAX_ROUNDS, GameResult, check_seating, run_games
from rummy500.sim.stats import summarize

__all__ = ["build_parser", "main", "parse_bots", "rules_from_args", "too_small"]


def too_small(args: argparse.Namespace, **least: int) -> str | None:
    """The first count of ``args`` below its least value (``games=1``: ``--games`` at least 1), as a message; None if all are fine."""
    for name, low in least.items():
        value = getattr(args, name)
        if value is not None and value < low:
            return f"--{name.replace('_', '-')} must be at least {low}, not {value}"
    return None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``rummy500 simulate``."""
    p = argparse.ArgumentParser(
        prog="rummy500 simulate",
        description="Play many bot matches and report the results.",
        epilog="With fewer bots than seats the list repeats around the table: a bot holding two seats counts once a game, "
        "with two chances to win. Partnership tables need 2 bots (one per side) or one per seat.",
    )
    p.add_argument("--bots", default="hard,medium", help=f"comma-separated bot levels ({', '.join(BOT_LEVELS)})")
    p.add_argument("--games", type=int, default=100, help="matches to play (default 100)")
    p.add_argument("--preset", default=None, help="a rules preset (default standard)")
    p.add_argument("--rules", default=None, help='rule options as a JSON object, e.g. \'{"players": 3}\'')
    p.add_argument(
        "--players", type=int, default=None, help="number of seats (default: the rules' (4 with partnerships), else the number of bots, 2 to 8)"
    )
    p.add_argument("--target", type=int, default=None, help="winning total (overrides the rules)")
    p.add_argument("--seed", type=seed_arg, default=0, help="the run's seed (same seed, same games)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--save", metavar="DIR", default=None, help="write every game's record to DIR")
    p.add_argument("--hard-iterations", type=int, default=None, help="playouts per searched decision of the hard bot (expert gets twice as many)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def parse_bots(text: str) -> list[str]:
    """Split and check a ``--bots`` list.

    Raises:
        ValueError: an unknown level.
    """
    bots = [b.strip().lower() for b in text.split(",") if b.strip()]
    if not bots:
        raise ValueError("give at least one bot level")
    unknown = [b for b in bots if b not in BOT_LEVELS]
    if unknown:
        raise ValueError(f"unknown bot level(s) {', '.join(unknown)} (levels: {', '.join(BOT_LEVELS)})")
    return bots


def rules_from_args(preset: str | None, rules_json: str | None, *, players: int | None = None, target: int | None = None, default_players: int | None = None) -> Rules:
    """Rules from ``--preset``, ``--rules`` JSON, ``--players`` and ``--target``.

    The number of players is ``players``, else the one the options set
    (``players``, a preset that fixes the table, or ``partnership: true``:
    4), else ``default_players``; the options are checked for that many.

    Raises:
        ValueError: bad JSON or bad options (a :class:`~rummy500.rules.RulesError`).
    """
    mapping: dict[str, Any] = {}
    if rules_json:
        try:
            loaded = json.loads(rules_json)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--rules is not JSON: {exc}") from None
        except RecursionError:
            raise ValueError("--rules is not JSON: nested too deeply") from None
        if not isinstance(loaded, dict):
            raise ValueError("--rules must be a JSON object of options")
        mapping.update(loaded)
    if preset is not None:
        mapping["preset"] = preset
    if players is not None:
        mapping["players"] = players
    if target is not None:
        mapping["target"] = target
    if "players" not in mapping:
        named = mapping.get("preset")
        fixed = PRESETS.get(named, {}) if isinstance(named, str) else {}
        if mapping.get("partnership") is True:
            mapping["players"] = 4  # two sides of two, as the partnership preset
        elif default_players is not None and "players" not in fixed and "partnership" not in fixed:
            mapping["players"] = default_players
    return Rules.from_mapping(mapping)


def main(argv: list[str]) -> int:
    """Run ``rummy500 simulate``."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        bots = parse_bots(args.bots)
        rules = rules_from_args(
            args.preset, args.rules, players=args.players, target=args.target, default_players=max(2, min(8, len(bots)))
        )
        check_seating(len(bots), rules)
    except (ValueError, RulesError) as exc:
        print(f"rummy500 simulate: {exc}", file=sys.stderr)
        return 2
    problem = too_small(args, games=1, jobs=1, hard_iterations=1)
    if problem is not None:
        print(f"rummy500 simulate: {problem}", file=sys.stderr)
        return 2
    options: dict[str, dict[str, Any]] = search_options(args.hard_iterations)
    save = Path(args.save) if args.save else None
    if save is not None:
        problem = _save_problem(save)
        if problem is not None:
            print(f"rummy500 simulate: --save {args.save}: {problem}", file=sys.stderr)
            return 2
    results = _run(bots, rules, args, options, save)
    stats, mean_turns = summarize(bots, results)
    rounds = sum(len(r.round_scores) for r in results)
    if args.json:
        out = {
            "games": len(results),
            "seed": args.seed,
            "rules": rules.to_mapping(),
            "bots": bots,
            "rounds": rounds,
            "mean_round_turns": round(mean_turns, 2),
            "unfinished": sum(1 for r in results if not r.finished),
            "results": [s.to_dict() for s in stats],
        }
        print(json.dumps(out))
        return 0
    _print_table(bots, stats, results, mean_turns, rules)
    return 0


def _save_problem(save: Path) -> str | None:
    """Make the ``--save`` folder; why records cannot be written there, or None if they can."""
    if save.exists() and not save.is_dir():
        return "not a folder (it is a file)"
    try:
        save.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create the folder ({exc.strerror or exc})"
    if not os.access(save, os.W_OK | os.X_OK):
        return "cannot write in that folder (permission denied)"
    return None


def _run(bots: list[str], rules: Rules, args: argparse.Namespace, options: dict[str, dict[str, Any]], save: Path | None) -> list[GameResult]:
    def write(res: GameResult) -> None:
        if save is not None and res.record is not None:
            (save / f"game-{res.index:05d}.json").write_text(record_to_json(res.record, indent=1) + "\n")

    progress = None
    if not args.json and sys.stderr.isatty():
        try:
            from rich.console import Console
            from rich.progress import Progress
        except ModuleNotFoundError:  # pragma: no cover - rich is an optional dependency
            Progress = None  # type: ignore[assignment,misc]  # noqa: N806
        if Progress is not None:
            progress = Progress(console=Console(stderr=True), transient=True)
    if progress is None:
        return run_games(bots, rules, args.games, seed=args.seed, jobs=args.jobs, bot_options=options, keep_records=save is not None, on_result=write)
    with progress:
        task = progress.add_task(f"{' vs '.join(bots)}", total=args.games)

        def tick(res: GameResult) -> None:
            write(res)
            progress.advance(task)

        return run_games(bots, rules, args.games, seed=args.seed, jobs=args.jobs, bot_options=options, keep_records=save is not None, on_result=tick)


def _print_table(bots: list[str], stats: list[Any], results: list[GameResult], mean_turns: float, rules: Rules) -> None:
    times = [t for r in results for seat, ts in enumerate(r.decision_times) if r.levels[seat] == "hard" for t in ts]
    caption = f"{len(results)} games, {sum(len(r.round_scores) for r in results)} rounds, mean round {mean_turns:.1f} turns"
    unfinished = sum(1 for r in results if not r.finished)
    if unfinished:
        caption += f"; {unfinished} unfinished (stopped after {MAX_ROUNDS} rounds, the best total won)"
    if times:
        caption += f"; hard's median decision {statistics.median(times) * 1000:.0f} ms"
    try:
        from rich.console import Console
        from rich.table import Table
    except ModuleNotFoundError:  # pragma: no cover - plain output without rich
        print(caption)
        for s in stats:
            print(f"{s.bot:10} wins {s.wins:6.1f}  {s.win_rate:6.1%} [{s.low:.1%}, {s.high:.1%}]  {s.mean_score:7.1f} pts/round")
        return
    table = Table(title=f"rummy500 simulate - {_describe(rules)}", caption=caption)
    table.add_column("bot")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval", justify="right", no_wrap=True)
    table.add_column("pts/round", justify="right")
    table.add_column("turns/round", justify="right")
    for s in stats:
        wins = f"{s.wins:g}"
        table.add_row(s.bot, str(s.games), wins, f"{s.win_rate:.1%}", f"{s.low:.1%}-{s.high:.1%}", f"{s.mean_score:.1f}", f"{mean_turns:.1f}")
    Console().print(table)


def _describe(rules: Rules) -> str:
    """The table's title: preset, seats and how the game ends (``target 500``, ``2 rounds``)."""
    seats = f"{rules.players} players in partnerships" if rules.partnership else f"{rules.players} players"
    fixed = rules.fixed_rounds
    end = f"target {rules.target}" if fixed is None else f"{fixed} round{'s' if fixed != 1 else ''}"
    return f"{rules.preset}, {seats}, {end}"
