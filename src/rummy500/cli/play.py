r"""``rummy500 play``: a whole game against bots in the terminal.

The table is drawn with ``rich`` (red hearts and diamonds, the hand sorted by
suit or rank, the discard pile with the depth of each card, the melds with
their ids and owners, the dealer, the partners of a partnership game). Moves
are typed in the record's text notation (``draw``, ``take 3``, ``meld 5H 6H
JK=7H``, ``layoff 8H on 4``, ``discard KS``, ``pass``, ``rummy 2``...) or with
shortcuts (``d``, ``t3``, ``x KS``, or the number of a move listed by
``moves``). ``hint`` asks the strongest bot that answers within the hint
budget (``expert``, else ``hard``, else ``medium``; ``--hint-seconds``). The
table shows the running totals (``scores`` prints the score sheet so far) and
says which card(s) you drew from the stock. At the end of each round every
hand left is shown with each seat's table points, hand points and round score,
and why the round ended (stacked, one player after another, on a terminal
under 60 columns).

``save FILE`` writes the game record, ``--load FILE`` resumes one. ``quit``
(and Ctrl-C, or the end of the input) and the end of the game save it: to
``--save FILE``, else to the file it was loaded from, else to
``rummy500-save.json`` in the current folder, or ``rummy500-save-2.json``...
when that file already exists (another game is never overwritten). A finished
game's last line names its file and the commands that replay and review it. A
save that fails says why and asks for another file (Enter: back to the game;
the end of the input or ``quit`` stops unsaved, exit status 1). It reads plain
lines from standard input, so it works as well through a pipe.

Everything a player or a record supplies (names, typed text, error messages)
is made printable (control characters written as ``\x1b``, ``\n``...) and
escaped before it reaches ``rich``'s markup.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import random
import re
import shlex
import sys
import tempfile
from dataclasses import dataclass
from typing import IO, Any

from rummy500.actions import (
    Action,
    ActionError,
    CallRummy,
    Decline,
    Draw,
    Float,
    Pass,
    Swap,
    Take,
    _whole,
    listed_form,
    parse_action,
)
from rummy500.bots import BOT_LEVELS, Bot, make_bot
from rummy500.bots.hinting import DEFAULT_HINT_BUDGET, strongest_hint
from rummy500.cards import Card
from rummy500.cli._input import read_record_bytes
from rummy500.cli.args import seed as seed_arg
from rummy500.cli.replay_cmd import printable
from rummy500.cli.simulate import rules_from_args
from rummy500.drive import Agent, AgentError, drive
from rummy500.events import CalledRummy, Drew, Event, LeftRummy, Passed, Reshuffled, RoundOver, Took
from rummy500.explain import _opening_discard_turn
from rummy500.match import Match
from rummy500.record import RecordError, load_record, parse_record_json, replay_match
from rummy500.rules import PRESETS, CallingRummy, GoingOut, HandPenalty, Rules, RulesError
from rummy500.state import Decision, IllegalAction, Phase, RoundState
from rummy500.views import View

__all__ = ["Game", "describe_rules", "main"]

DEFAULT_SAVE = "rummy500-save.json"
#: the bot level of every other seat when ``--opponents`` is not given
DEFAULT_OPPONENTS = "medium"
HELP = """\
Moves (the record notation):
  draw                 take the top card of the stock            (shortcut: d)
  take N               take the top N cards of the discard pile  (shortcut: tN, e.g. t3)
  meld 5H 6H JK=7H     lay down a meld (say what a joker stands for)
  layoff 8H on 4       lay cards off on meld 4
  discard KS           discard, ending your turn                  (shortcut: x KS)
  pass                 decline to draw when the stock is empty    (shortcut: p)
  rummy N              call Rummy on the N-th card of the pile (take the pile down to it; a steal: below)
