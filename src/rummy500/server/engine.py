"""The server's one door into the engine: rules, a live match, its public log, its replay.

Everything the server asks of :mod:`rummy500` goes through this module, so the
rest of the server never touches engine internals. :class:`LiveGame` wraps a
:class:`~rummy500.match.Match` with the server's bookkeeping: the version
number (how many actions were accepted), validation without side effects, and
the *public* events each action produced (what goes in the table log: nothing
a seat could not see at the table).

A live game is fully determined by its rules, player names, a 128-bit seed and
its action log: :meth:`LiveGame.replay` rebuilds it, which is how the server
restarts and how finished games are stepped through.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

from rummy500.actions import Action, Decline, Reshuffle, action_from_record
from rummy500.cards import JOKER, Card
from rummy500.events import GameOver, Reshuffled, RoundOver, events_seen_by
from rummy500.match import Match
from rummy500.melds import TableMeld, find_layoffs, find_melds
from rummy500.rules import OPTIONS, PRESET_DESCRIPTIONS, PRESET_LABELS, PRESETS, CallingRummy, Rules, RulesError
from rummy500.scoring import meld_points
from rummy500.state import Decision, IllegalAction, RoundState
from rummy500.views import View

__all__ = [
    "Action",
    "Decline",
    "IllegalAction",
    "LiveGame",
    "RulesError",
    "parse_action",
    "parse_rules",
    "rules_catalogue",
    "view_json",
]


def parse_rules(mapping: Mapping[str, Any], players: int) -> Rules:
    """Parse a table's rules strictly, fixing the number of seats.

    Raises:
        RulesError: Every problem with the options, at once.
    """
    return Rules.from_mapping(dict(mapping), players=players)


#: The highest ``first_meld_min`` a table of this server may have. Working out whether a
#: hand can still reach the minimum (every draw offers the pile's cards to it) grows steeply
#: with the minimum: past about 150 points a deep pile can take a second or more per turn,
#: and a person's move is worked out in the server's event loop, where every table waits.
#: Tables at home play 0 to 50; the engine itself accepts any minimum.
MAX_FIRST_MELD_MIN = 150


def server_rules_problems(rules: Rules) -> list[str]:
    """What this server does not host in ``rules`` (beyond what the engine refuses), one line each.

    >>> server_rules_problems(Rules.from_mapping({"first_meld_min": 50}))
    []
    >>> server_rules_problems(Rules.from_mapping({"first_meld_min": 300}))
    ['first_meld_min: at most 150 at this server (got 300): a larger minimum makes each turn slow to work out']
    """
    if rules.first_meld_min > MAX_FIRST_MELD_MIN:
        return [
            f"first_meld_min: at most {MAX_FIRST_MELD_MIN} at this server (got {rules.first_meld_min}): "
            "a larger minimum makes each turn slow to work out"
        ]
    return []


def rules_catalogue() -> dict[str, Any]:
    """The options and presets, for the table editor (``GET /api/rules``)."""
    # Each option with its named values (label and description each) and the
    # whole numbers it accepts besides: OptionSpec.to_dict, for the web form
    # (with this server's own limit on the opening minimum).
    options = [spec.to_dict() for spec in OPTIONS.values()]
    for option in options:
        if option["name"] == "first_meld_min" and option.get("number"):
            option["number"] = dict(option["number"], max=MAX_FIRST_MELD_MIN)
    presets = [
        {"name": name, "label": PRESET_LABELS.get(name, name), "options": dict(opts), "description": PRESET_DESCRIPTIONS.get(name, "")}
        for name, opts in PRESETS.items()
    ]
    return {"options": options, "presets": presets}


#: The fields of a view's JSON, in :meth:`View.to_dict`'s order.
_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(View) if f.name != "rules")
#: Melds are immutable: each one's JSON is built once (bounded; cleared when full).
_MELD_JSON: dict[TableMeld, dict[str, object]] = {}


class _Unknown(Exception):
    """A view field of a type :func:`view_json` does not know (it then uses ``View.to_dict``)."""


#: Each card's text, built once (a card is an ``int``: looked up only for exact ``Card`` values).
_CARD_TEXT: dict[int, str] = {}


def _card_text(card: Card) -> str:
    text = _CARD_TEXT.get(card)
    if text is None:
        text = _CARD_TEXT[card] = str(card)
    return text


def _json_value(value: Any) -> Any:
    # Exact types first: the view is mostly cards, lists of cards and plain values.
    kind = type(value)
    if kind is Card:
        return _card_text(value)
    if kind is tuple or kind is list:
        if value and all(type(v) is Card for v in value):
            return [_card_text(v) for v in value]
        return [_json_value(v) for v in value]
    if value is None or kind is int or kind is str or kind is bool:
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_json_value(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, TableMeld):
        found = _MELD_JSON.get(value)
        if found is None:
            if len(_MELD_JSON) > 50_000:
                _MELD_JSON.clear()
            found = _MELD_JSON[value] = value.to_dict()
        return found
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(value)
    raise _Unknown(type(value).__name__)


def view_json(view: View) -> dict[str, Any]:
    """``view.to_dict()``, built faster (once per seat and move, it is the server's hot path), less declines.

    ``legal`` never lists a ``decline``: a seat offered an out-of-turn call
    lets it pass by sending nothing, and the server refuses a ``decline``.

    The melds' JSON is kept between moves (melds are immutable); a field of a
    type not known here falls back on :meth:`View.to_dict` (tests hold the two
    equal on many positions). The result may share lists with other views:
    treat it as read-only.
    """
    try:
        out: dict[str, Any] = {}
        for name in _VIEW_FIELDS:
            value = getattr(view, name)
            if name == "legal":
                # A decline is no move a client sends (an offer passes when the seat sends nothing).
                out[name] = [a.to_record() for a in value if not isinstance(a, Decline)]
            elif name == "hand":
                out[name] = _json_value(value) if view.seat is not None else None
            elif name == "final_hands" and value is None:
                continue
            else:
                out[name] = _json_value(value)
        return out
    except _Unknown:
        out = view.to_dict()
        out["legal"] = [a for a in out["legal"] if "decline" not in a]
        return out


def parse_action(record: Any) -> Action:
    """Parse a RECORD.md verb without ``p`` (``{"draw": "stock"}``).

    Raises:
        ValueError: Not an action (unknown verb, bad card, a ``p`` field...).
    """
    if not isinstance(record, dict):
        raise ValueError('an action is a JSON object such as {"draw": "stock"}')
    if "p" in record:
        raise ValueError('leave out "p": the seat is the one your token belongs to')
    if "reshuffle" in record:
        raise ValueError("a reshuffle is the table's chance event, not a player's action")
    if "decline" in record:
        raise ValueError("nothing to send to let a call pass: just play on (declines are not moves)")
    try:
        return action_from_record(record)
    except ValueError:
        raise
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not an action: {record!r}") from exc


class LiveGame:
    """A match being played (or replayed) by the server.

    Attributes:
        match: The engine's match; only this class mutates it.
        version: Number of actions accepted so far.
        names: Player names by seat.
    """

    def __init__(self, rules: Rules, names: list[str], seed: int) -> None:
        """Deal a new match from ``random.Random(seed)``."""
        self.rules = rules
        self.names = list(names)
        self.seed = seed
        self.match = Match(rules, players=list(names), rng=random.Random(seed))
        self.version = 0
        #: The last scored round, as :meth:`round_summary` tells it (``None`` before).
        self.last_summary: dict[str, Any] | None = None
        self._points: tuple[tuple[TableMeld, ...], list[int]] | None = None

    def __repr__(self) -> str:  # the seed stays out of logs and tracebacks
        return f"LiveGame(players={self.names!r}, version={self.version})"

    @classmethod
    def replay(
        cls,
        rules: Rules,
        names: list[str],
        seed: int,
        actions: Iterable[tuple[int, Mapping[str, Any]]],
        *,
        upto: int | None = None,
        events: list[dict[str, Any]] | None = None,
    ) -> LiveGame:
        """Rebuild a game from its stored truth.

        Args:
            rules: The game's rules.
            names: Player names by seat.
            seed: The game's seed.
            actions: ``(seat, verb)`` pairs in order.
            upto: Stop after this many actions.
            events: If given, the public events of every action are appended.

        Raises:
            ValueError: A stored action is illegal (the log does not match the engine).
        """
        game = cls(rules, names, seed)
        for i, (seat, record) in enumerate(actions):
            if upto is not None and i >= upto:
                break
            produced = game.apply(seat, parse_action(dict(record)))
            if events is not None:
                events.extend(produced)
        return game

    # ---------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return bool(self.match.is_over)

    def actors(self) -> list[int]:
        """Seats that may act now, the seat to move first."""
        if self.is_over:
            return []
        return list(self._state().actors())

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return int(self._state().public.to_move)

    def _state(self) -> RoundState:
        state = self.match.state
        assert state is not None, "a live game always has a round"
        return state

    def decision(self, skip: Iterable[int] = ()) -> Decision | None:
        """The engine's next decider, passing over the offers of ``skip`` seats (people call when they like)."""
        return self.match.decision(skip)

    def legal(self, seat: int) -> list[Action]:
        """The seat's legal actions now, as a client may send them (never a ``Decline``: see :func:`view_json`)."""
        if self.is_over:
            return []
        return [a for a in self._state().legal_actions(seat) if not isinstance(a, Decline)]

    def view(self, seat: int | None) -> Any:
        """The engine's :class:`View` for a seat, or the spectators' (``None``)."""
        return self.match.view(seat)

    def view_dict(self, seat: int | None) -> dict[str, Any]:
        """The JSON view a seat (or a spectator, ``None``) is sent (read-only: parts are shared)."""
        return view_json(self.view(seat))

    def hands(self) -> list[list[str]]:
        """Every seat's true hand, sorted (only ever sent once the game is finished).

        The match's own hands, not what each seat's view holds: a Dealer's Gambit
        deal lies face down (no seat's view shows it) until the dealer nominates.
        """
        return [[str(c) for c in sorted(hand)] for hand in self._state().hands]

    def record(self) -> dict[str, Any]:
        """The RECORD.md record of the match so far."""
        return self.match.record()

    def result(self) -> dict[str, Any]:
        """Totals and winner (``None`` while the game goes on)."""
        winner = self.match.winner
        return {"totals": list(self.match.totals), "winner": winner}

    def score_sheet(self) -> list[dict[str, Any]]:
        """Every finished round of the match, oldest first: the public score sheet.

        Each entry: ``round`` (0-based), ``dealer``, ``went_out`` (a seat or
        ``None``), ``round_scores`` and ``totals`` (per seat, after that round).
        The last round of a finished game whose winner got ``final_bonus`` adds
        ``bonus`` ``{"seat", "points"}``; its ``totals`` include it.
        """
        match = self.match
        totals = list(match.initial_scores)
        sheet: list[dict[str, Any]] = []
        for index, log in enumerate(match.rounds):
            if log.round_scores is None:
                continue  # the round being played
            totals = [t + s for t, s in zip(totals, log.round_scores, strict=True)]
            sheet.append(
                {
                    "round": index,
                    "dealer": log.dealer,
                    "went_out": log.went_out,
                    "round_scores": list(log.round_scores),
                    "totals": list(totals),
                }
            )
        if sheet and match.is_over:
            if match.bonus_to is not None:
                sheet[-1]["bonus"] = {"seat": match.bonus_to, "points": int(self.rules.final_bonus)}
            sheet[-1]["totals"] = list(match.totals)
        return sheet

    def table_points(self) -> list[int]:
        """Points each seat has laid on the table this round (public: the melds are).

        Counted again only when the melds changed (a meld or a lay-off).
        """
        state = self._state()
        melds = tuple(state.public.melds)
        if self._points is None or self._points[0] != melds:
            out = [0] * len(self.names)
            for meld in melds:
                for seat, pts in meld_points(meld, self.rules).items():
                    out[seat] += pts
            self._points = (melds, out)
        return list(self._points[1])

    def call_chance(self) -> bool:
        """Whether a Rummy! call may be possible now, judged on public facts only.

        True in the draw phase after a discard when a card of the pile could be
        laid off on a table meld, or melds with the cards above it. Whether a
        given seat may call also depends on its hand, which this never looks at,
        so the answer (and the call window it opens) tells nobody anything.
        """
        if self.is_over or self.rules.calling_rummy is CallingRummy.OFF:
            return False
        state = self._state()
        if state.public.phase.value != "draw" or state.public.last_discarder is None:
            return False
        pile = state.public.discard
        depths = (
            range(1, min(1, len(pile)) + 1)
            if self.rules.calling_rummy is CallingRummy.TOP_CARD
            else range(1, len(pile) + 1)
        )
        for k in depths:
            card = pile[-k]
            if any(find_layoffs(meld, [card], self.rules) for meld in state.public.melds):
                return True
            # A joker of a found meld carries its declaration: compare bare cards.
            bare = JOKER if card >= JOKER else card
            if k >= 3 and any(
                bare in [JOKER if c >= JOKER else c for c in cards] for cards in find_melds(pile[-k:], self.rules, 0)
            ):
                return True
        return False

    def may_call(self) -> list[int]:
        """Seats allowed by their place at the table to call Rummy! now (not the discarder, not the seat to move)."""
        state = self._state()
        return [s for s in range(len(self.names)) if s not in (state.public.to_move, state.public.last_discarder)]

    def round_summary(self, state: RoundState, round_index: int) -> dict[str, Any]:
        """A scored round for the table: per seat melded and in-hand points, the melds and the hands left.

        Shown at the table when the round ends (the hands are laid open to be counted).
        Per seat ``bonus`` is the ``going_out_bonus`` in its round score (0 but for
        the seat that went out; none when a Master's Hand scored the round).
        ``masters`` is the seat whose Rummy Master's Hand (``masters_hand``) scored
        the round (500, before any ``score_divisor``), else None. The
        round that ends a game decided with a ``final_bonus`` adds ``final_bonus``
        ``{"seat", "points"}``, as the score sheet's ``bonus``: the seats' ``total``
        include it.
        """
        result = state.result
        assert result is not None
        match = self.match
        totals = list(match.totals)
        went_out = result.went_out
        going_out = int(self.rules.going_out_bonus) if went_out is not None and state.masters is None else 0
        summary: dict[str, Any] = {
            "round": round_index,
            "went_out": went_out,
            "masters": state.masters,
            "seats": [
                {
                    "seat": s,
                    "melded": result.table_points[s],
                    "in_hand": result.hand_points[s],
                    "bonus": going_out if s == went_out else 0,
                    "round_score": result.round_scores[s],
                    "total": totals[s],
                    "hand": [str(c) for c in sorted(state.hands[s])],
                }
                for s in range(len(self.names))
            ],
            "melds": [m.to_dict() for m in state.public.melds],
        }
        if match.is_over and match.bonus_to is not None:
            summary["final_bonus"] = {"seat": match.bonus_to, "points": int(self.rules.final_bonus)}
        return summary

    # ---------------------------------------------------------------- actions
    def check(self, seat: int, action: Action) -> None:
        """Validate an action without changing anything (the engine's cached ``is_legal``).

        Raises:
            IllegalAction: Naming the rule the action breaks.
        """
        if isinstance(action, Reshuffle | Decline):
            raise IllegalAction(f"a {action} is not a player's move at this table")
        if self.is_over:
            raise IllegalAction("the game is over")
        if not self.match.is_legal(action, seat):
            assert self.match.state is not None
            raise IllegalAction(self.match.state.explain(action, seat))

    def apply(self, seat: int, action: Action, *, check: bool = True) -> list[dict[str, Any]]:
        """Apply an action and return the public log entries it produced.

        The engine's events are redacted once, for the public log
        (:func:`rummy500.events.events_seen_by` with no seat): a draw from the
        stock shows no card, a reshuffle only that it happened. The action's
        entry carries them under ``events``.

        Args:
            seat: Who plays.
            action: The action.
            check: Validate first (skip only after :meth:`check` passed).

        Raises:
            IllegalAction: The action is illegal; nothing changed.
        """
        if check:
            self.check(seat, action)
        round_index = self.match.round_index
        before = self._state()  # the round's state: scored in place if this action ends it
        produced = self.match.apply(seat, action, check=False)
        self.version += 1
        events: list[dict[str, Any]] = [
            {
                "kind": "action",
                "version": self.version,
                "round": round_index,
                "seat": seat,
                "action": action.to_record(),
                "text": str(action),
                "events": events_seen_by(produced, None),
            }
        ]
        for event in produced:
            if isinstance(event, Reshuffled):
                events.append({"kind": "reshuffle", "version": self.version, "round": round_index})
            elif isinstance(event, RoundOver):
                self.last_summary = self.round_summary(before, round_index)
                events.append(
                    {
                        "kind": "round_over",
                        "version": self.version,
                        "round": round_index,
                        "went_out": event.went_out,
                        "round_scores": list(event.round_scores),
                        "totals": list(self.match.totals),
                    }
                )
            elif isinstance(event, GameOver):
                events.append({"kind": "game_over", "version": self.version, **self.result()})
        return events
