"""Actions: frozen values with a record form and a text form that round-trip.

An action never names its seat; the seat is passed to ``RoundState.apply``.
Card lists inside actions are kept sorted, so two actions that mean the same
move compare equal whatever order their cards were written in -- except a
discard of several cards (``discard_count: match_drawn``): its cards go on the
pile in the order listed, the last on top, so that order is part of the move.

=====================  ===================================  =========================
class                  record (RECORD.md, without ``p``)     text
=====================  ===================================  =========================
``Draw()``             ``{"draw": "stock"}``                  ``draw``
``Take(3)``            ``{"take": 3}``                        ``take 3``
``Take(3, split=True)`` ``{"take": 3, "split": true}``        ``take 3 split``
``Meld(cards)``        ``{"meld": ["5H", "6H", "JK=7H"]}``    ``meld 5H 6H JK=7H``
``LayOff(cards, 4)``   ``{"layoff": ["8H"], "on": 4}``        ``layoff 8H on 4``
``Swap(card, 2)``      ``{"swap": "7H", "on": 2}``            ``swap 7H on 2``
``Discard(cards)``     ``{"discard": "KS"}``                  ``discard KS``
``Pass()``             ``{"pass": true}``                     ``pass``
``CallRummy(3)``       ``{"rummy": 3}``                       ``rummy 3``
``CallRummy(1, on=2)`` ``{"rummy": 1, "on": 2}``              ``rummy 1 on 2``
``Float()``            ``{"float": true}``                    ``float``
``Nominate("wild")``   ``{"nominate": "wild"}``               ``nominate wild``
``Block()``            ``{"block": true}``                    ``block``
``Reshuffle(cards)``   ``{"reshuffle": [...]}``               ``reshuffle ...``
``Decline()``          ``{"decline": true}`` (never recorded) ``decline``
=====================  ===================================  =========================

``Decline`` answers an out-of-turn offer ("no call"): it changes nothing but
the set of seats that passed on the current position, so game records
(RECORD.md) never hold it and a record replays the same without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rummy500.cards import Card, CardError, parse_card, parse_cards

__all__ = [
    "Action",
    "ActionError",
    "Block",
    "CallRummy",
    "Decline",
    "Discard",
    "Draw",
    "Float",
    "LayOff",
    "Meld",
    "Nominate",
    "Pass",
    "Reshuffle",
    "Swap",
    "Take",
    "action_from_record",
    "listed_form",
    "parse_action",
]

GAMBIT_MODES = ("wild", "double", "split")


class ActionError(ValueError):
    """An action that is not well formed (unknown verb, bad card, bad field)."""


def _sorted(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


def _join(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)


#: Writes a field of a frozen action in a hand-written ``__init__`` (bound once: the hot path builds discards).
_set_field = object.__setattr__


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock (two with ``stock_draw_count: 2``)."""

    def to_record(self) -> dict[str, Any]:
        return {"draw": "stock"}

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Take:
    """Take the top ``n`` cards of the discard pile; the n-th from the top is the chosen card.

    With ``split`` (Dealer's Gambit, jokers nominated ``split``) a joker is laid
    on the pile instead: only the chosen card is taken and the cards above it
    leave play for the round.
    """

    n: int
    split: bool = False

    def to_record(self) -> dict[str, Any]:
        return {"take": self.n, "split": True} if self.split else {"take": self.n}

    def __str__(self) -> str:
        return f"take {self.n}" + (" split" if self.split else "")


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay down a new meld from the hand."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted(self.cards))

    def to_record(self) -> dict[str, Any]:
        return {"meld": [str(c) for c in self.cards]}

    def __str__(self) -> str:
        return "meld " + _join(self.cards)


@dataclass(frozen=True, slots=True)
class LayOff:
    """Lay off cards from the hand onto the table meld with id ``on``."""

    cards: tuple[Card, ...]
    on: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted(self.cards))

    def to_record(self) -> dict[str, Any]:
        return {"layoff": [str(c) for c in self.cards], "on": self.on}

    def __str__(self) -> str:
        return f"layoff {_join(self.cards)} on {self.on}"


