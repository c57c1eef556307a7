"""Why an action is refused, in words a player understands.

``RoundState.apply`` decides legality by membership in ``legal_actions()``
(so the two can never disagree); this module only finds the words. It walks
the rules in the order a player would think of them and names the first one
the action breaks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from rummy500.actions import (
    Action,
    Block,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Float,
    LayOff,
    Meld,
    Nominate,
    Pass,
    Reshuffle,
    Swap,
    Take,
)
from rummy500.cards import JOKER, Card
from rummy500.melds import MeldError, TableMeld, extend_meld
from rummy500.public import Phase, Public
from rummy500.rules import (
    CallingRummy,
    DiscardCount,
    DiscardDraw,
    FirstDiscard,
    GoingOut,
    LayoffOnto,
    MustUseTaken,
    Rules,
    TakenCardUse,
)
from rummy500.scoring import new_meld_points

__all__ = ["Round", "about_digits", "explain", "seat_text"]


def about_digits(value: int) -> int:
    """About how many decimal digits ``value`` has, found without writing it out.

    For messages that name a number by its length: ``str()`` of an int thousands
    of digits long would itself fail (Python's limit on int-to-text conversion).

    >>> about_digits(5), about_digits(10**40), about_digits(-(10**5000))
    (1, 41, 5001)
    """
    return int(abs(value).bit_length() * 0.30103) + 1


def seat_text(seat: int) -> str:
    """``seat`` in words for a message: ``"seat 5"``, or its length where it has too many digits to write out.

    >>> seat_text(5), seat_text(10**40)
    ('seat 5', 'a seat number of about 41 digits')
    """
    digits = about_digits(seat)
    return f"seat {seat}" if digits < 20 else f"a seat number of about {digits} digits"


class Round(Protocol):
    """What the explanations read of a round (:class:`~rummy500.state.RoundState`'s public API)."""

    rules: Rules
    n: int
    hands: list[list[Card]]
    stock: list[Card]
    public: Public

    def may_extend(self, seat: int, meld: TableMeld) -> bool:
        """``layoff_onto``: whether ``seat`` may lay off on ``meld``."""

    def free_jokers(self, seat: int) -> int:
        """Jokers ``seat`` may use without holding them (the free dealer's joker)."""

    def hand_cards_used(self, seat: int, cards: Sequence[Card]) -> int:
        """How many cards of ``seat``'s hand laying ``cards`` uses."""

    def meld_of(self, seat: int, cards: Sequence[Card]) -> TableMeld:
        """The table meld ``cards`` would make if ``seat`` laid them now (raises MeldError)."""

_DRAWS = (Draw, Take, Pass)
_PLAYS = (Meld, LayOff, Swap, Discard, Float)
_ACTIONS = (Draw, Take, Meld, LayOff, Swap, Discard, Pass, CallRummy, Float, Nominate, Block, Reshuffle, Decline)


def _not_an_action(value: object) -> str:
    """Why ``value``, which is no action object, is refused: it names the parser that makes one."""
    if isinstance(value, str):
        how = "parse its text with rummy500.actions.parse_action first"
    elif isinstance(value, dict):
        how = "build it from its record with rummy500.actions.action_from_record first"
    else:
        how = "an action is one of rummy500.actions' classes (Draw(), Take(n), Discard(cards) ...)"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} is not an action: {how}"


def _explain_decline(state: Round, seat: int) -> str:
    """Why a Decline by ``seat`` is refused: it had no out-of-turn offer to decline."""
    p = state.public
    if seat == p.to_move:
        return "there is no out-of-turn offer to decline: it is your turn (Decline answers only an offer made out of turn)"
    if seat in p.declined:
        return "you have already declined the out-of-turn offer at this position"
    return "there is no out-of-turn offer to decline: you have no play out of turn now"


def _missing(state: Round, seat: int, cards: tuple[Card, ...] | list[Card]) -> str | None:
    need = Counter(JOKER if c >= 64 else c for c in cards)
    have = Counter(state.hands[seat])
    have[JOKER] += state.free_jokers(seat)
    lacking = [c for c, k in need.items() if have[c] < k]
    if not lacking:
        return None
    absent = [str(c) for c in lacking if not have[c]]
    if absent:
        return f"you do not hold {' '.join(absent)}"
    c = lacking[0]
    return f"you hold only {have[c]} {c}, not {need[c]}"


def explain(state: Round, action: Action, seat: int) -> str:  # noqa: C901 - one rule per branch
    """The first rule ``action`` by ``seat`` breaks (assumes it is not legal)."""
    rules = state.rules
    if not 0 <= seat < state.n:
        return f"{seat_text(seat)} is not a seat of this {state.n}-player game (seats are 0 to {state.n - 1})"
    if not isinstance(action, _ACTIONS):
        return _not_an_action(action)
    if state.public.phase is Phase.ROUND_OVER:
        return "the round is over: nobody may play now"
    if state.public.phase is Phase.SHUFFLE:
        return "the discard pile must be reshuffled into a new stock first"
    if state.public.phase is Phase.NOMINATE:
        if seat != state.public.dealer:
            return f"the dealer (seat {state.public.dealer}) must first nominate what jokers do this hand"
        return "the dealer must first nominate what jokers do this hand: nominate wild, double or split"
    if isinstance(action, Nominate):
        return "jokers are nominated only by the dealer, before play starts"
    if isinstance(action, Block):
        if not rules.dealers_gambit:
            return "blocking the dealer's joker is a Dealer's Gambit rule, not played here"
        if seat == state.public.dealer:
            return "the dealer cannot block their own joker"
        if state.public.dealer_joker != "available":
            return f"the dealer's joker is already {state.public.dealer_joker}"
        if JOKER not in state.hands[seat]:
            return "you need a joker in hand to block the dealer's joker"
        if seat == state.public.to_move:
            return "blocking now would spend a joker (or the last cards) this turn still needs to end legally"
        return "you may block the dealer's joker only during your own turn"
    if isinstance(action, CallRummy):
        return _explain_call(state, action, seat)
    if isinstance(action, Decline):
        return _explain_decline(state, seat)
    if seat != state.public.to_move:
        if rules.meld_out_of_turn and isinstance(action, (Meld, LayOff)):
            return _explain_lay(state, action, seat, in_turn=False)
        return f"it is not your turn: seat {state.public.to_move} is to play"
    if state.public.phase is Phase.DRAW and isinstance(action, _PLAYS):
        return "draw first: take the top card of the stock or cards from the discard pile"
    if state.public.phase is Phase.PLAY and isinstance(action, _DRAWS):
        if _opening_discard_turn(state):
            return (
                "you were dealt the extra card (first_discard: first_player): the first player does not draw "
                "but starts the discard pile with a discard"
            )
        return "you have already drawn this turn"
    match action:
        case Draw():
            return "the stock is empty: take from the discard pile or pass"
        case Pass():
            if state.stock:
                return "you may pass only when the stock is empty"
            return "the stock is empty but play goes on: you must take from the discard pile"
        case Take(k, split):
            return _explain_take(state, seat, k, split)
        case Meld() | LayOff():
            return _explain_lay(state, action, seat, in_turn=True)
        case Swap(c, on):
            if not rules.joker_swap:
                return "swapping a card for a melded joker is not allowed in this game (joker_swap)"
            if on >= len(state.public.melds) or on < 0:
                return f"there is no meld {on} on the table"
            if c not in state.hands[seat]:
                return f"you do not hold {c}"
            if state.public.obligation is not None and any(m >= 128 and m.natural == c for m in state.public.melds[on].cards):
                return f"after this swap you could no longer use the {state.public.obligation} you took from the pile, which you must"
            return f"meld {on} has no joker standing for {c}"
        case Discard(cards):
            return _explain_discard(state, seat, cards)
        case Float():
            return "you may float only when you have melded all your cards and must still discard to go out"
    return "that move is not allowed now"


def _opening_discard_turn(state: Round) -> bool:
    """(``first_discard: first_player``) The first turn of the round: dealt the extra card, nothing drawn."""
    p = state.public
    return (
        state.rules.first_discard is FirstDiscard.FIRST_PLAYER
        and p.turns == 0
        and p.drawn == 0
        and p.last_discarder is None
        and p.claimed_card is None
    )


def _explain_take(state: Round, seat: int, k: int, split: bool) -> str:
    rules = state.rules
    if k < 1:
        return "take at least one card from the discard pile (take 1 is the top card)"
    if not state.public.discard:
        return "the discard pile is empty"
    if k > len(state.public.discard):
        return f"the discard pile has only {len(state.public.discard)} card(s)"
    if k > 1 and rules.discard_draw is DiscardDraw.TOP_ONLY:
        return "only the top card of the discard pile may be taken in this game"
    if split:
        if state.public.gambit != "split":
            return "a split take needs jokers nominated 'split' this hand"
        if k < 2:
            return "a split takes a card below the top of the pile"
        if JOKER not in state.hands[seat] and not state.free_jokers(seat):
            return "you need a joker to split the pile"
    chosen = state.public.discard[-k]
    if k > 1 or rules.must_use_taken is MustUseTaken.ALWAYS or split:
        how = "in a new meld" if rules.taken_card_use is TakenCardUse.NEW_MELD else "in a meld or a lay-off"
        return f"you could not use the {chosen} this turn: the deepest card taken must be used {how} in the same turn"
    return f"taking the {chosen} would leave you no way to finish the turn"


def _explain_lay(state: Round, action: Meld | LayOff, seat: int, *, in_turn: bool) -> str:
    rules = state.rules
    cards = action.cards
    missing = _missing(state, seat, cards)
    if missing:
        return missing
    # Not wild this hand: a declared joker never; a bare one only on a set as it is melded (double).
    not_wild = state.public.gambit is not None and state.public.gambit != "wild"
    if not_wild and (any(c >= 128 for c in cards) or (isinstance(action, LayOff) and JOKER in cards)):
        return f"jokers are not wild this hand (the dealer nominated {state.public.gambit})"
    hand_left = len(state.hands[seat]) - state.hand_cards_used(seat, cards)
    if isinstance(action, LayOff):
        if action.on < 0 or action.on >= len(state.public.melds):
            return f"there is no meld {action.on} on the table"
        meld = state.public.melds[action.on]
        why = _why_no_layoff(state, seat, [meld])
        if why:
            return why
        try:
            extend_meld(meld, cards, rules, seat)
        except MeldError as exc:
            return str(exc)
    else:
        try:
            built = state.meld_of(seat, cards)
        except MeldError as exc:
            return str(exc)
        if not state.public.opened[seat]:
            pts = new_meld_points(built, rules) + (state.public.turn_points if in_turn else 0)
            if pts < rules.first_meld_min:
                return (
                    f"your first melds this round must total at least {rules.first_meld_min} points "
                    f"(this makes {pts}, and your hand cannot make up the rest)"
                )
    if not in_turn and hand_left < 1:
        return "out of turn you may not play your last card: you go out only on your own turn"
    if hand_left < 1 and rules.going_out is GoingOut.DISCARD_REQUIRED:
        return "you must keep a card to discard: going out requires a discard in this game"
    if in_turn and state.public.obligation is not None:
        if rules.taken_card_use is TakenCardUse.NEW_MELD and isinstance(action, LayOff) and state.public.obligation in _bare(cards):
            return f"the {state.public.obligation} taken from the pile must go into a new meld, not be laid off"
        return f"after this you could no longer use the {state.public.obligation} you took from the pile, which you must"
    if not in_turn and state.public.obligation is not None:
        return "you may not play out of turn while the player to move still has to use a card taken from the pile"
    top = state.public.taken_top
    if not in_turn and top is not None and not rules.discard_back and state.hands[state.public.to_move] == [top]:
        return (
            f"you may not play out of turn while the player to move holds only the {top} just taken from the pile, "
            "which they may not discard: they may still lay it off"
        )
    if in_turn and top is not None and not rules.discard_back and hand_left == 1 and rules.going_out is GoingOut.DISCARD_REQUIRED:
        return (
            f"that would leave only the {top} you just took from the top of the pile, which you may not discard "
            "again, and laying it off would leave no card to discard (going_out: discard_required)"
        )
    if in_turn and top is not None and not rules.discard_back and hand_left == 1:
        return (
            f"that would leave only the {top} you just took from the top of the pile, "
            "which you may not discard again (nor can it be laid off)"
        )
    return "that play is not allowed now"


def _explain_discard(state: Round, seat: int, cards: tuple[Card, ...]) -> str:
    rules = state.rules
    missing = _missing(state, seat, [c for c in cards])
    if missing:
        return missing
    declared = [c for c in cards if c.is_declared]
    if declared:
        return f"a discarded joker is written plain 'JK', not '{declared[0]}': a joker stands for a card only in a meld"
    if state.public.obligation is not None:
        how = "a new meld" if rules.taken_card_use is TakenCardUse.NEW_MELD else "a meld or a lay-off"
        return f"you must use the {state.public.obligation} you took from the pile in {how} before you discard"
    if not state.public.opened[seat] and state.public.turn_points:
        return f"your first melds this round must total at least {rules.first_meld_min} points before you discard"
    hand = state.hands[seat]
    if rules.discard_count is DiscardCount.MATCH_DRAWN:
        need = min(max(1, state.public.drawn), len(hand))
        if len(cards) != need:
            return f"discard {need} card(s): as many as you drew this turn"
    elif len(cards) != 1:
        return "discard exactly one card"
    if state.public.taken_top is not None and state.public.taken_top in cards and not rules.discard_back:
        return f"you may not discard the {state.public.taken_top} you just took from the top of the pile"
    return "that discard is not allowed now"


def _explain_call(state: Round, action: CallRummy, seat: int) -> str:

    rules = state.rules
    if rules.calling_rummy is CallingRummy.OFF:
        return "calling Rummy is not played in this game (calling_rummy: off)"
    if seat == state.public.last_discarder:
        return "you discarded last: only the other players may call Rummy on your discard"
    if state.public.phase is not Phase.DRAW or state.public.last_discarder is None:
        return "Rummy may be called only after a discard, before the next player draws"
    if action.depth < 1:
        return "claim a card by its place from the top of the pile: 1 is the top card"
    if action.depth > len(state.public.discard):
        return f"the discard pile has only {len(state.public.discard)} card(s)"
    if rules.calling_rummy is CallingRummy.TOP_CARD and action.depth != 1:
        return "only the card just discarded may be claimed (calling_rummy: top_card)"
    if rules.discard_draw is DiscardDraw.TOP_ONLY and action.depth != 1:
        return "only the top card of the pile may be taken, by a steal too (discard_draw: top_only)"
    chosen = state.public.discard[-action.depth]
    if rules.calling_rummy is CallingRummy.STEAL and action.on is None and action.meld is None:
        return "a steal names where the card goes: 'on' a meld id, or the pile cards it melds with"
    if rules.calling_rummy is not CallingRummy.STEAL and (action.on is not None or action.meld is not None):
        return "name only the depth of the claimed card; you then meld or lay it off yourself"
    if rules.discard_draw is DiscardDraw.TOP_ONLY and action.meld is not None:
        return "a steal may only lay the top card off: a meld would take other pile cards with it (discard_draw: top_only)"
    if action.on is not None:
        melds = state.public.melds
        if not 0 <= action.on < len(melds):
            return f"there is no meld {action.on} on the table"
        try:
            extend_meld(melds[action.on], [chosen], rules, seat)
        except MeldError as exc:
            return f"the {chosen} cannot go on meld {action.on}: {exc}"
        why = _why_no_claimed_layoff(state, seat, [melds[action.on]])
        if why:
            return f"the {chosen} fits meld {action.on}, but {why}"
    if action.meld is not None and not state.public.opened[seat]:
        try:
            pts = new_meld_points(state.meld_of(seat, action.meld), rules)
        except MeldError:
            pts = None
        if pts is not None and pts < rules.first_meld_min:
            return (
                f"a stolen meld must make your first melds' {rules.first_meld_min} points alone "
                f"(first_meld_min): this makes {pts}"
            )
    fits = [m for m in state.public.melds if _fits(m, chosen, rules, seat)]
    if fits and action.meld is None:
        why = _why_no_claimed_layoff(state, seat, fits)
        if why:
            also = "" if rules.calling_rummy is CallingRummy.STEAL else ", and you cannot meld it with your hand and the pile above it"
            return f"the {chosen} could be laid off on the table, but {why}{also}"
    return f"the {chosen} is not playable: it can neither be laid off on a table meld nor melded from the pile"


def _fits(meld: TableMeld, card: Card, rules: Rules, seat: int) -> bool:
    try:
        extend_meld(meld, [card], rules, seat)
    except MeldError:
        return False
    return True


def _why_no_layoff(state: Round, seat: int, melds: Sequence[TableMeld]) -> str | None:
    """Why ``seat`` may lay off on none of ``melds`` (None: it may), the rules as a player checks them."""
    rules = state.rules
    if not any(state.may_extend(seat, m) for m in melds):
        whose = "your own melds" if rules.layoff_onto is LayoffOnto.OWN else "your side's melds"
        return f"you may lay off only on {whose} (layoff_onto: {rules.layoff_onto})"
    if not state.public.opened[seat]:
        return f"you may not lay off before your first melds total {rules.first_meld_min} points"
    if rules.layoff_needs_own_meld and not state.public.has_melded[seat]:
        return "you may lay off only after laying down a meld of your own this round"
    return None


def _why_no_claimed_layoff(state: Round, seat: int, melds: Sequence[TableMeld]) -> str | None:
    """:func:`_why_no_layoff` for a card claimed by calling Rummy, which ``taken_card_use: new_meld`` may forbid first."""
    if state.rules.taken_card_use is TakenCardUse.NEW_MELD and state.rules.calling_rummy is not CallingRummy.STEAL:
        return "a card taken from the pile must go into a new meld, not be laid off (taken_card_use: new_meld)"
    return _why_no_layoff(state, seat, melds)


def _bare(cards: tuple[Card, ...]) -> list[Card]:
    return [JOKER if c >= 64 else c for c in cards]
