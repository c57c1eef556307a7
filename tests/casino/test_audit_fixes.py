"""Exact chips, the default bet, a shoe that runs out mid-round, seeds, Ctrl-C and small simulations."""

from __future__ import annotations

import collections
import hashlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from rummy500.casino import cli as casino_cli
from rummy500.casino import simulate as casino_simulate
from rummy500.casino.cards import Card, Shoe, bonus_multiple, parse_card
from rummy500.casino.game import Round
from rummy500.casino.play import Session
from rummy500.casino.rules import CasinoRules
from rummy500.casino.simulate import simulate
from rummy500.casino.strategy import chart_for
from rummy500.cli import main

from .helpers import stacked

DOCS = Path(__file__).resolve().parents[2] / "docs" / "casino.md"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except KeyboardInterrupt:  # a traceback for the user (and it would stop pytest)
        pytest.fail(f"Ctrl-C escaped from rummy500 {' '.join(argv)}")
    out, err = capsys.readouterr()
    return code, out, err


def play_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    return run(capsys, "casino", "play", *argv)


def session(lines: list[str], deal: str, bankroll: float | str = 100) -> tuple[Session, str]:
    chart = chart_for(compute=False)
    assert chart is not None
    out = io.StringIO()
    s = Session(CasinoRules(), chart, bankroll, 7, io.StringIO("".join(x + "\n" for x in lines)), out)
    s.shoe = stacked(deal)
    s.run()
    return s, out.getvalue()


# -- 1. amounts are shown exactly, never in exponent form -----------------------------------


def test_a_million_chip_bet_is_shown_in_full(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seed 1: 4-7 against a 6; standing on 11 loses to the dealer's 17.
    code, out, err = play_cli(capsys, monkeypatch, "1000000\ns\nquit\n", "--seed", "1", "--bankroll", "1000005")
    assert code == 0 and err == ""
    assert "Bankroll 1000005. Bet [10]: " in out
    assert "Result: -1000000\n" in out
    assert out.rstrip().endswith("Rounds 1, bankroll 5, basic-strategy mistakes 1 of 1 decisions.")
    assert "e+" not in out


def test_a_bonus_on_a_large_bet_and_a_surrendered_half_are_shown_exactly() -> None:
    # 7-7 against a 9, hit 7D: 5 to 1 on a bet of 1,000,000.
    s, text = session(["1000000", "h", "quit"], deal="7S 9D 7H 7D 5C 9H", bankroll=2_000_000)
    assert "Bonus! bonus 5 to 1 on 7S 7H 7D: +5000000\n" in text
    assert "Result: +6000000 (bonus +5000000)\n" in text
    # 10-6 against a 10, surrender a bet of 0.25 from 1000.5: 1000.375 left (seven digits).
    s, text = session(["0.25", "r", "quit"], deal="TS TD 6S", bankroll=1000.5)
    assert "Result: -0.125\n" in text
    assert text.rstrip().endswith("Rounds 1, bankroll 1000.375, basic-strategy mistakes 0 of 1 decisions.")


def test_the_bankroll_limit_is_shown_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "casino", "play", "--bankroll", "2e12")
    assert code == 2 and out == ""
    assert "1000000000000 chips" in err and "e+" not in err


# -- 2. chips add up exactly --------------------------------------------------------------


def test_three_bets_of_a_tenth_from_three_tenths_add_up_exactly() -> None:
    deals = [
        "TS 6D 7S 5C 8C",  # 17 against 6 5 8 = 19: lost
        "4H 6D 7D 5C 8C",  # 11 against a 6: the double is offered at 0.2; stand, 6 5 8 = 19: lost
        "TS 6D 9S 9H TD",  # 19 against 6 9 10: the dealer busts
    ]
    s, text = session(["0.1", "s", "0.1", "s", "0.1", "s", "quit"], deal=" ".join(deals), bankroll=0.3)
    second = "Bankroll 0.2. Bet [0.1]: Dealer shows 6\u2666\n> your hand: 4\u2665 7\u2666 = 11\n"
    assert second + "hit/stand/double/surrender? " in text
    assert "the bet must be" not in text  # 0.1 is all of the bankroll 0.1, and is accepted
    assert text.rstrip().endswith("Rounds 3, bankroll 0.2, basic-strategy mistakes 1 of 3 decisions.")
    assert s.bankroll == Fraction(2, 10)


