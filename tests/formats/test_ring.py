import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy500.formats import FormatError, RingGame, play_ring

from .helpers import result, rules


def test_a_round_is_settled_against_the_best_round_score():
    ring = RingGame(2, ["Ann", "Bob", "Cy"])
    players, dealer = ring.start_round()
    assert players == ("Ann", "Bob", "Cy") and dealer == 0
    done = ring.finish_round([45, -10, 20])
    assert done.net == {"Ann": 160, "Bob": -110, "Cy": -50}
    assert ring.balances == {"Ann": 160, "Bob": -110, "Cy": -50}


def test_ties_share_and_the_odd_chip_goes_left_of_the_dealer():
    ring = RingGame(1, ["Ann", "Bob", "Cy"])
    ring.start_round()  # Ann deals: Bob is first to take an odd chip
    assert ring.finish_round(result([30, 30, 25])).net == {"Ann": 2, "Bob": 3, "Cy": -5}
    assert ring.dealer == "Bob"
    _, dealer = ring.start_round()  # Bob deals: Cy then Ann
    assert dealer == 1
    assert ring.finish_round([30, 30, 25]).net == {"Ann": 3, "Bob": 2, "Cy": -5}
    assert ring.balances == {"Ann": 5, "Bob": 5, "Cy": -10}


def test_the_deal_moves_left_round_the_table():
    ring = RingGame(1, ["A", "B", "C"])
    dealers = []
    for _ in range(4):
        players, d = ring.start_round()
        dealers.append(players[d])
        ring.finish_round([1, 2, 3])
    assert dealers == ["A", "B", "C", "A"]


def test_joining_and_leaving_during_a_round_wait_for_the_settlement():
    ring = RingGame(1, ["A", "B"])
    ring.start_round()
    ring.join("C")
    ring.leave("A")
    assert ring.waiting == ("C",) and ring.leaving == ("A",) and ring.seated == ("A", "B")
    ring.finish_round([10, 0])  # A still settles the round they played
    assert ring.seated == ("B", "C") and ring.balances["A"] == 10
    assert ring.dealer == "B"
    players, dealer = ring.start_round()
    assert players == ("B", "C") and players[dealer] == "B"


def test_when_the_next_dealer_has_left_the_deal_passes_on():
    ring = RingGame(1, ["A", "B", "C", "D"])
    ring.start_round()  # A deals; B would deal next
    ring.leave("B")
    ring.finish_round([0, 0, 0, 0])
    assert ring.dealer == "C"


def test_when_the_next_dealer_leaves_between_rounds_the_deal_passes_on():
    # A deals, then B; C would deal next but gets up before the round: D deals, not A.
    ring = RingGame(1, ["A", "B", "C", "D"])
    for _ in range(2):
        ring.start_round()
        ring.finish_round([10, 0, 0, 0])
    assert ring.dealer == "C"
    ring.leave("C")
    assert ring.dealer == "D"
    players, dealer = ring.start_round()
    assert players == ("A", "B", "D") and players[dealer] == "D"
    ring.finish_round([0, 0, 0])
    assert ring.dealer == "A"  # and on round the table from there


def test_when_the_next_dealer_in_the_last_seat_leaves_the_deal_goes_round_to_the_first():
    ring = RingGame(1, ["A", "B", "C"])
    for _ in range(2):
        ring.start_round()
        ring.finish_round([0, 0, 0])
    assert ring.dealer == "C"
    ring.leave("C")
    ring.join("D")  # a newcomer sits after C's old seat, but the deal reached A first
    players, dealer = ring.start_round()
    assert players == ("A", "B", "D") and players[dealer] == "A"


def test_when_the_next_dealers_leave_one_after_another_the_deal_passes_each():
    ring = RingGame(1, ["A", "B", "C", "D", "E"])
    ring.start_round()  # A deals; B would deal next
    ring.finish_round([0] * 5)
    ring.leave("B")
    ring.leave("C")
    assert ring.dealer == "D"
    ring.leave("A")  # not the next dealer: the deal stays with D
    players, dealer = ring.start_round()
    assert players == ("D", "E") and players[dealer] == "D"


