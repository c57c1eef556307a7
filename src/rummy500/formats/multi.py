"""The multi-table tourney: tables of 2 to 8, each table's winner advances.

RULES.md Part 4: "many tables; at each table the winner advances. A tie is
broken by the higher total of melded and laid-off points, then by the lower
value of cards left in hand. The last player standing wins."

The tourney goes in *levels*. At each level the players still in are seated
at balanced tables (sizes differ by at most one, between ``min_table`` and
``max_table``); when they cannot all be seated that way some get a bye and
advance without playing. Every table is a :class:`~rummy500.formats.tables.TableGame`
breaking ties on points. When the last table of a level is over, its
winners and the byes are seated for the next level; the player left alone
wins. Seating and byes come from the tourney's own ``random.Random``, so a
seed reproduces the whole draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummy500.formats.games import FormatError, table_rules
from rummy500.formats.tables import RoundSpec, TableGame, check_format_rules, check_players
from rummy500.rules import Rules
from rummy500.scoring import RoundResult

__all__ = ["Level", "MultiTableTourney", "plan_tables"]

MIN_SEATS = 2
MAX_SEATS = 8


def plan_tables(players: int, max_table: int = MAX_SEATS, min_table: int = MIN_SEATS) -> tuple[list[int], int]:
    """How to seat ``players`` for one level: the table sizes and the number of byes.

    Players who fit at one table (``players <= max_table``) make the final
    table, whatever ``min_table`` says. Otherwise the tables are as few as
    ``max_table`` allows and balanced (sizes differ by at most one, largest
    first); if that would put fewer than ``min_table`` at a table, the fewest
    players possible get a bye instead.

    >>> plan_tables(20, 8)
    ([7, 7, 6], 0)
    >>> plan_tables(5, 4, 3)
    ([4], 1)

    Raises:
        FormatError: fewer than 2 players, or table sizes outside 2..8.
    """
    _check_sizes(max_table, min_table)
    if players < MIN_SEATS:
        raise FormatError(f"a table needs at least {MIN_SEATS} players, not {players}")
    if players <= max_table:
        return [players], 0
    for byes in range(players):
        seated = players - byes
        tables = -(-seated // max_table)
        if seated >= tables * min_table:
            size, extra = divmod(seated, tables)
            return [size + 1] * extra + [size] * (tables - extra), byes
    raise AssertionError("unreachable: one full table always fits")  # pragma: no cover


def _check_sizes(max_table: object, min_table: object) -> None:
    for name, v in (("max_table", max_table), ("min_table", min_table)):
        if not isinstance(v, int) or isinstance(v, bool) or not MIN_SEATS <= v <= MAX_SEATS:
            raise FormatError(f"{name} must be {MIN_SEATS} to {MAX_SEATS}, not {v!r}")
    assert isinstance(max_table, int) and isinstance(min_table, int)
    if min_table > max_table:
        raise FormatError(f"min_table {min_table} is larger than max_table {max_table}")


@dataclass(frozen=True)
class Level:
    """One level of the tourney: its tables and the players with a bye.

    Attributes:
        number: 1 for the first level.
        tables: the tables, in id order.
        byes: players who advance without playing at this level.
    """

    number: int
    tables: tuple[TableGame, ...]
    byes: tuple[str, ...]

    @property
    def is_over(self) -> bool:
        """Every table of the level has its winner."""
        return all(t.is_over for t in self.tables)

    @property
    def advancing(self) -> tuple[str, ...]:
        """The table winners (so far) and the byes."""
        return tuple(t.winner for t in self.tables if t.winner is not None) + self.byes

    def to_dict(self) -> dict[str, Any]:
        """The level as JSON."""
        return {"level": self.number, "tables": [t.to_dict() for t in self.tables], "byes": list(self.byes)}


class MultiTableTourney:
    """A multi-table tourney, driven round by round like a :class:`TableGame`.

    Drive it with :meth:`open_tables`, :meth:`next_round` and
    :meth:`record_round` (tables of one level may be played in any order or
    interleaved); the next level is seated as soon as the last table of the
    current one is over.

    Args:
        rules: the rules every table plays (``players`` is set per table).
        players: everyone entering (at least 2, any number).
        max_table: the most players at a table (default ``rules.players``).
        min_table: the fewest at a table, the final table excepted.
        seed: seed of the draw (seating and byes).
        rng: the source of the draw (default ``random.Random(seed)``).

    Raises:
        FormatError: bad players or sizes, partnership rules, or rules that
            cannot be played by some table size the tourney may need.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        *,
        max_table: int | None = None,
        min_table: int = MIN_SEATS,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        check_format_rules(rules)
        self.players = check_players(players, most=None)
        self.max_table = rules.players if max_table is None else max_table
        self.min_table = min_table
        _check_sizes(self.max_table, self.min_table)
        # Any size from 2 up may be needed (the final table can be small): check them all now.
        # No table ever seats more than the entrants, so larger sizes are not checked.
        problems = []
        for n in range(MIN_SEATS, min(self.max_table, len(self.players)) + 1):
            try:
                table_rules(rules, n)
            except FormatError as exc:
                problems.append(str(exc))
        if problems:
            raise FormatError("; ".join(problems))
        self.rules = rules
        self.rng = rng if rng is not None else random.Random(seed)
        self.levels: list[Level] = []
        self.tables: dict[int, TableGame] = {}
        self.byes_had = dict.fromkeys(self.players, 0)
        self.out_at: dict[str, int] = {}
        self.winner: str | None = None
        self._seat(list(self.players))

    # ---------------------------------------------------------------- seating
    def _seat(self, entrants: list[str]) -> None:
        number = len(self.levels) + 1
        if len(entrants) == 1:
            self.winner = entrants[0]
            return
        sizes, n_byes = plan_tables(len(entrants), self.max_table, self.min_table)
        order = list(entrants)
        self.rng.shuffle(order)
        # Byes go to the players who have had the fewest; the shuffle decides among them.
        order.sort(key=lambda p: self.byes_had[p])
        byes, seated = order[:n_byes], order[n_byes:]
        for p in byes:
            self.byes_had[p] += 1
        tables = []
        start = 0
        for size in sizes:
            table_id = len(self.tables) + 1
            table = TableGame(
                self.rules,
                seated[start : start + size],
                tie_break="points",
                table_id=table_id,
                level=number,
                on_over=self._table_over,
            )
            self.tables[table_id] = table
            tables.append(table)
            start += size
        self.levels.append(Level(number, tuple(tables), tuple(byes)))

    def _table_over(self, table: TableGame) -> None:
        """A table has its winner: its losers are out; the last table of a level seats the next."""
        for p in table.losers:
            self.out_at[p] = table.level
        if table.level == self.level.number and self.level.is_over:
            self._seat(list(self.level.advancing))

    # ------------------------------------------------------------------ state
    @property
    def level(self) -> Level:
        """The current (or, once over, the last) level."""
        return self.levels[-1]

    @property
    def is_over(self) -> bool:
        """The last player standing is known."""
        return self.winner is not None

    def open_tables(self) -> list[TableGame]:
        """The tables of the current level still playing (none once the tourney is over)."""
        if self.is_over:
            return []
        return [t for t in self.level.tables if not t.is_over]

    def table(self, table_id: int) -> TableGame:
        """A table by id.

        Raises:
            FormatError: there is no such table.
        """
        try:
            return self.tables[table_id]
        except KeyError:
            raise FormatError(f"there is no table {table_id!r}") from None

    def next_round(self, table_id: int) -> RoundSpec:
        """The next round at a table (see :meth:`TableGame.next_round`)."""
        return self.table(table_id).next_round()

    def record_round(self, table_id: int, result: RoundResult) -> None:
        """Record a round played at a table; seat the next level if this ended the current one.

        Same as ``tourney.table(table_id).record_round(result)``.

        Raises:
            FormatError: no such table, the table is over, or the result does not fit.
        """
        self.table(table_id).record_round(result)

    def standings(self) -> list[tuple[str, ...]]:
        """Players grouped by how far they went, best first (the winner alone first).

        Players knocked out at the same level share a place.
        """
        groups: list[tuple[str, ...]] = [(self.winner,)] if self.winner is not None else []
        still_in = [p for p in self.players if p not in self.out_at and p != self.winner]
        if still_in:
            groups.append(tuple(still_in))
        for level in sorted(set(self.out_at.values()), reverse=True):
            groups.append(tuple(p for p in self.players if self.out_at.get(p) == level))
        return groups

    def to_dict(self) -> dict[str, Any]:
        """The tourney's state as JSON."""
        return {
            "players": list(self.players),
            "levels": [lv.to_dict() for lv in self.levels],
            "winner": self.winner,
            "out_at": dict(self.out_at),
        }
