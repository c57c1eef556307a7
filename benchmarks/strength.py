"""How strong is each bot level? Seat-rotated matches at every table size, with 95% intervals.

Prints one table: each level against each of its opponents, at each table
size -- 2 players, and 3 to 8 players (one seat of the level, the others
the opponent) and a 4-player partnership (the level's side against the
opponent's side). The seats rotate every game and every game is dealt from
its own seed. Per cell: games, the level's wins (a tie counts as the fair
share), its win rate with the 95% Wilson interval, the fair share (1/N, one
half for partnerships), the mean points per round of the level's seats and
of the opponents' seats, and the level's median decision time.

Bars the project sets (2 players to 500):

* ``hard`` beats ``medium`` at least 75% of the time (issue 14);
* ``expert`` beats ``hard`` at least 60% of the time;
* ``medium`` beats ``random`` at least 95% of the time.

Run::

    python benchmarks/strength.py --quick                # a few games a cell
    python benchmarks/strength.py --games 400 --jobs 2 --out strength.json
    python benchmarks/strength.py --duplicate --pairs hard:medium --tables 2p --games 200

``--duplicate`` deals every hand set once per seating: each deal is played
twice with the seats swapped at 2 players (and once from every seat at 3 to
8; twice, sides swapped, for partnerships), so the luck of the cards falls on
both sides equally and the win rate's noise shrinks. The interval is still
Wilson's over games, which treats a deal's games as independent: their
outcomes are negatively correlated (the good hand goes to each side once), so
the interval is, if anything, too wide. Per cell it also counts the deals the
level won from every seat, the split deals, and the deals it lost from every
seat. ``--out`` keeps every game's outcome and its rounds' margins (the
level's round score less the opponents'), so two runs on the same seed can be
compared deal by deal (``benchmarks/compare_strength.py``). The file is
written again each time a game finishes (the cell marked ``"complete":
false`` until its last game), so a run stopped early still leaves the games
it finished, from the first on, for that comparison. ``--resume`` (with
``--out``) goes on with that file's run: the games it holds are kept and only
the rest are played, the same games an uninterrupted run plays (a larger
``--games`` lengthens a finished run). A file played with other settings, or
holding more games than asked, is refused, as is a file of
``benchmarks/oracle.py`` (its ``"oracle"`` entry, in every save): a fair run
does not go on with an oracle run's games, nor an oracle run with a fair one's.

``--presets standard,quick`` (or ``all``) plays every cell once per preset,
each under that preset's own rules and target (``--target`` overrides it),
at 2 players unless ``--tables`` says otherwise; a preset that fixes the
table (``partnership``, ``persian``: four players in two sides) is played at
its own. The printed table then has a preset column. This is issue 14's
per-preset table: each level against ``medium`` in every variant::

    python benchmarks/strength.py --presets all --pairs random:medium,easy:medium,hard:medium,expert:medium --games 100

``--games`` is per cell (rounded up to whole deals with ``--duplicate``). This is a measurement script, not a test: a full run
takes hours on two cores; ``--quick`` takes minutes and its intervals are wide.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from rummy500.bots import BOT_LEVELS, make_bot
from rummy500.rules import PRESETS, Rules
from rummy500.sim.runner import GameResult, run_games
from rummy500.sim.stats import wilson

#: (level, opponent, the level's required 2-player win rate or None for "more than the fair share").
PAIRS: list[tuple[str, str, float | None]] = [
    ("hard", "medium", 0.75),
    ("expert", "medium", None),
    ("expert", "hard", 0.60),
    ("medium", "random", 0.95),
    ("easy", "random", None),
    ("medium", "easy", None),
]

#: Table sizes: name -> (players, partnership).
TABLES: dict[str, tuple[int, bool]] = {"2p": (2, False), "3p": (3, False), "4p": (4, False), "4p-partners": (4, True), "5p": (5, False), "6p": (6, False), "7p": (7, False), "8p": (8, False)}

#: ``--quick``: these pairs, these games per cell.
QUICK_PAIRS = "hard:medium,expert:medium,expert:hard"
QUICK_GAMES = 4


def seating(level: str, opponent: str, players: int, partnership: bool) -> list[str]:
    """The entries of a run: the level once (twice, as partners), the opponent in every other seat."""
    if partnership:
        return [level, opponent] * (players // 2)
    return [level] + [opponent] * (players - 1)


def measure(
    level: str,
    opponent: str,
    table: str,
    games: int,
    *,
    seed: int,
    jobs: int,
    options: dict[str, dict[str, Any]],
    target: int | None,
    duplicate: bool = False,
    preset: str = "standard",
    on_partial: Callable[[dict[str, Any]], None] | None = None,
    before: list[GameResult] | None = None,
    seconds_before: float = 0.0,
) -> dict[str, Any]:
    """Play ``games`` matches of ``level`` against ``opponent`` at ``table``; return the cell's numbers.

    ``preset`` gives the rules (its own target unless ``target`` is given).
    ``on_partial`` is handed the cell's numbers so far (``"complete": False``)
    each time the games finished from the first on grow: a run stopped
    early still leaves every finished game's outcome, in game order.
    ``before`` are the cell's first games, played by an earlier run with the
    same seed and settings (``--resume``); only the games after them are
    played, and the numbers cover them all (``seconds_before``: the time
    those took).
    """
    players, partnership = TABLES[table]
    per_deal, games = cell_games(games, table, duplicate)
    asked: dict[str, Any] = {"preset": preset, "players": players, "partnership": partnership}
    if target is not None:
        asked["target"] = target
    rules = Rules.from_mapping(asked)
    entries = seating(level, opponent, players, partnership)
    mine = {e for e, name in enumerate(entries) if name == level and (partnership or e == 0)}
    fair = 0.5 if partnership else 1.0 / players
    start = time.perf_counter() - seconds_before
    before = list(before or [])[:games]
    done = [0]

    won: dict[int, float] = {}
    so_far: list[float] = []
    finished: dict[int, GameResult] = {}
    prefix: list[GameResult] = []

    def share_of(r: GameResult) -> float:
        """The level's share of one game's win: a capped game's tie is shared by the seats holding it.

        (The fair share for a tie kept by an earlier run, which did not say who tied.)
        """
        if r.winners:
            return float(r.entries[r.winners[0]] in mine)
        if r.tied:
            return sum(r.entries[s] in mine for s in r.tied) / len(r.tied)
        return fair

    def numbers(results: list[GameResult], complete: bool) -> dict[str, Any]:
        """The cell's numbers from its games so far (in game order)."""
        wins = 0.0
        share: list[float] = []
        my_pts: list[float] = []
        their_pts: list[float] = []
        times: list[float] = []
        margins: list[list[float]] = []
        for r in results:
            got = share_of(r)
            wins += got
            share.append(got)
            for seat, e in enumerate(r.entries):
                pts = [float(rs[seat]) for rs in r.round_scores]
                (my_pts if e in mine else their_pts).extend(pts)
                if e in mine and seat < len(r.decision_times):
                    times.extend(r.decision_times[seat])
            margins.append([round_margin(rs, r.entries, mine) for rs in r.round_scores])
        n = len(results)
        lo, hi = wilson(wins, n)
        return {
            "level": level,
            "opponent": opponent,
            "table": table,
            "preset": preset,
            "target": rules.target,
            "seed": seed,
            "games": n,
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "ci95": [lo, hi],
            "fair": fair,
            "rounds": sum(len(r.round_scores) for r in results),
            "points_per_round": statistics.fmean(my_pts) if my_pts else 0.0,
            "opponent_points_per_round": statistics.fmean(their_pts) if their_pts else 0.0,
            "median_decision_s": statistics.median(times) if times else 0.0,
            "decisions": len(times),
            "seconds": time.perf_counter() - start,
            "duplicate": per_deal,
            "deals": deal_outcomes(share, per_deal) if per_deal > 1 else None,
            "outcomes": share,
            "round_margins": margins,
            "complete": complete,
            "game_results": [kept(r) for r in results],
        }

    def kept(r: GameResult) -> dict[str, Any]:
        """What ``--resume`` needs of a game: all but its record, and only the level's decision times."""
        out = dataclasses.asdict(r)
        del out["record"]
        out["decision_times"] = [[round(t, 5) for t in ts] if r.entries[seat] in mine else [] for seat, ts in enumerate(r.decision_times)]
        return out

    def tick(r: GameResult) -> None:
        done[0] += 1
        finished[r.index] = r
        grew = False
        while len(prefix) in finished:
            prefix.append(finished.pop(len(prefix)))
            grew = True
        if grew and on_partial is not None and done[0] > len(before) and len(prefix) < games:
            on_partial(numbers(prefix, False))
        won[r.index] = share_of(r)
        for seat, e in enumerate(r.entries):
            if e in mine and seat < len(r.decision_times):
                so_far.extend(r.decision_times[seat])
        if done[0] <= len(before):
            return  # a game of the earlier run, counted in
        median = statistics.median(so_far) * 1000 if so_far else 0.0
        print(
            f"  {level} vs {opponent} {table}: {done[0]}/{games} games, {sum(won.values()):g} won, "
            f"median decision {median:.0f} ms ({len(so_far)}), "
            f"{time.perf_counter() - start:.0f} s; outcomes {''.join('W' if won.get(i) == 1 else 'L' if i in won else '.' for i in range(games))}",
            file=sys.stderr,
            flush=True,
        )

    for r in before:
        tick(r)
    results = run_games(
        entries, rules, games, seed=seed, jobs=jobs, bot_options=options, on_result=tick, duplicate=per_deal, first=len(before)
    )
    return numbers([*before, *results], True)


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """The ``--pairs`` list: ``LEVEL:OPPONENT`` pairs of bot levels.

    >>> parse_pairs("hard:medium, easy:random")
    [('hard', 'medium'), ('easy', 'random')]

    Raises:
        ValueError: a pair without one colon, or an unknown level.
    """
    out: list[tuple[str, str]] = []
    for part in (x.strip() for x in text.split(",")):
        if not part:
            continue
        level, colon, opponent = part.partition(":")
        if not colon or ":" in opponent or not level or not opponent:
            raise ValueError(f"{part!r} is not LEVEL:OPPONENT (e.g. hard:medium)")
        unknown = [x for x in (level, opponent) if x not in BOT_LEVELS]
        if unknown:
            raise ValueError(f"unknown bot level(s) {', '.join(unknown)} in {part!r} (levels: {', '.join(BOT_LEVELS)})")
        out.append((level, opponent))
    if not out:
        raise ValueError("give at least one LEVEL:OPPONENT pair")
    return out