def test_a_player_who_left_keeps_their_balance_and_may_come_back():
    ring = RingGame(1, ["A", "B"])
    ring.start_round()
    ring.finish_round([0, 7])
    ring.leave("B")
    ring.join("B")
    assert ring.balances == {"A": -7, "B": 7}


def test_table_limits_and_mistakes_are_refused():
    ring = RingGame(1, ["A", "B"], max_seats=3)
    ring.join("C")
    with pytest.raises(FormatError, match="full"):
        ring.join("D")
    with pytest.raises(FormatError, match="already at the table"):
        ring.join("A")
    with pytest.raises(FormatError, match="not at the table"):
        ring.leave("Z")
    with pytest.raises(FormatError, match="no round has been started"):
        ring.finish_round([1, 2, 3])
    ring.start_round()
    with pytest.raises(FormatError, match="not been settled"):
        ring.start_round()
    with pytest.raises(FormatError, match="2 round scores"):
        ring.finish_round([1, 2])
    with pytest.raises(FormatError, match="2 to 8 seats"):
        RingGame(1, max_seats=9)
    with pytest.raises(FormatError, match="at least 2 players"):
        RingGame(1, ["A"]).start_round()
    with pytest.raises(FormatError, match="point-chip ratio"):
        RingGame(0)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["start", "finish", "join", "leave"]),
            st.integers(0, 9),
            st.lists(st.integers(-200, 300), min_size=8, max_size=8),
        ),
        max_size=40,
    ),
    st.integers(1, 10),
)
def test_a_ring_table_never_creates_or_loses_chips(script, pcr):
    ring = RingGame(pcr, ["P0", "P1"])
    players: tuple[str, ...] = ()
    for op, who, scores in script:
        name = f"P{who}"
        if op == "join" and name not in ring.seated + ring.waiting and len(ring.seated) + len(ring.waiting) < 8:
            ring.join(name)
        elif op == "leave" and name in ring.seated + ring.waiting:
            ring.leave(name)
        elif op == "start" and not ring.in_round and len(ring.seated) >= 2:
            players, dealer = ring.start_round()
            assert 0 <= dealer < len(players)
        elif op == "finish" and ring.in_round:
            gone, coming = set(ring.leaving), list(ring.waiting)
            done = ring.finish_round(scores[: len(players)])
            assert done.players == players and sum(done.settlement.net) == 0
            assert not gone & set(ring.seated) and ring.waiting == ()
            assert list(ring.seated[len(ring.seated) - len(coming) :]) == coming
        assert sum(ring.balances.values()) == 0
        assert len(ring.seated) + len(ring.waiting) <= 8


def test_random_play_at_a_ring_table_settles_every_round():
    ring = RingGame(3, ["A", "B", "C"])
    rounds = play_ring(ring, rules(players=3), 3, seed=4)
    ring.join("D")
    rounds += play_ring(ring, rules(players=3), 2, seed=5)
    assert [len(r.players) for r in rounds] == [3, 3, 3, 4, 4]
    assert sum(ring.balances.values()) == 0
    for r in rounds:
        best = max(r.round_scores)
        assert all(r.net[p] < 0 for p, s in zip(r.players, r.round_scores, strict=True) if s < best)


def test_partnership_rules_are_refused_at_a_ring_table():
    # Chips are settled player by player: partners would pay each other.
    ring = RingGame(1, ["A", "B", "C", "D"])
    with pytest.raises(FormatError, match=r"individual players \(partnership: true\)"):
        play_ring(ring, rules(preset="partnership"), 1, seed=1)
    assert ring.balances == {"A": 0, "B": 0, "C": 0, "D": 0}  # nothing was played
