"""Findings of the fuzzing audit of the engine API and the record path, one test (or a few) each.

Bad input gets a clear error of the documented type that names the problem,
never a Python-internal exception (IndexError, TypeError, the int-digit-limit
ValueError), and the state it was given stays as it was.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rummy500 import Match, Rules
from rummy500.actions import ActionError, parse_action
from rummy500.cards import CardError, parse_card, parse_cards
from rummy500.position import PositionError, parse_position
from rummy500.record import RecordError, load_record, parse_record_json
from rummy500.state import IllegalAction, ResampleError, state_from_view, view_from_position

ROOT = Path(__file__).resolve().parents[2]
HUGE = "9" * 5000  # beyond Python's int-digit limit (4300) for str <-> int


def _match() -> Match:
    return Match(Rules.preset_rules("standard"), seed=1)


def _snapshot(m: Match) -> tuple[str, str]:
    """What a refused call must leave as it was: the round's position and the match's record."""
    assert m.state is not None
    return m.state.position(), json.dumps(m.record())


# 2. ---------------------------------------------------------------- an action of commas only


@pytest.mark.parametrize("text", [",", ", ", " , ,, ", ",\t,"])
def test_an_action_of_nothing_but_commas_is_empty(text: str) -> None:
    with pytest.raises(ActionError, match="^empty action$"):
        parse_action(text)


def test_play_answers_a_line_of_commas_and_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import rich  # noqa: F401  (a dev dependency: missing, it fails)

    from rummy500.cli import play

    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    code = play.main(["--seed", "1", "--opponents", "random"], inp=io.StringIO(",\nquit\n"), out=out)
    text = out.getvalue()
    assert code == 0
    assert "empty action" in text
    assert "Traceback" not in text
    assert text.index("empty action") < text.index("Saved the game to")  # it went on to the next line
    assert json.loads((tmp_path / "rummy500-save.json").read_text())["rounds"]


# 3. ---------------------------------------------------------------- numbers of thousands of digits


@pytest.mark.parametrize(
    "text",
    [f"take {HUGE}", f"take {HUGE} split", f"rummy {HUGE}", f"rummy 1 on {HUGE}", f"layoff 8H on {HUGE}", f"swap JK on {HUGE}"],
)
def test_a_number_of_thousands_of_digits_in_an_action_is_refused_by_name(text: str) -> None:
    with pytest.raises(ActionError) as info:
        parse_action(text)
    message = str(info.value)
    assert "999999999999... (5000 digits) is far too large" in message
    assert len(message) < 200


def test_numbers_of_ordinary_length_still_read() -> None:
    assert str(parse_action("take 12")) == "take 12"
    assert str(parse_action("layoff 8H on 3")) == "layoff 8H on 3"
    assert str(parse_action("rummy 2 on 0")) == "rummy 2 on 0"


def test_a_position_number_of_thousands_of_digits_is_a_position_error() -> None:
    with pytest.raises(PositionError, match=r"position field 'players': '999999999999'\.\.\. \(5000 digits\) is far too large"):
        parse_position(f"players={HUGE}")
    for bad in ("+1", "1_0", "\u0661", " "):
        with pytest.raises(PositionError, match="is not a whole number"):
            parse_position(f"dealer={bad}")
    assert parse_position("dealer=1 turns=0 scores=-5|12") == {"dealer": 1, "turns": 0, "scores": (-5, 12)}


# 4. ---------------------------------------------------------------- views that do not add up


@pytest.mark.parametrize(("players", "field"), [(3, "players"), (1, "players")])
def test_a_view_position_whose_players_disagree_is_a_position_error(players: int, field: str) -> None:
    m = _match()
    text = m.view(0).position().replace("players=2", f"players={players}")
    with pytest.raises(PositionError, match=rf"^the view's {field} \({players}\) and rules.players \(2\) disagree$"):
        view_from_position(m.rules, text)


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("hand_sizes=13|13", "hand_sizes=13|13|13", "the view's hand_sizes has 3 seats but the game has 2 players"),
        ("known=-|-", "known=-|-|-", "the view's known has 3 seats but the game has 2 players"),
        ("opened=11", "opened=111", "the view's opened has 3 seats but the game has 2 players"),
        ("seat=0", "seat=5", "the view's seat 5 is not a seat of a 2-player game"),
        ("dealer=1", "dealer=7", "the view's dealer 7 is not a seat of a 2-player game"),
        ("hand_sizes=13|13", "hand_sizes=13|-1", r"the view's hand_sizes\[1\] must be a number of cards, not -1"),
        ("scores=0|0", "scores=0|0 stock=AS", r"not fields of a view's position: stock \(a round's\?\)"),
    ],
)
def test_a_view_position_that_does_not_add_up_names_the_field(old: str, new: str, says: str) -> None:
    m = _match()
    text = m.view(0).position()
    assert old in text
    with pytest.raises(PositionError, match=says):
        view_from_position(m.rules, text.replace(old, new))


def test_a_spectators_view_position_must_fit_the_rules_too() -> None:
    m = _match()
    text = m.view(None).position()
    assert view_from_position(m.rules, text).position() == text
    with pytest.raises(PositionError, match="players"):
        view_from_position(m.rules, text.replace("players=2", "players=3"))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"players": 3}, r"the view's players \(3\) and rules.players \(2\) disagree"),
        ({"players": 1}, r"the view's players \(1\) and rules.players \(2\) disagree"),
        ({"dealer": None}, "the view's dealer must be a whole number, not None"),
        ({"to_move": "0"}, "the view's to_move must be a whole number, not '0'"),
        ({"to_move": True}, "the view's to_move must be a whole number, not True"),
        ({"to_move": 10**5000}, "the view's to_move a number of about 5001 digits is not a seat"),
        ({"stock_count": None}, "the view's stock_count must be a whole number, not None"),
        ({"hand_sizes": (13,)}, "the view's hand_sizes has 1 seats but the game has 2 players"),
        ({"hand_sizes": (13, None)}, r"the view's hand_sizes\[1\] must be a number of cards, not None"),
        ({"known": ((), (), ())}, "the view's known has 3 seats but the game has 2 players"),
        ({"known": None}, "the view's known must be a tuple of 2 seats' values, not None"),
        ({"floating": (False,)}, "the view's floating has 1 seats but the game has 2 players"),
        ({"seat": 2}, "the view's seat 2 is not a seat of a 2-player game"),
        ({"seat": None}, "a spectator's view has no seat"),
    ],
)
def test_state_from_view_refuses_a_view_that_does_not_add_up(change: dict[str, Any], says: str) -> None:
    view = _match().view(0)
    with pytest.raises(ResampleError, match=says):
        state_from_view(replace(view, **change), random.Random(0))


def test_state_from_view_still_resamples_a_consistent_view() -> None:
    view = _match().view(0)
    guess = state_from_view(view, random.Random(0))
    assert guess.hands[0] == list(view.hand) and guess.public.hand_sizes == view.hand_sizes


# 5. ---------------------------------------------------------------- a seat that is no seat


@pytest.mark.parametrize("seat", [True, False, 1.0, "1", 2, -1, pytest.param(10**5000, id="huge")])
def test_a_view_of_no_seat_is_refused_as_apply_refuses_it(seat: Any) -> None:
    m = _match()
    before = _snapshot(m)
    with pytest.raises(IllegalAction, match="seat") as info:
        m.view(seat)
    assert "Exceeds the limit" not in str(info.value)
    with pytest.raises(IllegalAction):
        m.apply(seat, m.legal_actions()[0])
    assert _snapshot(m) == before


def test_a_view_names_no_seat_it_cannot_be_given() -> None:
    m = _match()
    with pytest.raises(IllegalAction, match=r"^a seat is a whole number from 0 to 1, not True$"):
        m.view(True)
    with pytest.raises(IllegalAction, match=r"^seat 2 is not a seat of this 2-player game \(seats are 0 to 1\)$"):
        m.view(2)
    with pytest.raises(IllegalAction, match=r"^a seat number of about 5001 digits is not a seat of this 2-player game"):
        m.view(10**5000)


def test_a_view_for_a_numpy_seat_holds_a_plain_int() -> None:
    import numpy as np
    m = _match()
    view = m.view(np.int64(0))
    assert type(view.seat) is int and view == m.view(0)
    assert json.loads(json.dumps(view.to_dict()))["seat"] == 0


@pytest.mark.parametrize("seat", [True, False, "1", 1.0, object()])
def test_legal_actions_and_is_legal_refuse_a_seat_that_is_no_whole_number_as_apply_does(seat: Any) -> None:
    m = _match()
    before = _snapshot(m)
    action = m.legal_actions()[0]
    with pytest.raises(IllegalAction, match=r"^a seat is a whole number from 0 to 1, not "):
        m.legal_actions(seat)
    with pytest.raises(IllegalAction, match=r"^a seat is a whole number from 0 to 1, not "):
        m.is_legal(action, seat)
    with pytest.raises(IllegalAction):
        m.apply(seat, action)
    # The round's own questions answer the same way (they raised TypeError, or said [] for a bool).
    assert m.state is not None
    for ask in (m.state.legal_actions, m.state.legal_count):
        with pytest.raises(IllegalAction, match=r"^a seat is a whole number from 0 to 1, not "):
            ask(seat)
    with pytest.raises(IllegalAction, match=r"^a seat is a whole number from 0 to 1, not "):
        m.state.is_legal(action, seat)
    assert _snapshot(m) == before
    assert m.is_legal(action, 0) and m.is_legal(action)


@pytest.mark.parametrize("seat", [2, -1, pytest.param(2**65, id="2**65"), pytest.param(10**5000, id="huge")])
def test_a_whole_number_that_is_no_seat_has_no_legal_action(seat: int) -> None:
    m = _match()
    action = m.legal_actions()[0]
    assert m.legal_actions(seat) == []
    assert m.is_legal(action, seat) is False
    assert m.state is not None
    assert m.state.legal_actions(seat) == [] and m.state.legal_count(seat) == 0
    assert m.state.is_legal(action, seat) is False
    # apply agrees, and names the seat (one thousands of digits long by its length: it said "Draw() is not legal").
    says = f"seat {seat}" if seat < 10**19 else "a seat number of about"
    with pytest.raises(IllegalAction, match=rf"^{says}.* is not a seat of this 2-player game \(seats are 0 to 1\)$"):
        m.apply(seat, action)


def test_legal_actions_and_is_legal_take_a_numpy_seat() -> None:
    import numpy as np
    m = _match()
    action = m.legal_actions()[0]
    assert m.legal_actions(np.int64(0)) == m.legal_actions(0)
    assert m.is_legal(action, np.int64(0)) and not m.is_legal(action, np.int64(1))


def test_a_match_with_no_round_yet_has_no_view() -> None:
    m = Match(Rules.preset_rules("standard"), deal=False)
    with pytest.raises(IllegalAction, match="no round is in progress"):
        m.view(0)


# 6. ---------------------------------------------------------------- duplicate keys in a record


def _record_text() -> str:
    m = _match()
    m.apply(0, m.legal_actions()[0])
    return json.dumps(m.record())


def test_a_record_with_a_key_given_twice_is_malformed_and_says_where() -> None:
    text = _record_text()
    load_record(text)  # (the record itself is good)
    top = text.replace('"scores": ', '"scores": [100, 0], "scores": ', 1)
    with pytest.raises(RecordError, match=r"^top level: duplicate key 'scores' \(each key may be given once\)$"):
        load_record(top)
    rules = text.replace('{"players": 2}', '{"players": 2, "players": 3}', 1)
    with pytest.raises(RecordError, match=r"^rules: duplicate key 'players'"):
        load_record(rules)
    action = text.replace('{"p": 0, ', '{"p": 0, "p": 1, ', 1)
    with pytest.raises(RecordError, match=r"^rounds\[0\]\.actions\[0\]: duplicate key 'p'"):
        load_record(action)
    deal = text.replace('"stock": ', '"stock": [], "stock": ', 1)
    with pytest.raises(RecordError, match=r"^rounds\[0\]\.deal: duplicate key 'stock'"):
        parse_record_json(deal.encode())


def test_the_replay_command_refuses_a_duplicate_key_in_one_line_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummy500.cli import main as rummy500

    path = tmp_path / "dup.json"
    path.write_text(_record_text().replace('{"p": 0, ', '{"p": 0, "p": 1, ', 1))
    assert rummy500(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "rummy500 replay: malformed record: rounds[0].actions[0]: duplicate key 'p' (each key may be given once)\n"


# 7. ---------------------------------------------------------------- cards in other letters


@pytest.mark.parametrize("text", ["a\u017f", "\u017fa", "A\u017f", "\uff21S", "J\u212a", "JK=7\u0397"])
def test_card_text_in_other_letters_is_not_a_card(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert repr(text) in str(info.value) and "ASCII" in str(info.value)
    with pytest.raises(ActionError, match="ASCII"):
        parse_action(f"discard {text}")


def test_an_action_verb_in_other_letters_is_unknown() -> None:
    with pytest.raises(ActionError, match="unknown action 'ta\u212ae'"):
        parse_action("ta\u212ae 1")  # (the Kelvin sign lowercases to k)
    assert str(parse_action("TAKE 1")) == "take 1"


def test_ascii_cards_read_as_before() -> None:
    assert [str(c) for c in parse_cards(" as, 10h jk=7h\u00a0td ")] == ["AS", "TH", "JK=7H", "TD"]


# minor: --indent ---------------------------------------------------------


@pytest.mark.parametrize("value", ["\u00b2", "\u0661", "17", "-1", "", pytest.param(HUGE, id="huge")])
def test_replay_indent_takes_ascii_digits_and_names_the_option(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummy500.cli import main as rummy500

    path = tmp_path / "r.json"
    path.write_text(_record_text())
    with pytest.raises(SystemExit) as info:
        rummy500(["replay", str(path), "--indent", value])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("rummy500 replay: argument --indent: --indent takes a number of spaces 0..16, not ")
    assert "_indent" not in err and err.count("\n") == 1 and len(err) < 200


def test_replay_indent_still_takes_a_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rummy500.cli import main as rummy500

    path = tmp_path / "r.json"
    path.write_text(_record_text())
    assert rummy500(["replay", str(path), "--indent", "02"]) == 0
    assert capsys.readouterr().out.startswith('{\n  "ok": true')


# 8. ---------------------------------------------------------------- Ctrl-C of a run on several processes


def _group(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:  # (gone meanwhile)
                continue
            # pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ')'
            if int(stat.rpartition(")")[2].split()[2]) == pgid:
                out.append(int(entry))
    return out


def _interrupted(argv: list[str]) -> tuple[int, str, float]:
    """Run ``python -m rummy500 argv`` in a process group of its own; Ctrl-C it once its workers run.

    Returns its exit status, its standard error and the seconds it took to end after the signal.
    """
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc to see the worker processes")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummy500", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        start_new_session=True,  # its workers in its group, to be seen and cleaned up whatever happens
        # Ctrl-C as at a terminal, even where the tests were started with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509 - single-threaded child setup
    )
    try:
        deadline = time.monotonic() + 60
        while len(_group(proc.pid)) < 2:  # the pool's first worker: tasks are being handed out
            assert proc.poll() is None and time.monotonic() < deadline, "no worker process started"
            time.sleep(0.05)
        time.sleep(0.5)
        assert proc.poll() is None, "the run ended before the interrupt"
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail("still running 20 s after Ctrl-C")
        took = time.monotonic() - start
        deadline = time.monotonic() + 5
        while _group(proc.pid):  # its workers are gone too
            if time.monotonic() > deadline:
                pytest.fail("workers left running after the interrupted run ended")
            time.sleep(0.1)
        return proc.returncode, err, took
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # (whatever is left of its group, the test failing)
        proc.wait()


def test_ctrl_c_of_a_simulation_on_two_processes_ends_it_at_once() -> None:
    # Interrupted while the pool is handed its 200000 games (map() queues them all up front).
    code, err, took = _interrupted(["simulate", "--games", "200000", "--jobs", "2", "--bots", "random,random"])
    assert code == 130, err
    assert err == "rummy500: interrupted\n"
    assert took < 5


def test_ctrl_c_of_a_review_on_two_processes_ends_it_at_once(tmp_path: Path) -> None:
    from rummy500.sim.runner import play_game

    game = play_game(["random", "random"], Rules.preset_rules("standard"), 5, keep_record=True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record))
    code, err, took = _interrupted(["review", str(path), "--jobs", "2"])
    assert code == 130, err
    assert err == "rummy500: interrupted\n"
    assert took < 5
