"""What one seat may see: the only thing bots, clients and logs ever receive.

A :class:`View` is the round's :class:`~rummy500.public.Public` value plus
the seat's own hand, its legal actions and the per-seat rule facts a player
needs (may it lay off now, are jokers wild this hand, on which melds may it
lay off...), so no bot or client ever decides a rule again. Another seat's
hand is only its size plus the cards that seat was *seen* taking from the
discard pile and has not played; the stock is a count. A spectator
(``seat=None``) sees no hand at all. :meth:`View.to_dict` is derived from the
fields, so the browser, the terminal, the bots and the logs get the same view.
Views are built by :meth:`RoundState.view <rummy500.state.RoundState.view>`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from enum import Enum
from typing import Any

from rummy500.actions import Action
from rummy500.cards import Card
from rummy500.melds import TableMeld
from rummy500.position import view_position
from rummy500.public import Public, copy_public
from rummy500.rules import Rules

__all__ = ["View"]


def _json(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, TableMeld):
        return value.to_dict()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


# Fields the JSON leaves out (the rules travel separately) or writes its own way.
_NOT_IN_JSON = {"rules"}


@dataclass(frozen=True, slots=True, kw_only=True)
class View(Public):
    """A seat's view of a round: the public facts (see :class:`Public`) and what is the seat's own.

    Attributes:
        rules: the rules in force.
        seat: whose view this is, or None for a spectator.
        hand: the seat's own hand, sorted (empty for a spectator).
        legal: the actions this seat may take now (an offer ends with ``Decline``).
        scores: the match totals before this round (if known).
        final_hands: every hand, once the round is over.
        jokers_wild: jokers are wild this hand (``jokers_wild``; Dealer's Gambit nomination).
        extra_jokers: jokers this seat may use beyond its hand (the free dealer's joker).
        may_lay_off_now: this seat may lay off at all now (``first_meld_min``, ``layoff_needs_own_meld``).
        lay_off_onto: ids of the melds this seat may lay off on (``layoff_onto``).
        must_use_top_card: a single top card taken from the pile must be used this turn (``must_use_taken``).
        calls_steal: a Rummy call takes only the playable card and lays it at once (``calling_rummy: steal``).
    """

    rules: Rules
    seat: int | None
    hand: tuple[Card, ...]
    legal: tuple[Action, ...] = ()
    scores: tuple[int, ...] | None = None
    final_hands: tuple[tuple[Card, ...], ...] | None = None
    jokers_wild: bool = True
    extra_jokers: int = 0
    may_lay_off_now: bool = False
    lay_off_onto: tuple[int, ...] = ()
    must_use_top_card: bool = False
    calls_steal: bool = False

    @classmethod
    def of(cls, public: Public, **own: Any) -> View:
        """The view made of a round's ``public`` value (shared, not converted) and the seat's own fields.

        Raises:
            TypeError: a required own field is missing or a name is not one of the view's own fields.
        """
        view = _new(cls)
        _copy_public(view, public)
        for name, default in _OWN:
            value = own.pop(name, default)
            if value is MISSING:
                raise TypeError(f"View.of() needs {name!r}")
            _set(view, name, value)
        if own:
            raise TypeError(f"not fields of a view: {', '.join(sorted(own))}")
        return view

    def position(self) -> str:
        """This view in the position notation (read back with :func:`rummy500.state.view_from_position`)."""
        return view_position(self, self.seat, self.hand, self.scores)

    def __str__(self) -> str:
        return self.position()

    def public(self) -> Public:
        """The public facts alone (what every seat's view shares)."""
        return Public(**{f.name: getattr(self, f.name) for f in fields(Public)})

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON: every field (cards in the notation, actions as record verbs)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            name = f.name
            if name in _NOT_IN_JSON:
                continue
            value = getattr(self, name)
            if name == "legal":
                out[name] = [a.to_record() for a in value]
            elif name == "hand":
                out[name] = _json(value) if self.seat is not None else None
            elif name == "final_hands" and value is None:
                continue
            else:
                out[name] = _json(value)
        return out


_new = object.__new__
_set = object.__setattr__
_copy_public = copy_public
_PUBLIC_NAMES = frozenset(f.name for f in fields(Public))
_OWN: tuple[tuple[str, Any], ...] = tuple((f.name, f.default) for f in fields(View) if f.name not in _PUBLIC_NAMES)


def _make_build() -> Callable[..., View]:
    """Generate :func:`build_view`: :meth:`View.of` with every own field given, in straight-line slot writes."""
    names = [f.name for f in fields(Public)]
    own = [name for name, _ in _OWN]
    lines = [f"def build_view(p, {', '.join(own)}):", "    v = _new(View)"]
    lines += [f"    _put_{name}(v, p.{name})" for name in names]
    lines += [f"    _put_{name}(v, {name})" for name in own]
    lines.append("    return v")
    namespace: dict[str, Any] = {f"_put_{name}": getattr(View, name).__set__ for name in names + own}
    namespace.update(_new=_new, View=View)
    exec("\n".join(lines), namespace)  # noqa: S102 - code built from our own field names
    fn: Callable[..., View] = namespace["build_view"]
    fn.__doc__ = """The view made of ``p`` (a Public) and every own field of a view, in the order :class:`View` declares them.

    For the engine (``RoundState.view``): what :meth:`View.of` builds, without checking names."""
    return fn


build_view = _make_build()
