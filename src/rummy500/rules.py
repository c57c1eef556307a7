"""The rules of a game: one frozen options object, presets, strict parsing.

Every option of RULES.md Part 2 is a field of :class:`Rules` with the same
name and default. :meth:`Rules.from_mapping` parses a record's ``rules``
object strictly: unknown names, bad values and combinations that make no
sense are refused together, in one :class:`RulesError` that lists every
problem. Nothing ever falls back silently to a default.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, NoReturn

from rummy500.cards import CardError, parse_card

__all__ = [
    "OPTIONS",
    "PRESETS",
    "Auto",
    "CallingRummy",
    "CardValues",
    "Choice",
    "CustomValues",
    "DiscardCount",
    "DiscardDraw",
    "Direction",
    "FirstDealer",
    "FirstDiscard",
    "GoingOut",
    "HandPenalty",
    "JokerUse",
    "JokerValue",
    "LayoffOnto",
    "MustUseTaken",
    "NextDealer",
    "GROUP_TITLES",
    "NumberRange",
    "OptionSpec",
    "Rounds",
    "Rules",
    "RulesError",
    "RummyCardValue",
    "SetSuits",
    "StockOut",
    "TakenCardUse",
    "choices",
    "preset_names",
]


class RulesError(ValueError):
    """Options that cannot be played, with every problem listed."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class NumberRange:
    """The whole numbers an option accepts beyond its named choices.

    ``minimum``/``maximum`` are inclusive; None means no bound on that side but
    :data:`NUMBER_LIMIT`, which bounds every option's numbers.
    """

    minimum: int | None
    maximum: int | None
    label: str
    description: str

    def span(self) -> str:
        """The range, short: ``7..13``, ``1 or more``, ``any whole number``."""
        if self.minimum is not None and self.maximum is not None:
            return f"{self.minimum}..{self.maximum}"
        if self.minimum is not None:
            return f"{self.minimum} or more"
        return "any whole number"

    def to_dict(self) -> dict[str, Any]:
        """The range as JSON: an unbounded side is bounded by :data:`NUMBER_LIMIT`, as the checks are.

        >>> OPTIONS["target"].number.to_dict()["min"], OPTIONS["target"].number.to_dict()["max"]
        (1, 1000000)
        """
        low = -NUMBER_LIMIT if self.minimum is None else self.minimum
        high = NUMBER_LIMIT if self.maximum is None else self.maximum
        return {"min": low, "max": high, "label": self.label, "description": self.description}

    def text(self) -> str:
        """The range in words: ``a whole number from 7 to 13``."""
        if self.minimum is not None and self.maximum is not None:
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"a whole number of at least {self.minimum}"
        return "any whole number"


@dataclass(frozen=True)
class OptionSpec:
    """One option of the catalogue: its default, its values and what it means.

    Attributes:
        name: the option's name in a record's ``rules`` object.
        default: the standard game's value (an enum member for a word).
        values: the values as RULES.md lists them (``"auto, 1, 2"``).
        description: what the option is about, in one line.
        check: whether a parsed JSON value is allowed.
        group: the part of the catalogue it belongs to.
        kind: the enum of an option whose values are all words.
        words: the enum of the words of an option that takes words or
            numbers (``decks: auto`` or ``decks: 2``).
        number: the whole numbers accepted beyond the named choices.
        value_choices: the named values of an option that is not an enum
            (booleans, numbers, words of a mixed option), in ``values`` order.
        label: the option's name in a player's words (``"Suits in a set"``).
        implied: what the engine plays for this option when a record leaves
            it out, given another option's value: ``({"when": {"dealers_gambit":
            True}, "value": "anticlockwise"}, ...)`` (see :data:`IMPLIED`).
    """

    name: str
    default: Any
    values: str
    description: str
    check: Callable[[Any], bool]
    group: str
    kind: type[StrEnum] | None = None
    words: type[StrEnum] | None = None
    number: NumberRange | None = None
    value_choices: tuple[Choice, ...] = ()
    label: str = ""
    implied: tuple[dict[str, Any], ...] = ()

    @property
    def choices(self) -> tuple[Choice, ...]:
        """Every named value with its label and description (empty for a free number or an object)."""
        return choices(self.kind) if self.kind is not None else self.value_choices

    def to_dict(self) -> dict[str, Any]:
        """The option as JSON (``rummy500 rules --json``, ``GET /api/rules``).

        >>> OPTIONS["hand_size"].to_dict()["choices"][0]["label"], OPTIONS["hand_size"].to_dict()["number"]["max"]
        ('Automatic', 13)
        >>> OPTIONS["partnership"].to_dict()["seats"], OPTIONS["direction"].to_dict()["implied"]
        ([{'value': True, 'players': [4]}], [{'when': {'dealers_gambit': True}, 'value': 'anticlockwise'}])
        """
        n = self.number
        default = self.default.value if isinstance(self.default, StrEnum) else self.default
        seats = [{"value": c.value, "players": p} for c in self.choices if (p := choice_players(self.name, c.value))]
        return {
            "name": self.name,
            "label": self.label,
            "default": dict(default) if isinstance(default, dict) else default,
            "values": self.values,
            "description": self.description,
            "group": self.group,
            "choices": [{"value": c.value, "label": c.label, "description": c.description} for c in self.choices],
            "number": None if n is None else n.to_dict(),
            "implied": [{"when": dict(i["when"]), "value": i["value"]} for i in self.implied],
            "seats": seats,
        }

    def allowed(self) -> str:
        """The allowed values in words, for error messages: ``auto, 1 or 2``."""
        named = [_json_text(c.value) for c in self.choices]
        if self.number is not None:
            named.append(self.number.text())
        if not named:
            return self.values
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]


def _json_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _one_of(*allowed: Any) -> Callable[[Any], bool]:
    def check(v: Any) -> bool:
        # bool is an int in Python: keep True from passing for 1.
        return any(v == a and type(v) is type(a) for a in allowed)

    return check


#: The largest size of a number an option takes (a card value, a bonus, a target): far beyond any
#: table's, small enough that no total of a game can outgrow what a record may hold.
NUMBER_LIMIT = 1_000_000


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -NUMBER_LIMIT <= v <= NUMBER_LIMIT


def _too_big(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and not -NUMBER_LIMIT <= v <= NUMBER_LIMIT


def _int_in(lo: int, hi: int) -> Callable[[Any], bool]:
    return lambda v: _is_int(v) and lo <= v <= hi


def _words_or(kind: type[StrEnum], check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """A mixed option's check: one of the words of ``kind``, or a value ``check`` allows."""
    return lambda v: (isinstance(v, str) and v in kind._value2member_map_) or check(v)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _custom_values_ok(v: Any) -> bool:
    if not isinstance(v, Mapping):
        return False
    for key, val in v.items():
        if not _is_int(val):
            return False
        if not isinstance(key, str):
            return False
        if key.upper() in _RANK_KEYS or key.upper() == "JK":
            continue
        try:
            c = parse_card(key)
        except CardError:
            return False
        if c.is_declared:
            return False
    return True


class CustomValues(dict[str, int]):
    """``custom_values`` as :class:`Rules` holds it: a read-only ``dict`` with the keys normalised.

    A ``Rules`` is frozen and hashable (memo tables key on it), so its card values
    cannot change after it is built: every method that would change the dict raises
    ``TypeError``. Keys are written as :meth:`Rules.from_mapping` writes them (``QS``,
    ``T``, ``JK``: upper case, ``10`` as ``T``). It is a ``dict`` for everything else:
    JSON, ``dict(values)``, equality with a plain dict, pickling.

    >>> values = Rules(custom_values={"qs": 40, "10": 5}).custom_values
    >>> values, values == {"QS": 40, "T": 5}
    ({'QS': 40, 'T': 5}, True)
    >>> values["QS"] = 50
    Traceback (most recent call last):
    TypeError: a Rules' custom_values cannot be changed: build other rules (rules.replace(custom_values=...))
    """

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a Rules' custom_values cannot be changed: build other rules (rules.replace(custom_values=...))")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __hash__(self) -> int:  # type: ignore[override]  # (dict's is None: it is mutable)
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, tuple[dict[str, int]]]:
        return CustomValues, (dict(self),)

    def __copy__(self) -> CustomValues:
        return self

    def __deepcopy__(self, memo: Any) -> CustomValues:
        return self


