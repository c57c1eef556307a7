"""Meld options (RULES.md Part 2): each value against the standard game."""

from __future__ import annotations

import pytest

from rummy500.actions import Decline
from rummy500.events import events_seen_by

from .scenario import contrast, play

OTHER = "KD QD 2S 3S"  # a hand for the other seat that melds nothing


# --------------------------------------------------------------------- min_run
def test_min_run_4_refuses_a_new_three_card_run():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C"]
    base, opt = contrast({"min_run": 4}, ["5H 6H 7H 9C", OTHER], "2C", "8D", actions)
    assert base.ok and base.meld(0) == ["5H", "6H", "7H"]
    assert opt.refused_at == 1 and "at least 4" in opt.message


def test_min_run_4_still_melds_four_and_lays_off_single_cards():
    actions = ["0 draw", "0 meld 5H 6H 7H 8H", "0 discard 9C", "1 draw", "1 layoff 9H on 0", "1 discard 2S"]
    out = play({"min_run": 4}, ["5H 6H 7H 8H 9C", "9H KD QD 2S"], "2C 3C", "8D", actions)
    assert out.ok and out.meld(0) == ["5H", "6H", "7H", "8H", "9H"]


# ----------------------------------------------------------- around_the_corner
def test_around_the_corner_lets_a_run_wrap_from_king_to_two():
    actions = ["0 draw", "0 meld KH AH 2H", "0 discard 9C"]
    base, opt = contrast({"around_the_corner": True}, ["KH AH 2H 9C", OTHER], "2C", "8D", actions)
    assert base.refused_at == 1 and "K A 2" in base.message
    assert opt.ok and opt.meld(0) == ["KH", "AH", "2H"]


def test_around_the_corner_lets_a_card_be_laid_off_past_the_ace():
    actions = ["0 draw", "0 meld QH KH AH", "0 discard 9C", "1 draw", "1 layoff 2H on 0", "1 discard 2S"]
    base, opt = contrast({"around_the_corner": True}, ["QH KH AH 9C", "2H KD QD 2S"], "2C 3C", "8D", actions)
    assert base.refused_at == 4
    assert opt.ok and opt.meld(0) == ["QH", "KH", "AH", "2H"]


# ------------------------------------------------------------------- set_suits
def test_set_suits_any_lets_a_set_repeat_a_suit_with_two_packs():
    actions = ["0 draw", "0 meld 7H 7H 7S", "0 discard 9C"]
    base, opt = contrast({"set_suits": "any"}, ["7H 7H 7S 9C", OTHER], "2C", "8D", actions, base={"decks": 2})
    assert base.refused_at == 1 and "different suits" in base.message
    assert opt.ok and sorted(opt.meld(0)) == ["7H", "7H", "7S"]


def test_set_suits_any_lets_a_set_grow_past_four_cards():
    actions = ["0 draw", "0 meld 7C 7D 7H 7S 7S", "0 discard 9C"]
    base, opt = contrast({"set_suits": "any"}, ["7C 7D 7H 7S 7S 9C", OTHER], "2C", "8D", actions, base={"decks": 2})
    assert base.refused_at == 1
    assert opt.ok and len(opt.meld(0)) == 5


# ------------------------------------------------------------------- joker_use
def test_joker_use_joker_sets_only_melds_jokers_only_with_each_other():
    wild, sets = contrast(
        {"joker_use": "joker_sets_only"}, ["JK JK JK 9C", OTHER], "2C", "8D",
        ["0 draw", "0 meld JK JK JK", "0 discard 9C"], base={"jokers": 4},
    )
    assert wild.refused_at == 1 and "stands for" in wild.message
    assert sets.ok and sets.meld(0) == ["JK", "JK", "JK"]


def test_joker_use_joker_sets_only_makes_jokers_not_wild():
    wild, sets = contrast(
        {"joker_use": "joker_sets_only"}, ["5H 6H JK 9C", OTHER], "2C", "8D",
        ["0 draw", "0 meld 5H 6H JK=7H", "0 discard 9C"], base={"jokers": 4},
    )
    assert wild.ok and wild.meld(0) == ["5H", "6H", "JK=7H"]
    assert sets.refused_at == 1 and "not wild" in sets.message


