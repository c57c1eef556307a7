"""OpenSpiel game ``python_rummy500``: importing this module registers it with pyspiel.

>>> import pyspiel
>>> import rummy500.env.openspiel
>>> game = pyspiel.load_game("python_rummy500", {"preset": "quick", "players": 3})
>>> game.num_players(), game.num_distinct_actions() == rummy500.env.encoding.N_ACTIONS
(3, True)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 3)

* **Parameters**: ``preset`` (a preset name), ``players``, ``max_rounds``, and
  every option of ``RULES.md`` by its name (``calling_rummy="pile"``,
  ``first_meld_min=30``, ``jokers="4"``...); options with several value types
  (``jokers``, ``decks``, ``hand_size``, ``rounds``...) are given as strings
  (in a game string a number in quotes, ``jokers='4'``: OpenSpiel reads a bare
  ``4`` as a number) and ``custom_values`` as ``{QS:40;A:20}`` (or, outside a
  game string, JSON). An option left out takes the preset's value; one given
  wins, the standard game's value included (a yes/no option only when it
  differs from the standard game's: OpenSpiel fills ``False`` in for it).
  ``str(game)`` names the preset, ``max_rounds``, ``players`` and every option
  that differs from the preset's, and loads the same game back.
* **Chance**: the first dealer (uniform over the seats, which is what cutting
  for the highest card amounts to), then every deal card by card, top of the
  pack first (an outcome is a card kind, with probability its share of the
  cards left), and under ``stock_out: reshuffle`` every new stock card by card.
* **Decisions**: the same tokens, masks and out-of-turn offers as the
  PettingZoo environment (:mod:`rummy500.env.encoding`); a player builds a
  multi-card action over several of its own moves.
* **Rewards**: each finished round gives every seat its round reward
  (:func:`~rummy500.env.aec.round_rewards`); returns are their sum (zero-sum).
* **Observation tensor**: :func:`~rummy500.env.observation.encode_view` (of
  the public facts and the player's hand, as its view holds them). The
  **information-state tensor** appends, per relative seat, the cards that seat
  discarded this round; the **information-state string** is the seat's
  perfect-recall history (its dealt hand, then the engine's events as that
  seat may see them: its own draws with their cards, the others' without).
* **Observers** (``make_observation`` with an ``IIGObservationType``):
  ``private_info`` SINGLE_PLAYER gives the player's observation or
  information state as above; NONE the public part alone (the tensor
  without :data:`PRIVATE_FIELDS`, no hand in the strings); ALL_PLAYERS,
  ``public_info=False`` and observation parameters are refused (ValueError).
* ``resample_from_infostate`` deals the cards the player cannot see at random,
  consistently with its view (the engine's determinization).

>>> quick = pyspiel.load_game("python_rummy500", {"preset": "quick", "target": 500, "jokers": "4"})
>>> str(quick)
"python_rummy500(jokers='4',max_rounds=20,players=2,preset=quick,target=500)"
>>> pyspiel.load_game(str(quick)).rules == quick.rules
True
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import pyspiel

from rummy500.actions import Discard, Reshuffle
from rummy500.cards import JOKER, Card, natural_cards
from rummy500.env.aec import round_rewards
from rummy500.env.bounds import return_bound
from rummy500.env.encoding import HAND_KINDS, N_ACTIONS, Decision, card_index, token_name
from rummy500.env.observation import encode_public, layout_for
from rummy500.env.table import Table
from rummy500.events import Event, Nominated
from rummy500.rules import OPTIONS, Rules, RulesError
from rummy500.state import ResampleError, RoundState, build_pack, state_from_view

__all__ = [
    "GAME_NAME",
    "PRIVATE_FIELDS",
    "RESAMPLE_TRIES",
    "UNSET_NUMBER",
    "UNSET_TEXT",
    "Rummy500Game",
    "Rummy500State",
    "game_params",
    "rules_from_params",
]

GAME_NAME = "python_rummy500"
_KINDS: list[Card] = [*natural_cards(), JOKER]
_MAX_CHANCE = HAND_KINDS
_MAX_LENGTH_PER_ROUND = 40_000
#: How many deals :meth:`Rummy500State.resample_from_infostate` tries before giving up.
RESAMPLE_TRIES = 1000


#: What an option left out holds in the parameter specification (OpenSpiel fills every parameter in
#: with its default): the empty string for an option of words (or words and numbers), a number no
#: option takes for one of numbers. Either means "the preset's value". A yes/no option has no spare
#: value: its default is the standard game's.
UNSET_TEXT = ""
UNSET_NUMBER = -(2**31)


def _kind(name: str) -> type:
    """The OpenSpiel type of option ``name``'s parameter: bool, int (numbers only) or str (the rest)."""
    default = OPTIONS[name].default
    if isinstance(default, bool):
        return bool
    if isinstance(default, int) and not isinstance(default, StrEnum):
        return int
    return str