def bot_options(level: str, text: str) -> dict[str, Any]:
    """``--hard-options`` / ``--expert-options``: a JSON object of options a ``level`` bot accepts.

    Raises:
        ValueError: not JSON, not an object, or options the bot refuses.
    """
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(loaded, dict):
        raise ValueError("must be a JSON object of options, e.g. '{\"iterations\": 24}'")
    try:
        make_bot(level, 0, **loaded)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the {level} bot refuses these options: {exc}") from None
    return loaded


def round_margin(scores: list[int], entries: list[int], mine: set[int]) -> float:
    """One round's margin: the level's seats' mean round score less the opponents' mean."""
    own = [float(x) for seat, x in enumerate(scores) if entries[seat] in mine]
    opp = [float(x) for seat, x in enumerate(scores) if entries[seat] not in mine]
    return statistics.fmean(own) - statistics.fmean(opp) if own and opp else 0.0


def preset_tables(preset: str, tables: list[str]) -> list[str]:
    """The table sizes to play ``preset`` at: its own if it fixes the players, else ``tables``.

    >>> preset_tables("persian", ["2p"]), preset_tables("quick", ["2p", "3p"])
    (['4p-partners'], ['2p', '3p'])
    """
    fixed = PRESETS[preset]
    if "players" not in fixed and "partnership" not in fixed:
        return tables
    own = (int(fixed.get("players", 2)), bool(fixed.get("partnership", False)))
    return [name for name, shape in TABLES.items() if shape == own]


