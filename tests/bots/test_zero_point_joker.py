"""A wild joker that counts nothing is still laid when it goes out, and never thrown on impulse.

Under ``joker_value: 0`` and a Dealer's Gambit a joker laid off scores 0, so
laying it "kept no points layable" and every level, and the hint, held it and
threw the other card instead of going out (a bot audit, 7 December 2026).
"""

import random
from collections import Counter

import pytest

from rummy500.actions import Discard, LayOff
from rummy500.bots import make_bot
from rummy500.bots.hinting import strongest_hint
from rummy500.cards import JOKER
from rummy500.rules import Rules
from rummy500.state import view_from_position

# Seat 0 holds QC JK and has drawn; the joker (worth 0) lays off on the 2-3-4 runs and the 5s.
ZERO_JOKER = (
    {"joker_value": 0},
    "players=2 dealer=1 to_move=0 phase=play hand_sizes=2|8 stock_count=11 discard=7H.7C.JS.TC.JD.3H melds=set:5D.5H.5S.5C:0.0.0.1:-:-1:5:3:0:0000:0:0;run:AH.2H.JK=3H.4H:1.1.1.1:1.2.3.4:2:0:3:1:0000:0:0;set:KD.KH.KS:0.0.0:-:-1:13:3:0:000:0:0;set:9C.9H.9S.9D:1.1.1.0:-:-1:9:3:1:0000:0:0;set:8C.8D.8S.8H:0.0.0.0:-:-1:8:3:0:0000:0:0;run:AC.2C.3C.4C:0.0.0.0:1.2.3.4:0:0:4:0:0000:0:0;run:AS.2S.3S.4S:1.1.1.0:1.2.3.4:3:0:3:1:0000:0:0 known=-|6C.AD.7D.QD.6H.JH.QH.QS obligation=- taken_top=- drawn=1 turn_points=0 turn_long_run=0 opened=11 has_melded=11 floating=00 removed=- last_discarder=- drew_last_card=- gambit=- dealer_joker=- claimed_card=- turns=28 declined=- went_out=- round_scores=- seat=0 hand=QC.JK scores=107|18",
)
# A 4-player Dealer's Gambit, the dealer nominated wild: seat 0 holds 2S JK.
GAMBIT = (
    {"preset": "dealers_gambit", "players": 4},
    "players=4 dealer=2 to_move=0 phase=play hand_sizes=2|7|1|7 stock_count=6 discard=5D.TC.KC.TS.2D.7S melds=set:KD.KH.JK=KC:2.2.2:-:-1:13:3:2:000:0:0;set:JC.JH.JS.JD:0.0.0.2:-:-1:11:3:0:0000:0:0;set:4D.4H.4S:0.0.0:-:-1:4:3:0:000:0:0;set:8C.8H.8S:2.2.2:-:-1:8:3:2:000:0:0;run:5H.6H.7H:2.2.2:5.6.7:2:0:3:2:000:0:0;run:5C.6C.7C:0.0.0:5.6.7:0:0:3:0:000:0:0;set:QC.QD.QS:0.0.0:-:-1:12:3:0:000:0:0;run:AH.2H.3H:0.0.0:1.2.3:2:0:3:0:000:0:0 known=-|2C.QH.AS.3S|AC|3C.7D.5S.9S obligation=- taken_top=- drawn=1 turn_points=0 turn_long_run=0 opened=1111 has_melded=1010 floating=0000 removed=- last_discarder=- drew_last_card=- gambit=wild dealer_joker=used claimed_card=- turns=37 declined=- went_out=- round_scores=- seat=0 hand=2S.JK scores=84|-16|45|26",
)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize(("rules", "position"), [ZERO_JOKER, GAMBIT], ids=["joker_value_0", "dealers_gambit"])
def test_a_zero_point_joker_is_laid_off_to_go_out(level, rules, position):
    view = view_from_position(Rules.from_mapping(rules), position)
    assert len(view.hand) == 2 and JOKER in view.hand
    seen = Counter()
    for k in range(20 if level == "easy" else 1):
        act = make_bot(level, k).act(view, random.Random(k))
        seen[type(act).__name__] += 1
        # Laying anything else would not go out; throwing the joker would waste it.
        assert not (isinstance(act, Discard) and any(c.is_joker for c in act.cards))
        if isinstance(act, LayOff):
            assert [c.bare for c in act.cards] == [JOKER]
    if level != "easy":  # (easy overlooks lay-offs 40% of the time, by design)
        assert seen == {"LayOff": 1}
    else:
        assert seen["LayOff"] >= 5


@pytest.mark.parametrize(("rules", "position"), [ZERO_JOKER, GAMBIT], ids=["joker_value_0", "dealers_gambit"])
def test_the_hint_lays_the_zero_point_joker_off(rules, position):
    view = view_from_position(Rules.from_mapping(rules), position)
    assert isinstance(strongest_hint(view, 5, 2.0).action, LayOff)


def test_easy_never_throws_a_wild_joker_on_impulse():
    # 4C JK, every card in the plan (the joker lays off on the spade run): the impulse throw
    # picked the highest-valued card, the joker.
    view = view_from_position(Rules.from_mapping({"going_out_bonus": 25}), "players=2 dealer=0 to_move=0 phase=play hand_sizes=2|6 stock_count=17 discard=AH.KD.QH.9H.3S.TH.6H.QC melds=run:JK=TS.JS.QS.KS.AS:1.1.1.0.0:10.11.12.13.14:3:0:3:1:00000:0:0;run:8C.9C.TC:0.0.0:8.9.10:0:0:3:0:000:0:0;run:7S.8S.9S.TS:0.0.0.0:7.8.9.10:3:0:3:0:0000:0:0;set:JC.JD.JH:1.1.1:-:-1:11:3:1:000:0:0;set:4D.4H.4S:0.0.0:-:-1:4:3:0:000:0:0;run:6D.7D.8D:1.1.1:6.7.8:1:0:3:1:000:0:0 known=-|2C.3C.5S obligation=- taken_top=- drawn=1 turn_points=0 turn_long_run=0 opened=11 has_melded=11 floating=00 removed=- last_discarder=- drew_last_card=- gambit=- dealer_joker=- claimed_card=- turns=15 declined=- went_out=- round_scores=- seat=0 hand=4C.JK scores=132|148")
    acts = Counter(str(make_bot("easy", k).act(view, random.Random(k))) for k in range(100))
    assert "discard JK" not in acts
    assert acts["discard 4C"] > 0 and sum(n for a, n in acts.items() if a.startswith("layoff JK")) > 0
