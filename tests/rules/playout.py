"""Random playouts that check the engine's invariants at every step.

A random player picks a seat among :meth:`RoundState.actors` (mostly the seat
to move, sometimes another one, so Rummy calls and out-of-turn melds happen)
and a uniformly random legal action for it. At every step:

* the cards are conserved: hands, stock, pile, table, removed cards and the
  dealer's joker make up the pack dealt;
* the seat to move has a legal action (until the round is over), every seat
  listed by ``actors()`` has one and no other seat does;
* every enumerated action of the acting seat applies (on a copy) without error;
* no view leaks a hidden card: dealing the cards a seat cannot see (the other
  hands less what was seen taken from the pile, and the stock) differently
  changes nothing in that seat's view.

At the end the match record replays to the same totals.
"""

from __future__ import annotations

import random
from collections import Counter

from rummy500.cards import JOKER, Card
from rummy500.match import Match
from rummy500.record import replay
from rummy500.rules import Rules
from rummy500.state import Phase, RoundState, build_pack

MAX_STEPS = 6000  # per round; MAX_TURNS (1500 turns) ends any round long before


def table_cards(state: RoundState) -> Counter[Card]:
    """Every card of the round, wherever it is, with declared jokers counted as jokers."""
    seen: Counter[Card] = Counter()
    for hand in state.hands:
        seen.update(hand)
    seen.update(state.stock)
    seen.update(state.public.discard)
    seen.update(JOKER if c >= 64 else c for m in state.public.melds for c in m.cards)
    seen.update(state.public.removed)
    if state.public.dealer_joker in ("available", "blocked"):
        seen[JOKER] += 1  # the dealer's joker, still lying beside the dealer
    return seen


def hidden_redealt(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """A copy in which every card ``seat`` cannot see is dealt again at random."""
    other = state.copy()
    slots: list[tuple[list[Card], int]] = []
    for o in range(state.n):
        if o == seat:
            continue
        known = Counter(state.public.known[o])
        for i, c in enumerate(other.hands[o]):
            if known[c] > 0:
                known[c] -= 1
            else:
                slots.append((other.hands[o], i))
    slots.extend((other.stock, i) for i in range(len(other.stock)))
    cards = [lst[i] for lst, i in slots]
    rng.shuffle(cards)
    for (lst, i), c in zip(slots, cards, strict=True):
        lst[i] = c
    return other


def check_position(state: RoundState, pack: Counter[Card], rng: random.Random, *, views: bool) -> None:
    """The invariants of one position (see the module docstring)."""
    assert table_cards(state) == pack, "cards are not conserved"
    for o in range(state.n):
        assert not Counter(state.public.known[o]) - Counter(state.hands[o]), f"seat {o} is 'known' to hold cards it does not"
    if state.public.phase is Phase.ROUND_OVER:
        assert all(not state.legal_actions(s) for s in range(state.n))
        return
    assert state.public.phase is not Phase.SHUFFLE, "a reshuffle was left pending"
    actors = state.actors()
    assert actors and actors[0] == state.public.to_move
    assert state.legal_actions(state.public.to_move), f"seat {state.public.to_move} to move has no legal action in {state!r}"
    for s in range(state.n):
        assert bool(state.legal_actions(s)) == (s in actors), f"actors() and legal_actions({s}) disagree"
    if views:
        for s in range(state.n):
            mine = state.view(s).to_dict()
            assert mine["legal"] == [a.to_record() for a in state.legal_actions(s)]
            if state.public.phase is Phase.NOMINATE:  # Dealer's Gambit: nobody has looked at their cards
                assert mine["hand"] == [] and mine["hand_sizes"][s] == len(state.hands[s])
            else:
                assert sorted(mine["hand"]) == sorted(str(c) for c in state.hands[s])
            again = hidden_redealt(state, s, rng).view(s).to_dict()
            assert again == mine, f"seat {s}'s view depends on cards it cannot see"
        spectator = state.view(None).to_dict()
        assert spectator["hand"] is None and spectator["legal"] == []
        assert hidden_redealt(state, -1, rng).view(None).to_dict() == spectator


def check_every_action_applies(state: RoundState, seat: int, limit: int, rng: random.Random) -> None:
    """Each enumerated action of ``seat`` (at most ``limit``, sampled) applies to a copy."""
    acts = state.legal_actions(seat)
    if len(acts) > limit:
        acts = rng.sample(acts, limit)
    for action in acts:
        trial = state.copy()
        trial.apply(action, seat)  # validated: legal_actions and apply agree
        if trial.public.phase is Phase.SHUFFLE:
            trial.apply(trial.chance_reshuffle(rng))


def play_match(rules: Rules, seed: int, *, max_rounds: int = 3, views_every: int = 4, apply_limit: int = 12) -> Match:
    """Play up to ``max_rounds`` rounds at random, checking every position."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    played = 0
    while not match.is_over and played < max_rounds:
        state = match.state
        assert state is not None
        pack = Counter(build_pack(rules))
        assert table_cards(state) == pack, "the deal lost or invented cards"
        for step in range(MAX_STEPS):
            check_position(state, pack, rng, views=step % views_every == 0)
            actors = state.actors()
            seat = actors[0] if len(actors) == 1 or rng.random() < 0.75 else rng.choice(actors[1:])
            check_every_action_applies(state, seat, apply_limit, rng)
            match.apply(seat, rng.choice(state.legal_actions(seat)))
            if state.is_over:
                check_position(state, pack, rng, views=True)
                break
        else:
            raise AssertionError(f"the round did not end within {MAX_STEPS} steps")
        played += 1
    out = replay(match.record())
    assert out["ok"], out["error"]
    assert out["totals"] == match.totals
    assert out["winner"] == match.winner
    return match
