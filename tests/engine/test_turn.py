"""RULES.md Part 1, A turn: draw, take N with the deepest-card obligation, discard, turn order."""

from __future__ import annotations

import pytest

from rummy500 import Phase
from rummy500.actions import CallRummy

from .helpers import deal, legal, play, refused, standard

# ----------------------------------------------------------------- draw


def test_a_turn_starts_with_a_draw_from_the_stock_or_the_pile():
    s = deal(["AS 2S 3S 9D", "4H 5H 6H"], stock="QD 7S", discard="TC")
    assert s.public.to_move == 0 and s.public.phase is Phase.DRAW
    assert legal(s) == {"draw", "take 1"}
    assert legal(s, 1) == set()  # not seat 1's turn
    play(s, "draw")
    assert sorted(map(str, s.hands[0])) == sorted(["AS", "2S", "3S", "9D", "QD"])
    assert [str(c) for c in s.stock_top_first()] == ["7S"]
    assert s.public.phase is Phase.PLAY


def test_nothing_but_a_draw_is_allowed_before_drawing():
    s = deal(["AS 2S 3S 9D", "4H 5H 6H"], stock="QD 7S", discard="TC")
    assert "draw first" in refused(s, "meld AS 2S 3S")
    assert "draw first" in refused(s, "discard 9D")
    assert "only when the stock is empty" in refused(s, "pass")
    assert "not your turn" in refused(s, "p1: draw")


def test_a_player_draws_once_per_turn():
    s = deal(["AS 2S 3S 9D", "4H 5H 6H"], stock="QD 7S", discard="TC")
    play(s, "draw")
    assert "already drawn" in refused(s, "draw")
    assert "already drawn" in refused(s, "take 1")


def test_the_discard_ends_the_turn_and_play_passes_to_the_left():
    s = deal(["AS 2S 3S 9D", "4H 5H 6H", "KC KD KH"], stock="QD 7S 8S", discard="TC")
    play(s, "draw", "discard QD")
    assert s.public.to_move == 1 and s.public.phase is Phase.DRAW
    assert [str(c) for c in s.public.discard] == ["TC", "QD"]
    play(s, "draw", "discard 7S")
    assert s.public.to_move == 2
    play(s, "draw", "discard 8S")
    assert s.public.to_move == 0
    assert "not your turn" in refused(s, "p2: draw")


def test_the_player_left_of_any_dealer_moves_first():
    for dealer in range(3):
        s = deal(["AS", "2S", "3S"], stock="4S", discard="5S", dealer=dealer)
        assert s.public.to_move == (dealer + 1) % 3


# -------------------------------------------------- the single top card


def test_taking_only_the_top_card_may_simply_be_kept():
    s = deal(["AS 2S 9D", "4H 5H 6H"], stock="QD", discard="3C 8C")
    play(s, "take 1")
    assert s.public.obligation is None
    assert legal(s) == {"discard AS", "discard 2S", "discard 9D"}  # not the 8C just taken
    play(s, "discard 9D")
    assert "8C" in [str(c) for c in s.hands[0]]


def test_the_single_top_card_taken_may_not_be_discarded_back():
    s = deal(["AS 2S 9D", "4H 5H 6H"], stock="QD", discard="3C 8C")
    play(s, "take 1")
    message = refused(s, "discard 8C")
    assert "8C" in message and "just took from the top of the pile" in message


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once():
    s = deal(["AS 2S 9D", "4H 5H 6H"], stock="QD", discard="3C 8C")
    play(s, "draw", "discard QD")
    assert str(s.public.discard[-1]) == "QD"


def test_a_play_that_would_leave_only_the_card_taken_from_the_top_is_refused():
    # After melding 3H 4H 5H the hand would be the 8C alone, which may not go back.
    s = deal(["3H 4H 5H", "4C 5C 6C"], stock="QD", discard="8C")
    play(s, "take 1")
    assert legal(s) == {"discard 3H", "discard 4H", "discard 5H"}
    refused(s, "meld 3H 4H 5H")


# ------------------------------------------------------ taking N cards


def test_take_depths_offered_are_exactly_those_whose_deepest_card_can_be_used():
    # Pile bottom..top: 9S 5D 8H QS. take 2 -> 8H (6H 7H 8H); take 3 -> 5D (5C 5D 5H);
    # take 4 -> 9S unusable.
    s = deal(["5H 5C 6H 7H KD", "2S 3S 4S"], stock="2C 3C", discard="9S 5D 8H QS")
    assert legal(s) == {"draw", "take 1", "take 2", "take 3"}
    message = refused(s, "take 4")
    assert "9S" in message and "deepest card" in message
    assert "only 4" in refused(s, "take 5")


def test_taking_several_cards_brings_them_all_into_the_hand_and_the_deepest_must_be_used():
    s = deal(["5H 5C 6H 7H KD", "2S 3S 4S"], stock="2C 3C", discard="9S 5D 8H QS")
    play(s, "take 3")
    assert [str(c) for c in s.public.discard] == ["9S"]
    assert sorted(str(c) for c in s.hands[0]) == sorted(["5H", "5C", "6H", "7H", "KD", "5D", "8H", "QS"])
    assert str(s.public.obligation) == "5D"
    # Melding 5H 6H 7H 8H would leave the 5D unusable: refused; the set or 6H 7H 8H keep it usable.
    assert legal(s) == {"meld 5C 5D 5H", "meld 6H 7H 8H"}
    assert "5D" in refused(s, "meld 5H 6H 7H 8H")


