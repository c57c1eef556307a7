"""Game records (RECORD.md): loading, validating, saving and replaying.

:func:`load_record` turns JSON into a :class:`Record` and refuses anything
malformed with a :class:`RecordError` that names the problem and where it is.
:func:`replay` plays a record through the engine and returns exactly the
object ``rummy500 replay`` prints.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rummy500.actions import Action, ActionError, Decline, action_from_record
from rummy500.cards import JOKER, Card, CardError, parse_card
from rummy500.explain import about_digits
from rummy500.match import Match
from rummy500.rules import Rules, RulesError
from rummy500.state import IllegalAction, RoundState, build_pack

__all__ = [
    "DEAL_KEYS",
    "MAX_NUMBER",
    "MAX_RECORD_BYTES",
    "RECORD_KEYS",
    "ROUND_KEYS",
    "Record",
    "RecordError",
    "RoundSpec",
    "deal_round",
    "load_record",
    "match_from_record",
    "parse_record_json",
    "record_to_json",
    "replay",
    "replay_match",
]

#: The largest number (in absolute value) a record may hold: I-JSON's safe
#: integer range (RFC 7493), what every JSON reader represents exactly. No
#: score, option or index of a real game comes near it.
MAX_NUMBER = 2**53 - 1

#: The most bytes a record may hold (16 MiB), where the commands read one
#: (``rummy500 replay``, ``review``, ``play --load``): a larger input is refused
#: unread, so that an endless one (``/dev/zero``, ``yes |``) cannot exhaust memory.
#: A whole game to 500 with 8 random bots saves to about 150 KB, one played to
#: 5000 to about 2 MB (4.5 MB laid out with ``indent=4``): 16 MiB leaves room for
#: far longer games, and parsing that much JSON stays within a few hundred MB.
MAX_RECORD_BYTES = 16 * 1024 * 1024


class RecordError(ValueError):
    """A malformed record: not JSON, unknown card, option or verb, too many copies of a card."""


class _TooLarge:
    """A JSON integer literal beyond MAX_NUMBER, kept as text until its place in the record is known."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _too_large(where: str, value: int | _TooLarge) -> RecordError:
    if isinstance(value, _TooLarge):
        text = value.text
        shown = text if len(text) <= 24 else f"{text[:12]}... ({len(text.lstrip('-'))} digits)"
    else:
        # str() of an int thousands of digits long may itself fail: describe it without converting.
        digits = about_digits(value)
        shown = str(value) if digits <= 24 else f"a number of about {digits} digits"
    return RecordError(f"{where}: {shown} is too large (a record's numbers stay within +/-{MAX_NUMBER})")


def _parse_int(text: str) -> int | _TooLarge:
    # Checked before int(): a literal thousands of digits long is not even converted.
    if len(text.lstrip("-")) > len(str(MAX_NUMBER)) or abs(int(text)) > MAX_NUMBER:
        return _TooLarge(text)
    return int(text)


def _parse_constant(name: str) -> Any:
    raise RecordError(f"not JSON: {name} is not a JSON number")


class _Duplicated(dict[str, Any]):
    """A JSON object that names a key twice, kept until its place in the record is known."""

    __slots__ = ("key",)

    def __init__(self, pairs: list[tuple[str, Any]], key: str) -> None:
        super().__init__(pairs)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; one that names a key twice is marked (JSON leaves the meaning open: no last-one-wins)."""
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _Duplicated(pairs, key)
        seen.add(key)
    raise AssertionError("unreachable: fewer keys than pairs means a key repeats")  # pragma: no cover


def parse_record_json(text: str | bytes) -> Any:
    """Parse a record's JSON text strictly.

    Bytes must be UTF-8 (a byte-order mark is allowed). Numbers beyond
    :data:`MAX_NUMBER`, the non-JSON constants ``NaN`` and ``Infinity`` and
    an object that names a key twice are refused.

    Raises:
        RecordError: not JSON, a number out of range or a key given twice (naming where it is).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")  # strict UTF-8; a byte-order mark is allowed, as JSON allows
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 (byte 0x{text[exc.start]:02x} at offset {exc.start})") from None
    try:
        obj = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    except RecursionError:
        raise RecordError("not JSON: nested too deeply") from None
    _check_numbers(obj)
    return obj


def _check_numbers(obj: Any) -> None:
    """Refuse a number beyond MAX_NUMBER, or a key given twice, anywhere in a parsed record (walked without recursion)."""
    stack: list[tuple[Any, str]] = [(obj, "record")]
    while stack:
        v, where = stack.pop()
        if isinstance(v, dict):
            if isinstance(v, _Duplicated):
                place = "top level" if where == "record" else where if where.isprintable() else repr(where)
                raise RecordError(f"{place}: duplicate key {v.key!r} (each key may be given once)")
            stack.extend((x, f"{where}.{k}" if where != "record" else str(k)) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, f"{where}[{i}]") for i, x in enumerate(v))
        elif isinstance(v, _TooLarge) or (
            isinstance(v, int) and not isinstance(v, bool) and not -MAX_NUMBER <= v <= MAX_NUMBER
        ):
            raise _too_large(where if where.isprintable() else repr(where), v)


