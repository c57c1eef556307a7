"""``legal_actions()`` is exact: it lists every legal move and nothing else.

Hand-written positions pin the sets a player sees; seeded random small
positions are compared with an independent brute-force oracle
(``oracle.py``). Every listed action applies; other actions are refused with
the state unchanged.
"""

from __future__ import annotations

import random

import pytest

from rummy500 import (
    IllegalAction,
    RoundState,
    parse_action,
)
from rummy500.actions import CallRummy, Discard, Draw, Float, LayOff, Meld, Pass, Swap, Take
from rummy500.cards import JOKER, declared, natural_cards

from . import oracle
from .helpers import deal, legal, play, refused, snapshot, standard

# ------------------------------------------------------------ pinned sets


def test_a_draw_position_lists_exactly_the_take_depths_whose_obligation_can_be_met():
    # Pile bottom..top: 7C 2H KD 6S 9H. Hand 3H 4H 6C 6D KS.
    # take 1 (9H): may be kept. take 2 (6S): 6C 6D 6S. take 3 (KD): no K pair with... KS only: no.
    # take 4 (2H): 2H 3H 4H. take 5 (7C): nothing.
    s = deal(["3H 4H 6C 6D KS", "AC"], stock="QC", discard="7C 2H KD 6S 9H")
    assert legal(s) == {"draw", "take 1", "take 2", "take 4"}
    assert legal(s) == oracle.legal(s)
    for k in (3, 5):
        assert "deepest card" in refused(s, f"take {k}")


def test_the_king_becomes_usable_with_a_second_king_in_hand():
    s = deal(["3H 4H 6C 6D KS KC", "AC"], stock="QC", discard="7C 2H KD 6S 9H")
    assert legal(s) == {"draw", "take 1", "take 2", "take 3", "take 4"}
    assert legal(s) == oracle.legal(s)


def test_a_play_that_leaves_the_taken_top_card_is_allowed_when_that_card_can_be_laid_off_next():
    # Regression: melding 4H 5H 6H leaves the 7H just taken, which may not be discarded,
    # but can be laid off on the new run to go out.
    s = deal(["4H 5H 6H", "2C 3C 9D"], stock="KD", discard="7H")
    play(s, "take 1")
    assert legal(s) == {"meld 4H 5H 6H", "meld 5H 6H 7H", "meld 4H 5H 6H 7H", "discard 4H", "discard 5H", "discard 6H"}
    assert legal(s) == oracle.legal(s)
    play(s, "meld 4H 5H 6H")
    assert legal(s) == {"layoff 7H on 0"}
    play(s, "layoff 7H on 0")
    assert s.is_over and s.public.went_out == 0


def test_the_taken_top_card_left_alone_and_unplayable_strands_the_turn():
    s = deal(["AD AH AS", "2C 3C 9D"], stock="KD", discard="AC 8C")
    play(s, "take 1")
    assert legal(s) == {"discard AD", "discard AH", "discard AS"}
    assert legal(s) == oracle.legal(s)


def test_a_play_position_with_an_obligation_and_a_table():
    s = deal(["8S 9S TS 2D", "7S JS JK 5C 5D"], stock="KH QH", discard="3C 5H")
    play(s, "draw", "meld 8S 9S TS", "discard KH")
    # Seat 1: pile 3C 5H KH. take 2 reaches the 5H: 5C 5D 5H, or 5C 5D + joker.
    assert legal(s) == oracle.legal(s)
    play(s, "take 2")
    expected = oracle.legal(s)
    assert legal(s) == expected
    assert "meld 5C 5D 5H" in expected and not any(a.startswith("discard") for a in expected)


# ------------------------------------------------- random small positions

_POOL = [c for c in natural_cards() if c.rank in (1, 2, 3, 4, 5, 12, 13)] + [JOKER, JOKER]


def _policy(state: RoundState, rng: random.Random):
    """Random, but keen on taking deep and on melding, so obligations and tables come up."""
    acts = state.legal_actions()
    deep = [a for a in acts if isinstance(a, Take) and a.n > 1]
    if deep and rng.random() < 0.7:
        return rng.choice(deep)
    plays = [a for a in acts if isinstance(a, (Meld, LayOff))]
    if plays and rng.random() < 0.6:
        return rng.choice(plays)
    return rng.choice(acts)