House rules' moves (where the game plays them; 'help' in such a game says more):
  rummy N on ID        (calling_rummy: steal) steal the N-th card of the pile: lay it off on meld ID
  rummy N meld CARDS   (calling_rummy: steal) steal it and meld it with pile cards (rummy 5 meld TS JS QS)
  float                (going_out: floating) every card melded: end your turn with none, go out later
                       by a discard
  swap 7H on 2         (joker_swap) give the 7H for the joker standing for it on meld 2
  nominate wild|double|split, block, take N split   (Dealer's Gambit)
Commands:
  moves      list your legal moves, numbered; then type a number to play one
  hint       what the strongest bot that answers in time would do, and why
  sort       switch the hand between by suit and by rank (sort suit, sort rank: that order)
  table      show the table again
  scores     the score sheet so far: each round's scores and the totals  (also: score)
  save FILE  save the game record (save alone: where quit saves; ~ is your home folder)
  quit       save and stop (the goodbye line says how to resume)
  help       this text
Melds are numbered as the table shows them: 'layoff 8H on 0' and 'layoff 8H on #0' are the same.
When you may call out of turn, press Enter (or type 'no') to let it pass."""

GAMBIT_HELP = """\
Dealer's Gambit (this game): the dealer's joker lies face up beside the dealer and,
while it is free, counts as a joker the dealer holds. Each hand the dealer first says
what jokers do:
  nominate wild     jokers are wild and worth 0
  nominate double   jokers are not wild; a bare JK put on a set as it is melded
                    (meld 5H 5S 5C JK) doubles the set's value and seals it
  nominate split    jokers are not wild; take N split (N >= 2) spends a joker: only the
                    N-th card comes to hand (use it this turn) and the N-1 cards above it
                    leave play for the hand
  block             in your turn, lay a joker on the dealer's joker: both leave play"""

STEAL_HELP = """\
Calling Rummy by stealing (this game: calling_rummy: steal): a card in the pile that fits
the table may be claimed alone, out of turn or before your draw; it is laid at once, the
rest of the pile stays, and play goes on as before. Say where the card goes:
  rummy N on ID        lay the N-th card of the pile off on meld ID          (rummy 5 on 2)
  rummy N meld CARDS   meld it at once with other pile cards, naming them all (rummy 5 meld TS JS QS)
A plain 'rummy N' is not enough in this game. The offer lists the steals you may make."""

FLOAT_HELP = """\
Floating (this game: going_out: {mode}): when you have melded or laid off every card, type
  float                end your turn with no cards in hand (you are floating)
You have not gone out yet: at a later turn you draw (or take from the pile) and go out by
discarding your last card{unplayable}."""

_GAMBIT_MODES = {
    "wild": "jokers are wild and worth 0",
    "double": "jokers are not wild; a joker put on a set as it is melded doubles it and seals it",
    "split": "jokers are not wild; 'take N split' spends a joker to take only the N-th card (the cards above it leave play)",
}

_SUIT_SYMBOL = {0: "\u2663", 1: "\u2666", 2: "\u2665", 3: "\u2660"}
_SEAT_WORD = re.compile(r"\bseat (\d+)\b")
_MELD_REF = re.compile(r"(\bon\s+)#\s*([0-9]+)", re.IGNORECASE)
#: the most digits a typed number may have (no move, pile depth or meld number comes near it)
MAX_DIGITS = 20
#: a bot's reason in the first person, said to the player: "a stolen card scores for me" -> "for you"
_FIRST_PERSON = re.compile(r"\b(I am|I'm|I was|I|me|my|mine|myself|Me|My|Mine)\b")
_SECOND_PERSON = {
    "I am": "you are",
    "I'm": "you're",
    "I was": "you were",
    "I": "you",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "Me": "You",
    "My": "Your",
    "Mine": "Yours",
}
#: below this many columns the turn header, the end of a round and the score sheet are stacked
NARROW = 60


def esc(text: object) -> str:
    r"""``text`` made safe to print through ``rich`` markup.

    Control characters (ESC, CR, LF...) are written out as ``\x1b``, ``\n``
    (:func:`~rummy500.cli.replay_cmd.printable`) and ``[`` is shown, never
    read as a tag.
    """
    from rich.markup import escape

    return escape(printable(text))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def second_person(text: str) -> str:
    """A bot's reason in the first person said to the player: me -> you, my -> your, I -> you.

    >>> second_person("a stolen card scores for me, and I still draw")
    'a stolen card scores for you, and you still draw'
    >>> second_person("I held this hand before; my joker is not wild")
    'You held this hand before; your joker is not wild'
    """
    out = _FIRST_PERSON.sub(lambda m: _SECOND_PERSON[m.group(1)], text)
    if text.startswith(("I ", "I'", "Me ", "My ")):
        out = out[:1].upper() + out[1:]
    return out


def check_numbers(text: str) -> None:
    """Refuse a typed number that no move could hold: digits other than 0-9 (``²``, ``٩``), or far too many.

    Raises:
        ActionError: said in one line (never Python's own words on ``int()``).
    """
    bad = next((ch for ch in text if ch.isnumeric() and not ch.isascii()), None)
    if bad is not None:
        raise ActionError(f"{bad!r} is not one of the digits 0-9: moves, pile depths and melds are numbered with 0-9")
    longest = max((len(run) for run in re.findall(r"[0-9]+", text)), default=0)
    if longest > MAX_DIGITS:
        raise ActionError(f"a number of {longest} digits is far too large: no move, pile depth or meld number comes near it")


def _card_markup(c: Card) -> str:
    text = str(c)
    if c.is_joker:
        return f"[bold magenta]{text}[/]"
    colour = "red" if c.suit in (1, 2) else "default"
    return f"[bold {colour}]{text}[/]"


def _option_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def describe_rules(rules: Rules) -> str:
    """The rules in a few words: the nearest preset and the options that differ from it.

    A record keeps the options, not the preset's name, so the preset is found
    again by comparing the options (``persian rules``, ``standard rules with
    calling_rummy: pile, target: 300``).
    """
    mine = rules.to_mapping(full=True)
    order = [rules.preset] + [p for p in PRESETS if p != rules.preset]
    best: tuple[int, str, dict[str, Any]] | None = None
    for name in order:
        try:
            base = Rules.preset_rules(name, players=rules.players).to_mapping(full=True)
        except RulesError:
            continue
        diff = {k: v for k, v in mine.items() if k != "players" and base.get(k) != v}
        if best is None or len(diff) < best[0]:
            best = (len(diff), name, diff)
    assert best is not None  # the standard preset fits any number of players
    _, name, diff = best
    text = f"{name} rules"
    if diff:
        text += " with " + ", ".join(f"{k}: {_option_text(v)}" for k, v in diff.items())
    return text


def _goal(rules: Rules) -> str:
    fixed = rules.fixed_rounds
    if fixed is not None:
        goal = _plural(fixed, "round")
    else:
        goal = f"target {rules.target}" + (" (only by going out)" if rules.must_go_out_to_win else "")
    if rules.final_bonus:
        goal += f", final bonus {rules.final_bonus:+d} to the best total"
    return goal


class _Quit(Exception):
    """The human typed 'quit' (or the input ended)."""


class _SafeBot:
    """A computer seat that never ends the game: a bot that fails or answers an illegal move plays a random legal one.

    As the server does (``server.bots.settle_choice``): the failure is said in one
    line (its kind only: a bot's error text might name its cards) and play goes on.
    """

    def __init__(self, game: Game, seat: int, bot: Agent) -> None:
        self.game, self.seat, self.bot = game, seat, bot

    def act(self, view: View, rng: random.Random) -> Action | None:
        legal = list(view.legal)
        out_of_turn = view.seat != view.to_move
        try:
            choice = self.bot.act(view, rng)
        except Exception as exc:  # noqa: BLE001 (any bug of a bot: the game must go on)
            problem = f"failed ({type(exc).__name__})"
        else:
            if choice is None and out_of_turn:
                return None
            if choice is not None and choice in legal:
                return choice
            problem = "made no move" if choice is None else "chose a move that is not allowed"
        fallback = None if out_of_turn else rng.choice(legal)
        what = "lets the offer pass" if fallback is None else f"plays {fallback} instead, chosen at random"
        self.game.console.print(f"[red]{self.game.name(self.seat)}'s bot {problem}; it {what}.[/]")
        return fallback


class _Human:
    """The terminal's agent: reads the human's moves (out of turn, Enter declines)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.shown: tuple[int, int, bool] | None = None
        self.last_offer: tuple[object, ...] | None = None

    def act(self, view: View, rng: random.Random) -> Action | None:
        g = self.game
        out_of_turn = view.seat != view.to_move
        here = (g.match.round_index, len(g.match.rounds[-1].actions), out_of_turn)
        again = False
        if out_of_turn:
            # The engine offers again after every change of position (a decline lasts until then):
            # the same plays offered again in the same turn are said in one line, without a redraw.
            plays = tuple(a for a in view.legal if not isinstance(a, Decline))
            offer = (g.match.round_index, view.turns, view.to_move, plays)
            again = offer == self.last_offer
            self.last_offer = offer
        if self.shown != here and not again:  # the table as it is now, before the question (a turn or an offer)
            g.show()
        self.shown = here
        act = g._ask_human(out_of_turn=out_of_turn, again=again)
        if act == "quit":
            raise _Quit
        assert not isinstance(act, str)
        return Decline() if act is None else act


@dataclass
class _Ended:
    """What the end-of-round report needs of a finished round."""

    state: RoundState | None
    went_out: int | None
    scores: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    passed: int | None = None


class Game:
    """A terminal game: one human seat against bots, over a :class:`~rummy500.match.Match`.

    Args:
        match: the match (new or loaded).
        human: the human's seat.
        bots: a bot per other seat.
        inp: where moves are read from.
        out: where the table is written (a ``rich`` console is built on it).
        seed: seeds the bots' decisions.
        save_path: where ``quit``, the end of input and the end of the game
            save it (``--save``, else the file a resumed game was loaded from);
            None: they save to a fresh ``rummy500-save*.json`` in the current folder.
        hint_seconds: the time budget of a ``hint`` (see
            :func:`rummy500.bots.hinting.strongest_hint`).
        resumed: the match was loaded from a record (the banner says so).
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
        resumed: bool = False,
    ) -> None:
        from rich.console import Console

        self.match = match
        self.human = human
        self.bots = bots
        self.inp = inp if inp is not None else sys.stdin
        # No emoji codes (":smile:" in a name stays text), no highlighting; markup only in our own text.
        self.console = Console(file=out if out is not None else sys.stdout, highlight=False, soft_wrap=True, emoji=False)
        self.rng = random.Random(seed)
        self.save_path = save_path
        self.by_rank = False
        self._rounds_shown = len([r for r in match.rounds if r.round_scores is not None])
        self.hint_seconds = hint_seconds
        self.resumed = resumed
        self._auto_path: str | None = None
        #: the decision the numbered list was last shown for (see :meth:`_decision`), and that list
        self._listed: tuple[tuple[object, ...], list[Action]] | None = None
        self._written: set[str] = set()
        self._state: RoundState | None = match.state
        #: whose turn it was and the pile, before the move observed next (a Rummy call skips turns, claims a card)
        self._before: tuple[int, tuple[Card, ...]] | None = None
        self._remember()

    # ------------------------------------------------------------------ loop
    def run(self) -> int:
        """Play until the game ends or the input does; returns the exit status."""
        m = self.match
        rules = m.rules
        how = "Resuming a game" if self.resumed else "Rummy 500"
        self.console.print(
            f"[bold]{how}[/] - {esc(describe_rules(rules))}, {rules.players} players, {esc(_goal(rules))}. Type 'help' for help."
        )
        if rules.partnership:
            mine = rules.side_of(self.human)
            partner = next(s for s in range(rules.players) if s != self.human and rules.side_of(s) == mine)
            us, them = "AB"[mine], "AB"[1 - mine]
            self.console.print(
                f"Partnerships: side {us} ({self.side_name(mine)}) against side {them} ({self.side_name(1 - mine)});"
                f" your partner is {self.name(partner)}. The game is decided on side totals."
            )
        if rules.dealers_gambit:
            self.console.print(
                "Dealer's Gambit: each hand the dealer says what jokers do ('help' explains wild, double and split)."
            )
        agents: dict[int, Agent] = {seat: _SafeBot(self, seat, bot) for seat, bot in self.bots.items()}
        agents[self.human] = _Human(self)
        while True:
            try:
                drive(m, agents, self.rng, observe=self._observe)
                break
            except (_Quit, KeyboardInterrupt) as exc:
                if isinstance(exc, KeyboardInterrupt):
                    self.console.print()
                code = self._quit()
                if code is not None:
                    return code
                # The save failed and the player chose to go on: the same decision is asked again.
            except AgentError as exc:
                self.console.print(f"[red]{self.name(exc.seat)} could not move[/]")
                return 1
        self._report_rounds()
        self._announce_winner()
        return self._save_finished()

    def _save_finished(self) -> int:
        """Save the finished game (``--save``, the loaded file, else a fresh ``rummy500-save*.json``) and say where.

        Returns:
            The exit status: 0 once saved, 1 when no file could be written.
        """
        target = self._save_target()  # a file 'save' alone wrote is kept up to date
        path = target if self.save(target, say=False) else self._save_elsewhere(finished=True)
        if not path:
            self.console.print("[red]The finished game could not be saved.[/]")
            return 1
        q = shlex.quote(path)
        self.console.print(
            f"Game saved to {esc(path)} \u2014 replay: {esc(f'rummy500 replay {q}')}, review: {esc(f'rummy500 review {q}')}"
        )
        return 0

    def _remember(self) -> None:
        """Note whose turn it is and the pile, for the next move observed."""
        state = self.match.state
        self._before = None if state is None else (state.public.to_move, tuple(state.public.discard))

    def _observe(self, decision: Decision, action: Action, events: list[Event]) -> None:
        seat = decision.seat
        before = self._before
        if seat is not None and seat != self.human and not isinstance(action, Decline):
            said = ""
            for event in events:
                if isinstance(event, CalledRummy) and before is not None:
                    said = self._call_words(event, before[1])
            self.console.print(f"  {self.name(seat)}: [cyan]{esc(action)}[/]{said}")
        passed: int | None = None
        for event in events:
            if isinstance(event, Drew) and event.seat == self.human and event.cards:
                # Only the human's own draw: which cards another seat drew is hidden.
                self.console.print(f"  You drew {self.cards(event.cards)}")
            elif isinstance(event, CalledRummy) and before is not None:
                skipped = self._skipped_words(event, before[0])
                if skipped:
                    self.console.print(f"    {skipped}")
            elif isinstance(event, Took) and event.removed:  # Dealer's Gambit split
                self.console.print(
                    f"    The split spends a joker: only the {self.cards(event.cards)} comes to hand;"
                    f" {self.cards(tuple(reversed(event.removed)))} {_leave_play(len(event.removed))}"
                )
            elif isinstance(event, Reshuffled):  # stock_out: reshuffle
                self.console.print(
                    f"  [yellow]The stock is empty:[/] the discard pile but its top card ({_plural(event.count, 'card')})"
                    " is shuffled into a new stock."
                )
            elif isinstance(event, LeftRummy):  # rummy_after_going_out
                back = " ".join(str(c) for c in event.cards) or "nothing (floats with no card)"
                takes = self._verb(event.seat, "takes", "take")
                self.console.print(
                    f"  [yellow]Rummy![/] {self.name(event.seat)} left the {event.card} playable in the pile:"
                    f" not out, {takes} back {back}"
                )
            elif isinstance(event, Passed):
                passed = event.seat
            elif isinstance(event, RoundOver):
                ended = _Ended(self._state, event.went_out, event.round_scores, event.hands, passed)
                self._report_rounds(ended)
        self._state = self.match.state
        self._remember()
        self._report_rounds()

    def _call_words(self, event: CalledRummy, pile: tuple[Card, ...]) -> str:
        """Another player's Rummy call in words: the card claimed, what it took or where the card went (markup)."""
        k = event.depth
        if not 1 <= k <= len(pile):
            return ""
        card = pile[-k]
        where = f"{_card_markup(card)} ({_ordinal(k)} from the top)"
        if event.on is not None:
            return f" - Rummy! steals the {where} and lays it off at once on meld #{event.on}"
        if event.meld is not None:
            others = list(event.cards)
            with contextlib.suppress(ValueError):
                others.remove(card)
            return f" - Rummy! steals the {where} and melds it at once with {self.cards(others)} from the pile (meld #{event.meld})"
        taken = tuple(reversed(event.cards))  # top first, as the pile is shown
        return f" - Rummy! on the {where}: takes {_plural(len(taken), 'card')} ({self.cards(taken)}) and must use the {_card_markup(card)}"

    def _skipped_words(self, event: CalledRummy, to_move: int) -> str:
        """Who loses a turn to a Rummy call that takes the pile (the caller plays now), in words; empty if nobody."""
        rules = self.match.rules
        if event.on is not None or event.meld is not None or event.seat == to_move:
            return ""  # a steal: play goes on as before; the player about to draw: nobody is skipped
        state = self.match.state
        assert state is not None  # (the call was just made in it)
        skipped: list[int] = []
        s = to_move
        while s != event.seat and len(skipped) < rules.players:
            skipped.append(s)
            s = state.next_seat(s)
        if not skipped or len(skipped) >= rules.players:
            return ""
        you = self.human in skipped
        names = ["you"] if you else []
        names += [self.name(x) for x in skipped if x != self.human]
        if len(names) == 1:
            lose = "lose your turn" if you else "loses its turn"
        else:
            lose = "each lose a turn" if you else "lose their turns"
        if event.seat == self.human:
            return f"You play now: {_and(names)} {lose} (play goes on after you)."
        caller = self.name(event.seat)
        return f"{caller} plays now: {_and(names)} {lose} (play goes on after {caller})."

    def _verb(self, seat: int, singular: str, plural: str) -> str:
        """The verb for a seat's name: "You win" for the player named You (the default), "Ann wins"."""
        return plural if self.match.players[seat] == "You" else singular

    # ------------------------------------------------------------------ input
    def _readline(self, prompt: str) -> str | None:
        self.console.print(prompt, end="")
        self.console.file.flush()
        line = self.inp.readline()
        if not line:
            self.console.print()
            return None
        if not _isatty(self.inp):
            self.console.print(printable(line.rstrip("\n")), markup=False)
        return line.strip()

    def _offer_text(self, view: View) -> str:
        """The out-of-turn plays on offer, each in words (markup)."""
        lines = []
        for a in view.legal:
            if isinstance(a, Decline):
                continue
            lines.append(f"    [bold]{esc(a)}[/]{self._explain_play(view, a)}")
        return "\n".join(lines)

    def _explain_play(self, view: View, action: Action) -> str:
        """What a Rummy call claims and takes, or what a split puts out of play, in words (markup; empty for other plays)."""
        if isinstance(action, Take) and action.split and 2 <= action.n <= len(view.discard):
            top_first = list(reversed(view.discard))
            gone = self.cards(top_first[: action.n - 1])
            return f" - spends a joker: only the {_card_markup(top_first[action.n - 1])} comes to hand; {gone} {_leave_play(action.n - 1)}"
        if not isinstance(action, CallRummy):
            return ""
        top_first = list(reversed(view.discard))
        k = action.depth
        if not 1 <= k <= len(top_first):
            return ""
        card = top_first[k - 1]
        text = f" - Rummy! on the {_card_markup(card)} ({_ordinal(k)} from the top)"
        if action.on is not None:
            return text + f": it is laid off at once on meld #{action.on}"
        if action.meld is not None:
            others = [c for c in action.meld]
            with contextlib.suppress(ValueError):
                others.remove(card)
            return text + f": it is melded at once with {self.cards(others)} from the pile"
        taken = top_first[:k]
        return text + f": you take {_plural(k, 'card')} ({self.cards(taken)}) and must use the {_card_markup(card)}"

    def _ask_human(self, *, out_of_turn: bool, again: bool = False) -> Action | str | None:
        """Read lines until a legal move (or, out of turn, a pass); 'quit' at the end of input.

        ``again``: the same out-of-turn plays were offered earlier in this turn (said in one line).
        """
        m = self.match
        if out_of_turn:
            view = m.view(self.human)
            if again:
                plays = ", ".join(esc(a) for a in view.legal if not isinstance(a, Decline))
                self.console.print(f"[yellow]Still open to you out of turn:[/] {plays}  (Enter to let it pass, 'table' to look)")
            else:
                self.console.print(
                    f"[yellow]You may play out of turn[/] ({self.name(view.to_move)} is to play):\n{self._offer_text(view)}\n"
                    "  Type the play (or its number from 'moves'), or press Enter to let it pass."
                )
        else:
            view = m.view(self.human)
            if view.phase.value == "nominate":
                modes = "\n".join(f"    [bold]nominate {k}[/] - {esc(v)}" for k, v in _GAMBIT_MODES.items())
                self.console.print(f"[yellow]You deal: say what jokers do this hand[/]:\n{modes}")
            elif Float() in view.legal:
                self.console.print(
                    "[yellow]You have melded all your cards:[/] type 'float' to end your turn with no cards;"
                    f" you go out by discarding at a later turn (going_out: {m.rules.going_out.value})."
                )
            elif m.state is not None and _opening_discard(view, m.state):
                self.console.print(
                    "[yellow]You were dealt the extra card:[/] you do not draw this turn; meld if you like,"
                    " then start the discard pile with a discard (first_discard: first_player)."
                )
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
                    self.console.print(HELP, markup=False)
                    for extra in _rule_help(m.rules):
                        self.console.print(extra, markup=False)
                    continue
                case "moves" | "m" | "legal":
                    self._list_moves(view)
                    continue
                case "hint":
                    self._hint(view)
                    continue
                case "sort":
                    how = rest.lower()
                    if how not in ("", "suit", "rank"):
                        self.console.print(
                            f"[red]sort {esc(rest)}: say 'sort suit' or 'sort rank' (or 'sort' alone to switch)[/]"
                        )
                        continue
                    self.by_rank = how == "rank" if how else not self.by_rank
                    self.console.print(f"Hand sorted by {'rank' if self.by_rank else 'suit'}.")
                    self._show_hand(view)
                    continue
                case "table" | "show" | "look":
                    self.show()
                    continue
                case "scores" | "score":
                    self.show_scores()
                    continue
                case "save":
                    self.save(_one_path(rest) if rest else self._save_target())
                    continue
                case "quit" | "exit" | "q":
                    return "quit"
            try:
                action = self.parse(line, view)
            except (ActionError, ValueError) as exc:
                more = "" if "'moves'" in str(exc) else "  (type 'help' or 'moves')"
                self.console.print(f"[red]{esc(exc)}[/]{more}")
                continue
            if action not in view.legal and listed_form(action) not in view.legal:  # any order of a discard's cards
                state = m.state
                assert state is not None
                why = self._names_for_seats(state.explain(action, self.human))
                why = self._refusal_words(action, view, why)
                more = ""
                if out_of_turn:
                    more = "; you may only play what is offered now, or press Enter to let it pass"
                self.console.print(f"[red]Not allowed: {esc(why)}{more}[/]")
                continue
            if _whole(line.strip()):  # a move number: say which move it is
                self.console.print(f"  {self.name(self.human)}: [cyan]{esc(action)}[/]")
            return action

    def _refusal_words(self, action: Action, view: View, why: str) -> str:
        """The engine's reason for a refusal, with what a player at this terminal needs to know besides."""
        rules = self.match.rules
        if isinstance(action, Float) and rules.going_out not in (GoingOut.FLOATING, GoingOut.UNPLAYABLE_DISCARD):
            return "floating is not allowed in this game (going_out: floating)"
        # A move of a rule this game does not play is refused for that, whatever the phase (not "draw first").
        if isinstance(action, Swap) and not rules.joker_swap:
            return "joker swaps are not played in this game (joker_swap)"
        if isinstance(action, Take) and action.split and not rules.dealers_gambit:
            return "a split take is a Dealer's Gambit rule, not played here"
        if (
            isinstance(action, CallRummy)
            and rules.calling_rummy is CallingRummy.STEAL
            and action.on is None
            and action.meld is None
            and why.startswith("a steal names where")
        ):
            k = action.depth
            why += f" - write 'rummy {k} on ID' or 'rummy {k} meld CARDS'"
            offered = [a for a in view.legal if isinstance(a, CallRummy) and a.depth == k]
            if offered:
                why += " (here: " + " or ".join(f"'{a}'" for a in offered[:3]) + ")"
            return why
        if Float() in view.legal and not isinstance(action, Float):
            why += " - you hold no cards: type 'float' to end your turn"
        return why

    def _names_for_seats(self, text: str) -> str:
        """The engine's "seat 3" made the player's name."""

        def name(match: re.Match[str]) -> str:
            seat = int(match.group(1))
            return self.match.players[seat] if 0 <= seat < len(self.match.players) else match.group(0)

        return _SEAT_WORD.sub(name, text)

    def parse(self, line: str, view: View) -> Action:
        """A typed move: a move number, a shortcut or the record's text notation.

        Raises:
            ActionError: not a move.
        """
        text = line.strip()
        check_numbers(text)
        low = text.lower()
        words = low.split()
        if _whole(text):
            k = int(text)
            legal = self._numbered(view)
            if self._listed != (self._decision(view), legal):
                # A number means the move of that number in the list shown for this very decision:
                # never a move of a list the player has not seen.
                raise ActionError(
                    f"{k}: no numbered list is shown for this move: type 'moves' to see the numbered moves"
                )
            if not 1 <= k <= len(legal):
                raise ActionError(f"there is no move {k}: type 'moves' to list them (1..{len(legal)})")
            return legal[k - 1]
        if low in ("d", "draw", "s", "stock"):
            return Draw()
        if low in ("p", "pass"):
            return Pass()
        if low[0] == "t" and _whole(low[1:].strip()):
            return Take(int(low[1:].strip()))
        if low == "x":
            words = ["discard"]  # the shortcut alone: the help of 'discard' alone
        if low.startswith("x ") or low.startswith("x\t"):
            return parse_action("discard " + text[2:])
        if len(words) >= 2 and words[0] in ("take", "rummy") and _whole(words[1].lstrip("-")) and int(words[1]) < 1:
            raise ActionError(f"{words[0]} {words[1]}: the pile's cards are counted from 1, the top card (e.g. {words[0]} 1)")
        if len(words) == 3 and words[0] == "rummy" and words[2] == "meld" and _whole(words[1]):
            k = int(words[1])
            raise ActionError(f"rummy {k} meld: say the cards to meld with the called card, e.g. rummy {k} meld TS JS QS")
        if words in (["meld"], ["layoff"], ["discard"]):
            example = {"meld": "meld 5H 6H 7H", "layoff": "layoff 8H on 4", "discard": "discard KS"}[words[0]]
            raise ActionError(f"{words[0]}: say which cards, e.g. {example}")
        # The table labels melds #0, #1...: "on #0" is "on 0".
        return parse_action(_MELD_REF.sub(r"\1\2", text))

    def _numbered(self, view: View) -> list[Action]:
        return list(view.legal)

    def _decision(self, view: View) -> tuple[object, ...]:
        """Which decision ``view`` asks for: the round, the actions played in it so far, whose turn and the phase."""
        m = self.match
        played = len(m.rounds[-1].actions) if m.rounds else 0
        return (m.round_index, played, view.to_move, view.phase, view.seat != view.to_move)

    def _list_moves(self, view: View) -> None:
        legal = self._numbered(view)
        self._listed = (self._decision(view), legal)
        if not legal:
            self.console.print("You have no moves now.")
            return
        for i, a in enumerate(legal, 1):
            what = " (let it pass)" if isinstance(a, Decline) else self._explain_play(view, a)
            self.console.print(f"  [bold]{i:>3}[/]  {esc(a)}{what}")

    def _hint(self, view: View) -> None:
        try:
            hint = strongest_hint(view, self.rng.getrandbits(64), self.hint_seconds)
        except Exception as exc:  # noqa: BLE001 (a failing hint must not end the game)
            self.console.print(f"[red]No hint this time: the hint failed ({type(exc).__name__}).[/]")
            return
        act = hint.action
        if act is None or isinstance(act, Decline):
            self.console.print(f"hint ({esc(hint.level)} bot): let it pass")
            return
        why = hint.reason.removeprefix(f"{act}: ")  # the move is written once, in front
        if why.startswith(f"{act} "):  # "float is the only move": "it is the only move"
            why = "it " + why[len(f"{act} ") :]
        why = second_person(why)  # a bot's reason ("a stolen card scores for me") said to the player
        self.console.print(f"hint ({esc(hint.level)} bot): [cyan]{esc(act)}[/] - {esc(why or 'the search likes it best')}")

    # ------------------------------------------------------------------ display
    def name(self, seat: int) -> str:
        """A seat's player name, escaped for ``rich`` markup."""
        return esc(self.match.players[seat])

    def side_name(self, side: int) -> str:
        """A side's players (a partnership) or the seat's name, escaped for markup."""
        rules = self.match.rules
        return " & ".join(self.name(s) for s in range(rules.players) if rules.side_of(s) == side)

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
        rules = m.rules
        c = self.console
        turn = f"{self.name(view.to_move)} to play ({view.phase.value})"
        if c.width < NARROW:  # a rule cuts its title to the width: say the turn on a line of its own
            c.rule(f"Round {m.round_index + 1}")
            c.print(f"{turn} - dealer: {self.name(view.dealer)}")
        else:
            c.rule(f"Round {m.round_index + 1} - {turn} - dealer: {self.name(view.dealer)}")
        c.print(f"  {self.scores_line()}")
        for s in range(view.players):
            if s == self.human:
                continue
            known = view.known[s]
            extra = f", seen taking {self.cards(known)}" if known else ""
            partner = " (your partner)" if rules.partnership and rules.side_of(s) == rules.side_of(self.human) else ""
            if view.floating[s] and view.hand_sizes[s] == 0:
                extra += " [yellow](floating: goes out by a discard at a later turn)[/]"
            c.print(f"  {self.name(s)}{partner}: {_plural(view.hand_sizes[s], 'card')}{extra}")
        c.print(f"  Stock: {_plural(view.stock_count, 'card')}")
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
                by = self.name(meld.owner)
                others = sorted({self.name(s) for s in meld.laid_by if s != meld.owner})
                more = f" (lay-offs by {', '.join(others)})" if others else ""
                flags = " [dim]sealed[/]" if meld.sealed else ""
                c.print(f"    [bold]#{meld.id}[/] {by}: {self.cards(meld.cards)}{more}{flags}")
        if rules.dealers_gambit:
            mode = view.gambit
            said = f"{mode} ({_GAMBIT_MODES.get(mode, '')})" if mode else "not nominated yet"
            c.print(f"  Jokers this hand: {esc(said)}; dealer's joker: {esc(view.dealer_joker or '-')}")
        if view.obligation is not None:
            c.print(f"  [yellow]You must use the {_card_markup(view.obligation)} this turn.[/]")
        self._show_hand(view)

    def scores_line(self) -> str:
        """The running totals in one line (markup): each player's, or each side's in a partnership, and the goal.

        ``Scores: You 48 · Easy bot 1 278 (to 500)``.
        """
        m = self.match
        rules = m.rules
        if rules.partnership:
            sides = m.side_totals()
            parts = [f"side {'AB'[side]} ({self.side_name(side)}) {sides[side]}" for side in (0, 1)]
        else:
            parts = [f"{self.name(s)} {m.totals[s]}" for s in range(rules.players)]
        return "Scores: " + " \u00b7 ".join(parts) + f" ({self._race()})"

    def _race(self) -> str:
        """What the totals race to: the target, or the round of a fixed-rounds game and how many are left."""
        m = self.match
        rules = m.rules
        if m.tie_break:
            return "tie-break: the first round after which one total is best wins"
        fixed = rules.fixed_rounds
        if fixed is None:
            return f"to {rules.target}" + (", only by going out" if rules.must_go_out_to_win else "")
        done = len([r for r in m.rounds if r.round_scores is not None])
        playing = m.state is not None and not m.state.is_over
        now = done + 1 if playing else done
        left = fixed - now
        if not playing:
            return f"{_plural(max(0, fixed - done), 'round')} left of {fixed}"
        return f"round {now} of {fixed}: " + ("the last" if left <= 0 else f"{_plural(left, 'more round')} after this")

    def show_scores(self) -> None:
        """The ``scores`` command: the score sheet so far, each finished round's scores and the totals.

        A table (a column per player, and per side in a partnership), or one line
        per round on a terminal under :data:`NARROW` columns.
        """
        from rich.table import Table

        m = self.match
        rules = m.rules
        c = self.console
        n = rules.players
        done = [r for r in m.rounds if r.round_scores is not None]
        partnership = rules.partnership
        seats_of = {side: [s for s in range(n) if rules.side_of(s) == side] for side in (0, 1)}
        head = f"Scores so far ({self._race()})"
        started = any(m.initial_scores)
        if done and c.width >= NARROW:
            table = Table(title=head, title_justify="left")
            table.add_column("round", justify="right")
            for s in range(n):
                side = f" ({'AB'[rules.side_of(s)]})" if partnership else ""
                table.add_column(self.name(s) + side, justify="right")
            if partnership:
                table.add_column("side A", justify="right")
                table.add_column("side B", justify="right")
            if started:
                row = ["start", *(str(v) for v in m.initial_scores)]
                if partnership:
                    row += [str(sum(m.initial_scores[s] for s in seats_of[side])) for side in (0, 1)]
                table.add_row(*row)
            for k, log in enumerate(done, 1):
                got = log.round_scores or []
                row = [str(k), *(f"{v:+d}" + ("*" if s == log.went_out else "") for s, v in enumerate(got))]
                if partnership:
                    row += [f"{sum(got[s] for s in seats_of[side]):+d}" for side in (0, 1)]
                table.add_row(*row, end_section=k == len(done))
            totals = [f"[bold]{v}[/]" for v in m.totals]
            if partnership:
                totals += [f"[bold]{v}[/]" for v in m.side_totals()]
            table.add_row("total", *totals)
            c.print(table)
            c.print("  *: went out (a round with no * ended when the stock ran out).")
        else:
            c.print(f"[bold]{head}[/]")
            if started:
                c.print("  Start: " + ", ".join(f"{self.name(s)} {m.initial_scores[s]}" for s in range(n)))
            for k, log in enumerate(done, 1):
                got = log.round_scores or []
                line = ", ".join(f"{self.name(s)} {got[s]:+d}" for s in range(n))
                c.print(f"  Round {k}: {line} ({self._went_out_words(log.went_out)})")
            if not done:
                c.print("  No round is over yet.")
            c.print("  Totals: " + ", ".join(f"{self.name(s)} {m.totals[s]}" for s in range(n)))
            if partnership:
                sides = m.side_totals()
                c.print("  Side totals: " + ", ".join(f"{'AB'[side]} ({self.side_name(side)}) {sides[side]}" for side in (0, 1)))
        if m.state is not None and not m.state.is_over:
            c.print(f"  Round {m.round_index + 1} is being played.")

    def _went_out_words(self, went_out: int | None) -> str:
        """Who ended a round, in words (markup)."""
        return "the stock ran out" if went_out is None else f"{self.name(went_out)} went out"

    def _show_hand(self, view: View) -> None:
        if view.phase is Phase.NOMINATE and view.seat is not None:
            # Dealer's Gambit: nobody looks at their cards before the dealer has nominated.
            n = view.hand_sizes[view.seat]
            self.console.print(f"  [bold]Your hand[/]: {n} cards, face down until the dealer has nominated")
            return
        hand = self.sorted_hand(view.hand)
        floating = ""
        if not hand and view.seat is not None and view.floating[view.seat]:
            floating = " [yellow](floating: you go out by discarding at a later turn)[/]"
        self.console.print(f"  [bold]Your hand[/] ({len(hand)}): {self.cards(hand)}{floating}")

    def _report_rounds(self, ended: _Ended | None = None) -> None:
        """Report the finished rounds not yet reported (``ended``: the one just over, in full)."""
        m = self.match
        done = [r for r in m.rounds if r.round_scores is not None]
        while self._rounds_shown < len(done):
            log = done[self._rounds_shown]
            self._rounds_shown += 1
            last = self._rounds_shown == len(done)
            if ended is not None and last:
                self._round_over(self._rounds_shown, ended)
            else:
                scores = tuple(log.round_scores or ())
                self._round_over(self._rounds_shown, _Ended(None, log.went_out, scores, ()))

    def _round_over(self, number: int, ended: _Ended) -> None:
        """The end of a round: why, every hand left, each seat's points, the totals."""
        m = self.match
        rules = m.rules
        n = rules.players
        c = self.console
        if ended.went_out is not None:
            why = f"{self.name(ended.went_out)} went out"
        elif ended.passed is not None:
            why = f"the stock ran out and {self.name(ended.passed)} passed: nobody went out"
        else:
            why = "the stock ran out: nobody went out"
        of = f" of {rules.fixed_rounds}" if rules.fixed_rounds is not None else ""
        totals = _totals_after(m, number)
        if c.width < NARROW:
            self._round_over_stacked(f"Round {number}{of} over - {why}", ended, totals)
        else:
            self._round_over_table(f"Round {number}{of} over - {why}", ended, totals)
        if rules.partnership:
            side_totals = [sum(totals[s] for s in range(n) if rules.side_of(s) == side) for side in (0, 1)]
            parts = [f"{'AB'[side]} ({self.side_name(side)}) {side_totals[side]}" for side in (0, 1)]
            c.print("  Side totals: " + ", ".join(parts))
        for note in self._scoring_notes(ended) + self._target_notes(number, ended, totals):
            c.print(f"  {note}")
        if m.tie_break and not m.is_over:
            c.print("  The best totals are tied: another round breaks the tie.")

    def _round_over_stacked(self, title: str, ended: _Ended, totals: list[int]) -> None:
        """The end of a round on a narrow terminal: one player after another, each figure named."""
        rules = self.match.rules
        n = rules.players
        c = self.console
        result = ended.state.result if ended.state is not None else None
        scores = ended.scores

        def figures(seats: list[int]) -> str:
            bits = []
            if result is not None:
                bits += [f"table {sum(result.table_points[s] for s in seats)}", f"hand {sum(result.hand_points[s] for s in seats)}"]
            bits.append(f"round {sum(scores[s] for s in seats if s < len(scores)):+d}")
            bits.append(f"total {sum(totals[s] for s in seats)}")
            return ", ".join(bits)

        c.print(f"[bold]{title}[/]")
        for s in range(n):
            which = f" (side {'AB'[rules.side_of(s)]})" if rules.partnership else ""
            out = " (out)" if s == ended.went_out else ""
            c.print(f"  [bold]{self.name(s)}[/]{out}{which}: {figures([s])}")
            if ended.hands and s < len(ended.hands):
                c.print(f"    cards left: {self.cards(self.sorted_hand(ended.hands[s]))}")
        if rules.partnership:
            for side in (0, 1):
                c.print(f"  [bold]side {'AB'[side]}[/]: {figures([s for s in range(n) if rules.side_of(s) == side])}")

    def _round_over_table(self, title: str, ended: _Ended, totals: list[int]) -> None:
        """The end of a round as a table: a row per player (and per side in a partnership)."""
        from rich.table import Table

        rules = self.match.rules
        n = rules.players
        c = self.console
        result = ended.state.result if ended.state is not None else None
        hands = ended.hands
        table = Table(title=title)
        table.add_column("player")
        if rules.partnership:
            table.add_column("side")
        if hands:
            table.add_column("cards left")
        if result is not None:
            table.add_column("table", justify="right")
            table.add_column("hand", justify="right")
        table.add_column("round", justify="right")
        table.add_column("total", justify="right")
        scores = ended.scores
        for s in range(n):
            row = [self.name(s) + (" (out)" if s == ended.went_out else "")]
            if rules.partnership:
                row.append("AB"[rules.side_of(s)])
            if hands:
                row.append(self.cards(self.sorted_hand(hands[s])) if s < len(hands) else "")
            if result is not None:
                row += [str(result.table_points[s]), str(result.hand_points[s])]
            row += [f"{scores[s]:+d}" if s < len(scores) else "", str(totals[s])]
            table.add_row(*row, end_section=rules.partnership and s == n - 1)
        if rules.partnership:
            for side in (0, 1):
                seats = [s for s in range(n) if rules.side_of(s) == side]
                row = [f"[bold]side {'AB'[side]}[/]", "AB"[side]]
                if hands:
                    row.append("")
                if result is not None:
                    row += [str(sum(result.table_points[s] for s in seats)), str(sum(result.hand_points[s] for s in seats))]
                row += [f"{sum(scores[s] for s in seats if s < len(scores)):+d}", f"[bold]{sum(totals[s] for s in seats)}[/]"]
                table.add_row(*row)
        c.print(table)

    def _scoring_notes(self, ended: _Ended) -> list[str]:
        """How the round scores come from the table and hand points (markup)."""
        rules = self.match.rules
        state = ended.state
        if state is None or state.result is None:
            return []
        notes: list[str] = []
        went_out = ended.went_out
        if went_out is None and not rules.stock_out_penalty:
            notes.append("Round score = table points (the stock ran out: cards left in hand do not count).")
        elif rules.hand_penalty is HandPenalty.OWN:
            notes.append("Round score = table points - hand points (the cards left in hand).")
        elif went_out is not None:
            others = "the other side's" if rules.partnership else "the other player's" if rules.players == 2 else "the other players'"
            scores = self._verb(went_out, "scores", "score")
            notes.append(f"Round score = table points; {self.name(went_out)} also {scores} {others} cards left in hand.")
        elif rules.partnership:
            notes.append("Round score = table points; each side also scores the other side's cards left in hand.")
        elif rules.players == 2:
            notes.append("Round score = table points; each player also scores the other player's cards left in hand.")
        else:
            notes.append("Round score = table points (nobody went out: cards left in hand do not count).")
        if went_out is not None and rules.going_out_bonus:
            notes.append(f"Going-out bonus: {rules.going_out_bonus:+d} to {self.name(went_out)}.")
        if state.masters is not None:
            notes.append(f"{self.name(state.masters)} made the Rummy Master's Hand: 500 for the round.")
        if rules.score_divisor != 1:
            notes.append(f"Every round score is divided by {rules.score_divisor} (halves rounded away from zero).")
        return notes

    def _target_notes(self, number: int, ended: _Ended, totals: list[int]) -> list[str]:
        """(``must_go_out_to_win``) Who has reached the target without going out: the game goes on (markup)."""
        m = self.match
        rules = m.rules
        if not rules.must_go_out_to_win or rules.fixed_rounds is not None or m.tie_break:
            return []
        done = len([r for r in m.rounds if r.round_scores is not None])
        if m.is_over and number == done:
            return []  # the winner's line says why
        n = rules.players
        units = (0, 1) if rules.partnership else tuple(range(n))
        out_unit = None if ended.went_out is None else rules.side_of(ended.went_out)
        notes = []
        for u in units:
            seats = [s for s in range(n) if rules.side_of(s) == u]
            total = sum(totals[s] for s in seats)
            if total < rules.target or u == out_unit:
                continue
            if rules.partnership:
                who, has, did = f"Side {'AB'[u]} ({self.side_name(u)})", "has", "did not go out"
            else:
                who = self.name(u)
                has, did = self._verb(u, "has", "have"), "did not go out"
            notes.append(
                f"{who} {has} reached the target ({total} of {rules.target}) but {did}: the game goes on"
                " (must_go_out_to_win: only a player who goes out with the target reached wins)."
            )
        return notes

    def _winner_reason(self, seats: list[int]) -> str:
        """(``must_go_out_to_win``) Why the winner won: they went out with the target reached, whoever has more (markup)."""
        m = self.match
        rules = m.rules
        if not rules.must_go_out_to_win or rules.fixed_rounds is not None or m.tie_break:
            return ""
        target = rules.target
        if rules.partnership:
            win = rules.side_of(seats[0])
            sides = m.side_totals()
            who = "your side" if rules.side_of(self.human) == win else f"side {'AB'[win]}"
            reason = f"{who} went out having reached {target}, and only the side that goes out can win (must_go_out_to_win)"
            if sides[1 - win] >= sides[win]:
                reason += f"; {self.side_name(1 - win)} have {sides[1 - win]} but did not go out"
            return reason
        winner = seats[0]
        who = "you" if winner == self.human else self.name(winner)
        reason = f"{who} went out having reached {target}, and only a player who goes out can win (must_go_out_to_win)"
        more = sorted((s for s in range(rules.players) if s != winner and m.totals[s] >= m.totals[winner]), key=lambda s: -m.totals[s])
        if len(more) == 1:
            has = self._verb(more[0], "has", "have")
            reason += f"; {self.name(more[0])} {has} {m.totals[more[0]]} but did not go out"
        elif more:
            reason += f"; {_and([f'{self.name(s)} ({m.totals[s]})' for s in more])} did not go out"
        return reason

    def _announce_winner(self) -> None:
        m = self.match
        rules = m.rules
        c = self.console
        w = m.winner
        if w is None:
            c.print("[bold]Game over.[/]")
            return
        seats = w if isinstance(w, list) else [w]
        you = self.human in seats
        cheer = " Well played!" if you else ""
        if m.bonus_to is not None and rules.final_bonus:
            who = self.side_name(rules.side_of(m.bonus_to)) if rules.partnership else self.name(m.bonus_to)
            c.print(f"Final bonus: {rules.final_bonus:+d} to {who} (the best total).")
        sides = m.side_totals()
        reason = self._winner_reason(seats)
        why = f": {reason}" if reason else ""
        if rules.partnership:
            win = rules.side_of(seats[0])
            c.print(
                f"[bold]Game over.[/] {self.side_name(win)} win with {sides[win]}"
                f" against {sides[1 - win]}{why}.{cheer}"
            )
            parts = []
            for side in sorted((0, 1), key=lambda s: -sides[s]):
                each = ", ".join(f"{self.name(s)} {m.totals[s]}" for s in range(rules.players) if rules.side_of(s) == side)
                parts.append(f"{self.side_name(side)} {sides[side]} ({each})")
            c.print("Final totals: " + "; ".join(parts))
            return
        winner = seats[0]
        wins = self._verb(winner, "wins", "win")
        c.print(f"[bold]Game over.[/] {self.name(winner)} {wins} with {m.totals[winner]}{why}.{cheer}")
        order = sorted(range(rules.players), key=lambda s: -m.totals[s])
        top = order[0] == winner or m.totals[order[0]] == m.totals[winner]
        c.print(
            "Final totals: "
            + ", ".join(f"{self.name(s)} {m.totals[s]}" + ("" if top or s != winner else " (the winner)") for s in order)
        )

    # ------------------------------------------------------------------ files
    def save(self, path: str, *, say: bool = True) -> bool:
        """Write the game record to ``path`` (``~`` is the home folder); on failure say why (the game goes on).

        Args:
            path: the file.
            say: say where it was saved (a failure is always said).

        Returns:
            Whether it was saved.
        """
        path = os.path.expanduser(path)
        text = json.dumps(self.match.record(), indent=1) + "\n"
        try:
            _write_file(path, text)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.console.print(f"[red]Could not save the game to {esc(path)}: {esc(reason)}.[/]")
            return False
        self._written.add(os.path.abspath(path))
        if say:
            self.console.print(f"Saved the game to {esc(path)}.")
        return True

    def _save_elsewhere(self, *, finished: bool) -> str | None:
        """After a failed save: ask for another file until one is written.

        Args:
            finished: the game is over (Enter cannot go back to it).

        Returns:
            The file written; ``""``: the player pressed Enter to go on playing;
            None: the game stays unsaved (``quit``, the end of the input, Ctrl-C,
            or Enter after the end of the game).
        """
        back = "Enter to stop without saving" if finished else "Enter to go back to the game"
        prompt = f"[bold green]save to?>[/] [dim](another file; {back}; 'quit' to stop without saving)[/] "
        while True:
            try:
                line = self._readline(prompt)
            except KeyboardInterrupt:
                self.console.print()
                return None
            if line is None or line.lower() in ("quit", "exit", "q"):
                return None
            if not line:
                return None if finished else ""
            path = os.path.expanduser(_one_path(line))
            if self.save(path, say=not finished):  # a finished game's last line says where it went
                return path

    def _save_target(self) -> str:
        """Where ``quit`` (and ``save`` alone) saves: ``--save``, the loaded file, else a default name no other game holds."""
        if self.save_path:
            return os.path.expanduser(self.save_path)
        path = self._auto_path
        if path is None or (os.path.lexists(path) and os.path.abspath(path) not in self._written):
            path = self._auto_path = _fresh_save_name(self._written)
        return path

    def resume_command(self, path: str) -> str:
        """The command that resumes the game saved to ``path``."""
        argv = ["rummy500", "play", "--load", path]
        if self.human != 0:  # a loaded game's human is found by name, seat 0 by default
            argv += ["--name", self.match.players[self.human]]
        return shlex.join(argv)

    def _quit(self) -> int | None:
        """Save the game and say how to resume it.

        A save that fails asks for another file (:meth:`_save_elsewhere`).

        Returns:
            The exit status (0 saved, 1 not saved), or None: the save failed and
            the player goes back to the game.
        """
        target = self._save_target()
        path = target if self.save(target) else self._save_elsewhere(finished=False)
        if path == "":
            self.console.print("Back to the game (the game is not saved).")
            return None
        if path is None:
            self.console.print("[red]The game could not be saved.[/]")
            return 1
        self.console.print(f"Bye - to go on with this game: {esc(self.resume_command(path))}")
        return 0


