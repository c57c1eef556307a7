"""RULES.md Part 1, Melds: sets, runs, jokers and lay-offs, as a player meets them at the table."""

from __future__ import annotations

import pytest

from .helpers import deal, legal, play, refused

# ------------------------------------------------------------------ sets


def test_a_set_is_three_or_four_cards_of_one_rank_in_different_suits():
    s = deal(["7C 7D 7H 7S 2C", "4H 5H 6H"], stock="QD 9S", discard="TC")
    play(s, "draw")
    melds = {a for a in legal(s) if a.startswith("meld")}
    assert melds == {
        "meld 7C 7D 7H",
        "meld 7C 7D 7S",
        "meld 7C 7H 7S",
        "meld 7D 7H 7S",
        "meld 7C 7D 7H 7S",
    }
    play(s, "meld 7C 7D 7H 7S")
    assert s.public.melds[0].kind == "set" and len(s.public.melds[0].cards) == 4


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("meld 8H 8C", "at least 3 cards"),
        ("meld 8H 8C 9C", "a set (same rank, different suits) or a run"),
        ("meld 8H 8C JK=8H", "different suits"),
        ("meld 8H 8C JK=8C", "different suits"),
    ],
)
def test_bad_sets_are_refused_naming_the_rule(move, words):
    s = deal(["8H 8C 9C JK 2D", "4H 5H 6H"], stock="QD", discard="TC")
    play(s, "draw")
    assert words in refused(s, move)


def test_a_second_card_of_a_suit_cannot_join_a_set_with_two_packs():
    s = deal(["7C 7D 7H 2C", "7C 3D", "4S", "5S", "6S"], stock="QD KD", discard="TC")
    play(s, "draw", "meld 7C 7D 7H", "discard 2C", "draw")
    assert legal(s) == {"discard KD", "discard 3D", "discard 7C"}
    assert "different suits" in refused(s, "layoff 7C on 0")


def test_a_fifth_card_cannot_join_a_full_set_even_with_two_packs():
    # Five players: two packs, so a second 7C exists; a set still has 4 cards of different suits.
    s = deal(["7C 7D 7H 7S 2C", "7C 3D", "4S", "5S", "6S"], stock="QD KD", discard="TC")
    play(s, "draw", "meld 7C 7D 7H 7S", "discard 2C")
    play(s, "draw")
    assert "layoff 7C on 0" not in legal(s)
    message = refused(s, "layoff 7C on 0")
    assert "different suits" in message or "at most 4" in message


def test_a_fourth_card_may_be_laid_off_on_a_set():
    s = deal(["9C 9D 9H 2C", "9S 3D 4D"], stock="QD KD", discard="TC")
    play(s, "draw", "meld 9C 9D 9H", "discard 2C")
    play(s, "draw")
    assert "layoff 9S on 0" in legal(s)
    play(s, "layoff 9S on 0")
    assert [str(c) for c in s.public.melds[0].cards][-1] == "9S"
    assert s.public.melds[0].laid_by == (0, 0, 0, 1)


# ------------------------------------------------------------------ runs


def test_a_run_is_three_or_more_consecutive_cards_of_one_suit():
    s = deal(["4H 5H 6H 7H KC", "4C 5C 6S"], stock="QD", discard="TC")
    play(s, "draw")
    melds = {a for a in legal(s) if a.startswith("meld")}
    assert melds == {"meld 4H 5H 6H", "meld 5H 6H 7H", "meld 4H 5H 6H 7H"}


