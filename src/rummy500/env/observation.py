"""The observation tensor: what one seat may see, as a flat ``float32`` vector.

It is built only from what the seat's :class:`~rummy500.views.View` holds --
the view is the engine's one boundary for hidden information -- that is the
round's public facts (:class:`~rummy500.public.Public`) and the seat's own
hand, plus the tokens the seat has selected so far in the current decision:
:func:`encode_view` takes a view, :func:`encode_public` the public facts and
the hand (the environments, which need no view), and :class:`SeatEncoder`
keeps one seat's tensor up to date from position to position. Seats are
*relative*: index 0 is the observing seat, 1 the next seat in play order, and
so on.

:func:`layout` lists the fields with their offsets and sizes; ``docs/research.md``
prints the table for the standard game. Card kinds are those of
:mod:`rummy500.env.encoding` (53 hand kinds, 105 meld kinds).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rummy500.cards import Card
from rummy500.env.encoding import (
    ARGUMENT_END,
    CARD_KINDS,
    DEPTH,
    HAND_KINDS,
    MAX_PILE,
    N_ACTIONS,
    SELECT,
    Decision,
    card_index,
)
from rummy500.env.facts import read as read_facts
from rummy500.melds import TableMeld
from rummy500.public import Public
from rummy500.rules import Rules
from rummy500.views import View

__all__ = [
    "ObservationLayout",
    "SeatEncoder",
    "add_selected",
    "encode_public",
    "encode_view",
    "layout",
    "layout_for",
]

PHASES = ("nominate", "draw", "play", "round_over")
GAMBITS = (None, "wild", "double", "split")
DEALER_JOKER = (None, "available", "used", "blocked")
MELD_KINDS = ("set", "run", "jokers")


@dataclass(frozen=True)
class ObservationLayout:
    """Offsets of the observation fields for ``players`` seats and a game of ``cards`` cards."""

    players: int
    fields: tuple[tuple[str, int, int, str], ...]  # name, offset, size, meaning
    size: int
    #: Cards in the game: the pile's rows (it never holds more) and, divided by 3, the meld slots.
    cards: int = MAX_PILE

    @property
    def meld_slots(self) -> int:
        """Table melds the layout has room for (a meld has 3 cards or more)."""
        return self.cards // 3

    def offset(self, name: str) -> int:
        """Where field ``name`` starts."""
        for f, off, _, _ in self.fields:
            if f == name:
                return off
        raise KeyError(name)


_LAYOUTS: dict[tuple[int, int], ObservationLayout] = {}


def layout_for(rules: Rules) -> ObservationLayout:
    """The observation layout of a game of these rules (the environments' observations).

    >>> from rummy500.rules import Rules
    >>> lay = layout_for(Rules.preset_rules("standard"))
    >>> lay.size, lay.cards, lay.meld_slots
    (5757, 54, 18)
    """
    return layout(rules.players, rules.pack_size)


def layout(players: int, cards: int = MAX_PILE) -> ObservationLayout:
    """The observation layout for ``players`` seats and a game of ``cards`` cards (at most 108).

    The pile has a row per card of the game and the table a slot per third of
    it, so a one-pack game's observation is about half a two-pack game's; the
    normalized counts (pile and stock sizes) are divided by 108 in every layout.
    """
    key = (players, cards)
    cached = _LAYOUTS.get(key)
    if cached is not None:
        return cached
    if not 3 <= cards <= MAX_PILE:
        raise ValueError(f"a game of {cards} cards: the observation has room for 3 to {MAX_PILE}")
    n = players
    slots = cards // 3
    spec = [
        ("hand", HAND_KINDS, "own hand: copies held of each card kind"),
        ("pile", cards * HAND_KINDS, "discard pile, top first: one-hot card kind at each depth"),
        ("pile_size", 1, "cards in the discard pile / 108"),
        ("meld_cards", slots * CARD_KINDS, "each table meld (by id): copies of each card kind (jokers as declared)"),
        ("meld_kind", slots * len(MELD_KINDS), "each meld: one-hot set, run, joker set"),
        ("meld_owner", slots * n, "each meld: one-hot relative seat that laid it down"),
        ("meld_flags", slots * 2, "each meld: sealed, doubled (Dealer's Gambit)"),
        ("laid_by", n * CARD_KINDS, "per relative seat: table cards that seat laid"),
        ("claimed", CARD_KINDS, "table cards claimed by calling Rummy"),
        (
            "known",
            n * HAND_KINDS,
            "per relative seat: cards seen taken into the hand (from the pile, or a joker from a meld by a swap) and still held",
        ),
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
        ("turn", 3, "cards drawn this turn / 2, meld points this turn / 100, turns / 100"),
        ("gambit", len(GAMBITS), "one-hot Dealer's Gambit nomination: none, wild, double, split"),
        ("dealer_joker", len(DEALER_JOKER), "one-hot dealer's joker: none, available, used, blocked"),
        ("selected", CARD_KINDS, "cards selected so far in this decision (SELECT tokens)"),
        ("selected_depth", cards, "one-hot pile depth selected so far (DEPTH token)"),
    ]
    fields = []
    off = 0
    for name, size, meaning in spec:
        fields.append((name, off, size, meaning))
        off += size
    out = ObservationLayout(players, tuple(fields), off, cards)
    _LAYOUTS[key] = out
    return out


def _card_kinds() -> list[int]:
    """Card kind by card value, a list indexed by the ``int`` of a card.

    A value that is no card has a kind far past any observation (an entry written for it raises
    IndexError); ints, not None, so that compiled code adds them to offsets without boxing.
    """
    from rummy500.cards import JOKER, natural_cards

    out: list[int] = [1 << 40] * 256
    for c in natural_cards():
        out[int(c)] = card_index(c)
        out[128 + int(c)] = card_index(c.__class__(128 + int(c)))
    out[int(JOKER)] = card_index(JOKER)
    return out


_KIND = _card_kinds()


def encode_view(view: View, selected: tuple[int, ...] = (), offer: bool = False) -> np.ndarray:
    """The observation of ``view.seat`` (see :func:`layout`): a new array.

    Args:
        view: the seat's view (its own hand, public facts, nothing hidden).
        selected: the argument tokens chosen so far in the current decision.
        offer: whether the decision is an out-of-turn offer.
    """
    seat = view.seat if view.seat is not None else 0
    target = float(view.rules.target) or 1.0
    return encode_public(view, seat, view.hand, view.scores, target, selected, offer, view.rules.pack_size)


def encode_public(
    pub: Public,
    seat: int,
    hand: Sequence[Card],
    scores: Sequence[int] | None,
    target: float,
    selected: tuple[int, ...] = (),
    offer: bool = False,
    cards: int = MAX_PILE,
) -> np.ndarray:
    """The observation of ``seat`` from the round's public facts and its own hand (what its view holds): a new array.

    Args:
        pub: the round's public facts (``state.public``, or the seat's view).
        seat: the observing seat.
        hand: the seat's own hand.
        scores: the match totals before this round, or None.
        target: the match target (``float(rules.target) or 1.0``).
        selected: the argument tokens chosen so far in the current decision.
        offer: whether the decision is an out-of-turn offer.
        cards: cards in the game (``rules.pack_size``; the layout's size, see :func:`layout`).
    """
    # One encoder per seat and thread, brought up to date from whatever it encoded last.
    encoders: dict[tuple[int, int, float, int], SeatEncoder] | None = getattr(_LOCAL, "encoders", None)
    if encoders is None:
        encoders = _LOCAL.encoders = {}
    key = (pub.players, seat, target, cards)
    encoder = encoders.get(key)
    if encoder is None:
        encoder = encoders[key] = SeatEncoder(pub.players, seat, target, cards)
    obs = encoder.update(pub, list(hand), scores, offer).copy()
    if selected:
        add_selected(obs, pub.players, selected, cards)
    return obs


_LOCAL = threading.local()


#: The fields a copy of a :class:`SeatEncoder` carries (all but the memoryview of its array).
_STATE = (
    "_at",
    "_flags",
    "_hand",
    "_known",
    "_known_entries",
    "_meld_entries",
    "_melds",
    "_nums",
    "_offer",
    "_one",
    "_pile",
    "_pub",
    "_removed",
    "_scores",
    "_sizes",
    "_vals",
    "cards",
    "n",
    "obs",
    "rel",
    "seat",
    "target",
)


class SeatEncoder:
    """One seat's observation, kept up to date from position to position.

    :meth:`update` takes the round's public facts (a :class:`~rummy500.public.Public`
    or the seat's :class:`~rummy500.views.View`), the seat's own hand and the
    match totals -- nothing hidden from the seat -- and rewrites only the fields
    whose source changed since the last call: a public value is immutable and
    each action replaces the fields it changes, so an unchanged field is the
    same object. Counts are added and taken away; the pile is shifted a row
    when a card is discarded onto it or taken from it.

    Args:
        players: seats at the table.
        seat: the observing seat.
        target: the match target (scores are divided by it).
        cards: cards in the game (``rules.pack_size``): the layout's pile rows and meld slots.
    """

    __slots__ = ("_mv", "_slots", *_STATE)

    def __init__(self, players: int, seat: int, target: float = 500.0, cards: int = MAX_PILE) -> None:
        lay = layout(players, cards)
        self.cards = cards
        self._slots = lay.meld_slots
        self.n = n = players
        self.seat = seat
        self.target = target
        off = _offsets(lay)
        self.rel = rel = [(s - seat) % n for s in range(n)]
        #: The observation (updated in place: copy it before handing it out).
        self.obs = np.zeros(lay.size, dtype=np.float32)
        # Entries are written through a memoryview: a float per item, much cheaper than numpy's scalar indexing.
        self._mv: Any = self.obs.data
        # Where each field's entries go: per absolute seat for the seat fields, by value for the others.
        self._at = _Offsets(off, rel)
        self._pub: object = None
        self._hand: list[Card] = []
        self._pile: tuple[Card, ...] = ()
        self._melds: tuple[TableMeld, ...] = ()
        self._meld_entries: list[tuple[int, ...]] = []
        self._known: tuple[tuple[Card, ...], ...] = ((),) * n
        # each seat's known cards as their entries, ascending (replaced, never changed in place)
        self._known_entries: tuple[list[int], ...] = ([],) * n
        self._removed: tuple[Card, ...] = ()
        self._flags: list[object] = [None, None, None]
        # The one-hot fields: the value last encoded and the entry set for it (-1: none).
        self._vals: list[object] = [_UNSET] * 9
        self._one = [-1] * 9
        self._sizes: tuple[int, ...] = (-1,) * n  # no hand size: the first update writes them all
        # stock_count, drawn, turn_points, turns as last written (-1: none yet)
        self._nums: list[int] = [-1] * 4
        self._scores: list[int] | None = None
        self._offer = False

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Copied and pickled by its fields (the compiled build's native class has no slots to copy); the
        # memoryview is made again from the copied array.
        state = {name: getattr(self, name) for name in _STATE}
        return _seat_encoder, (self.n, self.seat, self.target, self.cards, state)

    def update(self, pub: Public, hand: list[Card], scores: Sequence[int] | None, offer: bool = False) -> np.ndarray:
        """The observation for this position (the array :attr:`obs`, updated in place).

        Args:
            pub: the round's public facts (``state.public``, or the seat's view).
            hand: the seat's own hand (any order).
            scores: the match totals before this round, or None.
            offer: whether the seat decides an out-of-turn offer now.
        """
        mv = self._mv
        at = self._at
        kind = _KIND
        if pub is not self._pub:
            self._pub = pub
            # every field read at once (see rummy500.env.facts: the compiled build's generic reads cost more)
            (
                discard,
                melds,
                known,
                removed,
                floating,
                opened,
                has_melded,
                phase,
                to_move,
                dealer,
                last_discarder,
                obligation,
                taken_top,
                claimed_card,
                gambit,
                dealer_joker,
                sizes_now,
                stock_count,
                drawn,
                turn_points,
                turns,
            ) = read_facts(pub)
            if discard is not self._pile:
                self._update_pile(discard)
            if melds is not self._melds:
                self._update_melds(melds)
            if known is not self._known:
                self._update_known(known)
            if removed is not self._removed:
                base = at.removed
                for c in self._removed:
                    mv[base + kind[c]] -= 1.0
                for c in removed:
                    mv[base + kind[c]] += 1.0
                self._removed = removed
            flags = self._flags
            if floating is not flags[0]:
                flags[0] = _write_flags(mv, at.floating, floating)
            if opened is not flags[1]:
                flags[1] = _write_flags(mv, at.opened, opened)
            if has_melded is not flags[2]:
                flags[2] = _write_flags(mv, at.has_melded, has_melded)
            # one-hot fields: where the value changed, clear the old entry and set the new one
            # (an identity test: a value equal to the last one but not the same object is just rewritten)
            vals, one = self._vals, self._one
            v: Any = phase
            if v is not vals[0]:
                vals[0] = v
                _move(mv, one, 0, at.phase.get(v, -1))
            v = to_move
            if v is not vals[1]:
                vals[1] = v
                _move(mv, one, 1, at.to_move[v])
            v = dealer
            if v is not vals[2]:
                vals[2] = v
                _move(mv, one, 2, at.dealer[v])
            v = last_discarder
            if v is not vals[3]:
                vals[3] = v
                _move(mv, one, 3, -1 if v is None else at.last_discarder[v])
            v = obligation
            if v is not vals[4]:
                vals[4] = v
                _move(mv, one, 4, -1 if v is None else at.obligation + kind[v])
            v = taken_top
            if v is not vals[5]:
                vals[5] = v
                _move(mv, one, 5, -1 if v is None else at.taken_top + kind[v])
            v = claimed_card
            if v is not vals[6]:
                vals[6] = v
                _move(mv, one, 6, -1 if v is None else at.claimed_card + kind[v])
            v = gambit
            if v is not vals[7]:
                vals[7] = v
                _move(mv, one, 7, at.gambit[v])
            v = dealer_joker
            if v is not vals[8]:
                vals[8] = v
                _move(mv, one, 8, at.dealer_joker[v])
            sizes: tuple[int, ...] = sizes_now
            was: tuple[int, ...] = self._sizes
            if sizes is not was:
                self._sizes = sizes
                entries = at.hand_sizes
                for i in range(self.n):
                    k = sizes[i]
                    if k != was[i]:
                        mv[entries[i]] = k / 20.0
            # the counters, each written when it changed
            nums = self._nums
            k = stock_count
            if k != nums[0]:
                nums[0] = k
                mv[at.stock] = k / MAX_PILE
            t = at.turn
            k = drawn
            if k != nums[1]:
                nums[1] = k
                mv[t] = k / 2.0
            k = turn_points
            if k != nums[2]:
                nums[2] = k
                mv[t + 1] = k / 100.0
            k = turns
            if k != nums[3]:
                nums[3] = k
                mv[t + 2] = k / 100.0
        old = self._hand
        if hand != old:
            self._update_hand(hand, old)
        if scores != self._scores:
            target = self.target
            for i, k in zip(at.scores, scores or [0] * self.n, strict=True):
                mv[i] = k / target
            self._scores = None if scores is None else list(scores)
        if offer != self._offer:
            mv[at.offer] = 1.0 if offer else 0.0
            self._offer = offer
        return self.obs

    def observe(
        self, pub: Public, hand: list[Card], scores: Sequence[int] | None, offer: bool, decision: Decision | None
    ) -> dict[str, np.ndarray]:
        """The deciding seat's observation (a copy of :attr:`obs` with the tokens selected so far) and action mask.

        ``decision``: the seat's decision (None: none, an all-0 mask).
        """
        obs = self.update(pub, hand, scores, offer).copy()
        if decision is None:
            mask = bytearray(N_ACTIONS)
        else:
            selected = decision.selected
            if selected:
                _mark_selected(obs.data, self._at.selected, self._at.selected_depth, selected)
            mask = decision.mask()
        return {"observation": obs, "action_mask": np.frombuffer(mask, _INT8)}

    def _update_hand(self, hand: list[Card], old: list[Card]) -> None:
        """The hand's counts: one card added at the end or one taken out (the common cases), else all rewritten."""
        mv, kind = self._mv, _KIND
        base = self._at.hand
        n, m = len(hand), len(old)
        if n == m + 1 and hand[:m] == old:
            mv[base + kind[hand[m]]] += 1.0
        elif n + 1 == m:
            i = 0
            while i < n and hand[i] == old[i]:
                i += 1
            if hand[i:] == old[i + 1 :]:
                mv[base + kind[old[i]]] -= 1.0
            else:
                self._rewrite_hand(hand)
        else:
            self._rewrite_hand(hand)
        self._hand = hand.copy()

    def _rewrite_hand(self, hand: list[Card]) -> None:
        mv, kind = self._mv, _KIND
        base = self._at.hand
        mv[base : base + HAND_KINDS] = _ZEROS[:HAND_KINDS]
        for c in hand:
            mv[base + kind[c]] += 1.0

    def _update_pile(self, pile: tuple[Card, ...]) -> None:
        """The pile, top first: one row of card kinds per depth (rows moved with memoryview slices: a memmove)."""
        mv, kind = self._mv, _KIND
        at = self._at
        base = at.pile
        old = self._pile
        was, now = len(old), len(pile)
        mv[at.pile_size] = now / MAX_PILE
        row = HAND_KINDS
        rows = self.cards
        if was < rows and now == was + 1 and pile[:was] == old:
            # a card put on top: every row one deeper
            if was:
                mv[base + row : base + now * row] = mv[base : base + was * row]
                mv[base + kind[old[-1]]] = 0.0
            mv[base + kind[pile[-1]]] = 1.0
        elif now < was <= rows and pile == old[:now]:
            # cards taken from the top: every row that many shallower
            k = was - now
            if now:
                mv[base : base + now * row] = mv[base + k * row : base + was * row]
            mv[base + now * row : base + was * row] = _ZEROS[: k * row]
        else:
            was = min(was, rows)
            mv[base : base + was * row] = _ZEROS[: was * row]
            top = now - 1
            for d in range(min(now, rows)):
                mv[base + d * row + kind[pile[top - d]]] = 1.0
        self._pile = pile

    def _update_melds(self, melds: tuple[TableMeld, ...]) -> None:
        """Take away the entries of every meld that changed and add its new ones."""
        mv = self._mv
        old, entries = self._melds, self._meld_entries
        have = len(old)
        for i, m in enumerate(melds):
            if i < have:
                if old[i] is m:
                    continue
                # a meld laid off on: most of its entries stay, only the difference is written
                e = self._entries_of(m)
                _recount(mv, entries[i], e)
                entries[i] = e
                continue
            e = self._entries_of(m)
            for j in e:
                mv[j] += 1.0
            entries.append(e)
        for i in range(len(melds), have):
            for j in entries[i]:
                mv[j] -= 1.0
        del entries[len(melds) :]
        self._melds = melds

    def _entries_of(self, m: TableMeld) -> tuple[int, ...]:
        # Worked out once per meld value and observer: the encoder keeps them until the meld changes.
        if m.id >= self._slots:
            return ()
        return _meld_indexes(m, self._at, self.rel, self.n)

    def _update_known(self, known: tuple[tuple[Card, ...], ...]) -> None:
        mv, kind = self._mv, _KIND
        base = self._at.known
        old = self._known
        rel = self.rel
        was = self._known_entries
        now = list(was)
        for s in range(self.n):
            cards = known[s]
            if cards is old[s]:
                continue
            kb = base + rel[s] * HAND_KINDS
            entries = sorted([kb + kind[c] for c in cards])
            # a card or two more (or fewer) than before: only the difference is written
            _recount(mv, was[s], entries)
            now[s] = entries
        self._known = known
        self._known_entries = tuple(now)