#: No custom values: the default of ``custom_values`` (and what a Rules without any holds).
_NO_CUSTOM = CustomValues()


# ------------------------------------------------------------------ choices
# The options whose value is one of a few words are enums: code compares
# members (``rules.stock_out is StockOut.PLAY_ON``), so a typo fails
# type-checking and raises at run time instead of being silently false. Each
# member has a label in a player's words and a description of that value;
# they feed parsing, ``rummy500 rules``, the rules endpoint and its web form.


@dataclass(frozen=True)
class Choice:
    """One value of an option: the value, a short label, what choosing it means."""

    value: str | int | bool
    label: str
    description: str


# The options that take a word or a number (``decks: auto`` / ``decks: 2``)
# keep the word as a member of one of these enums and the number as an int,
# so code tests ``isinstance(rules.decks, Auto)`` or reads an accessor
# (``rules.n_decks``), never a string.


class Auto(StrEnum):
    """``auto`` of ``decks``, ``jokers``, ``hand_size`` and ``low_ace_value``: follow the other options."""

    AUTO = "auto"


class JokerValue(StrEnum):
    """The words of ``joker_value`` (its numbers are ints)."""

    AUTO = "auto"
    REPRESENTED = "represented"


class RummyCardValue(StrEnum):
    """The word of ``rummy_card_value`` (its other value is the int 15)."""

    NORMAL = "normal"


class Rounds(StrEnum):
    """The word of ``rounds`` (a fixed number of rounds is an int)."""

    TO_TARGET = "to_target"


class FirstDiscard(StrEnum):
    """``first_discard``: how the discard pile starts."""

    UPCARD = "upcard"
    FIRST_PLAYER = "first_player"


class FirstDealer(StrEnum):
    """``first_dealer``: who deals first after cutting."""

    HIGH_CARD = "high_card"
    LOW_CARD = "low_card"


class NextDealer(StrEnum):
    """``next_dealer``: who deals the next round."""

    LEFT = "left"
    ROUND_WINNER = "round_winner"


class Direction(StrEnum):
    """``direction``: the direction of dealing and play."""

    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"



class SetSuits(StrEnum):
    """``set_suits``: may a set repeat a suit (two packs)."""

    DISTINCT = "distinct"
    ANY = "any"


class JokerUse(StrEnum):
    """``joker_use``: what jokers may do."""

    WILD = "wild"
    JOKER_SETS_ONLY = "joker_sets_only"


class LayoffOnto(StrEnum):
    """``layoff_onto``: whose melds a player may extend."""

    ANY = "any"
    OWN = "own"
    OWN_AND_PARTNER = "own_and_partner"


class DiscardDraw(StrEnum):
    """``discard_draw``: how deep a player may take from the discard pile."""

    ANY_DEPTH = "any_depth"
    TOP_ONLY = "top_only"


class MustUseTaken(StrEnum):
    """``must_use_taken``: when the card taken from the pile must be used."""

    IF_SEVERAL = "if_several"
    ALWAYS = "always"


class TakenCardUse(StrEnum):
    """``taken_card_use``: how the card taken from the pile must be used."""

    MELD_OR_LAYOFF = "meld_or_layoff"
    NEW_MELD = "new_meld"


class DiscardCount(StrEnum):
    """``discard_count``: how many cards end a turn."""

    ONE = "one"
    MATCH_DRAWN = "match_drawn"


class GoingOut(StrEnum):
    """``going_out``: how a player may go out."""

    ANY = "any"
    DISCARD_REQUIRED = "discard_required"
    FLOATING = "floating"
    UNPLAYABLE_DISCARD = "unplayable_discard"


class StockOut(StrEnum):
    """``stock_out``: what happens when the stock runs out."""

    END_ROUND = "end_round"
    IMMEDIATE = "immediate"
    RESHUFFLE = "reshuffle"
    PLAY_ON = "play_on"


class CallingRummy(StrEnum):
    """``calling_rummy``: calling Rummy! on a playable card in the pile."""

    OFF = "off"
    PILE = "pile"
    TOP_CARD = "top_card"
    STEAL = "steal"


class CardValues(StrEnum):
    """``card_values``: the table of card values."""

    STANDARD = "standard"
    FLAT = "flat"
    ACE_25 = "ace_25"
    PIP_RANK = "pip_rank"
    ACE_11 = "ace_11"


class HandPenalty(StrEnum):
    """``hand_penalty``: who scores the cards left in hand."""

    OWN = "own"
    TO_GOER = "to_goer"


# Keyed by (enum, value): members of different enums with the same value
# ("any", "own") are equal as strings, so they cannot be keys of one dict.
_CHOICE_ITEMS: tuple[tuple[StrEnum, tuple[str, str]], ...] = (
    (FirstDiscard.UPCARD, ("Upcard", "one card is turned up to start the discard pile")),
    (FirstDiscard.FIRST_PLAYER, ("First player discards", "no upcard: the first player gets one card more and starts the pile by discarding")),
    (FirstDealer.HIGH_CARD, ("High card deals", "everyone cuts; the highest card deals first")),
    (FirstDealer.LOW_CARD, ("Low card deals", "everyone cuts; the lowest card (ace low) deals first")),
    (NextDealer.LEFT, ("Pass to the left", "the deal passes to the next player")),
    (NextDealer.ROUND_WINNER, ("Winner deals", "the player who went out deals the next round")),
    (Direction.CLOCKWISE, ("Clockwise", "deal and play go to the left")),
    (Direction.ANTICLOCKWISE, ("Anticlockwise", "deal and play go to the right")),
    (SetSuits.DISTINCT, ("One of each suit", "a set never repeats a suit")),
    (SetSuits.ANY, ("Suits may repeat", "with two packs a set may hold the same card twice and grow past 4 cards")),
    (JokerUse.WILD, ("Wild jokers", "a joker stands for any card you name")),
    (JokerUse.JOKER_SETS_ONLY, ("Joker sets only", "jokers are not wild: they meld only as a set of 3 or 4 jokers (Persian); needs 3 or more jokers")),
    (LayoffOnto.ANY, ("Any meld", "you may lay off on anybody's meld")),
    (LayoffOnto.OWN, ("Own melds", "you may lay off only on melds you laid down")),
    (LayoffOnto.OWN_AND_PARTNER, ("Own and partner's", "you may lay off on your side's melds only (partnerships)")),
    (DiscardDraw.ANY_DEPTH, ("Any depth", "you may take a card from anywhere in the pile, with every card above it")),
    (DiscardDraw.TOP_ONLY, ("Top card only", "you may take only the top card of the pile")),
    (MustUseTaken.IF_SEVERAL, ("When taking several", "the deepest card taken must be used when you took more than one")),
    (MustUseTaken.ALWAYS, ("Always", "a card taken from the pile must be used even when it was the top card alone")),
    (TakenCardUse.MELD_OR_LAYOFF, ("Meld or lay off", "the card you must use may go in a new meld or be laid off")),
    (TakenCardUse.NEW_MELD, ("New meld", "the card you must use has to go into a new meld")),
    (DiscardCount.ONE, ("One card", "a turn ends with one discard")),
    (DiscardCount.MATCH_DRAWN, ("As many as drawn", "a turn ends by discarding as many cards as you drew")),
    (GoingOut.ANY, ("Any way", "you go out when your last card is played, by a meld, lay-off or discard")),
    (GoingOut.DISCARD_REQUIRED, ("With a discard", "you must keep a card to discard, so you may not meld your last cards")),
    (GoingOut.FLOATING, ("Floating", "you may meld all your cards, then float and go out only by discarding on a later turn")),
    (GoingOut.UNPLAYABLE_DISCARD, ("Unplayable discard", "your going-out discard must not fit a meld on the table, else you float")),
    (StockOut.END_ROUND, ("End the round", "when the stock is empty, the next player may still take from the pile under the usual rules; if they do not, the round ends")),
    (StockOut.IMMEDIATE, ("End at once", "the round ends as soon as the player who drew the last stock card finishes that turn")),
    (StockOut.RESHUFFLE, ("Reshuffle", "the pile below its top card is shuffled into a new stock")),
    (StockOut.PLAY_ON, ("Play on", "play goes on, taking from the pile and discarding each turn, until someone goes out")),
    (CallingRummy.OFF, ("Off", "nobody calls Rummy")),
    (CallingRummy.PILE, ("Whole pile", "call Rummy on a playable card anywhere in the pile, take it and the cards above, and play a turn")),
    (CallingRummy.TOP_CARD, ("Top card", "call Rummy only on the card just discarded")),
    (CallingRummy.STEAL, ("Steal", "call Rummy to lay the playable card alone at once; play goes on")),
    (CardValues.STANDARD, ("Standard", "the standard values: aces 15 (1 at the low end of a run, see Low ace value), face cards 10, number cards their pips")),
    (CardValues.FLAT, ("5-10-15", "2 to 9 count 5, 10 J Q K count 10, aces 15 (5 when low), jokers 15")),
    (CardValues.ACE_25, ("Aces 25", "as standard, but aces count 25 wherever they are")),
    (CardValues.PIP_RANK, ("Rank value", "ace 1, 2 to 10 their pips, J 11, Q 12, K 13, jokers 15")),
    (CardValues.ACE_11, ("Aces 11", "aces 11 (1 when low), J Q K 10; a melded joker counts as the card it stands for, in hand aces and jokers 15")),
    (HandPenalty.OWN, ("Against the holder", "cards left in your hand count against you")),
    (HandPenalty.TO_GOER, ("To the goer", "cards left in hand score for the player who went out")),
)
_CHOICE_TEXT: dict[tuple[type[StrEnum], str], tuple[str, str]] = {(type(m), m.value): text for m, text in _CHOICE_ITEMS}
assert len(_CHOICE_TEXT) == len(_CHOICE_ITEMS), "a member is described twice"


