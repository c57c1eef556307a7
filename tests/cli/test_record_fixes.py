"""Record loading and ``rummy500 replay``: what a user sees for each defect the audit confirmed.

1. The input is capped (``record.MAX_RECORD_BYTES``): ``rummy500 replay
   /dev/zero`` or ``yes | rummy500 replay -`` is refused at once, exit status 2
   and one line naming the limit, not read until memory runs out; so is a file
   over the limit for ``play --load`` and ``review``. Running out of memory is
   one line, exit status 2, never a traceback.
2. A record with no round (``{}``, ``"rounds": []``, a conformance case file
   whose record is under ``"record"``) is malformed in the JSON mode too, as it
   is with ``--position``.
3. Errors in a one-round record (``deal``/``actions`` at the top level) name
   places as that record is shaped (``deal.hands[0][0]``), not ``rounds[0]...``.
4. After the game is won, another action is an illegal action (exit status 1,
   "the game is over"), another round a malformed record (exit status 2).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummy500 import record as record_module
from rummy500.cli import main as rummy500_main
from rummy500.cli import play, replay_cmd
from rummy500.record import MAX_RECORD_BYTES, RecordError, load_record

DEAL = {
    "hands": [["AS", "2S", "3S", "9D", "KC"], ["4H", "5H", "6H", "8C", "8D"]],
    "stock": ["QD", "7S", "2C", "5D"],
    "discard": ["TC"],
}
ONE_ROUND = {"players": 2, "dealer": 1, "deal": DEAL, "actions": [{"p": 0, "draw": "stock"}]}

#: A game already at 480: seat 0 melds three sevens and goes out by discarding, reaching 501 (RECORD.md's reach-500 case).
WON = {
    "rules": {"preset": "standard"},
    "players": 2,
    "scores": [480, 300],
    "rounds": [
        {
            "dealer": 1,
            "deal": {"hands": [["7C", "7D", "7H"], ["2C"]], "stock": ["9D", "5S"], "discard": ["KS"]},
            "actions": [{"p": 0, "draw": "stock"}, {"p": 0, "meld": ["7C", "7D", "7H"]}, {"p": 0, "discard": "9D"}],
        }
    ],
}


def replay_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, *flags: str) -> tuple[int, str, str]:
    """``rummy500 replay FILE``: exit status, standard output, standard error."""
    path = tmp_path / "record.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    code = replay_cmd.main([str(path), *flags])
    out, err = capsys.readouterr()
    return code, out, err


def refused(code: int, out: str, err: str) -> str:
    """The one line of a refusal (exit status 2, nothing on standard output), without its end of line."""
    assert (code, out) == (2, ""), (code, out, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err[:-1]


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    """Records capped at 1000 bytes for the test (the limit is looked up where a record is read)."""
    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", 1000)
    return 1000


def padded(record: dict[str, Any], size: int) -> bytes:
    """``record``'s JSON, padded with trailing spaces (still valid JSON) to exactly ``size`` bytes."""
    text = json.dumps(record).encode()
    assert len(text) <= size
    return text + b" " * (size - len(text))


# ------------------------------------------------------------------ 1. the size cap


def test_the_limit_is_16_mib_and_far_above_a_real_game() -> None:
    assert MAX_RECORD_BYTES == 16 * 1024 * 1024


def test_a_file_one_byte_over_the_real_limit_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)  # a sparse file: nothing is written
    code = replay_cmd.main([str(path)])
    line = refused(code, *capsys.readouterr())
    assert line == f"rummy500 replay: cannot read {str(path)!r}: larger than 16 MiB (16777216 bytes), the most a record may hold"


def test_a_record_at_the_limit_is_read_one_byte_over_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], small_limit: int
) -> None:
    code, out, err = replay_file(tmp_path, capsys, padded(ONE_ROUND, small_limit))
    assert (code, err) == (0, ""), err
    assert json.loads(out)["ok"] is True
    line = refused(*replay_file(tmp_path, capsys, padded(ONE_ROUND, small_limit + 1)))
    assert line.endswith(": larger than 1000 bytes, the most a record may hold"), line


class _Endless:
    """Standard input that never ends (``yes |``); reading it to its end is a test failure, not a hang."""

    def __init__(self) -> None:
        self.given = 0
        self.buffer = self

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            raise AssertionError("standard input was read to its end: it has none")
        chunk = (b"y\n" * min(size // 2 + 1, 32768))[:size]
        self.given += len(chunk)
        return chunk


def test_endless_standard_input_is_refused_at_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    stdin = _Endless()
    monkeypatch.setattr(sys, "stdin", stdin)
    code = replay_cmd.main(["-"])
    line = refused(code, *capsys.readouterr())
    assert line == "rummy500 replay: cannot read '-': larger than 16 MiB (16777216 bytes), the most a record may hold"
    assert stdin.given <= MAX_RECORD_BYTES + 1


def test_a_text_stream_as_standard_input_is_capped_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], small_limit: int
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(ONE_ROUND) + " " * small_limit))
    line = refused(replay_cmd.main(["-"]), *capsys.readouterr())
    assert line == "rummy500 replay: cannot read '-': larger than 1000 bytes, the most a record may hold"


