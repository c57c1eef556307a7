"""``hard`` and ``expert`` answer trivial decisions from the heuristics, without a search."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from rummy500.actions import Discard
from rummy500.bots import make_bot
from rummy500.rules import Rules
from rummy500.state import RoundState
from rummy500.views import View

# Seat 0 drew and holds two cards it cannot lay: which one to throw is all that is left.
TWO_CARDS = "dealer=1 to_move=0 phase=play discard=TC hands=KS.3D|4C.4D.4S.KD.9H.8C.2S stock=QD.7S.5C"
# Seat 0 holds five loose cards: a real discard choice, searched.
FIVE_CARDS = "dealer=1 to_move=0 phase=play discard=TC hands=KS.3D.9C.6H.QH|4C.4D.4S.KD.9H.8C.2S stock=QD.7S.5C"


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_two_card_hand_is_answered_without_playouts(level: str) -> None:
    state = RoundState.from_position(Rules(), TWO_CARDS)
    view = state.view(0)
    assert len([a for a in view.legal if isinstance(a, Discard)]) == 2
    bot = make_bot(level, 1, iterations=40)
    action = bot.act(view, random.Random(2))
    assert action in view.legal and isinstance(action, Discard)
    assert bot.last_stats == {}  # type: ignore[attr-defined]


def test_a_close_discard_with_a_bigger_hand_is_searched() -> None:
    state = RoundState.from_position(Rules(), FIVE_CARDS)
    view = state.view(0)
    bot = make_bot("hard", 1, iterations=12, margin=100.0, horizon=2)
    action = bot.act(view, random.Random(2))
    assert action in view.legal
    assert bot.last_stats["playouts"] > 0  # type: ignore[attr-defined]
    # The reason (a hint's words to a player) names the move and the try-outs in plain words.
    reason = bot.explain()
    assert reason.startswith(f"{action}: ") and "trial games a few turns ahead, with the hidden cards guessed" in reason
    assert "heuristic" not in reason and "dealt-out" not in reason
    assert re.search(r"\b1 points\b", reason) is None  # "1 point"


def test_hold_back_searches_waiting_where_the_heuristics_would_lay_at_once() -> None:
    """With ``hold_back`` (the default) a lay is searched against the best discard; without, it is played unsearched."""
    from rummy500 import Match
    from rummy500.actions import LayOff, Meld

    match = Match(Rules.from_mapping({"preset": "popular"}), seed=4)
    movers = [make_bot("medium", 1), make_bot("medium", 2)]
    plain, waiting = make_bot("hard", 3, hold_back=False), make_bot("hard", 3)
    rng = random.Random(6)
    searched = 0
    for _ in range(300):
        if match.is_over:
            break
        seat = match.state.public.to_move
        view = match.view(seat)
        if view.phase != "draw" and any(isinstance(a, (Meld, LayOff)) for a in view.legal):
            for bot in (plain, waiting):
                bot.guide._observe(view)
            an = plain.guide.analysis(view)
            lay_only = plain._candidates(view, an, list(view.legal))
            with_wait = waiting._candidates(view, waiting.guide.analysis(view), list(view.legal))
            may_wait = any(isinstance(a, Discard) for a in view.legal)  # not before a taken card is melded
            if len(lay_only) == 1 and isinstance(lay_only[0], (Meld, LayOff)) and len(view.hand) > 4 and may_wait:
                assert with_wait[0] == lay_only[0]  # the lay stays the favourite
                assert any(isinstance(a, Discard) for a in with_wait[1:])
                searched += 1
        match.apply(seat, movers[seat].act(view, rng))
    assert searched >= 1


# Seat 0 holds one joker and two melds that want it: a set of aces or a run of clubs.
ONE_JOKER_TWO_MELDS = (
    "dealer=1 to_move=0 phase=play discard=TD hands=AC.AH.JK.8C.9C.JC.5H.2S|4C.4D.4S.KD.9H.8D.2D stock=QD.7S.5C.6D"
)


def test_lay_choices_search_the_other_way_to_split_the_cards() -> None:
    """``lay_choices`` adds the best lay outside the hand's plan: here the joker in the run instead of the set."""
    from rummy500.actions import Meld

    view = RoundState.from_position(Rules(), ONE_JOKER_TWO_MELDS).view(0)
    plain, wider = make_bot("hard", 1), make_bot("hard", 1, lay_choices=2)
    for bot in (plain, wider):
        bot.guide._observe(view)  # type: ignore[attr-defined]
    lay_only = plain._candidates(view, plain.guide.analysis(view), list(view.legal))  # type: ignore[attr-defined]
    more = wider._candidates(view, wider.guide.analysis(view), list(view.legal))  # type: ignore[attr-defined]
    assert [str(a) for a in lay_only] == ["meld AC AH JK=AD", "discard JC"]  # the set (45 points) and waiting
    # The run with the joker keeps 42 points layable: within the margin, so it is searched too. Laying the
    # plan's melds in another order is no choice, so nothing else is added (it would be under 35 points).
    assert [str(a) for a in more] == ["meld AC AH JK=AD", "meld 8C 9C JC JK=TC", "discard JC"]
    assert all(isinstance(a, Meld) or a in lay_only for a in more)
    action = make_bot("hard", 1, lay_choices=1, iterations=12).act(view, random.Random(3))
    assert action in more


