"""Calling Rummy! (RULES.md Part 2): each value against the standard game.

Three seats, dealer 2: seat 0 melds 5H 6H 7H and discards the playable 8H.
Seat 0 discarded it, so seats 1 (about to draw) and 2 may call: RULES.md's
"any player except the one who just discarded".
"""

from __future__ import annotations

import pytest

from rummy500.actions import CallRummy, Discard
from rummy500.cards import parse_card

from .scenario import contrast, play

HANDS = ["5H 6H 7H 8H 9C", "KD QD 2S 3S", "TC 4D 4S"]
STOCK = "2C 3C 3D"
SETUP = ["0 draw", "0 meld 5H 6H 7H", "0 discard 8H"]
PILE = {"calling_rummy": "pile"}


def _calls(out, seat):
    return [a for a in out.match().state.legal_actions(seat) if isinstance(a, CallRummy)]


# ---------------------------------------------------------------- calling_rummy
def test_calling_rummy_pile_lets_a_third_seat_claim_the_discard_and_play_on_from_its_left():
    actions = [*SETUP, "2 rummy 1", "2 layoff 8H on 0", "2 discard TC", "0 draw"]
    base, opt = contrast(PILE, HANDS, STOCK, "JS", actions)
    assert base.refused_at == 3 and "calling_rummy: off" in base.message
    assert opt.ok and opt.meld(0) == ["5H", "6H", "7H", "8H"]
    assert opt.state["melds"][0]["laid_by"] == [0, 0, 0, 2]
    assert opt.state["to_move"] == 0 and opt.state["hands"][1] == ["KD", "QD", "2S", "3S"]  # seat 1 was skipped


def test_calling_rummy_pile_call_is_offered_out_of_turn_to_the_seats_that_may_call():
    out = play(PILE, HANDS, STOCK, "JS", SETUP)
    assert out.state["to_move"] == 1 and out.state["phase"] == "draw"
    assert _calls(out, 2) == [CallRummy(1)] and _calls(out, 1) == [CallRummy(1)]
    assert _calls(out, 0) == []  # the discarder
    match = out.match()
    assert 2 in match.state.actors()
    assert {"rummy": 1} in match.view(2).to_dict()["legal"]
    assert _calls(play({}, HANDS, STOCK, "JS", SETUP), 2) == []


def test_calling_rummy_pile_the_player_about_to_draw_may_call_too():
    out = play(PILE, HANDS, STOCK, "JS", [*SETUP, "1 rummy 1", "1 layoff 8H on 0", "1 discard QD"])
    assert out.ok and out.meld(0) == ["5H", "6H", "7H", "8H"] and out.state["melds"][0]["laid_by"] == [0, 0, 0, 1]
    assert out.state["to_move"] == 2 and out.state["discard"] == ["JS", "QD"]


def test_calling_rummy_works_in_a_two_player_game():
    hands = HANDS[:2]
    out = play(PILE, hands, STOCK, "JS", SETUP)
    assert out.state["to_move"] == 1 and _calls(out, 1) == [CallRummy(1)] and _calls(out, 0) == []
    assert {"rummy": 1} in out.match().view(1).to_dict()["legal"]
    called = play(PILE, hands, STOCK, "JS", [*SETUP, "1 rummy 1", "1 layoff 8H on 0", "1 discard KD", "0 draw"])
    assert called.ok and called.state["melds"][0]["laid_by"] == [0, 0, 0, 1]


def test_a_call_by_the_next_player_is_not_a_take_the_claimed_card_must_be_used():
    took = play(PILE, HANDS, STOCK, "JS", [*SETUP, "1 take 1", "1 discard QD"])
    assert took.ok and "8H" in took.state["hands"][1]
    called = play(PILE, HANDS, STOCK, "JS", [*SETUP, "1 rummy 1", "1 discard QD"])
    assert called.refused_at == 4 and "must use the 8H" in called.message


def test_rummy_card_value_15_scores_a_call_by_the_next_player_but_not_a_take():
    hands = ["5H 6H 7H 8H 9C", "KC", "TC 4D 4S"]
    opts = {**PILE, "rummy_card_value": 15}
    took = play(opts, hands, STOCK, "JS", [*SETUP, "1 take 1", "1 layoff 8H on 0", "1 discard KC"])
    called = play(opts, hands, STOCK, "JS", [*SETUP, "1 rummy 1", "1 layoff 8H on 0", "1 discard KC"])
    assert took.went_out == called.went_out == 1
    assert took.scores[1] == 8 and called.scores[1] == 15


