"""``rummy500 play``: a whole game against bots in the terminal.

The table is drawn with ``rich`` (red hearts and diamonds, the hand sorted by
suit or rank, the discard pile with the depth of each card, the melds with
their ids and owners, the scores after every round). Moves are typed in the
record's text notation (``draw``, ``take 3``, ``meld 5H 6H JK=7H``,
``layoff 8H on 4``, ``discard KS``, ``pass``, ``rummy 2``...) or with
shortcuts (``d``, ``t3``, ``x KS``, or the number of a move listed by
``moves``). ``hint`` asks the strongest bot that answers within the hint
budget (``expert``, else ``hard``, else ``medium``; ``--hint-seconds``), ``save FILE`` writes the game
record, ``--load FILE`` resumes one. It reads plain lines from standard input,
so it works as well through a pipe; at the end of the input it saves and quits.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import IO

from rummy500.actions import Action, ActionError, Decline, Draw, Pass, Take, parse_action
from rummy500.bots import BOT_LEVELS, Bot, make_bot
from rummy500.bots.hinting import DEFAULT_HINT_BUDGET, strongest_hint
from rummy500.cards import Card
from rummy500.cli.simulate import rules_from_args
from rummy500.drive import Agent, AgentError, drive
from rummy500.events import Event, LeftRummy
from rummy500.match import Match
from rummy500.record import RecordError, match_from_record
from rummy500.rules import RulesError
from rummy500.state import Decision, IllegalAction
from rummy500.views import View

__all__ = ["Game", "main"]

DEFAULT_SAVE = "rummy500-save.json"
HELP = """\
Moves (the record notation):
  draw                 take the top card of the stock            (shortcut: d)
  take N               take the top N cards of the discard pile  (shortcut: tN, e.g. t3)
  meld 5H 6H JK=7H     lay down a meld (say what a joker stands for)
  layoff 8H on 4       lay cards off on meld 4
  discard KS           discard, ending your turn                  (shortcut: x KS)
  pass                 decline to draw when the stock is empty    (shortcut: p)
  rummy N              call Rummy on the N-th card of the pile
  float, swap 7H on 2, nominate wild|double|split, block   (house rules)
Commands:
  moves      list your legal moves, numbered; then type a number to play one
  hint       what the strongest bot that answers in time would do, and why
  sort       sort your hand by suit or by rank
  table      show the table again
  save FILE  save the game record       quit  save and stop
  help       this text
When you may call out of turn, press Enter (or type 'no') to let it pass."""

_SUIT_SYMBOL = {0: "\u2663", 1: "\u2666", 2: "\u2665", 3: "\u2660"}


def _card_markup(c: Card) -> str:
    text = str(c)
    if c.is_joker:
        return f"[bold magenta]{text}[/]"
    colour = "red" if c.suit in (1, 2) else "default"
    return f"[bold {colour}]{text}[/]"


class _Quit(Exception):
    """The human typed 'quit' (or the input ended)."""


class _Human:
    """The terminal's agent: reads the human's moves (out of turn, Enter declines)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.shown: tuple[int, int] | None = None

    def act(self, view: View, rng: random.Random) -> Action | None:
        g = self.game
        out_of_turn = view.seat != view.to_move
        if not out_of_turn:
            here = (g.match.round_index, len(g.match.rounds[-1].actions))
            if self.shown != here:
                g.show()
                self.shown = here
        act = g._ask_human(out_of_turn=out_of_turn)
        if act == "quit":
            raise _Quit
        assert not isinstance(act, str)
        return Decline() if act is None else act


