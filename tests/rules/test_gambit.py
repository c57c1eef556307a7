"""Dealer's Gambit (RULES.md Part 2) against the standard game.

Two seats, dealer 1: seat 0 plays first. The dealer's joker lies beside the
dealer and is not in the deal; before play the dealer nominates what jokers
do this hand (``{"p": 1, "nominate": "wild"}``).
"""

from __future__ import annotations

import pytest

from rummy500.actions import Block, Nominate
from rummy500.record import RecordError
from rummy500.rules import Rules, RulesError

from .scenario import contrast, play

G = {"dealers_gambit": True}
SEAT0 = "KD QD 2S"
OPENING = ["0 draw", "0 discard 4D"]


def _gambit(mode, hands, stock, discard, actions, **kw):
    return play(G, hands, stock, discard, [f"1 nominate {mode}", *actions], dealer=1, **kw)


# ------------------------------------------------------------------ nominating
def test_dealers_gambit_starts_with_the_dealer_nominating_what_jokers_do():
    base, opt = contrast(G, [SEAT0, "5H 6H 9C"], "4D 2C", "8D", ["1 nominate wild", *OPENING], dealer=1)
    assert base.refused_at == 0
    assert opt.ok and opt.state["to_move"] == 1 and opt.state["phase"] == "draw"
    waiting = play(G, [SEAT0, "5H 6H 9C"], "4D 2C", "8D", [], dealer=1)
    assert waiting.state["phase"] == "nominate" and waiting.state["to_move"] == 1
    state = waiting.match().state
    assert state.legal_actions(1) == [Nominate("wild"), Nominate("double"), Nominate("split")]
    assert state.legal_actions(0) == []
    assert play(G, [SEAT0, "5H 6H 9C"], "4D 2C", "8D", OPENING, dealer=1).refused_at == 0
    assert play(G, [SEAT0, "5H 6H 9C"], "4D 2C", "8D", ["0 nominate wild"], dealer=1).refused_at == 0


def test_dealers_gambit_is_played_anticlockwise():
    hands = [SEAT0, "5H 6H 9C", "7C 8C TS"]
    out = play(G, hands, "4D 2C", "8D", ["2 nominate wild", "1 draw", "1 discard 4D", "0 draw"], dealer=2)
    assert out.ok and out.state["to_move"] == 0
    assert Rules.from_mapping({**G, "direction": "clockwise"}).direction == "clockwise"  # unless overridden


# ---------------------------------------------------------------- the dealer's joker
def test_the_dealers_joker_is_a_wild_card_the_dealer_may_use_and_worth_0():
    actions = [*OPENING, "1 draw", "1 meld 5H 6H JK=7H", "1 discard 2C"]
    base = play({}, [SEAT0, "5H 6H"], "4D 2C", "8D", actions, dealer=1)
    assert base.refused_at == 3 and "do not hold JK" in base.message
    out = _gambit("wild", [SEAT0, "5H 6H"], "4D 2C", "8D", actions)
    assert out.ok and out.went_out == 1 and out.meld(0) == ["5H", "6H", "JK=7H"]
    assert out.scores == [-22, 5 + 6 + 0]


def test_jokers_count_0_in_hand():
    actions = [*OPENING, "1 draw", "1 meld 5H 6H 7H", "1 discard 2C"]
    base = play({}, ["KD QD JK", "5H 6H 7H"], "4D 2C", "8D", actions, dealer=1)
    assert base.scores == [-35, 18]
    assert _gambit("wild", ["KD QD JK", "5H 6H 7H"], "4D 2C", "8D", actions).scores == [-20, 18]


def test_a_joker_in_hand_blocks_the_dealers_joker():
    actions = ["0 draw", "0 block", "0 discard 4D", "1 draw", "1 meld 5H 6H JK=7H"]
    out = _gambit("wild", ["KD QD JK", "5H 6H 9C"], "4D 2C", "8D", actions)
    assert out.refused_at == 5 and "do not hold JK" in out.message
    assert out.state["hands"][0] == ["KD", "QD"]  # the blocking joker is face down over the dealer's
    state = _gambit("wild", ["KD QD JK", "5H 6H 9C"], "4D 2C", "8D", ["0 draw"]).match().state
    assert Block() in state.legal_actions(0)
    unblocked = _gambit("wild", ["KD QD JK", "5H 6H 9C"], "4D 2C", "8D", [a for a in actions if a != "0 block"])
    assert unblocked.ok
    assert play({}, ["KD QD JK", "5H 6H 9C"], "4D 2C", "8D", ["0 draw", "0 block"], dealer=1).refused_at == 1


def test_only_the_player_to_move_may_block():
    out = _gambit("wild", [SEAT0, "5H 6H JK"], "4D 2C", "8D", [*OPENING, "1 draw", "1 block"])
    assert out.refused_at == 4 and "their own joker" in out.message
    out = _gambit("wild", ["KD QD JK", "5H 6H 9C"], "4D 2C", "8D", ["0 draw", "0 discard 4D", "0 block"])
    assert out.refused_at == 3 and "own turn" in out.message