@pytest.mark.skipif(not sys.platform.startswith("linux") or not os.path.exists("/dev/zero"), reason="needs /dev/zero and RLIMIT_AS")
def test_replay_of_dev_zero_exits_2_in_one_line() -> None:
    """The command a user types, in a process whose memory is capped (2 GiB), so that reading on cannot hurt the machine."""
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    proc = subprocess.run(
        [sys.executable, "-m", "rummy500", "replay", "/dev/zero"],
        capture_output=True, text=True, timeout=120, preexec_fn=cap, check=False,
    )
    assert (proc.returncode, proc.stdout) == (2, ""), proc.stderr[-2000:]
    assert proc.stderr == "rummy500 replay: cannot read '/dev/zero': larger than 16 MiB (16777216 bytes), the most a record may hold\n"


def test_running_out_of_memory_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def exhausted(record: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(replay_cmd, "replay", exhausted)
    line = refused(*replay_file(tmp_path, capsys, ONE_ROUND))
    assert line == "rummy500 replay: cannot replay the record: out of memory"


def test_play_load_of_a_file_over_the_limit_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], small_limit: int
) -> None:
    path = tmp_path / "save.json"
    path.write_bytes(padded(WON, small_limit + 1))
    code = play.main(["--load", str(path)], inp=io.StringIO(""))
    line = refused(code, *capsys.readouterr())
    assert line == f"rummy500 play: cannot read {path}: larger than 1000 bytes, the most a record may hold"


def test_review_of_a_file_or_stdin_over_the_limit_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], small_limit: int
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(padded(WON, small_limit + 1))
    line = refused(rummy500_main(["review", str(path), "--jobs", "1"]), *capsys.readouterr())
    assert line == f"rummy500 review: cannot read {str(path)!r}: larger than 1000 bytes, the most a record may hold"
    monkeypatch.setattr(sys, "stdin", _Endless())
    line = refused(rummy500_main(["review", "-", "--jobs", "1"]), *capsys.readouterr())
    assert line == "rummy500 review: cannot read '-': larger than 1000 bytes, the most a record may hold"


# ------------------------------------------------------------------ 2. a record with no round


