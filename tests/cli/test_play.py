"""The terminal client, driven end to end through its input like a person at a keyboard."""

from __future__ import annotations

import io
import json
from pathlib import Path

import rich  # noqa: F401  (the cli extra: a missing dependency fails, it does not skip)

from rummy500.cli import play  # noqa: E402
from rummy500.record import replay  # noqa: E402


def _run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = play.main(argv, inp=io.StringIO("".join(f"{x}\n" for x in lines)), out=out)
    return code, out.getvalue()


def test_a_whole_game_against_random_by_move_numbers(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # The scripted player always lists the moves and plays the first of the numbered list.
    code, text = _run(
        ["--opponents", "random", "--seed", "3", "--rules", '{"target": 100}', "--save", str(save), "--name", "Ann"],
        ["moves", "1"] * 3000,
    )
    assert code == 0
    assert "Game over." in text
    assert "Round 1 over" in text
    assert "Pile (top first" in text and "Your hand" in text
    result = replay(json.loads(save.read_text()))
    assert result["ok"] and result["winner"] is not None


def test_notation_shortcuts_help_and_explained_refusals(tmp_path: Path) -> None:
    code, text = _run(
        ["--opponents", "medium", "--seed", "5", "--save", str(tmp_path / "s.json")],
        ["help", "sort", "discard KS", "take 9", "x", "bogus words", "d", "moves", "99", "quit"],
    )
    assert code == 0
    assert "Moves (the record notation)" in text
    assert "Hand sorted by rank" in text
    assert "Not allowed: draw first" in text  # the engine's own explanation
    assert "discard pile has only" in text
    assert "unknown action" in text
    assert "there is no move 99" in text
    assert (tmp_path / "s.json").exists()


def test_hint_names_a_legal_move(tmp_path: Path) -> None:
    code, text = _run(["--opponents", "random", "--seed", "2", "--save", str(tmp_path / "h.json")], ["hint", "quit"])
    assert code == 0
    assert "hint (" in text and " bot):" in text  # the hint names the level that chose it


def test_a_discard_of_two_cards_may_name_them_in_either_order(tmp_path: Path) -> None:
    # discard_count: match_drawn after drawing two: the last card named ends on top of the pile, the next player's to take.
    save = tmp_path / "md.json"
    rules = '{"stock_draw_count": 2, "discard_count": "match_drawn"}'
    code, text = _run(["--opponents", "medium", "--seed", "1", "--rules", rules, "--save", str(save)], ["d", "discard QS KD", "quit"])
    assert code == 0 and "Not allowed" not in text
    actions = json.loads(save.read_text())["rounds"][0]["actions"]
    assert {"p": 0, "discard": ["QS", "KD"]} in actions  # in the order typed (the move list has KD QS)
    assert replay(json.loads(save.read_text()))["ok"]


def test_a_searched_hint_writes_its_move_once(tmp_path: Path) -> None:
    code, text = _run(["--opponents", "random", "--seed", "2", "--save", str(tmp_path / "h.json")], ["d", "hint", "quit"])
    assert code == 0
    line = next(x for x in text.splitlines() if x.startswith("hint ("))
    move, _, why = line.partition(" bot): ")[2].partition(" - ")
    assert move and why and not why.startswith(move)  # "meld 9D TD QD JK=JD - the first choice by rule of thumb, ..."


def test_a_hint_with_no_time_comes_from_the_quick_bot(tmp_path: Path) -> None:
    code, text = _run(
        ["--opponents", "random", "--seed", "2", "--hint-seconds", "0", "--save", str(tmp_path / "h.json")],
        ["hint", "quit"],
    )
    assert code == 0
    assert "hint (medium bot):" in text


def test_end_of_input_saves_and_load_resumes(tmp_path: Path) -> None:
    save = tmp_path / "resume.json"
    code, text = _run(["--opponents", "easy,random", "--seed", "8", "--save", str(save)], ["d", "moves", "1", "moves", "1", "d", "moves", "1"])
    assert code == 0
    assert f"Saved the game to {save}" in text
    first = json.loads(save.read_text())
    assert len(first["players"]) == 3
    moves_before = sum(len(r["actions"]) for r in first["rounds"])
    code, text = _run(["--load", str(save), "--save", str(save), "--seed", "8"], ["moves", "1"] * 40)
    assert code == 0
    again = json.loads(save.read_text())
    assert sum(len(r["actions"]) for r in again["rounds"]) > moves_before
    assert again["rounds"][0]["deal"] == first["rounds"][0]["deal"]
    assert replay(again)["ok"]


def test_bad_options_exit_2(capsys) -> None:  # noqa: ANN001 - pytest fixture
    assert play.main(["--opponents", "wizard"]) == 2
    assert "unknown bot level" in capsys.readouterr().err
    assert play.main(["--rules", '{"players": 1}']) == 2


def test_going_out_with_a_playable_card_left_in_the_pile_says_it_is_a_rummy(tmp_path: Path) -> None:
    from tests.rules.scenario import make_record

    # rummy_after_going_out: Ann's last card goes onto an 8H that fits her run.
    rules = {"calling_rummy": "pile", "rummy_after_going_out": True}
    record = make_record(rules, ["5H 6H 7H", "KD QD 2S"], "KS 2C QC JC", "8H", ["0 draw", "0 meld 5H 6H 7H"])
    saved = tmp_path / "before.json"
    saved.write_text(json.dumps(record))
    code, text = _run(["--load", str(saved), "--save", str(tmp_path / "after.json"), "--seed", "1"], ["discard KS", "quit"])
    assert code == 0
    assert "Rummy! Seat 0 left the 8H playable in the pile: not out, takes back KS" in text
    assert "Your hand (1): KS" in text.split("takes back KS", 1)[1]  # her turn again, the KS back in hand
