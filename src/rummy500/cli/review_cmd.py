r"""``rummy500 review GAME.json``: where each player's points went (see :mod:`rummy500.review`).

Prints the game's scores round by round (replayed from the record), a table
per player of the decisions that lost points (rich), then each player's
accuracy and expected points lost; ``--json`` prints the whole review as JSON
instead. A progress bar runs on standard error.
Exit status 0, or 2 with one line on standard error for an option it does
not take (with the usage, as ``rummy500 replay`` says it; ``--budget`` takes 2
to :data:`rummy500.review.MAX_SAMPLES`, as the web server), a file that cannot be
read or a record that cannot be reviewed (malformed, an illegal action, no
round, or a game that is not finished: ``--unfinished`` reviews one anyway).
Names and other text from the record are printed with their control
characters written out (``\x1b``, ``\n``: see
:func:`rummy500.cli.replay_cmd.printable`), never sent to the terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn, TypeVar

from rummy500.bots.hard import LEAVES
from rummy500.cli._input import read_record_bytes
from rummy500.cli.args import seed as seed_arg
from rummy500.cli.replay_cmd import printable
from rummy500.record import RecordError, parse_record_json
from rummy500.review import (
    DEFAULT_BUDGET,
    MAX_SAMPLES,
    Decision,
    Review,
    ReviewError,
    cores,
    parse_horizon,
    review_record,
)
from rummy500.rules import HandPenalty

T = TypeVar("T")

__all__ = ["main", "print_review", "print_scores", "replay_scores"]

USAGE = "rummy500 review FILE|- [options]; rummy500 review --help lists them"

_STYLE = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def _say(message: str) -> None:
    """One line on standard error, every control character in it written out."""
    print(f"rummy500 review: {printable(message)}", file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    """Option errors in one line with the usage hint, as ``rummy500 replay`` gives them (not argparse's usage block)."""

    def error(self, message: str) -> NoReturn:
        _say(f"{message} (usage: {USAGE})")
        sys.exit(2)


def _read(path: str) -> object:
    """The record's JSON, read and parsed as ``rummy500 replay`` reads it.

    As bytes, never more than :data:`rummy500.record.MAX_RECORD_BYTES` of them
    (:func:`rummy500.cli._input.read_record_bytes`), decoded as strict UTF-8
    and parsed strictly (:func:`parse_record_json`).

    Raises:
        OSError: the file or standard input cannot be read, or holds more than the limit.
        RecordError: not UTF-8, not JSON, too deep, a number out of range, a key given twice.
    """
    return parse_record_json(read_record_bytes(path))


@dataclass
class Scores:
    """The record replayed by the engine: what each round scored (see :func:`replay_scores`).

    Every figure is in the game's own points (after any ``score_divisor``), and
    each round's row adds up: ``melded - in hand + other == round score``.
    """

    players: list[str]
    #: per finished round: (melded, in hand taken off, other, round scores, totals after it, who went out);
    #: the last round's totals are before the final bonus (see ``bonus``)
    rounds: list[tuple[list[int], list[int], list[int], list[int], list[int], int | None]]
    #: rounds in the record, the last one perhaps unfinished
    played: int
    #: ``(round from 1, actions)`` when the record stops inside a round, else None
    cut: tuple[int, int] | None
    #: the winning seats (one, or a partnership's two); empty while nobody has won
    winners: list[int]
    #: final totals per side (per seat without partnerships), a final bonus included
    side_totals: list[int]
    #: ``(seat, points)`` of a final bonus (in a partnership the side's first seat), or None
    bonus: tuple[int, int] | None
    partnership: bool
    #: actions in the record, all rounds together
    actions: int = 0
    #: what the ``other`` column may hold under these rules, one phrase each (empty: nothing)
    others: list[str] = field(default_factory=list)
    #: the rules' ``score_divisor``
    divisor: int = 1
    #: ``hand_penalty: to_goer``: the cards left in hand count for the player who went out, not off their holders
    to_goer: bool = False


def _others(rules: Any) -> list[str]:
    """What else than melded minus in hand may go into a round score under ``rules`` (the ``other`` column)."""
    out = []
    if rules.hand_penalty is HandPenalty.TO_GOER:
        stock = " (when the stock runs out, each side scores the other's)" if rules.n_sides == 2 and rules.stock_out_penalty else ""
        out.append(f"the cards left in the other side's hands, which count for the player who went out{stock}")
    if rules.going_out_bonus:
        out.append(f"the going-out bonus of {rules.going_out_bonus}")
    if rules.masters_hand_score is not None:
        out.append(f"a Master's Hand, which scores {rules.masters_hand_score} for the round whatever was melded")
    if rules.score_divisor != 1:
        out.append(f"the rounding of the round score, divided by {rules.score_divisor} as a whole")
    return out


def replay_scores(record: Any) -> Scores:
    """Replay a record with the engine and keep each round's scoring, in the game's own points.

    Raises:
        ReviewError: the record is malformed (the place named by its JSON path, from 0:
            ``rounds[0].actions[3]: ...``) or an action in it is illegal (rounds and
            actions counted from 1, as the review's tables count rounds).
    """
    from rummy500.match import Match
    from rummy500.record import RecordError, load_record, replay_match
    from rummy500.scoring import divide_points
    from rummy500.state import IllegalAction

    rounds: list[tuple[list[int], list[int], list[int], list[int], list[int], int | None]] = []
    cut: tuple[int, int] | None = None

    def keep(r: int, match: Match) -> None:
        nonlocal cut
        state = match.state
        assert state is not None
        if state.is_over and state.result is not None:
            res, rules = state.result, match.rules
            d = rules.score_divisor
            # The hands are taken off their holders' scores only under hand_penalty: own, and on an
            # empty stock only with stock_out_penalty (score_round); to_goer scores them under other.
            taken = res.went_out is not None or rules.stock_out_penalty
            own = rules.hand_penalty is HandPenalty.OWN and taken
            melded = [divide_points(x, d) for x in res.table_points]
            hand = [divide_points(x, d) if own else 0 for x in res.hand_points]
            other = [g - m + h for g, m, h in zip(res.round_scores, melded, hand, strict=True)]
            rounds.append((melded, hand, other, list(res.round_scores), list(match.totals), res.went_out))
        else:
            cut = (r + 1, len(rec.rounds[r].actions))

    try:
        rec = load_record(record)
        match, error = replay_match(rec, keep)
    except (RecordError, IllegalAction) as exc:
        raise ReviewError(str(exc)) from None
    if error is not None:
        r, i, message = error
        raise ReviewError(f"round {r + 1} action {i + 1}: {message}")
    winner = match.winner
    winners = [] if winner is None else list(winner) if isinstance(winner, list) else [winner]
    bonus = None if match.bonus_to is None else (match.bonus_to, rec.rules.final_bonus)
    if bonus is not None and bonus[1] and rounds:
        # The final bonus gets a line of its own: the last round's totals are shown without it.
        rounds[-1][4][bonus[0]] -= bonus[1]
    actions = sum(len(spec.actions) for spec in rec.rounds)
    return Scores(
        list(rec.players), rounds, len(rec.rounds), cut, winners, match.side_totals(), bonus, rec.rules.partnership,
        actions, _others(rec.rules), rec.rules.score_divisor, rec.rules.hand_penalty is HandPenalty.TO_GOER,
    )


def unfinished(scores: Scores) -> str | None:
    """Why the record is not a finished game, in one line; None when it is."""
    if scores.played == 0:
        return "the record holds no round"
    if scores.actions == 0:
        return "the record holds no action: the game is not finished (round 1 stops before its first action)"
    if scores.cut is not None:
        r, n = scores.cut
        return f"the game is not finished: round {r} stops after {n} action{'' if n == 1 else 's'}"
    if not scores.winners:
        return f"the game is not finished: nobody has won after round {scores.played}"
    return None


def main(argv: list[str]) -> int:
    """Run the reviewer."""
    parser = _Parser(
        prog="rummy500 review",
        description="Review a finished game: the scores round by round, then each decision's expected points lost.",
    )
    parser.add_argument("file", help="the game record (JSON), or - for standard input")
    parser.add_argument("--seat", type=int, action="append", help="review only this seat (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--budget", type=int, default=DEFAULT_BUDGET.samples, metavar="S",
        help=(
            f"samples: random deals of the cards a player could not see, per batch, 2 to {MAX_SAMPLES} "
            f"(default {DEFAULT_BUDGET.samples}; "
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
    parser.add_argument("--seed", type=seed_arg, default=0, help="seed of the random deals and playouts (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=0, metavar="N",
        help="review in N processes (default 0: one per core; the review is the same for any N)",
    )
    parser.add_argument(
        "--hindsight", action="store_true",
        help=(
            "also play the move played and the best move out from the real cards (the real hands and stock), "
            "the medium bot's way for the same horizon (4 turns by default), and value the position reached by the "
            "same estimate as the verdicts: not the points the moves really scored; kept apart from the verdicts"
        ),
    )
    parser.add_argument(
        "--all", action="store_true",
        help="list every decision (by default: every decision that lost points, close calls marked good included, so the rows add up to the summary)",
    )
    parser.add_argument(
        "--unfinished", action="store_true",
        help="review a record that stops before the game's end, as far as it goes (by default refused)",
    )
    args = parser.parse_args(argv)
    if args.jobs < 0:
        print("rummy500 review: --jobs must be 0 (one per core) or more", file=sys.stderr)
        return 2
    jobs = args.jobs or cores()
    if not 2 <= args.budget <= MAX_SAMPLES:
        _say(
            f"--budget must be 2 to {MAX_SAMPLES} samples per batch (a difference needs two samples to be judged), "
            f"not {args.budget if len(str(args.budget)) <= 20 else 'a number that large'}"
        )
        return 2
    try:
        horizon = parse_horizon(args.horizon)
    except ValueError as exc:
        print(f"rummy500 review: {exc}", file=sys.stderr)
        return 2
    try:
        record = _read(args.file)
    except OSError as exc:  # the same words as `rummy500 replay` (a file over the size limit included)
        _say(f"cannot read {args.file!r}: {exc.strerror or exc}")
        return 2
    except RecordError as exc:  # not UTF-8 or not JSON, too deep, a number out of range, a key given twice
        _say(f"malformed record: {exc}")
        return 2
    except MemoryError:
        _say(f"cannot read {args.file!r}: out of memory")
        return 2
    if not isinstance(record, dict):
        _say("malformed record: a record must be a JSON object")
        return 2
    scores = _attempt(lambda: replay_scores(record))
    if isinstance(scores, str):
        _say(scores)
        return 2
    problem = unfinished(scores)
    if problem is not None and (scores.actions == 0 or not args.unfinished):
        hint = "" if scores.actions == 0 else " (--unfinished reviews it as far as it goes)"
        _say(f"{problem}{hint}")
        return 2
    try:
        from rich.console import Console
        from rich.progress import Progress
    except ModuleNotFoundError:  # pragma: no cover - the cli extra brings rich
        print("rummy500 review: this command needs rich; install with: pip install -e '.[cli]'", file=sys.stderr)
        return 2
    budget = replace(DEFAULT_BUDGET, samples=args.budget, horizon=horizon, leaf=args.leaf)
    err = Console(stderr=True)
    with Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("reviewing", total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        review = _attempt(
            lambda: review_record(record, budget=budget, seed=args.seed, seats=args.seat, hindsight=args.hindsight, progress=tick, jobs=jobs)
        )
    if isinstance(review, str):
        _say(review)
        return 2
    if args.json:
        print(json.dumps(review.to_dict()))
        return 0
    console = Console()
    print_scores(scores, console)
    print_review(review, console, every=args.all)
    return 0


def _attempt(work: Callable[[], T]) -> T | str:
    """``work()``, or the one-line reason a record cannot be reviewed (malformed, illegal, nested too deeply)."""
    try:
        return work()
    except ReviewError as exc:
        return str(exc)
    except RecursionError:
        return "malformed record: nested too deeply"


def _labels(names: list[str]) -> list[str]:
    """The players' names (made printable), with the seat number where a name is used by more than one seat."""
    count = Counter(names)
    return [printable(n) if count[n] == 1 else f"{printable(n)} (seat {s})" for s, n in enumerate(names)]


def print_scores(scores: Scores, console: object) -> None:
    """Print the game's scores round by round, as the record's play scored them.

    Each row adds up in the game's own points: melded minus in hand, plus
    ``other`` (a column shown only when something else went into a round
    score), is the round score; a final bonus has a line of its own.
    """
    from rich.table import Table
    from rich.text import Text

    labels = _labels(scores.players)
    if scores.partnership:
        sides = [f"{labels[s]} & {labels[s + 2]}" for s in (0, 1)]
    else:
        sides = list(labels)
    extra = any(any(other) for _, _, other, _, _, _ in scores.rounds)
    t = Table(title="Scores, round by round", title_justify="left")
    cols = [("round", "right"), ("player", "left"), ("melded", "right"), ("in hand", "right")]
    cols += [("other", "right")] if extra else []
    for col, just in (*cols, ("round score", "right"), ("total", "right")):
        t.add_column(col, justify=just, overflow="fold")  # type: ignore[arg-type]
    bonus = scores.bonus if scores.bonus is not None and scores.bonus[1] and scores.winners else None
    # (A partnership's bonus is its side's, added to its first seat's total.)
    bonus_to = None if bonus is None else sides[bonus[0] % 2 if scores.partnership else bonus[0]]
    for r, (melded, hand, other, got, totals, out) in enumerate(scores.rounds):
        last = r == len(scores.rounds) - 1
        for s, label in enumerate(labels):
            name = Text(label)
            if out == s:
                name.append(" (went out)", style="dim")
            cells: list[Any] = [str(r + 1) if s == 0 else "", name, str(melded[s]), str(hand[s])]
            cells += [f"{other[s]:+d}" if other[s] else ""] if extra else []
            t.add_row(*cells, f"{got[s]:+d}", str(totals[s]), end_section=s == len(labels) - 1 and not (last and bonus))
        if last and bonus is not None:
            seat, points = bonus
            t.add_row("", Text(f"final bonus to {bonus_to}"), "", "", *([""] if extra else []), f"{points:+d}", str(totals[seat] + points), end_section=True)
    if scores.rounds:
        console.print(t)  # type: ignore[attr-defined]
    div = f", divided by {scores.divisor} and rounded as the round score is" if scores.divisor != 1 else ""
    line = Text(
        f"melded: points of the cards the player melded and laid off{div}; "
        "in hand: points of the cards left in the hand at the end, taken off the round score"
        + (" (none are taken off when they count for the player who went out)" if scores.to_goer else "")
        + ". "
    )
    if extra:
        line.append("other: what else went into the round score: " + "; ".join(scores.others) + ". ")
    if scores.cut is not None:
        line.append(f"Round {scores.cut[0]} is unfinished: the record stops after {scores.cut[1]} of its actions. ")
    if scores.winners:
        won = sides[scores.winners[0] % 2] if scores.partnership else labels[scores.winners[0]]
        line.append("Winner: ")
        line.append(won, style="bold")
        line.append("; final totals: " + ", ".join(f"{n} {v}" for n, v in zip(sides, scores.side_totals, strict=True)))
        if bonus is not None:
            seat, points = bonus
            line.append(f" (with the final bonus of {points} to {bonus_to}, the line under the last round")
            line.append(f": it is added to {labels[seat]}'s total)" if scores.partnership else ")")
        line.append(".")
    else:
        line.append("Nobody has won yet.")
    console.print(line)  # type: ignore[attr-defined]


def print_review(review: Review, console: object, *, every: bool = False) -> None:
    """Print a review as rich tables on ``console`` (a :class:`rich.console.Console`).

    Lists each player's decisions that lost points (every decision with ``every``),
    so a player's rows add up to the points lost of the summary.
    """
    from rich.table import Table
    from rich.text import Text

    names = {p.seat: p.name for p in review.players}
    everyone = [names.get(s, "") for s in range(max(names, default=-1) + 1)]
    label = dict(enumerate(_labels(everyone)))
    hind = any(d.hindsight for d in review.decisions)
    listed = False
    for p in review.players:
        rows = [d for d in review.decisions if d.seat == p.seat and (every or d.loss > 0 or d.verdict != "good")]
        t = Table(title=Text(f"{printable(p.name)} (seat {p.seat})"), title_justify="left")
        t.add_column("round", justify="right", no_wrap=True)
        t.add_column("move", justify="right", no_wrap=True)
        t.add_column("played", overflow="fold")
        t.add_column("best", overflow="fold")
        t.add_column("lost", justify="right", no_wrap=True)
        t.add_column("verdict", no_wrap=True, min_width=len("inaccuracy?"))
        if hind:
            t.add_column("hindsight played / best", justify="right")
        for d in rows:
            verdict = Text(f"{d.verdict}{'' if d.sure else '?'}", style=_STYLE[d.verdict])
            cells: list[Any] = [str(d.round + 1), str(d.step), Text(printable(d.played)), Text(_best_text(d)), f"{d.loss:.1f}", verdict]
            if hind:
                cells.append("" if d.hindsight is None else f"{d.hindsight['played']:+.0f} / {d.hindsight['best']:+.0f}")
            t.add_row(*cells)
        if rows:
            console.print(t)  # type: ignore[attr-defined]
            listed = True
        elif p.decisions:
            console.print(Text(f"{label[p.seat]}: no decision lost points."))  # type: ignore[attr-defined]
    if listed:
        console.print(  # type: ignore[attr-defined]
            "move: the action's number in the whole game, every player's action of every round counted from 1, "
            "reshuffles not counted (as the replay viewer counts)."
        )
    if any(d.kept for d in review.decisions):
        console.print(  # type: ignore[attr-defined]
            "keep ... for now: a meld or lay-off was played where throwing a card and laying those cards later did better."
        )
    summary = Table(title="Summary", title_justify="left")
    summary.add_column("player", overflow="fold")
    for col in ("decisions", "accuracy", "points\nlost", "lost per\nround", "inaccuracies /\nmistakes /\nblunders"):
        summary.add_column(col, justify="right", no_wrap=True)
    for p in review.players:
        acc = "-" if p.accuracy is None else f"{p.accuracy:.1f}%"
        v = p.verdicts
        summary.add_row(Text(label[p.seat]), str(p.decisions), acc, f"{p.loss:.1f}", f"{p.loss_per_round:.1f}", f"{v['inaccuracy']} / {v['mistake']} / {v['blunder']}")
    console.print(summary)  # type: ignore[attr-defined]
    th = ", ".join(f"{k} from {v:g}" for k, v in review.thresholds.items())
    b = review.budget
    console.print(  # type: ignore[attr-defined]
        f"lost: the round points a move is expected to cost against the best move found, judged from what its player could see, "
        f"the cards they could not see dealt out at random {min(b.samples * b.settle_after, b.samples * (1 + b.extend))} to "
        f"{b.samples * (1 + b.extend)} times (more where the call is close), {b.candidates} moves compared per decision. "
        f"Verdicts: {th} points lost, each only when the review is confident of it"
        + (" (an unsure one is given on the estimate alone)" if b.estimate_unsure else "")
        + "; a loss marked good is a close call that may be the luck of the deals. "
        + ("The tables list every decision. " if every else "The tables list every decision that lost points (--all lists every decision). ")
        + "A verdict marked ? is unsure: after the most deals the review allows, it is not settled whether the move is "
        + f"{review.thresholds['mistake']:g} or more points worse than the best."
        + (
            " Hindsight: the two moves played out a few turns from the real cards, then valued as for the verdicts;"
            " not what they really scored, and no part of the verdicts."
            if hind
            else ""
        )
    )


def _best_text(d: Decision) -> str:
    """The best move's cell: empty when it is the move played; a lay held back names its cards."""
    if d.best == d.played:
        return ""
    text = printable(d.best)
    return f"{text} (keep {' '.join(d.kept)} for now)" if d.kept else text
