"""The fixed action space carries every legal engine action and nothing else.

Over seeded playouts of every preset (and of the variants whose actions no
preset produces: Rummy steals, joker swaps, two-card discards, melds out of
turn, floating), at every decision the tokens reachable through the action
mask, followed to the end, decode to exactly the engine's legal actions.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummy500.actions import Block, CallRummy, Decline, Discard, Float, LayOff, Meld, Nominate, Pass, Swap, Take
from rummy500.env.encoding import (
    ARGUMENT_END,
    DRAW,
    N_ACTIONS,
    Decision,
    EncodingError,
    decode,
    encode,
    token_name,
)
from rummy500.env.table import Table
from rummy500.rules import PRESETS, Rules

VARIANTS: dict[str, dict] = {
    **{f"preset:{name}": {"preset": name} for name in PRESETS},
    "popular-3p": {"preset": "popular", "players": 3},  # with two players nobody may call Rummy
    "standard-4p": {"players": 4},
    "standard-6p": {"players": 6},
    "steal": {"calling_rummy": "steal", "players": 3},
    "swap": {"joker_swap": True, "jokers": 4},
    "match_drawn": {"stock_draw_count": 2, "discard_count": "match_drawn"},
    "out_of_turn": {"meld_out_of_turn": True, "calling_rummy": "pile", "players": 3},
    "floating": {"going_out": "floating", "players": 4},
}


def kind(action: object) -> str:
    if isinstance(action, CallRummy):
        return "rummy_on" if action.on is not None else "rummy_meld" if action.meld is not None else "rummy"
    if isinstance(action, Discard):
        return "discard" if len(action.cards) == 1 else "discard_many"
    if isinstance(action, Take):
        return "take_split" if action.split else "take_deep" if action.n > 1 else "take"
    return type(action).__name__.lower()


def reachable(decision: Decision) -> dict[tuple[int, ...], object]:
    """Every complete token path the masks allow, with the action each commits."""
    out: dict[tuple[int, ...], object] = {}
    stack: list[Decision] = [decision.copy()]
    while stack:
        at = stack.pop()
        for token in at.next_tokens():
            probe = at.copy()
            action = probe.push(token)
            if action is None:
                assert token < ARGUMENT_END, token_name(token)
                assert probe.selected == (*at.selected, token)
                stack.append(probe)
            else:
                assert token >= ARGUMENT_END, token_name(token)
                assert probe.selected == ()
                out[(*at.selected, token)] = action
    return out


def pick(legal: tuple[object, ...], rng: random.Random) -> object:
    """A playout policy that lays cards down often, so deep positions are reached."""
    plays = [a for a in legal if isinstance(a, (Meld, LayOff, Swap, CallRummy, Take))]
    if plays and rng.random() < 0.7:
        return rng.choice(plays)
    return rng.choice(legal)


def check_decision(legal: tuple[object, ...]) -> None:
    seqs = [encode(a) for a in legal]
    assert len(set(seqs)) == len(set(legal)), "two legal actions share a token sequence"
    for a, seq in zip(legal, seqs, strict=True):
        assert all(0 <= t < N_ACTIONS for t in seq)
        assert decode(seq) == a
        # prefix-free: only the last token commits
        assert all(t < ARGUMENT_END for t in seq[:-1]) and seq[-1] >= ARGUMENT_END
    paths = reachable(Decision(legal))
    assert set(paths.values()) == set(legal)
    for seq, action in paths.items():
        assert decode(seq) == action


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_legal_action_is_reachable_and_nothing_else(name: str) -> None:
    rules = Rules.from_mapping(VARIANTS[name])
    seen: Counter[str] = Counter()
    decisions = 0
    for seed in range(3):
        rng = random.Random(seed)
        table = Table(rules, seed, max_rounds=2)
        for _ in range(300):
            turn = table.turn()
            if turn is None:
                break
            check_decision(turn.legal)
            seen.update(kind(a) for a in turn.legal)
            decisions += 1
            table.play(pick(turn.legal, rng))
    assert decisions > 100
    # The playouts reached the kinds of actions that need multi-token encodings.
    assert seen["meld"] and seen["layoff"] and seen["take_deep"] and seen["discard"]
    opts = rules
    if opts.calling_rummy in ("pile", "top_card") and opts.players > 2:
        assert seen["rummy"] and seen["decline"]
    if opts.calling_rummy == "steal":
        assert seen["rummy_on"] and seen["rummy_meld"]
    if opts.joker_swap:
        assert seen["swap"]
    if opts.discard_count == "match_drawn":
        assert seen["discard_many"]
    if opts.dealers_gambit:
        assert seen["nominate"] and seen["take_split"] and seen["block"]
    if opts.going_out == "floating":
        assert seen["float"]


def test_off_mask_token_is_refused_and_changes_nothing() -> None:
    d = Decision([Pass()])
    with pytest.raises(EncodingError, match="action_mask entry is 0"):
        d.push(DRAW)
    assert d.selected == () and d.next_tokens() == set(encode(Pass()))


def test_decode_refuses_sequences_encode_never_writes() -> None:
    meld = encode(Meld(tuple(Table(Rules(), 1).match.state.hands[0][:3])))
    with pytest.raises(EncodingError):
        decode(meld[:-1])  # no verb
    with pytest.raises(EncodingError):
        decode(())
    with pytest.raises(EncodingError):
        decode((DRAW, DRAW))
    with pytest.raises(EncodingError):
        decode((N_ACTIONS,))


def test_simple_actions_are_one_token() -> None:
    for action in (Pass(), Float(), Block(), Decline(), Nominate("split"), Take(5), Take(2, split=True), CallRummy(3)):
        assert len(encode(action)) == 1
        assert decode(encode(action)) == action


def test_a_decision_walked_by_copies_and_by_setting_its_prefix() -> None:
    cards = sorted(Table(Rules(), 1).match.state.hands[0][:3])
    meld, layoff = Meld(tuple(cards)), LayOff((cards[0],), 2)
    d = Decision([meld, layoff, Discard((cards[1],))])
    first = encode(meld)[0]
    assert d.next_tokens() == {first, encode(Discard((cards[1],)))[0]}
    twin = d.copy()
    assert twin.push(first) is None and twin.selected == (first,)
    assert d.selected == () and first in d.next_tokens()  # the original did not move
    assert twin.next_tokens() == {encode(meld)[1], encode(layoff)[1]}
    d.prefix = encode(meld)[:-1]  # as OpenSpiel's resampling sets it
    assert d.next_tokens() == {encode(meld)[-1]} and d.push(encode(meld)[-1]) == meld
    d.prefix = (DRAW,)  # no legal action begins so: nothing can follow
    assert d.selected == (DRAW,) and d.next_tokens() == set()
    d.prefix = ()
    assert d.push(encode(layoff)[0]) is None and d.push(encode(layoff)[1]) == layoff