@pytest.mark.parametrize("record", [{}, {"rules": {"players": 2}, "players": ["Ann", "Bob"], "rounds": []}, {"players": 3, "scores": [1, 2, 3]}])
@pytest.mark.parametrize("flags", [(), ("--position",), ("--indent", "2")])
def test_a_record_without_a_round_is_malformed_in_every_mode(
    record: dict[str, Any], flags: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(*replay_file(tmp_path, capsys, record, *flags))
    assert line == "rummy500 replay: malformed record: it has no round"


def test_a_conformance_case_file_is_told_where_its_record_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = {"name": "reach-500", "checks": "winning", "tier": "standard", "record": WON, "expect": {"exit": 0}}
    for flags in ((), ("--position",)):
        line = refused(*replay_file(tmp_path, capsys, case, *flags))
        assert line == (
            'rummy500 replay: malformed record: it has no round (this looks like a conformance case: its record is under "record")'
        )
    code, out, err = replay_file(tmp_path, capsys, case["record"])  # the record itself replays
    assert (code, err) == (0, "") and json.loads(out)["winner"] == 0


# ------------------------------------------------------------------ 3. places as the record is shaped


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"deal": {**DEAL, "hands": [["XX"], []]}}, "deal.hands[0][0]: unknown card 'XX'"),
        ({"deal": {**DEAL, "stock": ["QD", "ZZ"]}}, "deal.stock[1]: unknown card 'ZZ'"),
        ({"deal": {**DEAL, "stok": []}}, "deal: unknown key 'stok' (did you mean 'stock'?)"),
        ({"deal": {**DEAL, "hands": [[]]}}, "deal.hands must list 2 hands"),
        ({"deal": {"deck": ["AS"]}}, "deal.deck must be the whole pack"),
        ({"deal": {**DEAL, "hands": [["AS", "AS"], []]}}, "deal holds 2 x AS but the pack has 1"),
        ({"dealer": 5}, "dealer must be a seat 0..1"),
        ({"actions": [{"p": 0, "drw": "stock"}]}, "actions[0]: unknown action field(s) 'drw'"),
        ({"actions": [{"p": 9, "draw": "stock"}]}, "actions[0].p must be a seat 0..1"),
        ({"actions": {}}, "actions must be a list"),
    ],
)
def test_a_one_round_record_names_places_as_it_is_shaped(
    change: dict[str, Any], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(*replay_file(tmp_path, capsys, {**ONE_ROUND, **change}))
    assert line.startswith(f"rummy500 replay: malformed record: {words}"), line
    # the same round under "rounds" is named as such
    rounds_form = {"players": 2, "rounds": [{k: v for k, v in {**ONE_ROUND, **change}.items() if k != "players"}]}
    line = refused(*replay_file(tmp_path, capsys, rounds_form))
    assert line.startswith(f"rummy500 replay: malformed record: rounds[0].{words}"), line


def test_a_duplicate_key_and_an_unknown_card_name_the_same_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    top = '{"players": 2, "deal": {"hands": [["XX"], []], "stock": [], "stock": []}}'
    assert refused(*replay_file(tmp_path, capsys, top)).endswith("malformed record: deal: duplicate key 'stock' (each key may be given once)")
    top = '{"players": 2, "deal": {"hands": [["XX"], []], "stock": []}}'
    line = refused(*replay_file(tmp_path, capsys, top))
    assert "malformed record: deal.hands[0][0]: unknown card 'XX'" in line and "rounds" not in line
    nested = '{"players": 2, "rounds": [{"deal": {"hands": [["XX"], []], "stock": [], "stock": []}}]}'
    assert refused(*replay_file(tmp_path, capsys, nested)).endswith("rounds[0].deal: duplicate key 'stock' (each key may be given once)")


def test_load_record_says_the_same_places() -> None:
    with pytest.raises(RecordError, match=r"^deal\.hands\[1\]\[0\]: unknown card 'QQ'"):
        load_record({"players": 2, "deal": {"hands": [[], ["QQ"]]}})
    with pytest.raises(RecordError, match=r"^rounds\[1\]\.deal\.hands\[1\]\[0\]: unknown card 'QQ'"):
        load_record({"players": 2, "rounds": [{"deal": DEAL}, {"deal": {"hands": [[], ["QQ"]]}}]})


# ------------------------------------------------------------------ 4. after the game is won


def test_an_action_after_the_winning_one_is_illegal_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    won = json.loads(json.dumps(WON))
    won["rounds"][0]["actions"].append({"p": 1, "draw": "stock"})
    code, out, err = replay_file(tmp_path, capsys, won)
    assert (code, err) == (1, "")
    result = json.loads(out)
    assert result["error"] == {"round": 0, "action": 3, "message": "the game is over"}
    assert result["winner"] == 0 and result["state"]["phase"] == "game_over"


def test_a_round_after_the_win_is_malformed_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    won = json.loads(json.dumps(WON))
    won["rounds"].append({"deal": DEAL})
    line = refused(*replay_file(tmp_path, capsys, won))
    assert line == "rummy500 replay: malformed record: rounds[1] comes after the game was already won"


# ---------------------------------------------------------------- custom_values naming one card twice
@pytest.mark.parametrize("values", [{"QS": 40, "qs": 1}, {"qs": 1, "QS": 40}, {"10": 5, "T": 50}])
def test_custom_values_naming_one_card_twice_are_refused_whatever_their_order(tmp_path, capsys, values):
    # A JSON object's keys have no order: the last one used to win (QS scored 1 or 40 by key order).
    game = {
        "players": 2,
        "rules": {"custom_values": values},
        "dealer": 1,
        "deal": {"hands": [["QS", "QH", "QD"], ["2C"]], "stock": ["9D"], "discard": ["KS"]},
        "actions": [{"p": 0, "draw": "stock"}, {"p": 0, "meld": ["QS", "QH", "QD"]}, {"p": 0, "discard": "9D"}],
    }
    line = refused(*replay_file(tmp_path, capsys, game))
    name = "T" if "T" in values else "QS"
    assert f"names {name} twice" in line and "give it one value" in line


# ---------------------------------------------------------------- scores the record starts from
#: Both hands stuck, the stock's one card drawn: seat 1 passes on the empty stock, -28 and -29.
STUCK = {
    "dealer": 1,
    "deal": {"hands": [["KC", "QC", "9S"], ["KS", "QS", "9H"]], "stock": ["8H"], "discard": ["2D"]},
    "actions": [{"p": 0, "draw": "stock"}, {"p": 0, "discard": "9S"}, {"p": 1, "pass": True}],
}


def test_a_record_from_tied_totals_past_the_target_plays_the_tie_break(tmp_path, capsys):
    # 515-515 can only be a tie at the game's end: the next round decides it, under the target or not,
    # as it does when the same game is recorded from its start.
    code, out, err = replay_file(tmp_path, capsys, {"players": 2, "scores": [515, 515], "rounds": [STUCK]})
    result = json.loads(out)
    assert code == 0 and result["totals"] == [487, 486]
    assert result["winner"] == 0 and result["state"]["phase"] == "game_over"

