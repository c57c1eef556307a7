"""Going out and stock exhaustion options (RULES.md Part 2): each value against the standard game."""

from __future__ import annotations

import random

import pytest

from rummy500.actions import parse_action
from rummy500.drive import PolicyAgent, drive

from .scenario import contrast, play

OTHER = "KD QD 2S 3S"
MELD_OUT = ["0 draw", "0 meld 5H 6H 7H 8H"]


# ------------------------------------------------------------------- going_out
def test_going_out_discard_required_refuses_melding_the_last_cards():
    base, opt = contrast({"going_out": "discard_required"}, ["5H 6H 7H", OTHER], "8H 2C", "9D", MELD_OUT)
    assert base.ok and base.over and base.went_out == 0
    assert opt.refused_at == 1 and "keep a card to discard" in opt.message
    out = play({"going_out": "discard_required"}, ["5H 6H 7H", OTHER], "8H 2C", "9D", ["0 draw", "0 meld 5H 6H 7H", "0 discard 8H"])
    assert out.over and out.went_out == 0


def test_going_out_floating_melds_out_then_goes_out_only_by_a_later_discard():
    actions = [*MELD_OUT, "0 float", "1 draw", "1 discard 2S", "0 draw", "0 discard 3C"]
    base, opt = contrast({"going_out": "floating"}, ["5H 6H 7H", OTHER], "8H 2C 3C", "9D", actions)
    assert base.over and base.went_out == 0 and base.refused_at == 2
    assert opt.ok and opt.over and opt.went_out == 0
    floating = play({"going_out": "floating"}, ["5H 6H 7H", OTHER], "8H 2C 3C", "9D", [*MELD_OUT, "0 float"])
    assert not floating.over and floating.state["to_move"] == 1 and floating.state["hands"][0] == []
    assert [str(a) for a in floating.match().legal_actions(0)] == []


def test_going_out_floating_offers_only_the_float_after_melding_out():
    out = play({"going_out": "floating"}, ["5H 6H 7H", OTHER], "8H 2C 3C", "9D", MELD_OUT)
    assert not out.over and out.state["phase"] == "play"
    assert [a.to_record() for a in out.match().legal_actions(0)] == [{"float": True}]


def test_going_out_unplayable_discard_floats_a_player_whose_last_discard_is_playable():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 8H", "1 draw", "1 discard 2S", "0 draw", "0 discard 3C"]
    base, opt = contrast({"going_out": "unplayable_discard"}, ["5H 6H 7H", OTHER], "8H 2C 3C", "9D", actions)
    assert base.over and base.went_out == 0 and base.refused_at == 3
    assert opt.ok and opt.over and opt.went_out == 0 and opt.state["discard"] == ["9D", "8H", "2S", "3C"]
    floating = play({"going_out": "unplayable_discard"}, ["5H 6H 7H", OTHER], "8H 2C 3C", "9D", actions[:3])
    assert not floating.over and floating.state["to_move"] == 1


def test_going_out_unplayable_discard_accepts_an_unplayable_last_discard():
    out = play({"going_out": "unplayable_discard"}, ["5H 6H 7H", OTHER], "2C 3C", "9D", ["0 draw", "0 meld 5H 6H 7H", "0 discard 2C"])
    assert out.over and out.went_out == 0


def test_going_out_unplayable_discard_a_wild_joker_that_could_be_laid_off_is_playable():
    # Seat 1 melds out but for a joker: the JK could go on its run as the 4H (or 9H), so throwing it floats.
    hands = ["2C 3D QS KD 4C", "5H 6H 7H JK"]
    turn = ["1 draw", "1 meld 5H 6H 7H 8H"]
    before = play({"going_out": "unplayable_discard"}, hands, "8H 3C 5C", "TC", turn, dealer=0)
    assert "layoff JK=4H on 0" in [str(a) for a in before.match().state.legal_actions(1)]
    base, opt = contrast({"going_out": "unplayable_discard"}, hands, "8H 3C 5C", "TC", [*turn, "1 discard JK"], dealer=0)
    assert base.over and base.went_out == 1
    assert opt.ok and not opt.over and opt.state["hands"][1] == [] and opt.state["to_move"] == 0
    assert opt.match().state.public.floating == (False, True)
    # A joker that is not wild (joker sets only) goes on no run: throwing it goes out.
    sets_only = {"going_out": "unplayable_discard", "joker_use": "joker_sets_only", "jokers": 4}
    out = play(sets_only, hands, "8H 3C 5C", "TC", [*turn, "1 discard JK"], dealer=0)
    assert out.over and out.went_out == 1


@pytest.mark.parametrize(("mode", "out"), [("wild", False), ("double", True), ("split", True)])
def test_going_out_unplayable_discard_a_joker_is_playable_only_while_jokers_are_wild(mode, out):
    # Dealer's Gambit: nominated double or split, jokers are not wild this hand and go on no run.
    rules = {"dealers_gambit": True, "going_out": "unplayable_discard"}
    actions = [f"1 nominate {mode}", "0 draw", "0 meld 5H 6H 7H 8H", "0 discard JK"]
    got = play(rules, ["5H 6H 7H JK", "KD QD 2S"], "8H 2C 3C", "9D", actions, dealer=1)
    assert got.ok and got.over is out and got.went_out == (0 if out else None)


