"""Straightforward reference encoders: the observation and the mask trie as first written.

The environment builds its observations incrementally (only the fields a
position changed) and its masks lazily; ``test_reference.py`` checks over
seeded playouts that they are identical to these, which are built from
scratch from the seat's :class:`~rummy500.views.View` at every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from rummy500.actions import Action
from rummy500.env.encoding import (
    ARGUMENT_END,
    CARD_KINDS,
    DEPTH,
    HAND_KINDS,
    MAX_PILE,
    N_ACTIONS,
    SELECT,
    card_index,
    encode,
)
from rummy500.env.observation import DEALER_JOKER, GAMBITS, MELD_KINDS, PHASES, layout
from rummy500.state import build_pack
from rummy500.views import View


def reference_observation(view: View, selected: tuple[int, ...] = (), offer: bool = False) -> np.ndarray:
    """The observation of ``view.seat``, every entry worked out from the view."""
    n = view.players
    cards = len(build_pack(view.rules))  # the layout has a pile row per card of the game
    lay = layout(n, cards)

    def off(name: str) -> int:
        return lay.offset(name)

    seat = view.seat if view.seat is not None else 0
    rel = [(s - seat) % n for s in range(n)]
    idx: list[int] = [off("hand") + card_index(c) for c in view.hand]
    pile = view.discard
    assert len(pile) <= cards and len(view.melds) <= cards // 3  # nothing is left out of the layout
    idx += [off("pile") + d * HAND_KINDS + card_index(pile[-1 - d]) for d in range(len(pile))]
    for m in view.melds:
        mbase = off("meld_cards") + m.id * CARD_KINDS
        for i, (c, by) in enumerate(zip(m.cards, m.laid_by, strict=True)):
            k = card_index(c)
            idx.append(mbase + k)
            idx.append(off("laid_by") + rel[by] * CARD_KINDS + k)
            if m.claimed and m.claimed[i]:
                idx.append(off("claimed") + k)
        if m.kind in MELD_KINDS:
            idx.append(off("meld_kind") + m.id * len(MELD_KINDS) + MELD_KINDS.index(m.kind))
        idx.append(off("meld_owner") + m.id * n + rel[m.owner])
        if m.sealed:
            idx.append(off("meld_flags") + m.id * 2)
        if m.doubled:
            idx.append(off("meld_flags") + m.id * 2 + 1)
    for s, cards in enumerate(view.known):
        idx += [off("known") + rel[s] * HAND_KINDS + card_index(c) for c in cards]
    idx += [off("removed") + card_index(c) for c in view.removed]
    for s in range(n):
        if view.floating and view.floating[s]:
            idx.append(off("floating") + rel[s])
        if view.opened and view.opened[s]:
            idx.append(off("opened") + rel[s])
        if view.has_melded and view.has_melded[s]:
            idx.append(off("has_melded") + rel[s])
    if view.phase in PHASES:
        idx.append(off("phase") + PHASES.index(view.phase))
    if offer:
        idx.append(off("offer"))
    idx.append(off("to_move") + rel[view.to_move])
    idx.append(off("dealer") + rel[view.dealer])
    if view.last_discarder is not None:
        idx.append(off("last_discarder") + rel[view.last_discarder])
    for name in ("obligation", "taken_top", "claimed_card"):
        card = getattr(view, name)
        if card is not None:
            idx.append(off(name) + card_index(card))
    idx.append(off("gambit") + GAMBITS.index(view.gambit))
    idx.append(off("dealer_joker") + DEALER_JOKER.index(view.dealer_joker))
    obs = np.zeros(lay.size, dtype=np.float32)
    for i, k in Counter(idx).items():
        obs[i] = k
    obs[off("pile_size")] = len(pile) / MAX_PILE
    obs[off("stock")] = view.stock_count / MAX_PILE
    target = float(view.rules.target) or 1.0
    for s in range(n):
        obs[off("hand_sizes") + rel[s]] = view.hand_sizes[s] / 20.0
        if view.scores is not None:
            obs[off("scores") + rel[s]] = view.scores[s] / target
    t = off("turn")
    obs[t : t + 3] = (view.drawn / 2.0, view.turn_points / 100.0, view.turns / 100.0)
    for token in selected:
        if token < DEPTH:
            obs[off("selected") + token - SELECT] += 1
        elif token < ARGUMENT_END:
            obs[off("selected_depth") + token - DEPTH] = 1
    return obs


class ReferenceDecision:
    """The mask trie of one decision, every prefix of every legal action's token sequence built up front."""

    def __init__(self, legal: Iterable[Action]) -> None:
        self.actions: dict[tuple[int, ...], Action] = {}
        self.children: dict[tuple[int, ...], set[int]] = {}
        for action in legal:
            seq = encode(action)
            self.actions[seq] = action
            for i in range(len(seq)):
                self.children.setdefault(seq[:i], set()).add(seq[i])
        self.prefix: tuple[int, ...] = ()

    def mask(self) -> np.ndarray:
        """The action mask at the current prefix."""
        out = np.zeros(N_ACTIONS, dtype=np.int8)
        out[sorted(self.children.get(self.prefix, ()))] = 1
        return out

    def push(self, token: int) -> Action | None:
        """Add a token (it must be in the mask); the action once complete."""
        assert token in self.children.get(self.prefix, ()), token
        seq = (*self.prefix, token)
        action = self.actions.get(seq)
        self.prefix = () if action is not None else seq
        return action