def choices(kind: type[StrEnum]) -> tuple[Choice, ...]:
    """The values of an enumerated option, each with its label and description."""
    return tuple(Choice(m.value, *_CHOICE_TEXT[kind, m.value]) for m in kind)


def _member_of(kind: type[StrEnum]) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and v in kind._value2member_map_


#: Dealer's Gambit deals 7 cards each from one 54-card pack less the dealer's joker.
GAMBIT_MAX_PLAYERS = 7

_RANK_KEYS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"}

_SPECS: list[OptionSpec] = [
    # Table and cards
    OptionSpec("players", 2, "2..8", "number of seats", _int_in(2, 8), "table"),
    OptionSpec("decks", Auto.AUTO, "auto, 1, 2", "packs used: auto is 1 for 2-4 players, 2 for 5-8 (always 1 with Dealer's Gambit)", _words_or(Auto, _one_of(1, 2)), "table", words=Auto),
    OptionSpec("jokers", Auto.AUTO, "auto, 0, 1, 2, 4", "jokers in the game: auto is 2 per pack, 0 the original jokerless game", _words_or(Auto, _one_of(0, 1, 2, 4)), "table", words=Auto),
    OptionSpec("short_pack", False, "false, true", "a 32-card pack per deck: 7 8 9 10 J Q K A of each suit", _is_bool, "table"),
    OptionSpec("hand_size", Auto.AUTO, "auto, 7..13", "cards dealt to each player: auto is 13 for 2 players, 7 for 3+", _words_or(Auto, _int_in(7, 13)), "table", words=Auto),
    OptionSpec("first_discard", FirstDiscard("upcard"), "upcard, first_player", "how the discard pile starts: an upcard turned from the stock, or the first player gets an extra card and starts the pile by discarding", _member_of(FirstDiscard), "table", FirstDiscard),
    OptionSpec("first_dealer", FirstDealer("high_card"), "high_card, low_card", "who deals first after cutting: the highest card or the lowest (ace low)", _member_of(FirstDealer), "table", FirstDealer),
    OptionSpec("next_dealer", NextDealer("left"), "left, round_winner", "next dealer: the player to the left, or the player who went out", _member_of(NextDealer), "table", NextDealer),
    OptionSpec("direction", Direction("clockwise"), "clockwise, anticlockwise", "direction of dealing and play", _member_of(Direction), "table", Direction),
    # Melds
    OptionSpec("min_run", 3, "3, 4", "shortest run that may be laid down as a new meld", _one_of(3, 4), "melds"),
    OptionSpec("around_the_corner", False, "false, true", "runs may wrap from king to ace to two: Q K A 2 3", _is_bool, "melds"),
    OptionSpec("set_suits", SetSuits("distinct"), "distinct, any", "with two packs, may a set repeat a suit (then sets may exceed 4 cards)", _member_of(SetSuits), "melds", SetSuits),
    OptionSpec("joker_use", JokerUse("wild"), "wild, joker_sets_only", "what jokers do: wild cards, or (Persian; needs 3 or more jokers) not wild, melded only in sets of 3 or 4 jokers", _member_of(JokerUse), "melds", JokerUse),
    OptionSpec("joker_swap", False, "false, true", "a player holding the card a melded joker stands for may swap it in and take the joker", _is_bool, "melds"),
    OptionSpec("first_meld_min", 0, "0, 30, any integer", "a player's first melding turn of a round must lay down at least this many points", lambda v: _is_int(v) and v >= 0, "melds"),
    OptionSpec("layoff_needs_own_meld", False, "false, true", "a player may lay off only after laying down a meld of their own this round", _is_bool, "melds"),
    OptionSpec("layoff_onto", LayoffOnto("any"), "any, own, own_and_partner", "whose melds a player may extend", _member_of(LayoffOnto), "melds", LayoffOnto),
    OptionSpec("meld_out_of_turn", False, "false, true", "players may meld and lay off during other players' turns", _is_bool, "melds"),
    # Drawing from the discard pile
    OptionSpec("discard_draw", DiscardDraw("any_depth"), "any_depth, top_only", "may a player take from below the top card of the discard pile", _member_of(DiscardDraw), "drawing", DiscardDraw),
    OptionSpec("must_use_taken", MustUseTaken("if_several"), "if_several, always", "when a card taken from the pile must be used that turn: when more than one was taken (the deepest), or always, even the top card alone", _member_of(MustUseTaken), "drawing", MustUseTaken),
    OptionSpec("taken_card_use", TakenCardUse("meld_or_layoff"), "meld_or_layoff, new_meld", "how the deepest card taken from the pile must be used: melded or laid off, or only in a new meld", _member_of(TakenCardUse), "drawing", TakenCardUse),
    OptionSpec("discard_back", False, "false, true", "may the single top card taken be discarded again in the same turn", _is_bool, "drawing"),
    OptionSpec("stock_draw_count", 1, "1, 2", "cards taken when drawing from the stock (2: Boathouse)", _one_of(1, 2), "drawing"),
    OptionSpec("discard_count", DiscardCount("one"), "one, match_drawn", "cards discarded to end a turn: one, or as many as were drawn", _member_of(DiscardCount), "drawing", DiscardCount),
    # Going out and stock exhaustion
    OptionSpec("going_out", GoingOut("any"), "any, discard_required, floating, unplayable_discard", "how a player may go out: any way, only with a discard, float after melding out, or with an unplayable discard", _member_of(GoingOut), "going_out", GoingOut),
    OptionSpec("stock_out", StockOut("end_round"), "end_round, immediate, reshuffle, play_on", "what happens when the stock runs out", _member_of(StockOut), "going_out", StockOut),
    OptionSpec("stock_out_penalty", True, "true, false", "when a round ends on an empty stock, do cards left in hand count against their holders", _is_bool, "going_out"),
    # Calling Rummy
    OptionSpec("calling_rummy", CallingRummy("off"), "off, pile, top_card, steal", "calling Rummy! on a playable card in the discard pile", _member_of(CallingRummy), "calling", CallingRummy),
    OptionSpec("rummy_card_value", RummyCardValue.NORMAL, "normal, 15", "value scored for a card claimed by calling Rummy", _words_or(RummyCardValue, _one_of(15)), "calling", words=RummyCardValue),
    OptionSpec("rummy_after_going_out", False, "false, true", "a going-out discard that leaves a playable card in the pile is a Rummy: the player takes the pile above it back into hand, and play goes on", _is_bool, "calling"),
    # Card values and scoring
    OptionSpec("card_values", CardValues("standard"), "standard, flat, ace_25, pip_rank, ace_11", "the table of card values", _member_of(CardValues), "scoring", CardValues),
    OptionSpec("low_ace_value", Auto.AUTO, "auto, any integer", "value of an ace at the low end of a run", _words_or(Auto, _is_int), "scoring", words=Auto),
    OptionSpec("joker_value", JokerValue.AUTO, "auto, 0, 15, 20, represented", "value of a joker: from the card values, a fixed 0, 15 or 20, or as the card it stands for (represented)", _words_or(JokerValue, _one_of(0, 15, 20)), "scoring", words=JokerValue),
    OptionSpec("custom_values", _NO_CUSTOM, "{} or an object", "house values for particular cards or ranks, applied last, e.g. the queen of spades (QS) 40", _custom_values_ok, "scoring"),
    OptionSpec("four_aces_bonus", False, "false, true", "a set of four aces laid down at once by one player counts 100", _is_bool, "scoring"),
    OptionSpec("four_of_a_kind_double", False, "false, true", "a set of four laid down at once counts double (Persian)", _is_bool, "scoring"),
    OptionSpec("score_divisor", 1, "1, 5", "all values divided by 5 (use with a winning total of 100)", _one_of(1, 5), "scoring"),
    OptionSpec("hand_penalty", HandPenalty("own"), "own, to_goer", "whom the cards left in hand count for: against their holders, or for the player who went out", _member_of(HandPenalty), "scoring", HandPenalty),
    OptionSpec("going_out_bonus", 0, "0, any integer", "bonus to the side of the player who goes out (Persian: 25)", _is_int, "scoring"),
    OptionSpec("masters_hand", False, "false, true", "laying down a 7-card run and then going out by discard scores 500 for the round", _is_bool, "scoring"),
    # Winning
    OptionSpec("target", 500, "500, any positive integer", "winning total", lambda v: _is_int(v) and v > 0, "winning"),
    OptionSpec("must_go_out_to_win", False, "false, true", "only a player who went out in the round and reached the target can win", _is_bool, "winning"),
    OptionSpec("rounds", Rounds.TO_TARGET, "to_target, N", "play to the target, or a fixed number of rounds (highest total wins)", _words_or(Rounds, lambda v: _is_int(v) and v >= 1), "winning", words=Rounds),
    OptionSpec("final_bonus", 0, "0, any integer", "bonus to the side with the best total after the last round (Persian: 50)", _is_int, "winning"),
    # Partnerships and Dealer's Gambit
    OptionSpec("partnership", False, "false, true", "4 players in two sides, seats 0 & 2 against 1 & 3", _is_bool, "partnership"),
    OptionSpec("dealers_gambit", False, "false, true", "one 54-card pack (2-7 players), the dealer's joker, and the dealer nominates what jokers do each hand; played anticlockwise", _is_bool, "gambit"),
]

