"""The heuristics in situations a player recognises."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy500 import Rules, parse_cards
from rummy500.actions import Discard, Draw, Meld, Take
from rummy500.bots import make_bot
from rummy500.bots.heuristics import Analysis, Planner, card_outs, hand_masks
from rummy500.cards import JOKER, Card
from rummy500.state import RoundState


def _state(hand0: str, hand1: str, stock: str, pile: str, rules: Rules | None = None) -> RoundState:
    rules = rules or Rules.from_mapping({})
    return RoundState.from_deal(rules, 1, [parse_cards(hand0), parse_cards(hand1)], parse_cards(stock), parse_cards(pile))


def test_planner_picks_the_richer_of_two_overlapping_melds() -> None:
    rules = Rules.from_mapping({})
    pts, plan = Planner(rules, [], 0).best(parse_cards("5H 6H 7H 7C 7D 2S"))
    assert pts == 21  # the three sevens beat 5-6-7 of hearts (18)
    assert [sorted(map(str, g.cards)) for g in plan] == [["7C", "7D", "7H"]]


def test_planner_combines_melds_and_layoffs() -> None:
    state = _state("8H 9H TH 3C 3D 3S JH", "KS QS JS 2D 5C 6C 7C", "AS 2S", "9C")
    state.apply(Draw(), 0)
    state.apply(Meld(tuple(parse_cards("8H 9H TH"))), 0)
    pts, plan = Analysis(state.view(0)).base()
    # 3C 3D 3S (9) and the JH laid off on meld 0 (10); the drawn AS is loose.
    assert pts == 19
    assert sorted(g.on for g in plan if g.on is not None) == [0]


def test_medium_digs_for_a_card_that_completes_a_meld() -> None:
    # The 9D under two cards completes 9C 9S in hand; the stock card is unknown.
    state = _state("9C 9S 2C 4D 6H 8S KC QD JH 5S 3H 7C AD", "KS QS JS 2D 5C 6C 7D TH TC 3S 4C 5D 6S", "AH 2H 3D", "9D 8D 2S")
    view = state.view(0)
    act = make_bot("medium", 1).act(view, random.Random(1))
    assert act == Take(3)


def test_medium_goes_out_when_it_can() -> None:
    state = _state("5H 6H 7H 9C", "KS QS JS 2D 5C 6C 7D TH TC 3S 4C 5D 6S", "8H 2H 3D", "JD")
    bot = make_bot("medium", 1)
    rng = random.Random(0)
    for _ in range(4):
        if state.is_over:
            break
        view = state.view(0)
        state.apply(bot.act(view, rng), 0)
    assert state.is_over and state.public.went_out == 0


def test_medium_keeps_a_card_an_opponent_collects() -> None:
    def discard_after_drawing(known: list[str]) -> Discard:
        state = _state("7C 3D 2S", "7S 7D KS QS JS 2C 5C", "4H AH 2H", "TC")
        # Seat 1 was seen taking these from the pile.
        seen = replace(state.public, known=((), tuple(parse_cards(known))))
        state = RoundState.from_parts(state.rules, seen, state.hands, state.stock_top_first())
        state.apply(Draw(), 0)
        act = make_bot("medium", 1).act(state.view(0), random.Random(0))
        assert isinstance(act, Discard)
        return act

    # Nobody wants sevens: the seven is the costliest loose card, so it goes.
    assert discard_after_drawing([]) == Discard(tuple(parse_cards("7C")))
    # Seat 1 picked up two sevens: medium will not hand them a third.
    assert discard_after_drawing(["7S", "7D"]) != Discard(tuple(parse_cards("7C")))


def test_easy_sits_below_medium_in_a_short_match() -> None:
    from rummy500.sim.runner import run_games

    results = run_games(["medium", "easy"], Rules.from_mapping({"target": 300}), 6, seed=2)
    medium = sum(1 for r in results if r.entries[r.winners[0]] == 0)
    assert medium >= 4


#: Thirty decisions of four bots with the garbage collector off; prints what it then finds unreachable.
_CYCLES = """
import gc, random
from rummy500 import Rules
from rummy500.bots import make_bot
from rummy500.actions import Decline
from rummy500.match import Match

