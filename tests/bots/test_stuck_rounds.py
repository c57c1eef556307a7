"""Rounds that must end: the stock spent under ``stock_out`` reshuffle / play_on, and Rummy calls that go out.

The positions are those of the bot audit (December 2026): four medium bots kept
a ``play_on`` round going to the 1,500-turn safety stop, each seat taking the
top card and throwing a card back for ever, and a medium bot declined a
Rummy call that let it go out at once.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rummy500 import Rules, parse_cards
from rummy500.actions import CallRummy, Decline, Discard
from rummy500.bots import make_bot
from rummy500.bots.heuristics import Analysis
from rummy500.drive import drive
from rummy500.melds import make_meld
from rummy500.public import Phase
from rummy500.state import RoundState

PLAY_ON = Rules.from_mapping({"players": 4, "stock_out": "play_on"})

# The table of the audit's play_on round (match seed 124005, round 5), with who laid each meld.
TABLE = [
    ("8C JK=9C TC JC QC KC JK=AC", 0),
    ("9C 9D 9S 9H", 2),
    ("TH JH QH KH AH", 3),
    ("7C 7D 7H 7S", 3),
    ("2H 3H 4H 5H 6H", 3),
    ("2C 2D 2S", 0),
    ("TS JS QS KS AS", 0),
    ("TD JD QD KD AD", 1),
    ("6C 6D 6S", 0),
    ("3D 4D 5D", 1),
    ("3C 4C 5C", 1),
]


def _spent(hands: list[str], pile: str, *, to_move: int, phase: Phase, taken: str | None = None) -> RoundState:
    """A 4-player ``play_on`` round on :data:`TABLE` with the stock run out (seat 1 drew its last card)."""
    state = RoundState.from_deal(PLAY_ON, 0, [parse_cards(h) for h in hands], [], parse_cards(pile))
    melds = tuple(make_meld(parse_cards(cards), PLAY_ON, i, owner) for i, (cards, owner) in enumerate(TABLE))
    top = parse_cards(taken)[0] if taken else None
    public = replace(
        state.public,
        melds=melds,
        to_move=to_move,
        phase=phase,
        drew_last_card=1,
        turns=53,
        taken_top=top,
        drawn=1 if top is not None else 0,
        opened=(True,) * 4,
        has_melded=(True,) * 4,
    )
    return RoundState.from_parts(PLAY_ON, public, state.hands, [])


def test_with_the_stock_spent_medium_keeps_the_pair_that_is_its_way_out() -> None:
    # Seat 2 holds two cards and took the eight of diamonds: 8D 8S wait for the 8H going round
    # (seat 0 holds it), the only meld left for it. Before the fix it threw the 8S, the card of
    # highest value, because an opponent at two cards or fewer made the risk of being caught 0.95
    # and the pair counted for a quarter of its worth; it always kept two unrelated cards.
    state = _spent(["8H", "4S", "3S 8S 8D", "5S"], "AC", to_move=2, phase=Phase.PLAY, taken="8D")
    view = state.view(2)
    assert set(view.legal) == {Discard(tuple(parse_cards("3S"))), Discard(tuple(parse_cards("8S")))}
    for level in ("easy", "medium"):
        assert make_bot(level, 1).act(view, random.Random(0)) == Discard(tuple(parse_cards("3S"))), level
    assert Analysis(view).recycling


def test_the_endgame_valuation_waits_for_the_stock_to_run_out() -> None:
    # The same hand while the stock lasts: the usual valuation (nothing changed there).
    state = _spent(["8H", "4S", "3S 8S 8D", "5S"], "AC", to_move=2, phase=Phase.PLAY, taken="8D")
    public = replace(state.public, drew_last_card=None)
    fresh = RoundState.from_parts(PLAY_ON, public, state.hands, parse_cards("KS"))
    assert not Analysis(fresh.view(2)).recycling


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_play_on_round_with_the_stock_spent_ends(level: str, seed: int) -> None:
    # Seat 2 to draw with 3S 8S; the live cards are 3S 4S 5S and 8D 8H 8S, two melds going round.
    # The old medium and easy played this to the safety stop; now someone melds out.
    state = _spent(["8H", "8D", "3S 8S", "5S 4S"], "AC", to_move=2, phase=Phase.DRAW)
    start = state.public.turns
    bots = [make_bot(level, seed * 10 + s) for s in range(4)]
    drive(state, bots, random.Random(seed), until=lambda: state.public.turns - start >= 300)
    assert state.is_over
    assert state.public.went_out is not None
    assert state.public.turns - start < 200


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_four_seats_of_one_level_finish_reshuffled_rounds(level: str) -> None:
    # Ten cards each at four players: the stock runs out in a fair share of the rounds. None may
    # reach the 1,500-turn safety stop (the audit saw 15 in 300 rounds of medium, 6 of easy).
    from rummy500.match import Match
    from rummy500.state import MAX_TURNS, DecisionKind

    rules = Rules.from_mapping({"players": 4, "hand_size": 10, "stock_out": "reshuffle"})
    longest = 0
    for game in (1, 7, 8):  # games whose rounds looped before the fix (harness seeds 64001, 64007, 64008)
        match = Match(rules, seed=64000 + game)
        bots = [make_bot(level, seed=(64000 + game) * 10 + s) for s in range(4)]
        rng = random.Random(64000 + game)
        for _ in range(20000):
            if match.is_over or match.round_index > 5:
                break
            d = match.decision()
            assert d is not None and match.state is not None
            if d.kind is DecisionKind.CHANCE:
                match.continue_play()
                continue
            longest = max(longest, match.state.public.turns)
            seat = d.seat
            assert seat is not None
            act = bots[seat].act(match.view(seat), rng)
            match.apply(seat, act if act is not None else Decline())
    assert longest < MAX_TURNS - 2


# ------------------------------------------------------------------ Rummy calls that go out

CALL_RULES = Rules.from_mapping({"players": 4, "calling_rummy": "pile"})

# The audit's call (match seed 705001, round 2, turn 26): seat 3 threw the 2H, seat 1 declined
# to call; seat 2 holds only the 2S, the 2H lays off on the run of hearts.
CALL = (
    "dealer=2 to_move=0 phase=draw discard=5C.9C.2H "
    "melds=run:3H.4H.5H.6H.7H.8H.9H:2.2.2.2.3.1.2:3.4.5.6.7.8.9:2:0:3:2:1000000:0:0;"
    "run:4D.5D.6D.7D.JK=8D.9D.TD:3.0.1.0.0.0.2:4.5.6.7.8.9.10:1:0:3:0:0100000:0:0;"
    "set:QC.QD.QH:3.3.3:-:-1:12:3:3:000:0:0;set:AC.AD.AS:2.2.2:-:-1:1:3:2:000:0:0;"
    "set:JC.JH.JS:0.0.0:-:-1:11:3:0:000:0:0 "
    "known=2D.8S|-|-|6C.8D.TH opened=1111 has_melded=1011 last_discarder=3 turns=26 declined=1 "
    "hands={} stock=7C.JD.QS.2C.9S.KH.JK.3C.AH.4S.KC.TS"
)


def test_medium_calls_rummy_when_the_call_lets_it_go_out() -> None:
    # Calling, laying off the 2H and throwing the 2S goes out and catches three hands of five
    # cards. Medium used to count only the 2 points laid and declined (3.3 < its threshold 4).
    state = RoundState.from_position(CALL_RULES, CALL.format("4C.TC.2D.8S.5S|3D.7S.6S.3S.8C|2S|KS.TH.8D.6C.KD"))
    view = state.view(2)
    assert set(view.legal) == {CallRummy(1), Decline()}
    assert Analysis(view).goes_out_with(1)
    for level in ("easy", "medium", "hard"):
        assert make_bot(level, 1).act(view, random.Random(0)) == CallRummy(1), level
    # Played on, the call goes out.
    state.apply(CallRummy(1), 2)
    bot = make_bot("medium", 2)
    while not state.is_over and state.public.to_move == 2:
        act = bot.act(state.view(2), random.Random(0))
        assert act is not None
        state.apply(act, 2)
    assert state.public.went_out == 2


def test_a_call_that_does_not_go_out_is_still_weighed_by_its_points() -> None:
    # With the KD in hand too the call no longer goes out: the points decide, and it declines.
    state = RoundState.from_position(CALL_RULES, CALL.format("4C.TC.2D.8S.5S|3D.7S.6S.3S.8C|2S.KD|KS.TH.8D.6C"))
    view = state.view(2)
    assert CallRummy(1) in view.legal
    assert not Analysis(view).goes_out_with(1)
    assert make_bot("medium", 1).act(view, random.Random(0)) == Decline()