def _views_of_a_medium_game(seed: int, plies: int) -> Iterator[View]:
    """The views of the seat to move, ply by ply, of a 2-player game between two ``medium`` bots."""
    from rummy500 import Match

    match = Match(Rules(), seed=seed)
    movers = [make_bot("medium", 1), make_bot("medium", 2)]
    rng = random.Random(seed)
    for _ in range(plies):
        if match.is_over:
            return
        seat = match.state.public.to_move
        view = match.view(seat)
        yield view
        match.apply(seat, movers[seat].act(view, rng))


def test_consistent_determinizations_hold_no_meld_the_opponent_would_have_laid() -> None:
    """``conform`` leaves a seat that has played a turn no meld in hand, and changes nothing the seat sees."""
    from dataclasses import replace

    from rummy500 import fastmeld
    from rummy500.bots.determinize import determinize
    from rummy500.bots.hard import conform

    t = fastmeld.tables(Rules())
    repaired = checked = 0
    for view in _views_of_a_medium_game(11, 120):
        seat = view.seat
        assert seat is not None
        other = 1 - seat
        if view.phase == "draw" and view.turns >= 1 and view.opened[other]:
            for k in range(4):
                world = determinize(view, random.Random(k))
                before = list(world.hands[other])
                hidden = sorted(world.hands[other] + world.stock)
                conform(world, view, random.Random(k), {})
                assert not fastmeld.all_melds(t, fastmeld.scan(world.hands[other]))
                assert sorted(world.hands[other] + world.stock) == hidden  # only the unseen cards moved
                assert len(world.hands[other]) == len(before)
                again = world.view(seat, view.scores)
                assert replace(again, legal=()) == replace(view, legal=())
                assert set(again.legal) == set(view.legal)
                repaired += before != world.hands[other]
                checked += 1
    assert checked >= 10 and repaired >= 1


def test_structured_guesses_give_the_opponent_a_connected_hand_and_change_nothing_the_seat_sees() -> None:
    """``structure`` swaps only unseen cards, keeps what the opponent was seen taking, and links the hand as real ones are."""
    from dataclasses import replace

    from rummy500.bots.determinize import determinize
    from rummy500.bots.hard import linked, structure

    uniform: list[float] = []
    shaped: list[float] = []
    for view in _views_of_a_medium_game(13, 80):
        seat = view.seat
        assert seat is not None
        other = 1 - seat
        if view.phase == "draw" and view.stock_count:
            for k in range(3):
                world = determinize(view, random.Random(k))
                unseen = sorted(world.hands[other] + world.stock)
                uniform.append(linked(world.hands[other]) / len(world.hands[other]))
                structure(world, view, random.Random(k), 1.0)
                shaped.append(linked(world.hands[other]) / len(world.hands[other]))
                assert sorted(world.hands[other] + world.stock) == unseen  # only unseen cards moved
                for c in view.known[other]:
                    assert world.hands[other].count(c) >= view.known[other].count(c)  # seen taken: still held
                again = world.view(seat, view.scores)
                assert replace(again, legal=()) == replace(view, legal=())
                assert set(again.legal) == set(view.legal)
    assert len(shaped) >= 30
    # Real hands keep their cards with partners (about 71% of them against hard); a uniform deal
    # links about 55%: the shaped guesses come close to the real share.
    assert sum(shaped) / len(shaped) > sum(uniform) / len(uniform) + 0.1


