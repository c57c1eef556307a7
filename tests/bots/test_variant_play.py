"""The bots under variants whose scoring changes what a move is worth.

Persian jokers (not wild, melded in sets of jokers, 20 points each), the
Rummy Master's Hand (``masters_hand``: a run of seven laid and out by a
discard scores 500 for the round) and Dealer's Gambit ``double`` (a joker
placed on a set as it is melded doubles it). Each position is written in the
position notation and the bot's move is what a player at the table would see.
"""

from __future__ import annotations

import random

import pytest

from rummy500 import Rules, parse_cards
from rummy500.actions import Action, Discard, Draw, Meld, parse_action
from rummy500.bots import make_bot
from rummy500.bots.hinting import strongest_hint
from rummy500.bots.leaves import leaf_features
from rummy500.cards import JOKER
from rummy500.state import RoundState, build_pack
from rummy500.views import View

from .conftest import FAST


def _bot_move(level: str, view: View) -> Action | None:
    if level == "hint":
        return strongest_hint(view, seed=1, budget=30.0, options=FAST).action
    return make_bot(level, 1, **FAST.get(level, {})).act(view, random.Random(0))


def _play_turn(state: RoundState, level: str) -> list[str]:
    """Seat 0 plays out its turn as ``level`` would (or as the hint says): the moves, in the notation."""
    moves = []
    while not state.is_over and state.public.to_move == 0:
        action = _bot_move(level, state.view(0))
        assert action is not None
        moves.append(str(action))
        state.apply(action, 0)
    return moves


# ------------------------------------------------------------------ Persian jokers

PERSIAN = Rules.preset_rules("persian")


def _persian(opponent: str, stock: str) -> View:
    """Seat 0 (partner of seat 2) holds two jokers and loose cards after its draw; seat 1 holds ``opponent``."""
    state = RoundState.from_position(
        PERSIAN,
        "dealer=3 to_move=0 phase=play discard=KD "
        f"hands=2C.4C.QC.4D.TD.QD.JK.JK|{opponent}|KC.9C.8C.7C.6C.5C.3C|AC.AD.JC.TC.2D.3S.4S stock={stock}",
    )
    return state.view(0)


FULL_STOCK = "5S.6S.7S.8S.9S.TS.JS.QS.KS.AS.2H.3H.4H.5H.6H.7H.8H.9H.TH.JH.QH.KH.AH.2S.3S.4S"


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_persian_joker_is_not_thrown_to_the_opponents_early_in_the_round(level: str) -> None:
    # Two jokers held: a third makes a 60-point set. Thrown, a joker is 20 points for whoever melds it.
    move = _bot_move(level, _persian("3D.5D.6D.7D.8D.9D.JD", FULL_STOCK))
    assert isinstance(move, Discard)
    assert JOKER not in move.cards


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_persian_joker_goes_when_an_opponent_is_about_to_go_out(level: str) -> None:
    # Seat 1 holds one card and the stock is nearly spent: a joker kept is 20 points caught in hand.
    assert _bot_move(level, _persian("3D", "5S.6S.7S")) == Discard((JOKER,))


# ------------------------------------------------------------------ the Master's Hand

SEVEN_HEARTS = (
    "dealer=1 to_move=0 phase=draw discard=2D "
    "hands=2H.3H.4H.5H.6H.7H.8H|3C.4D.6S.8S.TC.QD.AD.KS.KD.2S.5C.7D.JD stock=9H.7S.3D.JS.6C.8D.9C.TD.JH.QC"
)
QUICK = {"card_values": "flat", "score_divisor": 5, "target": 100}


@pytest.mark.parametrize("level", ["medium", "hard", "expert", "hint"])
@pytest.mark.parametrize(("options", "score"), [({}, 500), (QUICK, 100)], ids=["standard values", "quick"])
def test_a_seven_card_run_and_a_discard_take_the_masters_hand(level: str, options: dict[str, object], score: int) -> None:
    state = RoundState.from_position(Rules.from_mapping({"masters_hand": True, **options}), SEVEN_HEARTS)
    state.apply(Draw(), 0)  # the 9H
    assert _play_turn(state, level) == ["meld 2H 3H 4H 5H 6H 7H 8H", "discard 9H"]
    assert state.is_over and state.masters == 0
    assert state.result is not None and state.result.round_scores[0] == score