# The named values of the options that are not enums, each with a label and a
# description (in the order of ``values``), and the free whole numbers some
# accept. Booleans: (label, description) for false, then for true.
_BOOL_TEXT: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "short_pack": (("Full pack", "52 cards per pack"), ("Short pack", "32 cards per pack: 7 8 9 10 J Q K A of each suit; the ace is high only")),
    "around_the_corner": (("No wrapping", "the ace is low (A 2 3) or high (Q K A), never both"), ("Around the corner", "runs may wrap from king to ace to two: Q K A 2 3")),
    "joker_swap": (("No swaps", "a melded joker stays where it is"), ("Joker swap", "holding the card a melded joker stands for, you may put it in the joker's place and take the joker")),
    "layoff_needs_own_meld": (("Lay off any time", "you may lay off before you have melded"), ("Meld first", "you may lay off only after laying down a meld of your own this round")),
    "meld_out_of_turn": (("Own turn only", "you meld and lay off only in your own turn"), ("Out of turn", "you may meld and lay off during other players' turns (not your last card)")),
    "discard_back": (("No discard back", "the single top card you took may not be discarded this turn"), ("Discard back", "you may discard the single top card you just took")),
    "stock_out_penalty": (("No penalty", "when the stock runs out nobody deducts their hand"), ("Hands count", "when the stock runs out, cards left in hand count against their holders")),
    "rummy_after_going_out": (("Going out ends it", "going out ends the round even if a callable card is left in the pile"), ("Rummy on going out", "a going-out discard that leaves a callable card in the pile: you take the cards above it back into hand, and play goes on")),
    "four_aces_bonus": (("No bonus", "four aces count their usual value"), ("Four aces 100", "four natural aces laid down at once in one meld count 100")),
    "four_of_a_kind_double": (("No doubling", "a set of four counts its usual value"), ("Fours double", "a set laid down with four cards at once counts double (Persian)")),
    "masters_hand": (("No master's hand", "a long run counts its usual value"), ("Master's hand", "a run of 7+ laid down in the turn you go out by discarding scores 500 for the round")),
    "must_go_out_to_win": (("Best total wins", "the highest total at or over the target wins"), ("Go out to win", "only the player (side) who went out in the round and reached the target can win")),
    "partnership": (("Every player alone", "each seat scores for itself"), ("Partnerships", "4 players in two sides, seats 0 & 2 against 1 & 3")),
    "dealers_gambit": (("Off", "no dealer's joker"), ("Dealer's Gambit", "one 54-card pack for 2 to 7 players, the dealer's joker, and the dealer says each hand what jokers do; dealt and played anticlockwise, jokers count 0")),
}

_VALUE_TEXT: dict[str, tuple[tuple[str | int, str, str], ...]] = {
    "decks": (
        (Auto.AUTO, "Automatic", "one pack for 2-4 players, two for 5-8 (always one with Dealer's Gambit)"),
        (1, "One pack", "one pack of 52 cards (32 with a short pack), plus the jokers"),
        (2, "Two packs", "two packs of 52 cards (32 with short packs), plus the jokers"),
    ),
    "jokers": (
        (Auto.AUTO, "Automatic", "2 jokers per pack"),
        (0, "No jokers", "the original jokerless game"),
        (1, "One joker", "one joker in the game"),
        (2, "Two jokers", "two jokers in the game"),
        (4, "Four jokers", "four jokers in the game (Persian)"),
    ),
    "hand_size": ((Auto.AUTO, "Automatic", "13 cards each for 2 players, 7 for 3 or more"),),
    "min_run": (
        (3, "Three cards", "a new run needs at least 3 cards"),
        (4, "Four cards", "a new run needs at least 4 cards"),
    ),
    "first_meld_min": (
        (0, "No minimum", "any meld may be a player's first"),
        (30, "30 points", "a player's first melding turn must lay down at least 30 points"),
    ),
    "stock_draw_count": (
        (1, "One card", "draw one card from the stock"),
        (2, "Two cards", "draw two cards from the stock (Boathouse)"),
    ),
    "rummy_card_value": (
        (RummyCardValue.NORMAL, "Usual value", "a card claimed by calling Rummy scores its usual value"),
        (15, "15 points", "a card claimed by calling Rummy scores 15 wherever it is used"),
    ),
    "low_ace_value": ((Auto.AUTO, "From the card values", "a low ace counts as the card values say (1; 5 with 5-10-15, 25 with Aces 25)"),),
    "joker_value": (
        (JokerValue.AUTO, "From the card values", "a joker counts 15 (0 under Dealer's Gambit; with Aces 11 a melded joker counts as its card)"),
        (0, "0 points", "jokers count nothing"),
        (15, "15 points", "jokers count 15"),
        (20, "20 points", "jokers count 20 (Persian)"),
        (JokerValue.REPRESENTED, "As its card", "a melded joker counts as the card it stands for; 15 in hand"),
    ),
    "score_divisor": (
        (1, "Full points", "scores count as they are"),
        (5, "Divided by 5", "each round score is divided by 5 (use with target 100)"),
    ),
    "going_out_bonus": ((0, "No bonus", "going out earns nothing extra"),),
    "target": ((500, "500", "the standard winning total"),),
    "rounds": ((Rounds.TO_TARGET, "To the target", "play rounds until a total reaches the target"),),
    "final_bonus": ((0, "No bonus", "the winner gets nothing extra"),),
}