def test_linked_counts_the_cards_with_a_partner_in_the_hand() -> None:
    from rummy500.bots.hard import linked
    from rummy500.cards import parse_cards

    assert linked(parse_cards("7H 7S 9H KD AD 4C")) == 5  # a pair, a gap of one, K-A of diamonds; 4C alone
    assert linked(parse_cards("AH 3H")) == 2 and linked(parse_cards("AH QH")) == 2  # the ace is low and high
    assert linked(parse_cards("AH 4H 2C JC")) == 0
    assert linked(parse_cards("JK 5C 9D")) == 1  # a joker counts (a player keeps it) but partners no card here
    assert linked([]) == 0


def test_win_chance_is_decided_at_the_goal_and_even_when_level() -> None:
    from rummy500.bots.hard import win_chance

    assert win_chance(520, 480, 500) == 1.0
    assert win_chance(480, 520, 500) == 0.0
    assert win_chance(100, 100, 500) == 0.5
    assert win_chance(300, 200, 500) > win_chance(150, 50, 500) > 0.5  # the same lead counts more near the end
    assert Rules().winning_total == 500
    assert Rules.from_mapping({"rounds": 3}).winning_total is None
    assert Rules.from_mapping({"must_go_out_to_win": True}).winning_total is None


def test_inferred_weights_lower_the_partners_of_what_an_opponent_threw_or_let_lie() -> None:
    from rummy500.bots.hard import infer_weights
    from rummy500.cards import card

    state = RoundState.from_position(Rules(), FIVE_CARDS)
    view = state.view(0)
    seven_h, seven_s, eight_h, nine_h, ten_h, king_c = (card(c) for c in (32 + 7, 48 + 7, 32 + 8, 32 + 9, 32 + 10, 13))
    w = infer_weights(view, {1: [seven_h]}, {})[1]
    assert w[seven_s] < 1.0 and w[eight_h] < 1.0 and w[nine_h] < 1.0
    assert ten_h not in w and king_c not in w
    assert infer_weights(view, {}, {}) == {}


# Seat 1 threw the four of spades on top of the pile. With the four of clubs and of
# diamonds in hand that throw broke a set the heuristics would have kept; with loose
# cards only it was a fair throw (the heuristics would rather have thrown the ace).
THREW_A_FOUR = "dealer=1 to_move=0 phase=draw discard=TC.4S hands=KS.3D.9C.6H.QH|{} stock=QD.7S.5C.JH.2D"


def test_discard_model_finds_a_throw_that_broke_a_set_unlikely() -> None:
    from rummy500.bots.hard import discard_likelihood
    from rummy500.cards import parse_card

    four = parse_card("4S")
    broke_a_set = RoundState.from_position(Rules(), THREW_A_FOUR.format("4C.4D.KD.JC.8H.2S"))
    loose = RoundState.from_position(Rules(), THREW_A_FOUR.format("AC.6D.KD.JC.8H.2S"))
    kept = discard_likelihood(broke_a_set, 1, four)
    thrown = discard_likelihood(loose, 1, four)
    assert 0.0 < kept < 0.01  # far worse a throw than the hand's best
    assert kept * 10 < thrown < 1.0
    ace = RoundState.from_position(Rules(), THREW_A_FOUR.format("4C.6D.KD.JC.8H.2S").replace(".4S", ".AC"))
    assert discard_likelihood(ace, 1, parse_card("AC")) == 1.0  # the hand's best throw: certain


def test_discard_model_plays_a_searched_decision_within_its_budget() -> None:
    """With ``discard_model`` each guess is drawn among several deals; the search still plays its budget."""
    from rummy500 import Match

    match = Match(Rules(), seed=5)
    movers = [make_bot("medium", 1), make_bot("medium", 2)]
    bot = make_bot("hard", 3, iterations=8, margin=100.0, horizon=2, discard_model=4)
    rng = random.Random(4)
    searched = 0
    for _ in range(60):
        if match.is_over or searched >= 2:
            break
        seat = match.state.public.to_move
        view = match.view(seat)
        if seat == 0 and view.phase == "draw" and view.last_discarder == 1 and len(view.legal) > 1:
            action = bot.act(view, random.Random(searched))
            assert action in view.legal
            if bot.last_stats:  # type: ignore[attr-defined]
                assert bot.last_stats["playouts"] == 8  # type: ignore[attr-defined]
                searched += 1
        match.apply(seat, movers[seat].act(view, rng))
    assert searched >= 1


def _playout_lengths(bot: object, view: object, start: int = 0) -> list[int | None]:
    """How many turns past ``start`` each playout of ``bot``'s search of ``view`` ran (None: it reached the end of the round)."""
    lengths: list[int | None] = []
    evaluate = bot._evaluate  # type: ignore[attr-defined]

    def spy(state: RoundState, seat: int) -> float:
        lengths.append(None if state.is_over else state.public.turns - start)
        return float(evaluate(state, seat))

    bot._evaluate = spy  # type: ignore[attr-defined]
    bot.act(view, random.Random(2))  # type: ignore[attr-defined]
    return lengths


