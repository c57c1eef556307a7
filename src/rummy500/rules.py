"""The rules of a game: one frozen options object, presets, strict parsing.

Every option of RULES.md Part 2 is a field of :class:`Rules` with the same
name and default. :meth:`Rules.from_mapping` parses a record's ``rules``
object strictly: unknown names, bad values and combinations that make no
sense are refused together, in one :class:`RulesError` that lists every
problem. Nothing ever falls back silently to a default.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rummy500.cards import CardError, parse_card

__all__ = ["OPTIONS", "PRESETS", "OptionSpec", "Rules", "RulesError", "preset_names"]


class RulesError(ValueError):
    """Options that cannot be played, with every problem listed."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(problems))


@dataclass(frozen=True)
class OptionSpec:
    """One option of the catalogue: its default, its values and what it means."""

    name: str
    default: Any
    values: str
    description: str
    check: Callable[[Any], bool]
    group: str


def _one_of(*allowed: Any) -> Callable[[Any], bool]:
    def check(v: Any) -> bool:
        # bool is an int in Python: keep True from passing for 1.
        return any(v == a and type(v) is type(a) for a in allowed)

    return check


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_in(lo: int, hi: int) -> Callable[[Any], bool]:
    return lambda v: _is_int(v) and lo <= v <= hi