def _seat_encoder(players: int, seat: int, target: float, cards: int, state: dict[str, Any]) -> SeatEncoder:
    """A :class:`SeatEncoder` of these fields (what copying and unpickling one build)."""
    out = SeatEncoder(players, seat, target, cards)
    for name, value in state.items():
        setattr(out, name, value)
    out._mv = out.obs.data
    return out



_UNSET = object()
#: The masks' dtype (a dtype object: ``np.frombuffer`` converts ``dtype=np.int8`` at every call).
_INT8 = np.dtype(np.int8)
#: Zeros to clear pile rows with.
_ZEROS_ARRAY = np.zeros(MAX_PILE * HAND_KINDS, dtype=np.float32)
_ZEROS_ARRAY.flags.writeable = False
_ZEROS: Any = _ZEROS_ARRAY.data


def _recount(mv: Any, old: Sequence[int], new: Sequence[int]) -> None:
    """Take away one at each entry of ``old`` and add one at each of ``new`` (both ascending), writing only where they differ."""
    i = j = 0
    n, m = len(old), len(new)
    while i < n and j < m:
        a = old[i]
        b = new[j]
        if a == b:
            i += 1
            j += 1
        elif a < b:
            mv[a] -= 1.0
            i += 1
        else:
            mv[b] += 1.0
            j += 1
    for k in range(i, n):
        mv[old[k]] -= 1.0
    for k in range(j, m):
        mv[new[k]] += 1.0


