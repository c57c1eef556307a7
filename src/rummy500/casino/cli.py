"""``rummy500 casino``: Costa Rican Rummy commands (edge, strategy, play, simulate)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict

from rummy500.casino.money import MAX_CHIPS, PLACES, ChipsError, format_chips, parse_chips
from rummy500.casino.rules import BENCHMARK, VARIANTS, CasinoRules, RulesError
from rummy500.casino.strategy import UPS, Chart, chart_for

__all__ = ["main", "rules_from_args"]

_UP = {1: "A", 10: "T"}


def _rule_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("table rules (default: the benchmark rules)")
    g.add_argument("--decks", type=int, default=6, help="decks in the shoe (4-6 in the casinos; default 6)")
    g.add_argument("--h17", action="store_true", help="the dealer hits soft 17")
    g.add_argument("--no-surrender", action="store_true", help="no early surrender")
    g.add_argument("--no-das", action="store_true", help="no double after a split")
    g.add_argument("--das", action="store_true", help="double after a split (the default)")
    g.add_argument("--no-resplit-aces", action="store_true", help="split aces are not split again")
    g.add_argument("--draw-split-aces", action="store_true", help="split aces are played like other split hands")
    g.add_argument("--max-hands", type=int, default=4, help="most hands after splits (default 4)")
    g.add_argument("--rules", default=None, help="any rule option as JSON, e.g. '{\"ace_low_straight\": false}'")


def rules_from_args(ns: argparse.Namespace) -> CasinoRules:
    """The rules the flags describe.

    Raises:
        RulesError: bad values (out of range, or of the wrong JSON type in ``--rules``:
            ``"false"`` or ``0`` for a boolean, ``"6"`` or ``4.0`` for a whole number) or unknown options.
    """
    rules = CasinoRules(
        decks=ns.decks,
        h17=ns.h17,
        surrender=not ns.no_surrender,
        das=not ns.no_das,
        resplit_aces=not ns.no_resplit_aces,
        draw_split_aces=ns.draw_split_aces,
        max_hands=ns.max_hands,
    )
    if ns.rules:
        try:
            extra = json.loads(ns.rules)
        except json.JSONDecodeError as exc:
            raise RulesError(f"--rules is not JSON: {exc.msg}") from None
        if not isinstance(extra, dict):
            raise RulesError("--rules must be a JSON object")
        try:
            rules = rules.with_options(**extra)
        except RulesError as exc:
            raise RulesError(f"--rules: {exc}") from None
    return rules


def _chart(rules: CasinoRules) -> Chart:
    chart = chart_for(rules, compute=False)
    if chart is None:
        print("computing the exact analysis for these rules (a minute or more)...", file=sys.stderr)
        chart = chart_for(rules)
    assert chart is not None
    return chart


def _edge(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="rummy500 casino edge", description="The exact house edge (optimal play, finite shoe)."
    )
    _rule_args(p)
    p.add_argument(
        "--variants", action="store_true", help="also the seed's rule variants against their published effects"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    ns = p.parse_args(argv)
    rules = rules_from_args(ns)
    base = _chart(rules)
    out: dict = {"rules": asdict(rules), "house_edge_pct": round(base.edge, 4), "bonus_pct": round(100 * base.bonus, 4)}
    if base.basic_edge is not None:
        out["chart_house_edge_pct"] = round(base.basic_edge, 4)
    if ns.variants:
        bench = _chart(BENCHMARK).edge
        # The variants' effects are changes from the benchmark rules, whatever rules the flags chose.
        out["benchmark_house_edge_pct"] = round(bench, 4)
        out["published_house_edge_pct"] = 1.00
        out["variants_measured_from"] = "benchmark"
        out["variants"] = [
            {
                "variant": name,
                "published": pub,
                "computed": round(_chart(r).edge - bench, 4),
                "house_edge_pct": round(_chart(r).edge, 4),
            }
            for name, r, pub in VARIANTS
        ]
    if ns.json:
        print(json.dumps(out))
        return 0
    print(f"Costa Rican Rummy, {rules.describe()}")
    print(f"house edge {base.edge:.3f}% (exact, optimal play; bonuses return {100 * base.bonus:.3f}% of the bet)")
    if base.basic_edge is not None:
        print(f"playing the basic-strategy chart: {base.basic_edge:.3f}%")
    if ns.variants:
        print(f"benchmark rules: {_chart(BENCHMARK).edge:.3f}% (published 1.00%)")
        print("each variant's change to the benchmark rules' house edge, in points:")
        print(f"{'variant':<24}{'published':>10}{'computed':>10}")
        for v in out["variants"]:
            print(f"{v['variant']:<24}{v['published']:>+9.2f}%{v['computed']:>+9.3f}%")
    return 0


def chart_text(chart: Chart) -> str:
    """The chart as text: two-card rows, suited exceptions, and hit/stand for three cards or more."""
    head = "      " + " ".join(f"{_UP.get(u, str(u)):>3}" for u in UPS)
    lines = [f"Basic strategy: {chart.rules.describe()}", "", "Two cards", head]
    for kind, rng, label in (
        ("H", range(5, 20), lambda t: f"{t}"),
        ("S", range(13, 22), lambda t: f"A,{t - 11 if t < 21 else 'T'}"),
        ("P", (2, 3, 4, 5, 6, 7, 8, 9, 10, 1), lambda v: f"{_UP.get(v, str(v))},{_UP.get(v, str(v))}"),
    ):
        for t in rng:
            row = f"{kind}{t}"
            if row in chart.rows:
                lines.append(f"{label(t):>5} " + " ".join(f"{chart.cell(row, u):>3}" for u in UPS))
    lines += [
        "",
        "H hit, S stand, P split, Dh/Ds double (else hit/stand), Rh/Rs/Rp surrender (else hit/stand/split)",
        "",
        "Suited two-card exceptions (the bonuses):",
    ]
    lines += ["  " + x for x in chart.exception_lines()] or ["  none"]
    lines += ["", "Three cards or more (hit H / stand S)", head]
    # The rows outside these ranges go in the footnote when they play one way against every
    # up-card (hit or stand, as the computed table says); a row that does not is printed.
    shown = [f"H{t}" for t in range(12, 18)] + [f"S{t}" for t in range(17, 20)]
    notes: dict[str, list[str]] = {"H": [], "S": []}
    for group, keys in (
        ("hard 11 or less", [f"H{t}" for t in range(4, 12)]),
        ("soft 16 or less", [f"S{t}" for t in range(12, 17)]),
        ("hard 18 or more", [f"H{t}" for t in range(18, 22)]),
        ("soft 20 or more", [f"S{t}" for t in range(20, 22)]),
    ):
        plays = {chart.hit_stand[k][u] for k in keys for u in UPS}
        if len(plays) == 1:
            notes[plays.pop()].append(group)
        else:
            shown += keys
    order = [f"H{t}" for t in range(4, 22)] + [f"S{t}" for t in range(12, 22)]
    for key in sorted(shown, key=order.index):
        lines.append(f"{key:>5} " + " ".join(f"{chart.hit_stand[key][u]:>3}" for u in UPS))
    note = "; ".join(
        f"{', '.join(labels)}: {'hit' if play == 'H' else 'stand'}" for play, labels in notes.items() if labels
    )
    if note:
        lines.append(f"({note})")
    return "\n".join(lines)


def _strategy(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="rummy500 casino strategy", description="Print the computed basic strategy chart.")
    _rule_args(p)
    p.add_argument("--svg", metavar="FILE", default=None, help="also write the chart as an SVG image")
    ns = p.parse_args(argv)
    rules = rules_from_args(ns)
    if ns.svg and (why := _cannot_write(ns.svg)):
        print(f"rummy500 casino: cannot write {ns.svg}: {why}", file=sys.stderr)
        return 2
    chart = _chart(rules)
    print(chart_text(chart))
    if ns.svg:
        from rummy500.casino.svg import chart_svg

        try:
            with open(ns.svg, "w", encoding="utf-8") as fh:
                fh.write(chart_svg(chart))
        except OSError as exc:
            print(f"rummy500 casino: cannot write {ns.svg}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0


def _cannot_write(path: str) -> str | None:
    """Why ``path`` cannot be written as a new or replaced file (``None``: it looks writable)."""
    if os.path.isdir(path):
        return "it is a directory"
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        return f"no such directory {parent}"
    if not os.access(path if os.path.exists(path) else parent, os.W_OK):
        return "permission denied"
    return None


def _check_seed(seed: int | None) -> None:
    """Refuse a negative seed: ``random.Random`` would deal the same cards as for its absolute value."""
    if seed is not None and seed < 0:
        raise RulesError(f"--seed must be 0 or more, not {seed}")


def _pct(value: float, places: int) -> str:
    """A percentage to ``places`` decimals, without the sign of a value that rounds to zero."""
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _simulate(argv: list[str]) -> int:
    from rummy500.casino.simulate import MIN_ROUNDS, simulate

    p = argparse.ArgumentParser(
        prog="rummy500 casino simulate", description="Monte Carlo check of the exact house edge."
    )
    _rule_args(p)
    p.add_argument("--hands", type=int, default=200_000, help="rounds to play (default 200000)")
    p.add_argument("--seed", type=int, default=0, help="0 or more (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    ns = p.parse_args(argv)
    if ns.hands < 1 or ns.jobs < 1:
        raise RulesError("--hands and --jobs must be at least 1")
    _check_seed(ns.seed)
    rules = rules_from_args(ns)
    chart = _chart(rules)
    t0 = time.perf_counter()
    res = simulate(rules, chart, ns.hands, ns.seed, ns.jobs)
    secs = time.perf_counter() - t0
    exact = chart.edge if chart.basic_edge is None else chart.basic_edge
    inside = res.agrees(exact)
    too_few = f"too few rounds to compare (an interval needs at least {MIN_ROUNDS} rounds, not all alike)"
    out: dict[str, object] = {
        "rounds": res.rounds,
        "house_edge_pct": round(res.edge, 4) + 0.0,  # + 0.0: no -0.0
        "ci95_pct": None if inside is None else round(res.half_width, 4),
        "sd": round(res.sd, 4),
        "exact_pct": round(exact, 4),
        "agrees": inside,
    }
    if inside is None:
        out["reason"] = too_few
    out["seconds"] = round(secs, 1)
    if ns.json:
        print(json.dumps(out))
    else:
        rounds = f"{res.rounds} round{'' if res.rounds == 1 else 's'}"
        interval = "" if inside is None else f" \u00b1 {res.half_width:.3f} (95%)"
        print(f"{rounds} by basic strategy: house edge {_pct(res.edge, 3)}%{interval}, sd {res.sd:.3f}")
        which = "optimal play" if chart.basic_edge is None else "this chart"
        verdict = too_few if inside is None else f"{'inside' if inside else 'OUTSIDE'} the interval"
        print(f"exact ({which}) {exact:.3f}%: {verdict} ({secs:.1f} s)")
    return 0


def _play(argv: list[str]) -> int:
    from rummy500.casino.play import play

    p = argparse.ArgumentParser(prog="rummy500 casino play", description="Play Costa Rican Rummy in the terminal.")
    _rule_args(p)
    p.add_argument(
        "--bankroll",
        default="1000",
        help=f"starting chips (default 1000, at most {format_chips(MAX_CHIPS)}, at most {PLACES} decimal places)",
    )
    p.add_argument("--seed", type=int, default=None, help="shuffle seed, 0 or more (same seed, same cards)")
    ns = p.parse_args(argv)
    try:
        bankroll = parse_chips(ns.bankroll)
    except ChipsError:
        raise RulesError(
            f"--bankroll must be more than 0 and at most {format_chips(MAX_CHIPS)} chips "
            f"(at most {PLACES} decimal places), not {ns.bankroll.strip()}"
        ) from None
    _check_seed(ns.seed)
    rules = rules_from_args(ns)
    # Ctrl-C while a chart is computed, before any chips are dealt, stops as in the other
    # commands (main); once the session runs, it ends the session as quit does.
    chart = _chart(rules)
    return play(rules, chart, bankroll, ns.seed)


_COMMANDS = {
    "edge": ("the exact house edge, and the variants against the published figures", _edge),
    "strategy": ("print the computed basic strategy chart", _strategy),
    "play": ("play at the terminal: bankroll, bets, hints, mistake counter", _play),
    "simulate": ("Monte Carlo check of the house edge with a 95% interval", _simulate),
}


def main(argv: list[str] | None = None) -> int:
    """Run ``rummy500 casino ...``.

    Returns:
        The exit status: 0, 2 for bad arguments (a one-line error), 130 after Ctrl-C
        (``rummy500 casino: interrupted``; a simulation's worker processes are stopped).
        In ``play``, Ctrl-C once cards are dealt ends the session as ``quit`` does (0).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help") or args[0] not in _COMMANDS:
        if args and args[0] not in ("-h", "--help"):
            print(f"rummy500 casino: unknown command {args[0]!r} (commands: {', '.join(_COMMANDS)})", file=sys.stderr)
            return 2
        print("usage: rummy500 casino COMMAND [options]\n\nCosta Rican Rummy, the casino blackjack variant.\n")
        for name, (text, _) in _COMMANDS.items():
            print(f"  {name:<10}{text}")
        return 0 if args else 2
    try:
        return _COMMANDS[args[0]][1](args[1:])
    except RulesError as exc:
        print(f"rummy500 casino: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # A line of its own: the terminal has echoed ^C where the cursor was.
        print("\nrummy500 casino: interrupted", file=sys.stderr)
        return 130
