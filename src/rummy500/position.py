"""Position notation: a compact text form of a round, or of one seat's view, that round-trips.

python-chess's FEN is the model. A position is one line of ``name=value``
tokens: the public fields in the order :class:`~rummy500.public.Public`
declares them (so a new public field is written and read with no change
here, as long as its type has a codec below), then the private parts. Cards
are written in the record notation and joined with ``.``; per-seat values
are joined with ``|``; ``-`` is nothing (None, an empty list).

A full round (:func:`round_position`) adds ``hands`` and ``stock`` (top
first); a view (:func:`view_position`) adds ``seat`` and ``hand`` and keeps
the public ``hand_sizes`` and ``stock_count`` instead. The rules are not part
of a position (as a FEN holds no variant): the readers take them.

>>> from rummy500.rules import Rules
>>> from rummy500.state import RoundState
>>> rules = Rules.preset_rules("standard")
>>> text = "dealer=1 to_move=0 phase=draw discard=TC hands=AS.2S.3S|4C.4D.4S.KD stock=QD.7S"
>>> state = RoundState.from_position(rules, text)
>>> state.hands[1], state.stock_top_first()
([4C, 4D, 4S, KD], [QD, 7S])
>>> RoundState.from_position(rules, state.position()).position() == state.position()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any

from rummy500.cards import Card, CardError, parse_card
from rummy500.melds import TableMeld
from rummy500.public import PUBLIC_HELD, Phase, Public

__all__ = ["PositionError", "parse_position", "round_position", "view_position"]

ROUND_FIELDS = frozenset({*PUBLIC_HELD, "hands", "stock", "masters"})
"""The names a round's position may hold."""


class PositionError(ValueError):
    """Text that is not a position (the message names the token)."""


NONE = "-"


def _cards(cs: Any) -> str:
    return ".".join(str(c) for c in cs) if cs else NONE


def _read_cards(text: str) -> tuple[Card, ...]:
    return () if text == NONE else tuple(parse_card(t) for t in text.split("."))


def _opt(enc: Callable[[Any], str]) -> Callable[[Any], str]:
    return lambda v: NONE if v is None else enc(v)


def _read_opt(dec: Callable[[str], Any]) -> Callable[[str], Any]:
    return lambda t: None if t == NONE else dec(t)


def _seats(enc: Callable[[Any], str]) -> Callable[[Any], str]:
    return lambda vs: "|".join(enc(v) for v in vs)


def _read_seats(dec: Callable[[str], Any]) -> Callable[[str], Any]:
    return lambda t: tuple(dec(x) for x in t.split("|"))


def _bits(vs: Any) -> str:
    return "".join("1" if v else "0" for v in vs)


def _read_bits(t: str) -> tuple[bool, ...]:
    if set(t) - {"0", "1"}:
        raise ValueError(f"{t!r} is not a string of 0 and 1")
    return tuple(c == "1" for c in t)


def _bool(v: Any) -> str:
    return "1" if v else "0"


def _read_bool(t: str) -> bool:
    if t not in ("0", "1"):
        raise ValueError(f"{t!r} is not 0 or 1")
    return t == "1"


def _read_int(t: str) -> int:
    """A whole number as a position writes it: ASCII digits, perhaps after a ``-``.

    (``int()`` alone would also take ``+1``, ``1_000``, ``١`` and spaces, and refuse a number
    of thousands of digits in Python's own words.)
    """
    digits = t[1:] if t.startswith("-") else t
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{t!r} is not a whole number")
    if len(digits) > 18:
        raise ValueError(f"{t[:12]!r}... ({len(digits)} digits) is far too large")
    return int(t)


def _ints(vs: Any) -> str:
    return ".".join(str(v) for v in vs) if vs else NONE


def _read_ints(t: str) -> tuple[int, ...]:
    return () if t == NONE else tuple(_read_int(x) for x in t.split("."))


# A meld: kind:cards:laid_by:positions:suit:rank:initial:owner:claimed:sealed:doubled[:swapped]
# (the last only when a joker laid with the meld was swapped out: older positions have 11 fields)
def _meld(m: TableMeld) -> str:
    return ":".join(
        [
            m.kind,
            _cards(m.cards),
            _ints(m.laid_by),
            _ints(m.positions),
            str(m.suit),
            str(m.rank),
            str(m.initial),
            str(m.owner),
            _bits(m.claimed) or NONE,
            _bool(m.sealed),
            _bool(m.doubled),
            *([_bool(True)] if m.swapped else []),
        ]
    )


