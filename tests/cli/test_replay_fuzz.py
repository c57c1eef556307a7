"""Seeded fuzzing of ``rummy500 replay``: thousands of mutated real records, never a traceback.

The records are real: seeded bot games under several presets and options (one
round each, plus the deal of the next), and the public conformance cases.
Each mutant breaks one to three things -- a field set to a hostile value, a
key or list item dropped, actions swapped, repeated, cut or played by another
seat, an option changed, a card exchanged, or the bytes themselves damaged
(invalid UTF-8, a byte-order mark, a stray byte, a 5000-digit number, a
truncation). Every mutant is replayed in this process through the command's
own entry point (a few also as a real subprocess) and must keep the contract
of RECORD.md: exit 0 or 1 with one JSON object on standard output, or 2 with
exactly one line on standard error and nothing on standard output.

Everything is derived from :data:`SEED`, so a failure names the mutant's
index and its mutations, and reproduces.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import os
import random
import subprocess
import sys
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from rummy500.cli import replay_cmd
from rummy500.rules import Rules
from rummy500.sim.runner import play_game

SEED = 9_2026
MUTANTS = 3000
CONFORMANCE = (Path(__file__).resolve().parents[2] / ".." / "shared" / "conformance").resolve()

# (preset, options, bot level): every preset, and the options that change the record's shape.
GAMES: list[tuple[str, dict[str, Any], str]] = [
    ("standard", {}, "easy"),
    ("popular", {"players": 3}, "easy"),
    ("boathouse", {"discard_count": "match_drawn"}, "easy"),
    ("hoyle", {}, "easy"),
    ("quick", {"players": 5}, "easy"),
    ("partnership", {"calling_rummy": "steal"}, "easy"),
    ("persian", {}, "easy"),
    ("dealers_gambit", {"players": 3}, "easy"),
    ("standard", {"stock_out": "reshuffle", "joker_swap": True}, "random"),
    ("standard", {"going_out": "floating", "meld_out_of_turn": True, "first_meld_min": 30}, "easy"),
    ("popular", {"rummy_after_going_out": True, "rummy_card_value": 15}, "easy"),
]

HUGE = "__HUGE__"  # replaced in the JSON text by a 5000-digit number (Python could not even print it as an int)
NASTY: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 7, 99, 2**53, -(2**53), 1.5, -0.0, HUGE,
    "", "AS", "JK", "JK=7H", "10H", "1X", "as", "stock", "wild", "a\nb", "tab\there", "line\u2028sep", "\x85", "\udcff",
    [], {}, ["AS", "2S", "3S"], ["JK", "JK"], {"p": 0}, {"p": 0, "draw": "stock"}, [[[]]], "9" * 40,
]
OPTION_VALUES: dict[str, list[Any]] = {
    "players": [1, 2, 3, 4, 5, 7, 8, 9, "2\n"],
    "decks": ["auto", 1, 2, 3],
    "jokers": ["auto", 0, 1, 2, 4],
    "short_pack": [True, False],
    "hand_size": ["auto", 7, 13, 14],
    "first_discard": ["upcard", "first_player"],
    "direction": ["clockwise", "anticlockwise"],
    "calling_rummy": ["off", "pile", "top_card", "steal"],
    "discard_count": ["one", "match_drawn"],
    "stock_draw_count": [1, 2],
    "stock_out": ["end_round", "immediate", "reshuffle", "play_on"],
    "going_out": ["any", "discard_required", "floating", "unplayable_discard"],
    "dealers_gambit": [True, False],
    "partnership": [True, False],
    "joker_use": ["wild", "joker_sets_only"],
    "target": [1, 500, HUGE],
    "preset": ["standard", "persian", "dealers_gambit", "nope"],
    "first_meld_min": [0, 30, 1000],
    "must_use_taken": ["if_several", "always"],
}
CARDS = [r + s for r in "A23456789TJQK" for s in "CDHS"] + ["JK"]


@functools.cache
def base_records() -> tuple[str, ...]:
    """The real records the mutants start from, as JSON text (built once per test session)."""
    out = []
    for seed, (preset, options, level) in enumerate(GAMES):
        rules = Rules.preset_rules(preset, **options)
        game = play_game([level] * rules.players, rules, seed, keep_record=True, max_rounds=1)
        out.append(json.dumps(game.record))
    for path in sorted(CONFORMANCE.glob("*.json")):
        out.append(json.dumps(json.loads(path.read_text(encoding="utf-8"))["record"]))
    return tuple(out)


# ------------------------------------------------------------------ mutations
def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _parent(rec: Any, path: tuple) -> Any:
    for key in path[:-1]:
        rec = rec[key]
    return rec


def _rounds(rec: dict[str, Any]) -> list[dict[str, Any]]:
    if isinstance(rec.get("rounds"), list):
        return [r for r in rec["rounds"] if isinstance(r, dict) and isinstance(r.get("actions"), list)]
    return [rec] if isinstance(rec.get("actions"), list) else []


def _mutate_tree(rec: Any, rng: random.Random) -> str:
    """Change ``rec`` in place; return what was done."""
    kind = rng.choice(["set", "set", "delete", "insert", "actions", "actions", "option", "card", "cut"])
    if not isinstance(rec, dict):
        kind = "set"
    if kind in ("actions", "cut"):
        rounds = _rounds(rec)
        if not rounds or not any(r["actions"] for r in rounds):
            kind = "set"
        else:
            r = rng.choice([r for r in rounds if r["actions"]])
            acts = r["actions"]
            i = rng.randrange(len(acts))
            if kind == "cut":
                del acts[i:]
                if "rounds" in rec:  # the rounds after an unfinished one would make the record malformed
                    del rec["rounds"][rec["rounds"].index(r) + 1 :]
                return f"cut the actions at {i}"
            how = rng.choice(["swap", "repeat", "drop", "seat", "move"])
            if how == "swap" and i + 1 < len(acts):
                acts[i], acts[i + 1] = acts[i + 1], acts[i]
            elif how == "repeat":
                acts.insert(i, copy.deepcopy(acts[i]))
            elif how == "drop":
                del acts[i]
            elif how == "seat" and isinstance(acts[i], dict):
                acts[i]["p"] = rng.randrange(-1, 9)
            else:
                acts.insert(rng.randrange(len(acts) + 1), acts.pop(i))
            return f"actions: {how} at {i}"
    if kind == "option":
        rules = rec.setdefault("rules", {})
        if not isinstance(rules, dict):
            rec["rules"] = rules = {}
        name = rng.choice(sorted(OPTION_VALUES))
        rules[name] = rng.choice(OPTION_VALUES[name])
        return f"option {name}={rules[name]!r}"
    paths = _paths(rec)
    if kind == "card":
        spots = [p for p in paths if p and isinstance(_parent(rec, p)[p[-1]], str) and len(_parent(rec, p)[p[-1]]) <= 5]
        if spots:
            p = rng.choice(spots)
            _parent(rec, p)[p[-1]] = rng.choice(CARDS)
            return f"card at {p}"
        kind = "set"
    path = rng.choice(paths[1:] or paths)
    if not path:
        return "nothing"
    parent = _parent(rec, path)
    if kind == "delete":
        del parent[path[-1]]
        return f"delete {path}"
    value = copy.deepcopy(rng.choice(NASTY))
    if kind == "insert" and isinstance(parent, list):
        parent.insert(path[-1], value)
        return f"insert {value!r} at {path}"
    parent[path[-1]] = value
    return f"set {path} = {value!r}"


def _mutate_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(["bom", "byte", "invalid", "truncate", "huge", "newline"])
    i = rng.randrange(len(data) + 1)
    if kind == "bom":
        return b"\xef\xbb\xbf" + data, "byte-order mark"
    if kind == "byte":
        return data[:i] + bytes([rng.randrange(256)]) + data[i + 1 :], f"byte at {i}"
    if kind == "invalid":
        return data[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]) + data[i:], f"bad UTF-8 at {i}"
    if kind == "truncate":
        return data[:i], f"truncated at {i}"
    if kind == "huge":
        digits = [j for j, b in enumerate(data) if 48 <= b <= 57]
        if digits:
            j = rng.choice(digits)
            return data[:j] + b"7" * 5000 + data[j:], f"5000 digits at {j}"
    j = data.find(b'"', i)
    return (data[: j + 1] + b"\n" + data[j + 1 :], f"raw newline at {j}") if j >= 0 else (data, "unchanged")


def mutant(index: int) -> tuple[bytes, str]:
    """The index-th mutant and the list of its mutations (all from SEED)."""
    rng = random.Random(f"{SEED}:{index}")
    bases = base_records()
    rec = json.loads(bases[rng.randrange(len(bases))])
    done = [_mutate_tree(rec, rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    data = json.dumps(rec, ensure_ascii=rng.random() < 0.5).replace(f'"{HUGE}"', "9" * 5000)
    raw = data.encode("utf-8", "surrogatepass")  # a lone surrogate becomes bytes no UTF-8 reader accepts
    if rng.random() < 0.15:
        raw, how = _mutate_bytes(raw, rng)
        done.append(how)
    return raw, "; ".join(done)


# --------------------------------------------------------------------- running
def run_in_process(data: bytes) -> tuple[int, str, str]:
    """``rummy500 replay -`` through its entry point, with ``data`` as the bytes of standard input."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
    sys.stdout, sys.stderr = out, err
    try:
        code = replay_cmd.main(["-"])
    except SystemExit as exc:
        code = exc.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def contract_breaks(code: Any, out: str, err: str) -> str | None:
    """What the result breaks of the replay contract, or None."""
    if code not in (0, 1, 2):
        return f"exit status {code!r}"
    if "Traceback" in err:
        return "a traceback"
    if code == 2:
        if out:
            return "output on standard output with exit 2"
        if not err.startswith("rummy500 replay: ") or len(err.splitlines()) != 1 or not err.endswith("\n"):
            return f"not one error line: {err!r}"
        return None
    if err:
        return f"standard error with exit {code}: {err!r}"
    if len(out.splitlines()) != 1:
        return "not one line of JSON"
    result = json.loads(out)
    if result["ok"] is not (code == 0):
        return f"ok={result['ok']} with exit {code}"
    if code == 1 and set(result["error"]) != {"round", "action", "message"}:
        return f"error object {result['error']!r}"
    return None


