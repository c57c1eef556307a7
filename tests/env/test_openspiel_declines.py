"""OpenSpiel: an out-of-turn offer and its decline stay the offered seat's own secret."""

from __future__ import annotations

import numpy as np
import pyspiel

import rummy500.env.openspiel  # noqa: F401 - registers the game
from rummy500.env.encoding import DECLINE
from rummy500.env.openspiel import GAME_NAME


def test_a_decline_is_in_the_information_state_of_the_declining_seat_only() -> None:
    # Seats are offered a meld out of turn only when their hidden hand holds one: had the others'
    # strings gained "declined seat=B", they would learn what only B's cards say.
    game = pyspiel.load_game(GAME_NAME, {"meld_out_of_turn": True, "players": 3, "max_rounds": 1})
    declines = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and declines < 5:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            legal = state.legal_actions()
            seat = state.current_player()
            if DECLINE in legal:
                before = [state.information_state_string(p) for p in range(3)]
                state.apply_action(DECLINE)
                declines += 1
                for p in range(3):
                    gained = state.information_state_string(p).splitlines()[len(before[p].splitlines()) - 1 : -1]
                    assert (f"declined seat={seat}" in gained) == (p == seat), (p, seat, gained)
                continue
            state.apply_action(int(rng.choice(legal)))
    assert declines >= 5