# ------------------------------------------------------------------ joker_swap
def test_joker_swap_trades_the_natural_card_for_a_melded_joker():
    actions = [
        "0 draw", "0 meld 5H 6H JK=7H", "0 discard 9C",
        "1 draw", "1 swap 7H on 0", "1 meld KD QD JK=JD", "1 discard 2S",
    ]
    base, opt = contrast({"joker_swap": True}, ["5H 6H JK 9C", "7H KD QD 2S"], "2C 3C", "8D", actions)
    assert base.refused_at == 4 and "joker_swap" in base.message
    assert opt.ok and opt.meld(0) == ["5H", "6H", "7H"] and opt.meld(1) == ["JK=JD", "QD", "KD"]


# -------------------------------------------------------------- first_meld_min
@pytest.mark.parametrize("minimum", [30, 50])
def test_first_meld_min_refuses_an_opening_too_small(minimum):
    actions = ["0 draw", "0 meld 2H 3H 4H", "0 discard 9C"]
    base, opt = contrast({"first_meld_min": minimum}, ["2H 3H 4H 9C KC", OTHER], "2C", "8D", actions)
    assert base.ok
    assert opt.refused_at == 1 and f"at least {minimum}" in opt.message


def test_first_meld_min_counts_the_cards_values_before_the_score_divisor():
    # quick: flat values (5 a card from 2 to 9) divided by 5. A minimum of 30 asks for 30 points of
    # cards, not of score: 5H..9H is 25 and falls short; a sixth card makes 30.
    actions = ["0 draw", "0 meld 5H 6H 7H 8H 9H", "0 discard KC"]
    short = play({"preset": "quick", "first_meld_min": 30}, ["5H 6H 7H 8H 9H KC", OTHER], "2C", "8D", actions)
    assert short.refused_at == 1 and "at least 30 points (this makes 25" in short.message
    six = ["0 draw", "0 meld 4H 5H 6H 7H 8H 9H", "0 discard KC"]
    assert play({"preset": "quick", "first_meld_min": 30}, ["4H 5H 6H 7H 8H 9H KC", OTHER], "2C", "8D", six).ok


def test_first_meld_min_counts_every_meld_of_the_opening_turn():
    actions = ["0 draw", "0 meld 2H 3H 4H", "0 meld KC KD KS", "0 discard 9C"]
    out = play({"first_meld_min": 30}, ["2H 3H 4H KC KD KS 9C", "QD JD 2S"], "2C", "8D", actions)
    assert out.ok and len(out.state["melds"]) == 2


def test_first_meld_min_refuses_a_discard_while_the_opening_is_short():
    actions = ["0 draw", "0 meld 2H 3H 4H", "0 discard 9C"]
    base, opt = contrast({"first_meld_min": 30}, ["2H 3H 4H KC KD KS 9C", "QD JD 2S"], "2C", "8D", actions)
    assert base.ok
    assert opt.refused_at == 2 and "at least 30" in opt.message


def test_first_meld_min_forbids_laying_off_before_opening():
    actions = ["0 draw", "0 meld KC KD KS", "0 discard 9C", "1 draw", "1 layoff KH on 0", "1 discard 2S"]
    base, opt = contrast({"first_meld_min": 30}, ["KC KD KS 9C 4C", "KH 5D 6D 2S"], "2C 3C", "8D", actions)
    assert base.ok
    assert opt.refused_at == 4 and "30 points" in opt.message


