"""Build positions from the record notation and play actions from their text form.

A scenario reads like the table it describes::

    s = deal(hands=["AS 2S 3S 9D", "4H 5H 6H"], stock="QD 7S", discard="TC")
    play(s, "take 1", "meld AS 2S 3S")
    assert refused(s, "discard TC") == "you may not discard the TC ..."

``stock`` is written top first and ``discard`` bottom first, as in RECORD.md.
By default the dealer is the last seat, so seat 0 moves first.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rummy500 import IllegalAction, RoundState, Rules, parse_action, parse_cards
from rummy500.actions import Action
from rummy500.cards import JOKER, Card

__all__ = [
    "acts",
    "all_cards",
    "cards",
    "deal",
    "legal",
    "play",
    "refused",
    "snapshot",
    "standard",
]


def standard(players: int = 2, **options: Any) -> Rules:
    """The standard game's rules (RULES.md Part 1) for ``players`` seats, plus options."""
    return Rules.from_mapping({"preset": "standard", "players": players, **options})


def cards(text: str) -> list[Card]:
    """``"AS 2S JK"`` as a list of cards."""
    return parse_cards(text)


def deal(
    hands: list[str],
    stock: str = "",
    discard: str = "",
    *,
    dealer: int | None = None,
    rules: Rules | None = None,
    **options: Any,
) -> RoundState:
    """A round starting from a constructed position (seat 0 to move unless ``dealer`` says otherwise)."""
    if rules is None:
        rules = standard(len(hands), **options)
    if dealer is None:
        dealer = len(hands) - 1
    return RoundState.from_deal(rules, dealer, [cards(h) for h in hands], cards(stock), cards(discard))


def _split_seat(move: str) -> tuple[int | None, str]:
    """``"p1: discard 9D"`` -> (1, "discard 9D"); a bare action is played by the seat to move."""
    head, sep, rest = move.partition(":")
    if sep and head.strip().lower().startswith("p") and head.strip()[1:].isdigit():
        return int(head.strip()[1:]), rest.strip()
    return None, move


def play(state: RoundState, *moves: str) -> RoundState:
    """Apply each move (text form, optionally ``"p1: ..."``) with full validation."""
    for move in moves:
        seat, text = _split_seat(move)
        state.apply(parse_action(text), seat)
    return state


def snapshot(state: RoundState) -> dict[str, Any]:
    """Every field of a state, deep-copied into plain values, for before/after comparisons."""
    out: dict[str, Any] = {}
    for name in getattr(RoundState, "__slots__", None) or RoundState.__mypyc_attrs__:  # the compiled build: no __slots__
        if name.startswith("_"):  # caches, not the position
            continue
        value = getattr(state, name)
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        out[name] = value
    return out


def refused(state: RoundState, move: str | Action, seat: int | None = None) -> str:
    """Assert that ``move`` is refused with the state unchanged; return the refusal message."""
    if isinstance(move, str):
        s, text = _split_seat(move)
        seat = s if s is not None else seat
        action = parse_action(text)
    else:
        action = move
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action, seat)
    assert snapshot(state) == before, f"refusing {move} changed the state"
    message = str(info.value)
    assert message and "\n" not in message
    return message


def acts(actions: list[Action]) -> set[str]:
    """Actions as a set of their text forms."""
    return {str(a) for a in actions}


def legal(state: RoundState, seat: int | None = None) -> set[str]:
    """The legal actions of ``seat`` (default: the seat to move) as text."""
    return acts(state.legal_actions(seat))


def all_cards(state: RoundState) -> Counter[Card]:
    """Every card of the round wherever it is, a declared joker counted as a joker."""
    total: Counter[Card] = Counter()
    for h in state.hands:
        total.update(h)
    total.update(state.stock)
    total.update(state.public.discard)
    total.update(state.public.removed)
    for m in state.public.melds:
        total.update(JOKER if c.is_joker else c for c in m.cards)
    return total
