"""``rummy500 casino play``: Costa Rican Rummy at a terminal, one hand at a time.

Plain text in and out, so it runs the same on a keyboard or on piped input. Chips
are exact (:mod:`~rummy500.casino.money`): a bet is read from its decimal text and
every amount is shown by :func:`~rummy500.casino.money.format_chips`.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from typing import TextIO

from rummy500.casino.cards import Card, Shoe, hand_total
from rummy500.casino.game import ACTION_NAMES, GameError, Hand, Round
from rummy500.casino.money import MAX_CHIPS, PLACES, ChipsError, format_chips, parse_chips, to_chips
from rummy500.casino.rules import CasinoRules
from rummy500.casino.strategy import Chart, advise

__all__ = ["MAX_CHIPS", "Session", "play"]

_KEYS = {"h": "H", "s": "S", "d": "D", "p": "P", "r": "R"}
HELP = (
    "actions: h hit, s stand, d double, p split, r surrender (or the words); "
    "? a hint; help; quit. Between hands: a bet, Enter for the last bet (or all your chips when they are fewer), "
    "or quit."
)


def _show(cards: list[Card]) -> str:
    return " ".join(c.pretty() for c in cards)


class Session:
    """A table for one player with a bankroll and a mistake counter.

    Args:
        rules: the table rules.
        chart: the basic strategy used for hints and to count mistakes.
        bankroll: the starting chips, kept exactly (a float is read as its shortest
            decimal, a string as typed: see :func:`~rummy500.casino.money.to_chips`).
        seed: the shoe's seed, 0 or more (``None``: random).
        inp, out: where the player types and reads.

    Raises:
        ValueError: a bankroll that is not more than 0 and at most :data:`MAX_CHIPS`
            chips with at most 12 decimal places, or a negative seed.
    """

    def __init__(
        self,
        rules: CasinoRules,
        chart: Chart,
        bankroll: Fraction | int | float | str,
        seed: int | None,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        try:
            self.bankroll: Fraction = to_chips(bankroll)
        except ChipsError as exc:
            raise ValueError(f"the bankroll must be {_RANGE}, not {bankroll}") from exc
        if seed is not None and seed < 0:
            raise ValueError(f"the seed must be 0 or more, not {seed}")
        self.rules = rules
        self.chart = chart
        self.shoe = Shoe(rules.decks, random.Random(seed))
        self.inp = inp
        self.out = out
        self.rounds = 0
        self.decisions = 0
        self.mistakes = 0
        self.last_bet: Fraction = min(Fraction(10), self.bankroll)
        self._round: Round[Fraction] | None = None

    def say(self, text: str) -> None:
        """Print a line for the player."""
        print(text, file=self.out)

    def ask(self, prompt: str) -> str | None:
        """Prompt and read one line (``None`` at the end of input or on Ctrl-C, both read as quit)."""
        self.out.write(prompt)
        self.out.flush()
        try:
            line = self.inp.readline()
        except KeyboardInterrupt:
            line = ""
        if not line:
            self.say("")
            return None
        return line.strip()

    def run(self) -> int:
        """Play until the player quits, input ends (or Ctrl-C), or the chips run out; print the summary.

        Returns:
            0, the exit status (as for ``quit``).
        """
        self.say(f"Costa Rican Rummy: {self.rules.describe()}. Type help for the commands.")
        try:
            while self.bankroll > 0:
                bet = self._ask_bet()
                if bet is None:
                    break
                if not self._play_round(bet):
                    break
        except KeyboardInterrupt:  # outside a prompt: end as quit does
            self.say("")
            r, self._round = self._round, None
            if r is not None and r.finished:
                self.bankroll += r.net  # dealt to the end: settled as dealt
            elif r is not None:
                self._abandon(r)
        if self.bankroll <= 0:
            self.say("You are out of chips.")
        self.say(
            f"Rounds {self.rounds}, bankroll {format_chips(self.bankroll)}, "
            f"basic-strategy mistakes {self.mistakes} of {self.decisions} decisions."
        )
        return 0

    def _ask_bet(self) -> Fraction | None:
        while True:
            # Enter repeats the last bet, or bets every chip left when they are fewer.
            default = min(self.last_bet, self.bankroll, Fraction(MAX_CHIPS))
            line = self.ask(f"Bankroll {format_chips(self.bankroll)}. Bet [{format_chips(default)}]: ")
            if line is None or line.lower() in ("q", "quit", "exit"):
                return None
            if line.lower() == "help":
                self.say(HELP)
                continue
            limit = (
                f"your bankroll {format_chips(self.bankroll)}"
                if self.bankroll <= MAX_CHIPS
                else f"the table limit {format_chips(MAX_CHIPS)}"
            )
            if not line:
                bet = default
            else:
                try:
                    bet = parse_chips(line)
                except ChipsError as exc:
                    if exc.kind == "number":
                        self.say(f"not a bet: {line!r} (a number of chips, e.g. 10)")
                    elif exc.kind == "places":
                        self.say(f"not a bet: {line!r} (at most {PLACES} decimal places)")
                    else:
                        self.say(f"the bet must be more than 0 and at most {limit}")
                    continue
            if bet > self.bankroll:
                self.say(f"the bet must be more than 0 and at most {limit}")
                continue
            self.last_bet = bet
            return bet

    def _show_table(self, r: Round[Fraction]) -> None:
        self.say(f"Dealer shows {r.up_card.pretty()}")
        for i, h in enumerate(r.hands):
            mark = ">" if not r.finished and i == r.active else " "
            label = f"hand {i + 1}" if len(r.hands) > 1 else "your hand"
            extra = " (doubled)" if h.doubled else ""
            self.say(f"{mark} {label}: {_show(h.cards)} = {h.total}{extra}")

    def _play_round(self, bet: Fraction) -> bool:
        if self.shoe.needs_shuffle:
            self.shoe.shuffle()
            self.say("(the shoe is shuffled)")
        r = Round(self.rules, self.shoe, bet)
        self._round = r
        self.rounds += 1
        seen = 0
        while True:
            for note in r.log[seen:]:
                self.say("Bonus! " + note)
            seen = len(r.log)
            if r.finished:
                break
            self._show_table(r)
            h = r.hand
            # A double or split the bankroll cannot cover is not offered, not hinted, and not
            # counted as the right play (the chart's Dh is then a hit).
            allowed = [a for a in r.legal_actions() if a not in ("D", "P") or self._covers(r, h)]
            names = "/".join(ACTION_NAMES[a] for a in allowed)
            line = self.ask(f"{names}? ")
            if line is None or line.lower() in ("q", "quit", "exit"):
                self._round = None
                self._abandon(r)
                return False
            low = line.lower()
            if low in ("?", "hint"):
                best = advise(self.chart, h.cards, r.up_card.value, allowed, not h.from_split)
                self.say(f"Basic strategy: {ACTION_NAMES[best]}.")
                continue
            if low == "help":
                self.say(HELP)
                continue
            code = _KEYS.get(low, line)
            if not self._affordable(r, h, code):
                continue
            best = advise(self.chart, h.cards, r.up_card.value, allowed, not h.from_split)
            try:
                r.act(code)
            except GameError as exc:
                self.say(str(exc))
                continue
            self.decisions += 1
            played = code.upper() if len(code) == 1 else {v: k for k, v in ACTION_NAMES.items()}[code.lower()]
            if played != best:
                self.mistakes += 1
                self.say(f"(basic strategy says {ACTION_NAMES[best]}; mistakes: {self.mistakes})")
        self._show_table(r)
        self.say(f"Dealer: {_show(r.dealer)} = {_total(r.dealer)}")
        self.bankroll += r.net
        self._round = None
        bonus = f" (bonus {format_chips(r.bonus_paid, sign=True)})" if r.bonus_paid else ""
        self.say(f"Result: {format_chips(r.net, sign=True)}{bonus}")
        return True

    def _abandon(self, r: Round[Fraction]) -> None:
        """Quit mid-round: the bets on the table are lost, bonuses already paid stay paid."""
        lost = sum((_at_stake(x) for x in r.hands), Fraction(0))
        self.bankroll += r.bonus_paid - lost
        kept = f"; bonuses paid ({format_chips(r.bonus_paid, sign=True)}) are kept" if r.bonus_paid else ""
        self.say(f"Round abandoned: the bets on the table are lost ({format_chips(-lost, sign=True)}){kept}.")

    def _covers(self, r: Round[Fraction], h: Hand[Fraction]) -> bool:
        """The bankroll covers the bets on the table plus another ``h.bet`` (a double or a split)."""
        return sum((x.bet for x in r.hands), Fraction(0)) + h.bet <= self.bankroll

    def _affordable(self, r: Round[Fraction], h: Hand[Fraction], code: str) -> bool:
        action = _KEYS.get(code.lower(), {v: k for k, v in ACTION_NAMES.items()}.get(code.lower(), ""))
        if action in ("D", "P") and action in r.legal_actions() and not self._covers(r, h):
            self.say(f"not enough chips to {ACTION_NAMES[action]} (bankroll {format_chips(self.bankroll)})")
            return False
        return True


#: What a bankroll must be, for the errors.
_RANGE = f"more than 0 and at most {format_chips(MAX_CHIPS)} chips, with at most {PLACES} decimal places"


def _at_stake(h: Hand[Fraction]) -> Fraction:
    """What an unsettled hand loses when the round is abandoned."""
    if h.bonus_ends_hand:
        return Fraction(0)  # the bonus was its whole result
    return h.bet / 2 if h.surrendered else h.bet


def _total(cards: list[Card]) -> str:
    t = hand_total(cards)
    return f"{t} (bust)" if t > 21 else str(t)


def play(
    rules: CasinoRules,
    chart: Chart,
    bankroll: Fraction | int | float | str,
    seed: int | None,
    inp: TextIO | None = None,
    out: TextIO | None = None,
) -> int:
    """Run a session on the given streams (stdin/stdout by default).

    Returns:
        The exit status: 0, also after Ctrl-C (the session ends as ``quit`` ends it).
    """
    return Session(rules, chart, bankroll, seed, inp or sys.stdin, out or sys.stdout).run()