def test_first_meld_min_a_card_taken_to_lay_off_once_the_opening_is_made():
    # Seat 1 has not opened: it may take the pile down to the 8H, open with its queens
    # (30 points), then lay the 8H off on seat 0's run.
    setup = ["0 draw", "0 meld 9H 9S 9D", "0 meld 5H 6H 7H", "0 meld KH KS KD", "0 discard 9C"]
    seat0 = "9H 9S 9D 5H 6H 7H KH KS KD 9C"
    then = ["1 take 2", "1 meld QC QD QS", "1 layoff 8H on 1", "1 discard 2D"]
    out = play({"first_meld_min": 30}, [seat0, "QC QD QS 3C 2D"], "2C 4C", "8H", [*setup, *then])
    assert out.ok and out.meld(1) == ["5H", "6H", "7H", "8H"]
    # With only a pair of queens the opening cannot be made: the take is refused.
    short = play({"first_meld_min": 30}, [seat0, "QC QD 3S 3C 2D"], "2C 4C", "8H", [*setup, "1 take 2"])
    assert short.refused_at == 5


def test_first_meld_min_an_opening_of_many_melds_is_found():
    # 96 points take five runs: every one of them is offered, and laying them all goes out.
    hands = ["2C 3C 4C 6D 7D 8D 8H 9H TH JS QS KS 2H 3H", "KH QD 9D 8C"]
    runs = ["2C 3C 4C", "2H 3H 4H", "6D 7D 8D", "8H 9H TH", "JS QS KS"]
    out = play({"first_meld_min": 96}, hands, "4H", "TS", ["0 draw", *(f"0 meld {r}" for r in runs)])
    assert out.ok and out.over and out.went_out == 0
    assert play({"first_meld_min": 97}, hands, "4H", "TS", ["0 draw", "0 meld 2C 3C 4C"]).refused_at == 1
    # A take whose card opens only with three more melds (63 points against 60).
    melds = ["0 meld 2D 3D 4D", "0 meld 2C 3C 4C", "0 meld 5H 6H 7H", "0 meld 8S 9S TS"]
    hands = ["2C 3C 4C 5H 6H 7H 8S 9S TS 2D 3D KC", "KH QD 9D 8D"]
    took = play({"first_meld_min": 60}, hands, "6C", "4D QC", ["0 take 2", *melds, "0 discard QC"])
    assert took.ok and len(took.state["melds"]) == 4


# ------------------------------------------------------- layoff_needs_own_meld
def test_layoff_needs_own_meld_refuses_a_layoff_before_a_meld_of_ones_own():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C", "1 draw", "1 layoff 8H on 0", "1 discard 2S"]
    base, opt = contrast({"layoff_needs_own_meld": True}, ["5H 6H 7H 9C 4C", "8H KD QD 2S"], "2C 3C", "8D", actions)
    assert base.ok and base.meld(0) == ["5H", "6H", "7H", "8H"]
    assert opt.refused_at == 4 and "meld of your own" in opt.message


def test_layoff_needs_own_meld_allows_it_after_melding():
    actions = [
        "0 draw", "0 meld 5H 6H 7H", "0 discard 9C",
        "1 draw", "1 meld KD KC KS", "1 layoff 8H on 0", "1 discard 2S",
    ]
    out = play({"layoff_needs_own_meld": True}, ["5H 6H 7H 9C 4C", "8H KD KC KS 2S"], "2C 3C", "8D", actions)
    assert out.ok and out.state["melds"][0]["laid_by"] == [0, 0, 0, 1]


# ----------------------------------------------------------------- layoff_onto
LAYOFF_ON_OTHER = ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C", "1 draw", "1 layoff 8H on 0", "1 discard 2S"]


def test_layoff_onto_own_refuses_extending_another_players_meld():
    hands = ["5H 6H 7H 9C 4C", "8H KD QD 2S"]
    base, opt = contrast({"layoff_onto": "own"}, hands, "2C 3C", "8D", LAYOFF_ON_OTHER)
    assert base.ok
    assert opt.refused_at == 4 and "your own melds" in opt.message
    own = ["0 draw", "0 meld 5H 6H 7H", "0 layoff 8H on 0", "0 discard 9C"]
    assert play({"layoff_onto": "own"}, ["5H 6H 7H 8H 9C 4C", OTHER], "2C", "8D", own).ok


