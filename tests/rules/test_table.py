"""Table and cards options (RULES.md Part 2): each value against the standard game."""

from __future__ import annotations

import random

import pytest

from rummy500.cards import parse_cards
from rummy500.match import Match, cut_for_dealer
from rummy500.record import RecordError, replay
from rummy500.rules import Rules, RulesError
from rummy500.state import build_pack

from .scenario import contrast, make_record, one_round, play


def _deck(rules: dict) -> list[str]:
    return [str(c) for c in build_pack(Rules.from_mapping(rules))]


# --------------------------------------------------------------------- players
@pytest.mark.parametrize("n", range(3, 9))
def test_players_sets_the_number_of_seats_and_the_turn_order(n):
    hands = ["2C 3C 4C"] + [f"{r}D {r}S" for r in "56789TJQ"[: n - 1]]
    stock = "KH QH JH TH 9H 8H 7H 6H 5H"
    turns = [a for s in range(n) for a in (f"{s} draw", f"{s} discard {stock.split()[s]}")]
    rec = make_record({"players": n}, hands, stock, "AC", [*turns, "0 draw"])
    del rec["players"]
    out = replay(rec)
    assert out["ok"], out["error"]
    assert out["state"]["to_move"] == 0 and out["totals"] == [0] * n
    rec["rules"] = {}  # the standard game has two seats: this deal has too many hands
    with pytest.raises(RecordError, match=r"2 hands|seat 0\.\.1"):
        replay(rec)


# ----------------------------------------------------------------------- decks
def test_decks_2_lets_two_players_hold_duplicate_cards():
    hands = ["AS AS 2S 3S", "KD KH"]
    actions = ["0 draw", "0 meld AS 2S 3S", "0 discard 9C"]
    out = play({"decks": 2}, hands, "9C 4H", "5D", actions)
    assert out.ok and out.meld(0) == ["AS", "2S", "3S"]
    assert out.state["hands"][0] == ["AS"]
    with pytest.raises(RecordError, match="2 x AS"):
        play({}, hands, "9C 4H", "5D", actions)


def test_decks_1_refuses_duplicates_even_with_five_players():
    hands = ["AS AS", "2D", "3D", "4D", "5D"]
    assert play({}, hands, "9C", "6D").ok  # auto: two packs for 5 players
    with pytest.raises(RecordError, match="2 x AS"):
        play({"decks": 1}, hands, "9C", "6D")


# ---------------------------------------------------------------------- jokers
@pytest.mark.parametrize(
    ("jokers", "players", "held", "legal_now", "legal_by_default"),
    [
        (0, 2, 1, False, True),  # the original jokerless game
        (1, 2, 2, False, True),
        (2, 5, 3, False, True),  # auto gives two packs and four jokers to five players
        (4, 2, 3, True, False),
    ],
)
def test_jokers_sets_how_many_jokers_the_pack_holds(jokers, players, held, legal_now, legal_by_default):
    hands = [" ".join(["JK"] * held) + " 5C"] + [f"{r}D" for r in "23456789"[: players - 1]]
    for rules, legal in (({"jokers": jokers}, legal_now), ({}, legal_by_default)):
        if legal:
            assert play(rules, hands, "9C", "6D").ok
        else:
            with pytest.raises(RecordError, match="x JK"):
                play(rules, hands, "9C", "6D")


def test_jokers_0_deals_no_joker_from_a_full_pack():
    assert "JK" not in _deck({"jokers": 0}) and _deck({}).count("JK") == 2


# ------------------------------------------------------------------ short_pack
def test_short_pack_has_no_card_below_seven():
    hands = ["7H 8H 9H 5C", "KD QD"]
    actions = ["0 draw", "0 meld 7H 8H 9H", "0 discard 5C"]
    assert play({}, hands, "AS", "TC", actions).ok
    with pytest.raises(RecordError, match="short pack"):
        play({"short_pack": True}, hands, "AS", "TC", actions)
    out = play({"short_pack": True}, ["7H 8H 9H TC", "KD QD"], "AS", "JC", ["0 draw", "0 meld 7H 8H 9H", "0 discard TC"])
    assert out.ok
    assert len(_deck({"short_pack": True})) == 34 and {c[0] for c in _deck({"short_pack": True})} == set("789TJQKA")