# ---------------------------------------------------------------------- double
def test_double_joker_doubles_a_set_as_it_is_melded():
    actions = [*OPENING, "1 draw", "1 meld 5H 5S 5C JK", "1 discard 2C"]
    wild = _gambit("wild", [SEAT0, "5H 5S 5C"], "4D 2C", "8D", actions)
    assert wild.refused_at == 4 and "stands for" in wild.message
    out = _gambit("double", [SEAT0, "5H 5S 5C"], "4D 2C", "8D", actions)
    assert out.ok and out.went_out == 1 and out.scores == [-22, 2 * 15]
    assert out.state["melds"][0]["cards"] == ["5C", "5H", "5S", "JK"]


def test_double_joker_seals_the_set():
    actions = [*OPENING, "1 draw", "1 meld 5H 5S 5C JK", "1 discard 9C", "0 draw", "0 layoff 5D on 0"]
    out = _gambit("double", ["KD QD 5D", "5H 5S 5C 9C"], "4D 2C 3D", "8D", actions)
    assert out.refused_at == 7 and "sealed" in out.message


def test_double_makes_jokers_not_wild():
    actions = [*OPENING, "1 draw", "1 meld 5H 6H JK=7H"]
    assert _gambit("wild", [SEAT0, "5H 6H 9C"], "4D 2C", "8D", actions).ok
    assert _gambit("double", [SEAT0, "5H 6H 9C"], "4D 2C", "8D", actions).refused_at == 4


def test_double_a_joker_taken_from_the_pile_goes_on_a_set_as_it_is_melded():
    # Seat 0 takes the pile down to the joker (it must be used): it doubles its set of eights.
    actions = ["0 take 2", "0 meld 8C 8S 8D JK", "0 discard 5H"]
    out = _gambit("double", ["8C 8S 8D 3S", "5D 9C QS 3D"], "4D 2C", "KD JK 5H", actions)
    assert out.ok and out.state["melds"][0]["cards"] == ["8C", "8D", "8S", "JK"]
    # Without a set to put it on, the joker cannot be used, so it may not be taken.
    bare = _gambit("double", ["8C 8S 3D 3S", "5D 9C QS 3C"], "4D 2C", "KD JK 5H", ["0 take 2"])
    assert bare.refused_at == 1 and "could not use the JK" in bare.message
    # Nor may a joker be laid off while jokers are not wild: the refusal says so.
    lay = _gambit("double", ["8C 8S 8D 3S JK", "5D 9C QS 3D"], "4D 2C", "KD", ["0 draw", "0 meld 8C 8S 8D", "0 layoff JK on 0"])
    assert lay.refused_at == 3 and "jokers are not wild this hand" in lay.message


def test_double_cannot_go_on_a_run():
    actions = [*OPENING, "1 draw", "1 meld 5H 6H 7H JK"]
    assert _gambit("double", [SEAT0, "5H 6H 7H 9C"], "4D 2C", "8D", actions).refused_at == 4


# ----------------------------------------------------------------------- split
def test_split_joker_takes_one_card_from_inside_the_pile_and_removes_the_cards_above_it():
    actions = [*OPENING, "1 take 3 split", "1 meld 5H 5S 5C", "1 discard 9C"]
    wild = _gambit("wild", [SEAT0, "5H 5S 9C"], "4D 2C", "8D 5C 7D", actions)
    assert wild.refused_at == 3 and "split" in wild.message
    out = _gambit("split", [SEAT0, "5H 5S 9C"], "4D 2C", "8D 5C 7D", actions)
    assert out.ok and out.went_out == 1 and out.state["discard"] == ["8D", "9C"]
    assert out.scores == [-22, 15]
    plain = _gambit("split", [SEAT0, "5H 5S 9C"], "4D 2C", "8D 5C 7D", [*OPENING, "1 take 3"])
    assert plain.ok and sorted(plain.state["hands"][1]) == sorted(["5H", "5S", "9C", "5C", "7D", "4D"])


def test_split_needs_a_joker_and_the_chosen_card_must_be_used():
    actions = [*OPENING, "1 take 3 split"]
    blocked = _gambit("split", ["KD QD JK", "5H 5S 9C"], "4D 2C", "8D 5C 7D", ["0 draw", "0 block", "0 discard 4D", "1 take 3 split"])
    assert blocked.refused_at == 4 and "joker" in blocked.message
    useless = _gambit("split", [SEAT0, "5H 6S 9C"], "4D 2C", "8D 5C 7D", actions)
    assert useless.refused_at == 3 and "could not use the 5C" in useless.message


@pytest.mark.parametrize("mode", ["wild", "double", "split"])
def test_every_nomination_is_a_legal_opening(mode):
    assert _gambit(mode, [SEAT0, "5H 6H 9C"], "4D 2C", "8D", OPENING).ok