def _spec_default(name: str) -> Any:
    kind = _kind(name)
    if kind is bool:
        return OPTIONS[name].default
    return UNSET_NUMBER if kind is int else UNSET_TEXT


_PARAMS: dict[str, Any] = {"preset": "standard", "max_rounds": 20}
_PARAMS.update({name: _spec_default(name) for name in OPTIONS})

# The defaults of the parameter specification before 7 December 2026 (each option at the standard
# game's value): a game string naming every option is one written then (str(game) named them all).
def _legacy_default(name: str) -> Any:
    default = OPTIONS[name].default
    if _kind(name) is not str:
        return default
    return json.dumps(default) if isinstance(default, dict) else str(default)


_LEGACY_DEFAULTS: dict[str, Any] = {name: _legacy_default(name) for name in OPTIONS}
# The options of words or numbers then (the same since the game was first registered), all of
# which such a string names with a value (a new one names only those that differ from the preset).
_LEGACY_NAMED = frozenset(
    {
        "calling_rummy", "card_values", "custom_values", "decks", "direction", "discard_count", "discard_draw",
        "final_bonus", "first_dealer", "first_discard", "first_meld_min", "going_out", "going_out_bonus",
        "hand_penalty", "hand_size", "joker_use", "joker_value", "jokers", "layoff_onto", "low_ace_value",
        "min_run", "must_use_taken", "next_dealer", "players", "rounds", "rummy_card_value", "score_divisor",
        "set_suits", "stock_draw_count", "stock_out", "taken_card_use", "target",
    }
)  # fmt: skip


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].strip()
    return text


def _parse_custom(text: str) -> dict[str, Any]:
    """``custom_values`` from its parameter text: ``{QS:40;A:20}``, or a JSON object.

    Raises:
        RulesError: the text is neither.
    """
    problem = RulesError([f"custom_values {text!r} is not an object of card values: write {{QS:40;A:20}} (or JSON)"])
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            if not text.endswith("}"):
                raise problem from None
            text = text[1:-1]
        else:
            if not isinstance(value, dict):
                raise problem
            return value
    out: dict[str, Any] = {}
    for piece in text.replace(",", ";").split(";"):
        if not piece.strip():
            continue
        key, sep, number = piece.partition(":")
        try:
            out[_unquote(key)] = int(number)
        except ValueError:
            raise problem from None
        if not sep:
            raise problem
    return out