_NUMBERS: dict[str, NumberRange] = {
    "players": NumberRange(2, 8, "Players", "seats at the table"),
    "hand_size": NumberRange(7, 13, "Cards each", "deal this many cards to each player"),
    "first_meld_min": NumberRange(0, None, "Opening points", "a player's first melding turn must lay down at least this many points"),
    "low_ace_value": NumberRange(None, None, "Low ace points", "an ace at the low end of a run counts this many points"),
    "going_out_bonus": NumberRange(None, None, "Bonus points", "added to the round score of the side that goes out"),
    "target": NumberRange(1, None, "Winning total", "the game ends after the round in which a total reaches this"),
    "rounds": NumberRange(1, None, "Fixed rounds", "play this many rounds; the highest total wins (ties play on)"),
    "final_bonus": NumberRange(None, None, "Bonus points", "added to the side with the best total when the game is decided"),
}


def _value_choices(spec: OptionSpec) -> tuple[Choice, ...]:
    if spec.name in _BOOL_TEXT:
        off, on = _BOOL_TEXT[spec.name]
        by_value = {False: Choice(False, *off), True: Choice(True, *on)}
        return tuple(by_value[v.strip() == "true"] for v in spec.values.split(","))
    return tuple(Choice(v.value if isinstance(v, StrEnum) else v, label, text) for v, label, text in _VALUE_TEXT.get(spec.name, ()))


#: Each option's name in a player's words: the web form's row labels and docs/rules.md's tables.
_LABELS: dict[str, str] = {
    "players": "Seats",
    "decks": "Packs",
    "jokers": "Jokers",
    "short_pack": "Short pack",
    "hand_size": "Cards dealt",
    "first_discard": "Starting the discard pile",
    "first_dealer": "First dealer",
    "next_dealer": "Next dealer",
    "direction": "Direction of play",
    "min_run": "Shortest new run",
    "around_the_corner": "Runs around the corner",
    "set_suits": "Suits in a set",
    "joker_use": "What jokers do",
    "joker_swap": "Joker swap",
    "first_meld_min": "First meld minimum",
    "layoff_needs_own_meld": "Lay off only after your own meld",
    "layoff_onto": "Lay off onto",
    "meld_out_of_turn": "Meld out of turn",
    "discard_draw": "Taking from the discard pile",
    "must_use_taken": "Using a card taken",
    "taken_card_use": "How a taken card is used",
    "discard_back": "Discarding the card just taken",
    "stock_draw_count": "Cards drawn from the stock",
    "discard_count": "Cards discarded",
    "going_out": "Going out",
    "stock_out": "When the stock runs out",
    "stock_out_penalty": "Hands count when the stock runs out",
    "calling_rummy": "Calling Rummy",
    "rummy_card_value": "Value of a card claimed by Rummy",
    "rummy_after_going_out": "Rummy on a going-out discard",
    "card_values": "Card values",
    "low_ace_value": "Low ace value",
    "joker_value": "Joker value",
    "custom_values": "House card values",
    "four_aces_bonus": "Four aces bonus",
    "four_of_a_kind_double": "Four of a kind double",
    "score_divisor": "Score divisor",
    "hand_penalty": "Cards left in hand",
    "going_out_bonus": "Going-out bonus",
    "masters_hand": "Master's Hand",
    "target": "Winning total",
    "must_go_out_to_win": "Go out to win",
    "rounds": "Rounds",
    "final_bonus": "Final bonus",
    "partnership": "Partnerships",
    "dealers_gambit": "Dealer's Gambit",
}

#: What the engine plays for an option a record leaves out, given another option's value: the value
#: :meth:`Rules.from_mapping` puts in (``direction`` under ``dealers_gambit``), or the number an
#: ``auto`` option comes to (``low_ace_value`` under each ``card_values``). Served as each option's
#: ``implied`` so a form shows what will be played; tests check it against the engine.
IMPLIED: dict[str, tuple[dict[str, Any], ...]] = {
    "direction": ({"when": {"dealers_gambit": True}, "value": "anticlockwise"},),
    "low_ace_value": (
        {"when": {"card_values": "standard"}, "value": 1},
        {"when": {"card_values": "flat"}, "value": 5},
        {"when": {"card_values": "ace_25"}, "value": 25},
        {"when": {"card_values": "pip_rank"}, "value": 1},
        {"when": {"card_values": "ace_11"}, "value": 1},
    ),
}

_SPECS = [
    dataclasses.replace(
        s,
        number=_NUMBERS.get(s.name),
        value_choices=_value_choices(s),
        label=_LABELS[s.name],
        implied=IMPLIED.get(s.name, ()),
    )
    for s in _SPECS
]
assert set(_LABELS) == {s.name for s in _SPECS}, "every option needs a label, and only options have one"

OPTIONS: dict[str, OptionSpec] = {s.name: s for s in _SPECS}

_WORD_OPTIONS: tuple[OptionSpec, ...] = tuple(s for s in _SPECS if s.kind is not None or s.words is not None)

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "popular": {"calling_rummy": "pile"},
    "hoyle": {"jokers": 0, "hand_size": 10, "first_discard": "first_player", "first_dealer": "low_card"},
    "boathouse": {"going_out": "discard_required", "stock_draw_count": 2},
    "quick": {"card_values": "flat", "score_divisor": 5, "target": 100},
    "partnership": {"partnership": True, "players": 4},
    "persian": {
        "partnership": True,
        "players": 4,
        "jokers": 4,
        "joker_value": 20,
        "joker_use": "joker_sets_only",
        "four_of_a_kind_double": True,
        "going_out_bonus": 25,
        "rounds": 2,
        "final_bonus": 50,
    },
    "dealers_gambit": {"dealers_gambit": True, "target": 250, "direction": "anticlockwise", "jokers": 2},
}

#: Each preset's name in a player's words (the lobby's list, ``GET /api/rules``).
PRESET_LABELS: dict[str, str] = {
    "standard": "Standard",
    "popular": "Popular (calling Rummy!)",
    "hoyle": "Hoyle",
    "boathouse": "Boathouse",
    "quick": "Quick game to 100",
    "partnership": "Partnerships",
    "persian": "Persian Rummy",
    "dealers_gambit": "Dealer's Gambit",
}

PRESET_DESCRIPTIONS: dict[str, str] = {
    "standard": "the standard game: one pack and 2 jokers (two packs for 5+), play to 500",
    "popular": "standard plus calling Rummy! on the pile",
    "hoyle": "no jokers, 10 cards each, the first player starts the pile, lowest cut deals",
    "boathouse": "a discard is required to go out; draw two from the stock",
    "quick": "5-10-15 values divided by 5, played to 100",
    "partnership": "four players in two sides",
    "persian": "partnership with four 20-point jokers in sets only, doubles, two deals",
    "dealers_gambit": "the dealer's joker and nominated jokers, anticlockwise, to 250",
}


_SEATS = tuple(range(2, 9))


def _playable(mapping: dict[str, Any], players: int) -> bool:
    try:
        Rules.from_mapping(mapping, players=players)
    except RulesError:
        return False
    return True