def test_calling_rummy_steal_by_the_player_about_to_draw_then_draws_as_usual():
    out = play({"calling_rummy": "steal"}, HANDS, STOCK, "JS", [*SETUP, "1 rummy 1 on 0", "1 draw", "1 discard KD"])
    assert out.ok and out.state["melds"][0]["laid_by"] == [0, 0, 0, 1]
    assert out.state["hands"][1] == ["QD", "2S", "3S", "3C"] and out.state["to_move"] == 2


def test_calling_rummy_pile_claims_a_card_below_the_top_with_the_cards_above_it():
    actions = [*SETUP[:2], "0 discard 9C", "2 rummy 2", "2 layoff 8H on 0", "2 discard TC"]
    out = play(PILE, ["5H 6H 7H 9C", "KD QD 2S 3S", "TC 4D 4S"], STOCK, "JS 8H", actions)
    assert out.ok and out.meld(0) == ["5H", "6H", "7H", "8H"]
    assert out.state["hands"][2] == ["4D", "4S", "9C"] and out.state["discard"] == ["JS", "TC"]


def test_calling_rummy_pile_claims_cards_that_meld_among_themselves():
    actions = ["0 draw", "0 discard 6C", "2 rummy 3", "2 meld 4C 5C 6C", "2 discard TC"]
    base, opt = contrast(PILE, ["6C 9C", "KD QD 3H", "TC 4D 4S"], STOCK, "4C 5C", actions)
    assert base.refused_at == 2
    assert opt.ok and opt.meld(0) == ["4C", "5C", "6C"] and opt.state["to_move"] == 0


def test_calling_rummy_top_card_claims_only_the_card_just_discarded():
    deep = [*SETUP[:2], "0 discard 9C", "2 rummy 2"]
    pile, top = contrast(
        {"calling_rummy": "top_card"}, ["5H 6H 7H 9C", "KD QD 2S 3S", "TC 4D 4S"], STOCK, "JS 8H", deep, base=PILE
    )
    assert pile.ok
    assert top.refused_at == 3 and "only the card just discarded" in top.message
    last = play(
        {"calling_rummy": "top_card"}, HANDS, STOCK, "JS", [*SETUP, "2 rummy 1", "2 layoff 8H on 0", "2 discard TC"]
    )
    assert last.ok and last.state["to_move"] == 0


def test_calling_rummy_steal_lays_the_card_off_at_once_and_play_goes_on():
    actions = [*SETUP, "2 rummy 1 on 0", "1 draw"]
    base, opt = contrast({"calling_rummy": "steal"}, HANDS, STOCK, "JS", actions)
    assert base.refused_at == 3
    assert opt.ok and opt.meld(0) == ["5H", "6H", "7H", "8H"] and opt.state["melds"][0]["laid_by"] == [0, 0, 0, 2]
    assert opt.state["hands"][2] == ["TC", "4D", "4S"] and opt.state["to_move"] == 1 and opt.state["phase"] == "play"
    plain = play({"calling_rummy": "steal"}, HANDS, STOCK, "JS", [*SETUP, "2 rummy 1"])
    assert plain.refused_at == 3 and "'on' a meld id" in plain.message


def test_calling_rummy_steal_melds_cards_from_the_pile_alone():
    actions = ["0 draw", "0 discard 6C", {"p": 2, "rummy": 1, "meld": ["4C", "5C", "6C"]}, "1 draw"]
    out = play({"calling_rummy": "steal"}, ["6C 9C", "KD QD 3H", "TC 4D 4S"], STOCK, "4C 5C", actions)
    assert out.ok and out.meld(0) == ["4C", "5C", "6C"] and out.state["melds"][0]["laid_by"] == [2, 2, 2]
    assert out.state["discard"] == [] and out.state["to_move"] == 1