def test_the_dealers_joker_is_spent_before_a_joker_in_the_dealers_hand():
    actions = [*OPENING, "1 draw", "1 meld 5H 6H JK=7H", "1 discard 9C"]
    out = _gambit("wild", [SEAT0, "5H 6H JK 9C"], "4D 2C", "8D", actions)
    assert out.ok and sorted(out.state["hands"][1]) == ["2C", "JK"]
    assert out.match().state.public.dealer_joker == "used"


def test_a_block_is_not_offered_when_the_joker_is_needed_to_use_a_card_taken_from_the_pile():
    out = _gambit("wild", ["JS JK 2S", "5H 6H 9C"], "4D 2C", "8D JC 5D", ["0 take 2", "0 block"])
    assert out.refused_at == 2 and "still needs" in out.message
    assert Block() not in out.match().state.legal_actions(0)
    fine = _gambit("wild", ["JS JK 2S", "5H 6H 9C"], "4D 2C", "8D JC 5D", ["0 draw", "0 block"])
    assert fine.ok


def test_the_dealers_joker_can_make_the_own_meld_that_a_layoff_needs():
    actions = [
        "0 draw", "0 meld 5H 6H 7H", "0 discard 9C",
        "1 take 3", "1 meld KC KD JK=KH", "1 layoff 8H on 0", "1 discard 2D",
    ]
    out = play({**G, "layoff_needs_own_meld": True}, ["5H 6H 7H 9C 4C", "KC KD 3S"], "4D 2C", "8H 2D",
               ["1 nominate wild", *actions], dealer=1)
    assert out.ok and out.meld(0) == ["5H", "6H", "7H", "8H"] and out.meld(1) == ["KC", "KD", "JK=KH"]


def test_the_dealers_joker_counts_towards_completing_an_opening():
    actions = ["1 nominate wild", *OPENING, "1 draw", "1 meld 2H 3H 4H", "1 meld KC KD JK=KH", "1 discard 9C"]
    out = play({**G, "first_meld_min": 25}, ["QD JD 2S", "2H 3H 4H KC KD 9C"], "4D 2C", "8D", actions, dealer=1)
    assert out.ok and len(out.state["melds"]) == 2


# ------------------------------------------------------------ one 54-card pack
@pytest.mark.parametrize("players", range(2, 8))
def test_dealers_gambit_plays_one_54_card_pack_whatever_the_player_count(players):
    rules = Rules.from_mapping({"preset": "dealers_gambit", "players": players})
    assert (rules.n_decks, rules.n_jokers, rules.pack_size) == (1, 2, 54)
    # A deal of 5+ players holding a card twice is malformed: there is one pack.
    hands = ["AS AS"] + ["KD"] * (players - 1)
    with pytest.raises(RecordError, match="holds 2 x AS but the pack has 1"):
        play(G, hands, "2C", "8D", [], dealer=0)


def test_dealers_gambit_refuses_eight_players_and_a_second_pack_naming_the_options():
    with pytest.raises(RulesError, match=r"dealers_gambit.*at most 7 players.*players: 8"):
        Rules.from_mapping({"preset": "dealers_gambit", "players": 8})
    with pytest.raises(RulesError, match=r"decks: 2.*dealers_gambit"):
        Rules.from_mapping({"dealers_gambit": True, "players": 5, "decks": 2})
    # The refusal names what the player gave (decks: 2), not the jokers: auto it implies.
    with pytest.raises(RulesError) as refused:
        Rules.from_mapping({"dealers_gambit": True, "decks": 2})
    assert str(refused.value).startswith("decks: 2 cannot be used with dealers_gambit") and "jokers: 4" not in str(refused.value)
    with pytest.raises(RecordError, match="at most 7 players"):
        play(G, ["KD"] * 8, "2C", "8D", [], dealer=0)


def test_nobody_sees_their_cards_until_the_dealer_has_nominated():
    """RULES.md: "Before anyone looks at their cards the dealer nominates": every hand lies face down till then."""
    import random

    from rummy500.state import state_from_view

    waiting = play(G, [SEAT0, "5H 6H 9C"], "4D 2C", "8D", [], dealer=1).match().state
    for seat in (0, 1):
        view = waiting.view(seat)
        assert view.hand == () and view.hand_sizes == (3, 3)
    assert [str(a) for a in waiting.view(1).legal] == ["nominate wild", "nominate double", "nominate split"]
    # A guess from the dealer's view deals the dealer's own cards from the unseen ones, like the others'.
    guesses = {tuple(sorted(map(str, state_from_view(waiting.view(1), random.Random(k)).hands[1]))) for k in range(8)}
    assert len(guesses) > 1
    # Once the dealer has nominated, everyone looks.
    playing = play(G, [SEAT0, "5H 6H 9C"], "4D 2C", "8D", ["1 nominate wild"], dealer=1).match().state
    assert sorted(map(str, playing.view(0).hand)) == sorted(SEAT0.split())
    assert sorted(map(str, playing.view(1).hand)) == ["5H", "6H", "9C"]