@functools.cache
def choice_players(name: str, value: Any) -> list[int] | None:
    """The seat counts at which choosing ``value`` for option ``name`` can be played; None when every count can.

    A count counts when the choice plays there alone or with one other option
    changed too (``set_suits: any`` with ``decks: 2``), so only a limit that
    no other option lifts is given: Partnerships need 4 seats, Dealer's
    Gambit and one pack 2 to 7. It is worked out by the engine's own checks.

    >>> choice_players("dealers_gambit", True), choice_players("dealers_gambit", False)
    ([2, 3, 4, 5, 6, 7], None)
    """
    if name == "players":
        return None
    base = {name: value}
    seats = {n for n in _SEATS if _playable(base, n)}
    if len(seats) < len(_SEATS):
        for other in _SPECS:
            if other.name in (name, "players"):
                continue
            for c in other.choices:
                missing = [n for n in _SEATS if n not in seats]
                if not missing:
                    break
                seats.update(n for n in missing if _playable({**base, other.name: c.value}, n))
    return None if len(seats) == len(_SEATS) else sorted(seats)


def preset_names() -> list[str]:
    """The preset names, in RULES.md order."""
    return list(PRESETS)


def _values_equal(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


#: While False (:meth:`Rules._any_combination`), a Rules built is not checked for options that make no
#: sense together (each value still is).
_CHECK_COMBINATIONS: ContextVar[bool] = ContextVar("rummy500_check_combinations", default=True)


# Enum members the engine's hot properties compare with, bound once (reading a
# member off an Enum class costs ~0.2 us in Python 3.11).
_CLOCKWISE = Direction.CLOCKWISE
_JOKER_USE_WILD = JokerUse.WILD
_LAYOFF_ONTO_ANY = LayoffOnto.ANY
_LAYOFF_ONTO_OWN = LayoffOnto.OWN
_SET_SUITS_ANY = SetSuits.ANY


@dataclass(frozen=True)
class Rules:
    """The options of one game. Build it with :meth:`from_mapping` or :meth:`preset_rules`.

    Field names and defaults are those of RULES.md Part 2; the defaults are the
    standard game of Part 1. Built directly (``Rules(players=3, ...)``) it is
    checked as :meth:`from_mapping` checks it: a bad value or options that make
    no sense together raise :class:`RulesError`, words become enum members and
    ``custom_values`` keys are normalised (``qs`` is ``QS``) into a read-only
    :class:`CustomValues`. (Unlike :meth:`from_mapping`, nothing is implied: a
    ``Rules(dealers_gambit=True)`` keeps the default ``direction``.)
    """

    players: int = 2
    decks: int | Auto = Auto.AUTO
    jokers: int | Auto = Auto.AUTO
    short_pack: bool = False
    hand_size: int | Auto = Auto.AUTO
    first_discard: FirstDiscard = FirstDiscard.UPCARD
    first_dealer: FirstDealer = FirstDealer.HIGH_CARD
    next_dealer: NextDealer = NextDealer.LEFT
    direction: Direction = Direction.CLOCKWISE
    min_run: int = 3
    around_the_corner: bool = False
    set_suits: SetSuits = SetSuits.DISTINCT
    joker_use: JokerUse = JokerUse.WILD
    joker_swap: bool = False
    first_meld_min: int = 0
    layoff_needs_own_meld: bool = False
    layoff_onto: LayoffOnto = LayoffOnto.ANY
    meld_out_of_turn: bool = False
    discard_draw: DiscardDraw = DiscardDraw.ANY_DEPTH
    must_use_taken: MustUseTaken = MustUseTaken.IF_SEVERAL
    taken_card_use: TakenCardUse = TakenCardUse.MELD_OR_LAYOFF
    discard_back: bool = False
    stock_draw_count: int = 1
    discard_count: DiscardCount = DiscardCount.ONE
    going_out: GoingOut = GoingOut.ANY
    stock_out: StockOut = StockOut.END_ROUND
    stock_out_penalty: bool = True
    calling_rummy: CallingRummy = CallingRummy.OFF
    rummy_card_value: int | RummyCardValue = RummyCardValue.NORMAL
    rummy_after_going_out: bool = False
    card_values: CardValues = CardValues.STANDARD
    low_ace_value: int | Auto = Auto.AUTO
    joker_value: int | JokerValue = JokerValue.AUTO
    custom_values: Mapping[str, int] = field(default=_NO_CUSTOM, hash=False)
    four_aces_bonus: bool = False
    four_of_a_kind_double: bool = False
    score_divisor: int = 1
    hand_penalty: HandPenalty = HandPenalty.OWN
    going_out_bonus: int = 0
    masters_hand: bool = False
    target: int = 500
    must_go_out_to_win: bool = False
    rounds: int | Rounds = Rounds.TO_TARGET
    final_bonus: int = 0
    partnership: bool = False
    dealers_gambit: bool = False
    preset: str = field(default="standard", compare=False)

    def __post_init__(self) -> None:
        # Words are held as enum members whatever built the object, so
        # ``rules.stock_out is StockOut.PLAY_ON`` and ``isinstance(rules.decks,
        # Auto)`` are always meaningful, and every value is checked once here.
        problems = []
        for spec in _WORD_OPTIONS:
            value = getattr(self, spec.name)
            kind = spec.kind or spec.words
            assert kind is not None
            if isinstance(value, str) and not isinstance(value, kind) and value in kind._value2member_map_:
                object.__setattr__(self, spec.name, kind(value))
        for spec in _SPECS:
            value = getattr(self, spec.name)
            if not spec.check(value):
                problems.append(_bad_value(spec, value))
        if not problems and self.custom_values and self.custom_values is not _NO_CUSTOM:
            problems += _custom_duplicates(self.custom_values)
        if problems:
            raise RulesError(problems)
        # Card values as from_mapping writes their keys, read-only (a frozen, hashable Rules holds them).
        custom = self.custom_values
        if custom is not _NO_CUSTOM:
            object.__setattr__(self, "custom_values", CustomValues(_normalise_custom(custom)) if custom else _NO_CUSTOM)
        if _CHECK_COMBINATIONS.get():
            combo = self.combination_problems()
            if combo:
                raise RulesError(combo)

    def __hash__(self) -> int:
        """The hash of the compared fields, worked out once (rules key memo tables everywhere).

        The generated dataclass hash builds a tuple of every field at each
        call; search and the bots hash the same rules object millions of times.
        """
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple([getattr(self, name) for name in _HASHED]))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the cached hash (string hashes differ between processes).

        The derived values (``n_decks`` ...) are cached properties: worked out
        once per object, kept in its ``__dict__``, never compared or hashed.
        """
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    # ------------------------------------------------------------------ parsing
    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any] | None = None, **overrides: Any) -> Rules:
        """Parse a ``rules`` object: an optional ``preset`` plus options.

        Keyword arguments override the mapping (``players=3`` for instance).

        Raises:
            RulesError: listing every unknown option, bad value and nonsensical
                combination at once.
        """
        problems: list[str] = []
        raw: dict[str, Any] = {}
        if mapping is not None and not isinstance(mapping, Mapping):
            raise RulesError([f"rules must be an object of options, not {type(mapping).__name__}"])
        merged = dict(mapping or {})
        merged.update(overrides)
        preset = merged.pop("preset", "standard")
        if not isinstance(preset, str) or preset not in PRESETS:
            problems.append(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})")
            preset = "standard"
        raw.update(PRESETS[preset])
        for name, value in merged.items():
            spec = OPTIONS.get(name)
            if spec is None:
                problems.append(f"unknown option {name!r}")
                continue
            if not spec.check(value):
                problems.append(_bad_value(spec, value))
                continue
            raw[name] = value
        if raw.get("dealers_gambit") is True and "direction" not in merged:
            # RULES.md: Dealer's Gambit is "dealt and played anticlockwise"; an
            # explicit ``direction`` still overrides, as for a preset.
            raw["direction"] = "anticlockwise"
        if problems:
            raise RulesError(problems)
        return cls(preset=preset, **raw)  # (which refuses options that make no sense together)

    @classmethod
    def _any_combination(cls, **options: Any) -> Rules:
        """Rules whose options need not make sense together (each value is still checked).

        Only for tests of code defined for every combination, such as the
        enumeration of legal moves; no game is played with them.
        """
        token = _CHECK_COMBINATIONS.set(False)
        try:
            return cls(**options)
        finally:
            _CHECK_COMBINATIONS.reset(token)

    @classmethod
    def preset_rules(cls, name: str, **overrides: Any) -> Rules:
        """The rules of a named preset, with optional overrides."""
        return cls.from_mapping({"preset": name}, **overrides)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed, parsed and checked again."""
        mapping = self.to_mapping(full=True)
        mapping.update(changes)
        return Rules.from_mapping(mapping)

    def to_mapping(self, full: bool = False) -> dict[str, Any]:
        """The options as a ``rules`` object.

        Args:
            full: every option; otherwise only those differing from the
                standard game, plus ``players``.
        """
        out: dict[str, Any] = {}
        for spec in _SPECS:
            value = getattr(self, spec.name)
            if full or spec.name == "players" or not _values_equal(value, spec.default):
                if isinstance(value, StrEnum):
                    value = value.value  # a plain string in records and JSON
                out[spec.name] = dict(value) if isinstance(value, Mapping) else value
        if self.dealers_gambit and "direction" not in out:
            out["direction"] = self.direction.value  # else parsing would imply anticlockwise
        return out

    def combination_problems(self) -> list[str]:
        """Pairs of options that make no sense together, each naming both."""
        p: list[str] = []
        if self.partnership and self.players != 4:
            p.append(f"partnership needs players: 4 (got players: {self.players})")
        if self.layoff_onto is LayoffOnto.OWN_AND_PARTNER and not self.partnership:
            p.append("layoff_onto: own_and_partner needs partnership: true")
        if self.layoff_onto is LayoffOnto.OWN and self.partnership:
            p.append(
                "layoff_onto: own cannot be used with partnership: true (partners may lay off on each other's melds:"
                " use layoff_onto: own_and_partner or any)"
            )
        if self.joker_use is JokerUse.JOKER_SETS_ONLY and self.n_jokers < 3:
            p.append(f"joker_use: joker_sets_only needs at least 3 jokers (jokers: {self.jokers})")
        if self.joker_use is JokerUse.JOKER_SETS_ONLY and self.joker_swap:
            p.append("joker_swap: true needs wild jokers (joker_use: joker_sets_only)")
        if self.joker_use is JokerUse.JOKER_SETS_ONLY and self.joker_value is JokerValue.REPRESENTED:
            p.append("joker_value: represented needs wild jokers (joker_use: joker_sets_only)")
        if self.joker_swap and self.n_jokers == 0:
            p.append("joker_swap: true needs jokers (jokers: 0)")
        if self.dealers_gambit and self.n_jokers == 0:
            p.append("dealers_gambit: true needs jokers (jokers: 0)")
        elif self.dealers_gambit and self.n_jokers != 2 and not (isinstance(self.jokers, Auto) and self.decks == 2):
            # (jokers: auto with decks: 2 would be 4: the decks: 2 refusal below says what is wrong)
            p.append(f"jokers: {self.n_jokers} cannot be used with dealers_gambit: true (it plays one 54-card pack: 2 jokers)")
        if self.dealers_gambit and self.joker_use is not JokerUse.WILD:
            p.append(f"dealers_gambit: true needs joker_use: wild (got joker_use: {self.joker_use})")
        if self.dealers_gambit and self.joker_swap:
            p.append("joker_swap: true cannot be used with dealers_gambit: true (the dealer nominates what jokers do)")
        if self.calling_rummy is CallingRummy.PILE and self.discard_draw is DiscardDraw.TOP_ONLY:
            p.append("calling_rummy: pile takes from below the top card, which discard_draw: top_only forbids (use calling_rummy: top_card)")
        if self.discard_back and self.must_use_taken is MustUseTaken.ALWAYS:
            p.append("discard_back: true has no meaning with must_use_taken: always (a card taken must be used, so it never goes back)")
        if self.calling_rummy is CallingRummy.OFF and self.claimed_card_points is not None:
            p.append("rummy_card_value needs calling_rummy (calling_rummy: off)")
        if self.calling_rummy is CallingRummy.OFF and self.rummy_after_going_out:
            p.append("rummy_after_going_out: true needs calling_rummy (calling_rummy: off)")
        if self.fixed_rounds is not None and self.must_go_out_to_win:
            p.append(f"must_go_out_to_win: true has no meaning with rounds: {self.rounds} (the highest total after the last round wins)")
        if self.discard_count is DiscardCount.MATCH_DRAWN and self.going_out in (GoingOut.FLOATING, GoingOut.UNPLAYABLE_DISCARD):
            p.append(f"discard_count: match_drawn cannot be combined with going_out: {self.going_out}")
        if self.short_pack and self.around_the_corner:
            p.append("around_the_corner: true has no meaning with short_pack: true (there is no 2 to wrap to)")
        if self.set_suits is SetSuits.ANY and self.n_decks == 1:
            p.append("set_suits: any needs two packs (decks: 1 has one card of each suit per rank)")
        if self.dealers_gambit and self.decks == 2:
            p.append("decks: 2 cannot be used with dealers_gambit: true (it plays one 54-card pack)")
        pack = self.pack_size
        # The hands and one card more: the upcard, or (first_discard: first_player) the first player's extra card.
        needed = self.players * self.n_hand + 1
        if self.dealers_gambit:
            needed += 1
        if self.dealers_gambit and self.players > GAMBIT_MAX_PLAYERS:
            p.append(
                f"dealers_gambit: true plays one 54-card pack, which deals at most {GAMBIT_MAX_PLAYERS} players "
                f"(got players: {self.players})"
            )
        elif needed > pack:
            p.append(
                f"players: {self.players} with hand_size: {self.n_hand} needs {needed} cards but "
                + (f"dealers_gambit: true's one pack holds {pack}" if self.dealers_gambit else f"decks: {self.n_decks} holds {pack}")
            )
        return p

    # ---------------------------------------------------------- resolved values
    @cached_property
    def n_decks(self) -> int:
        """Packs in play (``decks``, with ``auto`` resolved)."""
        if isinstance(self.decks, Auto):
            # Dealer's Gambit is one 54-card pack whatever the player count.
            return 1 if self.players <= 4 or self.dealers_gambit else 2
        return self.decks

    @cached_property
    def n_jokers(self) -> int:
        """Jokers in play (``jokers``, with ``auto`` resolved)."""
        if isinstance(self.jokers, Auto):
            return 2 * self.n_decks
        return self.jokers

    @cached_property
    def n_hand(self) -> int:
        """Cards dealt to each player (``hand_size``, with ``auto`` resolved)."""
        if isinstance(self.hand_size, Auto):
            return 13 if self.players == 2 else 7
        return self.hand_size

    @property
    def fixed_rounds(self) -> int | None:
        """``rounds: N``: how many rounds are played; None when playing to the target."""
        return None if isinstance(self.rounds, Rounds) else self.rounds

    @property
    def winning_total(self) -> int | None:
        """The total with which the highest total wins the match at the end of a round.

        None when the match is not decided that way: a fixed number of
        rounds, or only a player who went out can win (``must_go_out_to_win``).
        """
        if self.fixed_rounds is not None or self.must_go_out_to_win:
            return None
        return self.target

    @property
    def low_ace_points(self) -> int | None:
        """``low_ace_value: N``: what a low ace counts; None when ``card_values`` decides."""
        return None if isinstance(self.low_ace_value, Auto) else self.low_ace_value

    @property
    def claimed_card_points(self) -> int | None:
        """``rummy_card_value: 15``: what a card claimed by calling Rummy scores; None for its usual value."""
        return None if isinstance(self.rummy_card_value, RummyCardValue) else self.rummy_card_value

    @property
    def masters_hand_score(self) -> int | None:
        """``masters_hand``: what a Rummy Master's Hand scores for the round (before ``score_divisor``); None when it is off.

        A player who lays down a run of 7 or more cards and goes out by a
        discard in the same turn scores this for the round, whatever their melds.
        """
        return 500 if self.masters_hand else None

    @property
    def going_out_rummy(self) -> CallingRummy | None:
        """``rummy_after_going_out``: the depths a going-out discard's Rummy may be called at; None when it is off.

        ``top_card`` under ``calling_rummy: top_card`` (only the top card, the
        discard itself, counts), else ``pile`` (any depth; a steal could claim
        any depth too). The engine makes it a Rummy only when another seat
        could legally call a card there (``RoundState._callable_after_going_out``);
        the bots, who cannot see whether a seat could, count every playable card.
        """
        if not self.rummy_after_going_out:
            return None
        return CallingRummy.TOP_CARD if self.calling_rummy is CallingRummy.TOP_CARD else CallingRummy.PILE

    @cached_property
    def pack_size(self) -> int:
        """Cards in the whole pack, jokers included."""
        return self.n_decks * (32 if self.short_pack else 52) + self.n_jokers

    @cached_property
    def jokers_wild(self) -> bool:
        """Whether jokers stand for other cards (not Persian joker sets)."""
        return self.joker_use is _JOKER_USE_WILD

    @cached_property
    def step(self) -> int:
        """+1 for clockwise play, -1 for anticlockwise."""
        return 1 if self.direction is _CLOCKWISE else -1

    def side_of(self, seat: int) -> int:
        """The side a seat plays for: its partnership, or itself."""
        return seat % 2 if self.partnership else seat

    def side_sums(self, per_seat: Sequence[float]) -> list[float]:
        """``per_seat`` (a value per seat) added up per side, indexed by :meth:`side_of`."""
        out = [0.0] * self.n_sides
        for s, v in enumerate(per_seat):
            out[self.side_of(s)] += v
        return out

    def may_lay_off_on(self, seat: int, owner: int) -> bool:
        """``layoff_onto``: whether ``seat`` may extend a meld laid down by ``owner``."""
        if self.layoff_onto is _LAYOFF_ONTO_ANY:
            return True
        if self.layoff_onto is _LAYOFF_ONTO_OWN:
            return owner == seat
        return self.side_of(owner) == self.side_of(seat)

    @cached_property
    def sets_repeat_cards(self) -> bool:
        """``set_suits: any``: a set may hold the same card twice (several packs)."""
        return self.set_suits is _SET_SUITS_ANY

    @cached_property
    def n_sides(self) -> int:
        """Scoring units: 2 sides in a partnership, else one per seat."""
        return 2 if self.partnership else self.players


