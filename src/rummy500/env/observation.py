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

from collections import Counter
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
from rummy500.melds import TableMeld
from rummy500.views import View

__all__ = ["ObservationLayout", "add_selected", "encode_view", "layout"]

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


def _card_kinds() -> dict[int, int]:
    from rummy500.cards import JOKER, natural_cards

    out = {int(c): card_index(c) for c in natural_cards()}
    out[int(JOKER)] = card_index(JOKER)
    out.update({128 + int(c): card_index(c.__class__(128 + int(c))) for c in natural_cards()})
    return out


_KIND = _card_kinds()


def encode_view(view: View, selected: tuple[int, ...] = (), offer: bool = False) -> np.ndarray:
    """The observation of ``view.seat`` (see :func:`layout`).

    Args:
        view: the seat's view (its own hand, public facts, nothing hidden).
        selected: the argument tokens chosen so far in the current decision.
        offer: whether the decision is an out-of-turn offer.
    """
    n = view.players
    lay = layout(n)
    off = _offsets(lay)
    seat = view.seat if view.seat is not None else 0
    kind = _KIND
    # rel[s]: seat s relative to the observer.
    rel = [(s - seat) % n for s in range(n)]

    # Every count and one-hot goes into ``idx`` (repeated for counts).
    base = off["hand"]
    idx: list[int] = [base + kind[c] for c in view.hand]
    pile = view.discard
    base = off["pile"]
    depth = min(len(pile), MAX_PILE)
    idx += [base + d * HAND_KINDS + kind[pile[-1 - d]] for d in range(depth)]
    if view.melds:
        memo = _MELD_INDEXES
        for m in view.melds:
            if m.id >= MAX_MELDS:
                continue
            # A table meld is an immutable value: its entries for one observer are worked out once.
            hit = memo.get((id(m), seat, n))
            if hit is None or hit[0] is not m:
                if len(memo) > 100_000:
                    memo.clear()
                hit = memo[id(m), seat, n] = (m, _meld_indexes(m, off, rel, n))
            idx += hit[1]
    known = off["known"]
    for s, cards in enumerate(view.known):
        if cards:
            kb = known + rel[s] * HAND_KINDS
            idx += [kb + kind[c] for c in cards]
    if view.removed:
        removed = off["removed"]
        idx += [removed + kind[c] for c in view.removed]
    floating, opened, has_melded = view.floating, view.opened, view.has_melded
    for s in range(n):
        r = rel[s]
        if floating and floating[s]:
            idx.append(off["floating"] + r)
        if opened and opened[s]:
            idx.append(off["opened"] + r)
        if has_melded and has_melded[s]:
            idx.append(off["has_melded"] + r)
    phase = _PHASE_INDEX.get(view.phase)
    if phase is not None:
        idx.append(off["phase"] + phase)
    if offer:
        idx.append(off["offer"])
    idx.append(off["to_move"] + rel[view.to_move])
    idx.append(off["dealer"] + rel[view.dealer])
    if view.last_discarder is not None:
        idx.append(off["last_discarder"] + rel[view.last_discarder])
    if view.obligation is not None:
        idx.append(off["obligation"] + kind[view.obligation])
    if view.taken_top is not None:
        idx.append(off["taken_top"] + kind[view.taken_top])
    if view.claimed_card is not None:
        idx.append(off["claimed_card"] + kind[view.claimed_card])
    idx.append(off["gambit"] + GAMBITS.index(view.gambit))
    idx.append(off["dealer_joker"] + DEALER_JOKER.index(view.dealer_joker))
    obs = np.zeros(lay.size, dtype=np.float32)
    obs[np.fromiter(idx, np.intp, len(idx))] = 1.0
    if len(set(idx)) != len(idx):  # a card held or melded twice (two packs, two jokers)
        for i, k in Counter(idx).items():
            if k > 1:
                obs[i] = k
    # Scalars.
    obs[off["pile_size"]] = len(pile) / MAX_PILE
    obs[off["stock"]] = view.stock_count / MAX_PILE
    target = float(view.rules.target) or 1.0
    hs, sc = off["hand_sizes"], off["scores"]
    sizes, scores = view.hand_sizes, view.scores
    for s in range(n):
        r = rel[s]
        obs[hs + r] = sizes[s] / 20.0
        if scores is not None:
            obs[sc + r] = scores[s] / target
    t = off["turn"]
    obs[t : t + 4] = (view.drawn / 2.0, view.turn_points / 100.0, view.turns / 100.0, float(view.rummy_due))
    if selected:
        add_selected(obs, n, selected)
    return obs


def _meld_indexes(m: TableMeld, off: dict[str, int], rel: list[int], n: int) -> tuple[int, ...]:
    """The observation entries of table meld ``m`` for an observer (``rel``: seats relative to it)."""
    meld_cards, laid_by, claimed = off["meld_cards"], off["laid_by"], off["claimed"]
    mid = m.id
    out: list[int] = []
    append = out.append
    mbase = meld_cards + mid * CARD_KINDS
    flags = m.claimed
    kind = _KIND
    for i, (c, by) in enumerate(zip(m.cards, m.laid_by, strict=True)):
        k = kind[c]
        append(mbase + k)
        append(laid_by + rel[by] * CARD_KINDS + k)
        if flags and flags[i]:
            append(claimed + k)
    mk = _MELD_KIND_INDEX.get(m.kind)
    if mk is not None:
        append(off["meld_kind"] + mid * len(MELD_KINDS) + mk)
    append(off["meld_owner"] + mid * n + rel[m.owner])
    if m.sealed:
        append(off["meld_flags"] + mid * 2)
    if m.doubled:
        append(off["meld_flags"] + mid * 2 + 1)
    return tuple(out)


#: (id of a table meld, observer, players) -> (the meld, its observation entries).
_MELD_INDEXES: dict[tuple[int, int, int], tuple[TableMeld, tuple[int, ...]]] = {}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_MELD_KIND_INDEX = {k: i for i, k in enumerate(MELD_KINDS)}


def add_selected(obs: np.ndarray, players: int, selected: tuple[int, ...]) -> None:
    """Mark the argument tokens chosen so far in ``obs`` (in place)."""
    off = _offsets(layout(players))
    sel, sel_depth = off["selected"], off["selected_depth"]
    for token in selected:
        if token < DEPTH:
            obs[sel + token - SELECT] += 1
        elif token < ARGUMENT_END:
            obs[sel_depth + token - DEPTH] = 1


_OFFSETS: dict[int, dict[str, int]] = {}


def _offsets(lay: ObservationLayout) -> dict[str, int]:
    out = _OFFSETS.get(lay.players)
    if out is None:
        out = _OFFSETS[lay.players] = {name: o for name, o, _, _ in lay.fields}
    return out
