"""Quality of the game review: are its verdicts stable, and do they rank the bots?

Two measurements (``docs/review.md`` quotes them and defines them exactly):

* ``stability``: the same games (2 players, ``medium`` against ``random``,
  standard rules; ``--rounds 1`` for one-round games, ``--rounds 0`` for
  whole games to 500) reviewed twice, with review seeds 1 and 2, at the
  default budget (or ``--samples``/``--extend``). A decision is *marked* by a
  review when its verdict is ``mistake`` or ``blunder``. The stability is
  ``|A ∩ B| / |A ∪ B|``: of the decisions that either review marks, the share
  that both mark. Also printed: the share of one review's marks that the
  other also marks (``2|A ∩ B| / (|A| + |B|)``) and the agreement on the
  exact verdict over all decisions.
* ``ranking``: one-round 2-player games (``rounds: 1``) between ``random``,
  ``easy`` and ``medium`` in turn (the six ordered pairs of two different
  levels, so every level plays both seats); in each game ``--per-game``
  decisions with a choice are drawn at random, and at each of them every
  level (``random``, ``easy``, ``medium``, ``hard``, each a fresh bot seeing
  only that seat's view) chooses its move. The moves are judged together by
  :func:`rummy500.review.judge_moves` (the same guesses of the hidden cards
  and the same playouts for every move), so the levels are compared on the
  same positions. Prints each level's accuracy and expected points lost per
  decision with 95% confidence intervals, and the paired differences between
  neighbouring levels (the same positions, so the intervals are narrow).

Every line of results is appended (JSON) to ``--out`` as it comes, so a long
run can be read before it ends, and several processes (different
``--first``) can share the work: ``summarize --out A --out B`` prints the
tables of the lines so far. Run it niced::

    nice -n 19 python benchmarks/review_quality.py stability --rounds 1 --games 16 --out stab.jsonl
    nice -n 19 python benchmarks/review_quality.py ranking --games 800 --out rank.jsonl
    nice -n 19 python benchmarks/review_quality.py rejudge --from rank.jsonl --pair medium,hard --horizon end --out end.jsonl
    python benchmarks/review_quality.py summarize --out stab.jsonl --out rank.jsonl

The stability summary also counts *contradictions* (a decision one review
marks and the other, sure of itself, clears: :attr:`rummy500.review.Decision.sure`)
and the share of decisions left unsure. ``rejudge`` judges again, with
another budget (e.g. ``--horizon end``), the positions of earlier ranking
lines where two levels moved differently, with the same seeds and moves.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import asdict, replace
from typing import Any, Literal

from budget_flags import add_budget_flags, budget_from

from rummy500.bots import make_bot
from rummy500.record import load_record
from rummy500.review import Budget, _walk, accuracy_of, judge_moves, parse_horizon, review_record
from rummy500.rules import Rules
from rummy500.sim.runner import play_game

LEVELS = ("random", "easy", "medium", "hard")
GAME_PAIRS = (("random", "easy"), ("easy", "random"), ("random", "medium"), ("medium", "random"), ("easy", "medium"), ("medium", "easy"))
SERIOUS = ("mistake", "blunder")
Z95 = 1.96


def _rules(rounds: int) -> Rules:
    return Rules.from_mapping({"preset": "standard", **({"rounds": rounds} if rounds > 0 else {})})


def stability(games: int, first: int, rounds: int, budget: Budget, out: str | None) -> None:
    """Review each game twice (review seeds 1 and 2) and compare the verdicts."""
    rules = _rules(rounds)
    for g in range(first, first + games):
        record = play_game(["medium", "random"], rules, g, keep_record=True).record
        t = time.process_time()
        a = review_record(record, budget=budget, seed=1)
        b = review_record(record, budget=budget, seed=2)
        cpu = (time.process_time() - t) / 2
        rows = [
            {
                "step": x.step,
                "seat": x.seat,
                "played": x.played,
                "verdicts": [x.verdict, y.verdict],
                "loss": [x.loss, y.loss],
                "stderr": [x.stderr, y.stderr],
                "samples": [x.samples, y.samples],
                "sure": [x.sure, y.sure],
            }
            for x, y in zip(a.decisions, b.decisions, strict=True)
        ]
        _emit(out, {"stability": {"game": g, "rounds": a.rounds, "budget": asdict(budget), "cpu_s_per_review": round(cpu, 1), "decisions": rows}})


def _stability_summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    a_marks = b_marks = both = either = same = n = samples = contradicted = unsure = 0
    cpu = 0.0
    for g in games:
        cpu += g["cpu_s_per_review"]
        for d in g["decisions"]:
            va, vb = d["verdicts"]
            ma, mb = va in SERIOUS, vb in SERIOUS
            sa, sb = d.get("sure", [True, True])
            a_marks += ma
            b_marks += mb
            both += ma and mb
            either += ma or mb
            # Marked by one review and cleared with confidence by the other (settled, not marked).
            contradicted += (ma and sb and not mb) or (mb and sa and not ma)
            unsure += (not sa) + (not sb)
            same += va == vb
            n += 1
            samples += sum(d["samples"])
    return {
        "games": len(games),
        "decisions": n,
        "marked_by_a": a_marks,
        "marked_by_b": b_marks,
        "marked_by_both": both,
        "marked_by_either": either,
        "stability": round(both / either, 3) if either else None,
        "share_of_marks_confirmed": round(2 * both / (a_marks + b_marks), 3) if a_marks + b_marks else None,
        "contradicted": contradicted,
        "uncontradicted": round(1 - contradicted / either, 3) if either else None,
        "unsure_share": round(unsure / (2 * n), 3) if n else None,
        "same_verdict": round(same / n, 3) if n else None,
        "mean_samples": round(samples / (2 * n), 1) if n else None,
        "cpu_s_per_review": round(cpu / len(games), 1) if games else None,
    }


def ranking(
    games: int,
    first: int,
    per_game: int,
    budget: Budget,
    out: str | None,
    levels: tuple[str, ...] = LEVELS,
    only_differ: bool = False,
    horizons: tuple[int | Literal["auto"] | None, ...] = (),
) -> None:
    """Every level decides the same sampled positions; the moves are judged on the same guesses.

    With ``only_differ``, positions where every level chose the same move are
    counted (``same``) but not judged: the paired differences are then over
    the positions where the levels disagree. With ``horizons``, the same
    positions and moves are judged once per horizon (one line per game and
    horizon; ``summarize`` prints a table per horizon).
    """
    rules = _rules(1)
    judges = [replace(budget, horizon=h) for h in horizons] or [budget]
    for g in range(first, first + games):
        pair = GAME_PAIRS[g % len(GAME_PAIRS)]
        record = play_game(list(pair), rules, g, keep_record=True).record
        points, _, _ = _walk(load_record(record))
        pick = random.Random(f"positions:{g}")
        rows = [
            {"game": g, "pair": pair, "budget": asdict(b), "levels": list(levels), "same": 0, "positions": []} for b in judges
        ]
        for p in pick.sample(points, min(per_game, len(points))):
            moves = {lv: make_bot(lv, pick.getrandbits(32)).act(p.view, random.Random(pick.getrandbits(32))) for lv in levels}
            if only_differ and len(set(moves.values())) == 1:
                for row in rows:
                    row["same"] += 1
                continue
            for b, row in zip(judges, rows, strict=True):
                judged = judge_moves(p.view, list(moves.values()), budget=b, seed=f"{g}:{p.round}:{p.index}")
                row["positions"].append(
                    {
                        "step": p.step,
                        "moves": {lv: str(m) for lv, m in moves.items()},
                        "best": str(judged["best"]),
                        "loss": {lv: round(judged["loss"][m], 2) for lv, m in moves.items()},
                        "value": {lv: round(judged["means"][m], 2) for lv, m in moves.items()},
                        "verdict": {lv: judged["verdict"][m] for lv, m in moves.items()},
                        "samples": judged["samples"],
                    }
                )
        for row in rows:
            _emit(out, {"ranking": row})


def rejudge(paths: list[str], pair: tuple[str, str], budget: Budget, out: str | None) -> None:
    """Judge again, with ``budget``, the positions of earlier ranking runs where the two levels of ``pair`` moved differently.

    The games and positions are rebuilt from their seeds, the levels' moves
    read back from the lines (so no bot decides again) and all of them judged
    together with the same seed as before: only the budget (e.g. the horizon)
    differs, position by position.
    """
    rules = _rules(1)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line)["ranking"] for line in f if '"ranking"' in line]
        for old in rows:
            keep = [p for p in old["positions"] if p["moves"][pair[0]] != p["moves"][pair[1]]]
            if not keep:
                continue
            g = old["game"]
            record = play_game(list(old["pair"]), rules, g, keep_record=True).record
            points = {p.step: p for p in _walk(load_record(record))[0]}
            row: dict[str, Any] = {"game": g, "pair": old["pair"], "budget": asdict(budget), "levels": old["levels"], "same": 0, "positions": []}
            for pos in keep:
                p = points[pos["step"]]
                legal = {str(a): a for a in p.view.legal}
                moves = {lv: legal[m] for lv, m in pos["moves"].items()}
                judged = judge_moves(p.view, list(moves.values()), budget=budget, seed=f"{g}:{p.round}:{p.index}")
                row["positions"].append(
                    {
                        "step": p.step,
                        "moves": pos["moves"],
                        "best": str(judged["best"]),
                        "loss": {lv: round(judged["loss"][m], 2) for lv, m in moves.items()},
                        "value": {lv: round(judged["means"][m], 2) for lv, m in moves.items()},
                        "verdict": {lv: judged["verdict"][m] for lv, m in moves.items()},
                        "samples": judged["samples"],
                    }
                )
            _emit(out, {"ranking": row})


def _ci(xs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation)."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, n - 1))
    return m, Z95 * sd / math.sqrt(n)


def _ranking_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    pos = [p for r in rows for p in r["positions"]]
    out: dict[str, Any] = {
        "games": len(rows),
        "positions": len(pos),
        "levels_differ": sum(len(set(p["moves"].values())) > 1 for p in pos),
        "skipped_same": sum(r.get("same", 0) for r in rows),
    }
    if not pos:
        return out
    levels_run = tuple(rows[0].get("levels", LEVELS))
    acc = {lv: [100 * math.exp(-p["loss"][lv] / 10) for p in pos] for lv in levels_run}
    levels = {}
    for lv in levels_run:
        losses = [p["loss"][lv] for p in pos]
        am, ah = _ci(acc[lv])
        lm, lh = _ci(losses)
        assert abs(am - (accuracy_of(losses) or 0)) < 1e-6
        levels[lv] = {
            "accuracy": round(am, 1),
            "accuracy_ci95": round(ah, 1),
            "loss_per_decision": round(lm, 2),
            "loss_ci95": round(lh, 2),
            "mistakes_and_blunders": sum(p["verdict"][lv] in SERIOUS for p in pos),
        }
    out["levels"] = levels
    steps = {}
    for lo, hi in zip(levels_run, levels_run[1:], strict=False):
        dm, dh = _ci([b - a for a, b in zip(acc[lo], acc[hi], strict=True)])
        vm, vh = _ci([p["value"][hi] - p["value"][lo] for p in pos])
        steps[f"{hi} - {lo}"] = {
            "accuracy": round(dm, 2),
            "accuracy_ci95": round(dh, 2),
            "expected_points": round(vm, 2),
            "points_ci95": round(vh, 2),
            "positions_where_moves_differ": sum(p["moves"][hi] != p["moves"][lo] for p in pos),
        }
    out["paired_differences"] = steps
    return out


def summarize(paths: list[str]) -> dict[str, Any]:
    """The summaries of (possibly unfinished) runs, from their JSON lines."""
    stab: list[dict[str, Any]] = []
    rank: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                obj = json.loads(line)
                if "stability" in obj:
                    stab.append(obj["stability"])
                if "ranking" in obj:
                    rank.append(obj["ranking"])
    out: dict[str, Any] = {}
    if stab:
        out["stability"] = _stability_summary(stab)
    if rank:
        out["ranking"] = _ranking_summary(rank)
        by: dict[str, list[dict[str, Any]]] = {}
        for r in rank:
            by.setdefault(str(r["budget"].get("horizon")), []).append(r)
        if len(by) > 1:
            out["ranking_by_horizon"] = {h: _ranking_summary(rs) for h, rs in by.items()}
    return out


def print_tables(summary: dict[str, Any]) -> None:
    """The summaries as the tables ``docs/review.md`` quotes."""
    s = summary.get("stability")
    if s:
        print(f"stability: {s['games']} games, {s['decisions']} decisions, reviewed twice (seeds 1 and 2)")
        print(f"  marked mistake/blunder: A {s['marked_by_a']}, B {s['marked_by_b']}, both {s['marked_by_both']}, either {s['marked_by_either']}")
        print(f"  stability |A∩B|/|A∪B| = {s['stability']}; 2|A∩B|/(|A|+|B|) = {s['share_of_marks_confirmed']}; same verdict on {s['same_verdict']} of all decisions")
        print(
            f"  marked by one review and cleared with confidence by the other: {s['contradicted']}; "
            f"uncontradicted 1 - that/|A∪B| = {s['uncontradicted']}; decisions left unsure (interval across the line at the cap) {s['unsure_share']}"
        )
        print(f"  mean samples per decision {s['mean_samples']}; CPU s per review {s['cpu_s_per_review']}")
    tables = summary.get("ranking_by_horizon") or {"": summary.get("ranking")}
    for horizon, r in tables.items():
        if not r or "levels" not in r:
            continue
        if horizon:
            print(f"judged with horizon {horizon}:")
        _print_ranking(r)


def _print_ranking(r: dict[str, Any]) -> None:
    if r:
        print(
            f"ranking: {r['games']} games, {r['positions']} positions judged (the levels' moves differ in {r['levels_differ']}; "
            f"{r['skipped_same']} positions where all chose the same move not judged)"
        )
        print(f"  {'level':<8}{'accuracy (95% CI)':>22}{'points lost/decision (95% CI)':>32}{'mistakes+':>11}")
        for lv, v in r["levels"].items():
            print(f"  {lv:<8}{v['accuracy']:>13.1f} ± {v['accuracy_ci95']:<6.1f}{v['loss_per_decision']:>23.2f} ± {v['loss_ci95']:<6.2f}{v['mistakes_and_blunders']:>11}")
        print("  paired differences on the same positions (higher level minus lower):")
        for k, v in r["paired_differences"].items():
            print(
                f"  {k:<16} accuracy {v['accuracy']:+.2f} ± {v['accuracy_ci95']:.2f}, "
                f"expected points {v['expected_points']:+.2f} ± {v['points_ci95']:.2f} (moves differ at {v['positions_where_moves_differ']})"
            )


def _emit(out: str | None, obj: dict[str, Any]) -> None:
    line = json.dumps(obj)
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(line + "\n")
    else:
        print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("what", choices=("stability", "ranking", "rejudge", "summarize"))
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="the first game's seed (split a run between processes)")
    parser.add_argument("--rounds", type=int, default=1, help="stability: rounds per game (0: a whole game to 500)")
    add_budget_flags(parser)
    parser.add_argument("--per-game", type=int, default=1, help="ranking: positions sampled per game")
    parser.add_argument("--levels", default=",".join(LEVELS), help="ranking: the levels compared, weakest first")
    parser.add_argument("--only-differ", action="store_true", help="ranking: judge only the positions where the levels' moves differ")
    parser.add_argument("--from", dest="sources", action="append", default=[], help="rejudge: the ranking lines to judge again")
    parser.add_argument("--pair", default="medium,hard", help="rejudge: judge again where these two levels' moves differ")
    parser.add_argument("--horizons", default="", help="ranking: judge the same positions once per horizon, e.g. 4,end")
    parser.add_argument("--out", action="append", default=None, help="append the JSON lines to this file (summarize: read them)")
    args = parser.parse_args(argv)
    budget = budget_from(args)
    out = args.out[0] if args.out else None
    if args.what == "summarize":
        summary = summarize(args.out or [])
        print_tables(summary)
        print(json.dumps(summary))
        return 0
    print(f"budget: {budget}", file=sys.stderr)
    if args.what == "rejudge":
        a, b = args.pair.split(",")
        rejudge(args.sources, (a, b), budget, out)
    elif args.what == "stability":
        stability(args.games, args.first, args.rounds, budget, out)
    else:
        horizons = tuple(parse_horizon(h) for h in args.horizons.split(",") if h)
        ranking(args.games, args.first, args.per_game, budget, out, tuple(args.levels.split(",")), args.only_differ, horizons)
    if out:
        print_tables(summarize([out]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
