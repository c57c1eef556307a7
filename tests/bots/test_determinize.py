"""Determinization deals only the cards a seat cannot see, and rebuilds the turn exactly."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummy500 import Match, Rules
from rummy500.bots.determinize import determinize, unseen_cards
from rummy500.state import Phase, RoundState

from .conftest import CONFIGS


# Hidden (the re-dealt cards), caches, and the two Master's-Hand flags the view
# does not carry (they only matter at the going-out discard under masters_hand).
def _positions(rules: Rules, seed: int, steps: int):
    """Views of every seat with a legal move, along a random game."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    for _ in range(steps):
        if match.is_over:
            return
        state = match.state
        assert state is not None
        yield state
        seat = state.actors()[0]
        legal = match.legal_actions(seat)
        if not legal:
            return
        match.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_determinized_positions_agree_with_the_view(cfg: dict[str, object]) -> None:
    rules = Rules.from_mapping(cfg)
    rng = random.Random(1)
    checked = 0
    for state in _positions(rules, 3, 150):
        for seat in state.actors():
            view = state.view(seat)
            world = determinize(view, rng)
            assert isinstance(world, RoundState)
            # What the seat sees is exactly what it saw; before Dealer's Gambit's nomination nobody
            # has looked at their cards, so the seat's own hand is dealt like the hidden ones.
            if view.phase is Phase.NOMINATE:
                assert view.hand == ()
            else:
                assert sorted(world.hands[seat]) == sorted(view.hand)
            assert [len(h) for h in world.hands] == list(view.hand_sizes)
            assert len(world.stock) == view.stock_count
            assert world.public.discard == view.discard
            for s in range(state.n):
                assert not Counter(view.known[s]) - Counter(world.hands[s]), "known cards stay with their holder"
            assert set(world.legal_actions(seat)) == set(view.legal)
            # Every public fact is rebuilt from the view; only the hidden cards differ.
            assert world.public == state.public
            assert (world.rules, world.n, world.result) == (state.rules, state.n, state.result)
            checked += 1
    assert checked > 20


def test_only_unseen_cards_move() -> None:
    rules = Rules.from_mapping({})
    state = RoundState.new(rules, 0, random.Random(8))
    view = state.view(1)
    unseen = Counter(unseen_cards(view))
    assert unseen == Counter(state.hands[0]) + Counter(state.stock)
    worlds = {tuple(sorted(determinize(view, random.Random(k)).hands[0])) for k in range(5)}
    assert len(worlds) > 1  # the hidden hand is really re-dealt
    assert state.public.phase is Phase.DRAW


def _decision_views(rules: Rules, seed: int, steps: int):
    """The decider's view at each decision of a random game that also takes and declines offers."""
    from rummy500.actions import Decline
    from rummy500.state import DecisionKind

    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    for _ in range(steps):
        d = match.decision()
        if d is None:
            return
        assert d.kind is not DecisionKind.CHANCE and d.seat is not None
        yield match.state, match.view(d.seat)
        choice = rng.choice(d.legal)
        if d.kind is DecisionKind.OFFER and rng.random() < 0.7:
            choice = Decline()
        match.apply(d.seat, choice)


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_state_from_view_shows_the_seat_exactly_what_it_saw(cfg: dict[str, object]) -> None:
    """Every preset and variant: the resampled position offers exactly ``view.legal`` and the same public facts."""
    from dataclasses import replace

    from rummy500.state import state_from_view

    rules = Rules.from_mapping(cfg)
    rng = random.Random(2)
    checked = 0
    for state, view in _decision_views(rules, 5, 120):
        world = state_from_view(view, rng)
        again = world.view(view.seat, view.scores)
        assert sorted(map(str, again.legal)) == sorted(map(str, view.legal))
        assert replace(again, legal=()) == replace(view, legal=())
        # Only the seat's own decision is fixed: whether other seats have offers depends on hidden hands.
        assert sorted(map(str, world.legal_actions(view.seat))) == sorted(map(str, state.legal_actions(view.seat)))
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_weighted_determinizations_agree_with_the_view(cfg: dict[str, object]) -> None:
    """Every preset and variant: uneven weights move only which unseen card lies where."""
    from dataclasses import replace

    from rummy500.cards import card

    rules = Rules.from_mapping(cfg)
    rng = random.Random(3)
    # Every other seat is unlikely to hold a 7 or a diamond (suit 1), likely to hold a king.
    weights = {
        s: {card(su * 16 + r): 0.01 if r == 7 or su == 1 else 5.0 if r == 13 else 1.0 for su in range(4) for r in range(1, 14)}
        for s in range(rules.players)
    }
    checked = 0
    for state, view in _decision_views(rules, 5, 120):
        world = determinize(view, rng, {s: w for s, w in weights.items() if s != view.seat})
        assert [len(h) for h in world.hands] == list(view.hand_sizes)
        assert len(world.stock) == view.stock_count
        assert Counter(c for h in world.hands for c in h) + Counter(world.stock) == Counter(
            c for h in state.hands for c in h
        ) + Counter(state.stock)
        for s in range(state.n):
            assert not Counter(view.known[s]) - Counter(world.hands[s]), "known cards stay with their holder"
        again = world.view(view.seat, view.scores)
        assert sorted(map(str, again.legal)) == sorted(map(str, view.legal))
        assert replace(again, legal=()) == replace(view, legal=())
        checked += 1
    assert checked > 20


def test_weights_steer_the_hidden_cards() -> None:
    """A card of weight 0.01 seldom lands in the weighted hand; without weights it lands there as often as any."""
    from rummy500.cards import card

    rules = Rules.from_mapping({})
    state = RoundState.new(rules, 0, random.Random(8))
    view = state.view(1)
    pool = unseen_cards(view)
    rare = next(c for c in pool if c < 64)
    weights = {0: {rare: 0.01}}
    k = 400
    weighted = sum(rare in determinize(view, random.Random(i), weights).hands[0] for i in range(k))
    plain = sum(rare in determinize(view, random.Random(i)).hands[0] for i in range(k))
    share = len(state.hands[0]) / len(pool)  # the chance of any one unseen card being in that hand
    assert plain > 0.5 * share * k
    assert weighted < 0.1 * share * k
    assert card(int(rare)) == rare
