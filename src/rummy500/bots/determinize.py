"""Determinization: a full position consistent with what one seat has seen.

A search bot cannot search its :class:`~rummy500.views.View` directly: the
other hands and the stock are hidden. :func:`determinize` deals the cards this
seat cannot see at random into the places it cannot see, keeping everything it
did see:

* the unseen cards are the whole pack less the seat's own hand, the discard
  pile, the cards on the table, the cards others were seen taking from the
  pile and still hold (``view.known``), the cards out of play
  (``view.removed``) and the dealer's joker while it lies beside the dealer;
* every other hand keeps its known cards and is filled up to its size;
* the stock gets exactly ``view.stock_count`` cards.

It then rebuilds a :class:`~rummy500.state.RoundState` with
:meth:`~rummy500.state.RoundState.from_deal` and sets the public fields of
the turn from the view (melds, whose turn, phase, obligation, the card taken
from the top, cards drawn, who has opened and melded, floating players, the
Dealer's Gambit, known cards, the last discarder...). The state belongs to the
bot: it is a guess, never the real game.

This module is the only part of :mod:`rummy500.bots` that imports
:mod:`rummy500.state`, and only to build states of its own.
"""

from __future__ import annotations

import random
from collections import Counter

from rummy500.bots.heuristics import bare, pack_counter
from rummy500.cards import JOKER, Card
from rummy500.state import Phase, RoundState
from rummy500.views import View

__all__ = ["DeterminizeError", "determinize", "unseen_cards"]


class DeterminizeError(ValueError):
    """The view does not add up to a position (more cards seen than the pack holds)."""


def unseen_cards(view: View) -> list[Card]:
    """The cards ``view.seat`` cannot see, as a sorted multiset list.

    Raises:
        DeterminizeError: the view shows more copies of a card than the pack holds.
    """
    if view.seat is None:
        raise DeterminizeError("a spectator's view has no seat to determinize for")
    rules = view.rules
    pack = pack_counter(rules)
    seen: Counter[Card] = Counter(view.hand)
    seen.update(view.discard)
    seen.update(view.removed)
    for m in view.melds:
        seen.update(bare(m.cards))
    for s, k in enumerate(view.known):
        if s != view.seat:
            seen.update(k)
    if rules.dealers_gambit and view.dealer_joker in ("available", "blocked"):
        seen[JOKER] += 1  # the dealer's joker lies face up beside the dealer
    over = [c for c, k in seen.items() if k > pack[c]]
    if over:
        raise DeterminizeError(f"the view shows more {', '.join(map(str, over))} than the pack holds")
    return sorted((pack - seen).elements())


def determinize(view: View, rng: random.Random) -> RoundState:
    """A random full position consistent with ``view`` (see the module docstring).

    Raises:
        DeterminizeError: the view cannot be completed (inconsistent counts).
    """
    seat = view.seat
    if seat is None:
        raise DeterminizeError("a spectator's view has no seat to determinize for")
    rules = view.rules
    pool = unseen_cards(view)
    rng.shuffle(pool)
    n = view.players
    hands: list[list[Card]] = []
    pos = 0
    for s in range(n):
        if s == seat:
            hands.append(list(view.hand))
            continue
        known = list(view.known[s]) if s < len(view.known) else []
        need = view.hand_sizes[s] - len(known)
        if need < 0:
            raise DeterminizeError(f"seat {s} holds {view.hand_sizes[s]} cards but was seen taking {len(known)}")
        hands.append(known + pool[pos : pos + need])
        pos += need
    stock = pool[pos : pos + view.stock_count]
    if len(stock) != view.stock_count or len(hands) != n or any(len(h) != view.hand_sizes[i] for i, h in enumerate(hands)):
        raise DeterminizeError("the unseen cards do not fill the hidden hands and the stock")
    state = RoundState.from_deal(rules, view.dealer, hands, stock, list(view.discard))
    restore_public(state, view)
    return state


def restore_public(state: RoundState, view: View) -> None:
    """Set the public fields of the turn on ``state`` from ``view``."""
    n = view.players
    state.melds = list(view.melds)
    state.to_move = view.to_move
    phase = view.phase
    state.phase = Phase.ROUND_OVER if phase in ("round_over", "game_over") else Phase(phase)
    state.obligation = view.obligation
    state.taken_top = view.taken_top
    state.drawn = view.drawn
    state.turn_points = view.turn_points
    state.turn_long_run = False
    state.opened = list(view.opened) if view.opened else [rules_open(view)] * n
    state.has_melded = list(view.has_melded) if view.has_melded else [any(m.owner == s for m in view.melds) for s in range(n)]
    state.known = [list(k) for k in view.known]
    state.went_out = None
    state.last_discarder = view.last_discarder
    state.floating = list(view.floating)
    state.stock_emptied_by = view.stock_emptied_by
    state.masters = None
    state.removed = list(view.removed)
    state.gambit = view.gambit
    state.dealer_joker = view.dealer_joker
    state.rummy_due = view.rummy_due
    state.claimed_card = view.claimed_card
    state.turns = view.turns
    state.result = None
    state._legal_cache = None


def rules_open(view: View) -> bool:
    """Without ``view.opened``: everyone has opened when there is no opening minimum."""
    return view.rules.first_meld_min == 0