def test_the_ace_is_low_in_a23_and_high_in_qka():
    s = deal(["AS 2S 3S QS KS 9D 9C", "4C 5C 6S"], stock="QD", discard="TC")
    play(s, "draw")
    melds = {a for a in legal(s) if a.startswith("meld")}
    assert melds == {"meld AS 2S 3S", "meld AS QS KS"}  # the text form lists cards in sorted order
    play(s, "meld AS 2S 3S")
    assert [str(c) for c in s.public.melds[0].cards] == ["AS", "2S", "3S"]
    s2 = deal(["QS KS AS 9D", "4C 5C 6S"], stock="QD", discard="TC")
    play(s2, "draw", "meld QS KS AS")
    assert [str(c) for c in s2.public.melds[0].cards] == ["QS", "KS", "AS"]
    assert s2.public.melds[0].positions == (12, 13, 14)


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("meld KS AS 2S", "K A 2 is not a run"),
        ("meld QS KS AS 2S", "K A 2 is not a run"),
        ("meld 2S 3S 5S", "consecutive rank"),
        ("meld 2S 3S", "at least 3 cards"),
        ("meld 2S 3S 4H", "a set (same rank, different suits) or a run"),
    ],
)
def test_bad_runs_are_refused_naming_the_rule(move, words):
    s = deal(["KS AS 2S 3S 5S QS 4H", "4C 5C 6C"], stock="QD", discard="TC")
    play(s, "draw")
    assert words in refused(s, move)


def test_a_run_cannot_be_extended_around_the_corner():
    s = deal(["QS KS AS 9D", "2S 3S 4S 8C"], stock="QD JD", discard="TC")
    play(s, "draw", "meld QS KS AS", "discard QD")
    play(s, "draw")
    assert not any(a.endswith("on 0") for a in legal(s))
    assert "either end" in refused(s, "layoff 2S on 0")


def test_a_run_may_be_extended_at_either_end_with_one_or_several_cards():
    s = deal(["5D 6D 7D KC", "3D 4D 8D 9D TD 2C"], stock="QH JH", discard="TC")
    play(s, "draw", "meld 5D 6D 7D", "discard QH")
    play(s, "draw")
    layoffs = {a for a in legal(s) if a.startswith("layoff")}
    assert layoffs == {
        "layoff 4D on 0",
        "layoff 3D 4D on 0",
        "layoff 8D on 0",
        "layoff 8D 9D on 0",
        "layoff 8D 9D TD on 0",
        "layoff 4D 8D on 0",
        "layoff 4D 8D 9D on 0",
        "layoff 4D 8D 9D TD on 0",
        "layoff 3D 4D 8D on 0",
        "layoff 3D 4D 8D 9D on 0",
        "layoff 3D 4D 8D 9D TD on 0",
    }
    assert "either end" in refused(s, "layoff 3D on 0")
    play(s, "layoff 3D 4D 8D on 0")
    assert [str(c) for c in s.public.melds[0].cards] == ["3D", "4D", "5D", "6D", "7D", "8D"]
    assert s.public.melds[0].laid_by == (1, 1, 0, 0, 0, 1)
    assert s.public.melds[0].id == 0  # a lay-off keeps the meld's id


# ---------------------------------------------------------------- jokers


def test_a_joker_is_declared_and_that_card_is_fixed_for_good():
    s = deal(["4H 5H JK 9C", "7H 3H 6H 2H KS"], stock="QD JD", discard="TC")
    play(s, "draw")
    assert {a for a in legal(s) if a.startswith("meld")} == {"meld 4H 5H JK=3H", "meld 4H 5H JK=6H"}
    assert "no meld 0" in refused(s, "layoff JK=7H on 0")
    assert "say what each joker stands for" in refused(s, "meld 4H 5H JK")
    play(s, "meld 4H 5H JK=6H", "discard 9C")
    assert [str(c) for c in s.public.melds[0].cards] == ["4H", "5H", "JK=6H"]
    play(s, "draw")
    # The joker is the 6H: the 7H extends the run, the 6H does not, and the joker never moves to the low end.
    assert {a for a in legal(s) if a.startswith("layoff")} == {
        "layoff 7H on 0",
        "layoff 3H on 0",
        "layoff 2H 3H on 0",
        "layoff 3H 7H on 0",
        "layoff 2H 3H 7H on 0",
    }
    assert "either end" in refused(s, "layoff 6H on 0")
    play(s, "layoff 7H on 0")
    assert [str(c) for c in s.public.melds[0].cards] == ["4H", "5H", "JK=6H", "7H"]