def _melds(ms: Any) -> str:
    return ";".join(_meld(m) for m in ms) if ms else NONE


def _read_melds(t: str) -> tuple[TableMeld, ...]:
    if t == NONE:
        return ()
    out = []
    for i, part in enumerate(t.split(";")):
        f = part.split(":")
        if len(f) not in (11, 12):
            raise ValueError(f"meld {i} needs 11 ':'-separated fields (12 with swapped), not {len(f)}")
        claimed = () if f[8] == NONE else _read_bits(f[8])
        out.append(
            TableMeld(
                id=i,
                kind=f[0],
                cards=_read_cards(f[1]),
                laid_by=_read_ints(f[2]),
                positions=_read_ints(f[3]),
                suit=_read_int(f[4]),
                rank=_read_int(f[5]),
                initial=_read_int(f[6]),
                owner=_read_int(f[7]),
                claimed=claimed,
                sealed=_read_bool(f[9]),
                doubled=_read_bool(f[10]),
                swapped=len(f) == 12 and _read_bool(f[11]),
            )
        )
    return tuple(out)


# One codec per declared field type (the annotations of Public and View, as text).
_CODECS: dict[str, tuple[Callable[[Any], str], Callable[[str], Any]]] = {
    "int": (str, _read_int),
    "int | None": (_opt(str), _read_opt(_read_int)),
    "bool": (_bool, _read_bool),
    "Phase": (str, Phase),
    "str | None": (_opt(str), _read_opt(str)),
    "Card | None": (_opt(str), _read_opt(parse_card)),
    "tuple[Card, ...]": (_cards, _read_cards),
    "tuple[tuple[Card, ...], ...]": (_seats(_cards), _read_seats(_read_cards)),
    "tuple[bool, ...]": (_bits, _read_bits),
    "tuple[int, ...]": (_seats(str), _read_seats(_read_int)),
    "tuple[int, ...] | None": (_opt(_seats(str)), _read_opt(_read_seats(_read_int))),
    "frozenset[int]": (lambda v: _ints(sorted(v)), lambda t: frozenset(_read_ints(t))),
    "tuple[TableMeld, ...]": (_melds, _read_melds),
}
_TYPES = {f.name: f.type for f in fields(Public)}
_TYPES.update(seat="int | None", hand="tuple[Card, ...]", hands="tuple[tuple[Card, ...], ...]", stock="tuple[Card, ...]")
_TYPES.update(masters="int | None", scores="tuple[int, ...] | None")
_MISSING = [t for t in _TYPES.values() if t not in _CODECS]
assert not _MISSING, f"a public field's type has no position codec: {_MISSING}"


def _token(name: str, value: Any) -> str:
    return f"{name}={_CODECS[str(_TYPES[name])][0](value)}"


def round_position(
    public: Public, hands: Sequence[Sequence[Card]], stock_top_first: Sequence[Card], masters: int | None = None
) -> str:
    """The position of a full round: the public fields, then ``hands`` and ``stock`` (top first)."""
    tokens = [_token(name, getattr(public, name)) for name in PUBLIC_HELD]
    tokens.append(_token("hands", tuple(tuple(h) for h in hands)))
    tokens.append(_token("stock", tuple(stock_top_first)))
    if masters is not None:
        tokens.append(_token("masters", masters))
    return " ".join(tokens)


def view_position(public: Public, seat: int | None, hand: Sequence[Card], scores: Sequence[int] | None) -> str:
    """The position as ``seat`` sees it: every public field, then ``seat``, ``hand`` and ``scores``."""
    tokens = [_token(f.name, getattr(public, f.name)) for f in fields(Public)]
    tokens += [_token("seat", seat), _token("hand", tuple(hand)), _token("scores", scores)]
    return " ".join(tokens)


def parse_position(text: str) -> dict[str, Any]:
    """The fields of a position (round or view) by name, decoded.

    Raises:
        PositionError: an unknown name, a repeated name or a value that does not read.
    """
    if not isinstance(text, str) or not text.strip():
        raise PositionError("empty position")
    out: dict[str, Any] = {}
    for token in text.split():
        name, sep, value = token.partition("=")
        if not sep or name not in _TYPES:
            raise PositionError(f"unknown position field {name!r} (in {token!r})")
        if name in out:
            raise PositionError(f"position field {name!r} given twice")
        try:
            out[name] = _CODECS[str(_TYPES[name])][1](value)
        except (ValueError, CardError) as exc:
            raise PositionError(f"position field {name!r}: {exc}") from None
    return out
