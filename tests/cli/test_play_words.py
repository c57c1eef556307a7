"""The terminal client's words, as a player sees them (the second terminal audit).

A --name that is a bot's name, a split of one card, a move of a rule the game does not play, a
move typed without its cards, and a Rummy call that skips you and another player. Each test drives
``rummy500 play`` through its input (or loads a position written as a record, the other seats
scripted) and checks the text it writes.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import rich  # noqa: F401  (the cli extra: a missing dependency fails, it does not skip)
from tests.rules.scenario import make_record  # noqa: E402

from rummy500.cli import play  # noqa: E402

from .test_play_variants import Scripted, _after, _play  # noqa: E402


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The width a terminal-less run gets, whatever the terminal that started the tests."""
    monkeypatch.setenv("COLUMNS", "100")


# ---------------------------------------------------------------- --name and the bots' names


@pytest.mark.parametrize("name", ["Medium bot 1", "medium BOT 1", "  Medium   bot 1 "])
def test_a_name_that_is_a_bots_name_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    save = tmp_path / "g.json"
    argv = ["--name", name, "--seed", "3", "--save", str(save)]
    assert play.main(argv, inp=io.StringIO("d\nquit\n"), out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err == (
        f'rummy500 play: --name "{name}" is the name of a bot in this game: choose another name'
        " (the bots are Medium bot 1)\n"
    )
    assert not save.exists()  # refused before the game starts


def test_a_name_clash_with_any_of_the_bots_is_refused_and_other_names_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--opponents", "easy,hard", "--seed", "3", "--save", str(tmp_path / "g.json")]
    assert play.main([*argv, "--name", "Hard bot 2"], inp=io.StringIO("quit\n"), out=io.StringIO()) == 2
    assert "(the bots are Easy bot 1 and Hard bot 2)" in capsys.readouterr().err
    out = io.StringIO()
    assert play.main([*argv, "--name", "Hard bot"], inp=io.StringIO("quit\n"), out=out) == 0
    assert "Scores: Hard bot 0 \u00b7 Easy bot 1 0 \u00b7 Hard bot 2 0" in out.getvalue()  # a name near a bot's plays


def test_the_docs_say_a_bots_name_is_refused() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "terminal.md").read_text()
    assert 'is the name of a bot in this game' in doc


# ---------------------------------------------------------------- a split of one card


def test_a_split_of_one_card_says_it_leaves_play(tmp_path: Path) -> None:
    record = make_record(
        {"dealers_gambit": True, "jokers": 2},
        ["JK 2H 2D 4D", "KS QS 9D 5C"],
        "8H 3C 4C",
        "9C 7H 2S 3D",
        ["1 nominate split"],
    )
    _, code, text = _play(tmp_path, record, ["moves", "take 2 split", "quit"])
    assert code == 0
    assert "take 2 split - spends a joker: only the 2S comes to hand; 3D leaves play for the hand" in text
    assert _after(text, "take 2 split") == "    The split spends a joker: only the 2S comes to hand; 3D leaves play for the hand"
    assert "3D leave play" not in text


# ---------------------------------------------------------------- a move of a rule not played


def test_a_swap_and_a_split_take_in_a_standard_game_are_refused_naming_their_rule(tmp_path: Path) -> None:
    record = make_record({}, ["5H 6H 7H 9C 2C", "KS QS 2D 4S"], "3C 4C 5C", "8H 5S", [])
    typed = ["swap 2C on 0", "take 2 split", "draw", "swap 2C on 0", "take 2 split", "quit"]
    _, code, text = _play(tmp_path, record, typed)
    assert code == 0
    answers = [line for line in text.splitlines() if line.startswith("Not allowed:")]
    swap = "Not allowed: joker swaps are not played in this game (joker_swap)"
    split = "Not allowed: a split take is a Dealer's Gambit rule, not played here"
    assert answers == [swap, split, swap, split]  # before the draw and after it alike
    assert "draw first" not in text and "nominated 'split'" not in text


# ---------------------------------------------------------------- moves typed without their cards


def test_rummy_meld_and_x_without_cards_get_the_form_to_type(tmp_path: Path) -> None:
    record = make_record(
        {"calling_rummy": "steal"}, ["5H 6H 7H 9C", "KS QS 2D 4S"], "2C 3C 4C 5C", "8H 5S", []
    )
    _, code, text = _play(tmp_path, record, ["rummy 1 meld", "rummy 2 meld", "x", "discard", "quit"])
    assert code == 0
    assert _after(text, "rummy 1 meld") == (
        "rummy 1 meld: say the cards to meld with the called card, e.g. rummy 1 meld TS JS QS  (type 'help' or 'moves')"
    )
    assert _after(text, "rummy 2 meld").startswith("rummy 2 meld: say the cards to meld with the called card, e.g. rummy 2 meld")
    assert _after(text, "x") == _after(text, "discard") == "discard: say which cards, e.g. discard KS  (type 'help' or 'moves')"
    assert "[]" not in text


# ---------------------------------------------------------------- a Rummy call that skips you and another


def test_a_call_that_skips_you_and_another_player_says_each_loses_a_turn(tmp_path: Path) -> None:
    # Seat 3 discarded and you are about to draw; Seat 2 calls on the 8H (6th from the top): you and Seat 1 are skipped.
    record = make_record(
        {"calling_rummy": "pile"},
        ["5H 6H 7H 9C 2C", "KS QS 2D 4S", "QC QH 3S 8S", "JD JC 4D 6S"],
        "3C 4C 5C 6C 7C 8C",
        "8H 5S",
        ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C", "1 draw", "1 discard 4S", "2 draw", "2 discard 3S", "3 draw", "3 discard 6S"],
    )
    _, code, text = _play(tmp_path, record, ["quit"], {2: Scripted("rummy 6", "layoff 8H on 0")})
    assert code == 0
    assert "    Seat 2 plays now: you and Seat 1 each lose a turn (play goes on after Seat 2)." in text
    assert "lose your turns" not in text