def test_a_round_keeps_the_exact_type_of_its_bet() -> None:
    r = Round(CasinoRules(), stacked("TS TD 6S"), Fraction("0.1"))
    r.act("R")
    assert r.net == Fraction(-1, 20) and isinstance(r.net, Fraction)


def test_a_bet_finer_than_the_smallest_chip_is_asked_again() -> None:
    s, text = session(["0.0000000000001", "0.000000000001", "s", "quit"], deal="TS 6D 9S 9H TD")
    assert "not a bet: '0.0000000000001' (at most 12 decimal places)" in text
    assert "Result: +0.000000000001\n" in text


# -- 3. the default bet is never more than the bankroll -----------------------------------------


def test_enter_bets_the_whole_bankroll_when_it_is_less_than_the_last_bet(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seed 1: 4-7 against a 6, surrendered (-5); Enter then bets the 5 left.
    code, out, err = play_cli(capsys, monkeypatch, "10\nr\n\n", "--seed", "1", "--bankroll", "10")
    assert code == 0 and err == ""
    assert "Bankroll 5. Bet [5]: Dealer shows 7\u2663" in out
    assert "the bet must be" not in out
    assert out.rstrip().endswith("Rounds 2, bankroll 0, basic-strategy mistakes 1 of 1 decisions.")


# -- 4. a shoe that runs out mid-round deals on from the discards ---------------------------------


def _split_and_hit(r: Round[float]) -> None:
    while not r.finished:
        acts = r.legal_actions()
        r.act("P" if "P" in acts else ("H" if "H" in acts and r.hand.total < 17 else "S"))


def test_no_card_is_dealt_twice_in_a_round_when_the_shoe_runs_out() -> None:
    rules = CasinoRules(decks=1, max_hands=4)
    ran_out = 0
    for seed in (1028, 1144, *range(40)):
        shoe = Shoe(1, random.Random(seed))
        for _ in range(40):
            if shoe.needs_shuffle:
                shoe.shuffle()
            left = len(shoe.cards)
            r = Round(rules, shoe, 1)
            _split_and_hit(r)
            dealt = [c for h in r.hands for c in h.cards] + r.dealer
            assert not [c for c, n in collections.Counter(dealt).items() if n > 1], (seed, [str(c) for c in dealt])
            if len(dealt) > left:
                ran_out += 1
                assert shoe.needs_shuffle  # the whole shoe is shuffled before the next round
    assert ran_out >= 2  # seeds 1028 and 1144 (round 35 and 36) run out


def test_the_mid_round_reshuffle_takes_only_the_discards() -> None:
    shoe = Shoe(1, random.Random(5))
    shoe.clear_table()
    for _ in range(49):
        shoe.draw()
    shoe.clear_table()  # a round is over: its 49 cards go to the discards
    discards = sorted(shoe.discards)
    on_table = [shoe.draw() for _ in range(3)]
    fourth = shoe.draw()  # the shoe is empty: the discards are shuffled and dealt
    assert sorted([fourth, *shoe.cards]) == discards
    assert fourth not in on_table and shoe.needs_shuffle


def test_seeded_play_is_unchanged_until_the_shoe_runs_out() -> None:
    # The first 35 rounds of seed 1028 (one deck, up to four hands), dealt as before the fix.
    rules = CasinoRules(decks=1, max_hands=4)
    shoe = Shoe(1, random.Random(1028))
    digest = hashlib.sha256()
    for _ in range(35):
        if shoe.needs_shuffle:
            shoe.shuffle()
        r = Round(rules, shoe, 1)
        _split_and_hit(r)
        dealt: list[Card] = [c for h in r.hands for c in h.cards] + r.dealer
        digest.update(" ".join(str(c) for c in dealt).encode() + b"|")
    assert digest.hexdigest()[:16] == "b2d1c1c4f0ad34f3" and len(shoe.cards) == 14


def test_simulated_figures_are_unchanged() -> None:
    chart = chart_for(compute=False)
    assert chart is not None
    res = simulate(CasinoRules(), chart, 5000, seed=11, chunk=2000)
    assert (res.rounds, res.total, res.total_sq, res.bonus) == (5000, 96.0, 6242.0, 103.0)


# -- 5. negative seeds are refused ------------------------------------------------------------


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_negative_seed_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("10\ns\nquit\n"))
    code, out, err = run(capsys, "casino", command, "--seed", "-1")
    assert code == 2 and out == ""
    assert err == "rummy500 casino: --seed must be 0 or more, not -1\n"