def test_the_fuzz_corpus_is_real_records_that_replay_cleanly():
    bases = base_records()
    assert len(bases) == len(GAMES) + len(list(CONFORMANCE.glob("*.json")))
    assert len(list(CONFORMANCE.glob("*.json"))) >= 14, f"the conformance cases are missing from {CONFORMANCE}"
    codes = Counter(run_in_process(text.encode())[0] for text in bases)
    assert codes[0] >= len(GAMES)  # every bot game is legal from end to end


def test_thousands_of_mutated_records_keep_the_replay_contract():
    failures: list[str] = []
    codes: Counter[int] = Counter()
    for i in range(MUTANTS):
        data, how = mutant(i)
        try:
            code, out, err = run_in_process(data)
        except Exception:  # noqa: BLE001 - the point is to report any escape with the mutant that caused it
            failures.append(f"#{i} ({how}): raised {traceback.format_exc(limit=-3)}")
            continue
        codes[code] += 1
        broken = contract_breaks(code, out, err)
        if broken:
            failures.append(f"#{i} ({how}): {broken}")
    assert not failures, f"{len(failures)} of {MUTANTS} mutants break the contract:\n" + "\n".join(failures[:10])
    # The mutants reach every outcome, each in numbers: the fuzz is not all "not JSON".
    assert min(codes[0], codes[1], codes[2]) >= MUTANTS // 20, codes


def test_a_few_mutants_give_the_same_result_through_a_real_process():
    env = {**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": ""}
    seen: set[int] = set()
    picked = []
    for i in range(200):
        data, _ = mutant(i)
        code = run_in_process(data)[0]
        if code not in seen or (code == 2 and len(picked) < 4 and not data.isascii()):
            seen.add(code)
            picked.append((i, data))
        if len(picked) == 4:
            break
    assert len(seen) == 3
    for i, data in picked:
        proc = subprocess.run([sys.executable, "-m", "rummy500", "replay", "-"], input=data, capture_output=True,
                              env=env, timeout=60)
        code, out, err = run_in_process(data)
        assert (proc.returncode, proc.stdout.decode(), proc.stderr.decode()) == (code, out, err), f"mutant #{i}"
