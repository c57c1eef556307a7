"""How strong is each bot level? Seat-balanced head-to-head matches, with 95% intervals.

Plays 2-player matches to 500 under the standard rules for each pair of levels
(the seats swap every game, and every game is dealt from its own seed) and
prints each pair's win rate with its 95% Wilson interval, against the bar the
project sets:

* ``hard`` beats ``medium`` at least 65% of the time;
* ``medium`` beats ``random`` at least 95% of the time;
* ``easy`` sits between: it beats ``random`` and loses to ``medium``.

It also prints ``hard``'s decision times (median over every decision it made
on its turn, and over the decisions it searched). Run::

    python benchmarks/strength.py --games 400 --jobs 2 --out strength.json

``--games`` is per pair; use a small number for a quick look. This is a
measurement script, not a test: the full run takes a while.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from rummy500.rules import Rules
from rummy500.sim.runner import GameResult, run_games
from rummy500.sim.stats import wilson

#: (stronger, weaker, the stronger side's required win rate or None for "more than half").
PAIRS: list[tuple[str, str, float | None]] = [
    ("hard", "medium", 0.65),
    ("medium", "random", 0.95),
    ("easy", "random", None),
    ("medium", "easy", None),
]


def measure(a: str, b: str, games: int, *, seed: int, jobs: int, options: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Play ``games`` matches of ``a`` against ``b``; return the pair's numbers."""
    rules = Rules.from_mapping({})
    start = time.perf_counter()
    done = [0]

    def tick(_: GameResult) -> None:
        done[0] += 1
        if done[0] % 10 == 0 or done[0] == games:
            print(f"  {a} vs {b}: {done[0]}/{games} games, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    results = run_games([a, b], rules, games, seed=seed, jobs=jobs, bot_options=options, on_result=tick)
    wins = sum(1.0 if r.winners and r.entries[r.winners[0]] == 0 else 0.5 if not r.winners else 0.0 for r in results)
    lo, hi = wilson(wins, len(results))
    times = {lvl: [t for r in results for s, ts in enumerate(r.decision_times) if r.levels[s] == lvl for t in ts] for lvl in (a, b)}
    return {
        "pair": [a, b],
        "games": len(results),
        "wins": wins,
        "win_rate": wins / len(results),
        "ci95": [lo, hi],
        "rounds": sum(len(r.round_scores) for r in results),
        "seconds": time.perf_counter() - start,
        "decision_times": times,
    }


def time_summary(times: list[float]) -> dict[str, float]:
    """Median and 90th percentile of decision times, all and searched (over 2 ms) only."""
    if not times:
        return {}
    searched = [t for t in times if t > 0.002]
    out = {"decisions": len(times), "median_s": statistics.median(times), "p90_s": sorted(times)[int(0.9 * (len(times) - 1))], "max_s": max(times)}
    if searched:
        out["searched"] = len(searched)
        out["median_searched_s"] = statistics.median(searched)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=400, help="matches per pair (default 400)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=500)
    p.add_argument("--pairs", default=None, help="e.g. hard:medium,medium:random (default: all four)")
    p.add_argument("--hard-iterations", type=int, default=None, help="playouts per searched decision (default: the bot's)")
    p.add_argument("--hard-options", default=None, help='more options for the hard bot as JSON, e.g. \'{"margin": 10}\'')
    p.add_argument("--out", default=None, help="also write the numbers as JSON here")
    args = p.parse_args(argv)
    pairs = PAIRS
    if args.pairs:
        wanted = [tuple(x.split(":")) for x in args.pairs.split(",")]
        pairs = [(a, b, next((t for x, y, t in PAIRS if (x, y) == (a, b)), None)) for a, b in wanted]
    options: dict[str, dict[str, Any]] = {}
    if args.hard_iterations is not None:
        options["hard"] = {"iterations": args.hard_iterations}
    if args.hard_options:
        options.setdefault("hard", {}).update(json.loads(args.hard_options))
    rows = []
    for k, (a, b, bar) in enumerate(pairs):
        res = measure(a, b, args.games, seed=args.seed + k, jobs=args.jobs, options=options)
        res["required"] = bar
        res["passed"] = res["win_rate"] >= bar if bar is not None else res["win_rate"] > 0.5
        res["time_summary"] = {lvl: time_summary(ts) for lvl, ts in res.pop("decision_times").items()}
        rows.append(res)
        lo, hi = res["ci95"]
        print(
            f"{a:>6} vs {b:<6} {res['wins']:6.1f}/{res['games']} = {res['win_rate']:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]"
            f"  bar {'>' + format(bar, '.0%') if bar is not None else '>50%'}  {'PASS' if res['passed'] else 'FAIL'}"
            f"  ({res['rounds']} rounds, {res['seconds']:.0f} s)",
            flush=True,
        )
    hard_times = [r["time_summary"]["hard"] for r in rows if "hard" in r["time_summary"] and r["time_summary"]["hard"]]
    for ts in hard_times:
        print(
            f"hard decision time: median {ts['median_s'] * 1000:.0f} ms over {ts['decisions']} decisions; "
            f"median {ts.get('median_searched_s', 0) * 1000:.0f} ms over the {ts.get('searched', 0)} searched ones; "
            f"p90 {ts['p90_s'] * 1000:.0f} ms, max {ts['max_s'] * 1000:.0f} ms",
            flush=True,
        )
    print("\n| pair | games | wins | win rate | 95% interval | bar | result |\n|---|---|---|---|---|---|---|")
    for r in rows:
        a, b = r["pair"]
        bar = r["required"]
        print(
            f"| {a} vs {b} | {r['games']} | {r['wins']:g} | {r['win_rate']:.1%} | {r['ci95'][0]:.1%} - {r['ci95'][1]:.1%} "
            f"| {'>= ' + format(bar, '.0%') if bar is not None else '> 50%'} | {'pass' if r['passed'] else 'FAIL'} |"
        )
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"games_per_pair": args.games, "seed": args.seed, "jobs": args.jobs, "options": options, "pairs": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