def test_calling_rummy_steal_keeps_the_callers_lay_off_and_opening_rules():
    # Seat 0 melds TH JH QH and throws the KH, which fits its run; seat 2 has not opened, nor melded.
    hands, setup = ["TH JH QH KH 9C", "KD QD 2S 3S", "TC 4D 4S"], ["0 draw", "0 meld TH JH QH", "0 discard KH"]
    for extra, words in (
        ({"first_meld_min": 30}, "the KH fits meld 0, but you may not lay off before your first melds total 30 points"),
        ({"layoff_needs_own_meld": True}, "the KH fits meld 0, but you may lay off only after laying down a meld of your own this round"),
    ):
        rules = {"calling_rummy": "steal", **extra}
        assert _calls(play(rules, hands, STOCK, "JS", setup), 2) == []
        out = play(rules, hands, STOCK, "JS", [*setup, "2 rummy 1 on 0"])
        assert out.refused_at == 3 and out.message == words
    # A stolen meld opens alone: 15 points are refused under first_meld_min 30, 30 points open the seat.
    rules = {"calling_rummy": "steal", "first_meld_min": 30}
    small = play(rules, ["TH JH QH 6C 9C", "KD QD 2S 3S", "TC 4D 4S"], STOCK, "4C 5C",
                 ["0 draw", "0 discard 6C", {"p": 2, "rummy": 1, "meld": ["4C", "5C", "6C"]}])
    assert small.refused_at == 2
    assert small.message == "a stolen meld must make your first melds' 30 points alone (first_meld_min): this makes 15"
    big = play(rules, ["TH JH QH KS 9C", "KD QD 2S 3S", "TC 4D 4S"], STOCK, "KC KH",
               ["0 draw", "0 discard KS", {"p": 2, "rummy": 1, "meld": ["KC", "KH", "KS"]}])
    assert big.ok and big.meld(0) == ["KC", "KH", "KS"] and big.match().view(2).may_lay_off_now  # opened


def test_calling_rummy_refused_by_the_callers_own_rule_names_that_rule():
    for extra, words in (
        ({"layoff_onto": "own"}, "you may lay off only on your own melds (layoff_onto: own)"),
        ({"taken_card_use": "new_meld"}, "a card taken from the pile must go into a new meld, not be laid off (taken_card_use: new_meld)"),
        ({"layoff_needs_own_meld": True}, "you may lay off only after laying down a meld of your own this round"),
    ):
        out = play({**PILE, **extra}, HANDS, STOCK, "JS", [*SETUP, "2 rummy 1"])
        assert out.refused_at == 3
        assert out.message == f"the 8H could be laid off on the table, but {words}, and you cannot meld it with your hand and the pile above it"


def test_calling_rummy_steal_under_top_only_takes_the_top_card_only():
    rules = {"calling_rummy": "steal", "discard_draw": "top_only"}
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 2C"]
    deep = play(rules, ["5H 6H 7H 2C KS", "KD QD 2S 3S", "TC 4D 4S"], "9D 3C 3D", "8H", [*actions, "2 rummy 2 on 0"])
    assert deep.refused_at == 3
    assert deep.message == "only the top card of the pile may be taken, by a steal too (discard_draw: top_only)"
    top = play(rules, ["5H 6H 7H 8H KS", "KD QD 2S 3S", "TC 4D 4S"], "9D 3C 3D", "JS", ["0 draw", "0 meld 5H 6H 7H", "0 discard 8H", "2 rummy 1 on 0"])
    assert top.ok and top.meld(0) == ["5H", "6H", "7H", "8H"]
    # A stolen meld takes other pile cards with it: under top_only the top card alone is stolen, laid off.
    pile = ["0 draw", "0 discard 7H"]
    hands = ["9C 4D 7H", "KS QD 3H", "TC JD 5S"]
    assert _calls(play(rules, hands, "8C 9H 4S", "2C 7D 7S", pile), 2) == []
    meld = play(rules, hands, "8C 9H 4S", "2C 7D 7S", [*pile, {"p": 2, "rummy": 1, "meld": ["7D", "7H", "7S"]}])
    assert meld.refused_at == 2
    assert meld.message == "a steal may only lay the top card off: a meld would take other pile cards with it (discard_draw: top_only)"
    assert _calls(play({"calling_rummy": "steal"}, hands, "8C 9H 4S", "2C 7D 7S", pile), 2)  # at any depth it may


# ------------------------------------------------------------- rummy_card_value
def test_rummy_card_value_15_scores_the_claimed_card_15():
    actions = [*SETUP, "2 rummy 1", "2 layoff 8H on 0", "2 discard KC"]
    hands = ["5H 6H 7H 8H 9C", "KD QD 2S 3S", "KC"]
    base, opt = contrast({"rummy_card_value": 15}, hands, STOCK, "JS", actions, base=PILE)
    assert base.over and base.went_out == 2 and opt.went_out == 2
    assert base.scores[2] == 8 and opt.scores[2] == 15
    assert base.scores[0] == opt.scores[0] == 18 - 9 - 2