def test_going_out_unplayable_discard_floats_a_player_who_melds_out():
    base, opt = contrast({"going_out": "unplayable_discard"}, ["5H 6H 7H", OTHER], "8H 2C 3C", "9D", [*MELD_OUT, "0 float"])
    assert base.over and base.refused_at == 2
    assert opt.ok and not opt.over and opt.state["to_move"] == 1


# ------------------------------------------------------------------- stock_out
LAST_CARD = ["0 draw", "0 discard 9C", "1 pass"]
# Seat 1's 7H keeps 5H 6H 7H makeable, so the rounds below are not dead.
LIVE = "KD QD 2S 3S 7H"


def test_stock_out_immediate_ends_the_round_after_the_turn_that_emptied_the_stock():
    base, opt = contrast({"stock_out": "immediate"}, ["5H 6H 9C", OTHER], "2C", "8D", LAST_CARD)
    assert base.ok and base.over and base.went_out is None
    assert opt.refused_at == 2 and opt.over and opt.went_out is None and opt.state["phase"] == "round_over"
    still = play({}, ["5H 6H 9C", OTHER], "2C", "8D", LAST_CARD[:2])
    assert not still.over and still.state["to_move"] == 1


def test_stock_out_reshuffle_turns_the_pile_but_its_top_card_into_a_new_stock():
    actions = [*LAST_CARD[:2], {"p": 1, "reshuffle": ["4D", "8D"]}, "1 draw", "1 discard 2S"]
    base, opt = contrast({"stock_out": "reshuffle"}, ["5H 6H 9C", LIVE], "2C", "8D 4D", actions)
    assert base.refused_at == 2 and "nothing to reshuffle" in base.message
    assert opt.ok and not opt.over
    assert opt.state["discard"] == ["9C", "2S"] and opt.state["stock_count"] == 1 and "4D" in opt.state["hands"][1]


def test_stock_out_reshuffle_is_recorded_for_the_seat_about_to_draw():
    wrong = [*LAST_CARD[:2], {"p": 0, "reshuffle": ["4D", "8D"]}, "1 draw"]
    out = play({"stock_out": "reshuffle"}, ["5H 6H 9C", LIVE], "2C", "8D 4D", wrong)
    assert out.refused_at == 2 and "seat 1" in out.message and out.state["stock_count"] == 0


def test_stock_out_reshuffle_must_use_exactly_the_pile_below_its_top_card():
    wrong = [*LAST_CARD[:2], {"p": 1, "reshuffle": ["4D", "9C"]}]
    out = play({"stock_out": "reshuffle"}, ["5H 6H 9C", LIVE], "2C", "8D 4D", wrong)
    assert out.refused_at == 2 and "except its top card" in out.message
    skipped = play({"stock_out": "reshuffle"}, ["5H 6H 9C", LIVE], "2C", "8D 4D", [*LAST_CARD[:2], "1 draw"])
    assert skipped.refused_at == 2 and "reshuffled" in skipped.message


def test_stock_out_play_on_refuses_a_pass_while_the_pile_can_be_taken():
    base, opt = contrast({"stock_out": "play_on"}, ["5H 6H 9C", LIVE], "2C", "8D", LAST_CARD)
    assert base.over
    assert opt.refused_at == 2 and "must take from the discard pile" in opt.message
    on = play({"stock_out": "play_on"}, ["5H 6H 9C", LIVE], "2C", "8D", [*LAST_CARD[:2], "1 take 1", "1 discard 2S", "0 take 1"])
    assert on.ok and not on.over and on.state["hands"][0] == ["5H", "6H", "2C", "2S"]


# ------------------------------------------------------------ stock_out_penalty
def test_stock_out_penalty_false_forgives_the_hands_when_the_stock_runs_out():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 2C", "1 pass"]
    base, opt = contrast({"stock_out_penalty": False}, ["5H 6H 7H 9C", OTHER], "2C", "8D", actions)
    assert base.scores == [18 - 9, -(10 + 10 + 2 + 3)]
    assert opt.scores == [18, 0]


def test_stock_out_penalty_false_still_counts_hands_when_someone_goes_out():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 2C"]
    base, opt = contrast({"stock_out_penalty": False}, ["5H 6H 7H", OTHER], "2C", "8D", actions)
    assert base.scores == opt.scores == [18, -25]


def test_a_round_that_never_ends_stops_after_max_turns_as_if_the_stock_ran_out():
    from dataclasses import replace

    from rummy500.actions import Discard, Draw, Take
    from rummy500.cards import parse_cards
    from rummy500.rules import Rules
    from rummy500.state import MAX_TURNS, RoundState

    rules = Rules.from_mapping({"stock_out": "play_on"})
    state = RoundState.from_deal(rules, 1, [parse_cards("5H 9C"), parse_cards("KD 2S")], [], parse_cards("8D"))
    state.apply(Take(1))
    # As if play had gone round and round:
    late = replace(state.public, turns=MAX_TURNS - 1)
    state = RoundState.from_parts(rules, late, state.hands, state.stock_top_first())
    state.apply(Discard(tuple(parse_cards("9C"))))
    assert state.is_over and state.public.went_out is None and state.round_scores() == [-13, -12]
    assert Draw() not in state.legal_actions(1)