def _auto_or(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v == "auto" or check(v)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _custom_values_ok(v: Any) -> bool:
    if not isinstance(v, dict):
        return False
    for key, val in v.items():
        if not _is_int(val):
            return False
        if not isinstance(key, str):
            return False
        if key.upper() in _RANK_KEYS or key.upper() == "JK":
            continue
        try:
            c = parse_card(key)
        except CardError:
            return False
        if c.is_declared:
            return False
    return True


#: Dealer's Gambit deals 7 cards each from one 54-card pack less the dealer's joker.
GAMBIT_MAX_PLAYERS = 7

_RANK_KEYS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"}

_SPECS: list[OptionSpec] = [
    # Table and cards
    OptionSpec("players", 2, "2..8", "number of seats", _int_in(2, 8), "table"),
    OptionSpec("decks", "auto", "auto, 1, 2", "packs used: auto is 1 for 2-4 players, 2 for 5-8 (always 1 with dealers_gambit)", _auto_or(_one_of(1, 2)), "table"),
    OptionSpec("jokers", "auto", "auto, 0, 1, 2, 4", "jokers in the game: auto is 2 per pack, 0 the original jokerless game", _auto_or(_one_of(0, 1, 2, 4)), "table"),
    OptionSpec("short_pack", False, "false, true", "a 32-card pack per deck: 7 8 9 10 J Q K A of each suit", _is_bool, "table"),
    OptionSpec("hand_size", "auto", "auto, 7..13", "cards dealt to each player: auto is 13 for 2 players, 7 for 3+", _auto_or(_int_in(7, 13)), "table"),
    OptionSpec("first_discard", "upcard", "upcard, first_player", "first_player: no upcard; the first player gets an extra card and starts the pile by discarding", _one_of("upcard", "first_player"), "table"),
    OptionSpec("first_dealer", "high_card", "high_card, low_card", "who deals first after cutting: the highest card or the lowest (ace low)", _one_of("high_card", "low_card"), "table"),
    OptionSpec("next_dealer", "left", "left, round_winner", "next dealer: the player to the left, or the player who went out", _one_of("left", "round_winner"), "table"),
    OptionSpec("direction", "clockwise", "clockwise, anticlockwise", "direction of dealing and play", _one_of("clockwise", "anticlockwise"), "table"),
    # Melds
    OptionSpec("min_run", 3, "3, 4", "shortest run that may be laid down as a new meld", _one_of(3, 4), "melds"),
    OptionSpec("around_the_corner", False, "false, true", "runs may wrap from king to ace to two: Q K A 2 3", _is_bool, "melds"),
    OptionSpec("set_suits", "distinct", "distinct, any", "with two packs, may a set repeat a suit (then sets may exceed 4 cards)", _one_of("distinct", "any"), "melds"),
    OptionSpec("joker_use", "wild", "wild, joker_sets_only", "joker_sets_only: jokers are not wild and meld only in sets of 3 or 4 jokers (Persian)", _one_of("wild", "joker_sets_only"), "melds"),
    OptionSpec("joker_swap", False, "false, true", "a player holding the card a melded joker stands for may swap it in and take the joker", _is_bool, "melds"),
    OptionSpec("first_meld_min", 0, "0, 30, any integer", "a player's first melding turn of a round must lay down at least this many points", lambda v: _is_int(v) and v >= 0, "melds"),
    OptionSpec("layoff_needs_own_meld", False, "false, true", "a player may lay off only after laying down a meld of their own this round", _is_bool, "melds"),
    OptionSpec("layoff_onto", "any", "any, own, own_and_partner", "whose melds a player may extend", _one_of("any", "own", "own_and_partner"), "melds"),
    OptionSpec("meld_out_of_turn", False, "false, true", "players may meld and lay off during other players' turns", _is_bool, "melds"),
    # Drawing from the discard pile
    OptionSpec("discard_draw", "any_depth", "any_depth, top_only", "may a player take from below the top card of the discard pile", _one_of("any_depth", "top_only"), "drawing"),
    OptionSpec("must_use_taken", "if_several", "if_several, always", "always: the card taken from the pile must be used even when it was the top card alone", _one_of("if_several", "always"), "drawing"),
    OptionSpec("taken_card_use", "meld_or_layoff", "meld_or_layoff, new_meld", "new_meld: the deepest card taken must go into a new meld, not be laid off", _one_of("meld_or_layoff", "new_meld"), "drawing"),
    OptionSpec("discard_back", False, "false, true", "may the single top card taken be discarded again in the same turn", _is_bool, "drawing"),
    OptionSpec("stock_draw_count", 1, "1, 2", "cards taken when drawing from the stock (2: Boathouse)", _one_of(1, 2), "drawing"),
    OptionSpec("discard_count", "one", "one, match_drawn", "match_drawn: end the turn by discarding as many cards as were drawn", _one_of("one", "match_drawn"), "drawing"),
    # Going out and stock exhaustion
    OptionSpec("going_out", "any", "any, discard_required, floating, unplayable_discard", "how a player may go out: any way, only with a discard, float after melding out, or with an unplayable discard", _one_of("any", "discard_required", "floating", "unplayable_discard"), "going_out"),
    OptionSpec("stock_out", "end_round", "end_round, immediate, reshuffle, play_on", "what happens when the stock runs out", _one_of("end_round", "immediate", "reshuffle", "play_on"), "going_out"),
    OptionSpec("stock_out_penalty", True, "true, false", "when a round ends on an empty stock, do cards left in hand count against their holders", _is_bool, "going_out"),
    # Calling Rummy
    OptionSpec("calling_rummy", "off", "off, pile, top_card, steal", "calling Rummy! on a playable card in the discard pile", _one_of("off", "pile", "top_card", "steal"), "calling"),
    OptionSpec("rummy_card_value", "normal", "normal, 15", "value scored for a card claimed by calling Rummy", lambda v: v == "normal" or (_is_int(v) and v == 15), "calling"),
    OptionSpec("rummy_after_going_out", False, "false, true", "the player who went out may claim a playable card left in the pile, and play goes on", _is_bool, "calling"),
    # Card values and scoring
    OptionSpec("card_values", "standard", "standard, flat, ace_25, pip_rank, ace_11", "the table of card values", _one_of("standard", "flat", "ace_25", "pip_rank", "ace_11"), "scoring"),
    OptionSpec("low_ace_value", "auto", "auto, any integer", "value of an ace at the low end of a run", _auto_or(_is_int), "scoring"),
    OptionSpec("joker_value", "auto", "auto, 0, 15, 20, represented", "value of a joker (represented: the card it stands for)", _auto_or(_one_of(0, 15, 20, "represented")), "scoring"),
    OptionSpec("custom_values", {}, "{} or an object", "house values for particular cards or ranks, applied last, e.g. {\"QS\": 40}", _custom_values_ok, "scoring"),
    OptionSpec("four_aces_bonus", False, "false, true", "a set of four aces laid down at once by one player counts 100", _is_bool, "scoring"),
    OptionSpec("four_of_a_kind_double", False, "false, true", "a set of four laid down at once counts double (Persian)", _is_bool, "scoring"),
    OptionSpec("score_divisor", 1, "1, 5", "all values divided by 5 (use with target 100)", _one_of(1, 5), "scoring"),
    OptionSpec("hand_penalty", "own", "own, to_goer", "to_goer: cards left in hand score for the player who went out instead", _one_of("own", "to_goer"), "scoring"),
    OptionSpec("going_out_bonus", 0, "0, any integer", "bonus to the side of the player who goes out (Persian: 25)", _is_int, "scoring"),
    OptionSpec("masters_hand", False, "false, true", "laying down a 7-card run and then going out by discard scores 500 for the round", _is_bool, "scoring"),
    # Winning
    OptionSpec("target", 500, "500, any positive integer", "winning total", lambda v: _is_int(v) and v > 0, "winning"),
    OptionSpec("must_go_out_to_win", False, "false, true", "only a player who went out in the round and reached the target can win", _is_bool, "winning"),
    OptionSpec("rounds", "to_target", "to_target, N", "play to the target, or a fixed number of rounds (highest total wins)", lambda v: v == "to_target" or (_is_int(v) and v >= 1), "winning"),
    OptionSpec("final_bonus", 0, "0, any integer", "bonus to the side with the best total after the last round (Persian: 50)", _is_int, "winning"),
    # Partnerships and Dealer's Gambit
    OptionSpec("partnership", False, "false, true", "4 players in two sides, seats 0 & 2 against 1 & 3", _is_bool, "partnership"),
    OptionSpec("dealers_gambit", False, "false, true", "one 54-card pack (2-7 players), the dealer's joker, and the dealer nominates what jokers do each hand", _is_bool, "gambit"),
]

OPTIONS: dict[str, OptionSpec] = {s.name: s for s in _SPECS}

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "popular": {"calling_rummy": "pile"},
    "hoyle": {"jokers": 0, "hand_size": 10, "first_discard": "first_player", "first_dealer": "low_card"},
    "boathouse": {"going_out": "discard_required", "stock_draw_count": 2},
    "quick": {"card_values": "flat", "score_divisor": 5, "target": 100},
    "partnership": {"partnership": True, "players": 4},
    "persian": {
        "partnership": True,
        "players": 4,
        "jokers": 4,
        "joker_value": 20,
        "joker_use": "joker_sets_only",
        "four_of_a_kind_double": True,
        "going_out_bonus": 25,
        "rounds": 2,
        "final_bonus": 50,
    },
    "dealers_gambit": {"dealers_gambit": True, "target": 250, "direction": "anticlockwise", "jokers": 2},
}