@pytest.mark.parametrize("mode", ["pile", "top_card"])
@pytest.mark.parametrize("card", ["8H", "4H"])
def test_rummy_card_value_15_counts_the_claimed_card_at_either_end_of_a_run(mode, card):
    # Seat 0 discards a card that fits its own run, above it (8H) or below it (4H); seat 2 calls.
    hands = ["5H 6H 7H 4H 8H 9C", "KD QD 2S 3S", "TC"]
    actions = ["0 draw", "0 meld 5H 6H 7H", f"0 discard {card}", "2 rummy 1", f"2 layoff {card} on 0", "2 discard TC"]
    out = play({"calling_rummy": mode, "rummy_card_value": 15}, hands, STOCK, "JS", actions)
    assert out.over and out.went_out == 2 and out.scores[2] == 15
    assert out.meld(0) == (["5H", "6H", "7H", "8H"] if card == "8H" else ["4H", "5H", "6H", "7H"])


def test_rummy_card_value_15_opens_at_the_claimed_cards_normal_value():
    # first_meld_min 25: 5H 5D and the claimed 5S make 15 (the 5S scores 15, but opens as a 5).
    rules = {**PILE, "rummy_card_value": 15, "first_meld_min": 25}
    hands = ["5H 5D 9C 9D 9H JS KC", "6S 7S 8S 9S TS 5S"]
    setup = ["1 draw", "1 meld 6S 7S 8S 9S TS", "1 discard 5S", "0 rummy 1", "0 meld 5H 5D 5S"]
    out = play(rules, hands, "2C 3C 4C", "TD", setup, dealer=0)
    assert out.ok and not out.match().view(0).may_lay_off_now
    legal = [str(a) for a in out.match().state.legal_actions(0)]
    assert "meld 9C 9D 9H" in legal and "layoff JS on 0" not in legal and "discard KC" not in legal
    early = play(rules, hands, "2C 3C 4C", "TD", [*setup, "0 layoff JS on 0"], dealer=0)
    assert early.refused_at == 5 and "first melds total 25 points" in early.message
    # With the 9s (15 + 27) the seat has opened; the 5S still scores 15 at the end.
    done = play(rules, hands, "2C 3C 4C", "TD", [*setup, "0 meld 9C 9D 9H", "0 layoff JS on 0", "0 discard KC"], dealer=0)
    assert done.over and done.went_out == 0 and done.scores[0] == 5 + 5 + 15 + 27 + 10
    # Consistently, a call that could open only by counting the claimed 5S at 15 is refused (15 + 21 < 40).
    forty = {**PILE, "rummy_card_value": 15, "first_meld_min": 40}
    refused = play(forty, ["5H 5D 7C 7D 7H JS KC", "6S 7S 8S 9S TS 5S"], "2C 3C 4C", "TD", setup[:4], dealer=0)
    assert refused.refused_at == 3


# -------------------------------------------------------- rummy_after_going_out
def test_rummy_after_going_out_the_goer_takes_back_the_pile_above_the_playable_card_and_play_goes_on():
    # Seat 0 melds 5H 6H 7H and throws its last card, the KS, onto the 8H: the 8H fits its run.
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard KS"]
    hands = ["5H 6H 7H", "KD QD 2S"]
    base, opt = contrast({"rummy_after_going_out": True}, hands, "KS 2C", "8H", actions, base=PILE)
    assert base.over and base.went_out == 0 and base.scores == [18, -22]
    assert opt.ok and not opt.over  # a Rummy: seat 0 has not gone out
    assert opt.state["hands"][0] == ["KS"]  # the pile above the 8H came back
    assert opt.state["discard"] == ["8H"] and opt.state["to_move"] == 1 and opt.state["phase"] == "draw"
    # The next player may claim the 8H; then it is seat 0's turn again, the KS in hand.
    rules = {**PILE, "rummy_after_going_out": True}
    on = play(rules, hands, "KS 2C QC", "8H", [*actions, "1 rummy 1", "1 layoff 8H on 0", "1 discard 2S"])
    assert on.ok and not on.over and on.meld(0) == ["5H", "6H", "7H", "8H"]
    assert on.state["melds"][0]["laid_by"] == [0, 0, 0, 1]
    assert on.state["to_move"] == 0 and on.state["hands"][0] == ["KS"]


