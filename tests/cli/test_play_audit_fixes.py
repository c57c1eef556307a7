"""The terminal client's audit fixes, as a player sees them: saved finished games, running scores,
control characters in names, the demo's refusals and words, draws, sorting, narrow terminals, saves.

Each test drives ``rummy500 play`` (or ``demo``, ``review``) through its input, like a person at a
keyboard, and checks the text it writes, the files it leaves and its exit status.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
import rich  # noqa: F401  (the cli extra: a missing dependency fails, it does not skip)

from rummy500.actions import parse_action  # noqa: E402
from rummy500.cli import main as rummy500  # noqa: E402
from rummy500.cli import play  # noqa: E402
from rummy500.record import replay  # noqa: E402

from .test_play_terminal import make_record  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EVIL = "Bob\x1b[2J\x1b[31mEVIL\nYour hand (13): AS AH AD\r\x9b"


def went_out_record(rules: dict[str, Any] | None = None, names: tuple[str, ...] = ("Ann", "Bob")) -> dict[str, Any]:
    """Ann has drawn the 9C and melded 5H 6H 7H: ``discard 9C`` goes out (18 for her, -22 for Bob)."""
    hands = ["5H 6H 7H", "KS QS 2D", "JD JC 4S"][: len(names)]
    record = make_record(rules or {}, hands, "9C 3C 4C 5C", "8D", ["0 draw", "0 meld 5H 6H 7H"])
    record["players"] = list(names)
    return record


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The width a terminal-less run gets, whatever the terminal that started the tests."""
    monkeypatch.setenv("COLUMNS", "80")


def _cells(text: str) -> list[list[str]]:
    """The cells of every table row in ``text``."""
    return [[c.strip() for c in line.strip().strip("│").split("│")] for line in text.splitlines() if line.startswith("│")]


