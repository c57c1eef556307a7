"""Match and tournament formats (RULES.md Part 4), as pure library code.

* game to target and quick game -- :func:`target_game_rules`,
  :func:`quick_game_rules`, :func:`game_status` (:mod:`.games`);
* chip settlement and the ring game -- :func:`settle`, :func:`settle_shared`,
  :class:`RingGame` (:mod:`.chips`);
* single-table tourney -- :class:`SingleTableTourney` (:mod:`.tables`);
* multi-table tourney -- :class:`MultiTableTourney`, :func:`plan_tables`
  (:mod:`.multi`);
* example drivers that play them with real matches and a policy
  (:mod:`.drive`).

The format objects never deal or play a card: they take round results and
say what happens next, so the drivers here, ``rummy500 tournament --format``
(which uses them) and tests drive them alike. The web app
(:mod:`rummy500.server`) does not run tourneys or ring games. Everything here
uses only the standard library and the engine. See ``docs/formats.md``.
"""

from rummy500.formats.chips import Payment, RingGame, RingRound, Settlement, settle, settle_shared
from rummy500.formats.drive import (
    Policy,
    play_ring,
    play_round,
    play_table,
    random_policy,
    run_multi_table,
    run_single_table,
)
from rummy500.formats.games import (
    QUICK_ROUNDS,
    FormatError,
    GameStatus,
    game_status,
    leaders,
    quick_game_rules,
    standings,
    table_rules,
    target_game_rules,
)
from rummy500.formats.multi import Level, MultiTableTourney, plan_tables
from rummy500.formats.tables import RoundSpec, SingleTableTourney, TableGame, TableRound

FORMATS: dict[str, str] = {
    "target": "game to target: rounds until a total reaches the target; the highest total wins",
    "quick": "quick game: 1 to 3 rounds; the highest total wins",
    "ring": "ring game: a sit-in table settling chips after every round; tied best scores share",
    "single_table": "single-table tourney: play to the target; tied winners play tie-break rounds",
    "multi_table": "multi-table tourney: table winners advance (ties: table points, then hand points)",
}
"""Every format of RULES.md Part 4 by its name in this library, with a one-line description.

Library names only: ``rummy500 tournament --format`` calls the tourneys and
the ring game ``single``, ``multi`` and ``ring``
(:data:`rummy500.cli.tournament.FORMAT_CHOICES`); a game to the target or a
quick game is an ordinary match (``rules``' ``rounds``).
"""

__all__ = [
    "FORMATS",
    "QUICK_ROUNDS",
    "FormatError",
    "GameStatus",
    "Level",
    "MultiTableTourney",
    "Payment",
    "Policy",
    "RingGame",
    "RingRound",
    "RoundSpec",
    "Settlement",
    "SingleTableTourney",
    "TableGame",
    "TableRound",
    "game_status",
    "leaders",
    "plan_tables",
    "play_ring",
    "play_round",
    "play_table",
    "quick_game_rules",
    "random_policy",
    "run_multi_table",
    "run_single_table",
    "settle",
    "settle_shared",
    "standings",
    "table_rules",
    "target_game_rules",
]
