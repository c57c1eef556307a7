"""Playing complete bot matches, one at a time or many in parallel.

:func:`play_game` plays one match to its end with :class:`~rummy500.match.Match`
(which deals every next round itself) through the one decision loop,
:func:`rummy500.drive.drive`: out-of-turn offers (a Rummy call, a meld under
``meld_out_of_turn``) go to each seat in the engine's order before the seat
to move decides; a bot answers ``Decline`` for "no call". :func:`run_games` plays many matches with the
seats rotated from game to game, optionally over several processes; every
game's randomness comes from its own seed, drawn from the run's seed, so the
results do not depend on how many processes played them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rummy500.actions import Action
from rummy500.bots import Bot, make_bot
from rummy500.drive import AgentError, drive
from rummy500.match import Match
from rummy500.pools import ignore_ctrl_c, stop_pool
from rummy500.rules import Rules
from rummy500.views import View

__all__ = ["BotIllegalAction", "GameResult", "check_seating", "game_seeds", "play_game", "run_games", "seat_order"]

#: A game still going after this many rounds is stopped: the best total wins.
MAX_ROUNDS = 200


class BotIllegalAction(RuntimeError):
    """A bot answered with an action outside its view's legal list."""


@dataclass
class GameResult:
    """One finished game.

    Attributes:
        index: the game's number in its run.
        seed: the seed it was played from.
        entries: per seat, the index of the ``bots`` entry playing it.
        levels: per seat, the bot level.
        totals: final totals per seat.
        winners: the winning seats (two for a partnership side; empty on a tie
            after :data:`MAX_ROUNDS`).
        round_scores: per round, the round score of each seat.
        round_turns: per round, the turns played.
        decision_times: per seat, the seconds each in-turn decision took.
        finished: False when the game was stopped at :data:`MAX_ROUNDS`.
        record: the RECORD.md record, when asked for.
        tied: for a game stopped at :data:`MAX_ROUNDS` with the best total
            tied, the seats of every side holding it (they share the win);
            empty otherwise.
    """

    index: int
    seed: int
    entries: list[int]
    levels: list[str]
    totals: list[int]
    winners: list[int]
    round_scores: list[list[int]]
    round_turns: list[int]
    decision_times: list[list[float]] = field(default_factory=list)
    finished: bool = True
    record: dict[str, Any] | None = None
    tied: list[int] = field(default_factory=list)


def seat_order(n_entries: int, players: int, game: int) -> list[int]:
    """Which ``bots`` entry sits in each seat for game number ``game`` (rotated each game)."""
    return [(s + game) % n_entries for s in range(players)]


def check_seating(n_entries: int, rules: Rules) -> None:
    """Refuse a number of entries that :func:`seat_order` would seat on both sides of a partnership table.

    The seats rotate through the entries, so at a partnership table (seats 0
    and 2 against 1 and 3) two entries sit one per side, alternating, and
    four or more sit one per seat; one or three would put an entry on both
    sides, credited with the win whichever side won. At other tables an
    entry may hold several seats (fewer entries than seats).

    Raises:
        ValueError: naming the problem and the counts that work.
    """
    if rules.partnership and n_entries != 2 and n_entries < rules.players:
        raise ValueError(
            f"partnership tables need 2 bots (one per side) or one per seat ({rules.players} or more): got {n_entries}"
        )


def game_seeds(seed: int | None, games: int) -> list[int]:
    """The per-game seeds of a run (fixed by the run's seed)."""
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(games)]


def play_game(
    levels: Sequence[str],
    rules: Rules,
    seed: int,
    *,
    index: int = 0,
    entries: Sequence[int] | None = None,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
    keep_record: bool = False,
    names: Sequence[str] | None = None,
    max_rounds: int = MAX_ROUNDS,
) -> GameResult:
    """Play one match between bots, one level per seat.

    Args:
        levels: the bot level of each seat (``len(levels) == rules.players``).
        rules: the rules.
        seed: all randomness of the game (deals and bots) comes from it.
        index: the game's number (kept in the result).
        entries: per seat, which entry of a run it is (kept in the result).
        bot_options: per level, keyword options for :func:`~rummy500.bots.make_bot`.
        keep_record: keep the game's RECORD.md record in the result.
        names: player names for the record (default: the levels).
        max_rounds: stop after this many rounds (the best total wins).

    Raises:
        BotIllegalAction: a bot returned an action that was not legal.
    """
    n = rules.players
    if len(levels) != n:
        raise ValueError(f"{len(levels)} bots for a {n}-player game")
    rng = random.Random(seed)
    opts = bot_options or {}
    bots: list[Bot] = [make_bot(level, rng.getrandbits(32), **dict(opts.get(level, {}))) for level in levels]
    match = Match(rules, list(names) if names is not None else [f"{lv}" for lv in levels], seed=rng.getrandbits(63))
    decide = random.Random(rng.getrandbits(63))
    times: list[list[float]] = [[] for _ in range(n)]
    agents = [_Timed(bot, times[s]) for s, bot in enumerate(bots)]
    try:
        drive(match, agents, decide, until=lambda: len(match.rounds) > max_rounds)
    except AgentError as exc:
        level = levels[exc.seat]
        if exc.action is None:
            raise BotIllegalAction(f"{level} bot in seat {exc.seat} made no move on its turn") from None
        raise BotIllegalAction(
            f"{level} bot in seat {exc.seat} chose {exc.action}, which is not among its legal actions"
        ) from None
    finished = match.is_over
    rounds = [r for r in match.rounds if r.round_scores is not None]
    turns = _round_turns(match)
    tied: list[int] = []
    if match.winner is None:
        best = max(match.side_totals())
        sides = [i for i, t in enumerate(match.side_totals()) if t == best]
        if len(sides) == 1:
            winners = _seats_of(rules, sides[0])
        else:
            winners, tied = [], [seat for side in sides for seat in _seats_of(rules, side)]
    else:
        winners = list(match.winner) if isinstance(match.winner, list) else [match.winner]
    return GameResult(
        index=index,
        seed=seed,
        entries=list(entries) if entries is not None else list(range(n)),
        levels=list(levels),
        totals=list(match.totals),
        winners=winners,
        round_scores=[list(r.round_scores or []) for r in rounds],
        round_turns=turns,
        decision_times=times,
        finished=finished,
        record=match.record() if keep_record else None,
        tied=tied,
    )


