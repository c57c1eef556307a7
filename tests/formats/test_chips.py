import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy500.formats import FormatError, Payment, settle, settle_shared

points_lists = st.lists(st.integers(-600, 900), min_size=2, max_size=8)
pcrs = st.integers(1, 25)


def test_rules_md_worked_example():
    # RULES.md Part 4: PCR 3, winner 100, others 70 and 60: they pay 90 and 120 chips.
    s = settle([100, 70, 60], winner=0, pcr=3)
    assert s.payments == (Payment(1, 0, 90), Payment(2, 0, 120))
    assert s.net == (210, -90, -120)
    assert s.paid_by(1) == 90 and s.paid_by(2) == 120


def test_the_winner_need_not_be_seat_zero():
    s = settle([70, 100, 60], winner=1, pcr=3)
    assert [(p.payer, p.chips) for p in s.payments] == [(0, 90), (2, 120)]


def test_a_loser_at_or_above_the_winner_pays_nothing():
    # must_go_out_to_win can crown a player who is not top: nobody collects from the winner.
    s = settle([100, 130, 100, 40], winner=0, pcr=2)
    assert s.payments == (Payment(3, 0, 120),)
    assert s.net == (120, 0, 0, -120)


def test_settlement_json():
    assert settle([100, 70], 0, 1).to_dict() == {
        "pcr": 1,
        "points": [100, 70],
        "winners": [0],
        "payments": [{"payer": 1, "payee": 0, "chips": 30}],
        "net": [30, -30],
    }


@pytest.mark.parametrize("pcr", [0, -3, 1.5, True, "3", None])
def test_bad_ratios_are_refused(pcr):
    with pytest.raises(FormatError, match="point-chip ratio"):
        settle([100, 70], 0, pcr)


def test_bad_points_and_winners_are_refused():
    with pytest.raises(FormatError, match="at least 2"):
        settle([100], 0, 1)
    with pytest.raises(FormatError, match="winner 3"):
        settle([100, 70], 3, 1)
    with pytest.raises(FormatError, match="whole numbers"):
        settle([100, 70.5], 0, 1)
    with pytest.raises(FormatError, match="seat 2"):
        settle_shared([1, 2], 1, first=2)


@pytest.mark.parametrize("winner", [True, False])
def test_a_bool_is_not_a_winner(winner):
    # True == 1 to Python, but it names no player: refused like any other bad winner.
    with pytest.raises(FormatError, match=f"winner {winner}"):
        settle([100, 70, 60], winner=winner, pcr=3)


@pytest.mark.parametrize("first", [True, False])
def test_a_bool_is_not_a_seat_for_the_odd_chip(first):
    with pytest.raises(FormatError, match=f"seat {first}"):
        settle_shared([30, 30, 25], pcr=1, first=first)


def test_tied_best_scores_share_equally():
    s = settle_shared([40, 10, 40, 30], pcr=2)
    assert s.winners == (0, 2)
    assert s.net == (40, -60, 40, -20)


def test_odd_chips_go_first_to_the_seat_left_of_the_dealer():
    # Pot of 5 between two winners: the odd chip starts at seat `first` and moves on from there.
    assert settle_shared([30, 25, 30], pcr=1, first=0).net == (3, -5, 2)
    assert settle_shared([30, 25, 30], pcr=1, first=1).net == (2, -5, 3)
    assert settle_shared([30, 25, 30], pcr=1, first=2).net == (2, -5, 3)
    # Three winners, pot 4: seats 2, 3, then 0 in order from first=2.
    assert settle_shared([9, 9, 5, 9, 9], pcr=1, first=2).net == (1, 1, -4, 1, 1)


def test_everyone_tied_settles_nothing():
    s = settle_shared([12, 12, 12], pcr=5)
    assert s.payments == () and s.net == (0, 0, 0) and s.winners == (0, 1, 2)


@given(points_lists, pcrs, st.data())
def test_single_winner_settlement_is_zero_sum(points, pcr, data):
    winner = data.draw(st.integers(0, len(points) - 1))
    s = settle(points, winner, pcr)
    assert sum(s.net) == 0
    for p in s.payments:
        assert p.payee == winner and p.chips > 0
        assert p.chips == (points[winner] - points[p.payer]) * pcr
    assert s.net[winner] == sum(max(0, points[winner] - q) * pcr for i, q in enumerate(points) if i != winner)


@given(points_lists, pcrs, st.data())
def test_shared_settlement_conserves_chips(points, pcr, data):
    first = data.draw(st.integers(0, len(points) - 1))
    s = settle_shared(points, pcr, first=first)
    best = max(points)
    net = s.net
    assert sum(net) == 0
    assert s.winners == tuple(i for i, p in enumerate(points) if p == best)
    for i, p in enumerate(points):
        if p < best:
            assert net[i] == -(best - p) * pcr  # every loser pays exactly their due
            assert s.paid_by(i) == (best - p) * pcr
    shares = [net[w] for w in s.winners]
    assert max(shares) - min(shares) <= 1  # equal shares, odd chips one each
    assert all(p.chips > 0 and p.payee in s.winners and p.payer not in s.winners for p in s.payments)


@given(points_lists, pcrs)
def test_a_single_best_score_settles_as_the_pcr_rule(points, pcr):
    best = max(points)
    if points.count(best) == 1:
        winner = points.index(best)
        assert settle_shared(points, pcr).net == settle(points, winner, pcr).net