def _fresh_save_name(ours: set[str]) -> str:
    """``rummy500-save.json``, else the first ``rummy500-save-N.json`` (N = 2, 3...) that does not exist.

    ``ours``: files this game wrote (absolute paths): one of them may be written again.
    """
    stem, dot, ext = DEFAULT_SAVE.rpartition(".")
    k = 1
    while True:
        name = DEFAULT_SAVE if k == 1 else f"{stem}-{k}{dot}{ext}"
        if not os.path.lexists(name) or os.path.abspath(name) in ours:
            return name
        k += 1


def _one_path(text: str) -> str:
    """A path typed after ``save``: one shell word (quotes allowed), else the text as typed."""
    try:
        words = shlex.split(text)
    except ValueError:
        return text
    return words[0] if len(words) == 1 else text


def _write_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` without ever leaving a half-written file in place of an old one.

    A regular file (or a new one) is written beside its place and moved over it;
    a device or a pipe is written directly.

    Raises:
        OSError: it could not be written (the message's ``strerror`` says why).
    """
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    if os.path.exists(target) and not os.path.isfile(target):
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
        return
    directory = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=".rummy500-save-", suffix=".tmp", dir=directory)
    except PermissionError:
        if not (os.path.isfile(target) and os.access(target, os.W_OK)):
            raise
        with open(target, "w", encoding="utf-8") as f:  # a writable file in a folder we may not write
            f.write(text)
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if os.path.isfile(target):
            mode = os.stat(target).st_mode & 0o7777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _opening_discard(view: View, state: RoundState) -> bool:
    """(``first_discard: first_player``) The first player's first turn: dealt the extra card, no draw, the pile to start.

    ``view`` is this seat's view of ``state``: the round's opening turn (:func:`rummy500.explain._opening_discard_turn`),
    and this seat's, with the pile still empty.
    """
    return _opening_discard_turn(state) and view.seat == view.to_move and view.phase is Phase.PLAY and not view.discard


def _rule_help(rules: Rules) -> list[str]:
    """The help on this game's house rules' moves (shown after :data:`HELP`)."""
    extra = []
    if rules.calling_rummy is CallingRummy.STEAL:
        extra.append(STEAL_HELP)
    if rules.going_out in (GoingOut.FLOATING, GoingOut.UNPLAYABLE_DISCARD):
        unplayable = ""
        if rules.going_out is GoingOut.UNPLAYABLE_DISCARD:
            unplayable = " that fits no meld on the table (a last discard that fits one leaves you floating)"
        extra.append(FLOAT_HELP.format(mode=rules.going_out.value, unplayable=unplayable))
    if rules.dealers_gambit:
        extra.append(GAMBIT_HELP)
    return extra


def _totals_after(m: Match, rounds: int) -> list[int]:
    """The totals after the first ``rounds`` finished rounds (without a final bonus: it is announced apart)."""
    totals = list(m.initial_scores)
    done = [r for r in m.rounds if r.round_scores is not None]
    for log in done[:rounds]:
        for i, s in enumerate(log.round_scores or []):
            totals[i] += s
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


def _check_levels(levels: list[str], players: int) -> None:
    """Refuse more ``--opponents`` levels than there are other seats (fewer are repeated round the table).

    Raises:
        ValueError: a level would have no seat.
    """
    if len(levels) > players - 1:
        seats = _plural(players - 1, "other seat")
        raise ValueError(
            f"--opponents names {len(levels)} bot levels ({', '.join(levels)}) but the game has {players} players:"
            f" {seats} (give at most {players - 1} levels, or more players in --rules)"
        )


def _check_save_path(path: str) -> None:
    """Refuse a ``--save`` path that can never be written (a folder, a missing folder), before the game starts."""
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise ValueError(f"cannot save to {path}: it is a directory")
    parent = os.path.dirname(target) or "."
    if not os.path.isdir(parent):
        raise ValueError(f"cannot save to {path}: there is no directory {os.path.dirname(path) or '.'}")


def _load(path: str) -> Match:
    """The game saved in ``path``, replayed (``ValueError``, in words, when it cannot be).

    It is read as ``rummy500 replay`` reads a record, never more than
    :data:`rummy500.record.MAX_RECORD_BYTES` (but ``-`` is a file's name here:
    standard input is the keyboard); running out of memory on it is said in
    words, not a crash.
    """
    try:
        data = read_record_bytes(path, stdin=False)
    except OSError as exc:  # a larger file too (RecordTooLarge: its strerror names the limit)
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        record = parse_record_json(data)  # strict UTF-8 and JSON; too deep a nesting is refused, not a crash
    except RecordError as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    except MemoryError:
        raise ValueError(f"cannot read {path}: out of memory") from None
    if not isinstance(record, dict) or not all(k in record for k in ("rules", "players", "rounds")):
        raise ValueError(f"cannot resume {path}: it is not a saved game (a game record has 'rules', 'players' and 'rounds')")
    try:
        match, error = replay_match(load_record(record))
    except (RecordError, IllegalAction, RulesError) as exc:
        raise ValueError(f"cannot resume {path}: {exc}") from None
    except MemoryError:
        raise ValueError(f"cannot resume {path}: out of memory") from None
    if error is not None:  # said as a player counts: the first round is round 1, its first action action 1
        r, i, message = error
        raise ValueError(f"cannot resume {path}: round {r + 1}, action {i + 1} is not allowed: {message}")
    if match.state is None:
        raise ValueError(f"cannot resume {path}: it is not a saved game (it holds no deal)")
    return match


#: ``play`` options that only make a new game: with ``--load`` the record says them.
_NEW_GAME_ONLY = {
    "preset": "--preset cannot change a loaded game: its rules are in the record",
    "rules": "--rules cannot change a loaded game: its rules are in the record",
}


def _check_load_options(args: argparse.Namespace, match: Match) -> None:
    """Refuse, with ``--load``, the options a loaded game cannot take (they would be ignored).

    ``--opponents`` is taken only where it means something: for a bot seat
    whose name does not say its level (a game saved by ``play`` names its bots
    ``Medium bot 1``...).

    Raises:
        ValueError: such an option was given.
    """
    for name, message in _NEW_GAME_ONLY.items():
        if getattr(args, name) is not None:
            raise ValueError(message)
    if args.opponents is None:
        return
    human = match.players.index(args.name) if args.name in match.players else 0
    named = [match.players[s] for s in range(match.rules.players) if s != human]
    if all(_level_of(n) for n in named):
        raise ValueError(
            "--opponents cannot change a loaded game: its bots keep the levels their names say"
            f" ({', '.join(printable(n) for n in named)})"
        )


def _leave_play(cards: int) -> str:
    """What a Dealer's Gambit split does to the ``cards`` above the card taken (the move list and the line after it say it alike)."""
    return f"{'leaves' if cards == 1 else 'leave'} play for the hand"


def _same_name(a: str, b: str) -> bool:
    """Whether two names read as one: case and runs of spaces aside (``medium  BOT 1`` is ``Medium bot 1``)."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _check_name(name: str, bots: list[str]) -> None:
    """Refuse a ``--name`` that is a bot's name in this game: every move line would be ambiguous.

    Raises:
        ValueError: the name is one of ``bots``.
    """
    clash = next((b for b in bots if _same_name(name, b)), None)
    if clash is not None:
        raise ValueError(
            f'--name "{name}" is the name of a bot in this game: choose another name (the bots are {_and(bots)})'
        )


def build(args: argparse.Namespace, *, inp: IO[str] | None = None, out: IO[str] | None = None) -> Game:
    """The game ``args`` describe (new or loaded).

    Raises:
        ValueError: bad options, rules or record.
    """
    levels = _levels(args.opponents if args.opponents is not None else DEFAULT_OPPONENTS)
    seed = args.seed
    if not args.hint_seconds >= 0:  # (NaN too)
        raise ValueError(f"--hint-seconds must be 0 or more, not {args.hint_seconds:g}")
    if args.save:
        args.save = os.path.expanduser(args.save)
        _check_save_path(args.save)
    if args.load:
        args.load = os.path.expanduser(args.load)
        match = _load(args.load)
        _check_load_options(args, match)
        match.rng = random.Random(seed)
        match.continue_play()
        names = match.players
        human = names.index(args.name) if args.name in names else 0
    else:
        rules = rules_from_args(args.preset, args.rules, default_players=max(2, min(8, 1 + len(levels))))
        n = rules.players
        _check_levels(levels, n)
        human = 0
        names = [args.name]
        for s in range(1, n):
            names.append(f"{levels[(s - 1) % len(levels)].capitalize()} bot {s}")
        _check_name(args.name, names[1:])
        match = Match(rules, names, seed=seed)
    if args.load:
        _check_levels(levels, match.rules.players)
    bot_rng = random.Random(seed)
    bots: dict[int, Bot] = {}
    k = 0
    for s in range(match.rules.players):
        if s == human:
            continue
        level = _level_of(match.players[s]) or levels[k % len(levels)]
        bots[s] = make_bot(level, bot_rng.getrandbits(32))
        k += 1
    return Game(
        match,
        human,
        bots,
        inp=inp,
        out=out,
        seed=seed,
        save_path=args.save or args.load,
        hint_seconds=args.hint_seconds,
        resumed=bool(args.load),
    )


def _level_of(name: str) -> str | None:
    first = name.split()[0].lower() if name.split() else ""
    return first if first in BOT_LEVELS and " bot" in name.lower() else None


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``rummy500 play``."""
    p = argparse.ArgumentParser(
        prog="rummy500 play",
        description="Play Rummy 500 against bots in the terminal.",
        epilog=(
            "In the game, type 'help' for the moves and commands (moves, hint, sort, table, scores, save, quit);"
            " docs/terminal.md describes them all. The game is saved when you quit and when it ends:"
            f" to --save FILE, else to the --load file, else to {DEFAULT_SAVE} in the current folder"
            " (rummy500-save-2.json... if that file holds another game); the last line names the file and the"
            " commands that replay and review it."
        ),
    )
    p.add_argument("--preset", default=None, help="a rules preset (default standard; not with --load)")
    p.add_argument("--rules", default=None, help="rule options as a JSON object (not with --load)")
    p.add_argument(
        "--opponents",
        default=None,
        help=f"comma-separated bot levels ({', '.join(BOT_LEVELS)}), one per other seat (repeated round the"
        " table when there are fewer; never more levels than seats; default medium); sets the number of players unless --rules"
        " or the preset does. With --load: only for bots whose names do not say their level",
    )
    p.add_argument("--name", default="You", help="your name (with --load: the player you are, found by name)")
    p.add_argument("--seed", type=seed_arg, default=None, help="seed the deal and the bots")
    p.add_argument("--load", metavar="FILE", default=None, help="resume a saved game record (it is saved back there)")
    p.add_argument(
        "--save",
        metavar="FILE",
        default=None,
        help=f"save here on quit, at the end of input and at the end of the game (default: the --load file, else"
        f" {DEFAULT_SAVE} in the current folder, or rummy500-save-2.json... if that file holds another game)",
    )
    p.add_argument("--hint-seconds", type=float, default=DEFAULT_HINT_BUDGET, help=f"time a hint may think: the strongest bot that answers within it is asked (default {DEFAULT_HINT_BUDGET})")
    return p


def main(argv: list[str], *, inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """Run ``rummy500 play``."""
    args = parser().parse_args(argv)
    try:
        game = build(args, inp=inp, out=out)
    except (ValueError, RulesError) as exc:
        print(f"rummy500 play: {printable(exc)}", file=sys.stderr)
        return 2
    try:
        return game.run()
    except KeyboardInterrupt:  # after the game (its report, its save): nothing is left to play
        game.console.print()
        code = game._quit()
        return 1 if code is None else code
