"""``rummy500 tournament``: bots against bots, as a rated round-robin or in a match format.

Without ``--format`` (or with ``--format round-robin``) every pair of bots
plays ``--games`` seat-balanced head-to-head matches; the results are rated
with OpenSkill (Plackett-Luce) and shown as a leaderboard ordered by
``mu - 3 sigma``. Needs ``openskill`` (``pip install -e '.[bots]'``).

With ``--format single|multi|ring`` the bots are entrants of one of RULES.md
Part 4's formats (:mod:`rummy500.formats`), one bot per entrant, each keeping
its bot from table to table:

* ``single``: a single-table tourney, played to the target; tied winners
  play tie-break rounds;
* ``multi``: a multi-table tourney, tables of at most ``--max-table``
  players, table winners advance to the next level;
* ``ring``: ``--rounds`` rounds at a ring table, each settled in chips at
  ``--pcr`` chips a point.

``--bots`` lists the entrants; ``LEVEL*N`` enters N bots of that level
(``--bots easy*5,random*4``). Entrants are named by level, numbered when a
level is entered more than once (``easy-1``, ``easy-2``).

An option of another format (``--games`` with ``--format single``,
``--rounds`` with the round-robin) is refused in one line, exit status 2,
rather than ignored.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from typing import Any

from rummy500.bots import BOT_LEVELS, make_bot, search_options
from rummy500.cli.args import seed as seed_arg
from rummy500.cli.simulate import parse_bots, rules_from_args, too_small
from rummy500.formats.chips import check_pcr
from rummy500.formats.games import FormatError
from rummy500.rules import Rules, RulesError

__all__ = ["FORMAT_CHOICES", "entrant_names", "expand_bots", "main"]

#: ``--format`` values: the rated round-robin, then RULES.md Part 4's formats.
FORMAT_CHOICES: dict[str, str] = {
    "round-robin": "every pair of bots plays --games head-to-head matches, rated with OpenSkill",
    "single": "single-table tourney: play to the target; tied winners play tie-break rounds",
    "multi": "multi-table tourney: tables of at most --max-table, table winners advance",
    "ring": "ring game: --rounds rounds, each settled in chips (--pcr chips a point)",
}

_DEFAULT_BOTS = {"single": "random,easy,medium", "multi": "easy*3,medium*3,random*3", "ring": "random,easy,medium"}


def expand_bots(text: str) -> list[str]:
    """The entrants' levels from a ``--bots`` list, ``LEVEL*N`` expanded.

    >>> expand_bots("easy*2,random")
    ['easy', 'easy', 'random']

    Raises:
        ValueError: a bad count or an unknown level.
    """
    out: list[str] = []
    for part in text.split(","):
        level, star, count = part.partition("*")
        if not star:
            out.append(part)
            continue
        if not count.strip().isdigit() or not 1 <= int(count) <= 64:
            raise ValueError(f"{part.strip()!r}: write LEVEL*N with N from 1 to 64")
        out += [level] * int(count)
    return parse_bots(",".join(out))


def entrant_names(levels: list[str]) -> list[str]:
    """One name per entrant: the level, numbered when a level comes more than once.

    >>> entrant_names(["easy", "random", "easy"])
    ['easy-1', 'random', 'easy-2']
    """
    total = Counter(levels)
    seen: Counter[str] = Counter()
    names = []
    for level in levels:
        seen[level] += 1
        names.append(level if total[level] == 1 else f"{level}-{seen[level]}")
    return names


def main(argv: list[str]) -> int:
    """Run ``rummy500 tournament``."""
    p = argparse.ArgumentParser(
        prog="rummy500 tournament",
        description="Bots against bots: a round-robin rated with OpenSkill, or a tourney or ring game (--format).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="formats:\n" + "\n".join(f"  {k:<12} {v}" for k, v in FORMAT_CHOICES.items())
        + "\n\nexamples:\n  rummy500 tournament --games 10 --bots easy,medium"
        "\n  rummy500 tournament --format single --bots random,easy,medium --target 200"
        "\n  rummy500 tournament --format multi --bots easy*5,random*4 --max-table 4 --preset quick"
        "\n  rummy500 tournament --format ring --bots random,easy --rounds 10 --pcr 2",
    )
    p.add_argument("--format", choices=list(FORMAT_CHOICES), default="round-robin", help="what to play (default round-robin; see below)")
    p.add_argument(
        "--bots",
        default=None,
        help=f"comma-separated bot levels, LEVEL*N for N of a level (round-robin default {','.join(BOT_LEVELS)}; "
        f"single and ring default {_DEFAULT_BOTS['single']}; multi default {_DEFAULT_BOTS['multi']})",
    )
    p.add_argument("--games", type=int, default=None, help="round-robin: matches per pair (default 20)")
    p.add_argument("--preset", default=None, help="a rules preset")
    p.add_argument("--rules", default=None, help="rule options as a JSON object")
    p.add_argument("--target", type=int, default=None, help="winning total (overrides the rules)")
    p.add_argument("--seed", type=seed_arg, default=0, help="seeds the deals and the bots: the same seed plays the same tournament")
    p.add_argument("--jobs", type=int, default=None, help="round-robin: worker processes")
    p.add_argument("--max-table", type=int, default=None, help="multi: most players at a table, 2..8 (default 4)")
    p.add_argument("--min-table", type=int, default=None, help="multi: fewest players at a table, the final table excepted (default 2)")
    p.add_argument("--rounds", type=int, default=None, help="ring: rounds to play (default 5)")
    p.add_argument("--pcr", type=int, default=None, help="ring and single: chips per point of the settlement (default 1)")
    p.add_argument("--hard-iterations", type=int, default=None, help="playouts per searched decision of the hard bot (expert gets twice as many)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    problem = _for_another_format(args) or too_small(args, games=1, jobs=1, rounds=1, hard_iterations=1)
    if problem is not None:
        print(f"rummy500 tournament: {problem}", file=sys.stderr)
        return 2
    for name, value in _DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    try:
        check_pcr(args.pcr)
    except FormatError as exc:
        print(f"rummy500 tournament: --pcr: {exc}", file=sys.stderr)
        return 2
    options: dict[str, dict[str, Any]] = search_options(args.hard_iterations)
    try:
        if args.format == "round-robin":
            if args.bots is not None and "*" in args.bots:
                starred = next(b.strip() for b in args.bots.split(",") if "*" in b)
                raise ValueError(
                    f"{starred}: LEVEL*N enters N bots of a level in --format single, multi and ring;"
                    " the round-robin plays each level once (--bots random,easy,medium)"
                )
            bots = parse_bots(args.bots if args.bots is not None else ",".join(BOT_LEVELS))
        else:
            bots = expand_bots(args.bots if args.bots is not None else _DEFAULT_BOTS[args.format])
        rules = rules_from_args(args.preset, args.rules, target=args.target, default_players=_table_size(args, len(bots)))
    except (ValueError, RulesError) as exc:
        print(f"rummy500 tournament: {exc}", file=sys.stderr)
        return 2
    if args.format != "round-robin":
        return _play_format(args, bots, rules, options)
    try:
        from rummy500.sim.tournament import run_tournament
    except ModuleNotFoundError as exc:  # pragma: no cover - openskill missing
        print(f"rummy500 tournament: needs {exc.name} (pip install -e '.[bots]')", file=sys.stderr)
        return 2
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


#: The format-specific options: their defaults, and the formats that take them.
_DEFAULTS: dict[str, int] = {"games": 20, "jobs": 1, "max_table": 4, "min_table": 2, "rounds": 5, "pcr": 1}
_FORMATS_OF: dict[str, tuple[str, ...]] = {
    "games": ("round-robin",),
    "jobs": ("round-robin",),
    "max_table": ("multi",),
    "min_table": ("multi",),
    "rounds": ("ring",),
    "pcr": ("ring", "single"),
}


def _for_another_format(args: argparse.Namespace) -> str | None:
    """The first option given that this ``--format`` does not take (it would be ignored), as a message; None if none."""
    for name, formats in _FORMATS_OF.items():
        if getattr(args, name) is not None and args.format not in formats:
            which = " and ".join(f"--format {f}" for f in formats)
            return f"--{name.replace('_', '-')} is for {which}, not --format {args.format}"
    return None


def _table_size(args: argparse.Namespace, entrants: int) -> int:
    """The players the rules are read for when they do not say: the first table's size (2 for the round-robin)."""
    if args.format == "round-robin":
        return 2
    if args.format == "multi":
        entrants = min(entrants, args.max_table)
    return max(2, min(8, entrants))


