"""Options for drawing from the discard pile and the stock (RULES.md Part 2): each value against the standard game."""

from __future__ import annotations

from rummy500.actions import Discard
from rummy500.cards import parse_cards

from .scenario import contrast, play

OTHER = "KD QD 2S 3S"


# ---------------------------------------------------------------- discard_draw
def test_discard_draw_top_only_refuses_reaching_below_the_top_card():
    actions = ["0 take 2", "0 meld 5H 6H 7H", "0 discard 9C"]
    base, opt = contrast({"discard_draw": "top_only"}, ["5H 6H 9C", OTHER], "2C", "7H 8D", actions)
    assert base.ok and base.state["discard"] == ["9C"]
    assert opt.refused_at == 0 and "only the top card" in opt.message


def test_discard_draw_top_only_still_takes_the_top_card():
    out = play({"discard_draw": "top_only"}, ["5H 6H 9C", OTHER], "2C", "8D 7H", ["0 take 1", "0 meld 5H 6H 7H", "0 discard 9C"])
    assert out.ok and out.meld(0) == ["5H", "6H", "7H"]


# --------------------------------------------------------------- must_use_taken
def test_must_use_taken_always_obliges_using_a_single_top_card():
    actions = ["0 take 1", "0 discard 9C"]
    base, opt = contrast({"must_use_taken": "always"}, ["5H 6H 9C", OTHER], "2C", "8D 7H", actions)
    assert base.ok and base.state["hands"][0] == ["5H", "6H", "7H"]
    assert opt.refused_at == 1 and "must use the 7H" in opt.message
    used = play({"must_use_taken": "always"}, ["5H 6H 9C", OTHER], "2C", "8D 7H", ["0 take 1", "0 meld 5H 6H 7H", "0 discard 9C"])
    assert used.ok


def test_must_use_taken_always_refuses_taking_an_unusable_top_card():
    base, opt = contrast({"must_use_taken": "always"}, ["5H 6H 9C", OTHER], "2C", "7H 8D", ["0 take 1"])
    assert base.ok
    assert opt.refused_at == 0 and "could not use the 8D" in opt.message


# --------------------------------------------------------------- taken_card_use
def test_taken_card_use_new_meld_refuses_laying_off_the_chosen_card():
    actions = [
        "0 draw", "0 meld 5H 6H 7H", "0 discard 9C",
        "1 take 2", "1 layoff 8H on 0", "1 discard 2S",
    ]
    base, opt = contrast({"taken_card_use": "new_meld"}, ["5H 6H 7H 9C 4C", "9H TH KD 2S"], "2C", "8H", actions)
    assert base.ok and base.meld(0) == ["5H", "6H", "7H", "8H"]
    assert opt.refused_at == 4 and "new meld" in opt.message


def test_taken_card_use_new_meld_refuses_a_take_that_only_a_layoff_could_use():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C", "1 take 2"]
    base, opt = contrast({"taken_card_use": "new_meld"}, ["5H 6H 7H 9C 4C", "KD QD 2S"], "2C", "8H", actions)
    assert base.ok
    assert opt.refused_at == 3 and "in a new meld" in opt.message


# ----------------------------------------------------------------- discard_back
def test_discard_back_lets_the_top_card_taken_go_straight_back():
    base, opt = contrast({"discard_back": True}, ["5H 6H 9C", OTHER], "2C", "8D 7H", ["0 take 1", "0 discard 7H"])
    assert base.refused_at == 1 and "just took" in base.message
    assert opt.ok and opt.state["discard"] == ["8D", "7H"] and opt.state["to_move"] == 1


# ------------------------------------------------------------- stock_draw_count
def test_stock_draw_count_2_takes_two_cards_from_the_stock():
    actions = ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C"]
    base, opt = contrast({"stock_draw_count": 2}, ["5H 6H 9C", OTHER], "2C 7H 4D", "8D", actions)
    assert base.refused_at == 1 and "do not hold 7H" in base.message
    assert opt.ok and opt.state["hands"][0] == ["2C"] and opt.state["stock_count"] == 1


# ---------------------------------------------------------------- discard_count
def test_discard_count_match_drawn_discards_as_many_cards_as_were_drawn():
    actions = ["0 draw", "0 discard 9C 2C"]
    base, opt = contrast(
        {"discard_count": "match_drawn"}, ["5H 6H 9C", OTHER], "2C 7H 4D", "8D", actions, base={"stock_draw_count": 2}
    )
    assert base.refused_at == 1 and "exactly one" in base.message
    assert opt.ok and opt.state["discard"] == ["8D", "9C", "2C"] and opt.state["hands"][0] == ["5H", "6H", "7H"]


MATCH_TWO = {"discard_count": "match_drawn", "stock_draw_count": 2}


def test_discard_count_match_drawn_puts_the_cards_down_in_the_listed_order_the_last_on_top():
    for first, last in (("9C", "2C"), ("2C", "9C")):
        out = play(MATCH_TWO, ["5H 6H 9C", OTHER], "2C 7H 4D 5D", "8D", ["0 draw", f"0 discard {first} {last}", "1 take 1"])
        assert out.ok and out.state["discard"] == ["8D", first]
        assert last in out.state["hands"][1] and first not in out.state["hands"][1]
        # The record keeps the order as given, and so does the record the engine writes.
        assert out.record["rounds"][0]["actions"][1] == {"p": 0, "discard": [first, last]}
        assert out.match().record()["rounds"][0]["actions"][1] == {"p": 0, "discard": [first, last]}


def test_discard_count_match_drawn_lists_each_choice_of_cards_once_and_accepts_every_order():
    state = play(MATCH_TWO, ["5H 6H 9C", OTHER], "2C 7H 4D", "8D", ["0 draw"]).match().state
    discards = [a for a in state.legal_actions() if isinstance(a, Discard)]
    assert len(discards) == 10  # the pairs of 5H 6H 9C 2C 7H, each listed once (in ascending order)
    for order in (parse_cards("9C 2C"), parse_cards("2C 9C")):
        after = state.copy()
        after.apply(Discard(tuple(order)))
        assert after.public.discard[-2:] == tuple(order)


def test_discard_count_match_drawn_refuses_a_single_discard_after_taking_three():
    actions = ["0 take 3", "0 meld 5H 6H 7H", "0 discard 9C"]
    base, opt = contrast({"discard_count": "match_drawn"}, ["5H 6H 9C 3C", OTHER], "2C", "7H 8D 4D", actions)
    assert base.ok
    assert opt.refused_at == 2 and "discard 3 card(s)" in opt.message
    out = play({"discard_count": "match_drawn"}, ["5H 6H 9C 3C", OTHER], "2C", "7H 8D 4D",
               ["0 take 3", "0 meld 5H 6H 7H", "0 discard 9C 8D 4D"])
    assert out.ok and out.state["hands"][0] == ["3C"]
