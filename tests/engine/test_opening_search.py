"""first_meld_min: the search for an opening finds every set of melds, however many it takes.

The engine asks whether new melds from a hand can make a number of points
(``RoundState._can_reach``: a search that remembers what it answered and cuts
hands that cannot score enough). Here it is compared with plain enumeration of
every set of melds that fit in the hand together, on seeded random hands rich
in melds, with and without a joker, and with a card that must stay in hand.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummy500.cards import JOKER, parse_cards
from rummy500.melds import MeldError, find_melds, make_meld
from rummy500.scoring import new_meld_points

from .helpers import deal

POOL = parse_cards("2H 3H 4H 5H 6H 7H 8H 9H 5C 5D 5S 6C 6D 6S KC KD KS KH AH AS AC QH JH TH")


def _most_points(hand: list, rules, keep: int) -> int:
    """The most points of disjoint melds of ``hand`` leaving ``keep`` cards, by trying every set."""
    melds = []
    for cards in find_melds(hand, rules, 0):
        try:
            melds.append((Counter(JOKER if c >= 64 else c for c in cards), new_meld_points(make_meld(cards, rules, 0, 0), rules)))
        except MeldError:
            continue

    def go(i: int, left: Counter, size: int) -> int:
        best = 0
        for j in range(i, len(melds)):
            counts, pts = melds[j]
            if all(left[c] >= n for c, n in counts.items()) and size - sum(counts.values()) >= keep:
                best = max(best, pts + go(j + 1, left - counts, size - sum(counts.values())))
        return best

    return go(0, Counter(hand), len(hand))


@pytest.mark.parametrize(("seed", "joker", "going_out"), [(1, False, "any"), (2, True, "any"), (3, False, "discard_required"), (4, True, "discard_required")])
def test_the_opening_search_agrees_with_trying_every_set_of_melds(seed, joker, going_out):
    rng = random.Random(seed)
    checked = 0
    for _ in range(25):
        hand = rng.sample(POOL, rng.randint(6, 11)) + ([JOKER] if joker else [])
        state = deal([" ".join(map(str, hand)), "2C 3C"], stock="9C", discard="8D", first_meld_min=30, going_out=going_out)
        keep = 1 if going_out == "discard_required" else 0
        most = _most_points(list(hand), state.rules, keep)
        for need in (1, 15, 30, most - 1, most, most + 1, 120):
            assert state._can_reach(0, list(hand), need) is (most >= need), (hand, need, most)
            checked += 1
    assert checked == 25 * 7


@pytest.mark.parametrize("seed", [5, 6])
def test_the_search_answers_every_need_in_any_order_from_what_it_remembers(seed):
    """The search keeps, per part of a hand, the most points known reachable and the fewest known out of reach.

    Asked about one hand for many needs in a random order (each answer may come
    from what an earlier one left), it still agrees with trying every set of melds.
    """
    rng = random.Random(seed)
    for _ in range(15):
        hand = rng.sample(POOL, rng.randint(9, 14)) + ([JOKER] if rng.random() < 0.5 else [])
        state = deal([" ".join(map(str, hand)), "2C 3C"], stock="9C", discard="8D", first_meld_min=30)
        most = _most_points(list(hand), state.rules, 0)
        needs = [*range(max(1, most - 12), most + 12), 1, 300]
        rng.shuffle(needs)
        for need in needs + needs[::-1]:
            assert state._can_reach(0, list(hand), need) is (most >= need), (hand, need, most)