def test_layoff_onto_own_and_partner_allows_the_partner_but_not_the_opponents():
    hands = ["5H 6H 7H 9C 4C", "4H KD QD 2S", "8H TD JD 3D", "AC 2C 3C 4D"]
    actions = [
        "0 draw", "0 meld 5H 6H 7H", "0 discard 9C",
        "1 draw", "1 layoff 4H on 0", "1 discard 2S",
        "2 draw", "2 layoff 8H on 0", "2 discard 3D",
    ]
    base, opt = contrast({"layoff_onto": "own_and_partner"}, hands, "5C 6C 7C", "8D", actions, base={"partnership": True})
    assert base.ok
    assert opt.refused_at == 4 and "side's melds" in opt.message
    partner = [a for a in actions if not a.startswith("1 layoff")]
    out = play({"partnership": True, "layoff_onto": "own_and_partner"}, hands, "5C 6C 7C", "8D", partner)
    assert out.ok and out.state["melds"][0]["laid_by"] == [0, 0, 0, 2]


# ------------------------------------------------------------ meld_out_of_turn
def test_meld_out_of_turn_lets_a_player_meld_during_another_turn():
    actions = ["0 draw", "1 meld KC KD KS", "0 discard 9C", "1 draw", "1 layoff KH on 0", "1 discard 2S"]
    base, opt = contrast({"meld_out_of_turn": True}, ["5H 9C", "KC KD KS 2S"], "3C KH", "8D", actions)
    assert base.refused_at == 1 and "not your turn" in base.message
    assert opt.ok and sorted(opt.meld(0)) == ["KC", "KD", "KH", "KS"]


def test_meld_out_of_turn_lets_a_player_lay_off_while_the_next_one_must_draw():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C", "0 layoff 8H on 0"]
    base, opt = contrast({"meld_out_of_turn": True}, ["5H 6H 7H 8H 9C 4C", OTHER], "2C", "8D", actions)
    assert base.refused_at == 3
    assert opt.ok and opt.meld(0) == ["5H", "6H", "7H", "8H"] and opt.state["to_move"] == 1


def test_meld_out_of_turn_never_plays_the_last_card():
    out = play({"meld_out_of_turn": True}, ["5H 9C", "KC KD KS"], "KH 3C", "8D", ["0 draw", "1 meld KC KD KS"])
    assert out.refused_at == 1 and "last card" in out.message


def test_meld_out_of_turn_waits_while_the_player_to_move_must_use_a_taken_card():
    actions = ["0 take 2", "1 meld KC KD KS"]
    out = play({"meld_out_of_turn": True}, ["5H 6H 9C", "KC KD KS 2S"], "2C", "7H 8D", actions)
    assert out.refused_at == 1
    assert play({"meld_out_of_turn": True}, ["5H 6H 9C", "KC KD KS 2S"], "2C", "7H 8D", ["0 take 1", "1 meld KC KD KS"]).ok


def test_meld_out_of_turn_waits_while_the_player_to_move_holds_only_the_top_card_just_taken():
    # Seat 0 takes the 8H alone and melds down to it (it will lay it off on seat 1's run). A lay-off out
    # of turn in the 8H's place would leave seat 0 a card it may neither discard nor play: no move at all.
    actions = ["0 draw", "0 discard 9S", "1 draw", "1 meld 5H 6H 7H", "1 discard 8H", "0 take 1", "0 meld 4S 4D 4C"]
    for extra, hand in (({}, "5H 6H 7H 8H JK KD 3S"), ({"decks": 2}, "5H 6H 7H 8H 8H KD 3S")):
        rules = {"meld_out_of_turn": True, **extra}
        lay = "1 layoff JK=8H on 0" if "JK" in hand else "1 layoff 8H on 0"
        out = play(rules, ["4S 4D 4C", hand], "9S 9D 9C", "JD", [*actions, lay])
        assert out.refused_at == 7, rules
        assert "holds only the 8H just taken" in out.message and "may still lay it off" in out.message
        done = play(rules, ["4S 4D 4C", hand], "9S 9D 9C", "JD", [*actions, "0 layoff 8H on 0"])
        assert done.ok and done.over and done.went_out == 0
    # With a card to spare the player to move is never stranded: out-of-turn play goes on.
    spare = ["0 draw", "0 discard 9S", "1 draw", "1 meld 5H 6H 7H", "1 discard 8H", "0 take 1", "1 layoff JK=8H on 0"]
    assert play({"meld_out_of_turn": True}, ["4S 4D 4C 2C", "5H 6H 7H 8H JK KD 3S"], "9S 9D 9C", "JD", spare).ok


