"""OpenSpiel's ISMCTS bot against rummy500's ``medium`` bot on ``python_rummy500``.

OpenSpiel's information-set MCTS (random rollouts, ``resample_from_infostate``
to sample worlds) plays one seat through the token action space; ``medium``
plays the other through the engine's actions, each turned into its tokens.
Run::

    nice python examples/openspiel_ismcts_vs_medium.py --games 2 --simulations 20

Python games are slow under search: keep ``--simulations`` small.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import rummy500.env.openspiel  # noqa: F401 - registers python_rummy500
from rummy500.actions import Decline
from rummy500.bots import make_bot
from rummy500.env.encoding import encode


def play(game: pyspiel.Game, ismcts_seat: int, simulations: int, seed: int) -> tuple[list[float], int]:
    """One game; the returns and how many tokens ISMCTS chose."""
    rng = np.random.default_rng(seed)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )
    medium = make_bot("medium", seed)
    decide = random.Random(seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == ismcts_seat:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            view = state.view_of(state.current_player())
            action = medium.act(view, decide)
            for token in encode(Decline() if action is None else action):
                state.apply_action(token)
    return state.returns(), moves


def main(argv: list[str] | None = None) -> None:
    """Play ``--games`` games, ISMCTS alternating seats."""
    parser = argparse.ArgumentParser(prog="openspiel_ismcts_vs_medium.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games to play, at least 1 (default 2)")
    parser.add_argument("--simulations", type=int, default=20, help="per decision, at least 2 (default 20)")
    parser.add_argument("--preset", default="standard", help="the rules preset (default standard; 2 players)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if args.simulations < 2:  # (OpenSpiel's ISMCTS fails an assertion with one)
        parser.error(f"--simulations must be at least 2, not {args.simulations}")
    try:
        game = pyspiel.load_game("python_rummy500", {"preset": args.preset, "rounds": "1", "max_rounds": 1})
    except ValueError as exc:  # (RulesError: an unknown preset, or one that is not for two players)
        parser.error(f"--preset {args.preset}: {exc}")
    total = 0.0
    wins = 0
    for g in range(args.games):
        seat = g % 2
        start = time.perf_counter()
        returns, moves = play(game, seat, args.simulations, seed=g)
        total += returns[seat]
        wins += returns[seat] > returns[1 - seat]
        print(
            f"game {g + 1}: ISMCTS in seat {seat}, round reward {returns[seat]:+.0f} "
            f"({moves} ISMCTS tokens, {time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    print(f"ISMCTS ({args.simulations} simulations) vs medium: {wins}/{args.games} won, mean reward {total / args.games:+.1f}")


if __name__ == "__main__":
    main()