def _playouts_ended(bot: object, view: object) -> list[bool]:
    """Whether each playout of ``bot``'s search of ``view`` reached the end of the round."""
    return [n is None for n in _playout_lengths(bot, view)]


def test_endgame_plays_out_to_the_end_of_the_round_when_the_stock_is_short() -> None:
    """``endgame``: with three cards in the stock, every playout is played to the round's real end."""
    view = RoundState.from_position(Rules(), FIVE_CARDS).view(0)
    assert view.stock_count == 3
    near = _playouts_ended(make_bot("hard", 1, iterations=12, margin=100.0, horizon=1, endgame=3), view)
    far = _playouts_ended(make_bot("hard", 1, iterations=12, margin=100.0, horizon=1, endgame=2), view)
    assert near and all(near)
    assert far and not any(far)  # one turn, then the leaf's estimate


def test_endgame_counts_a_short_hand_across_the_table() -> None:
    # Seat 1 holds two cards: whoever is to go out may do so at once, whatever the stock.
    short = RoundState.from_position(Rules(), "dealer=1 to_move=0 phase=play discard=TC hands=KS.3D.9C.6H.QH|4C.4D stock=QD.7S.5C.JH.2D.8D")
    bot = make_bot("hard", 1, endgame=3)
    assert bot._endgame(short.view(0))  # type: ignore[attr-defined]
    assert not bot._endgame(RoundState.from_position(Rules(), FIVE_CARDS.replace("stock=QD.7S.5C", "stock=QD.7S.5C.JH")).view(0))  # type: ignore[attr-defined]
    assert not make_bot("hard", 1)._endgame(short.view(0))  # type: ignore[attr-defined]  # off by default


def test_draws_may_be_searched_wider_than_discards() -> None:
    # Seat 0 to draw: the stock, the top card, or the pile 3, 4 or 5 deep (down to a king, a nine
    # or a five it makes a set with).
    pile = "dealer=1 to_move=0 phase=draw discard=5S.9D.KC.QC.JC hands=KS.KH.9C.9S.5H.5D.3D|4C.4D.4S.8D.8H.8C.2S stock=QD.7S.6C.JH.2D"
    view = RoundState.from_position(Rules(), pile).view(0)
    narrow, wide = make_bot("hard", 1), make_bot("hard", 1, draw_candidates=6, draw_margin=1000.0)
    for bot in (narrow, wide):
        bot.guide._observe(view)  # type: ignore[attr-defined]
    n = narrow._candidates(view, narrow.guide.analysis(view), list(view.legal))  # type: ignore[attr-defined]
    w = wide._candidates(view, wide.guide.analysis(view), list(view.legal))  # type: ignore[attr-defined]
    assert len(n) <= 3 < len(w) <= 6
    assert w[: len(n)] == n  # the same order: the wider search adds the heuristics' next choices
    # Discards keep the narrow search.
    play = RoundState.from_position(Rules(), FIVE_CARDS).view(0)
    for bot in (narrow, wide):
        bot.guide._observe(play)  # type: ignore[attr-defined]
    assert wide._candidates(play, wide.guide.analysis(play), list(play.legal)) == narrow._candidates(  # type: ignore[attr-defined]
        play, narrow.guide.analysis(play), list(play.legal)  # type: ignore[attr-defined]
    )


# Four seats, seat 0 to throw one of five loose cards; a long stock, so four-turn and
# eight-turn playouts seldom reach the end of the round.
FOUR_SEATS = (
    "dealer=3 to_move=0 phase=play discard=TC hands=KS.3D.9C.6H.QH|4C.4D.7S.KD.9H.8C.2S|5C.JD.3H.6S.TD.AH.8S|2H.7D.QS.4H.JC.AC.9S "
    "stock=QD.5S.6C.JH.2D.8D.3C.7H.KH.5D.TH.AS.6D.2C.KC.QC.TS.JS.4S.5H.7C.9D.8H.AD.3S"
)