def _move(mv: Any, one: list[int], i: int, j: int) -> None:
    """Move one-hot field ``i`` from its entry to entry ``j`` (-1: none)."""
    k = one[i]
    if k >= 0:
        mv[k] = 0.0
    if j >= 0:
        mv[j] = 1.0
    one[i] = j


def _write_flags(mv: Any, entries: list[int], values: tuple[bool, ...] | None) -> tuple[bool, ...] | None:
    """Write a per-seat flag field (``entries[s]``: where seat ``s``'s flag goes); return ``values``."""
    for s, i in enumerate(entries):
        mv[i] = 1.0 if values and values[s] else 0.0
    return values


class _Offsets:
    """Where the entries of one observer go: offsets, per absolute seat lists, per value dicts."""

    __slots__ = (
        "claimed",
        "claimed_card",
        "dealer",
        "dealer_joker",
        "floating",
        "gambit",
        "hand",
        "hand_sizes",
        "has_melded",
        "known",
        "laid_by",
        "last_discarder",
        "meld_cards",
        "meld_flags",
        "meld_kind",
        "meld_owner",
        "obligation",
        "offer",
        "opened",
        "phase",
        "pile",
        "pile_size",
        "removed",
        "scores",
        "selected",
        "selected_depth",
        "stock",
        "taken_top",
        "to_move",
        "turn",
    )

    def __init__(self, off: dict[str, int], rel: list[int]) -> None:
        self.hand, self.pile, self.pile_size, self.known = off["hand"], off["pile"], off["pile_size"], off["known"]
        self.removed, self.stock, self.turn, self.offer = off["removed"], off["stock"], off["turn"], off["offer"]
        self.obligation, self.taken_top, self.claimed_card = off["obligation"], off["taken_top"], off["claimed_card"]
        self.meld_cards, self.laid_by, self.claimed = off["meld_cards"], off["laid_by"], off["claimed"]
        self.meld_kind, self.meld_owner, self.meld_flags = off["meld_kind"], off["meld_owner"], off["meld_flags"]
        self.selected, self.selected_depth = off["selected"], off["selected_depth"]

        def per_seat(name: str) -> list[int]:
            return [off[name] + r for r in rel]

        self.hand_sizes, self.scores = per_seat("hand_sizes"), per_seat("scores")
        self.to_move, self.dealer, self.last_discarder = per_seat("to_move"), per_seat("dealer"), per_seat("last_discarder")
        self.floating, self.opened, self.has_melded = per_seat("floating"), per_seat("opened"), per_seat("has_melded")
        self.phase = {p: off["phase"] + i for i, p in enumerate(PHASES)}
        self.gambit = {g: off["gambit"] + i for i, g in enumerate(GAMBITS)}
        self.dealer_joker = {d: off["dealer_joker"] + i for i, d in enumerate(DEALER_JOKER)}


