"""The table rules of Costa Rican Rummy and the readings chosen where the source is silent."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from typing import Any

__all__ = ["BENCHMARK", "CasinoRules", "RulesError", "VARIANTS"]


class RulesError(ValueError):
    """A rule set that cannot be dealt (too few decks, an unknown option, a value of the wrong type)."""


#: The integer options and their ranges (inclusive); every other option is a boolean.
_RANGES = {"decks": (1, 8), "max_hands": (1, 8)}


def _shown(value: object) -> str:
    """A value as the user wrote it: JSON where it is JSON (``"6"``, ``null``), else Python's repr."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


@dataclass(frozen=True)
class CasinoRules:
    """One table's rules. The defaults are the seed's "benchmark rules".

    Attributes:
        decks: decks in the shoe (the casinos deal 4 to 6; 1 to 8 accepted).
        h17: the dealer hits soft 17 (benchmark: stands).
        surrender: early surrender, for half the bet, on the first two cards of the
            original hand against any up-card (there is no blackjack, so nothing to check first).
        das: double after a split.
        resplit_aces: split aces may be split again (up to ``max_hands``).
        draw_split_aces: split aces are played like other split hands; otherwise
            each split ace gets exactly one card.
        max_hands: the most hands one player may hold after splits.
        ace_low_straight: A-2-3 counts as a straight for the straight-flush bonus.
        ace_high_straight: Q-K-A counts as a straight (there is never a wrap K-A-2).
        bonus_adds: a bonus is paid on top of whatever the hand then wins or loses
            (``False``: the bonus replaces the hand's result and the hand ends).
    """

    decks: int = 6
    h17: bool = False
    surrender: bool = True
    das: bool = True
    resplit_aces: bool = True
    draw_split_aces: bool = False
    max_hands: int = 4
    ace_low_straight: bool = True
    ace_high_straight: bool = True
    bonus_adds: bool = True

    def __post_init__(self) -> None:
        """Check every option's type and range.

        Raises:
            RulesError: a boolean option that is not ``True``/``False`` (``"false"``, ``0``
                and ``null`` are refused, not read as truthy or falsy), or an integer option
                that is not an ``int`` (``"6"``, ``4.0``, ``True`` are refused) or is out of range.
        """
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _RANGES:
                lo, hi = _RANGES[f.name]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise RulesError(f"{f.name} must be a whole number from {lo} to {hi}, not {_shown(value)}")
                if not lo <= value <= hi:
                    raise RulesError(f"{f.name} must be {lo} to {hi}, not {value}")
            elif not isinstance(value, bool):
                raise RulesError(f"{f.name} must be true or false, not {_shown(value)}")

    def with_options(self, **options: Any) -> CasinoRules:
        """A copy with some options changed.

        Raises:
            RulesError: an unknown option name, or a value of the wrong type or out of range.
        """
        names = {f.name for f in fields(self)}
        unknown = sorted(set(options) - names)
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown)}")
        return replace(self, **options)

    def describe(self) -> str:
        """A one-line human summary."""
        parts = [f"{self.decks} decks", "dealer hits soft 17" if self.h17 else "dealer stands on soft 17"]
        parts.append("early surrender" if self.surrender else "no surrender")
        parts.append("double after split" if self.das else "no double after split")
        parts.append(f"split to {self.max_hands} hands")
        if self.max_hands > 2:
            parts.append("re-split aces" if self.resplit_aces else "no re-splitting aces")
        parts.append("draw to split aces" if self.draw_split_aces else "one card to split aces")
        return ", ".join(parts)


BENCHMARK = CasinoRules()

#: The seed's variant table: (name, rules, published effect on the house edge in percentage points).
VARIANTS: tuple[tuple[str, CasinoRules, float], ...] = (
    ("draw to split aces", CasinoRules(draw_split_aces=True), -0.17),
    ("4 decks", CasinoRules(decks=4), +0.02),
    ("no re-splitting aces", CasinoRules(resplit_aces=False), +0.06),
    ("dealer hits soft 17", CasinoRules(h17=True), +0.16),
    ("no surrender", CasinoRules(surrender=False), +0.47),
)