RUN_AND_KINGS = (
    "dealer=1 to_move=0 phase=draw discard=2D "
    "hands=2H.3H.4H.5H.6H.7H.8H.KC.KD.KS|3C.4D.6S.TC.QD.AD.2S.5C.7D.JD stock=9H.7S.3D.JS.6C.8D.9C.TD.JH.QC"
)


def test_a_masters_hand_lays_its_run_then_the_rest_and_keeps_a_card_to_throw() -> None:
    # Everything could be laid (2H-9H and the kings), but going out by a meld is no Master's Hand.
    state = RoundState.from_position(Rules.from_mapping({"masters_hand": True}), RUN_AND_KINGS)
    state.apply(Draw(), 0)  # the 9H
    assert _play_turn(state, "medium") == ["meld 2H 3H 4H 5H 6H 7H 8H", "meld KC KD KS", "discard 9H"]
    assert state.masters == 0


def test_a_masters_hand_is_played_on_after_the_run_is_down() -> None:
    # The run was laid this turn already: the kings, then the 9H thrown rather than laid off.
    state = RoundState.from_position(Rules.from_mapping({"masters_hand": True}), RUN_AND_KINGS)
    state.apply(Draw(), 0)
    state.apply(parse_action("meld 2H 3H 4H 5H 6H 7H 8H"), 0)
    assert _play_turn(state, "medium") == ["meld KC KD KS", "discard 9H"]
    assert state.masters == 0


def test_without_the_masters_hand_the_run_and_its_card_go_out_together() -> None:
    state = RoundState.from_position(Rules.from_mapping({}), SEVEN_HEARTS)
    state.apply(Draw(), 0)
    assert _play_turn(state, "medium") == ["meld 2H 3H 4H 5H 6H 7H 8H 9H"]
    assert state.masters is None


# ------------------------------------------------------------------ Dealer's Gambit: double

GAMBIT = Rules.preset_rules("dealers_gambit")
DOUBLED = "meld KC KD KS JK"


def _gambit(position: str) -> RoundState:
    """A Dealer's Gambit round (a 54-card pack, one joker beside the dealer): the stock is the rest of the pack."""
    shown = parse_cards(" ".join(part.split("=", 1)[1].replace("|", ".").replace(".", " ") for part in position.split() if part.startswith(("hands=", "discard="))))
    stock = list(build_pack(GAMBIT))
    stock.remove(JOKER)  # the dealer's joker
    for c in shown:
        stock.remove(c)
    return RoundState.from_position(GAMBIT, f"{position} stock={'.'.join(map(str, stock))}")


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "hint"])
def test_the_dealer_doubles_its_kings_with_the_dealers_joker(level: str) -> None:
    # The dealer (seat 0) nominated double; its joker lies free beside it.
    state = _gambit("dealer=0 to_move=0 phase=play gambit=double dealer_joker=available discard=2H.AH hands=KC.KD.KS.2C.5D.9H.4S.7S|3C.4D.6H.8S.TC.QD")
    view = state.view(0)
    assert Meld(tuple(parse_cards("KC KD KS JK"))) in view.legal  # 60 points; the kings alone are 30
    assert str(_bot_move(level, view)) == DOUBLED
    state.apply(parse_action(DOUBLED), 0)
    assert state.public.melds[0].doubled and state.public.dealer_joker == "used"


@pytest.mark.parametrize("level", ["medium", "hard", "hint"])
def test_a_player_doubles_a_set_with_its_own_joker(level: str) -> None:
    # The dealer (seat 1) doubled its sevens with its joker; seat 0 draws and doubles its kings with the other.
    state = _gambit("dealer=1 to_move=1 phase=play gambit=double dealer_joker=available discard=2H hands=KC.KD.KS.JK.2C.5D.9H|7C.7D.7S.3C.4D.6H.8S.TC")
    for text in ("meld 7C 7D 7S JK", "discard 3C"):
        state.apply(parse_action(text), 1)
    state.apply(Draw(), 0)
    assert str(_bot_move(level, state.view(0))) == DOUBLED


def test_the_leaf_counts_a_doubled_set() -> None:
    # hard's leaf values the lay of the dealer's hand as the engine scores it: the kings doubled by its joker.
    position = "dealer=0 to_move=0 phase=play gambit=double dealer_joker=available discard=2H.AH hands=KC.KD.KS.2C.5D.9H.4S.7S|3C.4D.6H.8S.TC.QD"
    assert leaf_features(_gambit(position), 0)[1] == 60
    # Under split the joker does nothing: the kings alone.
    assert leaf_features(_gambit(position.replace("gambit=double", "gambit=split")), 0)[1] == 30
