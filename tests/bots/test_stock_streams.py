"""Stock streams (``sync_stock``): in a guess, every seat draws its own stock cards, whatever the others do."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from types import SimpleNamespace

import pytest

from rummy500.actions import Discard, Draw, Take
from rummy500.bots import make_bot
from rummy500.bots.hard import HardBot, _Streams, stock_streams
from rummy500.cards import Card, parse_card
from rummy500.rules import Rules
from rummy500.state import RoundState

# Seat 0 to draw: the stock (QD on top) or the 9C on the pile.
DRAW = "dealer=1 to_move=0 phase=draw discard=TC.9C hands=KS.3D.9H.9S.QH|4C.4D.4S.KD.JH.8C.2S stock=QD.7S.5C.8H"


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split(".")]


def test_the_stock_is_dealt_into_streams_in_turn_order_from_the_seat_due_to_draw() -> None:
    state = RoundState.from_position(Rules(), DRAW)

    def dealt() -> list[list[Card]]:
        return [[state.stock[place] for place in stream] for stream in stock_streams(state)]

    assert dealt() == [cards("QD.5C"), cards("7S.8H")]
    state.apply(Take(1), 0)  # seat 0 has drawn: seat 1 draws next
    assert dealt() == [cards("7S.8H"), cards("QD.5C")]


def _turn(state: RoundState, synced: _Streams | None, seat: int, draw: Draw | Take) -> Card:
    """Seat ``seat`` draws (arranged by ``synced``), throws its last card; return the card drawn or taken last."""
    if synced is not None and isinstance(draw, Draw):
        synced.arrange(seat)
    state.apply(draw, seat)
    got = state.hands[seat][-1]
    throw = next(a for a in state.legal_actions(seat) if isinstance(a, Discard) and a.cards[0] != got)
    state.apply(throw, seat)
    return got


def test_a_seat_draws_its_own_stream_cards_whoever_drew_before_it() -> None:
    """Seat 0 takes from the pile in one line of play, from the stock in the other: seat 1 draws the 7S in both."""
    world = RoundState.from_position(Rules(), DRAW)
    streams = stock_streams(world)
    drawn = {}
    for first in (Draw(), Take(1)):
        state = world.copy()
        synced = _Streams(state, streams, make_bot("medium", 1))
        _turn(state, synced, 0, first)
        drawn[str(first)] = _turn(state, synced, 1, Draw())
    assert drawn == {"draw": parse_card("7S"), "take 1": parse_card("7S")}
    # Without the streams, seat 1 gets the top card: the 7S after seat 0 drew, the QD after it took.
    plain = world.copy()
    _turn(plain, None, 0, Take(1))
    assert _turn(plain, None, 1, Draw()) == parse_card("QD")


@pytest.mark.parametrize("pack", ["AS.2S.3H.4D.5C", "AS.AS.3H.JK.JK"])
def test_every_order_of_draws_is_as_likely_as_with_a_shuffled_stock(pack: str) -> None:
    """Over every order of a five-card stock, the cards come out in every order as often as they were stacked.

    Which seat draws next, and whether it draws one card or two, depends on
    the cards drawn so far (as play does), so a stream is read from places
    picked by what was seen: each sequence of cards drawn is still exactly as
    likely as from a plain shuffled stock, with two packs (a card twice, two
    jokers) too.
    """
    deck = cards(pack)
    seen: Counter[tuple[Card, ...]] = Counter()
    for order in itertools.permutations(deck):
        stock = list(reversed(order))  # bottom first, as the engine keeps it: the top is order[0]
        streams = [[4, 2, 0], [3, 1]]  # places in ``stock``: seat 0 has the top card, the third and the fifth
        synced = _Streams(SimpleNamespace(stock=stock), streams, make_bot("medium", 1))  # type: ignore[arg-type]
        out: list[Card] = []
        seat = 0
        while stock:
            synced.arrange(seat)
            out.append(stock.pop())
            if out[-1].rank == 3 and stock:
                out.append(stock.pop())  # a draw of two cards: the second from the top as it lies
            seat = 1 if out[-1].rank % 2 else 0  # an odd card gives the next draw to seat 1
        seen[tuple(out)] += 1
    assert seen == Counter(itertools.permutations(deck))


def test_after_a_reshuffle_every_seat_draws_the_top_card() -> None:
    table = SimpleNamespace(stock=cards("5C.4D.3H"))
    synced = _Streams(table, [[0], [1, 2]], make_bot("medium", 1))  # type: ignore[arg-type]
    synced.arrange(0)
    assert table.stock == cards("3H.4D.5C")  # the 5C of seat 0's stream on top
    table.stock.pop()
    table.stock = cards("QD.KH")  # the pile shuffled into a new stock
    synced.arrange(1)
    assert table.stock == cards("QD.KH")


def test_a_synced_search_plays_legal_moves_and_uses_its_playouts() -> None:
    state = RoundState.from_position(Rules(), DRAW)
    view = state.view(0)
    bot = HardBot(1, iterations=12, margin=100.0, horizon=4, sync_stock=True)
    action = bot.act(view, random.Random(2))
    assert action in view.legal
    assert bot.last_stats["playouts"] >= 12
