"""The ``rummy500 replay`` contract (RECORD.md) under hostile input and hostile output.

Exit status 0 or 1 with one JSON object on standard output, or 2 with exactly
one line on standard error and nothing on standard output -- never a
traceback: whatever the bytes of the record, however large its numbers, and
when standard output is closed or full.
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

from rummy500.cli import replay_cmd

# Seat 0 melds and discards, seat 1 takes and discards: a short, legal round.
RECORD: dict[str, Any] = {
    "rules": {"preset": "standard"},
    "players": ["Ann", "Bob"],
    "dealer": 1,
    "deal": {"hands": [["AS", "2S", "3S", "9D"], ["4H", "5H", "6H", "KC"]], "stock": ["QD", "7S"], "discard": ["TC"]},
    "actions": [{"p": 0, "draw": "stock"}, {"p": 0, "meld": ["AS", "2S", "3S"]}, {"p": 0, "discard": "QD"}],
}
TEXT = json.dumps(RECORD)


def run_bytes(data: bytes, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``rummy500 replay -`` in this process, reading ``data`` as the raw bytes of standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape"))
    code = replay_cmd.main(["-"])
    out, err = capsys.readouterr()
    return code, out, err


def assert_contract(code: int, out: str, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    if code == 2:
        assert out == "", out
        assert err.startswith("rummy500 replay: ") and len(err.splitlines()) == 1 and err.endswith("\n"), repr(err)
    else:
        assert err == "" and out.endswith("\n") and len(out.splitlines()) == 1
        assert json.loads(out)["ok"] is (code == 0)


def _cli(args: list[str], **kw: Any) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": ""}  # a locale where stdin would decode loosely
    return subprocess.run([sys.executable, "-m", "rummy500", "replay", *args], capture_output=kw.pop("capture", True),
                          env=env, timeout=60, **kw)


# ------------------------------------------------------------ numbers (item 5)
@pytest.mark.parametrize(
    "where",
    ["scores", "take", "p", "target", "dealer"],
)
def test_an_absurdly_large_number_anywhere_is_a_malformed_record(where, monkeypatch, capsys):
    huge = "9" * 5000
    rec = json.loads(TEXT)
    if where == "scores":
        text = TEXT.replace('"players": ["Ann", "Bob"]', f'"players": ["Ann", "Bob"], "scores": [{huge}, 0]')
    elif where == "take":
        rec["actions"].append({"p": 1, "take": 1})
        text = json.dumps(rec).replace('"take": 1', f'"take": {huge}')
    elif where == "p":
        text = TEXT.replace('{"p": 0, "draw"', f'{{"p": {huge}, "draw"')
    elif where == "target":
        text = TEXT.replace('"preset": "standard"', f'"preset": "standard", "target": {huge}')
    else:
        text = TEXT.replace('"dealer": 1', f'"dealer": -{huge}')
    assert text != TEXT
    code, out, err = run_bytes(text.encode(), monkeypatch, capsys)
    assert_contract(code, out, err)
    assert code == 2 and "too large" in err


def test_a_running_total_near_the_limit_of_int_printing_is_refused_not_crashed(monkeypatch, capsys):
    rec = json.loads(TEXT)
    rec["scores"] = [0, int("9" * 4300)]  # seat 1 scores 5 more: its total would need 4301 digits
    rec["actions"] += [{"p": 1, "draw": "stock"}, {"p": 1, "meld": ["4H", "5H", "6H"]}, {"p": 1, "discard": "7S"},
                       {"p": 0, "pass": True}]
    code, out, err = run_bytes(json.dumps(rec).encode(), monkeypatch, capsys)
    assert_contract(code, out, err)
    assert code == 2 and "scores" in err


def test_numbers_within_the_json_safe_range_are_fine(monkeypatch, capsys):
    rec = json.loads(TEXT)
    rec["scores"] = [2**53 - 1, -(2**53 - 1)]
    code, out, err = run_bytes(json.dumps(rec).encode(), monkeypatch, capsys)
    assert_contract(code, out, err)
    assert code == 0 and json.loads(out)["totals"] == [2**53 - 1, -(2**53 - 1)]


# ------------------------------------------------------- one-line errors (item 6)
@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r["rules"].update(players="2\n"),
        lambda r: r["rules"].update(players=3),
        lambda r: r["rules"].update({"bad\noption": 1}),
        lambda r: r["rules"].update(preset="stan\r\ndard"),
        lambda r: r["actions"].append({"p": 1, "meld": ["4\nH", "5H", "6H"]}),
        lambda r: r["actions"].append({"p": 1, "fly\u2028away": True}),
        lambda r: r.update(players=["Ann\nBob", 3]),
        lambda r: r["deal"].update(stock=["Q\x85D"]),
    ],
    ids=["players-newline", "players-disagree", "option-name", "preset", "card", "verb", "names", "nel"],
)
def test_every_error_is_one_line_whatever_the_input(mutate, monkeypatch, capsys):
    rec = json.loads(TEXT)
    mutate(rec)
    code, out, err = run_bytes(json.dumps(rec).encode(), monkeypatch, capsys)
    assert_contract(code, out, err)
    assert code == 2


# ------------------------------------------------------------------ UTF-8 (item 7)
def test_invalid_utf8_is_refused_from_standard_input_and_from_a_file(tmp_path: Path, monkeypatch, capsys):
    bad = TEXT.replace('"Ann"', '"A\udcffnn"').encode("utf-8", "surrogateescape")  # a lone 0xFF byte in a name
    code, out, err = run_bytes(bad, monkeypatch, capsys)
    assert_contract(code, out, err)
    assert code == 2 and "UTF-8" in err
    path = tmp_path / "bad.json"
    path.write_bytes(bad)
    for args, stdin in (([str(path)], None), (["-"], bad)):
        proc = _cli(args, input=stdin)
        assert_contract(proc.returncode, proc.stdout.decode(), proc.stderr.decode())
        assert proc.returncode == 2 and b"UTF-8" in proc.stderr


def test_a_utf8_byte_order_mark_is_allowed_from_standard_input_and_from_a_file(tmp_path: Path, monkeypatch, capsys):
    data = b"\xef\xbb\xbf" + TEXT.encode()
    code, out, err = run_bytes(data, monkeypatch, capsys)
    assert_contract(code, out, err)
    assert code == 0
    path = tmp_path / "bom.json"
    path.write_bytes(data)
    proc = _cli([str(path)])
    assert_contract(proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert proc.returncode == 0


# ------------------------------------------------------- closed or full stdout (item 8)
def test_a_full_standard_output_gives_one_line_and_no_traceback(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(TEXT)
    with open("/dev/full", "wb") as full:
        proc = _cli([str(path)], stdout=full, stderr=subprocess.PIPE, capture=False)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err and "Exception ignored" not in err
    assert len(err.splitlines()) == 1 and "cannot write" in err


def test_a_closed_pipe_on_standard_output_gives_no_traceback(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**RECORD, "event": "x" * 200_000}))  # ignored field; the result is still written
    read, write = os.pipe()
    os.close(read)  # the reader (`| head -c0`) is gone before anything is written
    try:
        proc = _cli([str(path)], stdout=write, stderr=subprocess.PIPE, capture=False)
    finally:
        os.close(write)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err and "Exception ignored" not in err
    assert len(err.splitlines()) == 1 and "cannot write" in err


def test_a_closed_standard_output_gives_one_line_and_no_traceback(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(TEXT)
    proc = subprocess.run(
        [sys.executable, "-c", "import os, sys; os.close(1); from rummy500.cli import main; sys.exit(main(sys.argv[1:]))",
         "replay", str(path)],
        capture_output=False, stderr=subprocess.PIPE, timeout=60,
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err


def test_a_usage_error_is_one_line_too(monkeypatch, capsys):
    with pytest.raises(SystemExit) as info:
        replay_cmd.main(["a.json", "--indent", "many"])
    out, err = capsys.readouterr()
    assert info.value.code == 2 and out == "" and len(err.splitlines()) == 1 and "--indent" in err