@dataclass(frozen=True, slots=True)
class Swap:
    """(``joker_swap``) Put ``card`` where the joker of meld ``on`` stands; take the joker."""

    card: Card
    on: int

    def to_record(self) -> dict[str, Any]:
        return {"swap": str(self.card), "on": self.on}

    def __str__(self) -> str:
        return f"swap {self.card} on {self.on}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard, ending the turn (several cards with ``discard_count: match_drawn``).

    Several cards go on the pile in the order given, the last one on top; the
    order is kept (``Discard`` of the same cards in another order is another
    move). ``RoundState.legal_actions`` lists each choice of cards once, in
    ascending order, and ``apply`` accepts those cards in any order. A list (any
    iterable) of cards is kept as a tuple, in its order.
    """

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card]) -> None:
        # (Hand-written rather than a __post_init__: legal-move enumeration builds discards, and a
        # tuple, the usual case, costs one type test.)
        _set_field(self, "cards", cards if type(cards) is tuple else tuple(cards))

    @property
    def card(self) -> Card:
        """The (first) card discarded."""
        return self.cards[0]

    def to_record(self) -> dict[str, Any]:
        if len(self.cards) == 1:
            return {"discard": str(self.cards[0])}
        return {"discard": [str(c) for c in self.cards]}

    def __str__(self) -> str:
        return "discard " + _join(self.cards)


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to draw when the stock is empty."""

    def to_record(self) -> dict[str, Any]:
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class CallRummy:
    """Call Rummy!, claiming the ``depth``-th card from the top of the pile.

    With ``calling_rummy: steal`` the claimed card is laid off at once on meld
    ``on``, or melded with the pile cards ``meld`` (which include it).
    """

    depth: int
    on: int | None = None
    meld: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        if self.meld is not None:
            object.__setattr__(self, "meld", _sorted(self.meld))

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rummy": self.depth}
        if self.on is not None:
            out["on"] = self.on
        if self.meld is not None:
            out["meld"] = [str(c) for c in self.meld]
        return out

    def __str__(self) -> str:
        text = f"rummy {self.depth}"
        if self.on is not None:
            text += f" on {self.on}"
        if self.meld is not None:
            text += " meld " + _join(self.meld)
        return text


@dataclass(frozen=True, slots=True)
class Float:
    """(``going_out: floating``) End the turn with an empty hand and float."""

    def to_record(self) -> dict[str, Any]:
        return {"float": True}

    def __str__(self) -> str:
        return "float"


@dataclass(frozen=True, slots=True)
class Nominate:
    """(Dealer's Gambit) The dealer says what jokers do this hand."""

    mode: str

    def to_record(self) -> dict[str, Any]:
        return {"nominate": self.mode}

    def __str__(self) -> str:
        return f"nominate {self.mode}"


@dataclass(frozen=True, slots=True)
class Block:
    """(Dealer's Gambit) Lay a joker face down over the dealer's joker."""

    def to_record(self) -> dict[str, Any]:
        return {"block": True}

    def __str__(self) -> str:
        return "block"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """(``stock_out: reshuffle``) The new stock, top first: a chance event, not a choice.

    A list (any iterable) of cards is kept as a tuple, in its order.
    """

    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card]) -> None:
        _set_field(self, "cards", cards if type(cards) is tuple else tuple(cards))

    def to_record(self) -> dict[str, Any]:
        return {"reshuffle": [str(c) for c in self.cards]}

    def __str__(self) -> str:
        return "reshuffle " + _join(self.cards)


@dataclass(frozen=True, slots=True)
class Decline:
    """Answer an out-of-turn offer with "no call": the seat passes on this position."""

    def to_record(self) -> dict[str, Any]:
        return {"decline": True}

    def __str__(self) -> str:
        return "decline"


Action = Draw | Take | Meld | LayOff | Swap | Discard | Pass | CallRummy | Float | Nominate | Block | Reshuffle | Decline

_VERBS = (
    "draw",
    "take",
    "meld",
    "layoff",
    "swap",
    "discard",
    "pass",
    "rummy",
    "float",
    "nominate",
    "block",
    "reshuffle",
    "decline",
)
_EXTRA = {"on", "split"}


def _int_field(rec: Mapping[str, Any], key: str, verb: str, low: int = 0) -> int:
    value = rec.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ActionError(f"{verb!r} needs {key!r} to be a whole number >= {low}, not {value!r}")
    return value