def test_the_discard_is_refused_while_the_deepest_card_is_unused():
    s = deal(["5H 5C 6H 7H KD", "2S 3S 4S"], stock="2C 3C", discard="9S 5D 8H QS")
    play(s, "take 3")
    message = refused(s, "discard KD")
    assert "must use the 5D" in message
    play(s, "meld 6H 7H 8H")
    assert str(s.public.obligation) == "5D"
    refused(s, "discard KD")
    play(s, "meld 5C 5D 5H")
    assert s.public.obligation is None
    assert legal(s) == {"discard KD", "discard QS"}
    play(s, "discard QS")  # a card taken from below the top may be discarded
    assert s.public.to_move == 1


def test_the_deepest_card_may_be_used_in_a_lay_off():
    s = deal(["4D 5D 6D", "9C 9H 9S 2D", "KS QS"], stock="3C 4C 5C", discard="9D JC")
    play(s, "draw", "discard 3C")  # seat 0
    play(s, "draw", "meld 9C 9H 9S", "discard 2D")  # seat 1: meld 0 is the 9s
    # seat 2: pile 9D JC 3C 2D; taking 4 reaches the 9D, which lays off on the 9s.
    assert legal(s) == {"draw", "take 1", "take 4"}
    play(s, "take 4")
    assert str(s.public.obligation) == "9D"
    assert legal(s) == {"layoff 9D on 0"}
    play(s, "layoff 9D on 0")
    assert s.public.obligation is None
    assert s.public.melds[0].laid_by == (1, 1, 1, 2)
    assert legal(s) == {"discard " + c for c in ["KS", "QS", "JC", "3C", "2D"]}


def test_the_cards_above_the_deepest_card_can_help_use_it():
    # The 3D at depth 3 melds with the 4D and 5D taken above it.
    s = deal(["KC QH", "2S 3S 4S"], stock="2C", discard="AC 3D 4D 5D")
    assert legal(s) == {"draw", "take 1", "take 3"}
    play(s, "take 3")
    assert legal(s) == {"meld 3D 4D 5D"}
    play(s, "meld 3D 4D 5D")
    assert legal(s) == {"discard KC", "discard QH"}


def test_a_joker_taken_as_the_deepest_card_must_be_melded_as_a_declared_card():
    s = deal(["7H 8H KC", "2S 3S 4S"], stock="2C", discard="JK QD")
    assert legal(s) == {"draw", "take 1", "take 2"}
    play(s, "take 2")
    assert str(s.public.obligation) == "JK"
    assert legal(s) == {"meld 7H 8H JK=6H", "meld 7H 8H JK=9H"}
    play(s, "meld 7H 8H JK=9H")
    assert s.public.obligation is None


def test_the_obligation_met_then_out_by_discard():
    s = deal(["6S 7S", "2S 3S 4S"], stock="2C", discard="5S KD")
    play(s, "take 2")
    assert legal(s) == {"meld 5S 6S 7S"}
    play(s, "meld 5S 6S 7S")
    assert legal(s) == {"discard KD"}
    play(s, "discard KD")
    assert s.is_over and s.public.went_out == 0


def test_the_obligation_met_by_melding_every_card_goes_out_without_a_discard():
    s = deal(["6S 7S", "2S 3S 4S"], stock="2C", discard="5S 8S")
    play(s, "take 2")
    # 6S 7S 8S leaves the 5S to lay off; 5S 6S 7S leaves the 8S to discard.
    assert legal(s) == {"meld 5S 6S 7S 8S", "meld 5S 6S 7S", "meld 6S 7S 8S"}
    play(s, "meld 5S 6S 7S 8S")
    assert s.is_over and s.public.went_out == 0 and s.hands[0] == []


def test_melds_are_optional_after_a_draw():
    s = deal(["AS 2S 3S 9D", "4H 5H 6H"], stock="QD 7S", discard="TC")
    play(s, "draw", "discard AS")
    assert s.public.melds == () and s.public.to_move == 1


def test_after_the_round_ends_nobody_may_play():
    s = deal(["AS 2S 3S", "4H 5H 6H 9C"], stock="QD 7S", discard="TC")
    play(s, "draw", "meld AS 2S 3S", "discard QD")
    assert s.is_over and s.public.phase is Phase.ROUND_OVER
    assert legal(s, 0) == legal(s, 1) == set()
    assert s.actors() == []
    for move in ("p1: draw", "p1: meld 4H 5H 6H", "p0: draw", "p1: pass"):
        assert "round is over" in refused(s, move)


@pytest.mark.parametrize("depth", [0, -1, -2, -7])
def test_a_rummy_call_below_depth_one_is_refused_naming_the_rule_not_a_card(depth):
    s = deal(["5H 6H 7H 9C", "KD QD 2S", "TC 4D 4S"], "2C 3C", "JS", rules=standard(3, calling_rummy="pile"))
    play(s, "draw", "meld 5H 6H 7H", "discard 2C")
    message = refused(s, CallRummy(depth), seat=2)
    assert "1 is the top card" in message and "JS" not in message and "2C" not in message


def test_a_play_that_strands_the_top_card_just_taken_says_so():
    s = deal(["9S TS JS", "KD QD 2S 3S"], stock="2C", discard="7H 8D")
    play(s, "take 1")
    before = s.view(0)
    message = refused(s, "meld 9S TS JS")
    assert "leave only the 8D you just took from the top of the pile" in message
    assert s.view(0) == before  # the refusal changed nothing


def test_a_card_named_twice_but_held_once_is_refused_by_its_count():
    s = deal(["9C 4H 5H 6H KS", "KD QD 2S"], stock="2C 3C", discard="8D", discard_count="match_drawn", stock_draw_count=2)
    play(s, "draw")
    assert refused(s, "discard 9C 9C") == "you hold only 1 9C, not 2"
    assert refused(s, "discard 9C 7C") == "you do not hold 7C"