# A dead round: seat 0 melds 5H 6H 7H and keeps 3D; nothing left in play (3D 9C
# KD 2S 8S) makes a meld or goes on the run, so nobody can ever meld again.
DEAD_HANDS = ["5H 6H 7H 9C", "KD 2S"]
DEAD = ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C"]


def test_stock_out_reshuffle_ends_a_dead_round_as_a_stock_out():
    out = play({"stock_out": "reshuffle"}, DEAD_HANDS, "3D", "8S", DEAD)
    assert out.ok and out.over and out.went_out is None
    assert out.scores == [5 + 6 + 7 - 3, -(10 + 2)]


def test_stock_out_play_on_ends_a_dead_round_as_a_stock_out():
    out = play({"stock_out": "play_on"}, DEAD_HANDS, "3D", "8S", DEAD)
    assert out.ok and out.over and out.went_out is None and out.scores == [15, -12]


def test_a_round_with_a_card_that_can_still_be_laid_off_goes_on():
    live = play({"stock_out": "reshuffle"}, ["5H 6H 7H 9C", "KD 8H"], "3D", "8S", DEAD)
    assert live.ok and not live.over and live.state["phase"] == "shuffle"
    meldable = play({"stock_out": "play_on"}, ["5H 6H 7H 9C", "KD KS"], "3D", "KC", DEAD)
    assert meldable.ok and not meldable.over and meldable.state["to_move"] == 1


# play_on with one card in every hand: three threes go round (3S and 3H held, 3D thrown on top), but no hand
# can ever hold three cards: each player takes the top card and must throw the other (the card just taken may
# not go back), and a deeper take must meld its deepest card at once, which QC or KD under the top never allow.
ROUND_AND_ROUND = ["0 draw", "0 meld 5H 6H 7H", "0 discard 3D"]


def test_play_on_ends_a_round_whose_cards_can_only_go_round():
    out = play({"stock_out": "play_on"}, ["5H 6H 7H 3S", "3H"], "3D", "QC KD", ROUND_AND_ROUND)
    assert out.ok and out.over and out.went_out is None
    assert out.scores == [5 + 6 + 7 - 3, -3]


def test_play_on_goes_on_while_a_deeper_take_can_still_make_a_meld():
    # With 3C under the KD, a player holding a three takes down to it while another three is on top.
    out = play({"stock_out": "play_on"}, ["5H 6H 7H 3S", "3H"], "3D", "3C KD", ROUND_AND_ROUND)
    assert out.ok and not out.over and out.state["to_move"] == 1
    assert parse_action("take 3") in out.match().state.legal_actions(1)  # 3C KD 3D taken: 3H 3D 3C melded


@pytest.mark.parametrize(
    "rules",
    [
        {"going_out": "floating", "stock_out": "reshuffle"},
        {"going_out": "unplayable_discard", "stock_out": "reshuffle"},
        {"going_out": "floating", "stock_out": "play_on", "discard_back": True},
    ],
    ids=["floating-reshuffle", "unplayable-reshuffle", "floating-play_on-discard_back"],
)
def test_a_player_floating_with_an_empty_hand_keeps_a_dead_round_alive_and_goes_out(rules):
    # Seat 0 draws the last stock card, melds out and floats; nothing left can meld or go on the run.
    # It can still get a card (a reshuffled stock, or the top card back) and go out by discarding it,
    # bonus and all: the round is not dead (until 7 December 2026 it ended with nobody out).
    rules = {**rules, "going_out_bonus": 25}
    floated = ["0 draw", "0 meld 5H 6H 7H 8H", "0 float"]
    out = play(rules, ["5H 6H 7H", "KD 2S"], "8H", "8S 9C 3D", floated)
    assert out.ok and not out.over
    state = out.match().state
    drive(state, [PolicyAgent(lambda v, r: r.choice(v.legal))] * 2, random.Random(3))
    assert state.public.went_out == 0 and state.result.round_scores[0] == 5 + 6 + 7 + 8 + 25


def test_discard_required_a_play_stranding_the_top_card_says_which_rule_strands_it():
    actions = ["0 draw", "0 meld 5C 6C 7C 8C", "0 meld 5H 6H 7H", "0 discard 2D", "1 draw", "1 discard 8H", "0 take 1", "0 layoff 9C on 0"]
    out = play({"going_out": "discard_required"}, ["5C 6C 7C 8C 5H 6H 7H 9C", "8H KD QD"], "2D 3D 4D", "JD", actions)
    assert out.refused_at == 7
    assert out.message == (
        "that would leave only the 8H you just took from the top of the pile, which you may not discard again, "
        "and laying it off would leave no card to discard (going_out: discard_required)"
    )
