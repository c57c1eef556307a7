"""One round of Costa Rican Rummy: deal, the player's options, the dealer, settlement.

The dealer has no hole card to peek at (an ace and a ten are a plain 21, not a
blackjack), so the dealer's second card is dealt only after the player is done
and nothing about it can leak. Money is in units of the currency of the bet;
surrender and bonuses can make halves and multiples. Every amount of a round has the
type of its bet: a :class:`~fractions.Fraction` bet (the terminal game's) keeps every
amount exact, a surrender's half included; the simulator's bet of 1 keeps plain numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

from rummy500.casino.cards import Card, Shoe, bonus_multiple, hand_total, is_soft
from rummy500.casino.money import format_chips
from rummy500.casino.rules import CasinoRules

__all__ = ["GameError", "Hand", "Money", "Round", "ACTION_NAMES"]

#: The type of a round's amounts: its bet's (an int bet is a float to the type checker).
Money = TypeVar("Money", float, Fraction)

#: The player's actions, by code.
ACTION_NAMES = {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}
_CODES = {**{v.upper(): k for k, v in ACTION_NAMES.items()}, **{k: k for k in ACTION_NAMES}}


class GameError(ValueError):
    """An action that is not allowed now; the round is unchanged."""


@dataclass
class Hand(Generic[Money]):
    """One of the player's hands (its amounts of the bet's type).

    Attributes:
        cards: the cards, in the order dealt.
        bet: the amount riding on it (doubled after a double).
        from_split: made by splitting (no bonus, no surrender).
        split_aces: made by splitting aces (one card only unless drawing to split aces is allowed).
        doubled, surrendered, done: what happened to it.
        bonus: the bonus paid on its first three cards (0 of the bet's type until one is paid).
        result: the hand's settlement (excluding the bonus), once settled.
    """

    cards: list[Card]
    bet: Money
    from_split: bool = False
    split_aces: bool = False
    doubled: bool = False
    surrendered: bool = False
    done: bool = False
    acted: bool = False
    bonus: Money = field(init=False)
    bonus_ends_hand: bool = False
    result: Money | None = None

    def __post_init__(self) -> None:
        self.bonus = self.bet * 0

    @property
    def total(self) -> int:
        """The best total."""
        return hand_total(self.cards)

    @property
    def busted(self) -> bool:
        """Over 21."""
        return self.total > 21


@dataclass
class Round(Generic[Money]):
    """A round for one player: created with a bet, it deals at once.

    The cards of the previous round go to the shoe's discards first (see
    :meth:`~rummy500.casino.cards.Shoe.clear_table`).

    Args:
        rules: the table rules.
        shoe: the shoe to deal from.
        bet: the initial bet (positive); every amount of the round has its type.

    Raises:
        GameError: a bet that is not positive.
    """

    rules: CasinoRules
    shoe: Shoe
    bet: Money
    hands: list[Hand[Money]] = field(default_factory=list)
    dealer: list[Card] = field(default_factory=list)
    active: int = 0
    log: list[str] = field(default_factory=list)
    finished: bool = False

    def __post_init__(self) -> None:
        if not self.bet > 0:
            raise GameError(f"the bet must be positive, not {format_chips(self.bet)}")
        self.shoe.clear_table()
        first = self.shoe.draw()
        self.dealer.append(self.shoe.draw())
        second = self.shoe.draw()
        self.hands.append(Hand([first, second], self.bet))
        self._advance()

    # -- what the player sees --------------------------------------------------------------

    @property
    def up_card(self) -> Card:
        """The dealer's face-up card."""
        return self.dealer[0]

    @property
    def hand(self) -> Hand[Money]:
        """The hand to play now.

        Raises:
            GameError: the round is over.
        """
        if self.finished:
            raise GameError("the round is over")
        return self.hands[self.active]

    @property
    def net(self) -> Money:
        """What the round won (+) or lost (-), bonuses included; final once ``finished``."""
        total = self.bet * 0
        for h in self.hands:
            total += h.bonus if h.result is None else h.result + h.bonus
        return total

    @property
    def bonus_paid(self) -> Money:
        """The bonuses paid in this round."""
        total = self.bet * 0
        for h in self.hands:
            total += h.bonus
        return total

    def legal_actions(self) -> list[str]:
        """The action codes allowed now (``H S D P R``), empty once the round is over."""
        if self.finished:
            return []
        h = self.hands[self.active]
        if h.split_aces and not self.rules.draw_split_aces:
            return ["S", "P"] if self._can_split(h) else ["S"]
        acts = ["H", "S"]
        if len(h.cards) == 2:
            if not h.from_split or (self.rules.das and (not h.split_aces or self.rules.draw_split_aces)):
                acts.append("D")
            if self._can_split(h):
                acts.append("P")
            if self.rules.surrender and not h.from_split and not h.acted:
                acts.append("R")
        return acts

    def _can_split(self, h: Hand[Money]) -> bool:
        if len(h.cards) != 2 or h.cards[0].value != h.cards[1].value or len(self.hands) >= self.rules.max_hands:
            return False
        return not (h.split_aces and not self.rules.resplit_aces)

    # -- actions --------------------------------------------------------------------------

    def act(self, action: str) -> None:
        """Play an action code (or its name) on the current hand.

        Raises:
            GameError: the round is over, an unknown action, or one not allowed now.
        """
        code = _CODES.get(action.strip().upper(), "")
        if not code:
            raise GameError(f"unknown action {action!r} (actions: hit, stand, double, split, surrender)")
        if self.finished:
            raise GameError("the round is over")
        if code not in self.legal_actions():
            raise GameError(f"cannot {ACTION_NAMES[code]} now: {self._why_not(code)}")
        h = self.hands[self.active]
        getattr(self, "_" + ACTION_NAMES[code])(h)
        self._advance()

    def _why_not(self, code: str) -> str:
        h = self.hands[self.active]
        if code == "D":
            if len(h.cards) != 2:
                return "doubling is only on the first two cards of a hand"
            return "no double after a split at this table" if not self.rules.das else "split aces take one card"
        if code == "P":
            if len(h.cards) != 2 or h.cards[0].value != h.cards[1].value:
                return "only two cards of the same value split"
            if len(self.hands) >= self.rules.max_hands:
                return f"at most {self.rules.max_hands} hands"
            return "split aces are not split again at this table"
        if not self.rules.surrender:
            return "no surrender at this table"
        return "surrender is only the first decision of the original hand"

    def _deal_to(self, h: Hand[Money]) -> None:
        h.cards.append(self.shoe.draw())
        if len(h.cards) == 3 and not h.from_split:
            m = bonus_multiple(h.cards, self.rules)
            if m:
                h.bonus = m * h.bet
                three = " ".join(str(c) for c in h.cards)
                self.log.append(f"bonus {m} to 1 on {three}: {format_chips(h.bonus, sign=True)}")
                if not self.rules.bonus_adds:
                    h.bonus_ends_hand = True
                    h.done = True

    def _hit(self, h: Hand[Money]) -> None:
        h.acted = True
        self._deal_to(h)
        if h.total >= 21:
            h.done = True

    def _stand(self, h: Hand[Money]) -> None:
        h.acted = True
        h.done = True

    def _double(self, h: Hand[Money]) -> None:
        h.acted = True
        h.doubled = True
        h.bet *= 2
        self._deal_to(h)
        h.done = True

    def _surrender(self, h: Hand[Money]) -> None:
        h.surrendered = True
        h.done = True

    def _split(self, h: Hand[Money]) -> None:
        aces = h.cards[0].rank == 1
        second: Hand[Money] = Hand([h.cards.pop()], h.bet, from_split=True, split_aces=aces)
        h.from_split = True
        h.split_aces = aces
        h.acted = False
        self.hands.insert(self.active + 1, second)
        self._deal_to(h)

    # -- flow -----------------------------------------------------------------------------

    def _advance(self) -> None:
        """Deal second cards to split hands, close finished hands, and play the dealer at the end."""
        while self.active < len(self.hands):
            h = self.hands[self.active]
            if len(h.cards) == 1:
                self._deal_to(h)
            one_card_ace = h.split_aces and not self.rules.draw_split_aces and not self._can_split(h)
            if h.total >= 21 or one_card_ace:
                h.done = True
            if not h.done:
                return
            self.active += 1
        self._finish()

    def _finish(self) -> None:
        self.dealer.append(self.shoe.draw())
        live = [h for h in self.hands if not (h.busted or h.surrendered or h.bonus_ends_hand)]
        if live:
            while True:
                t = hand_total(self.dealer)
                if t > 17 or (t == 17 and not (self.rules.h17 and is_soft(self.dealer))):
                    break
                self.dealer.append(self.shoe.draw())
        dealer_total = hand_total(self.dealer)
        for h in self.hands:
            if h.bonus_ends_hand:
                h.result = h.bet * 0
            elif h.surrendered:
                h.result = -h.bet / 2
            elif h.busted:
                h.result = -h.bet
            elif dealer_total > 21 or h.total > dealer_total:
                h.result = h.bet
            elif h.total < dealer_total:
                h.result = -h.bet
            else:
                h.result = h.bet * 0
        self.finished = True