def _option_value(name: str, value: Any) -> Any:
    """An option's value as :meth:`Rules.from_mapping` takes it, from its parameter."""
    if not isinstance(value, str):
        return value
    text = _unquote(value)
    if name == "custom_values":
        return _parse_custom(text)
    try:
        return int(text)
    except ValueError:
        return text


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The rules named by game parameters: the preset, then every option given.

    An option left out (or holding its placeholder, :data:`UNSET_TEXT` or
    :data:`UNSET_NUMBER`, as OpenSpiel fills it in) keeps the preset's value,
    so a value given always wins, the standard game's included. A yes/no
    option is given when it differs from the standard game's value (OpenSpiel
    cannot tell ``False`` given from ``False`` filled in). A game string that
    names every option is one ``str(game)`` wrote before 7 December 2026: it
    is read as it was then (an option at the standard game's value kept the
    preset's).

    Raises:
        RulesError: unknown preset, option value or combination (all problems at once).
    """
    mapping: dict[str, Any] = {"preset": params.get("preset", "standard")}
    legacy = all(name in params and params[name] != _PARAMS[name] for name in _LEGACY_NAMED)
    for name, value in params.items():
        if name not in OPTIONS:
            continue
        unset = _PARAMS[name]
        if _kind(name) is not bool and value == unset and type(value) is type(unset):
            continue  # left out
        if legacy or _kind(name) is bool:
            old = _LEGACY_DEFAULTS[name]
            if value == old and type(value) is type(old):
                continue
        mapping[name] = _option_value(name, value)
    return Rules.from_mapping(mapping)


def _param_text(name: str, value: Any) -> Any:
    """An option's value as a parameter that OpenSpiel's game-string parser reads back with its type."""
    if _kind(name) is not str:
        return value
    if isinstance(value, dict):
        return "{" + ";".join(f"{k}:{v}" for k, v in value.items()) + "}"
    if isinstance(value, int):
        return f"'{value}'"  # a bare number would be read as an int parameter
    return str(value)


def game_params(rules: Rules, max_rounds: int) -> dict[str, Any]:
    """The parameters ``str(game)`` shows: the preset, ``max_rounds``, ``players`` and every option the rules change.

    An option is listed when its value differs from the preset's own, so the
    string loads the same game back (``pyspiel.load_game(str(game))``, pickling,
    ``serialize_game_and_state``).
    """
    own = Rules.from_mapping({"preset": rules.preset}).to_mapping(full=True)
    out: dict[str, Any] = {"preset": rules.preset, "max_rounds": max_rounds}
    for name, value in rules.to_mapping(full=True).items():
        if name == "players" or value != own[name] or type(value) is not type(own[name]):
            out[name] = _param_text(name, value)
    return out


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Rummy 500 (rummy500)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


class Rummy500Game(pyspiel.Game):
    """The game, for one set of rules."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rules = rules_from_params(params)
        self.max_rounds = int(params.get("max_rounds", _PARAMS["max_rounds"]))
        if self.max_rounds < 1:
            raise ValueError(f"max_rounds must be at least 1, not {self.max_rounds}")
        n = self.rules.players
        bound = return_bound(self.rules, self.max_rounds)
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=max(_MAX_CHANCE, n),
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=_MAX_LENGTH_PER_ROUND * self.max_rounds,
        )
        # What str(game) shows: the options as played, written so that OpenSpiel's parser reads them back.
        super().__init__(_GAME_TYPE, info, game_params(self.rules, self.max_rounds))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pyspiel pickles a game as its string and unpickles it into a bare object without this
        # class's attributes (rules, max_rounds): loaded again by its string, it keeps them.
        return pyspiel.load_game, (str(self),)

    def new_initial_state(self) -> Rummy500State:
        """The start: chance cuts for the first dealer."""
        return Rummy500State(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """An observer of the kind ``iig_obs_type`` asks for (None: the observation, OpenSpiel's default).

        ``perfect_recall`` picks the information state (else the observation);
        ``private_info`` SINGLE_PLAYER adds what only the observing player
        knows (its hand, its offer and its selection in progress), NONE leaves
        the public part alone (a smaller tensor: :data:`PRIVATE_FIELDS` left
        out, as OpenSpiel's own games leave out their private pieces).

        Raises:
            ValueError: a kind of observation not supported: ``public_info``
                False, ``private_info`` ALL_PLAYERS, or any observation
                parameter.
        """
        if params:
            raise ValueError(f"python_rummy500 takes no observation parameters; passed {dict(params)}")
        if iig_obs_type is None:
            return _Observer(self.rules, perfect_recall=False, private=True)
        if not iig_obs_type.public_info:
            raise ValueError("python_rummy500 has no observation without the public information (public_info=False)")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "python_rummy500 has no observation of every player's private information "
                "(private_info=ALL_PLAYERS): ask for SINGLE_PLAYER or NONE"
            )
        if private not in (pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE):
            raise ValueError(f"python_rummy500 does not support private_info={private}")
        single = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        return _Observer(self.rules, bool(iig_obs_type.perfect_recall), private=single)


class _Core:
    """Everything a state holds, with a cheap deep copy (the engine's own ``copy``)."""

    def __init__(self, rules: Rules, max_rounds: int) -> None:
        self.rules = rules
        self.table = Table(rules, 0, max_rounds, auto=False)
        self.dealer: int | None = None
        self.dealing: list[Card] = []
        self.decision: Decision | None = None
        self.returns_ = [0.0] * rules.players
        self.rewards_ = [0.0] * rules.players
        # round rewards waiting for the first decision after the next deal (see Rummy500State.rewards)
        self.pending = [0.0] * rules.players
        # the engine's events (each knows what a seat may see of it) and the deals
        self.history: list[Event | _Deal | _Look] = []
        self.discarded: list[Counter[Card]] = [Counter() for _ in range(rules.players)]

    def __deepcopy__(self, memo: Any) -> _Core:
        out = _Core.__new__(_Core)
        out.rules = self.rules
        out.table = self.table.with_match(self.table.match.copy(rng=random.Random()))
        out.dealer = self.dealer
        out.dealing = list(self.dealing)
        out.decision = None
        if self.decision is not None:
            out.decision = self.decision.copy()
        out.returns_ = list(self.returns_)
        out.rewards_ = list(self.rewards_)
        out.pending = list(self.pending)
        out.history = list(self.history)
        out.discarded = [Counter(c) for c in self.discarded]
        return out