def _play_format(args: argparse.Namespace, levels: list[str], rules: Rules, options: dict[str, dict[str, Any]]) -> int:
    """Play a single- or multi-table tourney or a ring game with one bot per entrant."""
    from rummy500.formats import RingGame, play_ring, run_multi_table, run_single_table, table_rules

    names = entrant_names(levels)
    rng = random.Random(args.seed)
    agents = {name: make_bot(level, rng.getrandbits(32), **options.get(level, {})) for name, level in zip(names, levels, strict=True)}
    entrants = dict(zip(names, levels, strict=True))
    out: dict[str, Any] = {"format": args.format, "entrants": entrants, "rules": {}, "seed": args.seed}
    try:
        if args.format == "single":
            single = run_single_table(rules, names, rng=rng, agents=agents)
            settled = single.settlement(args.pcr)
            chips = dict(zip(single.players, settled.net, strict=True))
            out["rules"] = single.rules.to_mapping()  # the table's rules: players set to its size
            out.update(winner=single.winner, standings=[list(g) for g in single.standings()], table=single.to_dict(), pcr=args.pcr, chips=chips)
        elif args.format == "multi":
            multi = run_multi_table(rules, names, seed=rng.getrandbits(32), max_table=args.max_table, min_table=args.min_table, agents=agents)
            # Tables differ in size: each table's players are in the tourney's levels, not in the rules.
            out["rules"] = {k: v for k, v in rules.to_mapping().items() if k != "players"}
            out.update(winner=multi.winner, standings=[list(g) for g in multi.standings()], tourney=multi.to_dict())
        else:
            ring = RingGame(args.pcr, names)
            played = play_ring(ring, rules, args.rounds, rng=rng, agents=agents)
            out["rules"] = table_rules(rules, len(names)).to_mapping()  # everyone stays seated: one table size
            out.update(
                balances=dict(ring.balances),
                rounds=[
                    {"number": r.number, "players": list(r.players), "dealer": r.dealer, "round_scores": list(r.round_scores), "net": r.net}
                    for r in played
                ],
            )
    except (FormatError, RulesError) as exc:
        print(f"rummy500 tournament: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out))
        return 0
    _print_format(out)
    return 0


def _print_format(out: dict[str, Any]) -> None:
    fmt = out["format"]
    print(f"{FORMAT_CHOICES[fmt].split(':')[0]}: {', '.join(f'{n} ({lv})' if n != lv else n for n, lv in out['entrants'].items())}")
    if fmt == "ring":
        for r in out["rounds"]:
            scores = ", ".join(f"{n} {s}" for n, s in zip(r["players"], r["round_scores"], strict=True))
            print(f"  round {r['number']}: {scores}")
        print("chips after the last round:")
        for name, chips in sorted(out["balances"].items(), key=lambda kv: -kv[1]):
            print(f"  {name:<12} {chips:+d}")
        return
    if fmt == "single":
        t = out["table"]
        print(f"  {t['rounds_played']} rounds; decided by {t['decided_by']}")
        for place, group in enumerate(out["standings"], 1):
            print(f"  {place}. " + ", ".join(f"{n} {t['totals'][n]}" for n in group))
        print(f"chips at {out['pcr']} a point (each loser pays the winner the difference):")
        for name, chips in sorted(out["chips"].items(), key=lambda kv: -kv[1]):
            print(f"  {name:<12} {chips:+d}")
    else:
        for level in out["tourney"]["levels"]:
            advancing = [t["winner"] for t in level["tables"]] + level["byes"]
            print(f"  level {level['level']}: {len(level['tables'])} table(s), advancing: {', '.join(advancing)}")
        for place, group in enumerate(out["standings"], 1):
            print(f"  {place}. {', '.join(group)}")
    print(f"winner: {out['winner']}")


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