# ------------------------------------------------------------------- hand_size
@pytest.mark.parametrize("size", range(7, 14))
def test_hand_size_deals_that_many_cards(size):
    players = 2 if size == 7 else 3  # so the value differs from auto (13 for two, 7 for three)
    rec = {"rules": {"hand_size": size}, "players": players, "deal": {"deck": _deck({"players": players})}, "dealer": 0}
    out = replay(rec)
    assert [len(h) for h in out["state"]["hands"]] == [size] * players
    rec["rules"] = {}
    default = replay(rec)
    assert [len(h) for h in default["state"]["hands"]] == [13 if players == 2 else 7] * players


# --------------------------------------------------------------- first_discard
def test_first_discard_first_player_starts_the_pile_by_discarding():
    hands = ["2C 3C 4C 9D", "KD QD JS"]
    base, opt = contrast({"first_discard": "first_player"}, hands, "AS 5S", "", ["0 discard 9D", "1 draw"])
    assert base.refused_at == 0 and "draw" in base.message
    assert opt.ok and opt.state["discard"] == ["9D"] and opt.state["to_move"] == 1


def test_first_discard_first_player_deals_the_first_player_an_extra_card_and_no_upcard():
    rec = {"rules": {"first_discard": "first_player"}, "players": 2, "deal": {"deck": _deck({})}, "dealer": 1}
    out = replay(rec)
    assert [len(h) for h in out["state"]["hands"]] == [14, 13]
    assert out["state"]["discard"] == [] and out["state"]["phase"] == "play"
    rec["rules"] = {}
    default = replay(rec)
    assert [len(h) for h in default["state"]["hands"]] == [13, 13] and len(default["state"]["discard"]) == 1


def test_first_discard_first_player_needs_no_more_cards_than_an_upcard_deal():
    # 4 hands of 13 and one card more (the upcard, or the first player's extra card) fit a 53-card pack
    # either way; until 7 December 2026 the first player's card was counted with an upcard that is not dealt.
    for first in ("upcard", "first_player"):
        rules = {"players": 4, "hand_size": 13, "jokers": 1, "first_discard": first}
        out = replay({"rules": rules, "players": 4, "deal": {"deck": _deck(rules)}, "dealer": 3})
        assert out["ok"], out["error"]
        assert sum(len(h) for h in out["state"]["hands"]) + len(out["state"]["discard"]) == 53
    with pytest.raises(RulesError, match="needs 53 cards but decks: 1 holds 52"):
        Rules.from_mapping({"players": 4, "hand_size": 13, "jokers": 0, "first_discard": "first_player"})


# ---------------------------------------------------------------- first_dealer
class _Cut(random.Random):
    """An rng whose cut shows given cards (shuffles stay seeded)."""

    def __init__(self, cut: str) -> None:
        super().__init__(7)
        self.cut = parse_cards(cut)

    def sample(self, population, k, **kw):
        return list(self.cut[:k])


@pytest.mark.parametrize(
    ("cut", "high", "low"),
    [("KS 2D 9H", 0, 1), ("AS 2D 9H", 2, 0)],  # the ace is low for the cut
)
def test_first_dealer_low_card_gives_the_deal_to_the_lowest_cut(cut, high, low):
    assert cut_for_dealer(Rules.from_mapping({"players": 3}), _Cut(cut)) == high
    assert cut_for_dealer(Rules.from_mapping({"players": 3, "first_dealer": "low_card"}), _Cut(cut)) == low
    match = Match(Rules.from_mapping({"players": 3, "first_dealer": "low_card"}), rng=_Cut(cut))
    assert match.state.public.dealer == low and match.record()["rounds"][0]["dealer"] == low


