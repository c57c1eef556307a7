"""Events: what happened, as immutable values returned by ``apply``.

:meth:`RoundState.apply <rummy500.state.RoundState.apply>` and
:meth:`Match.apply <rummy500.match.Match.apply>` return a list of events, one
per thing that happened (an action, a reshuffle, the end of the round, the
next deal, the end of the game). Each event knows what a given seat may see
of it: :meth:`seen_by` returns the event with what that seat may not see left
out (another seat's card drawn from the stock, the order of a reshuffled
stock), and :meth:`visible_to` whether the seat learns of it at all (only the
seat that declined an out-of-turn offer knows it had one). Cards taken from
the discard pile, melded, laid off or discarded are public. ``seen_by(None)``
is the spectators' (and the public log's) version.

>>> from rummy500.cards import parse_card
>>> e = Drew(seat=1, cards=(parse_card("7H"),))
>>> e.seen_by(1).to_dict()
{'event': 'drew', 'seat': 1, 'count': 1, 'cards': ['7H']}
>>> e.seen_by(0).to_dict()
{'event': 'drew', 'seat': 1, 'count': 1, 'cards': None}
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from rummy500.cards import Card

__all__ = [
    "Blocked",
    "CalledRummy",
    "Declined",
    "Dealt",
    "Discarded",
    "Drew",
    "Event",
    "Floated",
    "GameOver",
    "LaidOff",
    "LeftRummy",
    "Melded",
    "Nominated",
    "Passed",
    "Reshuffled",
    "RoundOver",
    "Swapped",
    "Took",
    "events_seen_by",
]


def _json(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


class _Event:
    """Shared behaviour: the JSON form and the default (public) redaction."""

    __slots__ = ()
    kind = "?"

    def seen_by(self, viewer: int | None) -> Event:
        """This event as ``viewer`` (a seat, or None for a spectator) may see it."""
        return self  # type: ignore[return-value]

    def visible_to(self, viewer: int | None) -> bool:
        """Whether ``viewer`` (a seat, or None for a spectator) learns of this event at all."""
        return True

    def to_dict(self) -> dict[str, Any]:
        """JSON: ``event`` (the kind) and every field, cards in the notation."""
        out: dict[str, Any] = {"event": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = _json(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class Nominated(_Event):
    """(Dealer's Gambit) The dealer said what jokers do this hand."""

    seat: int
    mode: str
    kind = "nominated"


@dataclass(frozen=True, slots=True)
class Drew(_Event):
    """``seat`` drew from the stock; only that seat sees the cards (``cards`` None for others)."""

    seat: int
    count: int = 1
    cards: tuple[Card, ...] | None = None
    kind = "drew"

    def __post_init__(self) -> None:
        if self.cards is not None and self.count != len(self.cards):
            object.__setattr__(self, "count", len(self.cards))

    def seen_by(self, viewer: int | None) -> Event:
        """Another seat (or a spectator) sees how many cards, not which."""
        return self if viewer == self.seat else replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class Took(_Event):
    """``seat`` took ``cards`` from the discard pile (public); ``removed``: cards a split put out of play."""

    seat: int
    cards: tuple[Card, ...]
    removed: tuple[Card, ...] = ()
    kind = "took"


@dataclass(frozen=True, slots=True)
class Melded(_Event):
    """``seat`` laid down ``cards`` as meld ``meld`` (out of turn when it is not their turn)."""

    seat: int
    cards: tuple[Card, ...]
    meld: int
    kind = "melded"


@dataclass(frozen=True, slots=True)
class LaidOff(_Event):
    """``seat`` laid ``cards`` off on meld ``on``."""

    seat: int
    cards: tuple[Card, ...]
    on: int
    kind = "laid_off"


@dataclass(frozen=True, slots=True)
class Swapped(_Event):
    """(``joker_swap``) ``seat`` put ``card`` in place of the joker on meld ``on``."""

    seat: int
    card: Card
    on: int
    kind = "swapped"


@dataclass(frozen=True, slots=True)
class Discarded(_Event):
    """``seat`` discarded ``cards`` (onto the pile, in this order)."""

    seat: int
    cards: tuple[Card, ...]
    kind = "discarded"


@dataclass(frozen=True, slots=True)
class Floated(_Event):
    """``seat`` ended the turn floating with an empty hand."""

    seat: int
    kind = "floated"


@dataclass(frozen=True, slots=True)
class LeftRummy(_Event):
    """(``rummy_after_going_out``) ``seat`` discarded its last card leaving ``card`` in the pile, which another seat could call.

    It has not gone out: it took ``cards``, the pile above ``card``, back into
    hand (none when ``card`` is its own discard: it floats with an empty hand),
    ``card`` lies on top of the pile, and play goes on with the next seat.
    """

    seat: int
    card: Card
    cards: tuple[Card, ...]
    kind = "left_rummy"


@dataclass(frozen=True, slots=True)
class Passed(_Event):
    """The stock was empty and ``seat`` passed: the round ends."""

    seat: int
    kind = "passed"


@dataclass(frozen=True, slots=True)
class CalledRummy(_Event):
    """``seat`` called Rummy on the ``depth``-th card from the top; ``cards`` left the pile.

    ``on`` / ``meld``: where a steal laid the claimed card (``calling_rummy: steal``).
    """

    seat: int
    depth: int
    cards: tuple[Card, ...]
    on: int | None = None
    meld: int | None = None
    kind = "called_rummy"


@dataclass(frozen=True, slots=True)
class Blocked(_Event):
    """(Dealer's Gambit) ``seat`` blocked the dealer's joker with a joker of their own."""

    seat: int
    kind = "blocked"


@dataclass(frozen=True, slots=True)
class Declined(_Event):
    """``seat`` passed on an out-of-turn offer (no call)."""

    seat: int
    kind = "declined"

    def visible_to(self, viewer: int | None) -> bool:
        """Only the seat that declined: an offer comes only to a seat with a play, so the others would learn of its hand."""
        return viewer == self.seat


@dataclass(frozen=True, slots=True)
class Reshuffled(_Event):
    """(``stock_out: reshuffle``) The pile below its top card became the stock; its order stays secret."""

    count: int
    cards: tuple[Card, ...] | None = None
    kind = "reshuffled"

    def seen_by(self, viewer: int | None) -> Event:
        """Nobody at the table sees the new stock's order."""
        return replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class RoundOver(_Event):
    """The round ended: who went out (None: the stock ran out), the scores, every hand (shown at the end)."""

    went_out: int | None
    round_scores: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    kind = "round_over"


@dataclass(frozen=True, slots=True)
class Dealt(_Event):
    """(A match) Round ``round`` (0-based) was dealt by ``dealer``."""

    round: int
    dealer: int
    kind = "dealt"


@dataclass(frozen=True, slots=True)
class GameOver(_Event):
    """(A match) The game has a winner: a seat, or both seats of a partnership side."""

    winner: int | tuple[int, ...]
    totals: tuple[int, ...]
    kind = "game_over"


Event = (
    Nominated
    | Drew
    | Took
    | Melded
    | LaidOff
    | Swapped
    | Discarded
    | Floated
    | LeftRummy
    | Passed
    | CalledRummy
    | Blocked
    | Declined
    | Reshuffled
    | RoundOver
    | Dealt
    | GameOver
)


def events_seen_by(events: list[Event], viewer: int | None) -> list[dict[str, Any]]:
    """The JSON of ``events`` as ``viewer`` may see them: the one place events are redacted (or left out)."""
    return [e.seen_by(viewer).to_dict() for e in events if e.visible_to(viewer)]
