"""The benchmark scripts with no test of their own run as a user runs them, and print their figures.

Tiny runs (a fraction of a second each): what is checked is that each script still works with
the engine as it is and prints the lines its documentation quotes, not the figures themselves.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from rummy500.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_env_speed_measures_ours_and_names_each_peer_it_cannot_load() -> None:
    out = _run("env_speed.py", "--seconds", "0.05", "--reps", "1")
    assert re.search(r"^rummy500 raw_env +\d+\.\d +\d+$", out, re.M)
    assert re.search(r"^rummy500 env\(\) \(PettingZoo wrappers\) +\d+\.\d +\d+$", out, re.M)
    # A peer is measured, or said not to be (installed without what it needs, or not at all).
    for peer in ("pettingzoo gin_rummy_v4", "rlcard gin-rummy env"):
        assert re.search(rf"^{re.escape(peer)}(: not measured \(.+\); pip install -e '\.\[bench\]'| +\d+\.\d +\d+)$", out, re.M)


def test_legal_trace_prints_one_fingerprint_per_preset() -> None:
    out = _run("legal_trace.py", "--rounds", "1")
    lines = dict(line.split() for line in out.splitlines() if line.strip())
    assert list(lines) == list(PRESETS) and len(lines) == len(out.split()) // 2  # every preset, each once
    assert all(re.fullmatch(r"[0-9a-f]{64}", digest) for digest in lines.values())
    assert out == _run("legal_trace.py", "--rounds", "1")  # a fingerprint: the same run, the same lines


def test_bot_tables_times_medium_at_each_number_of_tables() -> None:
    out = _run("bot_tables.py", "--tables", "1", "2", "--decisions", "5")
    rows = [line.split() for line in out.splitlines() if re.match(r"^\s+\d+\s+\d+\s", line)]
    assert [row[:2] for row in rows] == [["1", "5"], ["2", "5"]]
    assert rows[0][-1] == "1.00x"


def test_playout_spread_compares_streams_with_none() -> None:
    out = _run("playout_spread.py", "--rounds", "1", "--guesses", "3")
    assert re.search(r"^median spread +\d+\.\d +\d+\.\d$", out, re.M)
    assert "variance, with / without" in out


def test_casino_simulate_checks_the_exact_edge() -> None:
    out = _run("casino_simulate.py", "--hands", "500", "--jobs", "1")
    assert re.search(r"^exact \(optimal play\) +\d\.\d{4}%$", out, re.M)
    assert re.search(r"^500 rounds on 1 processes", out, re.M)