def test_rummy_after_going_out_events_say_what_the_goer_took_back():
    rules = {**PILE, "rummy_after_going_out": True}
    match = play(rules, ["5H 6H 7H", "KD QD 2S"], "KS 2C", "9C 8H", ["0 draw", "0 meld 5H 6H 7H"]).match()
    events = match.apply(0, Discard((parse_card("KS"),)))
    assert [e.to_dict() for e in events] == [
        {"event": "discarded", "seat": 0, "cards": ["KS"]},
        {"event": "left_rummy", "seat": 0, "card": "8H", "cards": ["KS"]},
    ]
    assert match.state.public.known[0] == (parse_card("KS"),)  # everyone saw the KS go back


def test_rummy_after_going_out_a_playable_last_discard_leaves_the_goer_floating_with_no_card():
    # The last card, the 8H just drawn, fits the goer's own run: nothing lies above it, nothing comes back.
    rules = {**PILE, "rummy_after_going_out": True}
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 8H"]
    hands = ["5H 6H 7H", "KD QD 2S"]
    out = play(rules, hands, "8H 2C QC", "9C", actions)
    assert out.ok and not out.over and out.state["hands"][0] == []
    assert out.match().state.public.floating == (True, False)
    assert out.state["discard"] == ["9C", "8H"] and out.state["to_move"] == 1
    # Seat 1 claims the 8H; seat 0 draws and goes out by throwing a card nobody can use.
    done = play(
        rules,
        hands,
        "8H 2C QC",
        "9C",
        [*actions, "1 rummy 1", "1 layoff 8H on 0", "1 discard 2S", "0 draw", "0 discard 2C"],
    )
    assert done.over and done.went_out == 0


def test_rummy_after_going_out_only_a_card_a_call_could_claim_counts():
    # Under top_card only the card just thrown may be claimed: an 8H deeper in the pile is no Rummy.
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard KS"]
    hands = ["5H 6H 7H", "KD QD 2S"]
    top = play({"calling_rummy": "top_card", "rummy_after_going_out": True}, hands, "KS 2C", "8H", actions)
    assert top.over and top.went_out == 0 and top.scores == [18, -22]
    # Nothing playable in the pile: the player goes out as usual.
    plain = play({**PILE, "rummy_after_going_out": True}, hands, "KS 2C", "9C", actions)
    assert plain.over and plain.went_out == 0


@pytest.mark.parametrize(
    "extra",
    [
        {"calling_rummy": "pile", "layoff_onto": "own"},
        {"calling_rummy": "pile", "first_meld_min": 40},
        {"calling_rummy": "pile", "layoff_needs_own_meld": True},
        {"calling_rummy": "pile", "taken_card_use": "new_meld"},
        {"calling_rummy": "top_card", "layoff_onto": "own"},
    ],
    ids=["layoff_onto-own", "first_meld_min", "layoff_needs_own_meld", "taken_card_use-new_meld", "top_card-own"],
)
def test_rummy_after_going_out_needs_a_card_another_seat_could_legally_call(extra):
    # Seat 1 melds out and throws the 8H, which fits its own run, but seat 0 could not call it
    # (own melds only; not opened; no meld of its own; a claimed card must go in a new meld).
    hands = ["2C 3D QS KD", "5H 6H 7H 9C 9D 9S"]
    actions = ["1 draw", "1 meld 5H 6H 7H", "1 meld 9C 9D 9S", "1 discard 8H"]
    rules = {**extra, "rummy_after_going_out": True}
    before = play(rules, hands, "8H 3C", "TC", actions[:3], dealer=0).match()
    events = before.apply(1, Discard((parse_card("8H"),)))
    assert [e.to_dict()["event"] for e in events][:2] == ["discarded", "round_over"]  # (then the next deal)
    out = play(rules, hands, "8H 3C", "TC", actions, dealer=0)
    assert out.over and out.went_out == 1
    # Where seat 0 may call it (lay-offs on any meld), the same throw is a Rummy.
    anyone = play({"calling_rummy": extra["calling_rummy"], "rummy_after_going_out": True}, hands, "8H 3C", "TC", actions, dealer=0)
    assert not anyone.over and [str(a) for a in _calls(anyone, 0)] == ["rummy 1"]


def test_rummy_after_going_out_a_joker_that_steals_never_take_lets_the_goer_out():
    rules = {"calling_rummy": "steal", "rummy_after_going_out": True}
    hands = ["2C 3D QS KD 4C", "5H 6H 7H JK"]
    out = play(rules, hands, "8H 3C 5C", "TC", ["1 draw", "1 meld 5H 6H 7H 8H", "1 discard JK"], dealer=0)
    assert out.over and out.went_out == 1