def _save(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


def _run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = play.main(argv, inp=io.StringIO("".join(f"{x}\n" for x in lines)), out=out)
    return code, out.getvalue()


class _Keyboard:
    """Lists the moves and plays the first on its turn, lets every offer pass; types ``lines`` once ``when`` is on screen."""

    def __init__(self, out: io.StringIO, when: str | None = None, lines: tuple[str, ...] = ()) -> None:
        self.out = out
        self.when = when
        self.lines = list(lines)
        self.listed = False

    def readline(self) -> str:
        text = self.out.getvalue()
        if self.lines and (self.when is None or self.when in text):
            return self.lines.pop(0) + "\n"
        if text.endswith("call?> ") or text.endswith("save to?> "):
            return "\n"
        self.listed = not self.listed  # 'moves', then the number of a move it listed
        return "moves\n" if self.listed else "1\n"


def _game(argv: list[str], when: str | None = None, lines: tuple[str, ...] = ()) -> tuple[play.Game, int, str]:
    out = io.StringIO()
    game = play.build(play.parser().parse_args(argv), inp=_Keyboard(out, when, lines), out=out)  # type: ignore[arg-type]
    code = game.run()
    return game, code, out.getvalue()


# 1. ------------------------------------------------------------- a finished game is kept


def test_a_finished_game_is_saved_by_default_and_says_how_to_replay_and_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("rummy500-save.json").write_text('{"another": "game"}\n')  # never overwritten
    game, code, text = _game(["--opponents", "random", "--seed", "5", "--rules", '{"target": 100}'])
    assert code == 0
    assert "Game over." in text
    last = text.rstrip("\n").splitlines()[-1]
    assert last == (
        "Game saved to rummy500-save-2.json \u2014 replay: rummy500 replay rummy500-save-2.json,"
        " review: rummy500 review rummy500-save-2.json"
    )
    assert Path("rummy500-save.json").read_text() == '{"another": "game"}\n'
    result = replay(json.loads(Path("rummy500-save-2.json").read_text()))
    assert result["ok"] and result["winner"] is not None
    assert result["totals"] == game.match.totals


def test_save_still_chooses_where_a_finished_game_goes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    saved = _save(tmp_path, went_out_record({"target": 10}), "before.json")
    code, text = _run(["--load", str(saved), "--save", "my game.json", "--seed", "1"], ["discard 9C"])
    assert code == 0
    assert "Game over. Ann wins with 18." in text
    assert "Game saved to my game.json \u2014 replay: rummy500 replay 'my game.json', review: rummy500 review 'my game.json'" in text
    assert replay(json.loads(Path("my game.json").read_text()))["winner"] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["before.json", "my game.json"]


def test_play_help_says_where_games_are_saved_and_where_the_commands_are(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        play.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "The game is saved when you quit and when it ends" in text
    assert "type 'help' for the moves and commands" in text and "docs/terminal.md" in text


# 2. ------------------------------------------------------------------ the running totals


def test_the_table_shows_the_running_totals_and_scores_prints_the_sheet(tmp_path: Path) -> None:
    record = went_out_record()
    record["scores"] = [48, 278]  # the game started with these totals
    saved = _save(tmp_path, record)
    code, text = _run(["--load", str(saved), "--save", str(tmp_path / "after.json"), "--seed", "1"],
                      ["score", "discard 9C", "scores", "quit"])
    assert code == 0
    before, after = text.split("your move> discard 9C", 1)
    assert "  Scores: Ann 48 \u00b7 Bob 278 (to 500)" in before
    assert "No round is over yet." in before and "Totals: Ann 48, Bob 278" in before
    assert "  Scores: Ann 66 \u00b7 Bob 256 (to 500)" in after  # 48 + 18, 278 - 22
    sheet = after.split("your move> scores", 1)[1]
    rows = _cells(sheet)
    assert rows == [
        ["start", "48", "278"],
        ["1", "+18*", "-22"],
        ["total", "66", "256"],
    ]
    assert "*: went out (a round with no * ended when the stock ran out)." in sheet
    assert "Round 2 is being played." in sheet
    assert "scores     the score sheet so far" in play.HELP


def test_partnerships_show_side_totals_and_fixed_rounds_the_rounds_left(tmp_path: Path) -> None:
    code, text = _run(["--preset", "persian", "--opponents", "random", "--seed", "2", "--save", str(tmp_path / "p.json")],
                      ["scores", "quit"])
    assert code == 0
    assert (
        "  Scores: side A (You & Random bot 2) 0 \u00b7 side B (Random bot 1 & Random bot 3) 0"
        " (round 1 of 2: 1 more round after this)"
    ) in text
    assert "Side totals: A (You & Random bot 2) 0, B (Random bot 1 & Random bot 3) 0" in text


def test_the_score_sheet_of_a_partnership_game_in_its_second_round(tmp_path: Path) -> None:
    argv = ["--preset", "partnership", "--rules", '{"target": 5000}', "--opponents", "random", "--seed", "3"]
    game, code, text = _game(argv + ["--save", str(tmp_path / "p.json")], "Round 2 - ", ("scores", "quit"))
    assert code == 0
    m = game.match
    first = m.rounds[0].round_scores
    assert first is not None
    sheet = text.split("your move> scores", 1)[1]
    rows = _cells(sheet)
    side_a, side_b = first[0] + first[2], first[1] + first[3]
    out = m.rounds[0].went_out
    marked = [f"{v:+d}" + ("*" if s == out else "") for s, v in enumerate(first)]
    assert rows == [
        ["1", *marked, f"{side_a:+d}", f"{side_b:+d}"],
        ["total", *(str(v) for v in m.totals), str(side_a), str(side_b)],
    ]
    assert f"Scores: side A (You & Random bot 2) {side_a} \u00b7 side B (Random bot 1 & Random bot 3) {side_b}" in text


# 3. ------------------------------------------------------------- nothing reaches the terminal raw


def _no_controls(text: str) -> None:
    assert not [ch for ch in text if ch != "\n" and not ch.isprintable()], "a control character was printed"


def test_control_characters_in_names_and_typed_text_are_written_out(tmp_path: Path) -> None:
    saved = _save(tmp_path, went_out_record(names=("Ann", EVIL)))
    code, text = _run(["--load", str(saved), "--save", str(tmp_path / "after.json"), "--seed", "1"],
                      ["table\x1b[2J", "discard 9C", "quit"])
    assert code == 0
    _no_controls(text)
    assert "Bob\\x1b[2J\\x1b[31mEVIL\\nYour hand (13): AS AH AD\\r\\x9b: 3 cards" in text
    assert not any(line.startswith("Your hand (13)") for line in text.splitlines())
    assert "your move> table\\x1b[2J" in text  # the typed line, echoed, written out
    assert "unknown action 'table\\x1b[2J'" in text


def test_control_characters_in_the_players_own_name_are_written_out(tmp_path: Path) -> None:
    code, text = _run(["--seed", "1", "--name", "Z\x1b]0;p\x07", "--save", str(tmp_path / "z.json")], ["quit"])
    assert code == 0
    _no_controls(text)
    assert "Round 1 - Z\\x1b]0;p\\x07 to play (draw)" in text


def test_review_writes_out_control_characters_in_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "300")  # no cell folded: the name on one line
    record = went_out_record({"target": 10}, names=("Ann", EVIL))
    record["rounds"][0]["actions"].append({"p": 0, **parse_action("discard 9C").to_record()})
    saved = _save(tmp_path, record)
    assert rummy500(["review", str(saved), "--budget", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    _no_controls(out)
    assert "Bob\\x1b[2J\\x1b[31mEVIL\\nYour hand (13): AS AH AD\\r\\x9b" in out
    assert not any(line.startswith("Your hand (13)") for line in out.splitlines())


def test_review_of_a_missing_file_says_so_as_replay_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "missing.json")
    assert rummy500(["replay", missing]) == 2
    replay_err = capsys.readouterr().err
    assert rummy500(["review", missing]) == 2
    review_err = capsys.readouterr().err
    assert review_err == f"rummy500 review: cannot read {missing!r}: No such file or directory\n"
    assert replay_err == "rummy500 replay: " + review_err.removeprefix("rummy500 review: ")


# 4. --------------------------------------------------------------------------- the demo


def test_demo_refuses_an_unknown_bot_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert rummy500(["demo", "--bot", "hrad", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "rummy500 demo: unknown bot level hrad (levels: random, easy, medium, hard, expert)\n"
    assert rummy500(["demo", "--preset", "nope"]) == 2
    assert capsys.readouterr().err.startswith("rummy500 demo: unknown preset 'nope'")


def test_demo_explains_its_options_and_ends_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        rummy500(["demo", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for option, words in (("--preset PRESET", "the rules preset"), ("--players N", "players at the table"),
                          ("--seed S", "seed of the deal"), ("--bot LEVEL", "the bot level of every seat")):
        assert f"{option} {words}" in help_text
    assert rummy500(["demo", "--seed", "1", "--bot", "medium"]) == 0
    last = capsys.readouterr().out.rstrip("\n").splitlines()[-1]
    assert re.fullmatch(
        r"Round over: (seat [01] went out|the stock ran out: nobody went out)\. Round scores: seat 0 [+-]\d+, seat 1 [+-]\d+\.",
        last,
    ), last


# 5. ---------------------------------------------------------------------------- draws


def test_you_are_told_which_cards_you_drew_and_never_what_the_others_drew(tmp_path: Path) -> None:
    # Seed 6: you deal, so the bot draws first.
    argv = ["--rules", '{"stock_draw_count": 2}', "--opponents", "random", "--seed", "6"]
    _, code, text = _game(argv + ["--save", str(tmp_path / "d.json")], None, ("draw", "quit"))
    assert code == 0
    drew = re.findall(r"^  You drew (\S+) (\S+)$", text, re.M)
    assert len(drew) == 1
    before, after = text.split("  You drew", 1)
    assert set(_hands(after)[0]) - set(_hands(before)[-1]) == set(drew[0])
    assert "Random bot 1: draw" in before  # the bot drew first: how many cards, never which
    assert text.count(" drew ") == 1


# 6. ------------------------------------------------------------------------------ sort


def _hands(text: str) -> list[list[str]]:
    return [m.split() for m in re.findall(r"Your hand \(\d+\): (.*)", text)]


def test_sort_suit_and_sort_rank_sort_that_way_and_a_bad_word_is_refused(tmp_path: Path) -> None:
    rank = "A23456789TJQK"
    code, text = _run(["--seed", "1", "--save", str(tmp_path / "s.json")],
                      ["sort rank", "sort rank", "sort bogus", "sort suit", "sort suit", "sort", "quit"])
    assert code == 0
    assert "sort bogus: say 'sort suit' or 'sort rank' (or 'sort' alone to switch)" in text
    said = re.findall(r"Hand sorted by (\w+)\.", text)
    assert said == ["rank", "rank", "suit", "suit", "rank"]
    hands = _hands(text)[1:]  # after the first table
    assert len(hands) == 5
    by_rank = [c for c in hands[0] if c != "JK"]
    assert [rank.index(c[0]) for c in by_rank] == sorted(rank.index(c[0]) for c in by_rank)
    assert hands[1] == hands[0] and hands[4] == hands[0]
    suits = [c[1] for c in hands[2] if c != "JK"]
    assert suits == sorted(suits, key="CDHS".index)
    assert hands[3] == hands[2]


# 7. ------------------------------------------------------------------------ 40 columns


def test_a_40_column_terminal_gets_a_stacked_round_end_and_a_short_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    saved = _save(tmp_path, went_out_record(names=("Annabelle Lee", "Bob the Builder")))
    code, text = _run(["--load", str(saved), "--save", str(tmp_path / "after.json"), "--seed", "1"],
                      ["discard 9C", "scores", "quit"])
    assert code == 0
    assert "\u2026" not in text  # nothing cut short
    assert "Annabelle Lee to play (play) - dealer: Bob the Builder" in text
    assert "Round 1 over - Annabelle Lee went out" in text
    assert "  Annabelle Lee (out): table 18, hand 0, round +18, total 18" in text
    assert "  Bob the Builder: table 0, hand 22, round -22, total -22" in text
    assert "    cards left: 2D QS KS" in text
    assert "  Round 1: Annabelle Lee +18, Bob the Builder -22 (Annabelle Lee went out)" in text
    for line in text.splitlines():
        if line.startswith(("\u2500", "\u2501")):  # the rules drawn across the screen fit in 40 columns
            assert len(line) <= 40


# 8. ---------------------------------------------------------------------- the small ones


def _refusing(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    """Make every save to a file named ``bad`` fail as a full disk does."""
    write = play._write_file

    def refuse(path: str, text: str) -> None:
        if os.path.basename(path) == bad:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
        write(path, text)

    monkeypatch.setattr(play, "_write_file", refuse)


def test_a_failed_save_on_quit_asks_for_another_file_or_goes_back_to_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _refusing(monkeypatch, "full.json")
    save, other = tmp_path / "full.json", tmp_path / "other.json"
    code, text = _run(["--seed", "1", "--save", str(save)], ["quit", "", "d", "quit", str(other)])
    assert code == 0
    assert text.count(f"Could not save the game to {save}: No space left on device.") == 2
    assert "Back to the game (the game is not saved)." in text
    assert "  You drew " in text  # the game went on after the first failed save
    assert f"Saved the game to {other}." in text
    assert f"Bye - to go on with this game: rummy500 play --load {other}" in text
    assert sum(len(r["actions"]) for r in json.loads(other.read_text())["rounds"]) == 1


def test_a_finished_game_whose_save_fails_asks_for_another_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _refusing(monkeypatch, "full.json")
    saved = _save(tmp_path, went_out_record({"target": 10}), "full.json")
    code, text = _run(["--load", str(saved), "--seed", "1"], ["discard 9C", str(tmp_path / "kept.json")])
    assert code == 0
    assert "save to?>" in text
    assert f"Game saved to {tmp_path / 'kept.json'} \u2014 replay:" in text
    assert replay(json.loads((tmp_path / "kept.json").read_text()))["winner"] == 0


def test_layoff_on_a_meld_written_as_the_table_labels_it(tmp_path: Path) -> None:
    record = make_record({}, ["5H 6H 7H 8H 9C", "KS QS 2D 4C"], "3C 4D 5S", "8D", ["0 draw", "0 meld 5H 6H 7H"])
    saved = _save(tmp_path, record)
    code, text = _run(["--load", str(saved), "--save", str(tmp_path / "a.json"), "--seed", "1"], ["layoff 8h on #0", "quit"])
    assert code == 0
    assert "#0 Seat 0: 5H 6H 7H 8H" in text.split("layoff 8h on #0", 1)[1]
    actions = json.loads((tmp_path / "a.json").read_text())["rounds"][0]["actions"]
    assert actions[-1] == {"p": 0, "layoff": ["8H"], "on": 0}


def test_save_expands_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    code, text = _run(["--seed", "1", "--save", str(tmp_path / "q.json")], ["save ~/g.json", "quit"])
    assert code == 0
    assert f"Saved the game to {tmp_path / 'g.json'}." in text
    assert replay(json.loads((tmp_path / "g.json").read_text()))["ok"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "q.json"]  # no folder named ~


@pytest.mark.parametrize(
    ("names", "words"),
    [(("Ann", "Bob"), "the other player's cards"), (("Ann", "Bob", "Cy"), "the other players' cards")],
)
def test_scoring_notes_name_players_outside_partnerships(tmp_path: Path, names: tuple[str, ...], words: str) -> None:
    saved = _save(tmp_path, went_out_record({"hand_penalty": "to_goer"}, names=names))
    code, text = _run(["--load", str(saved), "--save", str(tmp_path / "a.json"), "--seed", "1"], ["discard 9C", "quit"])
    assert code == 0
    assert f"Round score = table points; Ann also scores {words} left in hand." in text
    assert "side" not in text.split("Round 1 over", 1)[1].split("your move>", 1)[0]


def test_more_opponent_levels_than_seats_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert play.main(["--opponents", "easy,medium,hard", "--rules", '{"players": 3}'], inp=io.StringIO("")) == 2
    err = capsys.readouterr().err
    assert err == (
        "rummy500 play: --opponents names 3 bot levels (easy, medium, hard) but the game has 3 players:"
        " 2 other seats (give at most 2 levels, or more players in --rules)\n"
    )
    assert play.main(["--opponents", ",".join(["easy"] * 8)], inp=io.StringIO("")) == 2
    assert "but the game has 8 players: 7 other seats" in capsys.readouterr().err


def test_the_docs_list_every_command_and_option_of_the_terminal_client() -> None:
    doc = (ROOT / "docs" / "terminal.md").read_text()
    commands = play.HELP.split("Commands:", 1)[1].split("When you may", 1)[0]
    for word in re.findall(r"^  (\w+)", commands, re.M):
        assert f"`{word}" in doc, word
    options = set(re.findall(r"--[a-z-]+", play.parser().format_usage())) - {"--help"}
    assert {"--name", "--save", "--load", "--opponents"} <= options
    readme = (ROOT / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `rummy500 play "))
    for option in options:
        assert option in doc, option
        assert option in row, option
