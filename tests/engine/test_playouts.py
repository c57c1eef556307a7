"""Seeded random playouts of the standard game for 2..8 players, checking invariants at every step.

* cards are conserved (hands + stock + pile + table + removed == the pack);
* every round terminates;
* every listed action applies, and actions outside the list (random text,
  the wrong seat, the wrong phase) are refused with the state unchanged;
* no view holds a card hidden from its seat;
* a finished round scores table points minus hand points, per seat.

Every preset is also played (its own, its largest and a 3-player table), with
the conservation, termination and view checks.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from tests.rules.playout import table_cards

from rummy500 import IllegalAction, Phase, RoundState, parse_action
from rummy500.actions import ActionError, Discard, Draw, LayOff, Meld, Take
from rummy500.cards import JOKER, Card, CardError, parse_card
from rummy500.rules import PRESETS, Rules, RulesError
from rummy500.state import build_pack

from .helpers import all_cards, snapshot, standard

MAX_STEPS = 5000
_VERBS = ["draw", "take", "meld", "layoff", "discard", "pass", "swap", "rummy", "float", "block", "nominate", "fly"]
_WORDS = ["AS", "10H", "JK", "JK=7H", "KD", "2C", "1X", "on", "0", "3", "-1", "99", "QS", "5H", "split", "", "TH"]


def _random_text(rng: random.Random) -> str:
    verb = rng.choice(_VERBS)
    return " ".join([verb] + [rng.choice(_WORDS) for _ in range(rng.randint(0, 4))])


def _card_strings(obj: Any, skip: frozenset[str] = frozenset()) -> list[str]:
    """Every string leaf of a JSON-like value that is a card in the notation."""
    out: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k not in skip:
                out += _card_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            out += _card_strings(v)
    elif isinstance(obj, str):
        try:
            parse_card(obj)
        except CardError:
            return out
        out.append(obj)
    return out


def _check_views(state: RoundState, taken: list[Counter]) -> None:
    """No view shows a card its seat may not see; ``known`` is exactly the cards seen taken from the pile."""
    public: set[str] = {str(c) for c in state.public.discard}
    public |= {str(c) for m in state.public.melds for c in m.cards}
    public |= {str(c) for c in state.public.removed}  # Dealer's Gambit: split off the pile, or a blocking joker
    for seat in range(state.n):
        assert Counter(state.public.known[seat]) == taken[seat], "known lists exactly the pile cards taken and still held"
        assert not (taken[seat] - Counter(state.hands[seat])), "known cards are in that hand"
        public |= {str(c) for c in taken[seat]}
    if state.is_over:
        public |= {str(c) for h in state.hands for c in h}  # the hands are shown when the round ends
    for seat in [*range(state.n), None]:
        view = state.view(seat).to_dict()
        assert not any("stock" in k and k != "stock_count" for k in view)
        assert view["stock_count"] == len(state.stock)
        assert view["hand_sizes"] == [len(h) for h in state.hands]
        assert [Counter(k) for k in view["known"]] == [Counter(str(c) for c in t.elements()) for t in taken]
        if seat is None:
            assert view["hand"] is None and view["legal"] == []
            own: set[str] = set()
        elif state.public.phase is Phase.NOMINATE:  # Dealer's Gambit: nobody has looked at their cards yet
            assert view["hand"] == []
            own = set()
        else:
            assert Counter(view["hand"]) == Counter(str(c) for c in state.hands[seat])
            own = set(view["hand"])
        # The dealer's joker, still free, lies face up beside the dealer: the dealer's own to declare.
        dealers = seat == state.public.dealer and state.public.dealer_joker == "available"
        for text in _card_strings(view, skip=frozenset({"hand"})):
            # A declared joker in this seat's legal moves is its own joker.
            mine = text in own or (text.startswith("JK=") and ("JK" in own or dealers))
            assert text in public or mine, f"view of seat {seat} shows hidden card {text}"


def _value(c: Card, *, low: bool) -> int:
    if c.is_joker:
        return 15
    r = c.rank
    if r == 1:
        return 1 if low else 15
    return 10 if r >= 10 else r


def _expected_scores(state: RoundState) -> list[int]:
    """RULES.md scoring, written out independently of the engine.

    Where a run's ace lies is read from the table (``positions``: 1 is the low
    end): an ace laid on 2..K could go at either end, and the table says which.
    """
    table = [0] * state.n
    for m in state.public.melds:
        for i, (c, who) in enumerate(zip(m.cards, m.laid_by, strict=True)):
            low = m.kind == "run" and m.positions[i] == 1
            table[who] += _value(c, low=low)
    return [t - sum(_value(c, low=False) for c in h) for t, h in zip(table, state.hands, strict=True)]


def _wrong_moves(state: RoundState, rng: random.Random) -> list[tuple[Any, int]]:
    """Moves that must all be refused: another seat's turn, the other phase, random text."""
    out: list[tuple[Any, int]] = []
    seat = state.public.to_move
    listed = state.legal_actions()
    for action in rng.sample(listed, min(3, len(listed))):
        out.append((action, (seat + rng.randint(1, state.n - 1)) % state.n))
    hand = state.hands[seat]
    if state.public.phase is Phase.DRAW:
        out.append((Discard((rng.choice(hand),)), seat))
        out.append((Meld(tuple(hand[:3])), seat))
    elif state.public.phase is Phase.PLAY:
        out.append((Draw(), seat))
        out.append((Take(1), seat))
    for _ in range(4):
        try:
            action = parse_action(_random_text(rng))
        except ActionError:
            continue
        if action not in listed:
            out.append((action, seat))
    if hand:
        out.append((LayOff((rng.choice(hand),), len(state.public.melds) + rng.randint(0, 3)), seat))
    return out


