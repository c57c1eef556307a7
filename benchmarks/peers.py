"""Peer measurements for the rummy500 speed benchmark.

This module owns the *comparison* side of the benchmark: it times random
legal play in other card-game engines so that rummy500's own numbers have a
point of reference. Two peers are measured, both playing gin rummy (the
closest rummy variant either library ships):

* OpenSpiel's ``gin_rummy`` game (``pyspiel``, C++ core with Python bindings).
* RLCard's pure-Python gin-rummy engine
  (``rlcard.games.gin_rummy.game.GinRummyGame``), driven directly rather than
  through the RL environment, so no observation/feature encoding is timed.

Every ``measure_*`` function plays complete random games until ``seconds``
have elapsed and returns a result dict with the keys ``name``, ``games``,
``decisions``, ``seconds``, ``us_per_decision``, ``decisions_per_s`` and
``games_per_s``. A *decision* is every non-chance move, including moves where
the engine offers only one legal action (for example RLCard's scoring steps or
OpenSpiel's forced passes), because both engines make a player take them.
The time covers the whole playout loop: dealing, legal-move generation,
random choice and applying the move.

The peers are optional dependencies (``pip install -e '.[bench]'``); when one
is missing its function raises ``ModuleNotFoundError`` saying so.

Run ``python benchmarks/peers.py`` to print a table of both peers (median of
5 repetitions of about 2 s each).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

Result = dict[str, Any]

_INSTALL_HINT = "pip install -e '.[bench]'"
MIN_REPS = 5


def _missing(
    package: str, module: str, exc: ModuleNotFoundError
) -> ModuleNotFoundError:
    """Builds a ModuleNotFoundError that tells the user how to install a peer.

    Args:
        package: The pip requirement that provides the module.
        module: The module that failed to import.
        exc: The original import error.

    Returns:
        A new error whose message names the package and the install command.
    """
    return ModuleNotFoundError(
        f"benchmark peer {module!r} is not importable ({exc}); install the "
        f"benchmark extras with `{_INSTALL_HINT}` (provides {package})",
        name=module,
    )


def _result(name: str, games: int, decisions: int, seconds: float) -> Result:
    """Packs raw counts into the common result dict.

    Args:
        name: Human-readable name of the measured engine.
        games: Number of complete games played.
        decisions: Number of non-chance moves made across all games.
        seconds: Wall-clock time spent in the playout loop.

    Returns:
        The result dict described in the module docstring.
    """
    return {
        "name": name,
        "games": games,
        "decisions": decisions,
        "seconds": seconds,
        "us_per_decision": seconds * 1e6 / decisions if decisions else float("nan"),
        "decisions_per_s": decisions / seconds if seconds > 0 else float("nan"),
        "games_per_s": games / seconds if seconds > 0 else float("nan"),
    }


def measure_openspiel(seconds: float, seed: int) -> Result:
    """Times random playouts of OpenSpiel's ``gin_rummy``.

    The game and its initial state are created once; each playout clones the
    initial state and plays to the end, sampling chance nodes from
    ``chance_outcomes()`` and choosing player moves uniformly from
    ``legal_actions()`` with a seeded ``random.Random``.

    Args:
        seconds: Minimum wall-clock time to play for; whole games are played,
            and at least one.
        seed: Seed for the random number generator.

    Returns:
        The result dict described in the module docstring.

    Raises:
        ModuleNotFoundError: If ``pyspiel`` (``open-spiel``) is not installed.
    """
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ModuleNotFoundError as exc:
        raise _missing("open-spiel==2.0.2", "pyspiel", exc) from exc

    rng = random.Random(seed)
    choice = rng.choice
    choices = rng.choices
    game = pyspiel.load_game("gin_rummy")
    initial = game.new_initial_state()

    games = 0
    decisions = 0
    clock = CLOCK[0]
    start = clock()
    deadline = start + seconds
    while True:
        state = initial.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                weights = [p for _, p in outcomes]
                state.apply_action(choices(actions, weights)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        games += 1
        now = clock()
        if now >= deadline:
            break
    return _result("OpenSpiel gin_rummy", games, decisions, now - start)


def measure_rlcard(seconds: float, seed: int) -> Result:
    """Times random playouts of RLCard's gin-rummy engine.

    A single ``GinRummyGame`` is created and its ``np_random`` seeded (it
    shuffles the deck and picks the dealer). Each playout calls
    ``init_game()``, then repeatedly picks uniformly among
    ``game.judge.get_legal_actions()`` and applies it with ``game.step()``
    until ``game.is_over()``. ``step()`` also builds RLCard's per-player state
    dict; that cost is part of the engine and is not avoidable without
    bypassing its public game API.

    Args:
        seconds: Minimum wall-clock time to play for; whole games are played,
            and at least one.
        seed: Seed for both the move-choice and the shuffling RNGs.

    Returns:
        The result dict described in the module docstring.

    Raises:
        ModuleNotFoundError: If ``rlcard`` is not installed.
    """
    try:
        np = importlib.import_module("numpy")
        rlcard_game = importlib.import_module("rlcard.games.gin_rummy.game")
    except ModuleNotFoundError as exc:
        raise _missing("rlcard==1.2.0", "rlcard", exc) from exc

    rng = random.Random(seed)
    choice = rng.choice
    game = rlcard_game.GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    legal_actions = game.judge.get_legal_actions

    games = 0
    decisions = 0
    clock = CLOCK[0]
    start = clock()
    deadline = start + seconds
    while True:
        game.init_game()
        while not game.is_over():
            game.step(choice(legal_actions()))
            decisions += 1
        games += 1
        now = clock()
        if now >= deadline:
            break
    return _result("RLCard gin-rummy", games, decisions, now - start)


#: The clock every measurement reads: wall time, or with :func:`use_cpu_clock` this process's CPU time.
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def use_cpu_clock() -> None:
    """Time with ``time.process_time`` (CPU seconds of this process) instead of wall time.

    On a machine shared with other work the wall time of a run depends on the
    load; the CPU time a process spends is much steadier, so versions and
    engines compare better with it (``--cpu`` in the benchmarks).
    """
    CLOCK[0] = time.process_time


def median_of(fn: Callable[..., Result], reps: int, **kw: float) -> Result:
    """Runs a measurement several times and returns the median run.

    Args:
        fn: A measurement function such as :func:`measure_openspiel`.
        reps: Number of repetitions; at least 5.
        **kw: Keyword arguments passed to every call of ``fn``. If ``seed`` is
            given, repetition ``i`` uses ``seed + i`` so runs play different
            games.

    Returns:
        A copy of the run whose ``us_per_decision`` is the median (the lower
        median for an even ``reps``), with two extra keys: ``reps`` (the
        number of runs) and ``us_per_decision_reps`` (every run's
        ``us_per_decision``, in run order).

    Raises:
        ValueError: If ``reps`` is less than 5.
    """
    if reps < MIN_REPS:
        raise ValueError(f"reps must be >= {MIN_REPS}, got {reps}")
    runs: list[Result] = []
    for i in range(reps):
        call_kw = dict(kw)
        if "seed" in call_kw:
            call_kw["seed"] = call_kw["seed"] + i
        runs.append(fn(**call_kw))
    values = [float(r["us_per_decision"]) for r in runs]
    target = statistics.median_low(values)
    chosen = dict(runs[values.index(target)])
    chosen["reps"] = reps
    chosen["us_per_decision_reps"] = values
    return chosen


def _format_row(res: Result) -> str:
    """Formats one result as a table row.

    Args:
        res: A result from :func:`median_of`.

    Returns:
        The row text.
    """
    spread = res["us_per_decision_reps"]
    return (
        f"{res['name']:<22} {res['us_per_decision']:>10.2f} "
        f"{min(spread):>8.2f} {max(spread):>8.2f} "
        f"{res['decisions_per_s']:>12,.0f} {res['games_per_s']:>9.1f} "
        f"{res['games']:>7d} {res['decisions']:>10d}"
    )


def main(argv: list[str] | None = None) -> int:
    """Prints a table of median peer measurements.

    Args:
        argv: Command-line arguments; ``sys.argv[1:]`` when None.

    Returns:
        Process exit status: 0 if every peer was measured, 1 if any was
        missing.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per rep")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (>= 5)")
    parser.add_argument("--seed", type=int, default=0, help="base seed")
    args = parser.parse_args(argv)

    header = (
        f"{'peer':<22} {'us/dec':>10} {'min':>8} {'max':>8} "
        f"{'decisions/s':>12} {'games/s':>9} {'games':>7} {'decisions':>10}"
    )
    print(f"median of {args.reps} reps, ~{args.seconds:g} s each")
    print(header)
    print("-" * len(header))
    status = 0
    peers: list[tuple[str, Callable[..., Result]]] = [
        ("OpenSpiel gin_rummy", measure_openspiel),
        ("RLCard gin-rummy", measure_rlcard),
    ]
    for name, fn in peers:
        try:
            res = median_of(fn, args.reps, seconds=args.seconds, seed=args.seed)
        except ModuleNotFoundError as exc:
            print(f"{name:<22} skipped: {exc}")
            status = 1
            continue
        print(_format_row(res))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
