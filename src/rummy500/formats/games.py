"""Game to target and quick game: the rules they play and who wins from the totals.

Both formats are plain games of Rummy 500 (RULES.md Part 4): the only
difference is the ``rounds`` option. These helpers build those rules and
decide a game from its totals exactly as :class:`rummy500.match.Match` does, so
the tourney formats (and any client) can share one definition of "the game
is over and X has won" without owning a ``Match``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy500 import scoring
from rummy500.rules import Rounds, Rules, RulesError
from rummy500.scoring import GameStatus

__all__ = [
    "QUICK_ROUNDS",
    "FormatError",
    "GameStatus",
    "game_status",
    "leaders",
    "quick_game_rules",
    "standings",
    "table_rules",
    "target_game_rules",
]

QUICK_ROUNDS = range(1, 4)
"""The numbers of rounds a quick game may have (RULES.md Part 4: 1 to 3)."""


class FormatError(ValueError):
    """A match or tournament format was set up or driven wrongly (the message says how)."""


def _standard() -> Rules:
    return Rules.from_mapping({})


def target_game_rules(rules: Rules | None = None, *, target: int | None = None) -> Rules:
    """The rules of a game to the target (RULES.md Part 1, the default format).

    Args:
        rules: the table's rules (default: the standard game).
        target: a winning total to use instead of ``rules.target``.

    Returns:
        ``rules`` with ``rounds: to_target`` (and the given target).

    Raises:
        RulesError: the target is not a positive integer, or the result is not a
            playable game.
    """
    base = rules if rules is not None else _standard()
    changes: dict[str, object] = {}
    if base.fixed_rounds is not None:
        changes["rounds"] = Rounds.TO_TARGET.value
    if target is not None and target != base.target:
        changes["target"] = target
    return base.replace(**changes) if changes else base


def quick_game_rules(rounds: int, rules: Rules | None = None) -> Rules:
    """The rules of a quick game: ``rounds`` rounds, then the highest total wins.

    This is the *format* of Part 4 (a fixed, short number of rounds), not the
    ``quick`` preset of Part 3 (flat card values divided by 5); the two combine:
    ``quick_game_rules(2, Rules.preset_rules("quick"))``.

    Args:
        rounds: how many rounds, 1 to 3.
        rules: the table's rules (default: the standard game).

    Raises:
        FormatError: ``rounds`` is not 1, 2 or 3.
        RulesError: the rules cannot be played with a fixed number of rounds
            (for instance ``must_go_out_to_win: true``).
    """
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds not in QUICK_ROUNDS:
        raise FormatError(f"a quick game has 1 to 3 rounds, not {rounds!r}")
    base = rules if rules is not None else _standard()
    return base if base.fixed_rounds == rounds else base.replace(rounds=rounds)


def table_rules(rules: Rules, players: int, *, same_pack: bool = False) -> Rules:
    """``rules`` for a table of ``players`` seats (used when tourney tables shrink or grow).

    Args:
        rules: the rules.
        players: the seats.
        same_pack: keep the packs and jokers ``rules`` deal (``decks`` and
            ``jokers: auto`` follow the number of players otherwise): the
            players left at a tie-break play with the cards of their game, so
            a five-player game with two packs (``set_suits: any``, say) breaks
            a tie between two players with two packs too.

    Raises:
        FormatError: the rules cannot be played with that many players; the
            message carries every problem the rules parser found.
    """
    if rules.players == players:
        return rules
    changes: dict[str, object] = {"players": players}
    if same_pack:
        changes.update(decks=rules.n_decks, jokers=rules.n_jokers)
    try:
        return rules.replace(**changes)
    except RulesError as exc:
        raise FormatError(f"these rules cannot seat {players} players: {exc}") from exc


def leaders(totals: Sequence[int]) -> tuple[int, ...]:
    """The indices holding the best total, in index order (several when tied)."""
    if not totals:
        raise FormatError("no totals to rank")
    best = max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)


def standings(totals: Sequence[int]) -> list[tuple[int, ...]]:
    """Indices grouped by total, best first; equal totals share a group.

    >>> standings([40, 120, 40, 75])
    [(1,), (3,), (0, 2)]
    """
    groups: dict[int, list[int]] = {}
    for i, t in enumerate(totals):
        groups.setdefault(t, []).append(i)
    return [tuple(groups[t]) for t in sorted(groups, reverse=True)]


def game_status(
    rules: Rules,
    totals: Sequence[int],
    rounds_played: int,
    went_out: int | None = None,
    *,
    tied_before: bool = False,
) -> GameStatus:
    """Decide a game from its totals after a round: :func:`rummy500.scoring.game_status`.

    The same decision :class:`~rummy500.match.Match` makes (it calls that
    function), with the totals checked: a :class:`FormatError` names a count
    of totals that is not the game's number of sides.

    >>> game_status(Rules.from_mapping({}), [510, 380], 6)
    GameStatus(over=True, winner=0, leaders=(0,), tie_break=False)
    """
    if len(totals) != rules.n_sides:
        raise FormatError(f"{len(totals)} totals for a game of {rules.n_sides} sides")
    return scoring.game_status(rules, totals, rounds_played, went_out, tied_before=tied_before)