def test_meld_out_of_turn_a_decline_is_known_only_to_the_seat_that_declined():
    # An offer comes only to a seat that holds a play: the others must not learn that seat 2 had one.
    out = play({"meld_out_of_turn": True}, ["5H 6H 8S 9C KC", "KD QS 2S 7S JD", "4C 4D 4S TC"], "2C 3C 3D", "JS", ["0 draw"])
    match = out.match()
    assert match.decision().seat == 2  # seat 2 is offered its 4C 4D 4S
    events = match.apply(2, Decline())
    assert match.view(2).declined == {2} and "declined=2" in match.view(2).position()
    for seat in (0, 1, None):
        assert match.view(seat).declined == frozenset() and match.view(seat).to_dict()["declined"] == []
        assert events_seen_by(events, seat) == []
    assert events_seen_by(events, 2) == [{"event": "declined", "seat": 2}]


def test_joker_swap_is_no_use_of_a_card_taken_from_the_pile():
    actions = ["0 draw", "0 meld 5H 6H JK=7H", "0 discard 9C", "1 take 2", "1 swap 7H on 0"]
    out = play({"joker_swap": True}, ["5H 6H JK 9C", "7S 7D 2S"], "2C 3C", "7H", actions)
    assert out.refused_at == 4 and "could no longer use the 7H" in out.message


def test_joker_swap_a_card_taken_may_be_used_with_a_joker_won_by_a_swap():
    # Seat 1 takes the pile down to the 8H: it has one 8 of its own, and its 6H wins the joker.
    actions = ["0 draw", "0 meld 4H 5H JK=6H", "0 discard 9C", "1 take 2", "1 swap 6H on 0", "1 meld 8C 8H JK=8D", "1 discard 3S"]
    base, opt = contrast({"joker_swap": True}, ["4H 5H JK 9C 9D", "8C 6H 3S"], "2C 4C", "8H", actions)
    assert base.refused_at == 3 and "could not use the 8H" in base.message
    assert opt.ok and opt.meld(1) == ["8C", "8H", "JK=8D"] and opt.meld(0) == ["4H", "5H", "6H"]


def test_joker_swap_one_table_joker_is_won_once_even_with_two_copies_of_its_card():
    # Two packs: seat 0 holds both 7S, and one JK=7S lies on the table. The 9H four deep would need two
    # jokers (6H JK=7H JK=8H 9H): one table joker cannot be won twice, so taking it would leave seat 0
    # no move at all (until 7 December 2026 the take was offered and the game stuck).
    rules = {"joker_swap": True, "decks": 2}
    hands = ["6H 7S 7S KC QD", "5S 6S JK 2D 3C"]
    setup = ["0 draw", "0 discard QD", "1 draw", "1 meld 5S 6S JK=7S", "1 discard 3C"]
    out = play(rules, hands, "8C 8D 4S", "2C 9H 4D", [*setup, "0 take 4"])
    assert out.refused_at == 5 and "9H" in out.message
    assert all(a.to_record().get("take") != 4 for a in out.match().state.legal_actions(0))


def test_joker_swap_the_top_card_taken_is_not_stranded_when_it_can_win_a_joker():
    # Seat 1 takes the 6H alone, melds its spades, puts the 6H in the joker's place and throws the joker.
    actions = ["0 draw", "0 meld 4H 5H JK=6H", "0 discard 6H", "1 take 1", "1 meld 9S TS JS", "1 swap 6H on 0", "1 discard JK"]
    base, opt = contrast({"joker_swap": True}, ["4H 5H JK 9C 9D", "9S TS JS"], "6H 4C", "2D", actions)
    assert base.refused_at == 4  # without swaps the meld would leave only the 6H, which may not go back
    assert opt.ok and opt.over and opt.went_out == 1