@dataclass
class RoundSpec:
    """One round of a record: its dealer (None: by the rules), deal and actions."""

    dealer: int | None
    hands: list[list[Card]] | None
    stock: list[Card] | None
    discard: list[Card] | None
    deck: list[Card] | None
    actions: list[tuple[int, Action]] = field(default_factory=list)


@dataclass
class Record:
    """A parsed, validated record."""

    rules: Rules
    players: list[str]
    scores: list[int]
    rounds: list[RoundSpec]
    raw: dict[str, Any]


def _cards(value: Any, where: str, *, allow_declared: bool = False) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of cards")
    out = []
    for i, v in enumerate(value):
        try:
            c = parse_card(v)
        except CardError as exc:
            raise RecordError(f"{where}[{i}]: {exc}") from None
        if c.is_declared and not allow_declared:
            raise RecordError(f"{where}[{i}]: a joker in a deal is plain 'JK', not {v!r}")
        out.append(c)
    return out


#: The fields of a record (RECORD.md); other top-level fields (event names, dates) are ignored.
RECORD_KEYS = ("rules", "players", "scores", "rounds", "dealer", "deal", "actions")
#: The fields of a round object.
ROUND_KEYS = ("dealer", "deal", "actions")
#: The fields of a deal: ``hands``/``stock``/``discard``, or ``deck``.
DEAL_KEYS = ("hands", "stock", "discard", "deck")


def _close_key(key: Any, known: tuple[str, ...]) -> str | None:
    """The field ``key`` is most likely a misspelling of, if any (case aside)."""
    if not isinstance(key, str):
        return None
    folded = key.lower()
    if folded in known:
        return folded
    close = difflib.get_close_matches(folded, known, n=1, cutoff=0.8)
    return close[0] if close else None


def _unknown_key(key: Any, where: str, known: tuple[str, ...]) -> RecordError:
    """``where`` names the object, as in "rounds[0].deal" or "top level"."""
    guess = _close_key(key, known)
    hint = f"did you mean {guess!r}?" if guess else f"known keys: {', '.join(repr(k) for k in known)}"
    return RecordError(f"{where}: unknown key {key!r} ({hint})")


def _check_keys(obj: dict[Any, Any], where: str, known: tuple[str, ...]) -> None:
    """Refuse a key of a round or a deal that the format does not define."""
    for key in obj:
        if key not in known:
            raise _unknown_key(key, where, known)


def _check_top_keys(obj: dict[Any, Any]) -> None:
    """Refuse a top-level key that is a misspelt record field or a deal's field out of place.

    Other extra top-level fields (event names, dates, ...) are ignored, as docs/records.md promises.
    """
    for key in obj:
        if key in RECORD_KEYS or not isinstance(key, str):
            continue
        if key.lower() in DEAL_KEYS:
            raise RecordError(f"top level: unknown key {key!r} (a deal's field: it belongs inside 'deal')")
        if _close_key(key, RECORD_KEYS) is not None:
            raise _unknown_key(key, "top level", RECORD_KEYS)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def load_record(obj: Any) -> Record:
    """Validate a record (a parsed JSON value, or a JSON string).

    Raises:
        RecordError: naming the first problem found.
    """
    if isinstance(obj, (str, bytes)):
        obj = parse_record_json(obj)
    if not isinstance(obj, dict):
        raise RecordError("a record must be a JSON object")
    _check_numbers(obj)
    _check_top_keys(obj)
    rules_obj = obj.get("rules", {})
    if not isinstance(rules_obj, dict):
        raise RecordError("'rules' must be an object")
    players_obj = obj.get("players")
    names: list[str] | None = None
    overrides: dict[str, Any] = {}
    if players_obj is not None:
        if isinstance(players_obj, bool):
            raise RecordError("'players' must be a count or a list of names")
        if isinstance(players_obj, int):
            overrides["players"] = players_obj
        elif isinstance(players_obj, list) and all(isinstance(p, str) for p in players_obj):
            names = list(players_obj)
            overrides["players"] = len(names)
        else:
            raise RecordError("'players' must be a count or a list of names")
        if "players" in rules_obj:
            given = rules_obj["players"]
            if _is_int(given) and given != overrides["players"]:
                raise RecordError(f"'players' ({overrides['players']!r}) and rules.players ({given!r}) disagree")
            # Equal or not a whole number: rules.players is checked as if it stood alone
            # (2.0 is refused with or without 'players').
            del overrides["players"]
    try:
        rules = Rules.from_mapping(rules_obj, **overrides)
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    n = rules.players
    if names is None:
        names = [f"Seat {i}" for i in range(n)]
    scores = obj.get("scores", [0] * n)
    if not isinstance(scores, list) or len(scores) != n or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        raise RecordError(f"'scores' must be a list of {n} whole numbers")
    if "rounds" in obj:
        rounds_obj = obj["rounds"]
        if not isinstance(rounds_obj, list):
            raise RecordError("'rounds' must be a list")
        if any(k in obj for k in ("deal", "actions", "dealer")):
            raise RecordError("give 'rounds', or one round's 'dealer'/'deal'/'actions' at the top level, not both")
    elif any(k in obj for k in ROUND_KEYS):
        # A top-level 'dealer' alone is still a round (one without a deal: refused below).
        rounds_obj = [{k: obj[k] for k in ROUND_KEYS if k in obj}]
    else:
        rounds_obj = []
    pack = Counter(build_pack(rules))
    if rules.dealers_gambit:
        pack[JOKER] -= 1  # the dealer's joker lies beside the dealer, outside the deal
    top = "rounds" not in obj
    rounds = [_load_round(r, _round_place(i, top), rules, pack) for i, r in enumerate(rounds_obj)]
    return Record(rules, names, list(scores), rounds, obj)


