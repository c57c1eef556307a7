"""Dead-round detection (docs/rules.md, ``stock_out: reshuffle`` or ``play_on``): what keeps a round alive.

"Jokers still in play (or on the table under ``joker_swap``) and a dealer's
joker still free keep a round alive." Each position below would be dead but for
that joker: the natural cards left in play make no meld and go on no table meld.
"""

from __future__ import annotations

from rummy500.actions import parse_action

from .scenario import play

# ------------------------------------------------------------ the dealer's joker
# Dealer's Gambit, dealer 1: seat 0 draws the last stock card, melds 5H 6H 7H and throws 9C.
# Left in play: 3D (seat 0), 8C 8D 4S (the dealer), KS 9C (the pile); no meld among them and
# nothing for the hearts run. But the dealer's 8C 8D and its joker, still free, make a set.
GAMBIT = {"dealers_gambit": True, "stock_out": "play_on"}
GAMBIT_HANDS = ["5H 6H 7H 9C", "8C 8D 4S"]
GAMBIT_TURN = ["1 nominate wild", "0 draw", "0 meld 5H 6H 7H", "0 discard 9C"]


def test_a_dealers_joker_still_free_keeps_a_round_alive():
    out = play(GAMBIT, GAMBIT_HANDS, "3D", "KS", GAMBIT_TURN, dealer=1)
    assert out.ok, out.message
    assert not out.over and out.state["to_move"] == 1 and out.state["phase"] == "draw"
    # ... and the dealer melds with it: take the 9C, meld 8C 8D JK=8H, throw 4S.
    more = play(GAMBIT, GAMBIT_HANDS, "3D", "KS", [*GAMBIT_TURN, "1 take 1", "1 meld 8C 8D JK=8H", "1 discard 4S"], dealer=1)
    assert more.ok, more.message
    assert more.meld(1) == ["8C", "8D", "JK=8H"]
    # Now nothing can change any more: the round ends as a stock-out would, each hand counted.
    assert more.over and more.went_out is None
    assert more.scores == [5 + 6 + 7 - 3, 8 + 8 + 0 - 9]


def test_a_blocked_dealers_joker_leaves_the_same_round_dead():
    # The contrast: seat 0 blocks the dealer's joker with its own; then nobody can meld again.
    out = play(GAMBIT, ["5H 6H 7H 9C JK", "8C 8D 4S"], "3D", "KS",
               ["1 nominate wild", "0 draw", "0 block", "0 meld 5H 6H 7H", "0 discard 9C"], dealer=1)
    assert out.ok, out.message
    assert out.over and out.went_out is None
    assert out.scores == [5 + 6 + 7 - 3, -(8 + 8 + 4)]


# ------------------------------------------------------------ a joker on the table
# joker_swap, play_on: seat 0 draws the last stock card, melds 8C 8D JK=8H and throws 3S.
# Left in play: 2C 9S (seat 0), 8H (seat 1), KH 3S (the pile): no meld, no lay-off (the
# set's heart is the joker's). But seat 1 holds the 8H the joker stands for: it may swap it
# in and take the joker, which is wild again in its hand.
SWAP = {"joker_swap": True, "stock_out": "play_on"}
SWAP_HANDS = ["8C 8D JK 2C 9S", "8H"]
SWAP_TURN = ["0 draw", "0 meld 8C 8D JK=8H", "0 discard 3S"]


def test_dead_round_sees_a_joker_on_the_table_under_joker_swap():
    # FOR THE LEAD: fails until RoundState._dead() sees declared jokers on the table (its
    # ``JOKER in m.cards`` compares the table's declared jokers, JK=8H, with the bare JK).
    out = play(SWAP, SWAP_HANDS, "3S", "KH", SWAP_TURN)
    assert out.ok, out.message
    assert not out.over, "the round was ended as dead with a joker on the table that seat 1 can win"
    assert out.state["to_move"] == 1
    state = out.match().state
    state.apply(parse_action("take 1"), 1)
    assert parse_action("swap 8H on 0") in state.legal_actions(1)