def test_a_negative_seed_is_refused_by_the_api() -> None:
    chart = chart_for(compute=False)
    assert chart is not None
    with pytest.raises(ValueError, match="seed must be 0 or more, not -2"):
        simulate(CasinoRules(), chart, 10, seed=-2)
    with pytest.raises(ValueError, match="seed must be 0 or more, not -2"):
        Session(CasinoRules(), chart, 100, -2, io.StringIO(""), io.StringIO())


# -- 6. Ctrl-C stops every command with one line ---------------------------------------------------


@pytest.mark.parametrize("command", ["edge", "strategy", "simulate"])
def test_ctrl_c_in_any_command_is_one_line_and_exit_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    target = (casino_simulate, "simulate") if command == "simulate" else (casino_cli, "_chart")
    monkeypatch.setattr(*target, interrupted)
    code, out, err = run(capsys, "casino", command)
    assert code == 130 and out == "" and err.strip() == "rummy500 casino: interrupted"


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_ctrl_c_stops_a_simulation_on_two_processes_cleanly() -> None:
    code = "import sys; from rummy500.cli import main; sys.exit(main())"
    argv = [sys.executable, "-c", code, "casino", "simulate", "--hands", "5000000", "--jobs", "2"]
    # Its own process group, which Ctrl-C at a terminal signals as a whole (workers included).
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        workers = _children(proc.pid)
        assert len(workers) >= 2, "the worker processes did not start"
        time.sleep(1.0)  # the workers are running their first chunks
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130 and out == ""
    assert err.strip() == "rummy500 casino: interrupted"  # no traceback, from the parent or a worker
    assert not [w for w in workers if Path(f"/proc/{w}").exists()], "a worker process outlived the simulation"


# -- 7. a simulation too small for an interval says so ------------------------------------------


def test_one_simulated_round_is_too_few_to_compare(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "casino", "simulate", "--hands", "1")
    assert code == 0
    assert "OUTSIDE" not in out and "inside" not in out and "-0.000" not in out and "\u00b1" not in out
    assert out.startswith("1 round by basic strategy: house edge ")
    assert "too few rounds to compare" in out.splitlines()[1]
    code, out, _ = run(capsys, "casino", "simulate", "--hands", "1", "--json")
    data = json.loads(out)
    assert data["agrees"] is None and data["ci95_pct"] is None
    assert data["reason"].startswith("too few rounds to compare")


def test_a_few_hundred_rounds_are_too_few_to_compare(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "casino", "simulate", "--hands", "300", "--json")
    data = json.loads(out)
    assert code == 0 and data["rounds"] == 300 and data["sd"] > 0
    assert data["agrees"] is None and "too few rounds to compare" in data["reason"]


def test_suited_three_of_a_kind_needs_three_decks_as_the_docs_say() -> None:
    nine = parse_card("9S")
    for decks, possible in ((2, False), (3, True)):
        copies = Shoe(decks, random.Random(0)).cards.count(nine)
        assert (copies >= 3) == possible
    assert bonus_multiple([nine, nine, nine], CasinoRules()) == 5
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    assert "suited means all three of one suit (possible with 3 or more decks)" in text