#: The fields the hash covers: those the generated dataclass hash would (compared, not excluded).
_HASHED = tuple(f.name for f in dataclasses.fields(Rules) if (f.compare if f.hash is None else f.hash))


def _bad_value(spec: OptionSpec, value: Any) -> str:
    limit = f"numbers run from {-NUMBER_LIMIT} to {NUMBER_LIMIT}"
    if _too_big(value):
        return f"option {spec.name!r} cannot be {value!r}: {limit}"
    if spec.name == "custom_values" and isinstance(value, Mapping):
        for key, val in value.items():
            if not isinstance(key, str) or not _custom_values_ok({key: 0}):
                return f"option 'custom_values' cannot hold {key!r}: a key is a card (QS) or a rank (Q, 10, A, JK)"
            if not _custom_values_ok({key: val}):
                return f"option 'custom_values' cannot give {key} {val!r}: a value is a whole number ({limit})"
    return f"option {spec.name!r} cannot be {value!r} (values: {spec.allowed()})"


def _custom_key(key: str) -> str:
    k = key.strip().upper()
    if k == "10":
        k = "T"
    if k not in _RANK_KEYS and k != "JK":
        k = str(parse_card(k))
    return k


def _normalise_custom(values: Mapping[str, int]) -> dict[str, int]:
    return {_custom_key(key): val for key, val in values.items()}