def _meld_indexes(m: TableMeld, at: _Offsets, rel: list[int], n: int) -> tuple[int, ...]:
    """The observation entries of table meld ``m`` for an observer (``rel``: seats relative to it), ascending."""
    mid = m.id
    out: list[int] = []
    mbase = at.meld_cards + mid * CARD_KINDS
    laid_base = at.laid_by
    claimed = at.claimed
    flags = m.claimed
    cards = m.cards
    laid = m.laid_by
    kind = _KIND
    for i in range(len(cards)):
        k: int = kind[cards[i]]
        out.append(mbase + k)
        out.append(laid_base + rel[laid[i]] * CARD_KINDS + k)
        if flags and flags[i]:
            out.append(claimed + k)
    mk = _MELD_KIND_INDEX.get(m.kind)
    if mk is not None:
        out.append(at.meld_kind + mid * len(MELD_KINDS) + mk)
    out.append(at.meld_owner + mid * n + rel[m.owner])
    if m.sealed:
        out.append(at.meld_flags + mid * 2)
    if m.doubled:
        out.append(at.meld_flags + mid * 2 + 1)
    out.sort()  # ascending: a changed meld's entries are compared with its old ones (_recount)
    return tuple(out)


_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_MELD_KIND_INDEX = {k: i for i, k in enumerate(MELD_KINDS)}


def add_selected(obs: np.ndarray, players: int, selected: tuple[int, ...], cards: int = MAX_PILE) -> None:
    """Mark the argument tokens chosen so far in ``obs`` (in place; ``cards``: the layout's, see :func:`layout`)."""
    off = _offsets(layout(players, cards))
    _mark_selected(obs.data, off["selected"], off["selected_depth"], selected)


def _mark_selected(mv: Any, sel: int, sel_depth: int, selected: tuple[int, ...]) -> None:
    """:func:`add_selected` through a memoryview of the array (``sel``, ``sel_depth``: the two fields' offsets)."""
    for token in selected:
        if token < DEPTH:
            mv[sel + token - SELECT] += 1.0
        elif token < ARGUMENT_END:
            mv[sel_depth + token - DEPTH] = 1.0


_OFFSETS: dict[tuple[int, int], dict[str, int]] = {}


def _offsets(lay: ObservationLayout) -> dict[str, int]:
    key = (lay.players, lay.cards)
    out = _OFFSETS.get(key)
    if out is None:
        out = _OFFSETS[key] = {name: o for name, o, _, _ in lay.fields}
    return out