def test_rummy_after_going_out_takes_back_down_to_the_callable_card_nearest_the_top():
    # Under layoff_onto: own seat 0 may not claim the 8H (it fits seat 1's run only) but may
    # claim the 5S below it (it fits seat 0's run): the 8H comes back to seat 1, the 5S lies on top.
    rules = {"calling_rummy": "pile", "layoff_onto": "own", "rummy_after_going_out": True}
    hands = ["2S 3S 4S 5S QD KD 2C", "5H 6H 7H 9C 9D 9S"]
    actions = ["0 draw", "0 meld 2S 3S 4S", "0 discard 5S", "1 draw", "1 meld 5H 6H 7H", "1 meld 9C 9D 9S"]
    match = play(rules, hands, "JC 8H 3C 4D", "TC", actions, dealer=1).match()
    events = match.apply(1, Discard((parse_card("8H"),)))
    assert [e.to_dict() for e in events] == [
        {"event": "discarded", "seat": 1, "cards": ["8H"]},
        {"event": "left_rummy", "seat": 1, "card": "5S", "cards": ["8H"]},
    ]
    assert match.state.hands[1] == [parse_card("8H")] and match.state.public.discard == tuple(parse_card(c) for c in ("TC", "5S"))
    assert [str(a) for a in match.state.legal_actions(0) if isinstance(a, CallRummy)] == ["rummy 1"]


def test_calling_rummy_is_not_offered_to_a_seat_that_could_not_use_the_card():
    out = play({**PILE, "layoff_onto": "own"}, HANDS, STOCK, "JS", SETUP)
    assert _calls(out, 2) == []  # the 8H fits only seat 0's meld
    refused = play({**PILE, "layoff_onto": "own"}, HANDS, STOCK, "JS", [*SETUP, "2 rummy 1"])
    assert refused.refused_at == 3


def test_calling_rummy_the_caller_must_use_the_claimed_card_before_discarding():
    out = play(PILE, HANDS, STOCK, "JS", [*SETUP, "2 rummy 1", "2 discard TC"])
    assert out.refused_at == 4 and "must use the 8H" in out.message


def test_calling_rummy_closes_once_the_next_player_has_drawn():
    out = play(PILE, HANDS, STOCK, "JS", [*SETUP, "1 draw", "2 rummy 1"])
    assert out.refused_at == 4


@pytest.mark.parametrize(("mode", "call"), [("pile", "rummy 1"), ("top_card", "rummy 1"), ("steal", "rummy 1 on 0")])
def test_calling_rummy_a_float_opens_no_call_window(mode, call):
    # Seat 0 throws the 8H; seat 1 draws (the 8H's window closes), melds out and floats: no discard,
    # so the 8H, now playable on seat 1's run, may not be claimed, not even by seat 0 who threw it.
    hands = ["8H 2C 3D QS KD 4C JD", "5H 6H 7H 9C 9D 9S", "2S 3S 4S AD KH QH JH"]
    setup = ["0 draw", "0 discard 8H", "1 draw", "1 meld 5H 6H 7H", "1 meld 9C 9D 9S 9H", "1 float"]
    rules = {"calling_rummy": mode, "going_out": "floating"}
    out = play(rules, hands, "TS 9H 5C 6C", "TC", setup)
    assert out.ok and out.state["to_move"] == 2 and out.state["discard"] == ["TC", "8H"]
    assert _calls(out, 0) == [] and _calls(out, 2) == []
    for seat in (0, 2):
        refused = play(rules, hands, "TS 9H 5C 6C", "TC", [*setup, f"{seat} {call}"])
        assert refused.refused_at == 6
        assert refused.message == "Rummy may be called only after a discard, before the next player draws"


def test_calling_rummy_steal_onto_a_meld_that_is_not_there_says_so():
    out = play({"calling_rummy": "steal"}, HANDS, STOCK, "JS", [*SETUP, "2 rummy 1 on 5"])
    assert out.refused_at == 3 and out.message == "there is no meld 5 on the table"
    wrong = play({"calling_rummy": "steal"}, ["5H 6H 7H 8H 9C", "KD QD 2S 3S", "TC 4D 4S"], STOCK, "JS",
                 ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C"]).match()
    assert wrong.state.legal_actions(2) == []  # the 9C fits nowhere: nothing to call