PRESET_DESCRIPTIONS: dict[str, str] = {
    "standard": "the standard game: one pack and 2 jokers (two packs for 5+), play to 500",
    "popular": "standard plus calling Rummy! on the pile",
    "hoyle": "no jokers, 10 cards each, the first player starts the pile, lowest cut deals",
    "boathouse": "a discard is required to go out; draw two from the stock",
    "quick": "5-10-15 values divided by 5, played to 100",
    "partnership": "four players in two sides",
    "persian": "partnership with four 20-point jokers in sets only, doubles, two deals",
    "dealers_gambit": "the dealer's joker and nominated jokers, anticlockwise, to 250",
}


def preset_names() -> list[str]:
    """The preset names, in RULES.md order."""
    return list(PRESETS)


def _values_equal(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


@dataclass(frozen=True)
class Rules:
    """The options of one game. Build it with :meth:`from_mapping` or :meth:`preset`.

    Field names and defaults are those of RULES.md Part 2; the defaults are the
    standard game of Part 1.
    """

    players: int = 2
    decks: int | str = "auto"
    jokers: int | str = "auto"
    short_pack: bool = False
    hand_size: int | str = "auto"
    first_discard: str = "upcard"
    first_dealer: str = "high_card"
    next_dealer: str = "left"
    direction: str = "clockwise"
    min_run: int = 3
    around_the_corner: bool = False
    set_suits: str = "distinct"
    joker_use: str = "wild"
    joker_swap: bool = False
    first_meld_min: int = 0
    layoff_needs_own_meld: bool = False
    layoff_onto: str = "any"
    meld_out_of_turn: bool = False
    discard_draw: str = "any_depth"
    must_use_taken: str = "if_several"
    taken_card_use: str = "meld_or_layoff"
    discard_back: bool = False
    stock_draw_count: int = 1
    discard_count: str = "one"
    going_out: str = "any"
    stock_out: str = "end_round"
    stock_out_penalty: bool = True
    calling_rummy: str = "off"
    rummy_card_value: str | int = "normal"
    rummy_after_going_out: bool = False
    card_values: str = "standard"
    low_ace_value: int | str = "auto"
    joker_value: int | str = "auto"
    custom_values: dict[str, int] = field(default_factory=dict, hash=False)
    four_aces_bonus: bool = False
    four_of_a_kind_double: bool = False
    score_divisor: int = 1
    hand_penalty: str = "own"
    going_out_bonus: int = 0
    masters_hand: bool = False
    target: int = 500
    must_go_out_to_win: bool = False
    rounds: int | str = "to_target"
    final_bonus: int = 0
    partnership: bool = False
    dealers_gambit: bool = False
    preset: str = field(default="standard", compare=False)

    # ------------------------------------------------------------------ parsing
    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any] | None = None, **overrides: Any) -> Rules:
        """Parse a ``rules`` object: an optional ``preset`` plus options.

        Keyword arguments override the mapping (``players=3`` for instance).

        Raises:
            RulesError: listing every unknown option, bad value and nonsensical
                combination at once.
        """
        problems: list[str] = []
        raw: dict[str, Any] = {}
        if mapping is not None and not isinstance(mapping, Mapping):
            raise RulesError([f"rules must be an object of options, not {type(mapping).__name__}"])
        merged = dict(mapping or {})
        merged.update(overrides)
        preset = merged.pop("preset", "standard")
        if not isinstance(preset, str) or preset not in PRESETS:
            problems.append(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})")
            preset = "standard"
        raw.update(PRESETS[preset])
        for name, value in merged.items():
            spec = OPTIONS.get(name)
            if spec is None:
                problems.append(f"unknown option {name!r}")
                continue
            if not spec.check(value):
                problems.append(f"option {name!r} cannot be {value!r} (values: {spec.values})")
                continue
            raw[name] = value
        if "custom_values" in raw:
            raw["custom_values"] = _normalise_custom(raw["custom_values"])
        if raw.get("dealers_gambit") is True and "direction" not in merged:
            # RULES.md: Dealer's Gambit is "dealt and played anticlockwise"; an
            # explicit ``direction`` still overrides, as for a preset.
            raw["direction"] = "anticlockwise"
        if problems:
            raise RulesError(problems)
        rules = cls(preset=preset, **raw)
        combo = rules.combination_problems()
        if combo:
            raise RulesError(combo)
        return rules

    @classmethod
    def preset_rules(cls, name: str, **overrides: Any) -> Rules:
        """The rules of a named preset, with optional overrides."""
        return cls.from_mapping({"preset": name}, **overrides)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed, parsed and checked again."""
        mapping = self.to_mapping(full=True)
        mapping.update(changes)
        return Rules.from_mapping(mapping)

    def to_mapping(self, full: bool = False) -> dict[str, Any]:
        """The options as a ``rules`` object.

        Args:
            full: every option; otherwise only those differing from the
                standard game, plus ``players``.
        """
        out: dict[str, Any] = {}
        for spec in _SPECS:
            value = getattr(self, spec.name)
            if full or spec.name == "players" or not _values_equal(value, spec.default):
                out[spec.name] = dict(value) if isinstance(value, dict) else value
        if self.dealers_gambit and "direction" not in out:
            out["direction"] = self.direction  # else parsing would imply anticlockwise
        return out

    def combination_problems(self) -> list[str]:
        """Pairs of options that make no sense together, each naming both."""
        p: list[str] = []
        if self.partnership and self.players != 4:
            p.append(f"partnership needs players: 4 (got players: {self.players})")
        if self.layoff_onto == "own_and_partner" and not self.partnership:
            p.append("layoff_onto: own_and_partner needs partnership: true")
        if self.joker_use == "joker_sets_only" and self.n_jokers < 3:
            p.append(f"joker_use: joker_sets_only needs at least 3 jokers (jokers: {self.jokers})")
        if self.joker_use == "joker_sets_only" and self.joker_swap:
            p.append("joker_swap: true needs wild jokers (joker_use: joker_sets_only)")
        if self.joker_use == "joker_sets_only" and self.joker_value == "represented":
            p.append("joker_value: represented needs wild jokers (joker_use: joker_sets_only)")
        if self.joker_swap and self.n_jokers == 0:
            p.append("joker_swap: true needs jokers (jokers: 0)")
        if self.dealers_gambit and self.n_jokers == 0:
            p.append("dealers_gambit: true needs jokers (jokers: 0)")
        if self.dealers_gambit and self.joker_use != "wild":
            p.append(f"dealers_gambit: true needs joker_use: wild (got joker_use: {self.joker_use})")
        if self.dealers_gambit and self.joker_swap:
            p.append("joker_swap: true cannot be used with dealers_gambit: true (the dealer nominates what jokers do)")
        if self.calling_rummy == "pile" and self.discard_draw == "top_only":
            p.append("calling_rummy: pile takes from below the top card, which discard_draw: top_only forbids (use calling_rummy: top_card)")
        if self.calling_rummy == "off" and self.rummy_card_value != "normal":
            p.append("rummy_card_value needs calling_rummy (calling_rummy: off)")
        if self.calling_rummy == "off" and self.rummy_after_going_out:
            p.append("rummy_after_going_out: true needs calling_rummy (calling_rummy: off)")
        if self.rounds != "to_target" and self.must_go_out_to_win:
            p.append(f"must_go_out_to_win: true has no meaning with rounds: {self.rounds} (the highest total after the last round wins)")
        if self.discard_count == "match_drawn" and self.going_out in ("floating", "unplayable_discard"):
            p.append(f"discard_count: match_drawn cannot be combined with going_out: {self.going_out}")
        if self.short_pack and self.around_the_corner:
            p.append("around_the_corner: true has no meaning with short_pack: true (there is no 2 to wrap to)")
        if self.set_suits == "any" and self.n_decks == 1:
            p.append("set_suits: any needs two packs (decks: 1 has one card of each suit per rank)")
        if self.dealers_gambit and self.decks == 2:
            p.append("decks: 2 cannot be used with dealers_gambit: true (it plays one 54-card pack)")
        pack = self.pack_size
        needed = self.players * self.n_hand + 1 + (1 if self.first_discard == "first_player" else 0)
        if self.dealers_gambit:
            needed += 1
        if self.dealers_gambit and self.players > GAMBIT_MAX_PLAYERS:
            p.append(
                f"dealers_gambit: true plays one 54-card pack, which deals at most {GAMBIT_MAX_PLAYERS} players "
                f"(got players: {self.players})"
            )
        elif needed > pack:
            p.append(
                f"players: {self.players} with hand_size: {self.n_hand} needs {needed} cards but "
                + (f"dealers_gambit: true's one pack holds {pack}" if self.dealers_gambit else f"decks: {self.n_decks} holds {pack}")
            )
        return p

    # ---------------------------------------------------------- resolved values
    @property
    def n_decks(self) -> int:
        """Packs in play."""
        if self.decks == "auto":
            # Dealer's Gambit is one 54-card pack whatever the player count.
            return 1 if self.players <= 4 or self.dealers_gambit else 2
        return int(self.decks)

    @property
    def n_jokers(self) -> int:
        """Jokers in play."""
        if self.jokers == "auto":
            return 2 * self.n_decks
        return int(self.jokers)

    @property
    def n_hand(self) -> int:
        """Cards dealt to each player."""
        if self.hand_size == "auto":
            return 13 if self.players == 2 else 7
        return int(self.hand_size)

    @property
    def pack_size(self) -> int:
        """Cards in the whole pack, jokers included."""
        return self.n_decks * (32 if self.short_pack else 52) + self.n_jokers

    @property
    def jokers_wild(self) -> bool:
        """Whether jokers stand for other cards (not Persian joker sets)."""
        return self.joker_use == "wild"

    @property
    def step(self) -> int:
        """+1 for clockwise play, -1 for anticlockwise."""
        return 1 if self.direction == "clockwise" else -1

    def side_of(self, seat: int) -> int:
        """The side a seat plays for: its partnership, or itself."""
        return seat % 2 if self.partnership else seat

    def may_lay_off_on(self, seat: int, owner: int) -> bool:
        """``layoff_onto``: whether ``seat`` may extend a meld laid down by ``owner``."""
        if self.layoff_onto == "any":
            return True
        if self.layoff_onto == "own":
            return owner == seat
        return self.side_of(owner) == self.side_of(seat)

    @property
    def sets_repeat_cards(self) -> bool:
        """``set_suits: any``: a set may hold the same card twice (several packs)."""
        return self.set_suits == "any"

    @property
    def n_sides(self) -> int:
        """Scoring units: 2 sides in a partnership, else one per seat."""
        return 2 if self.partnership else self.players

    def describe(self) -> list[tuple[str, Any, str]]:
        """(option, value, one-line description) for every option."""
        return [(s.name, getattr(self, s.name), s.description) for s in _SPECS]


def _normalise_custom(values: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, val in values.items():
        k = key.strip().upper()
        if k == "10":
            k = "T"
        if k not in _RANK_KEYS and k != "JK":
            k = str(parse_card(k))
        out[k] = val
    return out


def option_names() -> list[str]:
    """Every option name, in RULES.md order."""
    return [s.name for s in _SPECS]


def rules_fields() -> list[str]:
    """Field names of :class:`Rules` (the options plus ``preset``)."""
    return [f.name for f in dataclasses.fields(Rules)]
