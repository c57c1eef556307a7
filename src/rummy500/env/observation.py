"""The observation tensor: what one seat may see, as a flat ``float32`` vector.

It is built from the seat's :class:`~rummy500.views.View` only -- the engine's
one boundary for hidden information -- plus the tokens the seat has selected
so far in the current decision. Seats are *relative*: index 0 is the observing
seat, 1 the next seat in play order, and so on.

:func:`layout` lists the fields with their offsets and sizes; ``docs/research.md``
prints the table for the standard game. Card kinds are those of
:mod:`rummy500.env.encoding` (53 hand kinds, 105 meld kinds).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rummy500.env.encoding import (
    ARGUMENT_END,
    CARD_KINDS,
    DEPTH,
    HAND_KINDS,
    MAX_MELDS,
    MAX_PILE,
    SELECT,
    card_index,
)
from rummy500.views import View

__all__ = ["ObservationLayout", "encode_view", "layout"]

PHASES = ("nominate", "draw", "play", "round_over")
GAMBITS = (None, "wild", "double", "split")
DEALER_JOKER = (None, "available", "used", "blocked")
MELD_KINDS = ("set", "run", "jokers")


@dataclass(frozen=True)
class ObservationLayout:
    """Offsets of the observation fields for ``players`` seats."""

    players: int
    fields: tuple[tuple[str, int, int, str], ...]  # name, offset, size, meaning
    size: int

    def offset(self, name: str) -> int:
        """Where field ``name`` starts."""
        for f, off, _, _ in self.fields:
            if f == name:
                return off
        raise KeyError(name)


_LAYOUTS: dict[int, ObservationLayout] = {}


def layout(players: int) -> ObservationLayout:
    """The observation layout for a game of ``players`` seats."""
    cached = _LAYOUTS.get(players)
    if cached is not None:
        return cached
    n = players
    spec = [
        ("hand", HAND_KINDS, "own hand: copies held of each card kind"),
        ("pile", MAX_PILE * HAND_KINDS, "discard pile, top first: one-hot card kind at each depth"),
        ("pile_size", 1, "cards in the discard pile / 108"),
        ("meld_cards", MAX_MELDS * CARD_KINDS, "each table meld (by id): copies of each card kind (jokers as declared)"),
        ("meld_kind", MAX_MELDS * len(MELD_KINDS), "each meld: one-hot set, run, joker set"),
        ("meld_owner", MAX_MELDS * n, "each meld: one-hot relative seat that laid it down"),
        ("meld_flags", MAX_MELDS * 2, "each meld: sealed, doubled (Dealer's Gambit)"),
        ("laid_by", n * CARD_KINDS, "per relative seat: table cards that seat laid"),
        ("claimed", CARD_KINDS, "table cards claimed by calling Rummy"),
        ("known", n * HAND_KINDS, "per relative seat: cards seen taken from the pile and still held"),
        ("removed", HAND_KINDS, "cards out of play this round"),
        ("hand_sizes", n, "per relative seat: cards in hand / 20"),
        ("scores", n, "per relative seat: match total / target"),
        ("stock", 1, "cards in the stock / 108"),
        ("phase", len(PHASES), "one-hot phase: nominate, draw, play, round_over"),
        ("offer", 1, "1 when this decision is an out-of-turn offer"),
        ("to_move", n, "one-hot relative seat whose turn it is"),
        ("dealer", n, "one-hot relative seat of the dealer"),
        ("last_discarder", n, "one-hot relative seat that discarded last (may not call Rummy)"),
        ("floating", n, "per relative seat: floating with an empty hand"),
        ("opened", n, "per relative seat: has reached first_meld_min"),
        ("has_melded", n, "per relative seat: laid a meld of their own this round"),
        ("obligation", HAND_KINDS, "one-hot card taken from the pile that must be used this turn"),
        ("taken_top", HAND_KINDS, "one-hot top card taken this turn (may not be discarded back)"),
        ("claimed_card", HAND_KINDS, "one-hot card claimed by calling Rummy, still to be used"),
        ("turn", 4, "cards drawn this turn / 2, meld points this turn / 100, turns / 100, rummy_due"),
        ("gambit", len(GAMBITS), "one-hot Dealer's Gambit nomination: none, wild, double, split"),
        ("dealer_joker", len(DEALER_JOKER), "one-hot dealer's joker: none, available, used, blocked"),
        ("selected", CARD_KINDS, "cards selected so far in this decision (SELECT tokens)"),
        ("selected_depth", MAX_PILE, "one-hot pile depth selected so far (DEPTH token)"),
    ]
    fields = []
    off = 0
    for name, size, meaning in spec:
        fields.append((name, off, size, meaning))
        off += size
    out = ObservationLayout(players, tuple(fields), off)
    _LAYOUTS[players] = out
    return out


def encode_view(view: View, selected: tuple[int, ...] = (), offer: bool = False) -> np.ndarray:
    """The observation of ``view.seat`` (see :func:`layout`).

    Args:
        view: the seat's view (its own hand, public facts, nothing hidden).
        selected: the argument tokens chosen so far in the current decision.
        offer: whether the decision is an out-of-turn offer.
    """
    n = view.players
    lay = layout(n)
    off = {name: o for name, o, _, _ in lay.fields}
    seat = view.seat if view.seat is not None else 0
    obs = np.zeros(lay.size, dtype=np.float32)

    def rel(s: int | None) -> int:
        return -1 if s is None else (s - seat) % n

    idx: list[int] = []
    for c in view.hand:
        obs[off["hand"] + card_index(c)] += 1
    pile = view.discard
    base = off["pile"]
    for d in range(min(len(pile), MAX_PILE)):
        idx.append(base + d * HAND_KINDS + card_index(pile[-1 - d]))
    obs[off["pile_size"]] = len(pile) / MAX_PILE
    for m in view.melds:
        if m.id >= MAX_MELDS:
            continue
        mbase = off["meld_cards"] + m.id * CARD_KINDS
        for c, by, cl in zip(m.cards, m.laid_by, m.claimed or (False,) * len(m.cards), strict=False):
            k = card_index(c)
            obs[mbase + k] += 1
            obs[off["laid_by"] + rel(by) * CARD_KINDS + k] += 1
            if cl:
                obs[off["claimed"] + k] += 1
        if m.kind in MELD_KINDS:
            idx.append(off["meld_kind"] + m.id * len(MELD_KINDS) + MELD_KINDS.index(m.kind))
        idx.append(off["meld_owner"] + m.id * n + rel(m.owner))
        if m.sealed:
            idx.append(off["meld_flags"] + m.id * 2)
        if m.doubled:
            idx.append(off["meld_flags"] + m.id * 2 + 1)
    for s, cards in enumerate(view.known):
        kb = off["known"] + rel(s) * HAND_KINDS
        for c in cards:
            obs[kb + card_index(c)] += 1
    for c in view.removed:
        obs[off["removed"] + card_index(c)] += 1
    target = float(view.rules.target) or 1.0
    for s in range(n):
        r = rel(s)
        obs[off["hand_sizes"] + r] = view.hand_sizes[s] / 20.0
        if view.scores is not None:
            obs[off["scores"] + r] = view.scores[s] / target
        if view.floating and view.floating[s]:
            idx.append(off["floating"] + r)
        if view.opened and view.opened[s]:
            idx.append(off["opened"] + r)
        if view.has_melded and view.has_melded[s]:
            idx.append(off["has_melded"] + r)
    obs[off["stock"]] = view.stock_count / MAX_PILE
    if view.phase in PHASES:
        idx.append(off["phase"] + PHASES.index(view.phase))
    if offer:
        idx.append(off["offer"])
    idx.append(off["to_move"] + rel(view.to_move))
    idx.append(off["dealer"] + rel(view.dealer))
    if view.last_discarder is not None:
        idx.append(off["last_discarder"] + rel(view.last_discarder))
    for name, card in (("obligation", view.obligation), ("taken_top", view.taken_top), ("claimed_card", view.claimed_card)):
        if card is not None:
            idx.append(off[name] + card_index(card))
    t = off["turn"]
    obs[t] = view.drawn / 2.0
    obs[t + 1] = view.turn_points / 100.0
    obs[t + 2] = view.turns / 100.0
    obs[t + 3] = float(view.rummy_due)
    idx.append(off["gambit"] + GAMBITS.index(view.gambit))
    idx.append(off["dealer_joker"] + DEALER_JOKER.index(view.dealer_joker))
    for token in selected:
        if token < DEPTH:
            obs[off["selected"] + token - SELECT] += 1
        elif token < ARGUMENT_END:
            idx.append(off["selected_depth"] + token - DEPTH)
    if idx:
        obs[idx] = 1.0
    return obs