def _round_place(i: int, top: bool) -> str:
    """Where round ``i`` is in the record, as its errors name it: ``rounds[i]``, or "" for a one-round record's top level."""
    return "" if top else f"rounds[{i}]"


def _at(where: str, key: str) -> str:
    """The path of field ``key`` of the object at ``where`` (``rounds[0].deal``; just ``deal`` at the top level)."""
    return f"{where}.{key}" if where else key


def _load_round(obj: Any, place: str, rules: Rules, pack: Counter[Card]) -> RoundSpec:
    """One round of a record; ``place`` is where it is (``rounds[2]``, or "" for a round given at the top level)."""
    if not isinstance(obj, dict):
        raise RecordError(f"{place} must be an object")
    _check_keys(obj, place or "top level", ROUND_KEYS)
    n = rules.players
    dealer = obj.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n):
        raise RecordError(f"{_at(place, 'dealer')} must be a seat 0..{n - 1}")
    deal = obj.get("deal")
    if not isinstance(deal, dict):
        raise RecordError(f"{_at(place, 'deal')} is missing: give hands/stock/discard or deck")
    where = _at(place, "deal")  # (its errors name the deal's fields below it)
    _check_keys(deal, where, DEAL_KEYS)
    spec = RoundSpec(dealer, None, None, None, None)
    if "deck" in deal:
        if any(k in deal for k in ("hands", "stock", "discard")):
            raise RecordError(f"{where} gives 'deck' or hands/stock/discard, not both")
        spec.deck = _cards(deal["deck"], f"{where}.deck")
        if rules.dealers_gambit:
            pack = pack + Counter({JOKER: 1})
        seen = Counter(spec.deck)
    else:
        hands = deal.get("hands")
        if not isinstance(hands, list) or len(hands) != n:
            raise RecordError(f"{where}.hands must list {n} hands")
        spec.hands = [_cards(h, f"{where}.hands[{s}]") for s, h in enumerate(hands)]
        spec.stock = _cards(deal.get("stock", []), f"{where}.stock")
        spec.discard = _cards(deal.get("discard", []), f"{where}.discard")
        seen = Counter(spec.stock) + Counter(spec.discard)
        for h in spec.hands:
            seen += Counter(h)
    for c, k in seen.items():
        if k > pack[c]:
            raise RecordError(
                f"{where} holds {k} x {c} but the pack has {pack[c]}"
                + (" (short pack)" if rules.short_pack and pack[c] == 0 else "")
            )
    if spec.deck is not None and seen != pack:
        missing = sorted((pack - seen).elements())
        raise RecordError(
            f"{where}.deck must be the whole pack: it has {len(spec.deck)} of {pack.total()} cards "
            f"(missing {' '.join(str(c) for c in missing[:8])}{' ...' if len(missing) > 8 else ''})"
        )
    where = _at(place, "actions")  # (and, from here, the actions)
    actions = obj.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{where} must be a list")
    for j, a in enumerate(actions):
        if not isinstance(a, dict):
            raise RecordError(f"{where}[{j}] must be an object")
        p = a.get("p")
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < n:
            raise RecordError(f"{where}[{j}].p must be a seat 0..{n - 1}")
        try:
            act = action_from_record(a)
        except ActionError as exc:
            raise RecordError(f"{where}[{j}]: {exc}") from None
        if isinstance(act, Decline):
            # A decline changes no position: it is played live but never recorded.
            raise RecordError(f"{where}[{j}]: 'decline' is not a record verb (records leave declines out)")
        spec.actions.append((p, act))
    return spec


