"""Quality of the game review: are its verdicts stable, and do they rank the bots?

Two measurements (``docs/review.md`` quotes them):

* ``stability``: the same games (2 players, to 500, ``medium`` against
  ``random``) reviewed twice with different seeds at the default budget. Of
  the decisions either review marks a mistake or a blunder, the share the
  other review also marks a mistake or worse, and the share it marks at least
  an inaccuracy.
* ``ranking``: one-round 2-player games (``rounds: 1``) between ``medium``
  bots; in each game ``--per-game`` decisions with a choice are drawn at
  random, and at each of them every level (``random``, ``easy``, ``medium``,
  ``hard``, each a fresh bot) chooses its move from the same view. The moves
  are judged together at the default budget (:func:`rummy500.review.judge_moves`:
  the same guesses of the hidden cards and the same playouts for every
  move), so the levels are compared on the same positions (a sampled,
  paired review, to keep the run cheap). Prints each level's accuracy (mean of
  the per-decision accuracies, with its standard error) and expected points
  lost per decision.

Results are appended line by line (JSON) to ``--out`` as they come, so a
long run can be read before it ends: ``summarize --out FILE`` prints the
summaries of the lines so far. Run it niced, one process:
``nice python benchmarks/review_quality.py ranking --games 200``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time

from rummy500.bots import make_bot
from rummy500.record import load_record
from rummy500.review import DEFAULT_BUDGET, _walk, accuracy_of, judge_moves, review_record
from rummy500.rules import Rules
from rummy500.sim.runner import play_game

LEVELS = ("random", "easy", "medium", "hard")
SERIOUS = ("mistake", "blunder")


def stability(games: int, seed: int, out: str | None) -> dict:
    rules = Rules.from_mapping({"preset": "standard"})
    rows = []
    for g in range(games):
        record = play_game(["medium", "random"], rules, seed + g, keep_record=True).record
        t = time.process_time()
        a = review_record(record, seed=1)
        b = review_record(record, seed=2)
        cpu = (time.process_time() - t) / 2
        va = {(d.round, d.index): d.verdict for d in a.decisions}
        vb = {(d.round, d.index): d.verdict for d in b.decisions}
        marked = [k for k in va if va[k] in SERIOUS or vb[k] in SERIOUS]
        both = sum(1 for k in marked if va[k] in SERIOUS and vb[k] in SERIOUS)
        near = sum(1 for k in marked if va[k] != "good" and vb[k] != "good")
        row = {"game": g, "decisions": len(va), "marked": len(marked), "both_serious": both, "both_flagged": near, "cpu_s": round(cpu, 1)}
        rows.append(row)
        _emit(out, {"stability": row})
    marked = sum(r["marked"] for r in rows)
    summary = {
        "games": games,
        "decisions": sum(r["decisions"] for r in rows),
        "marked": marked,
        "agree_serious": round(sum(r["both_serious"] for r in rows) / max(1, marked), 3),
        "agree_flagged": round(sum(r["both_flagged"] for r in rows) / max(1, marked), 3),
    }
    _emit(out, {"stability_summary": summary})
    return summary


def ranking(games: int, per_game: int, seed: int, out: str | None) -> dict:
    """Paired positions: every level decides the same sampled positions, judged on the same guesses."""
    rules = Rules.from_mapping({"preset": "standard", "rounds": 1})
    losses: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    for g in range(games):
        record = play_game(["medium", "medium"], rules, seed + g, keep_record=True).record
        points, _, _ = _walk(load_record(record))
        pick = random.Random(seed * 7919 + g)
        row: dict = {"game": g, "positions": []}
        for p in pick.sample(points, min(per_game, len(points))):
            bots = {lv: make_bot(lv, pick.getrandbits(32)) for lv in LEVELS}
            moves = {lv: b.act(p.view, random.Random(pick.getrandbits(32))) for lv, b in bots.items()}
            judged = judge_moves(p.view, list(moves.values()), seed=f"{g}:{p.round}:{p.index}")
            lost = {lv: round(judged["loss"][m], 2) for lv, m in moves.items()}
            for lv, x in lost.items():
                losses[lv].append(x)
            row["positions"].append({"step": p.step, "moves": {lv: str(m) for lv, m in moves.items()}, "best": str(judged["best"]), "loss": lost})
        _emit(out, {"ranking": row})
    summary = {"games": games, "per_game": per_game, "levels": {lv: _stats(xs) for lv, xs in losses.items()}}
    _emit(out, {"ranking_summary": summary})
    return summary


def _stats(xs: list[float]) -> dict:
    if not xs:
        return {"decisions": 0}
    accs = [100 * math.exp(-x / 10) for x in xs]
    m = sum(accs) / len(accs)
    se = math.sqrt(sum((a - m) ** 2 for a in accs) / max(1, len(accs) - 1) / len(accs))
    return {
        "decisions": len(xs),
        "accuracy": round(accuracy_of(xs) or 0, 1),
        "accuracy_se": round(se, 1),
        "loss_per_decision": round(sum(xs) / len(xs), 2),
        "serious": sum(1 for x in xs if x >= 8),
    }


def summarize(path: str) -> dict:
    """The summaries of a (possibly unfinished) run, from its JSON lines."""
    losses: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    games = 0
    stab = {"games": 0, "decisions": 0, "marked": 0, "both_serious": 0, "both_flagged": 0}
    differ = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            obj = json.loads(line)
            if "ranking" in obj:
                games += 1
                for pos in obj["ranking"]["positions"]:
                    for lv, x in pos["loss"].items():
                        losses[lv].append(x)
                    differ += len(set(pos["moves"].values())) > 1
            if "stability" in obj:
                row = obj["stability"]
                stab["games"] += 1
                for k in ("decisions", "marked", "both_serious", "both_flagged"):
                    stab[k] += row[k]
    out: dict = {}
    if games:
        out["ranking"] = {"games": games, "positions": len(losses["random"]), "levels_differ": differ, "levels": {lv: _stats(xs) for lv, xs in losses.items()}}
    if stab["games"]:
        m = max(1, stab["marked"])
        out["stability"] = dict(stab, agree_serious=round(stab["both_serious"] / m, 3), agree_flagged=round(stab["both_flagged"] / m, 3))
    return out


def _emit(out: str | None, obj: dict) -> None:
    line = json.dumps(obj)
    print(line, flush=True)
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("stability", "ranking", "summarize"))
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--per-game", type=int, default=4, help="ranking: positions sampled per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="append the JSON lines to this file (summarize: read it)")
    args = parser.parse_args(argv)
    print(f"default budget: {DEFAULT_BUDGET}", file=sys.stderr)
    if args.what == "summarize":
        print(json.dumps(summarize(args.out), indent=1))
    elif args.what == "stability":
        print(json.dumps(stability(args.games, args.seed, args.out)))
    else:
        print(json.dumps(ranking(args.games, args.per_game, args.seed, args.out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
