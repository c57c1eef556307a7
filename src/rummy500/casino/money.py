"""Chips: exact amounts read from what the player types, and one way of showing them.

The terminal game keeps every amount as a :class:`~fractions.Fraction` read from the
decimal text typed (``0.1`` is exactly one tenth), so bets, doubles, halves lost to
a surrender and bonuses add up exactly: three bets of 0.1 from a bankroll of 0.3
leave exactly 0. Amounts are shown by :func:`format_chips` everywhere: whole chips as
integers, anything else as its exact decimal digits, never in exponent form.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from fractions import Fraction

__all__ = ["MAX_CHIPS", "PLACES", "ChipsError", "format_chips", "parse_chips", "to_chips"]

#: The largest bankroll or bet accepted (a table limit, in whole chips).
MAX_CHIPS = 10**12

#: The most decimal places a typed amount may have: the smallest bet is 10**-12 chips.
PLACES = 12

_UNIT = Decimal(1).scaleb(-PLACES)


class ChipsError(ValueError):
    """A text or number that is not an amount of chips the table accepts.

    Attributes:
        kind: ``"number"`` (not a finite number), ``"range"`` (not more than 0 and at
            most the limit) or ``"places"`` (more than :data:`PLACES` decimal places).
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def parse_chips(text: str) -> Fraction:
    """The exact amount ``text`` writes: a finite number of chips more than 0 and at most :data:`MAX_CHIPS`.

    Plain or exponent notation (``10``, ``0.1``, ``2.5e3``), at most :data:`PLACES`
    decimal places. The text is read as a decimal, never through a float.

    >>> parse_chips('0.1') + parse_chips('0.2') == parse_chips('0.3')
    True
    >>> parse_chips(' 1e12 ')
    Fraction(1000000000000, 1)
    >>> for text in ('1e13', '1e-13', 'inf'):
    ...     try:
    ...         parse_chips(text)
    ...     except ChipsError as exc:
    ...         print(exc.kind, '-', exc)
    range - 1e13 is not more than 0 and at most 1000000000000 chips
    places - 1e-13 has more than 12 decimal places
    number - 'inf' is not a number of chips

    Raises:
        ChipsError: not a finite number, out of range, or too many decimal places (see ``kind``).
    """
    shown = text.strip()
    try:
        d = Decimal(shown)
    except InvalidOperation:
        raise ChipsError("number", f"{shown!r} is not a number of chips") from None
    if not d.is_finite():
        raise ChipsError("number", f"{shown!r} is not a number of chips")
    # Compared as decimals, exactly: 1e1000000000 is refused without building the number.
    if not 0 < d <= MAX_CHIPS:
        raise ChipsError("range", _range_message(shown))
    # Up to the limit, quantizing to the smallest unit fits in Decimal's 28 digits, and
    # gives the same number only when nothing finer than the unit is written.
    unit = d.quantize(_UNIT)
    if unit != d:
        raise ChipsError("places", _places_message(shown))
    return Fraction(unit)


def to_chips(amount: Fraction | int | float | str) -> Fraction:
    """An amount given to the API, as an exact :class:`~fractions.Fraction` checked as :func:`parse_chips` does.

    A float is read as its shortest decimal (``0.1`` is one tenth, not the binary
    double nearest to it), a string as typed text.

    >>> to_chips(0.3) == Fraction(3, 10), to_chips(100)
    (True, Fraction(100, 1))

    Raises:
        ChipsError: as :func:`parse_chips`.
    """
    if isinstance(amount, str):
        return parse_chips(amount)
    if isinstance(amount, float):
        return parse_chips(repr(amount))
    value = Fraction(amount)
    if not 0 < value <= MAX_CHIPS:
        raise ChipsError("range", _range_message(format_chips(value)))
    if (value * 10**PLACES).denominator != 1:
        raise ChipsError("places", _places_message(str(value)))
    return value


def _range_message(shown: str) -> str:
    return f"{shown} is not more than 0 and at most {format_chips(MAX_CHIPS)} chips"


def _places_message(shown: str) -> str:
    return f"{shown} has more than {PLACES} decimal places"


def format_chips(amount: Fraction | int | float, sign: bool = False) -> str:
    """An amount as the player reads it: whole chips as an integer, else its exact decimal digits.

    Every amount of the game is a whole number of 10**-12 chips or half of one (a
    surrender), so its decimal digits end; an amount whose digits do not end (1/3,
    never dealt) is rounded to :data:`PLACES` places. A float is shown as its shortest
    decimal. No exponent form and no thousands separators.

    Args:
        amount: the amount.
        sign: show ``+`` before an amount that is not negative (a result).

    >>> format_chips(Fraction(10**12)), format_chips(Fraction(1, 10)), format_chips(-2.5, sign=True)
    ('1000000000000', '0.1', '-2.5')
    >>> format_chips(Fraction(3, 40), sign=True), format_chips(0), format_chips(1e16)
    ('+0.075', '0', '10000000000000000')
    """
    if isinstance(amount, float):
        if not math.isfinite(amount):
            return f"{amount:+}" if sign else str(amount)
        amount = Fraction(repr(amount))
    value = Fraction(amount)
    places = _decimal_places(value.denominator)
    if places is None:
        value = round(value, PLACES)
        places = _decimal_places(value.denominator) or 0
    digits = str(abs(value.numerator * 10**places // value.denominator)).rjust(places + 1, "0")
    text = digits if not places else digits[:-places] + "." + digits[-places:]
    if value < 0:
        return "-" + text
    return "+" + text if sign else text


def _decimal_places(denominator: int) -> int | None:
    """How many decimal places a fraction with this (reduced) denominator needs (``None``: they never end)."""
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    return max(twos, fives) if denominator == 1 else None
