"""One round of Rummy 500: the deal, the turn cycle, legal actions and their effects.

:class:`RoundState` is mutable with a cheap :meth:`~RoundState.copy`; all
that is inside it (cards, table melds) is immutable or copied. It enumerates
every legal action of a position (:meth:`~RoundState.legal_actions`) and
:meth:`~RoundState.apply` refuses anything outside that list with an
:class:`IllegalAction` naming the rule it breaks, leaving the state unchanged.

House-rule decisions the spec leaves open are written down in
``docs/rules.md``; comments here name the rule each branch implements.
"""

from __future__ import annotations

import contextlib
import operator
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from itertools import combinations
from typing import Any, SupportsIndex, TypeVar

from rummy500 import fastmeld
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
    listed_form,
)
from rummy500.cards import JOKER, Card, card, natural_cards
from rummy500.events import (
    Blocked,
    CalledRummy,
    Declined,
    Discarded,
    Drew,
    Event,
    Floated,
    LaidOff,
    LeftRummy,
    Melded,
    Nominated,
    Passed,
    Reshuffled,
    RoundOver,
    Swapped,
    Took,
)
from rummy500.explain import about_digits, explain, seat_text
from rummy500.fastmeld import RANK_COLUMN, RANKS
from rummy500.melds import (
    RUN,
    SET,
    MeldError,
    TableMeld,
    extend_meld,
    find_melds,
    make_meld,
)
from rummy500.position import ROUND_FIELDS, PositionError, parse_position, round_position
from rummy500.public import PUBLIC_HELD, Phase, Public
from rummy500.rules import (
    CallingRummy,
    DiscardCount,
    DiscardDraw,
    FirstDiscard,
    GoingOut,
    LayoffOnto,
    MustUseTaken,
    Rules,
    SetSuits,
    StockOut,
    TakenCardUse,
)
from rummy500.scoring import RoundResult, meld_card_values, new_meld_points, score_round
from rummy500.views import View, build_view

__all__ = [
    "Decision",
    "DecisionKind",
    "IllegalAction",
    "Phase",
    "ResampleError",
    "RoundState",
    "build_pack",
    "seat_number",
    "state_from_position",
    "state_from_view",
    "unseen_cards",
    "view_from_position",
]

# Enum members bound once: reading a member off an Enum class costs ~0.7 us in
# Python 3.11 (EnumType.__getattr__), too slow for the legal-move loop.
_CALLING_RUMMY_OFF = CallingRummy.OFF
_CALLING_RUMMY_STEAL = CallingRummy.STEAL
_CALLING_RUMMY_TOP_CARD = CallingRummy.TOP_CARD
_DISCARD_COUNT_MATCH_DRAWN = DiscardCount.MATCH_DRAWN
_DISCARD_DRAW_ANY_DEPTH = DiscardDraw.ANY_DEPTH
_FIRST_DISCARD_FIRST_PLAYER = FirstDiscard.FIRST_PLAYER
_FIRST_DISCARD_UPCARD = FirstDiscard.UPCARD
_GOING_OUT_ANY = GoingOut.ANY
_GOING_OUT_DISCARD_REQUIRED = GoingOut.DISCARD_REQUIRED
_GOING_OUT_UNPLAYABLE_DISCARD = GoingOut.UNPLAYABLE_DISCARD
_LAYOFF_ONTO_ANY = LayoffOnto.ANY
_MUST_USE_TAKEN_ALWAYS = MustUseTaken.ALWAYS
_SET_SUITS_DISTINCT = SetSuits.DISTINCT
_STOCK_OUT_IMMEDIATE = StockOut.IMMEDIATE
_STOCK_OUT_PLAY_ON = StockOut.PLAY_ON
_STOCK_OUT_RESHUFFLE = StockOut.RESHUFFLE
_TAKEN_CARD_USE_NEW_MELD = TakenCardUse.NEW_MELD
# The stock_out values under which a round may never end on its own.
_STOCK_OUT_ENDLESS = frozenset({StockOut.PLAY_ON, StockOut.RESHUFFLE})
_PH_NOMINATE = Phase.NOMINATE
_PH_DRAW = Phase.DRAW
_PH_PLAY = Phase.PLAY
_PH_SHUFFLE = Phase.SHUFFLE
_PH_OVER = Phase.ROUND_OVER


# A round that reaches this many turns ends as if the stock had run out. Real
# games never come near it; it only keeps aimless bots from playing forever
# under ``stock_out: play_on`` or ``reshuffle``.
MAX_TURNS = 1500


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the rule."""


class DecisionKind(StrEnum):
    """Who decides next: the seat to move, a seat offered an out-of-turn play, or chance."""

    TURN = "turn"
    OFFER = "offer"
    CHANCE = "chance"


_TURN, _OFFER, _CHANCE = DecisionKind.TURN, DecisionKind.OFFER, DecisionKind.CHANCE


@dataclass(frozen=True, slots=True)
class Decision:
    """The one decider of a position (see :meth:`RoundState.decision`).

    Attributes:
        kind: TURN (the seat to move), OFFER (a seat offered an out-of-turn
            play: a Rummy call, a meld or lay-off under ``meld_out_of_turn``;
            ``legal`` ends with :class:`~rummy500.actions.Decline`) or CHANCE
            (a reshuffle is due: apply ``state.chance_reshuffle(rng)``).
        seat: the deciding seat (None for chance).
        legal: what the seat may answer.
    """

    kind: DecisionKind
    seat: int | None
    legal: tuple[Action, ...]


_NOBODY: frozenset[int] = frozenset()


def _set_declined(view: View, seats: frozenset[int]) -> None:
    """Write a view's own copy of the public ``declined`` (views are frozen values, built by the engine)."""
    object.__setattr__(view, "declined", seats)


_T = TypeVar("_T")


def build_pack(rules: Rules) -> list[Card]:
    """The whole pack for these rules, in a fixed order (shuffle it yourself)."""
    naturals = natural_cards()
    if rules.short_pack:
        naturals = [c for c in naturals if c.rank == 1 or c.rank >= 7]
    return naturals * rules.n_decks + [JOKER] * rules.n_jokers


def _remove(hand: list[Card], cards: Iterable[Card]) -> None:
    for c in cards:
        hand.remove(c)


_new = object.__new__
_put = object.__setattr__


# The events of apply()'s short paths, built without their dataclass's interpreted __init__ (a
# frozen dataclass's __init__ sets each field with object.__setattr__; so do these, in compiled
# code in the compiled build). tests/engine/test_events.py checks each equals the dataclass's own.
def _discarded(seat: int, cards: tuple[Card, ...]) -> Discarded:
    """``Discarded(seat, cards)``."""
    e = _new(Discarded)
    _put(e, "seat", seat)
    _put(e, "cards", cards)
    return e


def _drew(seat: int, cards: tuple[Card, ...]) -> Drew:
    """``Drew(seat, len(cards), cards)``."""
    e = _new(Drew)
    _put(e, "seat", seat)
    _put(e, "count", len(cards))
    _put(e, "cards", cards)
    return e


def _took(seat: int, cards: tuple[Card, ...]) -> Took:
    """``Took(seat, cards)`` (nothing removed)."""
    e = _new(Took)
    _put(e, "seat", seat)
    _put(e, "cards", cards)
    _put(e, "removed", ())
    return e


# A draft of the public value: what apply() writes one action's effects into.
# It has the slots of Public but ordinary attributes, so the engine's writes
# (``d.phase = ...``) are plain slot stores; _seal() then makes it a Public in
# place (the two layouts are the same), immutable from then on. Only the
# engine writes, and only to a draft nobody else holds yet. To mypy a draft is
# Any: a frozen dataclass cannot be declared writable without declaring it twice.
Draft = Any


class _Draft:
    __slots__ = tuple(f.name for f in fields(Public))


def _make_open(name: str = "_open", written: tuple[str, ...] = ()) -> Callable[[Public], Draft]:
    """Generate ``name(public)``: a draft copy of ``public`` in straight-line slot copies, no loop.

    The fields ``written`` are left out: a short path of apply() writes them all itself.
    """
    lines = [f"def {name}(p):", "    d = _new(_Draft)"]
    lines += [f"    d.{field} = p.{field}" for field in _Draft.__slots__ if field not in written]
    lines.append("    return d")
    namespace: dict[str, Any] = {"_new": _new, "_Draft": _Draft}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from our own field names
    fn: Callable[[Public], Draft] = namespace[name]
    fn.__doc__ = "A draft copy of ``public`` for the engine to write the effects of one action into" + (
        f" (without {', '.join(written)}: the caller writes those)." if written else "."
    )
    return fn


_open = _make_open()


# What the short paths of apply() write (each writes every one of these fields).
_DISCARD_WRITES = (
    "declined",
    "discard",
    "turns",
    "to_move",
    "last_discarder",
    "phase",
    "obligation",
    "taken_top",
    "drawn",
    "turn_points",
    "turn_long_run",
    "claimed_card",
    "hand_sizes",
)
_DRAW_WRITES = ("declined", "drawn", "taken_top", "phase", "last_discarder", "hand_sizes", "stock_count")
_TAKE_WRITES = ("declined", "discard", "known", "drawn", "obligation", "taken_top", "phase", "last_discarder", "hand_sizes")
_open_discard = _make_open("_open_discard", _DISCARD_WRITES)
_open_draw = _make_open("_open_draw", _DRAW_WRITES)
_open_take = _make_open("_open_take", _TAKE_WRITES)


def _seal(draft: Draft) -> Public:
    """The draft made a Public in place: immutable from now on."""
    draft.__class__ = Public
    sealed: Public = draft
    return sealed


