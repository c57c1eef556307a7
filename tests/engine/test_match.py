"""RULES.md Part 1, the match: dealer rotation, running totals, the 500 target, ties play on, the winner."""

from __future__ import annotations

import random

import pytest

from rummy500 import IllegalAction, Match, RoundState, parse_action

from .helpers import cards, standard


def _start(match: Match, dealer: int, hands: list[str], stock: str, discard: str) -> None:
    match.start_round(
        RoundState.from_deal(match.rules, dealer, [cards(h) for h in hands], cards(stock), cards(discard))
    )


def _play(match: Match, *moves: str, auto: bool = True) -> None:
    for move in moves:
        state = match.state
        assert state is not None
        match.apply(state.public.to_move, parse_action(move), auto=auto)


def _random_round(match: Match, rng: random.Random) -> None:
    state = match.state
    assert state is not None
    while state is match.state and not match.is_over:
        seat = state.public.to_move
        match.apply(seat, rng.choice(state.legal_actions(seat)))


def test_round_scores_add_to_the_running_totals_and_the_next_round_is_dealt_by_the_left_player():
    match = Match(standard(2), scores=[100, 50], seed=5, deal=False)
    _start(match, 1, ["AS 2S 3S", "4H 5H 6H 9C"], "QD 7S", "TC")
    _play(match, "draw", "meld AS 2S 3S", "discard QD")
    assert match.totals == [106, 26]
    assert match.winner is None and not match.is_over
    assert len(match.rounds) == 2
    assert match.rounds[0].round_scores == [6, -24] and match.rounds[0].went_out == 0
    state = match.state
    assert state is not None and not state.is_over
    assert state.public.dealer == 0 and state.public.to_move == 1  # the dealer moved one seat left
    assert [len(h) for h in state.hands] == [13, 13]


def test_the_dealer_rotates_clockwise_every_round():
    rng = random.Random(11)
    match = Match(standard(3), seed=11)
    for _ in range(4):
        _random_round(match, rng)
    dealers = [r.dealer for r in match.rounds]
    assert len(dealers) == 5
    assert all(b == (a + 1) % 3 for a, b in zip(dealers, dealers[1:], strict=False))


def test_the_game_ends_when_a_total_reaches_500_and_the_highest_total_wins():
    match = Match(standard(2), scores=[494, 300], seed=1, deal=False)
    _start(match, 1, ["AS 2S 3S", "4H 5H 6H 9C"], "QD 7S", "TC")
    _play(match, "draw", "meld AS 2S 3S", "discard QD")
    assert match.totals == [500, 276]
    assert match.is_over and match.winner == 0
    assert match.legal_actions() == []
    with pytest.raises(IllegalAction):
        match.apply(1, parse_action("draw"))


def test_the_highest_total_wins_even_if_another_player_made_500_this_round():
    match = Match(standard(2), scores=[495, 560], seed=1, deal=False)
    _start(match, 1, ["AS 2S 3S", "4H 5H 6H 9C"], "QD 7S", "TC")
    _play(match, "draw", "meld AS 2S 3S", "discard QD")
    assert match.totals == [501, 536]
    assert match.winner == 1


def test_below_500_the_game_goes_on():
    match = Match(standard(2), scores=[490, 0], seed=1, deal=False)
    _start(match, 1, ["AS 2S 3S", "4H 5H 6H 9C"], "QD 7S", "TC")
    _play(match, "draw", "meld AS 2S 3S", "discard QD")
    assert match.totals == [496, -24] and match.winner is None
    assert match.state is not None and not match.state.is_over


def test_a_tie_for_the_highest_total_plays_another_round_until_it_is_broken():
    match = Match(standard(2), scores=[494, 524], seed=1, deal=False)
    _start(match, 1, ["AS 2S 3S", "4H 5H 6H 9C"], "QD 7S", "TC")
    _play(match, "draw", "meld AS 2S 3S", "discard QD", auto=False)
    assert match.totals == [500, 500]
    assert match.winner is None and not match.is_over
    assert match.next_dealer() == 0
    _start(match, 0, ["KC 9D", "7H 8H 9H"], "2C 3C", "TC")
    _play(match, "draw", "meld 7H 8H 9H", "discard 2C")
    assert match.totals == [500 - 19, 500 + 24]
    assert match.winner == 1


def test_the_tie_break_round_decides_even_when_it_leaves_everyone_under_500():
    # RULES.md Part 1: the game ended tied at 500, so "another round is played until the tie is
    # broken". Nobody goes out in it (the stock runs out); seat 1 is caught with less.
    match = Match(standard(2), scores=[494, 524], seed=1, deal=False)
    _start(match, 1, ["AS 2S 3S", "4H 5H 6H 9C"], "QD 7S", "TC")
    _play(match, "draw", "meld AS 2S 3S", "discard QD", auto=False)
    assert match.totals == [500, 500] and match.tie_break and not match.is_over
    _start(match, 0, ["KC 9D", "QS 4C"], "2C 3C", "TC")
    _play(match, "draw", "discard 2C", "draw", "discard 3C", "pass")
    assert match.rounds[1].round_scores == [-19, -14]
    assert match.totals == [481, 486]
    assert match.winner == 1  # under the target, but the tie is broken


def test_a_tie_break_round_that_ties_again_plays_one_more():
    match = Match(standard(2), scores=[494, 524], seed=1, deal=False)
    _start(match, 1, ["AS 2S 3S", "4H 5H 6H 9C"], "QD 7S", "TC")
    _play(match, "draw", "meld AS 2S 3S", "discard QD", auto=False)
    _start(match, 0, ["KC 4D", "QS 4C"], "2C 3C", "TC")
    _play(match, "draw", "discard 2C", "draw", "discard 3C", "pass", auto=False)
    assert match.totals == [486, 486] and not match.is_over
    copy = match.copy()
    assert copy.tie_break and not copy.is_over  # a copy knows the game is in its tie-break


def test_a_three_way_game_crowns_the_single_highest_total():
    match = Match(standard(3), scores=[480, 500, 510], seed=2, deal=False)
    _start(match, 2, ["AS 2S 3S", "KC", "QC"], "4D 5D", "TC")
    _play(match, "draw", "meld AS 2S 3S", "discard 4D")
    assert match.totals == [486, 490, 500]
    assert match.winner == 2


def test_match_views_carry_the_totals():
    match = Match(standard(2), scores=[12, 34], seed=3)
    view = match.view(0).to_dict()
    assert view["scores"] == [12, 34]
    assert view["seat"] == 0 and len(view["hand"]) == 13


@pytest.mark.parametrize("preset", ["standard", "popular"])
def test_a_copy_plays_on_like_the_match_and_apart_from_it(preset: str):
    from rummy500 import Rules

    match = Match(Rules.preset_rules(preset, players=3), seed=11)
    rng = random.Random(4)
    _random_round(match, rng)  # a round played: the copy carries its log and the totals
    state = match.state
    assert state is not None
    for _ in range(7):
        match.apply(state.public.to_move, rng.choice(state.legal_actions(state.public.to_move)))
    before = match.record()
    copy = match.copy()
    assert copy.record() == before
    # the copy plays on (the rest of this round, the next deal from its copy of the random source) ...
    moves_rng = random.Random(9)
    _random_round(copy, moves_rng)
    _random_round(copy, moves_rng)
    # ... and leaves the match as it was
    assert match.record() == before
    assert match.totals != copy.totals and len(copy.rounds) == len(match.rounds) + 2
    # the match, played the same way, gives the same game
    moves_rng = random.Random(9)
    _random_round(match, moves_rng)
    _random_round(match, moves_rng)
    assert match.record() == copy.record()