def _start_state(rules: Rules, spec: RoundSpec, dealer: int, place: str) -> RoundState:
    try:
        if spec.deck is not None:
            return RoundState.from_deck(rules, dealer, spec.deck)
        assert spec.hands is not None and spec.stock is not None and spec.discard is not None
        return RoundState.from_deal(rules, dealer, spec.hands, spec.stock, spec.discard)
    except ValueError as exc:
        raise RecordError(f"{_at(place, 'deal')}: {exc}") from None


def deal_round(match: Match, rec: Record, r: int) -> None:
    """Start round ``r`` of ``rec`` in ``match`` (dealt by the record's dealer, or as the rules say).

    Raises:
        RecordError: the game was already won, the round before had not ended, or the deal is bad.
    """
    spec = rec.rounds[r]
    place = _round_place(r, "rounds" not in rec.raw and len(rec.rounds) == 1)
    if match.is_over:
        raise RecordError(f"{place or 'the round'} comes after the game was already won")
    if match.state is not None and not match.state.is_over:
        raise RecordError(f"{place or 'the round'} follows a round that had not ended")
    if spec.dealer is not None:
        dealer = spec.dealer
    elif match.state is None:
        dealer = 0
    else:
        dealer = match.next_dealer()
    match.start_round(_start_state(rec.rules, spec, dealer, place), auto=False)  # its reshuffles are recorded


def replay_match(
    rec: Record, after_round: Callable[[int, Match], None] | None = None
) -> tuple[Match, tuple[int, int, str] | None]:
    """Play a record; return the match and (round, action, message) of the first illegal action.

    ``after_round(r, match)`` is called once round ``r``'s actions are all played
    (the round may still be going on, in a record that stops mid-round).
    """
    match = Match(rec.rules, rec.players, rec.scores, deal=False)
    for r, spec in enumerate(rec.rounds):
        deal_round(match, rec, r)
        for i, (seat, action) in enumerate(spec.actions):
            try:
                match.apply(seat, action, auto=False)
            except IllegalAction as exc:
                return match, (r, i, str(exc))
        if after_round is not None:
            after_round(r, match)
    return match, None


def match_from_record(record: Any) -> Match:
    """Rebuild a match by replaying a record.

    The match stands where the record stops: between two rounds, or with a
    reshuffle due. :meth:`Match.continue_play` readies it to play on (as
    ``drive`` does by itself).

    Raises:
        RecordError: the record is malformed.
        IllegalAction: an action of the record is illegal (the message says where).
    """
    rec = load_record(record)
    match, error = replay_match(rec)
    if error is not None:
        raise IllegalAction(f"round {error[0]} action {error[1]}: {error[2]}")
    return match


def _state_json(match: Match) -> dict[str, Any] | None:
    state = match.state
    if state is None:
        return None
    phase = "game_over" if match.is_over else state.public.phase.value
    return {
        "round": match.round_index,
        "to_move": state.public.to_move,
        "phase": phase,
        "hands": [[str(c) for c in h] for h in state.hands],
        "stock_count": len(state.stock),
        "discard": [str(c) for c in state.public.discard],
        "melds": [{"id": m.id, "cards": [str(c) for c in m.cards], "laid_by": list(m.laid_by)} for m in state.public.melds],
    }


def replay(record: Any) -> dict[str, Any]:
    """Replay a record and return the ``rummy500 replay`` result object.

    Raises:
        RecordError: the record is malformed (the CLI exits 2).
    """
    rec = record if isinstance(record, Record) else load_record(record)
    match, error = replay_match(rec)
    rounds = []
    for log in match.rounds:
        over = log.round_scores is not None
        rounds.append({"round_scores": log.round_scores, "went_out": log.went_out if over else None, "over": over})
    winner: int | list[int] | None = match.winner
    out: dict[str, Any] = {
        "ok": error is None,
        "error": None if error is None else {"round": error[0], "action": error[1], "message": error[2]},
        "rounds": rounds,
        "totals": list(match.totals),
        "winner": winner,
        "state": _state_json(match),
    }
    if rec.rules.partnership:
        out["side_totals"] = match.side_totals()
    if match.bonus_to is not None:
        # (`totals` include it: say where it went, or the rounds' scores would not add up to them.)
        out["final_bonus"] = {"seat": match.bonus_to, "points": rec.rules.final_bonus}
    return out


def record_to_json(record: dict[str, Any], indent: int | None = None) -> str:
    """A record as JSON text."""
    return json.dumps(record, indent=indent)