class Game:
    """A terminal game: one human seat against bots, over a :class:`~rummy500.match.Match`.

    Args:
        match: the match (new or loaded).
        human: the human's seat.
        bots: a bot per other seat.
        inp: where moves are read from.
        out: where the table is written (a ``rich`` console is built on it).
        seed: seeds the bots' decisions.
        save_path: where ``quit`` and the end of input save the game.
        hint_seconds: the time budget of a ``hint`` (see
            :func:`rummy500.bots.hinting.strongest_hint`).
    """

    def __init__(
        self,
        match: Match,
        human: int,
        bots: dict[int, Bot],
        *,
        inp: IO[str] | None = None,
        out: IO[str] | None = None,
        seed: int | None = None,
        save_path: str | None = None,
        hint_seconds: float = DEFAULT_HINT_BUDGET,
    ) -> None:
        from rich.console import Console

        self.match = match
        self.human = human
        self.bots = bots
        self.inp = inp if inp is not None else sys.stdin
        self.console = Console(file=out if out is not None else sys.stdout, highlight=False, soft_wrap=True)
        self.rng = random.Random(seed)
        self.save_path = save_path
        self.by_rank = False
        self._rounds_shown = len([r for r in match.rounds if r.round_scores is not None])
        self.hint_seconds = hint_seconds

    # ------------------------------------------------------------------ loop
    def run(self) -> int:
        """Play until the game ends or the input does; returns the exit status."""
        m = self.match
        self.console.print(f"[bold]Rummy 500[/] - {m.rules.preset} rules, {m.rules.players} players, target {m.rules.target}. Type 'help' for help.")
        agents: dict[int, Agent] = {**self.bots, self.human: _Human(self)}
        try:
            drive(m, agents, self.rng, observe=self._observe)
        except _Quit:
            return self._quit()
        except AgentError as exc:
            self.console.print(f"[red]{self.name(exc.seat)} could not move[/]")
            return 1
        self._report_rounds()
        self._announce_winner()
        if self.save_path:
            self.save(self.save_path)
        return 0

    def _observe(self, decision: Decision, action: Action, events: list[Event]) -> None:
        seat = decision.seat
        if seat is not None and seat != self.human and not isinstance(action, Decline):
            self.console.print(f"  {self.name(seat)}: [cyan]{action}[/]")
        for event in events:
            if isinstance(event, LeftRummy):  # rummy_after_going_out
                back = " ".join(str(c) for c in event.cards) or "nothing (floats with no card)"
                self.console.print(
                    f"  [yellow]Rummy![/] {self.name(event.seat)} left the {event.card} playable in the pile:"
                    f" not out, takes back {back}"
                )
        self._report_rounds()

    # ------------------------------------------------------------------ input
    def _readline(self, prompt: str) -> str | None:
        self.console.print(prompt, end="")
        self.console.file.flush()
        line = self.inp.readline()
        if not line:
            self.console.print()
            return None
        if not _isatty(self.inp):
            self.console.print(line.rstrip("\n"))
        return line.strip()

    def _ask_human(self, *, out_of_turn: bool) -> Action | str | None:
        """Read lines until a legal move (or, out of turn, a pass); 'quit' at the end of input."""
        m = self.match
        if out_of_turn:
            view = m.view(self.human)
            calls = ", ".join(str(a) for a in view.legal if not isinstance(a, Decline))
            self.console.print(f"[yellow]You may play out of turn:[/] {calls}  (Enter to let it pass)")
        while True:
            view = m.view(self.human)
            prompt = "[bold green]call?>[/] " if out_of_turn else "[bold green]your move>[/] "
            line = self._readline(prompt)
            if line is None:
                return "quit"
            if not line:
                if out_of_turn:
                    return None
                continue
            word = line.split()[0].lower()
            rest = line[len(word) :].strip()
            if out_of_turn and word in ("no", "n", "pass-call"):
                return None
            match word:
                case "help" | "?" | "h":
                    self.console.print(HELP)
                    continue
                case "moves" | "m" | "legal":
                    self._list_moves(view)
                    continue
                case "hint":
                    self._hint(view)
                    continue
                case "sort":
                    self.by_rank = not self.by_rank
                    self.console.print(f"Hand sorted by {'rank' if self.by_rank else 'suit'}.")
                    self._show_hand(view)
                    continue
                case "table" | "show" | "look":
                    self.show()
                    continue
                case "save":
                    self.save(rest or self.save_path or DEFAULT_SAVE)
                    continue
                case "quit" | "exit" | "q":
                    return "quit"
            try:
                action = self.parse(line, view)
            except (ActionError, ValueError) as exc:
                self.console.print(f"[red]{exc}[/]  (type 'help' or 'moves')")
                continue
            if action not in view.legal:
                state = m.state
                assert state is not None
                self.console.print(f"[red]Not allowed: {state.explain(action, self.human)}[/]")
                continue
            return action

    def parse(self, line: str, view: View) -> Action:
        """A typed move: a move number, a shortcut or the record's text notation.

        Raises:
            ActionError: not a move.
        """
        text = line.strip()
        low = text.lower()
        if text.isdigit():
            k = int(text)
            legal = self._numbered(view)
            if not 1 <= k <= len(legal):
                raise ActionError(f"there is no move {k}: type 'moves' to list them (1..{len(legal)})")
            return legal[k - 1]
        if low in ("d", "draw", "s", "stock"):
            return Draw()
        if low in ("p", "pass"):
            return Pass()
        if low[0] == "t" and low[1:].strip().isdigit():
            return Take(int(low[1:].strip()))
        if low.startswith("x ") or low.startswith("x\t"):
            return parse_action("discard " + text[2:])
        return parse_action(text)

    def _numbered(self, view: View) -> list[Action]:
        return list(view.legal)

    def _list_moves(self, view: View) -> None:
        legal = self._numbered(view)
        if not legal:
            self.console.print("You have no moves now.")
            return
        for i, a in enumerate(legal, 1):
            self.console.print(f"  [bold]{i:>3}[/]  {a}")

    def _hint(self, view: View) -> None:
        hint = strongest_hint(view, self.rng.getrandbits(64), self.hint_seconds)
        act = hint.action
        if act is None or isinstance(act, Decline):
            self.console.print(f"hint ({hint.level} bot): let it pass")
            return
        self.console.print(f"hint ({hint.level} bot): [cyan]{act}[/] - {hint.reason or 'the search likes it best'}")

    # ------------------------------------------------------------------ display
    def name(self, seat: int) -> str:
        """A seat's player name."""
        return self.match.players[seat]

    def cards(self, cards: list[Card] | tuple[Card, ...]) -> str:
        """Cards as coloured markup."""
        return " ".join(_card_markup(c) for c in cards) if cards else "-"

    def sorted_hand(self, hand: tuple[Card, ...]) -> list[Card]:
        """The hand sorted by suit then rank, or by rank then suit."""
        if self.by_rank:
            return sorted(hand, key=lambda c: (c.is_joker, c.rank, c.suit))
        return sorted(hand, key=lambda c: (c.is_joker, c.suit, c.rank))

    def show(self) -> None:
        """Draw the table as the human sees it."""
        m = self.match
        view = m.view(self.human)
        c = self.console
        c.rule(f"Round {m.round_index + 1} - {self.name(view.to_move)} to play ({view.phase})")
        for s in range(view.players):
            if s == self.human:
                continue
            known = view.known[s]
            extra = f", seen taking {self.cards(known)}" if known else ""
            c.print(f"  {self.name(s)}: {view.hand_sizes[s]} cards{extra}")
        c.print(f"  Stock: {view.stock_count} cards")
        pile = list(view.discard)
        if pile:
            top_first = list(reversed(pile))
            parts = [f"[dim]{i}:[/]{_card_markup(card)}" for i, card in enumerate(top_first, 1)]
            c.print("  Pile (top first, depth:card): " + " ".join(parts))
        else:
            c.print("  Pile: empty")
        if view.melds:
            c.print("  Melds:")
            for meld in view.melds:
                owners = sorted({self.name(s) for s in meld.laid_by})
                by = self.name(meld.owner)
                others = [o for o in owners if o != by]
                more = f" (lay-offs by {', '.join(others)})" if others else ""
                flags = " [dim]sealed[/]" if meld.sealed else ""
                c.print(f"    [bold]#{meld.id}[/] {by}: {self.cards(meld.cards)}{more}{flags}")
        if view.gambit:
            c.print(f"  Jokers this hand: {view.gambit}; dealer's joker: {view.dealer_joker}")
        if view.obligation is not None:
            c.print(f"  [yellow]You must use the {_card_markup(view.obligation)} this turn.[/]")
        self._show_hand(view)

    def _show_hand(self, view: View) -> None:
        hand = self.sorted_hand(view.hand)
        self.console.print(f"  [bold]Your hand[/] ({len(hand)}): {self.cards(hand)}")

    def _report_rounds(self) -> None:
        m = self.match
        done = [r for r in m.rounds if r.round_scores is not None]
        while self._rounds_shown < len(done):
            log = done[self._rounds_shown]
            self._rounds_shown += 1
            self._score_table(self._rounds_shown, log.round_scores or [], log.went_out)

    def _score_table(self, number: int, scores: list[int], went_out: int | None) -> None:
        from rich.table import Table

        m = self.match
        totals = _totals_after(m, number)
        table = Table(title=f"Round {number} over" + (f" - {self.name(went_out)} went out" if went_out is not None else ""))
        table.add_column("player")
        table.add_column("round", justify="right")
        table.add_column("total", justify="right")
        for s in range(m.rules.players):
            table.add_row(self.name(s), f"{scores[s]:+d}" if s < len(scores) else "", str(totals[s]))
        self.console.print(table)

    def _announce_winner(self) -> None:
        m = self.match
        w = m.winner
        seats = w if isinstance(w, list) else [w] if w is not None else []
        names = " and ".join(self.name(s) for s in seats)
        you = self.human in seats
        self.console.print(f"[bold]Game over.[/] Winner: {names}{' - well played!' if you else ''}  Totals: {m.totals}")

    # ------------------------------------------------------------------ files
    def save(self, path: str) -> None:
        """Write the game record to ``path``."""
        Path(path).write_text(json.dumps(self.match.record(), indent=1) + "\n")
        self.console.print(f"Saved the game to {path}.")

    def _quit(self) -> int:
        self.save(self.save_path or DEFAULT_SAVE)
        self.console.print("Bye - load it again with: rummy500 play --load FILE")
        return 0