@pytest.mark.parametrize(
    ("position", "table", "turns"),
    [(FIVE_CARDS, {"players": 2}, 4), (FOUR_SEATS, {"players": 4}, 8), (FOUR_SEATS, {"players": 4, "partnership": True}, 4)],
)
def test_playouts_run_two_turns_of_every_seat_at_four_players_alone(position: str, table: dict[str, object], turns: int) -> None:
    """``horizon="auto"``: 4 turns at two players and in partnerships, 8 at four players each alone.

    (A fixed 4 turns would give each of four seats playing alone a single turn.)
    """
    state = RoundState.from_position(Rules.from_mapping(table), position)
    lengths = _playout_lengths(make_bot("hard", 1, iterations=12, margin=100.0), state.view(0), state.public.turns)
    assert lengths and set(lengths) <= {turns, None}
    assert turns in lengths
    fixed = _playout_lengths(make_bot("hard", 1, iterations=12, margin=100.0, horizon=4), state.view(0), state.public.turns)
    assert set(fixed) <= {4, None} and 4 in fixed


@pytest.mark.parametrize("horizon", [0, -2, "far", 2.5, True])
def test_a_horizon_that_is_not_a_number_of_turns_is_refused(horizon: object) -> None:
    with pytest.raises(ValueError, match="horizon must be a number of turns"):
        make_bot("hard", 1, horizon=horizon)


# Seat 0 holds one 3 and seat 1 another; seat 1 throws back a 3 each turn (the opponent of the
# loop found in expert against hard runs, where two searching bots passed 3S, 3D and 3C between
# them through the pile until the 1,500-turn limit ended the round).
THREES = "dealer=1 to_move=0 phase=draw discard=4C.QS.3S hands=3D|3C.KH stock=9H.8D.2D.QD.3H.7S.5C.6D.TC.JD"


def test_hard_does_not_take_back_a_card_it_threw_unless_it_can_use_it() -> None:
    from rummy500.actions import Discard
    from rummy500.cards import parse_cards

    state = RoundState.from_position(Rules(), THREES)
    bot = make_bot("hard", 1)
    rng = random.Random(2)
    thrown: list[str] = []
    draws: list[tuple[str, str, bool]] = []  # (pile top, seat 0's draw, whether seat 0 threw that card)
    declined = state.view(0)
    for _ in range(3):
        while state.public.to_move == 0 and not state.is_over:
            view = state.view(0)
            action = bot.act(view, rng)
            if view.phase == "draw":
                top = str(view.discard[-1])
                draws.append((top, str(action), top in thrown))
                if top in thrown:
                    declined = view
            elif str(action).startswith("discard"):
                thrown.append(str(action).split()[1])
            state.apply(action, 0)
        if state.is_over:
            break
        # Seat 1 takes seat 0's throw and throws its other 3 back.
        taken = state.public.discard[-1]
        state.apply(next(a for a in state.legal_actions(1) if str(a) == "take 1"), 1)
        other = next(c for c in state.hands[1] if c != taken and c in parse_cards("3S 3D 3C 3H"))
        state.apply(Discard((other,)), 1)
    # A 3 it never threw is taken to pair with its own 3, as before; one it threw is not taken back.
    assert draws[0] == ("3S", "take 1", False)
    assert any(mine for _, _, mine in draws)
    assert all(action == "draw" for _, action, mine in draws if mine)
    # A bot that did not throw that card (no memory of this round) takes it in the same position.
    assert str(make_bot("hard", 1).act(declined, random.Random(2))) == "take 1"


def test_playout_values_are_in_the_game_s_own_points_under_score_divisor():
    """A playout stopped at the horizon (the leaf's card points) and one that ends the round (divided
    round scores) are on one scale: under ``score_divisor: 5`` every value is a fifth of the same
    playout's under 1. Until 7 December 2026 the leaf's card points were mixed with divided scores."""
    import random as _random

    from rummy500.bots.hard import HardBot
    from rummy500.match import Match
    from rummy500.rules import Rules

    stopped = ended = 0
    for seed in range(6):
        values = []
        for divisor in (1, 5):
            match = Match(Rules(score_divisor=divisor), ["a", "b"], rng=_random.Random(seed))
            state = match.state
            bot = HardBot(0, horizon=None if seed % 2 else 4)
            seat = state.public.to_move
            first = state.legal_actions(seat)[0]
            world = state.copy()
            values.append(bot.playout(world, seat, first, _random.Random(seed)))
            over = world.is_over
        ended += over
        stopped += not over
        # A finished round's scores are rounded after dividing (RULES.md): each seat within half a divisor.
        assert values[1] * 5 == pytest.approx(values[0], abs=5.0 if over else 1e-9), seed
    assert stopped and ended  # both kinds of playout were compared