def _with(values: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    """``values`` with item ``i`` replaced."""
    return values[:i] + (value,) + values[i + 1 :]

def _fresh_turn(d: Draft) -> None:
    """Clear what a turn carries (what it must use, took, drew and laid) for the next one.

    (The discard's short path, :meth:`RoundState._fast_discard`, writes the same fields inline.)
    """
    d.obligation = None
    d.taken_top = None
    d.drawn = 0
    d.turn_points = 0
    d.turn_long_run = False
    d.claimed_card = None


class RoundState:
    """The position of one round. Build with :meth:`new`, :meth:`from_deck` or :meth:`from_deal`."""

    # Everything every seat can see is one immutable value, ``public`` (a
    # rummy500.public.Public, declared once there), replaced by each apply();
    # the hands and the stock (bottom first) are the only private parts.
    __slots__ = ("rules", "n", "hands", "stock", "public", "masters", "result", "_legal_cache", "_idx")

    rules: Rules
    n: int
    hands: list[list[Card]]
    stock: list[Card]
    public: Public
    masters: int | None
    result: RoundResult | None
    # The legal lists of this position, by seat (None: none asked for yet).
    _legal_cache: dict[int, list[Action]] | None
    # Per seat, the index (fastmeld.Hand) of its meld hand, or None until asked for.
    # apply() drops the acting seat's; code that edits hands directly calls forget_caches().
    _idx: list[fastmeld.Hand | None]

    # ------------------------------------------------------------ construction
    @classmethod
    def new(cls, rules: Rules, dealer: int, rng: random.Random) -> RoundState:
        """Shuffle a full pack with ``rng`` and deal it."""
        deck = build_pack(rules)
        rng.shuffle(deck)
        return cls.from_deck(rules, dealer, deck)

    @classmethod
    def from_deck(cls, rules: Rules, dealer: int, deck: Sequence[Card]) -> RoundState:
        """Deal ``deck`` (top first) as the rules say: one card at a time from the dealer's left."""
        cards = list(deck)
        dealer_joker = False
        if rules.dealers_gambit:
            # Before the deal one joker is set aside: it becomes the dealer's joker.
            if JOKER not in cards:
                raise ValueError("dealers_gambit needs a joker in the pack for the dealer's joker")
            cards.remove(JOKER)
            dealer_joker = True
        n = rules.players
        hands: list[list[Card]] = [[] for _ in range(n)]
        order = [(dealer + rules.step * i) % n for i in range(1, n + 1)]
        pos = 0
        need = n * rules.n_hand + (1 if rules.first_discard is _FIRST_DISCARD_FIRST_PLAYER else 0)
        if rules.first_discard is _FIRST_DISCARD_UPCARD:
            need += 1
        if len(cards) < need:
            raise ValueError(f"the pack has {len(cards)} cards but the deal needs {need}")
        for _ in range(rules.n_hand):
            for seat in order:
                hands[seat].append(cards[pos])
                pos += 1
        discard: list[Card] = []
        if rules.first_discard is _FIRST_DISCARD_FIRST_PLAYER:
            hands[order[0]].append(cards[pos])
            pos += 1
        else:
            discard.append(cards[pos])
            pos += 1
        stock = cards[pos:]
        return cls._start(rules, dealer, hands, stock, discard, dealer_joker)

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        discard: Sequence[Card],
    ) -> RoundState:
        """Start from a given position: ``stock`` top first, ``discard`` bottom first.

        Under Dealer's Gambit the dealer's joker lies beside the dealer and is
        not listed in the deal.
        """
        if len(hands) != rules.players:
            raise ValueError(f"the deal has {len(hands)} hands but the game has {rules.players} players")
        return cls._start(rules, dealer, [list(h) for h in hands], list(stock), list(discard), rules.dealers_gambit)

    @classmethod
    def _start(
        cls,
        rules: Rules,
        dealer: int,
        hands: list[list[Card]],
        stock_top_first: list[Card],
        discard: list[Card],
        dealer_joker: bool,
    ) -> RoundState:
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer {dealer} is not a seat of a {rules.players}-player game")
        n = rules.players
        to_move = (dealer + rules.step) % n
        if rules.dealers_gambit:
            phase = _PH_NOMINATE
            to_move = dealer  # the dealer nominates before anyone looks at their cards
        elif rules.first_discard is _FIRST_DISCARD_FIRST_PLAYER:
            phase = _PH_PLAY  # the 10-and-11th-card deal: the first player starts the pile by discarding
        else:
            phase = _PH_DRAW
        no = (False,) * n
        public = Public(
            players=n,
            dealer=dealer,
            to_move=to_move,
            phase=phase,
            hand_sizes=tuple(map(len, hands)),
            stock_count=len(stock_top_first),
            discard=tuple(discard),
            melds=(),
            known=((),) * n,
            obligation=None,
            taken_top=None,
            drawn=0,
            turn_points=0,
            turn_long_run=False,
            opened=(rules.first_meld_min == 0,) * n,
            has_melded=no,
            floating=no,
            removed=(),
            last_discarder=None,
            drew_last_card=None,
            gambit=None,
            dealer_joker="available" if dealer_joker else None,
            claimed_card=None,
            turns=0,
            declined=_NOBODY,
            went_out=None,
            round_scores=None,
        )
        s = cls.from_parts(rules, public, hands, stock_top_first)
        if phase is _PH_DRAW:
            d = s.public = _open(s.public)
            s._begin_turn(d)
            _seal(d)
        return s

    @classmethod
    def from_parts(
        cls,
        rules: Rules,
        public: Public,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        masters: int | None = None,
    ) -> RoundState:
        """A round made of its public value and its private parts: the ``hands`` and the ``stock`` (top first).

        The public fields derived from the private parts (``players``,
        ``hand_sizes``, ``stock_count``, ``round_scores``) are set from them,
        and each seat's ``known`` cards are kept sorted. ``masters``: the seat
        that went out with a Master's Hand, for a round that is over.

        Raises:
            ValueError: the parts do not fit the rules (seats, dealer, seat to move).
        """
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"the round has {len(hands)} hands but the game has {n} players")
        for name in ("dealer", "to_move"):
            value = getattr(public, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
                raise ValueError(f"{name} {value!r} is not a seat of a {n}-player game")
        for name in ("known", "opened", "has_melded", "floating"):
            if len(getattr(public, name)) != n:
                raise ValueError(f"{name} has {len(getattr(public, name))} seats but the game has {n} players")
        s = cls.__new__(cls)
        s.rules = rules
        s.n = n
        s.hands = [list(h) for h in hands]
        s.stock = list(reversed(stock))
        s.masters = masters
        s.result = None
        s._legal_cache = None
        s._idx = [None] * n
        d = _open(public)
        d.players = n
        d.phase = Phase(public.phase)
        d.hand_sizes = tuple(map(len, s.hands))
        d.stock_count = len(s.stock)
        d.known = tuple(tuple(sorted(k)) for k in public.known)
        d.round_scores = None
        if d.phase is _PH_OVER:
            s.result = score_round(rules, d.melds, s.hands, d.went_out, masters=masters)
            d.round_scores = tuple(s.result.round_scores)
        s.public = _seal(d)
        return s

    def copy(self) -> RoundState:
        """An independent copy: the hands and the stock are copied, the public value is shared."""
        c = _new(RoundState)
        c.rules = self.rules
        c.n = self.n
        c.hands = [h[:] for h in self.hands]
        c.stock = self.stock[:]
        c.public = self.public
        c.masters = self.masters
        c.result = self.result
        c._legal_cache = None
        c._idx = self._idx[:]
        return c

    def forget_caches(self) -> None:
        """Drop what the state remembers about its hands (call it after editing ``hands`` or ``stock`` directly)."""
        self._legal_cache = None
        self._idx = [None] * self.n

    def _index(self, seat: int) -> fastmeld.Hand:
        """The index of ``seat``'s meld hand (kept until the hand changes)."""
        got = self._idx[seat]
        if got is None:
            got = self._idx[seat] = fastmeld.scan(self._meld_hand(seat))
        return got

    def _scratch(self) -> tuple[RoundState, Draft]:
        """A copy to try a play on, and its public value as a draft (see :meth:`apply`)."""
        c = self.copy()
        c._idx = [None] * c.n  # the trial edits its hands directly
        d = c.public = _open(c.public)
        return c, d

    # --------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        """True once the round has ended."""
        return self.public.phase is _PH_OVER

    def stock_top_first(self) -> list[Card]:
        """The stock as a record lists it: top card first."""
        return list(reversed(self.stock))

    def round_scores(self) -> list[int]:
        """Each seat's score for the round (raises if the round is not over)."""
        if self.result is None:
            raise ValueError("the round is not over")
        return list(self.result.round_scores)

    def next_seat(self, seat: int) -> int:
        """The seat that plays after ``seat``."""
        return (seat + self.rules.step) % self.n

    def _jokers_wild(self) -> bool:
        p = self.public
        if p.gambit is not None:
            return p.gambit == "wild"
        return self.rules.jokers_wild

    def _extra_jokers(self, seat: int) -> int:
        """The dealer's joker, while it is free, counts as a joker the dealer holds."""
        p = self.public
        return 1 if seat == p.dealer and p.dealer_joker == "available" else 0

    def _meld_hand(self, seat: int, hand: Sequence[Card] | None = None) -> list[Card]:
        """The cards usable for melding: jokers drop out when they are not wild this hand."""
        p = self.public
        h = self.hands[seat] if hand is None else hand
        if p.gambit is not None and p.gambit != "wild":
            return [c for c in h if c != JOKER]
        return list(h)

    def _meld_extra(self, seat: int) -> int:
        """The free dealer's joker while jokers are wild this hand (what :meth:`_extra_jokers` adds to melding)."""
        p = self.public
        if p.dealer_joker != "available" or seat != p.dealer:
            return 0
        return 0 if p.gambit is not None and p.gambit != "wild" else 1

    def free_jokers(self, seat: int) -> int:
        """Jokers ``seat`` may use without holding them: the dealer's joker while it is free (Dealer's Gambit)."""
        return self._extra_jokers(seat)

    def hand_cards_used(self, seat: int, cards: Sequence[Card]) -> int:
        """How many cards of ``seat``'s hand laying ``cards`` uses (the free dealer's joker stands in for one joker)."""
        return self._hand_cost(seat, cards)[0]

    def meld_of(self, seat: int, cards: Sequence[Card]) -> TableMeld:
        """The table meld ``cards`` would make if ``seat`` laid them now.

        Raises:
            MeldError: the cards make no meld (the message says why).
        """
        return self._build_meld(seat, cards, len(self.public.melds))

    def may_extend(self, seat: int, meld: TableMeld) -> bool:
        """``layoff_onto``: whether ``seat`` may lay off on ``meld``."""
        return self.rules.may_lay_off_on(seat, meld.owner)

    def may_lay_off_now(self, seat: int) -> bool:
        """Whether ``seat`` may lay off at all now (``first_meld_min``, ``layoff_needs_own_meld``)."""
        return self._may_layoff_now(seat)

    def _may_layoff_now(self, seat: int) -> bool:
        p = self.public
        if not p.opened[seat]:
            return False  # first_meld_min: no lay-offs before the opening melds
        # layoff_needs_own_meld: only after a meld of one's own this round.
        return not (self.rules.layoff_needs_own_meld and not p.has_melded[seat])

    # ---------------------------------------------------------- legal actions
    def legal_actions(self, seat: SupportsIndex | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to move) may take now.

        A whole number that is no seat of this game has none.

        Raises:
            IllegalAction: ``seat`` is not a whole number (a bool, a float, a string), as :meth:`apply` refuses it.
        """
        return list(self._legal_list(self.public.to_move if seat is None else self._asking(seat)))

    def legal_count(self, seat: SupportsIndex | None = None) -> int:
        """How many actions ``seat`` (default: the seat to move) may take now: ``len(legal_actions(seat))`` without a copy."""
        return len(self._legal_list(self.public.to_move if seat is None else self._asking(seat)))

    def legal_action(self, i: int, seat: SupportsIndex | None = None) -> Action:
        """Action ``i`` of ``legal_actions(seat)`` (same order), without copying the list.

        Raises:
            IndexError: ``i`` is not below :meth:`legal_count`.
        """
        acts = self._legal_list(self.public.to_move if seat is None else self._asking(seat))
        if not 0 <= i < len(acts):
            raise IndexError(f"legal action {i} of {len(acts)}")
        return acts[i]

    def _asking(self, seat: SupportsIndex | None) -> int:
        """The seat a question about legal actions is for: the seat to move for None, -1 for a whole number that is no seat.

        Raises:
            IllegalAction: ``seat`` is not a whole number.
        """
        if seat is None:
            return self.public.to_move
        if type(seat) is int and 0 <= seat < self.n:
            return seat  # (the usual case, taken as it is)
        s = seat_number(seat, self.n)
        return s if 0 <= s < self.n else -1

    def _legal_list(self, seat: int) -> list[Action]:
        """The cached legal list of ``seat`` (do not mutate it)."""
        cached = self._legal_cache
        if cached is None:
            acts = self._legal(seat)
            self._legal_cache = {seat: acts}
            return acts
        got = cached.get(seat)
        if got is None:
            got = cached[seat] = self._legal(seat)
        return got

    def is_legal(self, action: Action, seat: SupportsIndex | None = None) -> bool:
        """Whether ``seat`` (default: the seat to move) may play ``action`` now (cached per position).

        False for a whole number that is no seat of this game.

        Raises:
            IllegalAction: ``seat`` is not a whole number, as :meth:`apply` refuses it.
        """
        p = self.public
        asking = p.to_move if seat is None else self._asking(seat)
        if isinstance(action, Reshuffle):
            return p.phase is _PH_SHUFFLE and asking >= 0 and Counter(action.cards) == Counter(p.discard[:-1])
        found = self._as_listed(action, asking)
        return found is not None and (found is action or _same_kinds(found, listed_form(action)))

    def _as_listed(self, action: Action, seat: int) -> Action | None:
        """The legal list's own action equal to ``action``, or None (a discard of several cards may name them in any order)."""
        acts = self._legal_list(seat)
        for listed in acts:
            if listed is action:
                return listed  # the action itself, taken from the list (the common case: no equality tests)
        want = listed_form(action)  # (the list has a discard's cards ascending)
        for listed in acts:
            if listed == want:
                return listed
        return None

    def checked(self, action: Action, seat: int | None = None) -> Action:
        """``action`` as the engine lists it, if ``seat`` (default: the seat to move) may play it now.

        An action only *equal* to a legal one (plain ints for cards, ``Take(True)``,
        ``on=0.0``) becomes the engine's own object, so nothing but cards and
        whole numbers is ever played or recorded. A discard of several cards
        keeps the order given (any order is legal; the last one ends on top).

        Raises:
            IllegalAction: not legal now, saying why; or ``seat`` is no seat of this game.
        """
        p = self.public
        seat = p.to_move if seat is None else seat_number(seat, self.n)
        if isinstance(action, Reshuffle):
            self._check_reshuffle(action, seat, True)
            return Reshuffle(tuple(card(int(c)) for c in action.cards))
        found = self._as_listed(action, seat)
        if found is action:
            return found
        if found is not None:
            want = listed_form(action)
            if not _same_kinds(found, want):
                raise IllegalAction(f"{action!r} is not written with cards and whole numbers (a bool or a float is neither)")
            if found is not want and isinstance(action, Discard) and len(action.cards) > 1:
                return Discard(tuple(card(int(c)) for c in action.cards))  # the order given: the last card ends on top
            return found
        try:
            why = self.explain(action, seat)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            why = f"{action!r} is not a legal action now"
        raise IllegalAction(why)

    def offer_order(self) -> list[int]:
        """The seats other than the one to move, in the order out-of-turn offers go to them.

        Offers follow the order of play from the seat to move: the seat whose
        turn comes first is asked first (at a table the nearest player speaks
        first; a fixed order keeps every simulation reproducible).
        """
        out = []
        s = self.public.to_move
        for _ in range(self.n - 1):
            s = self.next_seat(s)
            out.append(s)
        return out

    def decision(self, skip: Iterable[int] = ()) -> Decision | None:
        """Who decides now, and among what; None once the round is over.

        ``skip``: seats whose offers to pass over as if declined (a server
        does not wait for people, who may call at any moment).

        Each seat with an out-of-turn play (a Rummy call, a meld out of turn)
        that has not declined this position is offered it first, in
        :meth:`offer_order`; then the seat to move decides. A decline lasts
        until the position changes (any other action); then everybody with a
        play is offered again. :meth:`apply` still accepts any legal action
        of any seat at any time: a play by the seat to move implicitly passes
        over pending offers (records keep no declines).
        """
        got = self.decider(skip)
        return None if got is None else Decision(*got)

    def decider(self, skip: Iterable[int] = ()) -> tuple[DecisionKind, int | None, tuple[Action, ...]] | None:
        """What :meth:`decision` says, as a plain ``(kind, seat, legal)`` tuple (cheaper: the environments' path)."""
        p = self.public
        phase = p.phase
        if phase is _PH_OVER:
            return None
        if phase is _PH_SHUFFLE:
            return (_CHANCE, None, ())
        # Out of turn only Rummy calls (draw phase) or melds out of turn are played (see actors()).
        if self.rules.meld_out_of_turn or not self._nobody_calls():
            declined = p.declined.union(skip) if skip else p.declined
            for s in self.offer_order():
                if s in declined:
                    continue
                acts = self._legal_list(s)
                if acts:
                    return (_OFFER, s, tuple(acts))
        return (_TURN, p.to_move, tuple(self._legal_list(p.to_move)))

    def actors(self) -> list[int]:
        """Seats with a legal action now, the seat to move first."""
        p = self.public
        if p.phase in (_PH_OVER, _PH_SHUFFLE):
            return []
        out = [p.to_move]
        if not self.rules.meld_out_of_turn and self._nobody_calls():
            return out  # out of turn only Rummy calls (draw phase) or melds out of turn are played
        for i in range(1, self.n):
            s = (out[0] + i) % self.n
            # Out of turn a seat's list is empty exactly when it has no out-of-turn play.
            if self._legal_list(s):
                out.append(s)
        return out

    def _legal(self, seat: int) -> list[Action]:
        p = self.public
        if seat == p.to_move:  # the seat to move in its turn: the common case first
            phase = p.phase
            if phase is _PH_PLAY:
                return self._play_actions(seat)
            if phase is _PH_DRAW:
                return self._draw_actions(seat)
        if not 0 <= seat < self.n or p.phase in (_PH_OVER, _PH_SHUFFLE):
            return []
        if p.phase is _PH_NOMINATE:
            return [Nominate(m) for m in ("wild", "double", "split")] if seat == p.dealer else []
        if seat != p.to_move:
            acts = self._out_of_turn(seat)
            if acts and seat not in p.declined:
                acts.append(Decline())
            return acts
        if p.phase is _PH_DRAW:
            return self._draw_actions(seat)
        return self._play_actions(seat)

    def _draw_actions(self, seat: int) -> list[Action]:
        p = self.public
        rules = self.rules
        acts: list[Action] = []
        if self.stock:
            acts.append(_DRAW)
        pile = p.discard
        depth = len(pile) if rules.discard_draw is _DISCARD_DRAW_ANY_DEPTH else min(1, len(pile))
        hand = self.hands[seat]
        quick = (
            not rules.around_the_corner
            and rules.set_suits is _SET_SUITS_DISTINCT
            and not (seat == p.dealer and p.dealer_joker == "available")  # no dealer's joker
            and JOKER not in hand
            and not (rules.joker_swap and self._jokers_to_swap())  # nor a joker to be had by a swap (for a card of the pile too)
        )
        must_use = rules.must_use_taken is _MUST_USE_TAKEN_ALWAYS
        if depth and not must_use and (rules.discard_back or hand):
            acts.append(_TAKES[1])  # the top card alone may simply be kept
            start = 2
        else:
            start = 1
        index = (self._idx[seat] or self._index(seat)) if quick else None  # no joker held: the meld hand is the hand
        have = index.mask if index is not None else 0
        # The hand with the cards taken is indexed by ``have`` alone while it holds no joker and
        # no card twice (then _take_ok's answer is worked out on the mask: _can_use_mask).
        plain = index is not None and index.dups is None and p.opened[seat]
        near = _near_table(p.melds) if quick and depth >= start else 0
        if not quick:
            for k in range(start, depth + 1):
                if self._take_ok(seat, k, split=False):
                    acts.append(_TAKES[k] if k < len(_TAKES) else Take(k))
        else:
            for k in range(1, depth + 1):
                c = pile[-k]
                if c == JOKER:
                    # From here down the cards taken hold a joker: the full test at every depth.
                    for deeper in range(max(k, start), depth + 1):
                        if self._take_ok(seat, deeper, split=False):
                            acts.append(_TAKES[deeper] if deeper < len(_TAKES) else Take(deeper))
                    break
                v: int = c  # the card's value as a plain int (the compiled build's bit operations on it stay native)
                b = 1 << v
                if have & b:
                    plain = False  # a card held twice (two packs)
                have |= b
                if k < start:
                    continue
                # A cheap necessary condition (no joker held) for c to be melded or laid off:
                # three of c's rank, three in a row through c, or c near a table meld.
                r = v & 15
                if (have >> r & RANK_COLUMN).bit_count() < 3:  # fewer than three of c's rank
                    sm = (have >> (v & 48)) & RANKS
                    w = (sm | (sm & 2) << 13) << 2  # position q (the ace at 1 and 14) at bit q + 2
                    t3 = w & w >> 1 & w >> 2  # bit b: positions b - 2 .. b held
                    if not ((t3 >> 1 | t3 >> 14) & 7 if r == 1 else t3 >> r & 7) and (
                        not near >> v & 1 or not self._might_lay_off(c, sm | (sm & 2) << 13)
                    ):
                        continue
                if plain:
                    # What _take_ok answers for this hand without jokers or duplicates.
                    if (k > 1 or must_use or not (rules.discard_back or hand)) and not self._can_use_mask(seat, have, len(hand) + k, c):
                        continue
                    acts.append(_TAKES[k] if k < len(_TAKES) else Take(k))
                elif self._take_ok(seat, k, split=False):
                    acts.append(_TAKES[k] if k < len(_TAKES) else Take(k))
        if p.gambit == "split" and self._joker_for(seat):
            for k in range(2, len(pile) + 1):
                if rules.discard_draw is _DISCARD_DRAW_ANY_DEPTH and self._take_ok(seat, k, split=True):
                    acts.append(Take(k, split=True))
        if not self.stock:
            takes = any(isinstance(a, Take) for a in acts)
            if rules.stock_out is not _STOCK_OUT_PLAY_ON or not takes:
                acts.append(_PASS)
        if rules.calling_rummy is not _CALLING_RUMMY_OFF:
            acts.extend(self._call_actions(seat))  # the player about to draw may call Rummy too
        if p.dealer_joker == "available":
            acts.extend(self._block_actions(seat))
        return acts


    def _might_lay_off(self, c: Card, sm: int) -> bool:
        """Necessary condition: natural ``c`` could go on a table meld, with held cards of rank mask ``sm`` (the ace at bits 1 and 14).

        The draw phase's cheap test of a pile card, when the hand and the cards
        above it make no meld through it.
        """
        r = c & 15
        melds = self.public.melds
        if fastmeld.table_fits(fastmeld.tables(self.rules), melds) >> c & 1:
            return True  # c alone goes on some meld
        # Else c goes on no set (nor with other cards: a set takes one card per suit), and on a
        # run only with every card between the run's end and c (positions 2..13: ranks).
        suit = c >> 4
        for meld in melds:
            if meld.suit == suit and meld.kind == RUN:
                lo, hi = meld.positions[0], meld.positions[-1]
                for p in (1, 14) if r == 1 else (r,):
                    if p < lo:
                        need = ((1 << lo) - 1) ^ ((2 << p) - 1)  # positions p + 1 .. lo - 1
                        if sm & need == need:
                            return True
                    elif p > hi:
                        need = ((1 << p) - 1) ^ ((2 << hi) - 1)  # positions hi + 1 .. p - 1
                        if sm & need == need:
                            return True
        return False

    def _block_actions(self, seat: int) -> list[Action]:
        p = self.public
        hand = self.hands[seat]
        if p.dealer_joker != "available" or seat == p.dealer or JOKER not in hand:
            return []
        # The blocking joker leaves the hand: keep a card to play on with, never spend a
        # joker that must still be used, and never strand the top card just taken.
        if len(hand) < 2 or p.obligation == JOKER and hand.count(JOKER) == 1:
            return []
        if p.phase is _PH_PLAY and self._strands_taken_card(seat, (JOKER,), 1):
            return []
        if p.phase is _PH_PLAY and (p.obligation is not None or not self._opening_done(seat)):
            # Nor spend a joker the turn still needs: to use the card taken from the
            # pile, or to complete an opening begun under first_meld_min.
            rest = list(hand)
            rest.remove(JOKER)
            if p.obligation is not None and not self._can_use(seat, rest, p.obligation):
                return []
            if not self._opening_done(seat) and not self._can_reach(seat, rest, self.rules.first_meld_min - p.turn_points):
                return []
        return [Block()]

    def _joker_for(self, seat: int) -> bool:
        return JOKER in self.hands[seat] or self._extra_jokers(seat) > 0

    def _play_actions(self, seat: int) -> list[Action]:
        p = self.public
        hand = self.hands[seat]
        rules = self.rules
        if not hand:
            # floating / unplayable_discard: the hand is melded out; the turn ends by floating.
            return [_FLOAT]
        index = self._idx[seat]  # one index for the melds and the lay-offs
        if index is None:
            index = self._index(seat)
        acts: list[Action]
        plain = (
            index.jokers == 0
            and index.dups is None
            and p.obligation is None
            and p.gambit is None
            and p.opened[seat]
            and not (seat == p.dealer and p.dealer_joker == "available")
        )
        if plain:
            acts = self._plain_plays(seat, index, hand)
        else:
            acts = self._meld_actions(seat, in_turn=True, index=index)
            if p.melds:
                acts.extend(self._layoff_actions(seat, in_turn=True, index=index))
        if p.melds and rules.joker_swap:
            acts.extend(self._swap_actions(seat))
        if p.dealer_joker == "available":
            acts.extend(self._block_actions(seat))
        if plain or p.obligation is None and self._opening_done(seat):
            need = max(1, p.drawn) if rules.discard_count is _DISCARD_COUNT_MATCH_DRAWN else 1
            count = min(need, len(hand))
            if count == 1:
                top = p.taken_top
                if plain or index.dups is None and index.jokers == 0 and p.gambit is None:
                    # Distinct natural cards: each once, ascending, bar the top card just taken.
                    held: Iterable[Card] = sorted(hand)
                    if top is not None and not rules.discard_back:
                        held = [c for c in held if c != top]
                else:
                    held_set = set(hand)
                    if top is not None and not rules.discard_back and hand.count(top) == 1:
                        held_set.discard(top)
                    held = sorted(held_set)
                acts.extend(map(_DISCARD_OF, held))
            else:
                counts = Counter(hand)
                if p.taken_top is not None and not rules.discard_back:
                    counts[p.taken_top] -= 1
                for combo in sorted(set(combinations(sorted(counts.elements()), count))):
                    acts.append(Discard(combo))
        return acts


    def _plain_plays(self, seat: int, index: fastmeld.Hand, hand: list[Card]) -> list[Action]:
        """The melds and lay-offs of the seat to move when its hand is plain (the common case).

        Plain: an opened hand of distinct natural cards, no joker (nor the dealer's), no
        Dealer's Gambit, no card taken from the pile to use. Then only the number of cards
        left and a stranded top card can rule a play out: what :meth:`_meld_actions` and
        :meth:`_layoff_actions` return, in the same order, without their general checks.
        """
        p = self.public
        rules = self.rules
        t = fastmeld.tables(rules)
        room = len(hand) - (1 if rules.going_out is _GOING_OUT_DISCARD_REQUIRED else 0)
        strand = p.taken_top is not None and not rules.discard_back
        last = len(hand) - 1  # a play of this many cards leaves one
        acts: list[Action] = []
        for cards in fastmeld.all_melds(t, index, 0):
            used = len(cards)
            if used > room or strand and used == last and self._strands_taken_card(seat, cards, used, None):
                continue
            act = _MELD_ACTIONS.get(cards)
            acts.append(act if act is not None else _meld_action(cards))
        melds = p.melds
        if not melds or rules.layoff_needs_own_meld and not p.has_melded[seat]:
            return acts
        mask = index.mask
        union, each = fastmeld.table_fits_each(t, melds)
        if not union & mask:
            return acts  # no card of the hand fits alone on any meld: nothing can be laid off
        anyone = rules.layoff_onto is _LAYOFF_ONTO_ANY
        layoffs_of = fastmeld.layoffs_of
        cache = _LAYOFF_ACTIONS
        for meld, fit in zip(melds, each, strict=True):
            if not fit & mask or not anyone and not rules.may_lay_off_on(seat, meld.owner):
                continue
            on = meld.id
            for cards in layoffs_of(t, meld, index, 0):
                used = len(cards)
                if used > room or strand and used == last and self._strands_taken_card(seat, cards, used, on):
                    continue
                lay = cache.get((cards, on))
                acts.append(lay if lay is not None else _layoff_action(cards, on))
        return acts

    def _opening_done(self, seat: int) -> bool:
        """first_meld_min: a turn that began melding must reach the minimum before it ends."""
        p = self.public
        return p.opened[seat] or p.turn_points == 0

    def _out_of_turn(self, seat: int) -> list[Action]:
        p = self.public
        if seat == p.to_move or p.phase in (_PH_OVER, _PH_SHUFFLE, _PH_NOMINATE):
            return []
        acts = self._call_actions(seat)
        if self.rules.meld_out_of_turn and (p.phase is _PH_DRAW or (p.obligation is None and not self._holds_only_taken_top())):
            # Out of turn a player never plays their last card: going out happens on one's own turn.
            acts.extend(self._meld_actions(seat, in_turn=False))
            acts.extend(self._layoff_actions(seat, in_turn=False))
        return acts

    def _holds_only_taken_top(self) -> bool:
        """Whether the player to move holds only the single top card just taken, which they may not discard.

        They can only lay it off (going out); a meld or lay-off out of turn
        could take its place on the table and leave them without a move, so
        out-of-turn play waits, as it does for a card taken that must be used.
        """
        p = self.public
        return p.taken_top is not None and not self.rules.discard_back and self.hands[p.to_move] == [p.taken_top]

    # -- melds and lay-offs
    def _keep_min(self, seat: int, in_turn: bool) -> int:
        """Cards that must stay in hand after a meld or lay-off."""
        if not in_turn or self.rules.going_out is _GOING_OUT_DISCARD_REQUIRED:
            return 1
        return 0

    def _hand_cost(self, seat: int, cards: Sequence[Card]) -> tuple[int, int]:
        """(hand cards used, dealer's-joker uses) for laying ``cards`` from ``seat``'s hand."""
        jokers = sum(1 for c in cards if c >= 64)
        extra = min(jokers, self._extra_jokers(seat))
        return len(cards) - extra, extra

    def _meld_actions(self, seat: int, in_turn: bool, index: fastmeld.Hand | None = None) -> list[Action]:
        p = self.public
        hand = self.hands[seat]
        if index is None:
            index = self._index(seat)
        melds = fastmeld.all_melds(fastmeld.tables(self.rules), index, self._meld_extra(seat))
        if p.gambit == "double" and self._joker_for(seat):
            # Dealer's Gambit, double: a joker may be placed on a set as it is melded.
            doubled = [m + (JOKER,) for m in melds if len({c.rank for c in m}) == 1 and len(m) <= 4]
            melds = melds + doubled
        if not melds:
            return []
        room = len(hand) - self._keep_min(seat, in_turn)
        dealers = self._extra_jokers(seat)
        # Only these plays can strand the top card just taken, or leave the taken card unused.
        strand = in_turn and p.taken_top is not None and not self.rules.discard_back
        obligation = p.obligation if in_turn else None
        opened = p.opened[seat]
        ways = self._ways_to_use(seat, obligation, index)
        out: list[Action] = []
        for cards in melds:
            used = len(cards) - min(sum(1 for c in cards if c >= 64), dealers) if dealers else len(cards)
            if used > room:
                continue
            if strand and len(hand) - used == 1 and self._strands_taken_card(seat, cards, used, None):
                continue
            if (
                obligation is not None
                and not fastmeld.holds(cards, obligation)
                and not (ways and fastmeld.spared(ways, cards, index.jokers, room - used))
                and not (
                    self._lays_off_after(seat, cards, None, index) if ways is not None else self._still_usable(seat, cards, None)
                )
            ):
                continue
            if not opened and not self._opening_ok(seat, cards, in_turn):
                continue
            out.append(_meld_action(cards))
        return out


    def _layoff_actions(self, seat: int, in_turn: bool, index: fastmeld.Hand | None = None) -> list[Action]:
        p = self.public
        if not p.melds or not self._may_layoff_now(seat):
            return []
        hand = self.hands[seat]
        rules = self.rules
        if index is None:
            index = self._index(seat)
        tables = fastmeld.tables(rules)
        jokers = index.jokers + self._meld_extra(seat)
        mask = index.mask
        melds: Iterable[TableMeld]
        if jokers:
            melds = p.melds
        else:
            if not fastmeld.table_fits(tables, p.melds) & mask:
                return []  # no card of the hand fits alone on any meld: nothing can be laid off
            # Only the melds some card of the hand fits alone on (nothing else goes on the others).
            melds = [m for m, f in zip(p.melds, fastmeld.each_fits(tables, p.melds), strict=True) if f & mask]
        room = len(hand) - self._keep_min(seat, in_turn)
        dealers = self._extra_jokers(seat)
        strand = in_turn and p.taken_top is not None and not rules.discard_back
        obligation = p.obligation if in_turn else None
        new_meld_only = rules.taken_card_use is _TAKEN_CARD_USE_NEW_MELD
        anyone = rules.layoff_onto is _LAYOFF_ONTO_ANY
        ways = self._ways_to_use(seat, obligation, index) if obligation is not None else None
        out: list[Action] = []
        layoffs_of = fastmeld.layoffs_of
        for meld in melds:
            if not anyone and not self.may_extend(seat, meld):
                continue
            found = layoffs_of(tables, meld, index, jokers)
            if not found:
                continue
            on = meld.id
            for cards in found:
                used = len(cards) - min(sum(1 for c in cards if c >= 64), dealers) if dealers else len(cards)
                if used > room:
                    continue
                if strand and len(hand) - used == 1 and self._strands_taken_card(seat, cards, used, on):
                    continue
                if obligation is not None:
                    holds = fastmeld.holds(cards, obligation)
                    if new_meld_only and holds:
                        continue
                    spared = ways and fastmeld.spared(ways, cards, index.jokers, room - used)
                    if not holds and not spared:
                        if ways is not None:
                            if not self._lays_off_after(seat, cards, on, index):
                                continue
                        elif not self._still_usable(seat, cards, on):
                            continue
                out.append(_layoff_action(cards, on))
        return out


    def _swap_actions(self, seat: int) -> list[Action]:
        if not self.rules.joker_swap:
            return []
        hand = self.hands[seat]
        out: list[Action] = []
        for meld in self.public.melds:
            for c in meld.cards:
                if c >= 128 and c.natural in hand:
                    act = Swap(c.natural, meld.id)
                    if act not in out and self._swap_keeps_obligation(seat, act):
                        out.append(act)
        return out

    def _swap_keeps_obligation(self, seat: int, swap: Swap) -> bool:
        """A swap is no use of a card taken from the pile: the card must still be usable after it."""
        if self.public.obligation is None:
            return True
        sim, d = self._scratch()
        sim._do_swap(d, seat, swap.card, swap.on)
        return self.public.obligation in sim.hands[seat] and sim._can_use(seat, sim.hands[seat], self.public.obligation)

    def _strands_taken_card(self, seat: int, cards: Sequence[Card], used: int, onto: int | None | bool = False) -> bool:
        """Whether a play would leave only the top card just taken, which may not be discarded.

        ``onto`` names the play (None: a new meld, an id: a lay-off; False: no
        play on the table). After a meld or lay-off the taken card is not
        stranded when it can itself be laid off next: the player goes out with it.
        """
        hand = self.hands[seat]
        if self.public.taken_top is None or self.rules.discard_back or len(hand) - used != 1:
            return False
        rest = list(hand)
        _remove(rest, _bare(cards)[:used])
        if rest[0] != self.public.taken_top:
            return False
        if self.rules.joker_swap and self._swappable(rest, None):
            return False  # it can take a table joker's place, and the joker go on or be thrown
        if onto is False:
            return True
        sim, d = self._scratch()
        sim._do_lay(d, seat, cards, onto, check_out=False)
        if not sim._may_layoff_now(seat):
            return True
        return not sim._layoff_uses(seat, sim.hands[seat], self.public.taken_top, self._keep_min(seat, True), sim._meld_extra(seat))

    def _ways_to_use(self, seat: int, obligation: Card | None, index: fastmeld.Hand) -> list[tuple[int, int, int]] | None:
        """New melds that use the card taken from the pile, for plays that leave them alone (None: check each play in full).

        Such a meld still stands after a play that uses none of its cards, so an
        opened hand can still use the card (see :meth:`_still_usable`).
        """
        p = self.public
        if obligation is None or p.gambit is not None or not p.opened[seat] or self._extra_jokers(seat) or index.dups is not None:
            return None
        if self.rules.joker_swap and (JOKER in self.hands[seat] or self._jokers_to_swap()):
            return None  # a swap (of a joker on the table, or of one a play puts there) may give a joker that uses it
        return fastmeld.ways_to_use(fastmeld.tables(self.rules), index, index.jokers, obligation)

    def _lays_off_after(self, seat: int, cards: Sequence[Card], onto: int | None, index: fastmeld.Hand) -> bool:
        """:meth:`_still_usable` where :meth:`_ways_to_use` gave the melds through the taken card and none is spared.

        Then no new meld can use the card after the play (those would be spared ways), so
        it stays usable only by a lay-off onto the table as the play leaves it. The new or
        extended meld is built only when the card could go on it.
        """
        p = self.public
        rules = self.rules
        c = p.obligation
        assert c is not None
        if rules.taken_card_use is _TAKEN_CARD_USE_NEW_MELD:
            return False
        if rules.layoff_needs_own_meld and onto is not None and not p.has_melded[seat]:
            return self._still_usable(seat, cards, onto)
        mask = 0
        jk = 0
        suits = 0
        ranks = 0
        for x in cards:
            code = int(x)
            if code >= 64:
                jk += 1
                if code < 128:
                    continue  # a bare joker stands for no card
                code -= 128  # the card a declared joker stands for
            else:
                mask |= 1 << code
            suits |= 1 << (code >> 4)
            ranks |= 1 << (code & 15)
        rest = fastmeld.Hand(index.mask & ~mask, index.jokers - jk, None)
        room = len(self.hands[seat]) - len(cards) - self._keep_min(seat, True)
        melds = p.melds
        if c == JOKER:
            near = True
        elif onto is None:
            # The new meld: a set of one rank, or a run of one suit.
            near = ranks == 1 << (c & 15) if ranks & (ranks - 1) == 0 else suits == 1 << (c >> 4)
        else:
            old = melds[onto]
            near = old.kind != RUN or old.suit == c >> 4
        if near:
            trial = list(melds)
            if onto is None:
                trial.append(self._build_meld(seat, cards, len(trial)))
            else:
                trial[onto] = extend_meld(trial[onto], cards, rules, seat)
            melds = tuple(trial)
        return fastmeld.lays_off(fastmeld.tables(rules), rules, melds, seat, rest, rest.jokers, c, room)

    def _still_usable(self, seat: int, cards: Sequence[Card], onto: int | None) -> bool:
        if self.public.gambit is not None or not self.public.opened[seat] or self._extra_jokers(seat):
            sim, d = self._scratch()
            sim._do_lay(d, seat, cards, onto, check_out=False)
            return sim._can_use(seat, sim.hands[seat], self.public.obligation)  # type: ignore[arg-type]
        # An opened hand without the dealer's joker: the lay changes only the hand,
        # the table and has_melded, so try it on those alone instead of on a copy.
        hand = list(self.hands[seat])
        _remove(hand, _bare(cards))
        saved = self.public
        melds = list(saved.melds)
        if onto is None:
            melds.append(self._build_meld(seat, cards, len(melds)))
        else:
            melds[onto] = extend_meld(melds[onto], cards, self.rules, seat)
        trial = self.public = _open(saved)
        trial.melds = tuple(melds)
        if onto is None:
            trial.has_melded = _with(saved.has_melded, seat, True)
        try:
            return self._can_use(seat, hand, saved.obligation)  # type: ignore[arg-type]
        finally:
            self.public = saved

    def _opening_ok(self, seat: int, cards: Sequence[Card], in_turn: bool) -> bool:
        """first_meld_min: this meld, with what else the hand can still meld, reaches the minimum."""
        try:
            meld = self._build_meld(seat, cards, 0)
        except MeldError:
            return False
        have = (self.public.turn_points if in_turn else 0) + new_meld_points(meld, self.rules)
        need = self.rules.first_meld_min - have
        if need <= 0:
            return True
        if not in_turn:
            return False
        used, spent = self._hand_cost(seat, cards)
        rest = list(self.hands[seat])
        _remove(rest, _bare(cards)[:used])
        return self._can_reach(seat, rest, need, extra=max(0, self._meld_extra(seat) - spent), base=self.hands[seat])

    def _can_reach(self, seat: int, hand: list[Card], need: int, extra: int = 0, base: Sequence[Card] | None = None) -> bool:
        """Whether new melds from ``hand`` (plus ``extra`` jokers: the dealer's) can make ``need`` points.

        Every set of melds that fit in the hand together is tried, however
        many it takes (:meth:`_reach_tables`). ``base``: a hand that holds
        ``hand`` (the seat's whole hand, when ``hand`` is what a meld leaves of
        it), whose melds and answers serve every part of it.
        """
        if need <= 0:
            return True
        options, per_card, memo = self._reach_tables(seat, hand if base is None else base, extra)
        if _most_points(per_card, hand) + _SLACK < need:
            return False  # not even every card at its best
        keep = self._keep_min(seat, True)

        def reach(free: tuple[Card, ...], left: int, extra: int, want: int) -> bool:
            # Whether new melds of ``free`` (the cards not yet placed, sorted) can make
            # ``want`` points, ``left`` cards being in hand: the first card goes into one
            # of its melds or stays in hand (so each set of melds is met once). A branch
            # whose cards, each at its best, fall short of what is still wanted is cut.
            # The answers are kept per (free, left, extra) as the most points known
            # reachable and the fewest known out of reach: they serve every ``want``.
            if want <= 0:
                return True
            if len(free) + extra < 3:
                return False
            key = (free, left, extra)
            known = memo.get(key)
            if known is not None:
                if want <= known[0]:
                    return True
                if want >= known[1]:
                    return False
            found = False
            if _most_points(per_card, free) + _SLACK >= want:
                first = free[0]
                have = Counter(free)
                for bare, counts, pts, spent in options.get(first, ()):
                    if spent > extra or len(bare) > left - keep or any(have[c] < n for c, n in counts.items()):
                        continue
                    if pts >= want:
                        found = True
                        break
                    rest = list(free)
                    _remove(rest, bare)
                    if reach(tuple(rest), left - len(bare), extra - spent, want - pts):
                        found = True
                        break
                else:
                    found = reach(free[1:], left, extra, want)
            got, out_of_reach = memo.get(key, (0, _NEVER))
            memo[key] = (max(got, want), out_of_reach) if found else (got, min(out_of_reach, want))
            return found

        return reach(tuple(sorted(hand)), len(hand), extra, need)

    def _reach_tables(
        self, seat: int, hand: Sequence[Card], extra: int
    ) -> tuple[dict[Card, list[tuple[list[Card], Counter[Card], int, int]]], dict[Card, float], dict[tuple[tuple[Card, ...], int, int], tuple[int, int]]]:
        """:meth:`_can_reach`'s tables for ``hand``: its melds by card, each card's most points, the answers so far.

        Each meld is (its hand cards, their counts, its points, dealer's jokers
        spent). A card's most points are its best part of a meld's points (in
        proportion to its value there) among the melds it is in: a set of
        melds never scores more than its cards' parts, so a hand whose parts
        fall short is answered at once. The tables of the last hand are kept: first_meld_min asks
        about each meld the hand could open with, and each asks about what it
        leaves of the same hand.
        """
        rules = self.rules
        key = (rules, tuple(sorted(hand)), self._keep_min(seat, True), extra, self.public.gambit)
        last = _REACH[0]  # one read: another thread may put a new answer there meanwhile
        if last[0] == key:
            return last[1], last[2], last[3]
        options: dict[Card, list[tuple[list[Card], Counter[Card], int, int]]] = {}
        per_card: dict[Card, float] = {}
        worth = _MELD_WORTH
        if len(worth) > _MELD_WORTH_MAX:
            worth.clear()
        for cards in find_melds(self._meld_hand(seat, hand), rules, extra):
            known = worth.get((rules, seat, extra, cards), _UNKNOWN)
            if known is _UNKNOWN:
                known = worth[rules, seat, extra, cards] = _meld_worth(cards, rules, seat, extra)
            if known is None:
                continue
            entry, shares = known
            for c, share in shares:
                if share > per_card.get(c, 0.0):
                    per_card[c] = share
            for c in set(entry[0]):
                options.setdefault(c, []).append(entry)
        memo: dict[tuple[tuple[Card, ...], int, int], tuple[int, int]] = {}
        _REACH[0] = (key, options, per_card, memo)
        return options, per_card, memo

    def _opens_then_lays_off(self, seat: int, hand: Sequence[Card], chosen: Card, keep: int, extra: int) -> bool:
        """first_meld_min: whether ``seat`` can open with new melds of ``hand`` without ``chosen``, then lay ``chosen`` off.

        The lay-off goes on a table meld (with other cards of the hand if it
        needs them); the opening melds are made of the cards left.
        """
        p = self.public
        rules = self.rules
        need = rules.first_meld_min - p.turn_points
        tables = fastmeld.tables(rules)
        index = fastmeld.scan(self._meld_hand(seat, hand))
        jokers = index.jokers + extra
        for meld in p.melds:
            if not self.may_extend(seat, meld):
                continue
            for group in fastmeld.layoffs_of(tables, meld, index, jokers):
                bare = _bare(group)
                if chosen not in bare:
                    continue
                spent = min(sum(1 for c in group if c >= 64), extra)
                used = len(group) - spent
                rest = list(hand)
                _remove(rest, bare[:used])
                if len(rest) < keep:
                    continue
                if self._can_reach(seat, rest, need, extra - spent):
                    return True
        return False

    # -- taking from the pile
    def _take_ok(self, seat: int, k: int, split: bool) -> bool:
        """Whether taking ``k`` cards leaves a turn that can be finished legally."""
        rules = self.rules
        pile = self.public.discard
        chosen = pile[-k]
        hand = self.hands[seat]
        if split:
            new_hand = list(hand) + [chosen]
            if JOKER in new_hand and self._extra_jokers(seat) == 0:
                new_hand.remove(JOKER)
            must_use = True
        else:
            new_hand = [*hand, *pile[-k:]]
            must_use = k > 1 or rules.must_use_taken is _MUST_USE_TAKEN_ALWAYS
        if must_use:
            return self._can_use(seat, new_hand, chosen, split_joker=split)
        if rules.discard_back or hand:
            return True
        # An empty (floating) hand takes the top card alone and may not discard it back:
        # it must be playable.
        return self._can_use(seat, new_hand, chosen)

    def _can_use(self, seat: int, hand: Sequence[Card], chosen: Card, split_joker: bool = False) -> bool:
        """Whether ``chosen`` (in ``hand``) can be melded or laid off this turn.

        With ``joker_swap`` a card of the hand may first be put in the place of
        a table joker that stands for it, the joker coming into hand.
        """
        return self._can_use_swapping(seat, hand, chosen, split_joker, ())

    def _can_use_swapping(self, seat: int, hand: Sequence[Card], chosen: Card, split_joker: bool, won: tuple[Card, ...]) -> bool:
        """:meth:`_can_use` after the swaps ``won`` (the naturals put in table jokers' places so far)."""
        if self._can_use_as_is(seat, hand, chosen, split_joker):
            return True
        if not self.rules.joker_swap:
            return False
        for c in dict.fromkeys(self._swappable(hand, chosen, won)):  # each card once
            after = list(hand)
            after.remove(c)
            after.append(JOKER)
            if self._can_use_swapping(seat, after, chosen, split_joker, (*won, c)):
                return True
        return False

    def _jokers_to_swap(self) -> bool:
        """Whether a joker on the table could be taken by a swap (``joker_swap``)."""
        return self.rules.joker_swap and any(m >= 128 for meld in self.public.melds for m in meld.cards)

    def _swappable(self, hand: Sequence[Card], keep: Card | None, won: Sequence[Card] = ()) -> list[Card]:
        """The cards of ``hand`` (``keep`` aside) that a joker on the table stands for (``joker_swap``).

        ``won``: naturals already swapped in (each took one table joker's place: with
        two packs, one joker standing for the 7S is won once, whichever 7S goes in).
        """
        out = []
        taken = Counter(won)
        for meld in self.public.melds:
            for m in meld.cards:
                if m >= 128 and m.natural != keep and m.natural in hand:
                    if taken[m.natural]:
                        taken[m.natural] -= 1
                        continue
                    out.append(m.natural)
        return out

    def _can_use_as_is(self, seat: int, hand: Sequence[Card], chosen: Card, split_joker: bool = False) -> bool:
        """:meth:`_can_use` without a joker swap first."""
        p = self.public
        rules = self.rules
        r = self.rules
        keep = self._keep_min(seat, True)
        extra = 0 if split_joker else self._meld_extra(seat)
        mhand = self._meld_hand(seat, hand)
        tables = fastmeld.tables(r)
        index = fastmeld.scan(mhand)
        melds: Sequence[tuple[Card, ...]]
        if chosen == JOKER and chosen not in mhand:
            if p.gambit != "double":
                return False  # a joker that is not wild this hand cannot be used
            # Dealer's Gambit, double: the joker goes on a set of the hand as it is melded.
            sets = fastmeld.all_melds(tables, index, extra)
            melds = [m + (JOKER,) for m in sets if len({c.rank for c in m}) == 1 and len(m) <= 4]
        else:
            melds = fastmeld.melds_using(tables, index, index.jokers + extra, chosen)
            if p.gambit == "double" and JOKER in hand:
                melds = [*melds, *(m + (JOKER,) for m in melds if len({c.rank for c in m}) == 1 and len(m) <= 4)]
        opened = p.opened[seat]
        for cards in melds:
            used = len(cards) - min(sum(1 for c in cards if c >= 64), extra) if extra else len(cards)
            if len(hand) - used < keep:
                continue
            if not opened:
                try:
                    pts = new_meld_points(self._build_meld(seat, cards, 0), rules)
                except MeldError:
                    continue
                need = rules.first_meld_min - p.turn_points - pts
                if need > 0:
                    rest = list(hand)
                    _remove(rest, _bare(cards)[:used])
                    if not self._can_reach(seat, rest, need, extra=extra - (len(cards) - used)):
                        continue
            return True
        if rules.taken_card_use is _TAKEN_CARD_USE_NEW_MELD:
            return False
        if not opened:
            # first_meld_min: open with other cards this turn, then lay the card off.
            return self._opens_then_lays_off(seat, hand, chosen, keep, extra)
        if rules.layoff_needs_own_meld and not p.has_melded[seat]:
            # Lay off only after a meld of one's own: meld something else first.
            for cards in find_melds(mhand, r, extra):
                if chosen in _bare(cards):
                    continue
                # The dealer's joker (``extra``) may stand in such a meld: it is not in the hand.
                used = len(cards) - min(sum(1 for c in cards if c >= 64), extra)
                rest = list(hand)
                _remove(rest, _bare(cards)[:used])
                if len(rest) - 1 < keep:
                    continue
                if self._layoff_uses(seat, rest, chosen, keep, extra - (len(cards) - used)):
                    return True
            return False
        return fastmeld.lays_off(tables, r, p.melds, seat, index, index.jokers + extra, chosen, len(hand) - keep)

    def _can_use_mask(self, seat: int, have: int, size: int, chosen: Card) -> bool:
        """:meth:`_can_use` for an opened hand of ``size`` cards with no joker and no card twice: the card mask ``have``.

        The seat has no dealer's joker either (the draw phase's quick case).
        """
        rules = self.rules
        keep = 1 if rules.going_out is _GOING_OUT_DISCARD_REQUIRED else 0
        tables = fastmeld.tables(rules)
        index = fastmeld.Hand(have, 0, None)
        for cards in fastmeld.melds_using(tables, index, 0, chosen):
            if size - len(cards) >= keep:
                return True
        if rules.taken_card_use is _TAKEN_CARD_USE_NEW_MELD:
            return False
        p = self.public
        if rules.layoff_needs_own_meld and not p.has_melded[seat]:
            held = self.hands[seat]
            return self._can_use(seat, [*held, *p.discard[len(held) - size :]], chosen)
        return fastmeld.lays_off(tables, rules, p.melds, seat, index, 0, chosen, size - keep)

    def _layoff_uses(self, seat: int, hand: Sequence[Card], chosen: Card, keep: int, extra: int) -> bool:
        index = fastmeld.scan(self._meld_hand(seat, hand))
        tables = fastmeld.tables(self.rules)
        return fastmeld.lays_off(tables, self.rules, self.public.melds, seat, index, index.jokers + extra, chosen, len(hand) - keep)

    # -- calling Rummy
    def _call_actions(self, seat: int) -> list[Action]:
        """Rummy calls: any seat but the one who just discarded, before the next player draws."""
        p = self.public
        if (
            self.rules.calling_rummy is _CALLING_RUMMY_OFF
            or p.phase is not _PH_DRAW
            or p.last_discarder is None
            or seat == p.last_discarder
        ):
            return []
        if self.rules.calling_rummy is _CALLING_RUMMY_STEAL:
            return self._steal_actions(seat)
        return [CallRummy(k) for k in self._callable_depths(seat, self.rules.calling_rummy)]

    def _playable(self, mode: CallingRummy) -> list[int]:
        """The pile depths whose card is playable on the table or with the pile above it (``mode``: pile or top card)."""
        p = self.public
        last = _PLAYABLE[0]  # one read: another thread may put a new answer there meanwhile
        if last[0] is p and last[1] is mode and last[2] is self.rules:
            known: list[int] = last[3]
            return known
        # The same for every seat (and every copy sharing this public value): worked out once.
        depths = [1] if mode is _CALLING_RUMMY_TOP_CARD else range(1, len(p.discard) + 1)
        playable = fastmeld.playable_depths(fastmeld.tables(self.rules), p.melds, p.discard, depths)
        if p.__class__ is Public:  # never a draft that apply() is still writing
            _PLAYABLE[0] = (p, mode, self.rules, playable)
        return playable

    def _nobody_calls(self) -> bool:
        """Whether no seat but the one to move can call Rummy now (the cheap reasons first; see :meth:`_call_actions`)."""
        p = self.public
        mode = self.rules.calling_rummy
        if mode is _CALLING_RUMMY_OFF or p.phase is not _PH_DRAW or p.last_discarder is None:
            return True
        return mode is not _CALLING_RUMMY_STEAL and not self._playable(mode)

    def _callable_depths(self, seat: int, mode: CallingRummy) -> list[int]:
        p = self.public
        playable = self._playable(mode)
        if not playable:
            return []
        out = []
        hand = self.hands[seat]
        pile = p.discard
        # An opened hand without jokers, duplicates or the dealer's joker: each answer on the card mask.
        base = -1
        if JOKER not in hand and p.opened[seat] and not self._extra_jokers(seat) and not (self.rules.joker_swap and self._jokers_to_swap()):
            index = self._index(seat)
            if index.dups is None:
                base = index.mask
        for k in playable:
            if base >= 0:
                have = base
                for c in pile[-k:]:
                    if c == JOKER or have >> c & 1:
                        break
                    have |= 1 << c
                else:
                    if self._can_use_mask(seat, have, len(hand) + k, pile[-k]):
                        out.append(k)
                    continue
            if self._can_use(seat, [*hand, *pile[-k:]], pile[-k]):
                out.append(k)
        return out

    def _steal_actions(self, seat: int) -> list[Action]:
        """``calling_rummy: steal``: the playable card alone, laid off at once or melded from the pile."""
        p = self.public
        r = self.rules
        out: list[Action] = []
        pile = p.discard
        seen: set[Card] = set()
        # A steal lays the card at once, out of turn: a lay-off only for a seat that may lay off now
        # (first_meld_min, layoff_needs_own_meld), a meld that opens alone (first_meld_min).
        may_lay_off = self._may_layoff_now(seat)
        opened = p.opened[seat]
        # discard_draw: top_only: nobody takes from below the top card, by a steal neither: the top
        # card alone is stolen, so only laid off (a meld would take other pile cards with it).
        if r.discard_draw is _DISCARD_DRAW_ANY_DEPTH:
            deepest = len(pile)
            pile_melds = [m for m in find_melds(pile, r, 0) if opened or self._opening_ok(seat, m, in_turn=False)]
        else:
            deepest, pile_melds = min(1, len(pile)), []
        for k in range(1, deepest + 1):
            c = pile[-k]
            if c in seen or c == JOKER:
                continue
            seen.add(c)
            for meld in p.melds if may_lay_off else ():
                if self.may_extend(seat, meld):
                    try:
                        extend_meld(meld, [c], r, seat)
                    except MeldError:
                        continue
                    out.append(CallRummy(k, on=meld.id))
            for cards in pile_melds:
                if c in cards:
                    out.append(CallRummy(k, meld=cards))
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, seat: int | None = None, *, check: bool = True) -> list[Event]:
        """Play ``action`` for ``seat`` (default: the seat to move).

        The public value is replaced, not changed: the action's effects are
        written into a fresh draft of it (which nobody else holds yet), so
        copies and views made before keep what they saw.

        Args:
            action: the action.
            seat: who plays it; out-of-turn actions (Rummy calls, melding out of
                turn, declines) name their seat.
            check: validate first (skip only for actions taken from
                :meth:`legal_actions`).

        Returns:
            What happened (:mod:`rummy500.events`): the action's event, then
            :class:`~rummy500.events.RoundOver` if it ended the round.

        Raises:
            IllegalAction: the action breaks a rule; the state is unchanged.
        """
        kind = type(action)
        public = self.public
        fast = _FAST.get(kind)
        if fast is not None:
            # The commonest actions (discard, draw, take) have a short path for the common case.
            if seat is None:
                seat = public.to_move
            if check:
                action = self.checked(action, seat)
                seat = int(seat)
            events = fast(self, public, seat, action)
            if events is not None:
                return events
            check = False  # checked already: the general path below does the rest
        effect = _EFFECTS.get(kind)
        if effect is None:
            raise IllegalAction(f"{action!r} is not an action")
        if isinstance(action, Reshuffle):
            if check:
                action = self.checked(action, seat)
            seat = public.to_move
        else:
            if seat is None:
                seat = public.to_move
            if check:
                action = self.checked(action, seat)
                seat = int(seat)
        self._legal_cache = None
        d = self.public = _open(public)
        try:
            event = effect(self, d, seat, action)
            idx = self._idx
            if d.gambit is not public.gambit:
                self._idx = [None] * self.n  # jokers may have stopped being wild for everyone
            elif idx[seat] is not None and effect not in _KEEPS_INDEX:
                idx[seat] = None
            hands = self.hands
            # An action changes no hand but the acting seat's (a reshuffle: none).
            held = len(hands[seat])
            sizes = d.hand_sizes
            if sizes[seat] != held:
                d.hand_sizes = (*sizes[:seat], held, *sizes[seat + 1 :])
            d.stock_count = len(self.stock)
            # (A going-out discard that left a Rummy: its event, then what the player took back.)
            happened: list[Event] = list(event) if isinstance(event, tuple) else [event]
            if d.phase is not _PH_OVER:
                return happened
            result = self.result
            assert result is not None
            d.round_scores = scores = tuple(result.round_scores)
            happened.append(RoundOver(d.went_out, scores, tuple(tuple(h) for h in hands)))
            return happened
        finally:
            d.__class__ = Public  # sealed: immutable from now on (see _seal)

    # -- short paths for the commonest actions: each applies ``action`` and returns its events
    # when the position is the common case, or returns None having changed nothing (the
    # general path then applies it). ``public`` is self.public; the action is legal.
    def _fast_discard(self, public: Public, seat: int, action: Discard) -> list[Event] | None:
        cards = action.cards
        hand = self.hands[seat]
        # One card, the hand not emptied, the stock not out, the turn limit not reached:
        # the turn simply passes (see _on_discard, _end_turn and _begin_turn).
        if (
            len(cards) != 1
            or len(hand) < 2
            or not self.stock
            or public.turns + 1 >= MAX_TURNS
            or public.drew_last_card is not None
            and self.rules.stock_out is _STOCK_OUT_IMMEDIATE
        ):
            return None
        c = cards[0]
        hand.remove(c)
        self._legal_cache = None
        idx = self._idx
        old = idx[seat]
        if old is not None:
            # The index is kept for a hand of distinct natural cards (see _index_moved).
            v: int = c  # a plain int: the compiled build's bit operations stay native
            idx[seat] = fastmeld.Hand(old.mask ^ (1 << v), old.jokers, None) if v < 64 and old.dups is None and old.mask >> v & 1 else None
        d = _open_discard(public)
        d.declined = _NOBODY
        if public.known[seat]:
            self._forget(d, seat, cards)
        d.discard = public.discard + cards
        d.turns = public.turns + 1
        d.to_move = (seat + self.rules.step) % self.n
        d.last_discarder = seat
        d.phase = _PH_DRAW
        d.obligation = None
        d.taken_top = None
        d.drawn = 0
        d.turn_points = 0
        d.turn_long_run = False
        d.claimed_card = None
        sizes = public.hand_sizes
        d.hand_sizes = (*sizes[:seat], len(hand), *sizes[seat + 1 :])
        d.__class__ = Public  # sealed (see _seal)
        self.public = d
        return [_discarded(seat, cards)]

    def _fast_draw(self, public: Public, seat: int, action: Draw) -> list[Event] | None:
        stock = self.stock
        # One card drawn and the stock not emptied by it (see _on_draw).
        if len(stock) < 2 or self.rules.stock_draw_count != 1:
            return None
        c = stock.pop()
        hand = self.hands[seat]
        hand.append(c)
        self._legal_cache = None
        idx = self._idx
        old = idx[seat]
        if old is not None:
            v: int = c  # a plain int: the compiled build's bit operations stay native
            idx[seat] = fastmeld.Hand(old.mask | (1 << v), old.jokers, None) if v < 64 and old.dups is None and not old.mask >> v & 1 else None
        d = _open_draw(public)
        d.declined = _NOBODY
        d.drawn = 1
        d.taken_top = None
        d.phase = _PH_PLAY
        d.last_discarder = None
        sizes = public.hand_sizes
        d.hand_sizes = (*sizes[:seat], len(hand), *sizes[seat + 1 :])
        d.stock_count = len(stock)
        d.__class__ = Public  # sealed (see _seal)
        self.public = d
        return [_drew(seat, (c,))]

    def _fast_take(self, public: Public, seat: int, action: Take) -> list[Event] | None:
        if action.split:
            return None
        k = action.n
        pile = public.discard
        chosen = pile[-k]
        taken = pile[-k:]
        hand = self.hands[seat]
        hand.extend(taken)
        self._legal_cache = None
        idx = self._idx
        if idx[seat] is not None:
            self._index_moved(seat, taken, 1)
        d = _open_take(public)
        d.declined = _NOBODY
        d.discard = pile[:-k]
        d.known = _with(public.known, seat, tuple(sorted(public.known[seat] + taken)))
        d.drawn = k
        d.obligation = chosen if k > 1 or self.rules.must_use_taken is _MUST_USE_TAKEN_ALWAYS else None
        d.taken_top = chosen if k == 1 else None
        d.phase = _PH_PLAY
        d.last_discarder = None
        sizes = public.hand_sizes
        d.hand_sizes = (*sizes[:seat], len(hand), *sizes[seat + 1 :])
        d.__class__ = Public  # sealed (see _seal)
        self.public = d
        return [_took(seat, taken)]

    def _fast_lay(self, public: Public, seat: int, action: Meld | LayOff) -> list[Event] | None:
        cards = action.cards
        hand = self.hands[seat]
        # The seat to move lays cards of its own (no dealer's joker), opened, not going out,
        # no Rummy claim to honour, no Dealer's Gambit: see _do_lay for the general case.
        if (
            seat != public.to_move
            or len(hand) <= len(cards)
            or public.claimed_card is not None
            or public.gambit is not None
            or not public.opened[seat]
            or seat == public.dealer
            and public.dealer_joker == "available"
        ):
            return None
        melds = public.melds
        rules = self.rules
        if action.__class__ is Meld:
            meld = make_meld(cards, rules, len(melds), seat)
            table = (*melds, meld)
            event: Event = Melded(seat, cards, len(melds))
        else:
            on = action.on  # type: ignore[union-attr]
            meld = extend_meld(melds[on], cards, rules, seat)
            table = (*melds[:on], meld, *melds[on + 1 :])
            event = LaidOff(seat, cards, on)
        bare = [JOKER if c >= 64 else c for c in cards]
        _remove(hand, bare)
        self._legal_cache = None
        if self._idx[seat] is not None:
            self._index_moved(seat, bare, -1)
        d = _open(public)
        d.declined = _NOBODY
        d.melds = table
        if action.__class__ is Meld:
            if not public.has_melded[seat]:
                d.has_melded = _with(public.has_melded, seat, True)
            if meld.kind == RUN and len(meld.cards) >= 7:
                d.turn_long_run = True
        if public.known[seat]:
            self._forget(d, seat, bare)
        if public.obligation is not None and public.obligation in bare:
            d.obligation = None
        sizes = public.hand_sizes
        d.hand_sizes = (*sizes[:seat], len(hand), *sizes[seat + 1 :])
        d.__class__ = Public  # sealed (see _seal)
        self.public = d
        return [event]

    # -- effects (no validation), one per kind of action; each writes into the draft ``d`` (also self.public)
    def _on_decline(self, d: Draft, seat: int, action: Decline) -> Event:
        d.declined = d.declined | {seat}
        return Declined(seat)

    def _on_nominate(self, d: Draft, seat: int, action: Nominate) -> Event:
        d.declined = _NOBODY
        d.gambit = action.mode
        d.to_move = self.next_seat(d.dealer)
        if self.rules.first_discard is _FIRST_DISCARD_FIRST_PLAYER:
            d.phase = _PH_PLAY
        else:
            d.phase = _PH_DRAW
            self._begin_turn(d)
        return Nominated(seat, action.mode)

    def _on_draw(self, d: Draft, seat: int, action: Draw) -> Event:
        d.declined = _NOBODY
        hand = self.hands[seat]
        stock = self.stock
        count = min(self.rules.stock_draw_count, len(stock))
        for _ in range(count):
            hand.append(stock.pop())
        self._index_moved(seat, hand[len(hand) - count :], 1)
        d.drawn = count
        d.taken_top = None
        d.phase = _PH_PLAY
        d.last_discarder = None
        if not stock and d.drew_last_card is None:
            d.drew_last_card = seat
        return Drew(seat, count, tuple(hand[len(hand) - count :]))

    def _index_moved(self, seat: int, cards: Sequence[Card], sign: int) -> None:
        """Keep ``seat``'s hand index up to date: ``cards`` entered (``sign`` 1) or left (-1) the hand.

        Only a hand of distinct natural cards is updated in place (a joker, or a
        card held twice, drops the index: it is scanned again when asked for).
        """
        old = self._idx[seat]
        if old is None:
            return
        if old.dups is None:
            mask = old.mask
            for c in cards:
                bit = 1 << c
                if c >= 64 or (mask & bit) != (0 if sign > 0 else bit):
                    break
                mask ^= bit
            else:
                self._idx[seat] = fastmeld.Hand(mask, old.jokers, None)
                return
        self._idx[seat] = None

    def _on_take(self, d: Draft, seat: int, action: Take) -> Event:
        d.declined = _NOBODY
        k, split = action.n, action.split
        pile = d.discard
        chosen = pile[-k]
        taken = pile[-k:]
        d.discard = pile[:-k]
        event = Took(seat, taken[:1], taken[1:]) if split else Took(seat, taken)
        if split:
            # Dealer's Gambit split: a joker splits the pile; the cards above the chosen one leave play.
            self._spend_joker(d, seat)
            d.removed = d.removed + taken[1:]
            taken = (chosen,)
        self.hands[seat].extend(taken)
        d.known = _with(d.known, seat, tuple(sorted(d.known[seat] + taken)))
        d.drawn = len(taken)
        must_use = k > 1 or split or self.rules.must_use_taken is _MUST_USE_TAKEN_ALWAYS
        d.obligation = chosen if must_use else None
        d.taken_top = chosen if k == 1 and not split else None
        d.phase = _PH_PLAY
        d.last_discarder = None
        return event

    def _on_pass(self, d: Draft, seat: int, action: Pass) -> Event:
        d.declined = _NOBODY
        self._end_round(d, None)
        return Passed(seat)

    def _on_meld(self, d: Draft, seat: int, action: Meld) -> Event:
        d.declined = _NOBODY
        event = Melded(seat, action.cards, len(d.melds))
        self._do_lay(d, seat, action.cards, None, check_out=True)
        return event

    def _on_lay_off(self, d: Draft, seat: int, action: LayOff) -> Event:
        d.declined = _NOBODY
        self._do_lay(d, seat, action.cards, action.on, check_out=True)
        return LaidOff(seat, action.cards, action.on)

    def _on_swap(self, d: Draft, seat: int, action: Swap) -> Event:
        d.declined = _NOBODY
        self._do_swap(d, seat, action.card, action.on)
        return Swapped(seat, action.card, action.on)

    def _on_discard(self, d: Draft, seat: int, action: Discard) -> Event | tuple[Event, Event]:
        d.declined = _NOBODY
        cards = action.cards
        hand = self.hands[seat]
        _remove(hand, cards)
        self._index_moved(seat, cards, -1)
        if d.known[seat]:
            self._forget(d, seat, cards)
        d.discard = d.discard + tuple(cards)
        if hand:
            self._end_turn(d, seat)
            return Discarded(seat, cards)
        left = self._go_out_by_discard(d, seat, cards)
        return Discarded(seat, cards) if left is None else (Discarded(seat, cards), left)

    def _on_float(self, d: Draft, seat: int, action: Float) -> Event:
        d.declined = _NOBODY
        d.floating = _with(d.floating, seat, True)
        self._end_turn(d, seat)
        # Only a discard opens a Rummy call window: a float throws nothing, and the window of
        # the card on top closed when the floater drew. (The round may have ended: None then too.)
        d.last_discarder = None
        return Floated(seat)

    def _on_call(self, d: Draft, seat: int, action: CallRummy) -> Event:
        d.declined = _NOBODY
        return self._do_call(d, seat, action.depth, action.on, action.meld)

    def _on_block(self, d: Draft, seat: int, action: Block) -> Event:
        d.declined = _NOBODY
        self.hands[seat].remove(JOKER)
        if d.known[seat]:
            self._forget(d, seat, (JOKER,))
        d.removed = d.removed + (JOKER,)
        d.dealer_joker = "blocked"
        return Blocked(seat)

    def _on_reshuffle(self, d: Draft, seat: int, action: Reshuffle) -> Event:
        self.stock = list(reversed(action.cards))
        d.discard = d.discard[-1:]
        d.phase = _PH_DRAW
        self._begin_turn(d)
        return Reshuffled(len(action.cards), action.cards)

    def _check_reshuffle(self, action: Reshuffle, seat: int | None, check: bool) -> None:
        if not check:
            return
        p = self.public
        if seat is not None and p.phase is _PH_SHUFFLE and seat != p.to_move:
            raise IllegalAction(f"the reshuffle is recorded for the seat about to draw (seat {p.to_move}), not seat {seat}")
        if p.phase is not _PH_SHUFFLE:
            raise IllegalAction("there is nothing to reshuffle now: the stock is not empty")
        if Counter(action.cards) != Counter(p.discard[:-1]):
            raise IllegalAction("a reshuffle must use exactly the discard pile except its top card")

    def _forget(self, d: Draft, seat: int, cards: Iterable[Card]) -> None:
        """Cards ``seat`` played are no longer known to be held (call it when some are)."""
        known = d.known[seat]
        rest = list(known)
        for c in cards:
            if c in rest:
                rest.remove(c)
        if len(rest) != len(known):
            d.known = _with(d.known, seat, tuple(rest))

    def _spend_joker(self, d: Draft, seat: int) -> None:
        if self._extra_jokers(seat):
            d.dealer_joker = "used"
        else:
            self.hands[seat].remove(JOKER)
            if d.known[seat]:
                self._forget(d, seat, (JOKER,))
        d.removed = d.removed + (JOKER,)

    def _build_meld(self, seat: int, cards: Sequence[Card], meld_id: int) -> TableMeld:
        doubling = self.public.gambit == "double" and JOKER in cards
        return make_meld(cards, self.rules, meld_id, seat, doubling_joker=doubling)

    def _do_lay(self, d: Draft, seat: int, cards: Sequence[Card], onto: int | None, *, check_out: bool) -> None:
        claimed_card = d.claimed_card
        claimed = claimed_card is not None and claimed_card in _bare(cards) and seat == d.to_move
        if onto is None:
            built = meld = self._build_meld(seat, cards, len(d.melds))
            if claimed:
                meld = _mark_claimed(meld, claimed_card)
            d.melds = d.melds + (meld,)
            if not d.has_melded[seat]:
                d.has_melded = _with(d.has_melded, seat, True)
            if not d.opened[seat]:
                if seat != d.to_move:
                    d.opened = _with(d.opened, seat, True)  # out of turn, the meld alone reached the minimum
                else:
                    # The opening counts a card claimed by Rummy at its normal value, as every
                    # legality check does: rummy_card_value is what it scores, not what opens.
                    d.turn_points = d.turn_points + new_meld_points(built, self.rules)
                    if d.turn_points >= self.rules.first_meld_min:
                        d.opened = _with(d.opened, seat, True)
            if meld.kind == RUN and len(meld.cards) >= 7 and seat == d.to_move:
                d.turn_long_run = True  # (a run laid out of turn is no Master's Hand of the player to move)
        else:
            old = d.melds[onto]
            new = extend_meld(old, cards, self.rules, seat)
            if claimed:
                new = _mark_claimed(new, claimed_card, old=old)
            d.melds = _with(d.melds, onto, new)
        used, extra = self._hand_cost(seat, cards)
        if extra:
            d.dealer_joker = "used"
        bare = _bare(cards)
        hand_cards = list(bare)
        for _ in range(extra):
            hand_cards.remove(JOKER)
        _remove(self.hands[seat], hand_cards)
        self._index_moved(seat, hand_cards, -1)
        if d.known[seat]:
            self._forget(d, seat, hand_cards)
        if d.obligation is not None and d.obligation in bare and seat == d.to_move:
            d.obligation = None
        if claimed:
            d.claimed_card = None
        # Going out by melding; under floating / unplayable_discard the player must still float.
        if check_out and not self.hands[seat] and seat == d.to_move and self.rules.going_out is _GOING_OUT_ANY:
            self._end_round(d, seat)

    def _do_swap(self, d: Draft, seat: int, c: Card, on: int) -> None:
        meld = d.melds[on]
        idx = next(i for i, m in enumerate(meld.cards) if m >= 128 and m.natural == c)
        cards = list(meld.cards)
        cards[idx] = c
        # A joker of the cards laid at once gives way: they were not all naturals when laid.
        d.melds = _with(d.melds, on, replace(meld, cards=tuple(cards), swapped=meld.swapped or idx < meld.initial))
        hand = self.hands[seat]
        hand.remove(c)
        if d.known[seat]:
            self._forget(d, seat, (c,))
        hand.append(JOKER)
        # Everybody saw the joker go from the meld into the hand: it is known held, as a card
        # taken from the pile is, until it is played (see _forget).
        d.known = _with(d.known, seat, tuple(sorted(d.known[seat] + (JOKER,))))

    def _go_out_by_discard(self, d: Draft, seat: int, cards: Sequence[Card]) -> LeftRummy | None:
        """``seat`` discarded its last card(s): it goes out, floats, or (``rummy_after_going_out``) left a Rummy."""
        if self.rules.going_out is _GOING_OUT_UNPLAYABLE_DISCARD and any(self._fits_table(c) for c in cards):
            # The going-out discard was playable: the player floats instead.
            d.floating = _with(d.floating, seat, True)
            self._end_turn(d, seat)
            return None
        if self.rules.rummy_after_going_out:
            # The going-out discard leaves a card in the pile that another seat could claim by a
            # legal Rummy call: a Rummy. The player takes the cards above the callable card nearest
            # the top back into hand (none if it is the discard itself: then the hand stays empty
            # and the player floats), and play goes on.
            k = self._callable_after_going_out(seat)
            if k:
                pile = d.discard
                back = pile[len(pile) - k + 1 :]
                d.discard = pile[: len(pile) - k + 1]
                if back:
                    self.hands[seat].extend(back)
                    self._idx[seat] = None
                    d.known = _with(d.known, seat, tuple(sorted(d.known[seat] + back)))
                else:
                    d.floating = _with(d.floating, seat, True)
                self._end_turn(d, seat)
                return LeftRummy(seat, pile[-k], back)
        if self.rules.masters_hand and d.turn_long_run:
            self.masters = seat
        self._end_round(d, seat)
        return None

    def _callable_after_going_out(self, seat: int) -> int:
        """(``rummy_after_going_out``) The depth of the card nearest the top that a seat other than ``seat`` could claim; 0: none.

        ``seat`` has just thrown its last card: the position is the one its
        turn would leave (the next player about to draw, that discard open to
        calls), and each other seat's Rummy calls there are the legal ones
        (:meth:`_call_actions`: the caller must be able to use the card).
        """
        sim, d = self._scratch()
        d.to_move = (seat + self.rules.step) % self.n
        d.phase = _PH_DRAW
        d.last_discarder = seat
        d.declined = _NOBODY
        _fresh_turn(d)
        best = 0
        for s in range(self.n):
            if s == seat:
                continue
            for call in sim._call_actions(s):
                if isinstance(call, CallRummy) and (best == 0 or call.depth < best):
                    best = call.depth
        return best

    def _fits_table(self, c: Card) -> bool:
        """(``going_out: unplayable_discard``) Whether the discarded ``c`` could be laid off on a table meld.

        A joker fits where it could be laid off standing for some card: what
        makes a joker in the pile playable for a Rummy call
        (:func:`fastmeld.joker_fits`); none does while Dealer's Gambit makes
        jokers not wild this hand.
        """
        p = self.public
        if c == JOKER:
            if p.gambit is not None and p.gambit != "wild":
                return False
            return fastmeld.joker_fits(fastmeld.tables(self.rules), p.melds)
        r = self.rules
        for meld in p.melds:
            try:
                extend_meld(meld, [c], r, 0)
                return True
            except MeldError:
                continue
        return False

    def _do_call(self, d: Draft, seat: int, k: int, on: int | None, meld_cards: tuple[Card, ...] | None) -> CalledRummy:
        pile = d.discard
        chosen = pile[-k]
        if self.rules.calling_rummy is _CALLING_RUMMY_STEAL:
            claim = self.rules
            if on is not None:
                d.discard = pile[: len(pile) - k] + pile[len(pile) - k + 1 :]
                new = extend_meld(d.melds[on], [chosen], claim, seat, claimed=True)
                d.melds = _with(d.melds, on, new)
                return CalledRummy(seat, k, (chosen,), on=on)
            assert meld_cards is not None
            rest = list(pile)
            _remove(rest, _bare(meld_cards))
            d.discard = tuple(rest)
            built = make_meld(meld_cards, claim, len(d.melds), seat)
            d.melds = d.melds + (_mark_claimed(built, chosen),)
            d.has_melded = _with(d.has_melded, seat, True)
            if not d.opened[seat]:
                d.opened = _with(d.opened, seat, True)  # a stolen meld opens alone (see _steal_actions)
            return CalledRummy(seat, k, tuple(_bare(meld_cards)), meld=built.id)
        taken = pile[-k:]
        d.discard = pile[:-k]
        self.hands[seat].extend(taken)
        d.known = _with(d.known, seat, tuple(sorted(d.known[seat] + taken)))
        d.to_move = seat
        d.phase = _PH_PLAY
        d.obligation = chosen
        d.claimed_card = chosen
        d.taken_top = None
        d.drawn = len(taken)
        d.turn_points = 0
        d.turn_long_run = False
        d.last_discarder = None
        return CalledRummy(seat, k, tuple(taken))

    def chance_reshuffle(self, rng: random.Random) -> Reshuffle:
        """(``stock_out: reshuffle``) Draw the chance event due in phase SHUFFLE."""
        cards = list(self.public.discard[:-1])
        rng.shuffle(cards)
        return Reshuffle(tuple(cards))

    # -- turn flow
    def _end_turn(self, d: Draft, seat: int) -> None:
        d.turns = d.turns + 1
        if self.rules.stock_out is _STOCK_OUT_IMMEDIATE and d.drew_last_card is not None:
            self._end_round(d, None)
            return
        if d.turns >= MAX_TURNS:
            self._end_round(d, None)
            return
        if not self.stock and self.rules.stock_out in _STOCK_OUT_ENDLESS and self._dead():
            self._end_round(d, None)  # a dead round ends as a stock-out would
            return
        d.to_move = (seat + self.rules.step) % self.n
        d.last_discarder = seat
        d.phase = _PH_DRAW
        self._begin_turn(d)

    def _begin_turn(self, d: Draft) -> None:
        _fresh_turn(d)
        if not self.stock and self.rules.stock_out is _STOCK_OUT_RESHUFFLE and len(d.discard) >= 2:
            d.phase = _PH_SHUFFLE

    def _dead(self) -> bool:
        """Whether the table can never change again: no meld and no lay-off from every card still in play.

        Cards still in play are the hands, the stock and the pile; whoever ends
        up holding them, no new meld can be made of them and none can go on a
        table meld, so nobody can meld, lay off or go out again. Jokers still in
        play, or (``joker_swap``) on the table standing for a card still in play
        (it may be swapped back into a hand), keep the round alive, and so does a
        player floating with an empty hand who can still get a card to discard
        (from a reshuffled stock, or the top card taken back under ``discard_back``):
        they go out by that discard.
        """
        p = self.public
        if (self.rules.stock_out is _STOCK_OUT_RESHUFFLE or self.rules.discard_back) and any(
            p.floating[s] and not self.hands[s] for s in range(self.n)
        ):
            return False
        pool = [c for h in self.hands for c in h]
        pool += self.stock
        pool += p.discard
        if JOKER in pool or p.dealer_joker == "available":
            return False
        # (A joker on the table is a declared card, JK=8H: it can come back into play when the card it stands for is still in play.)
        if self.rules.joker_swap and any(c >= 128 and c.natural in pool for m in p.melds for c in m.cards):
            return False
        t = fastmeld.tables(self.rules)
        index = fastmeld.scan(pool)
        for meld in p.melds:
            if fastmeld.fits(t, meld) & index.mask or fastmeld.layoffs_of(t, meld, index, 0):
                return False
        if not fastmeld.all_melds(t, index):
            return True
        return self.rules.stock_out is _STOCK_OUT_PLAY_ON and self._going_round(t)

    def _going_round(self, t: fastmeld.Tables) -> bool:
        """(``play_on``, the stock spent, no lay-off left) Whether no hand can ever hold a meld: the cards only go round.

        Every hand holds one card and nobody floats. A player may then take the
        top card of the pile, and must throw the other card (the top card just
        taken may not go back), or take deeper only to meld the deepest card at
        once. While only top cards are taken, the pile below its top card never
        changes; so if no meld holds the card at any depth with the cards above
        it and two of the cards going round (the hands' and the top card), no
        player ever takes more than the top card, no hand passes two cards, and
        nobody can meld again.
        """
        p = self.public
        pile = p.discard
        if not pile or any(len(h) != 1 for h in self.hands) or any(p.floating):
            return False
        moving = [h[0] for h in self.hands]
        moving.append(pile[-1])
        for k in range(2, len(pile) + 1):
            deepest = pile[-k]
            above = list(pile[len(pile) - k + 1 : -1])
            for i in range(len(moving)):
                for j in range(i + 1, len(moving)):
                    cards = [moving[i], moving[j], deepest]
                    cards += above
                    if fastmeld.melds_holding(t, fastmeld.scan(cards), 0, deepest):
                        return False
        return True

    def _end_round(self, d: Draft, went_out: int | None) -> None:
        d.went_out = went_out
        d.phase = _PH_OVER
        d.last_discarder = None
        self.result = score_round(self.rules, d.melds, self.hands, went_out, masters=self.masters)

    # ------------------------------------------------------------- refusals
    def explain(self, action: Action, seat: int) -> str:
        """Why ``action`` by ``seat`` is not legal now, in a player's words."""
        return explain(self, action, seat)

    # ------------------------------------------------------------------ views
    def seen_hand(self, seat: int) -> list[Card]:
        """The cards of ``seat``'s hand that the seat has looked at: all of them but in one moment.

        Under Dealer's Gambit the dealer nominates "before anyone looks at their cards"
        (RULES.md): while the nomination is awaited every hand lies face down, and
        this is empty. Views and observations show a seat this, never ``hands[seat]``.
        """
        return [] if self.public.phase is _PH_NOMINATE else self.hands[seat]

    def view(self, seat: SupportsIndex | None, scores: Sequence[int] | None = None) -> View:
        """What ``seat`` (None: a spectator) may see: the public facts, its hand, its legal actions, its rule facts.

        Raises:
            IllegalAction: ``seat`` is no seat of this game: not a whole number (a bool is
                not one, numpy's integers are: the view holds a plain ``int``) or out of range.
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.n):
            # (A plain int seat of the game, the usual case, is taken as it is.)
            n = self.n
            seat = seat_number(seat, n)  # (typed SupportsIndex: the compiled build refuses a bad seat the same way)
            if not 0 <= seat < n:
                raise IllegalAction(f"{seat_text(seat)} is not a seat of this {n}-player game (seats are 0 to {n - 1})")
        pub = self.public
        # Once the round is over every hand is shown, as at a real table.
        final = tuple(tuple(sorted(h)) for h in self.hands) if pub.phase is _PH_OVER else None
        rules = self.rules
        if seat is None:
            view = View.of(pub, rules=rules, seat=None, hand=(), scores=_tuple(scores), final_hands=final)
            if pub.declined:
                _set_declined(view, _NOBODY)
            return view
        melds = pub.melds
        if rules.layoff_onto is _LAYOFF_ONTO_ANY:
            onto = tuple([m.id for m in melds])
        else:
            onto = tuple([m.id for m in melds if rules.may_lay_off_on(seat, m.owner)])
        # View.of with every own field, in the order View declares them (views.build_view).
        view = build_view(
            pub,
            rules,
            seat,
            tuple(sorted(self.seen_hand(seat))),
            tuple(self._legal_list(seat)),
            None if scores is None else tuple(scores),
            final,
            self._jokers_wild(),
            self._meld_extra(seat),
            self._may_layoff_now(seat),
            onto,
            rules.must_use_taken is _MUST_USE_TAKEN_ALWAYS,
            rules.calling_rummy is _CALLING_RUMMY_STEAL,
        )
        if pub.declined:
            # Only one's own decline: an offer comes only to a seat with a play (events.Declined.visible_to).
            _set_declined(view, pub.declined & {seat})
        return view

    # -------------------------------------------------------------- positions
    def position(self) -> str:
        """This round in the position notation (:mod:`rummy500.position`); ``str(state)`` too."""
        return round_position(self.public, self.hands, self.stock_top_first(), self.masters)

    @classmethod
    def from_position(cls, rules: Rules, text: str) -> RoundState:
        """The round a position describes (see :func:`state_from_position`)."""
        return state_from_position(rules, text)

    def __str__(self) -> str:
        return self.position()

    def __repr__(self) -> str:
        return f"<RoundState {self.public.phase} to_move={self.public.to_move} stock={len(self.stock)} pile={len(self.public.discard)}>"


def _near_table(melds: tuple[TableMeld, ...]) -> int:
    """A card mask holding every natural card that could go on one of ``melds``: a run's suit, a set's rank (the last table asked is kept)."""
    last = _NEAR
    if last[0] is melds:
        near: int = last[1]
        return near
    near = 0
    for meld in melds:
        if meld.kind == RUN:
            near |= fastmeld.RANKS << (meld.suit << 4)
        elif meld.kind == SET:
            near |= 0x0001000100010001 << meld.rank
    last[:] = (melds, near)
    return near


_NEAR: list[Any] = [None, 0]


def _tuple(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return tuple(values) if values is not None else None


_EFFECTS: dict[type, Callable[[RoundState, Draft, int, Any], Event | tuple[Event, Event]]] = {
    Decline: RoundState._on_decline,
    Nominate: RoundState._on_nominate,
    Draw: RoundState._on_draw,
    Take: RoundState._on_take,
    Pass: RoundState._on_pass,
    Meld: RoundState._on_meld,
    LayOff: RoundState._on_lay_off,
    Swap: RoundState._on_swap,
    Discard: RoundState._on_discard,
    Float: RoundState._on_float,
    CallRummy: RoundState._on_call,
    Block: RoundState._on_block,
    Reshuffle: RoundState._on_reshuffle,
}
"""What each kind of action does (apply() dispatches on the action's type)."""
# The effects that keep the acting seat's hand index themselves (or change no hand).
_FAST: dict[type, Callable[[RoundState, Public, int, Any], list[Event] | None]] = {
    Discard: RoundState._fast_discard,
    Draw: RoundState._fast_draw,
    Take: RoundState._fast_take,
    Meld: RoundState._fast_lay,
    LayOff: RoundState._fast_lay,
}
"""The short paths of apply() for the commonest actions (see RoundState._fast_discard)."""
_KEEPS_INDEX = frozenset(
    (
        RoundState._on_decline,
        RoundState._on_draw,
        RoundState._on_discard,
        RoundState._on_pass,
        RoundState._on_float,
        RoundState._on_meld,
        RoundState._on_lay_off,
    )
)

_TAKES = [Take(k) for k in range(120)]

def _meld_worth(
    cards: tuple[Card, ...], rules: Rules, seat: int, extra: int
) -> tuple[tuple[list[Card], Counter[Card], int, int], list[tuple[Card, float]]] | None:
    """A meld of :meth:`RoundState._reach_tables`: (its hand cards, their counts, its points, dealer's jokers spent), each card's part.

    ``None`` when the cards make no meld. A hand card's part of the points is in
    proportion to its value in the meld (the dealer's jokers, not hand cards,
    leave their part to the others).
    """
    spent = min(sum(1 for c in cards if c >= 64), extra)
    bare = _bare(cards)[: len(cards) - spent]
    try:
        meld = make_meld(cards, rules, 0, seat)
    except MeldError:
        return None
    pts = new_meld_points(meld, rules)
    parts = [(JOKER if c >= 64 else c, v) for c, v in zip(meld.cards, meld_card_values(meld, rules), strict=True)]
    for _ in range(spent):
        parts.remove(next(p for p in parts if p[0] == JOKER))
    total = sum(v for _, v in parts)
    shares = [(c, pts * v / total if total > 0 else pts / len(parts)) for c, v in parts]
    return (bare, Counter(bare), pts, spent), shares


#: :func:`_meld_worth`'s answers by (rules, seat, dealer's jokers, cards): a hand's melds
#: are met again in every part of it that :meth:`RoundState._can_reach` is asked about.
_MELD_WORTH: dict[tuple[Any, ...], Any] = {}
_MELD_WORTH_MAX = 200_000
_UNKNOWN = object()

#: :meth:`RoundState._can_reach`: what a sum of cards' parts of meld points (floats) may
#: fall short of the whole points by rounding alone; a bound within it is not cut.
_SLACK = 1e-6
#: :meth:`RoundState._can_reach`'s memo: no want yet known out of reach.
_NEVER = 1 << 62

# The last public value asked for its playable pile depths: (public, mode, rules, depths).
# The references are held, so identity is exact.
_PLAYABLE: list[tuple[Any, ...]] = [(None, None, None, [])]
# RoundState._reach_tables' last answer: (key, melds by card, each card's most points, answers).
_REACH: list[tuple[Any, ...]] = [(None, None, None, None)]
_DRAW, _PASS, _FLOAT = Draw(), Pass(), Float()
_DISCARDS = {c: Discard((c,)) for c in [*natural_cards(), JOKER]}
_DISCARD_OF = _DISCARDS.__getitem__
# Actions are immutable values: the ones enumerated are built once and shared.
_MELD_ACTIONS: dict[tuple[Card, ...], Meld] = {}
_LAYOFF_ACTIONS: dict[tuple[tuple[Card, ...], int], LayOff] = {}


def seat_number(seat: Any, n: int) -> int:
    """``seat`` as a seat number of an ``n``-player game (a whole number, not a bool: numpy's too)."""
    if type(seat) is int:
        return seat
    if not isinstance(seat, bool):
        with contextlib.suppress(TypeError):
            return operator.index(seat)
    raise IllegalAction(f"a seat is a whole number from 0 to {n - 1}, not {seat!r}")


def _same_kinds(listed: Action, given: Action) -> bool:
    """Whether ``given`` (equal to ``listed``) holds cards and whole numbers where ``listed`` does, not bools or floats."""
    if type(listed) is not type(given):
        return False
    for name in getattr(listed, "__dataclass_fields__", ()):
        a, b = getattr(listed, name), getattr(given, name)
        if isinstance(b, bool) and not isinstance(a, bool) or isinstance(b, float):
            return False
        if isinstance(a, tuple) and isinstance(b, tuple) and any(isinstance(x, bool | float) for x in b):
            return False
    return True


def _meld_action(cards: tuple[Card, ...]) -> Meld:
    act = _MELD_ACTIONS.get(cards)
    if act is None:
        if len(_MELD_ACTIONS) >= 100_000:
            _MELD_ACTIONS.clear()
        act = _MELD_ACTIONS[cards] = Meld(cards)
    return act


def _layoff_action(cards: tuple[Card, ...], on: int) -> LayOff:
    act = _LAYOFF_ACTIONS.get((cards, on))
    if act is None:
        if len(_LAYOFF_ACTIONS) >= 100_000:
            _LAYOFF_ACTIONS.clear()
        act = _LAYOFF_ACTIONS[cards, on] = LayOff(cards, on)
    return act


def _most_points(per_card: dict[Card, float], cards: Iterable[Card]) -> float:
    """The most points ``cards`` can make in melds: each card's best part (see RoundState._reach_tables)."""
    total = 0.0
    for c in cards:
        total += per_card.get(c, 0.0)
    return total


def _bare(cards: Iterable[Card]) -> list[Card]:
    return [JOKER if c >= 64 else c for c in cards]


def _mark_claimed(meld: TableMeld, claimed: Card, old: TableMeld | None = None) -> TableMeld:
    """Flag the card claimed by a Rummy call among the cards just laid in ``meld``.

    ``old``: the meld before a lay-off. Its cards keep their order inside the
    new one, with the new cards before them (the low end of a run), after
    them, or both; only those new cards are looked at.
    """
    flags = list(meld.claimed)
    n = len(meld.cards)
    kept = range(0)
    if old is not None:
        m = len(old.cards)
        front = next(i for i in range(n - m + 1) if meld.cards[i : i + m] == old.cards)
        kept = range(front, front + m)
    for i in range(n):
        c = meld.cards[i]
        if i not in kept and (JOKER if c >= 64 else c) == claimed and not flags[i]:
            flags[i] = True
            break
    return replace(meld, claimed=tuple(flags))



# ------------------------------------------------------------------ resampling
class ResampleError(ValueError):
    """A view that does not add up to a position (more cards seen than the pack holds)."""


def _pack_counter(rules: Rules) -> Counter[Card]:
    return Counter(build_pack(rules))


def unseen_cards(view: View) -> list[Card]:
    """The cards ``view.seat`` cannot see, as a sorted multiset list.

    They are the whole pack less the seat's own hand, the discard pile, the
    cards on the table, the cards others were seen taking from the pile and
    still hold, the cards out of play and the dealer's joker while it lies
    face up beside the dealer.

    Raises:
        ResampleError: a spectator's view, or more copies of a card than the pack holds.
    """
    if view.seat is None:
        raise ResampleError("a spectator's view has no seat to resample for")
    rules = view.rules
    pack = _pack_counter(rules)
    seen: Counter[Card] = Counter(view.hand)
    seen.update(view.discard)
    seen.update(view.removed)
    for m in view.melds:
        seen.update(_bare(m.cards))
    for s, k in enumerate(view.known):
        if s != view.seat:
            seen.update(k)
    if rules.dealers_gambit and view.dealer_joker in ("available", "blocked"):
        seen[JOKER] += 1
    over = [c for c, k in seen.items() if k > pack[c]]
    if over:
        raise ResampleError(f"the view shows more {', '.join(map(str, over))} than the pack holds")
    return sorted((pack - seen).elements())


def _count_text(value: object) -> str:
    """``repr(value)``, or a description of an int too long for ``str()`` to write."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number of about {about_digits(value)} digits"
    return repr(value)


def _check_resampled(view: View, *, spectator: bool = False) -> None:
    """Refuse a view whose seats and per-seat lists do not fit its rules (before anything is dealt).

    ``spectator``: a spectator's view (``seat`` None) passes. (The fields are read with
    ``getattr``, as values of any type: the compiled build would refuse a typed read of a
    wrong one with a TypeError of its own.)

    Raises:
        ResampleError: naming the field (``seat``, ``players``, ``dealer``, ``to_move``,
            ``stock_count``, ``hand_sizes``, ``known``, ``opened``, ``has_melded``, ``floating``).
    """
    n = view.rules.players
    for name in ("seat", "players", "dealer", "to_move", "stock_count"):
        value = getattr(view, name)
        if value is None and name == "seat":
            if spectator:
                continue
            raise ResampleError("a spectator's view has no seat to resample for")
        if not isinstance(value, int) or isinstance(value, bool):
            raise ResampleError(f"the view's {name} must be a whole number, not {_count_text(value)}")
        if name == "players":
            if value != n:
                raise ResampleError(f"the view's players ({_count_text(value)}) and rules.players ({n}) disagree")
        elif name == "stock_count":
            if value < 0:
                raise ResampleError(f"the view's stock_count must be 0 or more, not {value}")
        elif not 0 <= value < n:
            raise ResampleError(f"the view's {name} {_count_text(value)} is not a seat of a {n}-player game")
    for name in ("hand_sizes", "known", "opened", "has_melded", "floating"):
        value = getattr(view, name)
        if not isinstance(value, tuple):
            raise ResampleError(f"the view's {name} must be a tuple of {n} seats' values, not {_count_text(value)}")
        if len(value) != n:
            raise ResampleError(f"the view's {name} has {len(value)} seats but the game has {n} players")
        if name == "hand_sizes":
            for s, size in enumerate(value):
                if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                    raise ResampleError(f"the view's hand_sizes[{s}] must be a number of cards, not {_count_text(size)}")


def _final_hands(view: View, pool: list[Card]) -> tuple[list[list[Card]], list[Card]]:
    """The hands of a finished round as its view shows them (``final_hands``), and the unseen cards left for the stock.

    Raises:
        ResampleError: the shown hands do not fit the view (their number, sizes or cards).
    """
    final = view.final_hands
    assert final is not None
    seat = view.seat
    if len(final) != view.players:
        raise ResampleError(f"final_hands has {len(final)} hands for a {view.players}-player round")
    left = Counter(pool)
    hands: list[list[Card]] = []
    for s, shown in enumerate(final):
        if len(shown) != view.hand_sizes[s]:
            raise ResampleError(f"final_hands shows {len(shown)} cards for seat {s}, who holds {view.hand_sizes[s]}")
        hand = list(shown)
        if s == seat:
            if Counter(hand) != Counter(view.hand):
                raise ResampleError(f"final_hands shows seat {s} other cards than its hand")
        else:
            hidden = Counter(hand)
            hidden.subtract(view.known[s])  # (cards it was seen taking: not among the unseen)
            if any(k < 0 for k in hidden.values()) or any(left[c] < k for c, k in hidden.items()):
                raise ResampleError(f"final_hands shows seat {s} cards the view has seen elsewhere")
            left.subtract(hidden)
        hands.append(hand)
    return hands, sorted((+left).elements())


def state_from_view(view: View, rng: random.Random, weights: Mapping[int, Mapping[Card, float]] | None = None) -> RoundState:
    """A full position consistent with everything ``view.seat`` saw (OpenSpiel's ResampleFromInfostate).

    The unseen cards (:func:`unseen_cards`) are shuffled with ``rng`` and dealt
    into the places the seat cannot see: every other hand keeps the cards it
    was seen taking from the pile and is filled up to its size, the stock gets
    ``view.stock_count`` cards. Every public field comes from the view, so the
    position offers the seat exactly ``view.legal``. The result is a guess for
    search, never the real game.

    One thing seen is not kept: under ``stock_out: reshuffle`` everybody saw
    which cards went from the pile into the new stock (only their order is
    secret), but a view does not remember them: a guess after a reshuffle
    deals the stock from all the unseen cards, so it may hold cards that
    never went into it.

    ``weights`` (optional): per seat, a relative weight for each card (1.0
    where absent) of being among that seat's hidden cards; such a seat's
    cards are drawn from those not dealt yet by weighted sampling without
    replacement (Efraimidis and Spirakis: the largest keys ``u ** (1 / w)``).
    The position is consistent with the view whatever the weights.

    Raises:
        ResampleError: the view cannot be completed (inconsistent counts), or
            its fields do not fit together (``players``, ``rules.players``, the
            seat fields and the per-seat lists): the message names the field.
    """
    _check_resampled(view)
    seat = view.seat
    if seat is None:  # (refused above: for mypy)
        raise ResampleError("a spectator's view has no seat to resample for")
    pool = unseen_cards(view)
    n = view.players
    hands: list[list[Card]] = []
    if view.final_hands is not None:
        # The round is over: every hand is shown, so only the stock's order is left to guess.
        hands, pool = _final_hands(view, pool)
    rng.shuffle(pool)
    for s in range(len(hands), n):
        # The seat's own hand is all seen, but while Dealer's Gambit's nomination is awaited it
        # lies face down (an empty view.hand): then it is dealt from the unseen cards like the others.
        known = list(view.hand) if s == seat else list(view.known[s])
        need = view.hand_sizes[s] - len(known)
        if need < 0:
            raise ResampleError(f"seat {s} holds {view.hand_sizes[s]} cards but was seen taking {len(known)}")
        w = weights.get(s) if weights else None
        if not w:
            hands.append(known + pool[:need])
            pool = pool[need:]
            continue
        rand = rng.random
        keys = [rand() ** (1.0 / max(1e-3, w.get(c, 1.0))) for c in pool]
        order = sorted(range(len(pool)), key=keys.__getitem__, reverse=True)
        chosen = set(order[:need])
        hands.append(known + [pool[i] for i in order[:need]])
        pool = [c for i, c in enumerate(pool) if i not in chosen]
    stock = pool[: view.stock_count]
    if len(stock) != view.stock_count or any(len(h) != view.hand_sizes[i] for i, h in enumerate(hands)):
        raise ResampleError("the unseen cards do not fill the hidden hands and the stock")
    # Every public field comes from the view, as declared in rummy500.public.
    # masters is set only in the instant a player goes out.
    try:
        return RoundState.from_parts(view.rules, view.public(), hands, stock)
    except ValueError as exc:
        raise ResampleError(str(exc)) from None


# ------------------------------------------------------------------ positions
def state_from_position(rules: Rules, text: str) -> RoundState:
    """Build a round from its position (:mod:`rummy500.position`); fields left out keep their value at the deal.

    Raises:
        PositionError: the text is not a position of a round under these rules.
    """
    got = parse_position(text)
    for need in ("dealer", "hands"):
        if need not in got:
            raise PositionError(f"a round's position needs {need!r}")
    extra = set(got) - ROUND_FIELDS
    if extra:
        raise PositionError(f"not fields of a round's position: {', '.join(sorted(extra))} (a view's?)")
    hands = got["hands"]
    if len(hands) != rules.players:
        raise PositionError(f"the position has {len(hands)} hands but the rules have {rules.players} players")
    try:
        state = RoundState.from_deal(rules, got["dealer"], hands, got.get("stock", ()), got.get("discard", ()))
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    public = replace(state.public, **{name: got[name] for name in PUBLIC_HELD if name in got})
    try:
        return RoundState.from_parts(rules, public, state.hands, state.stock_top_first(), got.get("masters"))
    except ValueError as exc:
        raise PositionError(str(exc)) from None


def view_from_position(rules: Rules, text: str) -> View:
    """Read a view's position; the seat's legal actions and rule facts are worked out again by the engine.

    Raises:
        PositionError: the text is not a view's position.
    """
    got = parse_position(text)
    missing = [f.name for f in fields(Public) if f.name not in got] + [n for n in ("seat", "hand") if n not in got]
    if missing:
        raise PositionError(f"a view's position needs {', '.join(missing)}")
    extra = set(got) - {f.name for f in fields(Public)} - {"seat", "hand", "scores"}
    if extra:
        raise PositionError(f"not fields of a view's position: {', '.join(sorted(extra))} (a round's?)")
    partial = View(rules=rules, **got)
    try:
        # A position whose fields disagree (players=3 with two seats' lists, or with the rules) is no view.
        _check_resampled(partial, spectator=True)
        if partial.seat is None:
            return partial
        # The seat's legal actions depend only on what it sees: any consistent deal gives them.
        return state_from_view(partial, random.Random(0)).view(partial.seat, partial.scores)
    except ResampleError as exc:
        raise PositionError(str(exc)) from None
