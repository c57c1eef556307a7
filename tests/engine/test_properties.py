"""Hypothesis properties of meld validation and scoring under the standard rules."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummy500 import Rules
from rummy500.cards import JOKER, Card, card, declared, natural_cards
from rummy500.melds import MeldError, extend_meld, find_layoffs, find_melds, make_meld
from rummy500.scoring import card_value, hand_value, score_round

from . import oracle
from .helpers import standard

RULES = standard(2)
TWO_PACKS = standard(5)
CORNER = standard(2, around_the_corner=True)

suits = st.integers(0, 3)
naturals = st.sampled_from(natural_cards())


def _card(suit: int, rank: int) -> Card:
    return card(suit * 16 + rank)


def _run_cards(suit: int, start: int, length: int) -> list[Card]:
    """Cards of a run over positions start..start+length-1 (14 is the high ace)."""
    return [_card(suit, 1 if p == 14 else p) for p in range(start, start + length)]


@st.composite
def runs(draw: st.DrawFn) -> list[Card]:
    suit = draw(suits)
    length = draw(st.integers(3, 13))
    start = draw(st.integers(1, 14 - length + 1))
    cards = _run_cards(suit, start, length)
    return draw(st.permutations(cards))


@st.composite
def sets(draw: st.DrawFn) -> list[Card]:
    rank = draw(st.integers(1, 13))
    chosen = draw(st.lists(suits, min_size=3, max_size=4, unique=True))
    return [_card(s, rank) for s in chosen]


def _valid(cards: list[Card] | tuple[Card, ...], rules: Rules = RULES) -> bool:
    try:
        make_meld(cards, rules, 0, 0)
    except MeldError:
        return False
    return True


# ------------------------------------------------------------------ runs


@settings(deadline=None)
@given(runs())
def test_any_three_or_more_consecutive_cards_of_one_suit_are_a_run_in_any_order(cards):
    meld = make_meld(cards, RULES, 0, 0)
    assert meld.kind == "run"
    assert sorted(meld.cards) == sorted(cards)
    assert list(meld.positions) == list(range(meld.positions[0], meld.positions[0] + len(cards)))
    assert make_meld(list(reversed(cards)), RULES, 0, 0).cards == meld.cards
    assert oracle.is_meld(tuple(cards))


@settings(deadline=None)
@given(runs(), st.data())
def test_a_duplicate_rank_breaks_a_run(cards, data):
    extra = data.draw(st.sampled_from(cards))
    # Two packs hold a second copy; a joker may also be declared as a card already there.
    assert not _valid(cards + [extra], TWO_PACKS)
    assert not _valid(cards + [declared(extra)], RULES)


@settings(deadline=None)
@given(suits, st.integers(4, 12), st.data())
def test_a_gap_breaks_a_run(suit, length, data):
    # (A..K without a middle card is still a run, ace high: so at most 12 cards.)
    start = data.draw(st.integers(1, 14 - length + 1))
    cards = _run_cards(suit, start, length)
    gap = data.draw(st.integers(1, length - 2))  # not an end card
    assert not _valid(cards[:gap] + cards[gap + 1 :])


@settings(deadline=None)
@given(suits, st.integers(3, 12), st.data())
def test_around_the_corner_is_refused_by_default_and_accepted_with_the_option(suit, length, data):
    # A window of positions holding K, A and 2 (13, 14, 15) wraps around the corner.
    start = data.draw(st.integers(max(1, 15 - length + 1), 13))
    cards = [_card(suit, (p - 1) % 13 + 1) for p in range(start, start + length)]
    message = ""
    try:
        make_meld(cards, RULES, 0, 0)
    except MeldError as exc:
        message = str(exc)
    assert message, "K A 2 is not a run"
    assert _valid(cards, CORNER)


@settings(deadline=None)
@given(runs(), st.data())
def test_jokers_may_replace_all_but_two_natural_cards_of_a_run(cards, data):
    k = data.draw(st.integers(0, len(cards)))
    replaced = data.draw(st.permutations(cards))[:k]
    mixed = [declared(c) if c in replaced else c for c in cards]
    assert _valid(mixed) == (len(cards) - k >= 2)


# ------------------------------------------------------------------ sets


@settings(deadline=None)
@given(sets())
def test_three_or_four_cards_of_one_rank_in_different_suits_are_a_set(cards):
    meld = make_meld(cards, RULES, 0, 0)
    assert meld.kind == "set" and sorted(meld.cards) == sorted(cards)
    assert oracle.is_meld(tuple(cards))


@settings(deadline=None)
@given(sets(), st.data())
def test_a_repeated_suit_breaks_a_set(cards, data):
    again = data.draw(st.sampled_from(cards))
    assert not _valid(cards + [again], TWO_PACKS)
    assert not _valid(cards + [declared(again)])


@settings(deadline=None)
@given(st.integers(1, 13), st.permutations(range(4)), st.integers(0, 4), st.integers(0, 4))
def test_a_set_may_hold_jokers_for_missing_suits_while_two_cards_are_natural(rank, suit_order, n_nat, k):
    assume(n_nat + k <= 4)
    nat = [_card(s, rank) for s in suit_order[:n_nat]]
    jokers = [declared(_card(s, rank)) for s in suit_order[n_nat : n_nat + k]]
    assert _valid(nat + jokers) == (n_nat >= 2 and n_nat + k >= 3)


@settings(deadline=None)
@given(st.lists(naturals, min_size=1, max_size=6, unique=True))
def test_validation_agrees_with_the_definition(cards):
    assert _valid(cards) == oracle.is_meld(tuple(cards))


@given(st.lists(naturals, min_size=1, max_size=8, unique=True), st.integers(0, 2))
@settings(max_examples=150, deadline=None)
def test_find_melds_lists_exactly_the_valid_melds_of_a_hand(hand, jokers):
    held = hand + [JOKER] * jokers
    found = set(find_melds(held, RULES))
    for m in found:
        assert _valid(m), m
    # The oracle tries every subset of the hand, each joker as every card it could stand for.
    expected = {p[0] for p in oracle.plays(tuple(sorted(held)), ()) if p[0].startswith("meld")}
    assert {"meld " + " ".join(map(str, m)) for m in found} == expected


@settings(max_examples=150, deadline=None)
@given(st.one_of(runs(), sets()), st.data(), st.integers(0, 2))
def test_find_layoffs_lists_exactly_the_valid_lay_offs_of_a_hand(cards, data, jokers):
    k = data.draw(st.integers(0, len(cards) - 2))
    swapped = set(data.draw(st.permutations(cards))[:k])
    meld = make_meld([declared(c) if c in swapped else c for c in cards], RULES, 0, 0)
    rest = [c for c in natural_cards() if c not in cards]
    hand = data.draw(st.lists(st.sampled_from(rest), max_size=6, unique=True)) + [JOKER] * jokers
    found = {"layoff " + " ".join(map(str, x)) + " on 0" for x in find_layoffs(meld, hand, RULES)}
    expected = {p[0] for p in oracle.plays(tuple(sorted(hand)), (meld.cards,)) if p[0].startswith("layoff")}
    assert found == expected


@settings(deadline=None)
@given(runs(), st.lists(naturals, min_size=1, max_size=4, unique=True))
def test_extend_meld_agrees_with_the_definition(cards, new):
    assume(not set(new) & set(cards))
    meld = make_meld(cards, RULES, 0, 0)
    try:
        grown = extend_meld(meld, new, RULES, 1)
        ok = True
    except MeldError:
        ok = False
    assert ok == oracle.extends(tuple(meld.cards), tuple(new))
    if ok:
        assert grown.id == meld.id and len(grown.cards) == len(cards) + len(new)
        assert grown.laid_by.count(1) == len(new)
        assert tuple(sorted(new)) in {tuple(sorted(x)) for x in find_layoffs(meld, new, RULES)}


# --------------------------------------------------------------- scoring


def _plain(c: Card) -> int:
    if c.is_joker:
        return 15
    return 15 if c.rank == 1 else 10 if c.rank >= 10 else c.rank


hands = st.lists(st.sampled_from(natural_cards() + [JOKER]), max_size=13)


@settings(deadline=None)
@given(hands, hands)
def test_hand_values_add_up_card_by_card(a, b):
    assert hand_value(a, RULES) == sum(_plain(c) for c in a)
    assert hand_value(a + b, RULES) == hand_value(a, RULES) + hand_value(b, RULES)


@settings(deadline=None)
@given(st.lists(hands, min_size=2, max_size=8))
def test_an_empty_table_scores_minus_the_hands(all_hands):
    rules = standard(len(all_hands))
    result = score_round(rules, [], all_hands, None)
    assert result.round_scores == [-sum(_plain(c) for c in h) for h in all_hands]
    assert result.table_points == [0] * len(all_hands)


@settings(deadline=None)
@given(st.lists(st.one_of(runs(), sets()), min_size=1, max_size=4), st.data())
def test_a_round_scores_table_points_minus_hand_points_and_conserves_card_values(melds, data):
    used: set[Card] = set()
    table = []
    for cards in melds:
        if used & set(cards):
            continue
        used |= set(cards)
        seat = data.draw(st.integers(0, 2))
        table.append(make_meld(cards, RULES, len(table), seat))
    rest = [c for c in natural_cards() if c not in used]
    hand_cards = data.draw(st.lists(st.sampled_from(rest), max_size=10, unique=True))
    split = data.draw(st.integers(0, len(hand_cards)))
    hands3 = [hand_cards[:split], hand_cards[split:], []]
    result = score_round(standard(3), table, hands3, 2)
    assert result.round_scores == [t - h for t, h in zip(result.table_points, result.hand_points, strict=True)]
    # Every card on the table is counted once, for the seat that laid it; the low ace of a run counts 1.
    per_card = 0
    for m in table:
        for i, c in enumerate(m.cards):
            per_card += 1 if (m.kind == "run" and m.positions[i] == 1) else _plain(c)
    assert sum(result.table_points) == per_card
    assert sum(result.round_scores) == per_card - sum(_plain(c) for c in hand_cards)


@settings(deadline=None)
@given(naturals)
def test_card_values_on_the_table_and_in_hand(c):
    assert card_value(c, RULES, in_hand=True) == _plain(c)
    assert card_value(c, RULES, in_hand=False, low=c.rank == 1) == (1 if c.rank == 1 else _plain(c))
    assert card_value(declared(c), RULES, in_hand=False) == 15
