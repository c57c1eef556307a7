"""Game records (RECORD.md): save/load round trips, and the ``rummy500 replay`` contract."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy500 import Match, RecordError, Rules, load_record, replay
from rummy500.actions import Discard, Draw, LayOff, Meld, Take
from rummy500.cards import natural_cards
from rummy500.cli import replay_cmd
from rummy500.record import match_from_record, record_to_json
from rummy500.scoring import card_value

from .helpers import standard

RESULT_KEYS = {"ok", "error", "rounds", "totals", "winner", "state"}
STATE_KEYS = {"round", "to_move", "phase", "hands", "stock_count", "discard", "melds"}


def _greedy(state: Any) -> Any:
    """A simple deterministic player: meld the most, take deep, throw the highest card."""
    acts = state.legal_actions()
    plays = [a for a in acts if isinstance(a, (Meld, LayOff))]
    if plays:
        return max(plays, key=lambda a: (len(a.cards), str(a)))
    takes = [a for a in acts if isinstance(a, Take) and a.n > 1]
    if takes:
        return max(takes, key=lambda a: a.n)
    if Draw() in acts:
        return Draw()
    discards = [a for a in acts if isinstance(a, Discard)]
    if discards:
        return max(discards, key=lambda a: (card_value(a.card, state.rules), str(a)))
    return acts[0]


def _finished_match(players: int, seed: int) -> Match:
    match = Match(standard(players), seed=seed)
    while not match.is_over:
        state = match.state
        assert state is not None
        match.apply(state.public.to_move, _greedy(state))
    return match


def _partial_match(players: int, seed: int, steps: int) -> Match:
    rng = random.Random(seed)
    match = Match(standard(players), seed=seed)
    for _ in range(steps):
        state = match.state
        assert state is not None
        match.apply(state.public.to_move, rng.choice(state.legal_actions()) if rng.random() < 0.5 else _greedy(state))
    return match


def _state_of(match: Match) -> dict[str, Any]:
    s = match.state
    assert s is not None
    return {
        "to_move": s.public.to_move,
        "phase": s.public.phase,
        "dealer": s.public.dealer,
        "hands": s.hands,
        "stock": s.stock,
        "discard": s.public.discard,
        "melds": s.public.melds,
        "obligation": s.public.obligation,
        "taken_top": s.public.taken_top,
    }


# ------------------------------------------------------------ round trips


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_a_finished_match_record_replays_to_the_same_totals_and_winner(players, seed):
    match = _finished_match(players, seed)
    assert match.winner is not None and max(match.totals) >= 500
    record = json.loads(record_to_json(match.record()))
    again = match_from_record(record)
    assert again.totals == match.totals
    assert again.winner == match.winner
    assert _state_of(again) == _state_of(match)
    result = replay(record)
    assert result["ok"] and result["error"] is None
    assert result["totals"] == match.totals and result["winner"] == match.winner
    assert result["state"]["phase"] == "game_over"
    assert [r["round_scores"] for r in result["rounds"]] == [r.round_scores for r in match.rounds]
    assert sum(sum(r["round_scores"]) for r in result["rounds"]) == sum(match.totals)


@pytest.mark.parametrize(("players", "seed", "steps"), [(2, 5, 150), (3, 6, 90), (6, 7, 60)])
def test_a_match_in_progress_replays_to_the_same_position(players, seed, steps):
    match = _partial_match(players, seed, steps)
    record = match.record()
    again = match_from_record(json.loads(json.dumps(record)))
    assert _state_of(again) == _state_of(match)
    assert again.totals == match.totals
    assert again.record() == record  # saving again gives the same record
    state = replay(record)["state"]
    s = match.state
    assert s is not None
    assert state["hands"] == [[str(c) for c in h] for h in s.hands]
    assert state["stock_count"] == len(s.stock)
    assert state["discard"] == [str(c) for c in s.public.discard]
    assert state["to_move"] == s.public.to_move and state["phase"] == s.public.phase.value
    assert state["melds"] == [
        {"id": m.id, "cards": [str(c) for c in m.cards], "laid_by": list(m.laid_by)} for m in s.public.melds
    ]


def test_load_record_accepts_json_text_and_keeps_the_deal():
    match = _partial_match(2, 9, 20)
    rec = load_record(record_to_json(match.record()))
    assert rec.rules == match.rules and rec.players == match.players
    assert rec.rounds[0].hands == match.rounds[0].hands
    assert rec.rounds[0].stock == match.rounds[0].stock
    assert [a for _, a in rec.rounds[0].actions] == [a for _, a in match.rounds[0].actions]


def test_a_record_may_give_a_deck_to_be_dealt_as_the_rules_say():
    deck = [str(c) for c in natural_cards()] + ["JK", "JK"]
    rec = {"players": 2, "rounds": [{"dealer": 1, "deal": {"deck": deck}, "actions": [{"p": 0, "draw": "stock"}]}]}
    result = replay(rec)
    assert result["ok"]
    state = result["state"]
    # One card at a time from the dealer's left: seat 0 gets the 1st, 3rd, ... card; then the upcard.
    assert state["hands"][0] == deck[0:26:2] + [deck[27]]  # and the stock's top card, just drawn
    assert state["hands"][1] == deck[1:26:2]
    assert state["discard"] == [deck[26]]
    assert state["stock_count"] == 54 - 26 - 1 - 1


# --------------------------------------------------------- replay results

DEAL = {"hands": [["AS", "2S", "3S", "9D"], ["4H", "5H", "6H", "KC"]], "stock": ["QD", "7S"], "discard": ["TC"]}


def _record(actions: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "rules": {"preset": "standard"},
        "players": ["Ann", "Bob"],
        "dealer": 1,
        "deal": DEAL,
        "actions": actions,
        **extra,
    }


def test_a_legal_record_gives_ok_and_the_round_result():
    result = replay(
        _record(
            [
                {"p": 0, "draw": "stock"},
                {"p": 0, "meld": ["AS", "2S", "3S"]},
                {"p": 0, "discard": "QD"},
                {"p": 1, "draw": "stock"},
                {"p": 1, "meld": ["4H", "5H", "6H"]},
                {"p": 1, "discard": "7S"},
                {"p": 0, "pass": True},
            ]
        )
    )
    assert set(result) == RESULT_KEYS
    assert result["ok"] is True and result["error"] is None
    # The stock ran out and seat 0 passed: AS 2S 3S (6) - 9D; 4H 5H 6H (15) - KC.
    assert result["rounds"] == [{"round_scores": [6 - 9, 15 - 10], "went_out": None, "over": True}]
    assert result["totals"] == [-3, 5] and result["winner"] is None
    assert set(result["state"]) == STATE_KEYS
    assert result["state"]["phase"] == "round_over"


@pytest.mark.parametrize(
    ("actions", "index", "words", "to_move", "phase"),
    [
        ([{"p": 1, "draw": "stock"}], 0, "not your turn", 0, "draw"),
        ([{"p": 0, "discard": "9D"}], 0, "draw first", 0, "draw"),
        ([{"p": 0, "draw": "stock"}, {"p": 0, "draw": "stock"}], 1, "already drawn", 0, "play"),
        ([{"p": 0, "draw": "stock"}, {"p": 0, "meld": ["4H", "5H", "6H"]}], 1, "do not hold", 0, "play"),
        ([{"p": 0, "take": 1}, {"p": 0, "discard": "TC"}], 1, "just took from the top", 0, "play"),
        (
            [{"p": 0, "draw": "stock"}, {"p": 0, "discard": "QD"}, {"p": 1, "pass": True}],
            2,
            "only when the stock is empty",
            1,
            "draw",
        ),
    ],
)
def test_an_illegal_action_stops_the_replay_with_its_index_and_the_rule(actions, index, words, to_move, phase):
    result = replay(_record(actions + [{"p": 0, "draw": "stock"}]))
    assert result["ok"] is False
    assert result["error"]["round"] == 0 and result["error"]["action"] == index
    assert words in result["error"]["message"]
    # The state is the position just before the illegal action; nothing after it is played.
    assert result["state"]["to_move"] == to_move and result["state"]["phase"] == phase
    assert result["rounds"][0]["over"] is False


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ({"rules": {"colour": "red"}}, "colour"),
        ({"rules": {"players": 9}}, "players"),
        ({"rules": {"preset": "nope"}}, "nope"),
        (_record([], deal={"hands": [["1X"], []], "stock": [], "discard": []}), "1X"),
        (_record([], deal={"hands": [["AS", "AS"], []], "stock": [], "discard": []}), "AS"),
        (_record([], deal={"hands": [["JK", "JK"], ["JK"]], "stock": [], "discard": []}), "JK"),
        (_record([{"p": 0, "fly": True}]), "fly"),
        (_record([{"p": 0, "meld": ["AS", "1X", "3S"]}]), "1X"),
        (_record([{"p": 2, "draw": "stock"}]), "p"),
        (_record([{"draw": "stock"}]), "p"),
        (_record([{"p": 0}]), "verb"),
        (_record([{"p": 0, "take": 0}]), "take"),
        (_record([], players=3), "hands"),
        ({"players": True}, "players"),
        ({"players": 2, "scores": [1]}, "scores"),
        ({"players": 2, "rounds": "x"}, "rounds"),
        ({"rules": "standard"}, "rules"),
        (["not", "an", "object"], "object"),
    ],
)
def test_a_malformed_record_raises_a_record_error_naming_the_problem(record, words):
    with pytest.raises(RecordError) as info:
        replay(record)
    assert words in str(info.value)


def test_an_illegal_action_in_a_later_round_reports_that_round():
    match = _finished_match(2, 1)
    record = match.record()
    assert len(record["rounds"]) >= 2
    actions = record["rounds"][1]["actions"]
    first = actions[0]
    actions[0] = {"p": 1 - first["p"], "draw": "stock"}  # the wrong seat
    result = replay(record)
    assert result["ok"] is False
    assert result["error"]["round"] == 1 and result["error"]["action"] == 0
    assert "not your turn" in result["error"]["message"]
    assert result["rounds"][0]["over"] is True and result["rounds"][1]["over"] is False
    assert result["state"]["round"] == 1 and result["state"]["phase"] == "draw"
    assert result["totals"] == match.rounds[0].round_scores
    assert len(result["rounds"]) == 2


def test_a_round_after_the_game_was_won_is_malformed():
    record = _finished_match(2, 1).record()
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    with pytest.raises(RecordError) as info:
        replay(record)
    assert "already won" in str(info.value)


def test_a_round_before_the_previous_one_ended_is_malformed():
    record = _partial_match(2, 5, 10).record()
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    with pytest.raises(RecordError) as info:
        replay(record)
    assert "had not ended" in str(info.value)


# ------------------------------------------------------------ the CLI


def _cli(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rummy500", "replay", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def _check_contract(code: int, out: str, err: str) -> dict[str, Any] | None:
    """The replay contract: 0/1 with one JSON object on stdout, or 2 with one line on stderr and nothing on stdout."""
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err
    if code == 2:
        assert out == ""
        assert err.startswith("rummy500 replay: ") and err.endswith("\n") and err.count("\n") == 1, err
        return None
    result = json.loads(out)
    assert set(result) >= RESULT_KEYS
    assert result["ok"] is (code == 0)
    if code == 1:
        assert set(result["error"]) == {"round", "action", "message"}
    return result


def test_cli_replays_a_file_with_exit_0(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record([{"p": 0, "draw": "stock"}, {"p": 0, "discard": "QD"}])))
    proc = _cli([str(path)])
    result = _check_contract(proc.returncode, proc.stdout, proc.stderr)
    assert proc.returncode == 0 and proc.stderr == ""
    assert result is not None and result["state"]["to_move"] == 1
    assert proc.stdout.count("\n") == 1  # one JSON object, one line


def test_cli_reads_standard_input_with_dash():
    proc = _cli(["-"], stdin=json.dumps(_record([])))
    result = _check_contract(proc.returncode, proc.stdout, proc.stderr)
    assert proc.returncode == 0 and result is not None and result["state"]["phase"] == "draw"


@pytest.mark.parametrize(
    ("actions", "index", "words"),
    [
        ([{"p": 0, "draw": "stock"}, {"p": 0, "discard": "KC"}], 1, "do not hold KC"),
        ([{"p": 1, "draw": "stock"}], 0, "not your turn"),
        ([{"p": 0, "draw": "stock"}, {"p": 0, "take": 1}], 1, "already drawn"),
    ],
    ids=["cards-not-held", "wrong-seat", "wrong-phase"],
)
def test_cli_exits_1_on_an_illegal_action_with_round_action_and_message(actions, index, words):
    proc = _cli(["-"], stdin=json.dumps(_record(actions)))
    result = _check_contract(proc.returncode, proc.stdout, proc.stderr)
    assert proc.returncode == 1 and result is not None
    assert result["error"]["round"] == 0 and result["error"]["action"] == index
    assert words in result["error"]["message"]


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "",
        "[1, 2]",
        '"{\\"players\\": 2}"',
        "null",
        json.dumps({"rules": {"colour": 1}}),
        json.dumps(_record([{"p": 0, "fly": True}])),
        json.dumps(_record([], deal={"hands": [["1X"], []]})),
        json.dumps(_record([], deal={"hands": [["AS", "AS"], []]})),
        "[" * 100_000,
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=lambda text: text[:24],
)
def test_cli_exits_2_on_a_malformed_record_with_one_line_on_stderr_and_nothing_on_stdout(text):
    proc = _cli(["-"], stdin=text)
    _check_contract(proc.returncode, proc.stdout, proc.stderr)
    assert proc.returncode == 2


def test_cli_exits_2_on_a_missing_or_unreadable_file(tmp_path: Path):
    proc = _cli([str(tmp_path / "nope.json")])
    _check_contract(proc.returncode, proc.stdout, proc.stderr)
    assert proc.returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    proc = _cli([str(bad)])
    _check_contract(proc.returncode, proc.stdout, proc.stderr)
    assert proc.returncode == 2


# -------------------------------------------------------- fuzzing the CLI

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["AS", "JK", "JK=7H", "10H", "1X", "stock", "standard", "draw", "p", "on"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "rules",
                    "players",
                    "scores",
                    "rounds",
                    "deal",
                    "actions",
                    "dealer",
                    "hands",
                    "stock",
                    "discard",
                    "deck",
                    "p",
                    "draw",
                    "take",
                    "meld",
                    "layoff",
                    "on",
                    "pass",
                    "preset",
                    "x",
                ]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)

_BASE = _record(
    [
        {"p": 0, "draw": "stock"},
        {"p": 0, "meld": ["AS", "2S", "3S"]},
        {"p": 0, "discard": "QD"},
        {"p": 1, "take": 1},
        {"p": 1, "meld": ["4H", "5H", "6H"]},
        {"p": 1, "discard": "KC"},
    ]
)


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, prefix + (i,))
    return out


def _mutate(base: dict[str, Any], path: tuple, value: Any, delete: bool) -> Any:
    rec = copy.deepcopy(base)
    if not path:
        return value
    target = rec
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return rec


def _run_in_process(text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = replay_cmd.main(["-"])
    captured = capsys.readouterr()
    _check_contract(code, captured.out, captured.err)


_FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@_FUZZ
@given(json_values)
def test_fuzz_arbitrary_json_never_crashes_the_replay(monkeypatch, capsys, value):
    _run_in_process(json.dumps(value), monkeypatch, capsys)


@_FUZZ
@given(st.data(), json_values, st.booleans())
def test_fuzz_a_record_with_one_field_broken_never_crashes_the_replay(monkeypatch, capsys, data, value, delete):
    path = data.draw(st.sampled_from(_paths(_BASE)))
    _run_in_process(json.dumps(_mutate(_BASE, path, value, delete and bool(path))), monkeypatch, capsys)


def test_the_unbroken_fuzz_base_record_is_legal(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(_BASE)))
    assert replay_cmd.main(["-"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] and result["state"]["to_move"] == 0


@pytest.mark.parametrize("data", [b'{"players": 2, "x": "\xff"}', b"\xfe\xff\x00{", '{"scores": [NaN, 0]}'])
def test_load_record_refuses_bad_bytes_and_non_json_numbers_as_malformed(data):
    with pytest.raises(RecordError, match="not UTF-8|not JSON"):
        load_record(data)


def test_load_record_accepts_utf8_bytes_with_a_byte_order_mark():
    assert load_record(b"\xef\xbb\xbf" + json.dumps(_record([])).encode()).players == ["Ann", "Bob"]


def test_the_replay_says_where_the_final_bonus_went_which_its_totals_include() -> None:
    """Persian's 50 points to the winning side are in ``totals``: ``final_bonus`` says so (nothing did)."""
    from rummy500.sim.runner import play_game

    game = play_game(["random"] * 4, Rules.preset_rules("persian"), 3, keep_record=True)
    out = replay(game.record)
    assert out["ok"] and out["winner"] is not None
    bonus = out["final_bonus"]
    assert bonus["points"] == 50 and bonus["seat"] in out["winner"]
    played = [sum(r["round_scores"][s] for r in out["rounds"]) for s in range(4)]
    assert out["totals"] == [p + (50 if s == bonus["seat"] else 0) for s, p in enumerate(played)]
    # No bonus rule, no field.
    plain = play_game(["random"] * 2, Rules.preset_rules("standard"), 3, keep_record=True)
    assert "final_bonus" not in replay(plain.record)