def _card_list(value: Any, verb: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not value:
        raise ActionError(f"{verb!r} needs a non-empty list of cards, not {value!r}")
    try:
        return tuple(parse_card(v) for v in value)
    except CardError as exc:
        raise ActionError(f"{verb!r}: {exc}") from None


def _one_card(value: Any, verb: str) -> Card:
    try:
        return parse_card(value)
    except CardError as exc:
        raise ActionError(f"{verb!r}: {exc}") from None


def action_from_record(rec: Mapping[str, Any]) -> Action:
    """Build an action from its record form (a ``p`` key, if present, is ignored).

    Raises:
        ActionError: unknown verb, several verbs, or a malformed field.
    """
    if not isinstance(rec, Mapping):
        raise ActionError(f"an action must be an object, not {type(rec).__name__}")
    verbs = [k for k in rec if k in _VERBS]
    if "rummy" in verbs and "meld" in verbs:
        verbs.remove("meld")  # a steal's ``"meld"`` names the pile cards the claimed card melds with
    unknown = [k for k in rec if k not in _VERBS and k not in _EXTRA and k != "p"]
    if unknown:
        raise ActionError(f"unknown action field(s) {', '.join(map(repr, unknown))}")
    if len(verbs) != 1:
        raise ActionError(
            "an action needs exactly one verb of " + ", ".join(_VERBS) + f" (got {verbs or 'none'})"
        )
    verb = verbs[0]
    value = rec[verb]
    allowed_extra = {"layoff": {"on"}, "swap": {"on"}, "rummy": {"on", "meld"}, "take": {"split"}}
    for extra in _EXTRA | {"meld"}:
        if extra in rec and extra != verb and extra not in allowed_extra.get(verb, set()):
            raise ActionError(f"{verb!r} takes no {extra!r} field")
    match verb:
        case "draw":
            if value != "stock":
                raise ActionError(f"'draw' must be \"stock\", not {value!r}")
            return Draw()
        case "take":
            n = _int_field(rec, "take", verb, 1)
            split = rec.get("split", False)
            if not isinstance(split, bool):
                raise ActionError(f"'split' must be true or false, not {split!r}")
            return Take(n, split)
        case "meld":
            return Meld(_card_list(value, verb))
        case "layoff":
            if "on" not in rec:
                raise ActionError("'layoff' needs 'on': the id of the meld to lay off on")
            return LayOff(_card_list(value, verb), _int_field(rec, "on", verb))
        case "swap":
            if "on" not in rec:
                raise ActionError("'swap' needs 'on': the id of the meld holding the joker")
            return Swap(_one_card(value, verb), _int_field(rec, "on", verb))
        case "discard":
            if isinstance(value, list):
                return Discard(_card_list(value, verb))
            return Discard((_one_card(value, verb),))
        case "pass":
            if value is not True:
                raise ActionError(f"'pass' must be true, not {value!r}")
            return Pass()
        case "rummy":
            depth = _int_field(rec, "rummy", verb, 1)
            on = _int_field(rec, "on", verb) if "on" in rec else None
            meld = _card_list(rec["meld"], "rummy meld") if "meld" in rec else None
            if on is not None and meld is not None:
                raise ActionError("'rummy' takes 'on' or 'meld', not both")
            return CallRummy(depth, on, meld)
        case "float":
            if value is not True:
                raise ActionError(f"'float' must be true, not {value!r}")
            return Float()
        case "nominate":
            if value not in GAMBIT_MODES:
                raise ActionError(f"'nominate' must be one of {', '.join(GAMBIT_MODES)}, not {value!r}")
            return Nominate(value)
        case "block":
            if value is not True:
                raise ActionError(f"'block' must be true, not {value!r}")
            return Block()
        case "decline":
            if value is not True:
                raise ActionError(f"'decline' must be true, not {value!r}")
            return Decline()
        case "reshuffle":
            if not isinstance(value, list):
                raise ActionError("'reshuffle' needs the list of cards of the new stock")
            return Reshuffle(tuple(_one_card(v, verb) for v in value))
    raise ActionError(f"unknown verb {verb!r}")  # pragma: no cover - verbs are exhaustive


def listed_form(action: Action) -> Action:
    """``action`` as ``RoundState.legal_actions`` lists it: a discard of several cards with its cards ascending.

    A discard of several cards (``discard_count: match_drawn``) may be played
    in any order, the last card ending on top, but is listed once; so to ask
    whether such a discard is among a list of legal actions, ask for this form.

    >>> str(listed_form(parse_action("discard QS KD 2C"))), str(listed_form(parse_action("take 2")))
    ('discard 2C KD QS', 'take 2')
    """
    if isinstance(action, Discard) and len(action.cards) > 1:
        return Discard(tuple(sorted(action.cards)))
    return action


#: The most digits a number in an action's text may have: no pile depth or meld id comes near
#: it (and Python would refuse to convert a number of more than 4300 digits at all).
_MAX_DIGITS = 20


def _whole(word: str) -> bool:
    """Whether ``word`` is a whole number written in ASCII digits (``str.isdigit`` also takes ``²``).

    Raises:
        ActionError: ``word`` is such a number, but of more than 20 digits.
    """
    if not (word.isascii() and word.isdigit()):
        return False
    if len(word) > _MAX_DIGITS:
        shown = f"{word[:12]}... ({len(word)} digits)"
        raise ActionError(f"the number {shown} is far too large: no pile depth or meld id comes near it")
    return True


def parse_action(text: str) -> Action:
    """Parse the text form (``meld 5H 6H JK=7H``, ``layoff 8H on 4``, ``take 3`` ...).

    Raises:
        ActionError: the text is not an action.
    """
    if not isinstance(text, str) or not text.strip():
        raise ActionError("empty action")
    words = text.replace(",", " ").split()
    if not words:  # nothing but commas
        raise ActionError("empty action")
    # An ASCII verb only: Unicode lowercasing would make "take" of "ta\u212ae" (the Kelvin sign).
    verb, args = (words[0].lower() if words[0].isascii() else words[0]), words[1:]

    def cards_and_on(ws: list[str]) -> tuple[list[str], int | None]:
        lowered = [w.lower() for w in ws]
        if "on" in lowered:
            i = lowered.index("on")
            if i != len(ws) - 2 or not _whole(ws[-1]):
                raise ActionError(f"{verb!r}: write 'on' followed by a meld id at the end")
            return ws[:i], int(ws[-1])
        return ws, None

    try:
        match verb:
            case "draw" | "stock":
                if args:
                    raise ActionError("'draw' takes nothing after it")
                return Draw()
            case "take" | "pile":
                if not args or not _whole(args[0]) or len(args) > 2:
                    raise ActionError("write 'take N' (N cards from the top of the pile)")
                split = len(args) == 2 and args[1].lower() == "split"
                if len(args) == 2 and not split:
                    raise ActionError("write 'take N' or 'take N split'")
                return action_from_record({"take": int(args[0]), "split": split} if split else {"take": int(args[0])})
            case "meld":
                return Meld(tuple(parse_cards(args))) if args else action_from_record({"meld": []})
            case "layoff" | "lay":
                cards, on = cards_and_on(args)
                if on is None:
                    raise ActionError("write 'layoff CARDS on ID'")
                return action_from_record({"layoff": cards, "on": on})
            case "swap":
                cards, on = cards_and_on(args)
                if on is None or len(cards) != 1:
                    raise ActionError("write 'swap CARD on ID'")
                return action_from_record({"swap": cards[0], "on": on})
            case "discard":
                if not args:
                    raise ActionError("write 'discard CARD'")
                if len(args) == 1:
                    return action_from_record({"discard": args[0]})
                return action_from_record({"discard": args})
            case "pass" | "float" | "block" | "decline" if args:
                raise ActionError(f"{verb!r} takes nothing after it")
            case "pass":
                return Pass()
            case "rummy":
                if not args or not _whole(args[0]):
                    raise ActionError("write 'rummy N' (N-th card from the top of the pile)")
                rest = args[1:]
                rec: dict[str, Any] = {"rummy": int(args[0])}
                if rest and rest[0].lower() == "meld":
                    rec["meld"] = rest[1:]
                elif rest:
                    cards, on = cards_and_on(rest)
                    if cards or on is None:
                        raise ActionError("write 'rummy N', 'rummy N on ID' or 'rummy N meld CARDS'")
                    rec["on"] = on
                return action_from_record(rec)
            case "float":
                return Float()
            case "nominate":
                if len(args) != 1:
                    raise ActionError("write 'nominate wild|double|split'")
                return action_from_record({"nominate": args[0].lower()})
            case "block":
                return Block()
            case "decline":
                return Decline()
            case "reshuffle":
                return Reshuffle(tuple(parse_cards(args)))
    except CardError as exc:
        raise ActionError(f"{verb!r}: {exc}") from None
    raise ActionError(f"unknown action {words[0]!r} (try: draw, take N, meld, layoff ... on N, discard, pass)")
