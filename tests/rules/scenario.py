"""Build one-round records from readable positions and replay them.

A scenario is written the way a player would describe it::

    play(
        {"min_run": 4},
        hands=["5H 6H 7H 9C", "KS QS 2D"],
        stock="2C 3C",          # top first
        discard="8D",           # bottom first: the last card is the top
        actions=["0 draw", "0 meld 5H 6H 7H", "0 discard 9C"],
    )

Each action is ``"SEAT TEXT"`` where TEXT is the engine's text form of an
action (``draw``, ``take 2``, ``layoff 8H on 0``, ``rummy 1 on 0`` ...); a
JSON object in the RECORD.md notation (with ``p``) is taken as it is. The
record goes through :func:`rummy500.record.replay`, exactly as ``rummy500
replay`` would play it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummy500.actions import parse_action
from rummy500.match import Match
from rummy500.record import load_record, replay, replay_match

ActionSpec = str | Mapping[str, Any]


def action_record(spec: ActionSpec) -> dict[str, Any]:
    """``"2 rummy 1 on 0"`` -> ``{"p": 2, "rummy": 1, "on": 0}``."""
    if isinstance(spec, Mapping):
        return dict(spec)
    seat, _, text = spec.strip().partition(" ")
    return {"p": int(seat), **parse_action(text).to_record()}


def cards(text: str) -> list[str]:
    """``"5H 6H JK"`` -> ``["5H", "6H", "JK"]``."""
    return text.split()


def one_round(
    hands: Sequence[str],
    stock: str = "",
    discard: str = "",
    actions: Sequence[ActionSpec] = (),
    dealer: int | None = None,
) -> dict[str, Any]:
    """One round of a record. The dealer defaults to the last seat, so seat 0 plays first clockwise."""
    return {
        "dealer": len(hands) - 1 if dealer is None else dealer,
        "deal": {"hands": [cards(h) for h in hands], "stock": cards(stock), "discard": cards(discard)},
        "actions": [action_record(a) for a in actions],
    }


def make_record(
    rules: Mapping[str, Any] | None,
    hands: Sequence[str],
    stock: str = "",
    discard: str = "",
    actions: Sequence[ActionSpec] = (),
    *,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    more_rounds: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """A RECORD.md record of one round (plus ``more_rounds``, already built)."""
    rec: dict[str, Any] = {
        "rules": dict(rules or {}),
        "players": len(hands),
        "rounds": [one_round(hands, stock, discard, actions, dealer), *more_rounds],
    }
    if scores is not None:
        rec["scores"] = list(scores)
    return rec


@dataclass
class Outcome:
    """The replay result of a scenario, with shortcuts for what tests look at."""

    result: dict[str, Any]
    record: dict[str, Any]

    @property
    def ok(self) -> bool:
        return self.result["ok"]

    @property
    def refused_at(self) -> int | None:
        """Index of the first illegal action of the last round played, or None."""
        err = self.result["error"]
        return None if err is None else err["action"]

    @property
    def message(self) -> str:
        err = self.result["error"]
        return "" if err is None else err["message"]

    @property
    def state(self) -> dict[str, Any]:
        return self.result["state"]

    @property
    def scores(self) -> list[int] | None:
        """The last round's scores (None while it goes on)."""
        return self.result["rounds"][-1]["round_scores"]

    @property
    def over(self) -> bool:
        return self.result["rounds"][-1]["over"]

    @property
    def went_out(self) -> int | None:
        return self.result["rounds"][-1]["went_out"]

    @property
    def totals(self) -> list[int]:
        return self.result["totals"]

    @property
    def winner(self) -> Any:
        return self.result["winner"]

    def meld(self, meld_id: int) -> list[str]:
        return self.state["melds"][meld_id]["cards"]

    def match(self) -> Match:
        """The replayed match, to look at what the JSON result does not show (views, legal actions)."""
        return replay_match(load_record(self.record))[0]


def play(rules: Mapping[str, Any] | None, hands: Sequence[str], stock: str = "", discard: str = "",
         actions: Sequence[ActionSpec] = (), **kw: Any) -> Outcome:
    """Replay a one-round scenario under ``rules`` (None or ``{}``: the standard game)."""
    rec = make_record(rules, hands, stock, discard, actions, **kw)
    return Outcome(replay(rec), rec)


def contrast(option: Mapping[str, Any], hands: Sequence[str], stock: str = "", discard: str = "",
             actions: Sequence[ActionSpec] = (), *, base: Mapping[str, Any] | None = None,
             **kw: Any) -> tuple[Outcome, Outcome]:
    """The same scenario under ``base`` (default: the standard game) and under ``base`` + ``option``."""
    base = dict(base or {})
    return (
        play(base, hands, stock, discard, actions, **kw),
        play({**base, **option}, hands, stock, discard, actions, **kw),
    )