def test_a_joker_may_stand_for_a_card_that_is_in_play_elsewhere():
    # The 6H is in seat 1's hand; seat 0 may still declare a joker as the 6H.
    s = deal(["4H 5H JK 9C", "6H 6C 6D KS"], stock="QD JD", discard="TC")
    play(s, "draw", "meld 4H 5H JK=6H", "discard 9C")
    play(s, "draw", "meld 6H 6C 6D")
    assert sorted(str(c) for m in s.public.melds for c in m.cards) == sorted(["4H", "5H", "JK=6H", "6H", "6C", "6D"])


def test_a_meld_needs_two_natural_cards():
    s = deal(["JK JK 5H 6H 9C", "7C 8C 9D"], stock="QD", discard="TC")
    play(s, "draw")
    for move in ("meld JK JK 5H", "meld JK=4H JK=6H 5H", "meld 5H JK=6H JK=7H", "meld JK=5D JK=5S 5H"):
        assert "two natural cards" in refused(s, move)
    melds = {a for a in legal(s) if a.startswith("meld")}
    assert "meld 5H 6H JK=7H JK=8H" in melds and "meld 5H 6H JK=4H" in melds
    assert all(sum(not c.startswith("JK") for c in m.split()[1:]) >= 2 for m in melds)


def test_a_bare_joker_in_a_lay_off_must_say_what_it_stands_for():
    s = deal(["4H 5H 6H 9C", "JK 2C 3D"], stock="QD JD", discard="TC")
    play(s, "draw", "meld 4H 5H 6H", "discard 9C", "draw")
    assert "say what each joker stands for" in refused(s, "layoff JK on 0")
    assert {a for a in legal(s) if a.startswith("layoff")} == {"layoff JK=3H on 0", "layoff JK=7H on 0"}


# ------------------------------------------------------------- lay-offs


def test_anyone_may_lay_off_on_anyones_meld_and_the_card_scores_for_the_layer():
    s = deal(["QC QD QH 2S 9C", "QS", "KD 5H 6H"], stock="4C 4D 4H", discard="TC")
    play(s, "draw", "meld QC QD QH", "discard 9C")
    play(s, "draw")
    assert legal(s) == {"layoff QS on 0", "discard QS", "discard 4D"}
    play(s, "layoff QS on 0")
    assert s.public.melds[0].laid_by == (0, 0, 0, 1) and s.public.melds[0].owner == 0
    play(s, "discard 4D")
    assert s.is_over and s.public.went_out == 1
    # Seat 0: QC QD QH (30) - 2S 4C (6); seat 1: the QS it laid off (10); seat 2: -(10 + 5 + 6).
    assert s.round_scores() == [24, 10, -21]


def test_meld_ids_count_in_the_order_melds_are_laid_whoever_laid_them():
    s = deal(["AS 2S 3S 9C 9D 9H KC", "7D 8D 9S TD 5C 5D 5H"], stock="QD QH QS JD", discard="TC")
    play(s, "draw", "meld 9C 9D 9H", "meld AS 2S 3S", "discard QD")
    play(s, "draw", "meld 5C 5D 5H", "layoff 9S on 0", "discard QH")
    assert [(m.id, m.owner) for m in s.public.melds] == [(0, 0), (1, 0), (2, 1)]
    assert [str(c) for c in s.public.melds[2].cards] == ["5C", "5D", "5H"]


def test_laying_off_on_a_meld_that_does_not_exist_is_refused():
    s = deal(["AS 2S 3S 4S 9C", "7D 8D"], stock="QD", discard="TC")
    play(s, "draw", "meld AS 2S 3S")
    assert "no meld 3" in refused(s, "layoff 4S on 3")
    assert "do not hold" in refused(s, "layoff 5S on 0")