class Rummy500State(pyspiel.State):
    """A position: a match, the chance event in progress, the tokens chosen so far."""

    def __init__(self, game: Rummy500Game) -> None:
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying its attributes: one with
        # a cheap __deepcopy__ keeps cloning fast.
        self.c = _Core(game.rules, game.max_rounds)

    # ------------------------------------------------------------ structure
    def _chance(self) -> str | None:
        if self.c.dealer is None:
            return "cut"
        return self.c.table.chance

    def current_player(self) -> int:
        """The player to decide, CHANCE or TERMINAL."""
        if self._chance() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        turn = self.c.table.turn()
        if turn is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return turn.seat

    def is_terminal(self) -> bool:
        """The match has a winner, or reached ``max_rounds``."""
        return self._chance() is None and self.c.table.turn() is None

    def _pool(self) -> Counter[Card]:
        """The cards the chance event in progress still has to place."""
        chance = self._chance()
        if chance == "deal":
            pack = Counter(build_pack(self.c.rules))
        else:
            state = self.c.table.match.state
            assert state is not None
            pack = Counter(state.public.discard[:-1])
        pack.subtract(self.c.dealing)
        return +pack

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self._chance() == "cut":
            n = self.c.rules.players
            return [(s, 1.0 / n) for s in range(n)]
        pool = self._pool()
        total = sum(pool.values())
        return sorted((card_index(c), k / total) for c, k in pool.items())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Outcomes of the chance node: a seat (the cut), or the next card's kind."""
        return self._chance_outcomes()

    def _legal_actions(self, player: int) -> list[int]:
        if self.c.decision is None or player != self.current_player():
            return []
        return sorted(self.c.decision.next_tokens())

    def _apply_action(self, action: int) -> None:
        chance = self._chance()
        self.c.rewards_ = [0.0] * self.c.rules.players
        if chance == "cut":
            self.c.dealer = action
            return
        if chance is not None:
            self._apply_chance_card(chance, _KINDS[action])
            return
        assert self.c.decision is not None
        turn = self.c.table.turn()
        assert turn is not None
        engine_action = self.c.decision.push(action)
        if engine_action is None:
            return
        if isinstance(engine_action, Discard):
            self.c.discarded[turn.seat].update(engine_action.cards)
        finished = self.c.table.play(engine_action)
        self.c.history.extend(self.c.table.events)
        if any(isinstance(e, Nominated) for e in self.c.table.events):
            state = self.c.table.match.state
            assert state is not None
            self.c.history.append(_Look(tuple(tuple(sorted(h)) for h in state.hands)))
        for scores in finished:
            for i, r in enumerate(round_rewards(self.c.rules, scores)):
                self.c.pending[i] += r
        self._new_decision()

    def _credit(self) -> None:
        """Pay the finished rounds' rewards once the state is a decision or the end (never at a chance node)."""
        if self._chance() is None and any(self.c.pending):
            self.c.rewards_ = self.c.pending
            self.c.returns_ = [a + b for a, b in zip(self.c.returns_, self.c.pending, strict=True)]
            self.c.pending = [0.0] * self.c.rules.players

    def _apply_chance_card(self, chance: str, c: Card) -> None:
        self.c.dealing.append(c)
        if self._pool():
            return
        cards, self.c.dealing = self.c.dealing, []
        match = self.c.table.match
        if chance == "deal":
            assert self.c.dealer is not None  # the cut came first
            dealer = self.c.dealer if not match.rounds else match.next_dealer()
            match.start_round(RoundState.from_deck(self.c.rules, dealer, cards))
            self.c.discarded = [Counter() for _ in range(self.c.rules.players)]
            state = match.state
            assert state is not None
            hands = tuple(tuple(sorted(h)) for h in state.hands)
            self.c.history.append(_Deal(len(match.rounds), dealer, hands, face_down=not state.seen_hand(dealer)))
        else:
            state = match.state
            assert state is not None
            self.c.history.extend(match.apply(state.public.to_move, Reshuffle(tuple(cards)), check=False, auto=False))
        self._new_decision()

    def _new_decision(self) -> None:
        turn = self.c.table.turn()
        self.c.decision = Decision(turn.legal) if turn is not None else None
        self._credit()

    # --------------------------------------------------------- information
    def returns(self) -> list[float]:
        """Each seat's summed round rewards so far (a round's from the state that pays them: :meth:`rewards`)."""
        return list(self.c.returns_)

    def rewards(self) -> list[float]:
        """The round rewards paid on the move into this state.

        A round's rewards are paid at the first state after it that is not a
        chance node: the end of the match, or the first decision after the
        next deal (the deal's chance nodes pay nothing). So the rewards of
        every state, chance nodes included, sum to :meth:`returns`, as
        OpenSpiel asks, and a reader of decision nodes alone (``rl_environment``,
        ``random_sim_test``) sees each round's rewards once.
        """
        return list(self.c.rewards_)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self._chance() == "cut" else f"card {_KINDS[action]}"
        return token_name(action)

    def view_of(self, player: int):  # noqa: ANN201 - a rummy500.views.View
        """``player``'s view of the current round."""
        return self.c.table.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Rummy500State:
        """A state the player cannot tell from this one: the hidden cards dealt again at random.

        The decision is worked out again from the new hands, so the seat to
        decide gets the legal actions of the hand it now holds. When
        ``player_id`` is the seat deciding, it still decides (the others'
        offers, which it cannot see, are passed over as if declined), with the
        same legal actions and the cards it has selected so far; otherwise the
        decider's selection in progress, its own secret, is dropped. A deal
        that leaves the decider no legal action (the real hand could use the
        card it took from the pile, this one cannot) is dealt again.

        Raises:
            ResampleError: no deal that leaves the decider a legal action in
                :data:`RESAMPLE_TRIES` tries.
        """
        rng = random.Random(int(probability_sampler() * 2**52))
        out = self.clone()
        if self._chance() is not None or self.c.table.match.state is None:
            return out
        view = self.c.table.view(player_id)
        was = self.c.table.turn()
        own = was is not None and was.seat == player_id
        skip = [s for s in range(self.c.rules.players) if s != player_id] if own else []
        for _ in range(RESAMPLE_TRIES):
            out.c.table.match.state = state_from_view(view, rng)
            out.c.table.forget_turn(skip)  # not the decision worked out for the real hands
            turn = out.c.table.turn()
            if turn is None or turn.legal:
                break
        else:
            raise ResampleError(
                f"no deal of the cards seat {player_id} cannot see, in {RESAMPLE_TRIES} tries, "
                "left the seat to decide a legal action"
            )
        out.c.decision = Decision(turn.legal) if turn is not None else None
        if own and out.c.decision is not None and self.c.decision is not None:
            out.c.decision.prefix = self.c.decision.prefix
        return out

    def __str__(self) -> str:
        chance = self._chance()
        if chance is not None:
            return f"chance: {chance} ({len(self.c.dealing)} cards placed)"
        state = self.c.table.match.state
        if state is None:
            return "terminal"
        lines = [f"totals {self.c.table.match.totals} to_move {state.public.to_move} phase {state.public.phase}"]
        lines += [f"p{s}: {' '.join(str(c) for c in sorted(h))}" for s, h in enumerate(state.hands)]
        lines.append("pile: " + " ".join(str(c) for c in state.public.discard))
        return "\n".join(lines)