def _seats_of(rules: Rules, side: int) -> list[int]:
    return [side, side + 2] if rules.partnership else [side]


def _round_turns(match: Match) -> list[int]:
    """Turns per finished round: a turn ends with a discard, a float or the round's end."""
    from rummy500.actions import Discard, Float

    out = []
    for r in match.rounds:
        if r.round_scores is None:
            continue
        k = sum(1 for _, a in r.actions if isinstance(a, (Discard, Float)))
        out.append(k + 1)
    return out


class _Timed:
    """A bot whose in-turn decisions are timed (out-of-turn offers are not)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def act(self, view: View, rng: random.Random) -> Action | None:
        if view.seat != view.to_move:
            return self.bot.act(view, rng)
        start = time.perf_counter()
        action = self.bot.act(view, rng)
        self.times.append(time.perf_counter() - start)
        return action


def _play_task(task: tuple[Any, ...]) -> GameResult:
    levels, rules, seed, index, entries, options, keep, max_rounds = task
    return play_game(
        levels, rules, seed, index=index, entries=entries, bot_options=options, keep_record=keep, max_rounds=max_rounds
    )


def run_games(
    bots: Sequence[str],
    rules: Rules,
    games: int,
    *,
    seed: int | None = 0,
    jobs: int = 1,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
    keep_records: bool = False,
    max_rounds: int = MAX_ROUNDS,
    on_result: Callable[[GameResult], None] | None = None,
    duplicate: int = 1,
    first: int = 0,
) -> list[GameResult]:
    """Play ``games`` matches between ``bots`` (levels), rotating seats each game.

    With fewer bots than seats the list is repeated around the table (an
    entry may hold several seats); with more, each game seats a rotating
    window of them. At a partnership table that takes 2 entries (one per
    side) or at least one per seat (:func:`check_seating`).

    Args:
        bots: bot levels, one entry per competitor.
        rules: the rules (``rules.players`` seats).
        games: how many matches.
        seed: the run's seed; the same seed gives the same games whatever ``jobs``.
        jobs: worker processes (1: play in this process).
        bot_options: per level, options for :func:`~rummy500.bots.make_bot`.
        keep_records: keep every game's record.
        max_rounds: see :func:`play_game`.
        on_result: called with each result as it arrives (in any order).
        duplicate: play each deal this many times in a row, the seats rotated
            one further each time (duplicate deals: 2 in a 2-player game swaps
            the hands). Game ``i`` is dealt from seed number ``i // duplicate``.
        first: play only games ``first`` to ``games - 1``, exactly as a
            whole run plays them (to go on with a run stopped after ``first``
            games, or to lengthen a finished one: the seeds of a run do not
            depend on its number of games).

    Returns:
        The results of the games played, in game order.

    Raises:
        ValueError: the entries would sit on both sides of a partnership
            table (:func:`check_seating`).
    """
    check_seating(len(bots), rules)
    per_deal = max(1, int(duplicate))
    seeds = game_seeds(seed, -(-games // per_deal))
    tasks = []
    for i in range(max(0, first), games):
        order = seat_order(len(bots), rules.players, i)
        levels = [bots[e] for e in order]
        tasks.append((levels, rules, seeds[i // per_deal], i, order, dict(bot_options or {}), keep_records, max_rounds))
    results: list[GameResult | None] = [None] * games
    arriving = _results(tasks, jobs)
    try:
        for res in arriving:
            results[res.index] = res
            if on_result is not None:
                on_result(res)
    finally:
        # Stopped early (Ctrl-C in ``on_result``, an error): the workers go now, not when the
        # generator happens to be collected.
        arriving.close()
    return [r for r in results if r is not None]


def _results(tasks: list[tuple[Any, ...]], jobs: int) -> Generator[GameResult, None, None]:
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield _play_task(t)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=ignore_ctrl_c)
    try:
        yield from pool.map(_play_task, tasks, chunksize=1)
    except BaseException:  # Ctrl-C, an error, or the caller stopping early (GeneratorExit)
        stop_pool(pool)
        raise
    pool.shutdown()