def _custom_duplicates(values: Mapping[str, int]) -> list[str]:
    """Keys of ``custom_values`` that name the same card or rank (``QS`` and ``qs``, ``10`` and ``T``).

    A JSON object's keys have no order, so neither may win: both are refused.
    """
    seen: dict[str, str] = {}
    out = []
    for key in values:
        k = _custom_key(key)
        if k in seen:
            out.append(f"option 'custom_values' names {k} twice ({seen[k]!r} and {key!r}): give it one value")
        else:
            seen[k] = key
    return out


# ------------------------------------------------------------- documentation
#: The catalogue's groups in order, with their headings in docs/rules.md.
GROUP_TITLES: dict[str, str] = {
    "table": "Table and cards",
    "melds": "Melds",
    "drawing": "Drawing from the discard pile",
    "going_out": "Going out and an empty stock",
    "calling": "Calling Rummy",
    "scoring": "Card values and scoring",
    "winning": "Winning",
    "partnership": "Partnerships",
    "gambit": "Dealer's Gambit",
}


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def _md_value(v: Any) -> str:
    return f"`{json.dumps(v.value if isinstance(v, StrEnum) else v)}`".replace('"', "")


def catalogue_markdown() -> str:
    """The option catalogue as Markdown tables, one per group (docs/rules.md's generated block).

    Every option with its description, then each named value with its label
    and what choosing it means, and the free whole numbers it accepts.

    >>> print(catalogue_markdown().splitlines()[4])
    | `players` | *default* `2` | **Seats** | number of seats |
    """
    lines: list[str] = []
    for group, title in GROUP_TITLES.items():
        lines += [f"#### {title}", "", "| option | value | label | what it means |", "|---|---|---|---|"]
        for spec in _SPECS:
            if spec.group != group:
                continue
            lines.append(f"| `{spec.name}` | *default* {_md_value(spec.default)} | **{_md(spec.label)}** | {_md(spec.description)} |")
            for c in spec.choices:
                lines.append(f"| | {_md_value(c.value)} | {_md(c.label)} | {_md(c.description)} |")
            if spec.number is not None:
                n = spec.number
                lines.append(f"| | {n.span()} | {_md(n.label)} | {_md(n.description)} |")
            if not spec.choices and spec.number is None:
                lines.append(f"| | {_md(spec.values)} | | |")
        lines.append("")
    unknown = {s.group for s in _SPECS} - set(GROUP_TITLES)
    assert not unknown, f"groups without a title: {unknown}"
    return "\n".join(lines).rstrip("\n") + "\n"


def presets_markdown() -> str:
    """The presets as a Markdown table: each preset's options over the standard game.

    >>> print(presets_markdown().splitlines()[3])
    | `popular` | `calling_rummy: pile` | standard plus calling Rummy! on the pile |
    """
    lines = ["| preset | options | what it is |", "|---|---|---|"]
    for name, opts in PRESETS.items():
        shown = ", ".join(f"`{k}: {json.dumps(v)}`".replace('"', "") for k, v in opts.items()) or "none (Part 1)"
        lines.append(f"| `{name}` | {shown} | {_md(PRESET_DESCRIPTIONS[name])} |")
    return "\n".join(lines) + "\n"


#: The generated blocks of docs/rules.md, by name: ``<!-- BEGIN GENERATED name ... -->``.
GENERATED_BLOCKS: dict[str, Callable[[], str]] = {"options": catalogue_markdown, "presets": presets_markdown}


def update_generated(doc: str) -> str:
    r"""``doc`` with every generated block rewritten from the catalogue.

    A block runs from a line ``<!-- BEGIN GENERATED name ... -->`` to a line
    ``<!-- END GENERATED name -->``; ``name`` is a key of
    :data:`GENERATED_BLOCKS`. ``scripts/rules_doc.py`` writes docs/rules.md
    with it, and a test fails when the file differs from what it gives.

    Raises:
        ValueError: a block that is not closed, or an unknown name.

    >>> doc = ["x", "<!-- BEGIN GENERATED presets -->", "old", "<!-- END GENERATED presets -->"]
    >>> update_generated("\n".join(doc)).splitlines()[2]
    '| preset | options | what it is |'
    """
    out: list[str] = []
    lines = doc.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if not line.startswith("<!-- BEGIN GENERATED "):
            continue
        name = line.split()[3]
        if name not in GENERATED_BLOCKS:
            raise ValueError(f"unknown generated block {name!r} (blocks: {', '.join(GENERATED_BLOCKS)})")
        end = f"<!-- END GENERATED {name} -->"
        while i < len(lines) and lines[i].strip() != end:
            i += 1
        if i == len(lines):
            raise ValueError(f"generated block {name!r} has no line {end!r}")
        out.append(GENERATED_BLOCKS[name]())
    return "".join(out)