@dataclass(frozen=True)
class _Deal:
    """A deal: everybody sees who dealt; each seat sees its own hand (not yet under Dealer's Gambit)."""

    round: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    #: Dealer's Gambit: the hands lie face down until the dealer has nominated (then a :class:`_Look`).
    face_down: bool = False


@dataclass(frozen=True)
class _Look:
    """Dealer's Gambit: the dealer has nominated, and each seat looks at its own hand."""

    hands: tuple[tuple[Card, ...], ...]


def _history_line(item: Event | _Deal | _Look, player: int | None) -> str:
    """One line of ``player``'s information-state string (None: the public one, nobody's hand)."""
    if isinstance(item, _Deal):
        if player is None:
            return f"dealt round={item.round} dealer={item.dealer}"
        hand = "face down" if item.face_down else " ".join(map(str, item.hands[player]))
        return f"dealt round={item.round} dealer={item.dealer} hand={hand}"
    if isinstance(item, _Look):
        return "looked" if player is None else f"looked hand={' '.join(map(str, item.hands[player]))}"
    d = item.seen_by(player).to_dict()
    kind = d.pop("event")
    parts = [kind]
    for k, v in d.items():
        if v is None or v == []:
            continue
        if isinstance(v, list):
            v = " ".join(" ".join(map(str, x)) if isinstance(x, list) else str(x) for x in v)
        parts.append(f"{k}={v}")
    return " ".join(parts)