def _totals_after(m: Match, rounds: int) -> list[int]:
    totals = list(m.initial_scores)
    done = [r for r in m.rounds if r.round_scores is not None]
    for log in done[:rounds]:
        for i, s in enumerate(log.round_scores or []):
            totals[i] += s
    if rounds >= len(done):
        return list(m.totals)  # includes a final bonus, if any
    return totals


def _isatty(f: IO[str]) -> bool:
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False


def _levels(text: str) -> list[str]:
    levels = [x.strip().lower() for x in text.split(",") if x.strip()]
    bad = [x for x in levels if x not in BOT_LEVELS]
    if bad or not levels:
        raise ValueError(f"unknown bot level(s) {', '.join(bad) or '(none)'} (levels: {', '.join(BOT_LEVELS)})")
    return levels


def build(args: argparse.Namespace, *, inp: IO[str] | None = None, out: IO[str] | None = None) -> Game:
    """The game ``args`` describe (new or loaded).

    Raises:
        ValueError: bad options, rules or record.
    """
    levels = _levels(args.opponents)
    seed = args.seed
    if args.load:
        try:
            record = json.loads(Path(args.load).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read {args.load}: {exc}") from None
        try:
            match = match_from_record(record)
        except (RecordError, IllegalAction) as exc:
            raise ValueError(f"cannot resume {args.load}: {exc}") from None
        match.rng = random.Random(seed)
        match.continue_play()
        names = match.players
        human = names.index(args.name) if args.name in names else 0
    else:
        rules = rules_from_args(args.preset, args.rules, default_players=max(2, min(8, 1 + len(levels))))
        n = rules.players
        human = 0
        names = [args.name]
        for s in range(1, n):
            names.append(f"{levels[(s - 1) % len(levels)].capitalize()} bot {s}")
        match = Match(rules, names, seed=seed)
    bot_rng = random.Random(seed)
    bots: dict[int, Bot] = {}
    k = 0
    for s in range(match.rules.players):
        if s == human:
            continue
        level = _level_of(match.players[s]) or levels[k % len(levels)]
        bots[s] = make_bot(level, bot_rng.getrandbits(32))
        k += 1
    return Game(match, human, bots, inp=inp, out=out, seed=seed, save_path=args.save, hint_seconds=args.hint_seconds)


def _level_of(name: str) -> str | None:
    first = name.split()[0].lower() if name.split() else ""
    return first if first in BOT_LEVELS and " bot" in name.lower() else None


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``rummy500 play``."""
    p = argparse.ArgumentParser(prog="rummy500 play", description="Play Rummy 500 against bots in the terminal.")
    p.add_argument("--preset", default=None, help="a rules preset (default standard)")
    p.add_argument("--rules", default=None, help="rule options as a JSON object")
    p.add_argument("--opponents", default="medium", help=f"comma-separated bot levels ({', '.join(BOT_LEVELS)}); one seat each")
    p.add_argument("--name", default="You", help="your name")
    p.add_argument("--seed", type=int, default=None, help="seed the deal and the bots")
    p.add_argument("--load", metavar="FILE", default=None, help="resume a saved game record")
    p.add_argument("--save", metavar="FILE", default=None, help=f"save here on quit, at the end of input and at the end (default {DEFAULT_SAVE} on quit)")
    p.add_argument("--hint-seconds", type=float, default=DEFAULT_HINT_BUDGET, help=f"time a hint may think: the strongest bot that answers within it is asked (default {DEFAULT_HINT_BUDGET})")
    return p


def main(argv: list[str], *, inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """Run ``rummy500 play``."""
    args = parser().parse_args(argv)
    try:
        game = build(args, inp=inp, out=out)
    except (ValueError, RulesError) as exc:
        print(f"rummy500 play: {exc}", file=sys.stderr)
        return 2
    try:
        return game.run()
    except KeyboardInterrupt:
        return game._quit()