def seatings(players: int, partnership: bool) -> int:
    """How many times ``--duplicate`` plays a deal: once from each seat (each side, for partnerships)."""
    return 2 if partnership else players


def deal_outcomes(share: list[float], per_deal: int) -> dict[str, int]:
    """Deals the level won from every seating, split, or lost from every seating (games in deal order)."""
    out = {"all_won": 0, "split": 0, "all_lost": 0}
    for i in range(0, len(share) - per_deal + 1, per_deal):
        part = share[i : i + per_deal]
        out["all_won" if all(x == 1.0 for x in part) else "all_lost" if all(x == 0.0 for x in part) else "split"] += 1
    return out


def main(argv: list[str] | None = None, *, oracle: str | None = None) -> int:
    """Play the cells and print the table; 2 (after one line) on bad arguments or a file that cannot be resumed.

    ``oracle``: set by ``benchmarks/oracle.py``, what its bot sees that a fair
    one does not. It goes into every save of ``--out`` (the ``"oracle"``
    entry), and ``--resume`` goes on only with a file played the same way:
    an oracle run never with a fair file, nor a fair run with an oracle one.
    """
    p = argparse.ArgumentParser(prog="strength.py", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games a cell, pairs {QUICK_PAIRS}")
    p.add_argument("--games", type=int, default=None, help="matches per cell (default 400; --quick: 4)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=500)
    p.add_argument("--target", type=int, default=None, help="the match target (default 500; with --presets each preset's own)")
    p.add_argument("--presets", default=None, help="play every cell under each of these presets (comma list, or all)")
    p.add_argument("--pairs", default=None, help="e.g. hard:medium,expert:hard (default: all)")
    p.add_argument("--tables", default=None, help=f"table sizes (default {','.join(TABLES)}; with --presets 2p)")
    p.add_argument("--hard-options", default=None, help='options for the hard bot as JSON, e.g. \'{"iterations": 24}\'')
    p.add_argument("--expert-options", default=None, help="options for the expert bot as JSON")
    p.add_argument("--duplicate", action="store_true", help="play each deal once per seating (2 players: twice, seats swapped)")
    p.add_argument("--out", default=None, help="also write the numbers as JSON here")
    p.add_argument(
        "--resume", action="store_true", help="with --out: keep the games that file holds (same seed and settings) and play only the rest"
    )
    args = p.parse_args(argv)
    games = args.games if args.games is not None else (QUICK_GAMES if args.quick else 400)
    for flag, value in (("--games", args.games), ("--jobs", args.jobs), ("--target", args.target)):
        if value is not None and value < 1:
            p.error(f"{flag} must be at least 1, not {value}")
    wanted = args.pairs or (QUICK_PAIRS if args.quick else None)
    pairs = PAIRS
    if wanted:
        try:
            asked = parse_pairs(wanted)
        except ValueError as exc:
            p.error(f"--pairs: {exc}")
        pairs = [(a, b, next((t for x, y, t in PAIRS if (x, y) == (a, b)), None)) for a, b in asked]
    presets = None if args.presets is None else list(PRESETS) if args.presets == "all" else [x for x in args.presets.split(",") if x]
    if presets is not None and (not presets or any(x not in PRESETS for x in presets)):
        print(f"strength: unknown preset in {args.presets!r} (presets: {', '.join(PRESETS)}, or all)", file=sys.stderr)
        return 2
    tables_arg = args.tables if args.tables is not None else ("2p" if presets else ",".join(TABLES))
    tables = [t for t in tables_arg.split(",") if t]
    bad = [t for t in tables if t not in TABLES]
    if bad:
        print(f"strength: unknown table size(s) {', '.join(bad)} (sizes: {', '.join(TABLES)})", file=sys.stderr)
        return 2
    target = args.target if args.target is not None or presets else 500
    options: dict[str, dict[str, Any]] = {}
    for level, text in (("hard", args.hard_options), ("expert", args.expert_options)):
        if text:
            try:
                options[level] = bot_options(level, text)
            except ValueError as exc:
                p.error(f"--{level}-options: {exc}")
    settings = {"duplicate": args.duplicate, "seed": args.seed, "target": target, "presets": presets, "options": options, "oracle": oracle}
    old = load_resumable(args.out, settings) if args.resume else {}
    if old is None:
        return 2
    dup = ", duplicate deals" if args.duplicate else ""
    to = f"matches to {target}" if target is not None else "matches to each preset's target"
    print(f"strength: {games} games a cell{dup}, {to}, seed {args.seed} (Python {sys.version.split()[0]})")
    if oracle is not None:
        print(f"oracle: {oracle}")
    head = "| preset " if presets else ""
    print(
        f"{head}| level | opponent | table | games | wins | win rate | 95% interval | fair share | bar | pts/round (level / opp.) "
        "| median decision | deals won / split / lost |"
    )
    print("|---" * (12 + bool(presets)) + "|", flush=True)
    rows: list[dict[str, Any]] = []

    def save(cells: list[dict[str, Any]]) -> None:
        if args.out:
            with open(args.out, "w") as f:
                # A fair run's file has no "oracle" entry; an oracle run's has it from its first save on.
                kept = {k: v for k, v in settings.items() if k != "oracle" or v is not None}
                json.dump({"games_per_cell": games, **kept, "cells": cells}, f, indent=1)

    plan = [
        (preset, level, opponent, bar, table)
        for preset in presets or ["standard"]
        for level, opponent, bar in pairs
        for table in preset_tables(preset, tables)
    ]
    resumed: dict[int, tuple[list[GameResult], float]] = {}
    for k, (preset, level, opponent, _, table) in enumerate(plan):
        earlier = old.get((preset, level, opponent, table))
        if earlier is not None:
            got = kept_games(earlier, f"{level} against {opponent} at {table}", args.seed + k, games, table, args.duplicate)
            if isinstance(got, str):
                print(f"strength: {args.out} {got}: cannot resume it", file=sys.stderr)
                return 2
            resumed[k] = (got, float(earlier.get("seconds", 0.0)))
    for k, (preset, level, opponent, bar, table) in enumerate(plan):
        old.pop((preset, level, opponent, table), None)
        before, seconds_before = resumed.get(k, ([], 0.0))
        r = measure(
            level, opponent, table, games, seed=args.seed + k, jobs=args.jobs, options=options, target=target,
            duplicate=args.duplicate, preset=preset, on_partial=lambda cell: save([*rows, cell, *old.values()]),
            before=before, seconds_before=seconds_before,
        )
        r["required"] = bar if table == "2p" and preset == "standard" and r["target"] == 500 else None
        rows.append(r)
        bar_text = f">= {bar:.0%}" if r["required"] is not None else f"> {r['fair']:.0%}"
        deals = r["deals"]
        deal_text = f"{deals['all_won']} / {deals['split']} / {deals['all_lost']}" if deals else "-"
        cell = f"| {preset} " if presets else ""
        print(
            f"{cell}| {r['level']} | {r['opponent']} | {r['table']} | {r['games']} | {r['wins']:g} | {r['win_rate']:.1%} "
            f"| {r['ci95'][0]:.1%} - {r['ci95'][1]:.1%} | {r['fair']:.0%} | {bar_text} "
            f"| {r['points_per_round']:+.1f} / {r['opponent_points_per_round']:+.1f} | {r['median_decision_s'] * 1000:.0f} ms | {deal_text} |",
            flush=True,
        )
    save([*rows, *old.values()])
    return 0


def cell_games(games: int, table: str, duplicate: bool) -> tuple[int, int]:
    """(games a deal, games a cell): ``games`` rounded up to whole deals with duplicate deals."""
    per_deal = seatings(*TABLES[table]) if duplicate else 1
    return per_deal, -(-games // per_deal) * per_deal


def kept_games(cell: dict[str, Any], name: str, seed: int, games: int, table: str, duplicate: bool) -> list[GameResult] | str:
    """The games an earlier run left in ``cell`` for ``--resume``, or why they cannot be kept."""
    if cell.get("seed") != seed:
        return f"played {name} from seed {cell.get('seed')}, this run from {seed} (other pairs, tables or presets before it)"
    results = cell["game_results"]
    if not isinstance(results, list):
        return f"has no list of games for {name}"
    if len(results) > cell_games(games, table, duplicate)[1]:
        return f"holds {len(results)} games of {name}, more than --games {games} (it would drop games)"
    try:
        return [GameResult(**g) for g in results]
    except TypeError as e:
        return f"has a game of {name} that is not one ({e})"


def load_resumable(path: str | None, settings: dict[str, Any]) -> dict[tuple[str, str, str, str], dict[str, Any]] | None:
    """``--resume``: the cells of ``path`` by (preset, level, opponent, table); None (after saying why) when it cannot be resumed.

    A missing file is a run not yet started (nothing to keep). The file must
    have been played with the same ``settings`` (seed, duplicate deals,
    target, presets, bot options, and ``oracle``: None for a fair run, which
    a file of ``benchmarks/oracle.py`` is not) and hold every game's result.
    """
    if not path:
        print("strength: --resume needs --out, the file of the run to go on with", file=sys.stderr)
        return None
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            prior = json.load(f)
        cells = prior["cells"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"strength: cannot read {path} to resume it: {e!r}", file=sys.stderr)
        return None
    for key, want in settings.items():
        if key == "oracle" and prior.get(key) != want:
            was = f"an oracle run ({prior[key]})" if prior.get(key) else "a fair run"
            now = f"an oracle run ({want})" if want else "a fair run"
            print(f"strength: {path} is {was}, this run is {now}: cannot resume it", file=sys.stderr)
            return None
        if prior.get(key) != want:
            print(f"strength: {path} was played with {key} {prior.get(key)!r}, this run asks for {want!r}: cannot resume it", file=sys.stderr)
            return None
    out: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for c in cells:
        if "game_results" not in c:
            print(f"strength: {path} holds no per-game results (written before --resume existed): cannot resume it", file=sys.stderr)
            return None
        out[(c["preset"], c["level"], c["opponent"], c["table"])] = c
    return out


if __name__ == "__main__":
    raise SystemExit(main())