#: The observation fields (:func:`~rummy500.env.observation.layout`) that only the observing player
#: knows: its hand, whether it is deciding an out-of-turn offer (an offer comes only to a seat whose
#: hand has a play) and the tokens it has selected so far. A public observer (``private_info`` NONE)
#: leaves them out.
PRIVATE_FIELDS = ("hand", "offer", "selected", "selected_depth")


class _Observer:
    """OpenSpiel observer: the observation tensor, or the information state; the player's or the public one.

    Args:
        rules: the game's rules.
        perfect_recall: the information state (else the observation).
        private: with the observing player's private information (``private_info``
            SINGLE_PLAYER); False: the public information alone (NONE).
    """

    def __init__(self, rules: Rules, perfect_recall: bool, private: bool = True) -> None:
        self.rules = rules
        self.players = players = rules.players
        self.perfect_recall = perfect_recall
        self.private = private
        lay = layout_for(rules)
        self.cards = lay.cards
        # The entries of the full observation that this observer keeps (None: all of them).
        self._keep: np.ndarray | None = None
        size = lay.size
        if not private:
            keep = np.ones(lay.size, bool)
            for name, off, n, _ in lay.fields:
                if name in PRIVATE_FIELDS:
                    keep[off : off + n] = False
            self._keep = np.flatnonzero(keep)
            size = self._keep.size
        self._obs_size = size
        size += players * HAND_KINDS if perfect_recall else 0
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Rummy500State, player: int) -> None:
        self.tensor.fill(0)
        if state.c.table.match.state is None:
            return
        match = state.c.table.match
        rs = match.state
        assert rs is not None
        target = float(self.rules.target) or 1.0
        if self._keep is not None:
            # the public facts alone: no hand, no offer, no selection
            obs = encode_public(rs.public, player, (), match.totals, target, (), False, self.cards)[self._keep]
        else:
            turn = state.c.table.turn()
            deciding = turn is not None and turn.seat == player and state.c.decision is not None
            selected = state.c.decision.selected if deciding else ()  # type: ignore[union-attr]
            # what the player's view holds: the public facts and its own hand
            offer = bool(deciding and turn.offer)  # type: ignore[union-attr]
            obs = encode_public(rs.public, player, rs.seen_hand(player), match.totals, target, selected, offer, self.cards)
        self.tensor[: obs.size] = obs
        if self.perfect_recall:
            n = self.players
            for seat, cards in enumerate(state.c.discarded):
                base = obs.size + ((seat - player) % n) * HAND_KINDS
                for c, k in cards.items():
                    self.tensor[base + card_index(c)] = k

    def string_from(self, state: Rummy500State, player: int) -> str:
        if state.c.table.match.state is None:
            return f"p{player} before the deal"
        v = state.view_of(player)
        hand = f" hand {' '.join(map(str, v.hand))}" if self.private else ""
        now = (
            f"p{player}{hand} | pile {' '.join(map(str, v.discard))} | "
            f"melds {' ; '.join(' '.join(map(str, m.cards)) for m in v.melds)} | totals {list(state.c.table.match.totals)}"
        )
        turn = state.c.table.turn()
        decision = state.c.decision
        if self.private and decision is not None and decision.selected and turn is not None and turn.seat == player:
            # The cards a decider has selected so far are its own secret until the action is complete.
            now += " | selected " + ", ".join(token_name(t) for t in decision.selected)
        if not self.perfect_recall:
            return now
        # the history as the player may see it (the public one: as a spectator sees it, no hand dealt or drawn)
        viewer = player if self.private else None
        seen = [item for item in state.c.history if isinstance(item, _Deal | _Look) or item.visible_to(viewer)]
        past = [_history_line(item, viewer) for item in seen]
        return "\n".join([*past, now])


pyspiel.register_game(_GAME_TYPE, Rummy500Game)