def test_seeded_short_pack_games_deal_as_they_always_have():
    # A stored game is its seed and its moves: a server rebuilds it by dealing again from the seed.
    # Cutting for the dealer from the short pack (tried on 8 December 2026) changed these deals,
    # and saved short-pack games could no longer be resumed (an upgrade audit found 58 of 66 broken).
    rules = Rules.from_mapping({"players": 4, "short_pack": True})
    seen = []
    for seed in range(1, 7):
        state = Match(rules, seed=seed).round_state()
        seen.append((state.public.dealer, " ".join(map(str, state.hands[0][:3]))))
    assert seen == [
        (2, "QH 8S 8D"),
        (1, "9C JS QS"),
        (1, "AH JK JS"),
        (3, "JK QC JS"),
        (3, "8S AH 8D"),
        (0, "JK TH TD"),
    ]


# ----------------------------------------------------------------- next_dealer
def test_next_dealer_round_winner_deals_the_next_round():
    first = ["AS 2D", "KD 9S", "7C 7D 7H"]
    actions = ["1 draw", "1 discard 9S", "2 draw", "2 meld 7C 7D 7H", "2 discard 5C"]
    second = one_round(["2C 3C 4C", "5D 6D 7D", "8S 9S TS"], "KH QH", "JC", ["0 draw"])
    del second["dealer"]  # dealt by the rules: left of the last dealer, or the round's winner
    base, opt = contrast({"next_dealer": "round_winner"}, first, "4H 5C", "3S", actions, dealer=0, more_rounds=[second])
    assert base.result["rounds"][0]["went_out"] == 2
    assert base.refused_at == 0 and "seat 2" in base.message  # dealer 1: seat 2 plays first
    assert opt.ok and opt.state["round"] == 1  # dealer 2: seat 0 plays first


# ------------------------------------------------------------------- direction
def test_direction_anticlockwise_plays_to_the_right():
    hands = ["2C 3C", "KD QD", "5S 6S"]
    actions = ["1 draw", "1 discard AS", "0 draw"]
    base, opt = contrast({"direction": "anticlockwise"}, hands, "AS 9H", "TC", actions, dealer=2)
    assert base.refused_at == 0 and "seat 0" in base.message
    assert opt.ok and opt.state["to_move"] == 0 and opt.state["phase"] == "play"


def test_direction_anticlockwise_deals_to_the_right_first():
    deck = _deck({"players": 3})
    rec = {"rules": {"direction": "anticlockwise"}, "players": 3, "deal": {"deck": deck}, "dealer": 0}
    out = replay(rec)
    assert out["state"]["hands"][2][0] == deck[0] and out["state"]["hands"][1][0] == deck[1]
    rec["rules"] = {}
    assert replay(rec)["state"]["hands"][1][0] == deck[0]


# ------------------------------------------------------------ a deck is the whole pack
def test_a_deck_deal_must_give_the_whole_pack():
    full = _deck({})
    assert replay({"players": 2, "dealer": 1, "deal": {"deck": full}})["ok"]
    with pytest.raises(RecordError, match="whole pack") as info:
        replay({"players": 2, "dealer": 1, "deal": {"deck": full[:40]}})
    assert "40" in str(info.value) and "54" in str(info.value)
    with pytest.raises(RecordError, match="holds 2 x AS"):
        replay({"players": 2, "dealer": 1, "deal": {"deck": full[:-1] + ["AS"]}})
    gambit = _deck({"dealers_gambit": True})  # the dealer's joker is the deck's first joker
    assert replay({"rules": {"dealers_gambit": True}, "players": 3, "dealer": 0, "deal": {"deck": gambit}})["ok"]
    with pytest.raises(RecordError, match="whole pack"):
        replay({"rules": {"dealers_gambit": True}, "players": 3, "dealer": 0, "deal": {"deck": gambit[:-1]}})