rules = Rules.from_mapping({"preset": "popular", "players": 4})
state = Match(rules, seed=1).state
bots = [make_bot(level, 1, **({"iterations": 4} if level == "hard" else {})) for level in ("hard", "easy", "medium", "medium")]
rng = random.Random(1)
gc.collect()
gc.disable()
for _ in range(30):
    decision = state.decision()
    if decision is None or decision.seat is None:
        break
    seat = decision.seat
    state.apply(bots[seat].act(state.view(seat), rng) or Decline(), seat)
print(gc.collect())
"""


def test_the_bots_leave_no_reference_cycles_behind() -> None:
    """A server runs many bots: what a decision allocates is freed by reference counting alone.

    (A cycle, such as an analysis holding itself through a bound method in its
    planner, waits for the garbage collector, whose young collections then
    stop the server's event loop for tens of milliseconds.) The decisions run
    in a fresh interpreter: the collector counts the whole process, and in the
    test worker the browser tests' in-process server and Chromium driver
    (session fixtures) may leave garbage of their own at any moment.
    """
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _CYCLES], capture_output=True, text=True, timeout=300, check=True)
    assert int(done.stdout.strip()) == 0


@settings(max_examples=200, deadline=None)
@given(
    cards=st.lists(st.integers(0, 52), min_size=1, max_size=14, unique=True),
    extra_jokers=st.integers(0, 2),
    two_packs=st.booleans(),
)
def test_a_cards_outs_do_not_depend_on_the_card_itself_being_in_the_hand(
    cards: list[int], extra_jokers: int, two_packs: bool
) -> None:
    """``keep_value`` passes the whole hand to ``card_outs``: the card's own copy must not count.

    The outs of a card are the other suits of its rank and the other ranks of
    its suit, so the card itself (or a second copy of it, with two packs) adds
    nothing; jokers in the hand match no rank or suit either.
    """
    pack = [Card(s * 16 + r) for s in range(4) for r in range(1, 14)] + [JOKER]
    hand = [pack[i] for i in cards] + [JOKER] * extra_jokers
    rules = Rules.from_mapping({"preset": "standard", "players": 2})
    live = {c: 1 for c in pack if c not in hand}
    if two_packs:
        live = {c: 2 for c in live}
    for c in hand:
        if c == JOKER:
            continue
        rest = list(hand)
        rest.remove(c)
        assert card_outs(c, hand, live, rules) == card_outs(c, rest, live, rules)
        assert card_outs(c, [*hand, c], live, rules) == card_outs(c, rest, live, rules)


def _outs_by_sets(c: Card, hand: list[Card], live: dict[Card, int], rules: Rules) -> float:
    """``card_outs`` as it was written before the hand became bit masks: the same sums in the same order."""
    rank, suit = c.rank, c.suit
    outs = 0.0
    same_rank = {h >> 4 for h in hand if h & 15 == rank and h >> 4 != suit}
    if same_rank:
        for s in range(4):
            if s != suit and s not in same_rank:
                outs += live.get(Card(s * 16 + rank), 0)
    else:
        outs += 0.15 * sum(live.get(Card(s * 16 + rank), 0) for s in range(4) if s != suit)
    ranks = {h & 15 for h in hand if h >> 4 == suit}
    top = 14 if rules.short_pack else 13

    def live_rank(r: int) -> int:
        r = 1 if r == 14 else r
        return live.get(Card(suit * 16 + r), 0) if 1 <= r <= 13 else 0

    for d in (1, 2):
        for nb in (rank - d, rank + d):
            if (1 if nb == 14 else nb) in ranks and 1 <= nb <= top + 1:
                if d == 1:
                    outs += live_rank(min(rank, nb) - 1) + live_rank(max(rank, nb) + 1)
                else:
                    outs += live_rank((rank + nb) // 2)
    if rank == 1:
        for nb, mid in ((13, None), (12, 13)):
            if nb in ranks:
                outs += live_rank(12) if mid is None else live_rank(mid)
    return outs


@given(
    cards=st.lists(st.integers(0, 52), min_size=1, max_size=14, unique=True),
    jokers=st.integers(0, 2),
    counts=st.lists(st.integers(0, 2), min_size=53, max_size=53),
    short_pack=st.booleans(),
)
def test_a_cards_outs_are_counted_alike_from_the_hand_or_its_masks(cards: list[int], jokers: int, counts: list[int], short_pack: bool) -> None:
    """``card_outs`` reads the hand as bit masks (:func:`hand_masks`, kept per analysis): the same outs as by sets of suits and ranks."""
    pack = [Card(s * 16 + r) for s in range(4) for r in range(1, 14)] + [JOKER]
    hand = [pack[i] for i in cards] + [JOKER] * jokers
    rules = Rules.from_mapping({"preset": "standard", "players": 2, "short_pack": short_pack})
    live = {c: n for c, n in zip(pack, counts, strict=True) if n}
    masks = hand_masks(hand)
    for c in hand:
        if c == JOKER:
            continue
        expected = _outs_by_sets(c, hand, live, rules)
        assert card_outs(c, hand, live, rules) == expected
        assert card_outs(c, hand, live, rules, masks) == expected


def test_a_pile_card_a_joker_bridges_to_a_table_run_is_worth_taking() -> None:
    """The ace of diamonds lays off on 9D-QD with the joker as the king: taking it must count.

    The card taken from the pile must be used (``must_use_taken: always``); the
    hand holds no diamond and no ace, so only the joker can bridge the gap.
    """
    rules = Rules.from_mapping({"must_use_taken": "always"})
    state = _state(
        "9D TD JD QD 5H JH TS KS JK 3C 4S", "AD 2C 6C 7C 8C 2H 3H 4H 5S 6S 7S", "8H 9S 9H", "9C", rules
    )
    state.apply(Draw(), 0)
    state.apply(Meld(tuple(parse_cards("9D TD JD QD"))), 0)
    state.apply(Discard(tuple(parse_cards("4S"))), 0)
    state.apply(Draw(), 1)
    state.apply(Discard(tuple(parse_cards("AD"))), 1)
    view = state.view(0)
    assert Take(1) in view.legal
    an = Analysis(view)
    assert an.take_value(1, must_use=True) > 0
    assert make_bot("medium", 1).act(view, random.Random(0)) == Take(1)


# The stock is spent (standard rules: the round ends when the player to move does not take).
# Seat 0 holds the two of clubs; the two of diamonds lies on top of the pile.
SPENT = "dealer=1 to_move=0 phase=draw discard=9C.2D hands={}|2H.7C.JD.4S stock=-"


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_with_the_stock_spent_a_card_that_cannot_be_laid_is_not_taken(level: str) -> None:
    # The two of diamonds would pair the two of clubs and sit next to the three of diamonds,
    # but makes no meld: it would go back on the pile, and the two players could pass it to and
    # fro for ever. The round ends instead.
    from rummy500.actions import Pass

    state = RoundState.from_position(Rules(), SPENT.format("2C.3D.9H"))
    view = state.view(0)
    assert set(view.legal) == {Take(1), Pass()}
    assert make_bot(level, 1).act(view, random.Random(1)) == Pass()
    # With a pair of twos the taken two makes a set: worth taking, and laid this turn.
    playable = RoundState.from_position(Rules(), SPENT.format("2C.2S.KS.9H.5D"))
    assert make_bot(level, 1).act(playable.view(0), random.Random(1)) == Take(1)