def _playout(players: int, seed: int) -> int:
    rules = standard(players)
    rng = random.Random(seed)
    pack = Counter(build_pack(rules))
    state = RoundState.new(rules, rng.randrange(players), rng)
    taken = [Counter() for _ in range(players)]
    steps = 0
    while True:
        assert all_cards(state) == pack, "cards are conserved"
        if steps % 3 == 0 or state.is_over:
            _check_views(state, taken)
        if state.is_over:
            break
        assert steps < MAX_STEPS, "the round terminates"
        seat = state.public.to_move
        listed = state.legal_actions()
        assert listed
        for action in listed:
            trial = state.copy()
            trial.apply(action, seat)
        for action, who in _wrong_moves(state, rng):
            if who == seat and action in listed:
                continue
            before = snapshot(state)
            with pytest.raises(IllegalAction):
                state.apply(action, who)
            assert snapshot(state) == before
        action = rng.choice(listed)
        if isinstance(action, Take):
            taken[seat].update(state.public.discard[-action.n :])
        pile = state.public.discard
        state.apply(action, seat)
        # The pile changes only by discarding onto the top and taking from the top down.
        if isinstance(action, Take):
            assert state.public.discard == pile[: -action.n]
        elif isinstance(action, Discard):
            assert state.public.discard == pile + action.cards
        else:
            assert state.public.discard == pile
        if isinstance(action, (Meld, LayOff, Discard)):
            taken[seat] -= Counter(JOKER if c.is_joker else c for c in action.cards)
        steps += 1
    assert state.result is not None
    assert state.round_scores() == _expected_scores(state)
    assert state.result.round_scores == [
        t - h for t, h in zip(state.result.table_points, state.result.hand_points, strict=True)
    ]
    return steps


@pytest.mark.parametrize("players", range(2, 9))
def test_random_playouts_keep_every_invariant(players):
    total = 0
    for seed in range(3):
        total += _playout(players, 1000 * players + seed)
    assert total > 30


def _preset_playout(rules: Rules, seed: int) -> int:
    """One round of ``rules`` played at random, every view checked (``_check_views``) every few steps.

    Any seat listed by ``actors()`` may act (Rummy calls, blocks, nominations). What a seat is
    known to hold is tracked from the hands alone: a card that enters a hand by anything but a
    draw from the stock came from the pile or the table, in everyone's sight; a card that leaves
    the hand is no longer held.
    """
    rng = random.Random(seed)
    pack = Counter(build_pack(rules))
    state = RoundState.new(rules, rng.randrange(rules.players), rng)
    taken: list[Counter] = [Counter() for _ in range(state.n)]
    steps = 0
    while True:
        assert table_cards(state) == pack, "cards are conserved"
        if steps % 3 == 0 or state.is_over:
            _check_views(state, taken)
        if state.is_over:
            return steps
        assert steps < MAX_STEPS, "the round terminates"
        if state.public.phase is Phase.SHUFFLE:
            state.apply(state.chance_reshuffle(rng))
            continue
        actors = state.actors()
        seat = actors[0] if len(actors) == 1 or rng.random() < 0.8 else rng.choice(actors[1:])
        action = rng.choice(state.legal_actions(seat))
        before = [Counter(h) for h in state.hands]
        state.apply(action, seat)
        for o in range(state.n):
            after = Counter(state.hands[o])
            if not (o == seat and isinstance(action, Draw)):
                taken[o] += after - before[o]
            taken[o] -= before[o] - after
        steps += 1


def _table_sizes(preset: str) -> list[int]:
    """The preset's own table size, its largest legal one and 3 players where legal."""
    legal = []
    for n in range(2, 9):
        try:
            Rules.preset_rules(preset, players=n)
        except RulesError:
            continue
        legal.append(n)
    return sorted({Rules.preset_rules(preset).players, max(legal), *(n for n in legal if n == 3)})


@pytest.mark.parametrize(
    ("preset", "players"), [(p, n) for p in PRESETS for n in _table_sizes(p)], ids=lambda v: str(v)
)
def test_random_playouts_of_every_preset_show_no_hidden_card(preset, players):
    """``_check_views`` for every preset at its own, the largest and a middle table size."""
    rules = Rules.preset_rules(preset, players=players)
    steps = sum(_preset_playout(rules, 100 * players + seed) for seed in range(2))
    assert steps > 10