def _candidates(state: RoundState, rng: random.Random) -> list:
    """Actions worth trying: some legal, most not."""
    hand = state.hands[state.public.to_move]
    out: list = [Draw(), Pass()]
    out += [Take(k) for k in range(1, len(state.public.discard) + 2)]
    out += [Discard((c,)) for c in natural_cards() if rng.random() < 0.2] + [Discard((c,)) for c in set(hand)]
    for _ in range(12):
        k = rng.randint(1, min(4, len(hand))) if hand else 1
        cards = [
            c if c != JOKER else declared(rng.choice(natural_cards())) for c in rng.sample(hand, min(k, len(hand)))
        ]
        if not cards:
            continue
        if len(cards) >= 3:
            out.append(Meld(tuple(cards)))
        out.append(LayOff(tuple(cards), rng.randint(0, len(state.public.melds))))
    return out


def _positions(seed: int, players: int = 2):
    """Positions of a small seeded round: 4-card hands from a pool rich in melds, a 3-card pile.

    From five players the pool is doubled (two packs: duplicate cards, four jokers).
    """
    rng = random.Random(seed)
    deck = list(_POOL) * (2 if players > 4 else 1)
    rng.shuffle(deck)
    hands = [deck[4 * i : 4 * i + 4] for i in range(players)]
    dealt = 4 * players
    state = RoundState.from_deal(
        standard(players), players - 1, hands, deck[dealt + 3 : dealt + 11], deck[dealt : dealt + 3]
    )
    while not state.is_over:
        yield state, rng
        state.apply(_policy(state, rng))


@pytest.mark.parametrize(("players", "first_seed"), [(2, 0), (2, 10), (2, 20), (2, 30), (3, 100), (5, 200)])
def test_legal_actions_match_the_oracle_on_random_small_positions(players, first_seed):
    checked = 0
    for seed in range(first_seed, first_seed + 10):
        for state, _ in _positions(seed, players):
            assert legal(state) == oracle.legal(state), (seed, state)
            # The standard game has no out-of-turn actions.
            for other in range(state.n):
                if other != state.public.to_move:
                    assert state.legal_actions(other) == []
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("seed", range(10))
def test_every_listed_action_applies_and_others_are_refused_leaving_the_state_unchanged(seed):
    for state, rng in _positions(seed):
        listed = state.legal_actions()
        assert listed, "a round in progress always offers the player to move an action"
        assert len(set(listed)) == len(listed), "no action is listed twice"
        for action in listed:
            trial = state.copy()
            trial.apply(action)  # validated
            assert parse_action(str(action)) == action
        for action in _candidates(state, rng):
            if action in listed:
                continue
            before = snapshot(state)
            with pytest.raises(IllegalAction) as info:
                state.apply(action)
            assert str(info.value)
            assert snapshot(state) == before


def test_constructed_actions_outside_the_notation_are_refused_not_crashed_on():
    s = deal(["4H 5H 6H 9C", "2C 3C 9D"], stock="KD", discard="7H")
    odd = [
        Take(0),
        Take(-1),
        Take(-5),
        Meld(()),
        Discard(()),
        LayOff((), 0),
        LayOff((natural_cards()[0],), -1),
        CallRummy(0),
        CallRummy(1),
        Swap(natural_cards()[0], 0),
        Float(),
    ]
    assert "at least one card" in refused(s, Take(-1))
    for phase in ("draw", "play"):
        for action in odd:
            assert refused(s, action)
        for seat in (-1, 1, 2, 7):
            assert refused(s, Draw(), seat)
        if phase == "draw":
            play(s, "draw")


def test_an_ace_may_go_alone_on_the_high_end_even_when_the_two_is_held():
    # Regression: with 2D held, the lay-offs on 3D..KD missed the AD alone (high end).
    s = deal(["3D 4D 5D 6D 7D 8D 9D TD JD QD KD 5C", "AD 2D AC 9S"], stock="7C 8C", discard="TC")
    play(s, "draw", "meld 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "discard 7C", "draw")
    layoffs = {a for a in legal(s) if a.startswith("layoff")}
    assert layoffs == {"layoff AD on 0", "layoff 2D on 0", "layoff AD 2D on 0"}
    assert legal(s) == oracle.legal(s)
    play(s, "layoff AD on 0")
    assert [str(c) for c in s.public.melds[0].cards][-1] == "AD" and s.public.melds[0].positions[-1] == 14
