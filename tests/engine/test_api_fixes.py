"""The public API does what docs/api.md says (an audit's findings, each as a user meets it).

Typing shipped (``py.typed``), ``drive`` playing the engine's own action, ``Rules``
built directly checked like ``from_mapping``, discards of a list of cards,
resampling a finished round, the exports and docstrings, ``Match``'s seed and
``rng``, the words of a refusal, cards through pickle and copy, ``repr(Match)``.
"""

from __future__ import annotations

import copy
import pickle
import random
import re
import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

import rummy500
from rummy500 import Card, IllegalAction, Match, Rules, RulesError, parse_action, parse_card
from rummy500.actions import Action, Decline, Discard, Reshuffle, Take
from rummy500.drive import AgentError, PolicyAgent, drive
from rummy500.record import match_from_record
from rummy500.scoring import card_value
from rummy500.state import DecisionKind, RoundState, state_from_view
from rummy500.views import View

from .helpers import cards, deal, standard

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "docs" / "api.md"


# ------------------------------------------------------------------ 1. typing
def test_the_package_ships_py_typed_so_type_checkers_read_its_annotations() -> None:
    assert files("rummy500").joinpath("py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["rummy500"]


def test_round_state_is_the_match_state_without_its_none() -> None:
    match = Match(standard(2), seed=3)
    assert match.round_state() is match.state
    with pytest.raises(IllegalAction, match="no round was dealt yet"):
        Match(standard(2), seed=3, deal=False).round_state()


# ------------------------------------------------------------------- 2. drive
class _PlainInts:
    """Answers the random legal action, but with a discard's cards as plain ints (numpy-style values)."""

    def act(self, view: View, rng: random.Random) -> Action:
        action = rng.choice(view.legal)
        if isinstance(action, Discard):
            return Discard(tuple(int(c) for c in action.cards))
        return action


def test_drive_plays_and_records_the_engines_action_for_an_answer_only_equal_to_a_legal_one() -> None:
    match = Match(standard(2), seed=3)
    played: list[Action] = []
    drive(
        match,
        [_PlainInts(), _PlainInts()],
        random.Random(2),
        until=lambda: len(match.rounds) > 1,
        observe=lambda d, a, e: played.append(a),
    )
    discards = [a for a in played if isinstance(a, Discard)]
    assert discards and all(type(c) is Card for a in discards for c in a.cards)
    record = match.record()
    for action in record["rounds"][0]["actions"]:
        if "discard" in action:
            assert isinstance(action["discard"], str) and re.fullmatch(r"[A2-9TJQK][CDHS]|JK", action["discard"])
    loaded = match_from_record(record)  # the record loads and replays
    assert loaded.totals == match.totals


def test_drive_refuses_a_bool_where_a_number_goes_and_applies_nothing() -> None:
    match = Match(standard(2), seed=3)
    state = match.state
    assert state is not None
    assert Take(1) in state.legal_actions()
    before = state.position()

    class TakesTrue:
        def act(self, view: View, rng: random.Random) -> Action:
            return Take(True)  # type: ignore[arg-type]  # equal to Take(1)

    with pytest.raises(AgentError, match="a bool or a float is neither"):
        drive(match, [TakesTrue(), TakesTrue()], random.Random(1))
    assert state.position() == before and match.rounds[0].actions == []


def test_drive_keeps_the_order_of_a_discard_of_several_cards() -> None:
    state = deal(["AS 2S 3S 9D KC", "4H 5H 6H"], "QD 7S", "TC", discard_count="match_drawn", stock_draw_count=2)
    state.apply(parse_action("draw"))
    state.apply(parse_action("meld AS 2S 3S"))
    played: list[Action] = []

    class Discards:
        def act(self, view: View, rng: random.Random) -> Action:
            return Discard([int(c) for c in cards("QD KC")])  # not the listed order (ascending), plain ints

    drive(
        state,
        [Discards(), PolicyAgent(lambda v, r: v.legal[0])],
        random.Random(1),
        until=lambda: bool(played),
        observe=lambda d, a, e: played.append(a),
    )
    assert played == [Discard(tuple(cards("QD KC")))] and all(type(c) is Card for c in played[0].cards)  # type: ignore[attr-defined]
    assert state.public.discard[-1] == parse_card("KC")  # the last card named is on top


# ------------------------------------------------------------------- 3. Rules
def test_rules_built_directly_normalise_custom_values_as_from_mapping_does() -> None:
    queen = parse_card("QS")
    direct = Rules(custom_values={"qs": 40, "10": 3})
    parsed = Rules.from_mapping({"custom_values": {"qs": 40, "10": 3}})
    assert card_value(queen, direct) == card_value(queen, parsed) == 40
    assert card_value(parse_card("TH"), direct) == 3
    assert direct == parsed and hash(direct) == hash(parsed)
    assert direct.to_mapping() == parsed.to_mapping() == {"players": 2, "custom_values": {"QS": 40, "T": 3}}
    assert type(direct.to_mapping()["custom_values"]) is dict
    assert Rules().to_mapping() == {"players": 2}  # no custom values: left out, as before


def test_rules_built_directly_refuse_options_that_make_no_sense_together_as_from_mapping_does() -> None:
    options: dict[str, Any] = {"discard_count": "match_drawn", "going_out": "floating"}
    with pytest.raises(RulesError) as direct:
        Rules(**options)
    with pytest.raises(RulesError) as parsed:
        Rules.from_mapping(options)
    assert (
        direct.value.problems
        == parsed.value.problems
        == ["discard_count: match_drawn cannot be combined with going_out: floating"]
    )
    with pytest.raises(RulesError, match="partnership needs players: 4"):
        Rules(partnership=True)
    # A test of code defined for every combination still builds them, on purpose.
    assert Rules._any_combination(**options).going_out == "floating"


def test_the_custom_values_of_frozen_rules_cannot_be_changed() -> None:
    rules = Rules.from_mapping({"custom_values": {"QS": 40}})
    same = Rules.from_mapping({"custom_values": {"QS": 40}})
    h = hash(rules)
    with pytest.raises(TypeError, match="cannot be changed"):
        rules.custom_values["QS"] = 5  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.custom_values.clear()  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        rules.custom_values.update(QS=1)  # type: ignore[attr-defined]
    assert rules == same and hash(rules) == h == hash(same)
    assert card_value(parse_card("QS"), rules) == 40
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and hash(again) == h and dict(again.custom_values) == {"QS": 40}
    assert copy.deepcopy(rules) == rules
    assert rules.replace(custom_values={"QS": 50}).custom_values == {"QS": 50}


# ---------------------------------------------------------------- 4. Discard
def test_a_discard_or_reshuffle_of_a_list_of_cards_is_the_same_action_as_of_a_tuple() -> None:
    ks, two = parse_card("KS"), parse_card("2C")
    assert Discard([ks]) == Discard((ks,)) and hash(Discard([ks])) == hash(Discard((ks,)))
    assert Discard([ks, two]).cards == (ks, two)  # the order is kept (the last card ends on top)
    assert Reshuffle([ks, two]) == Reshuffle((ks, two)) and hash(Reshuffle([ks, two]))
    state = deal(["AS 2S 3S 9D", "4H 5H 6H"], "QD 7S", "TC")
    state.apply(parse_action("draw"))
    state.apply(Discard([parse_card("9D")]))
    assert state.public.discard[-1] == parse_card("9D")


# -------------------------------------------------------- 5. state_from_view
def test_a_resampled_finished_round_holds_the_hands_its_view_shows() -> None:
    match = Match(standard(2), seed=6)
    state = match.state
    assert state is not None
    rng = random.Random(6)
    while not state.is_over:
        d = state.decision()
        assert d is not None
        state.apply(rng.choice(d.legal), d.seat)
    view = state.view(0)
    assert view.final_hands is not None and any(view.final_hands[1])
    for seed in range(5):
        guess = state_from_view(view, random.Random(seed))
        assert guess.view(0).final_hands == view.final_hands
        assert guess.round_scores() == state.round_scores()
        assert guess.public.round_scores == view.round_scores
        assert len(guess.stock) == view.stock_count


# ------------------------------------------------------------ 6. docs, exports
def test_decline_is_exported_like_every_other_action_class() -> None:
    assert "Decline" in rummy500.__all__ and rummy500.Decline is Decline  # type: ignore[attr-defined]
    for name in (
        "Draw",
        "Take",
        "Meld",
        "LayOff",
        "Swap",
        "Discard",
        "Pass",
        "CallRummy",
        "Float",
        "Nominate",
        "Block",
        "Reshuffle",
        "Decline",
    ):
        assert name in rummy500.__all__


def test_the_docs_name_only_methods_and_properties_that_exist() -> None:
    for meth in re.findall(r":meth:`(\w+)`", Rules.__doc__ or ""):
        assert callable(getattr(Rules, meth, None)), meth  # (a method: `preset` is a field)
    api = API.read_text(encoding="utf-8")
    card = parse_card("AS")
    for attr in re.findall(r"`card\.(\w+)`", api):
        assert hasattr(card, attr), f"docs/api.md names card.{attr}"


# -------------------------------------------------------------------- 7. Match
def test_a_match_given_both_an_rng_and_a_seed_refuses_them() -> None:
    with pytest.raises(ValueError, match="not both"):
        Match(standard(2), rng=random.Random(1), seed=5)
    assert Match(standard(2), rng=random.Random(5)).record() == Match(standard(2), seed=5).record()


def test_a_match_played_without_auto_decides_by_chance_when_a_reshuffle_is_due() -> None:
    match = Match(standard(2, stock_out="reshuffle"), seed=1, deal=False)
    match.start_round(
        RoundState.from_deal(match.rules, 1, [cards("AS 2S 3S 9D KC"), cards("4H 5H 6H")], cards("QD"), cards("TC 8C"))
    )
    for move in ("draw", "discard 9D"):
        match.apply(0, parse_action(move), auto=False)
    decision = match.decision()
    assert decision is not None and decision.kind is DecisionKind.CHANCE
    # (The docstring says so too: read from the source, which the compiled build's modules do not carry.)
    source = (Path(__file__).resolve().parents[2] / "src" / "rummy500" / "match.py").read_text()
    doc = source[source.index("def decision(") :][:2000]
    assert "CHANCE" in doc and "auto=False" in doc


# ------------------------------------------------------------------- 8. minor
def test_a_decline_with_nothing_offered_says_so() -> None:
    match = Match(standard(2), seed=3)
    with pytest.raises(IllegalAction, match="there is no out-of-turn offer to decline"):
        match.apply(0, Decline())
    with pytest.raises(IllegalAction, match="there is no out-of-turn offer to decline"):
        match.apply(1, Decline())


def test_a_value_that_is_no_action_is_refused_naming_the_parser() -> None:
    match = Match(standard(2), seed=3)
    with pytest.raises(
        IllegalAction, match=r"'draw' is not an action: parse its text with rummy500\.actions\.parse_action"
    ):
        match.apply(0, "draw")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="action_from_record"):
        match.apply(0, {"draw": "stock"})  # type: ignore[arg-type]
    assert match.state is not None and match.state.explain(parse_action("meld AS 2S 3S"), 0).startswith("draw first")


def test_cards_stay_singletons_through_pickle_copy_and_deepcopy() -> None:
    for c in (parse_card("AS"), parse_card("JK"), parse_card("JK=7H")):
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(c, protocol)) is c
        assert copy.copy(c) is c and copy.deepcopy(c) is c
    hand = cards("AS KD JK")
    assert all(a is b for a, b in zip(copy.deepcopy(hand), hand, strict=True))
    assert all(a is b for a, b in zip(pickle.loads(pickle.dumps(hand)), hand, strict=True))


def test_a_match_has_a_short_repr() -> None:
    match = Match(standard(2), seed=3)
    assert repr(match) == "<Match standard, 2 players, round 1, totals 0-0>"
    match = Match(Rules.preset_rules("popular", players=3), scores=[120, 85, 7], seed=3)
    assert repr(match) == "<Match popular, 3 players, round 1, totals 120-85-7>"
    drive(match, [PolicyAgent(lambda v, r: r.choice(v.legal))] * 3, random.Random(1))
    assert re.fullmatch(
        r"<Match popular, 3 players, round \d+, won by seat \d, totals [-\d]+-[-\d]+-[-\d]+>", repr(match)
    )
