"""The terminal client (``rummy500 play``) as a player sees it: typed text, saving, sides, round ends, offers.

Each test drives the client through its input, like a person at a keyboard, and
checks the text it writes.
"""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
import rich  # noqa: F401  (the cli extra: a missing dependency fails, it does not skip)

from rummy500.actions import parse_action  # noqa: E402
from rummy500.cli import play  # noqa: E402
from rummy500.record import replay  # noqa: E402


def make_record(
    rules: dict[str, Any], hands: list[str], stock: str, discard: str, actions: list[str]
) -> dict[str, Any]:
    """A one-round record (as tests/rules/scenario.py writes them): the last seat deals, seat 0 plays first."""
    moves = []
    for spec in actions:
        seat, _, text = spec.partition(" ")
        moves.append({"p": int(seat), **parse_action(text).to_record()})
    deal = {"hands": [h.split() for h in hands], "stock": stock.split(), "discard": discard.split()}
    return {"rules": rules, "players": len(hands), "rounds": [{"dealer": len(hands) - 1, "deal": deal, "actions": moves}]}


def _run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = play.main(argv, inp=io.StringIO("".join(f"{x}\n" for x in lines)), out=out)
    return code, out.getvalue()


def _game(argv: list[str], inp: Any) -> tuple[play.Game, int, str]:
    """Build and run a game, keeping it (its match) for the checks."""
    out = io.StringIO()
    game = play.build(play.parser().parse_args(argv), inp=inp(out) if callable(inp) else inp, out=out)
    code = game.run()
    return game, code, out.getvalue()


class _Keyboard:
    """Lists the moves and plays the first on its turn, and lets every out-of-turn offer pass."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.listed = False

    def readline(self) -> str:
        if self.out.getvalue().endswith("call?> "):
            return "\n"
        self.listed = not self.listed  # 'moves', then the number of a move it listed
        return "moves\n" if self.listed else "1\n"


def _rows(text: str, name: str) -> list[list[str]]:
    """The cells of the score-table rows whose first cell starts with ``name``."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("│").split("│")]
        if len(cells) > 2 and cells[0].startswith(name):
            rows.append(cells)
    return rows


def _save(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


# 1. ------------------------------------------------------------ typed and supplied text


def test_typed_square_brackets_are_shown_never_read_as_markup(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    code, text = _run(
        ["--seed", "1", "--save", str(save), "--name", "[/x] :smile:"],
        ["d", "x [/]", "[red]hi", "discard [bold]", "quit"],
    )
    assert code == 0
    assert "your move> x [/]" in text  # the typed line, echoed as typed
    assert "unknown card '[/]'" in text
    assert "unknown action '[red]hi'" in text
    assert "unknown card '[bold]'" in text
    assert "[/x] :smile: to play" in text  # the name, brackets and emoji code as typed
    assert json.loads(save.read_text())["players"][0] == "[/x] :smile:"


def test_names_from_a_record_with_markup_are_printed_as_they_are(tmp_path: Path) -> None:
    record = _offer_record()
    record["players"] = ["[Ann]", "[/]Bob", "Cy [red]"]
    code, text = _run(["--load", str(_save(tmp_path, record)), "--seed", "1"], ["draw", "quit"])
    assert code == 0
    assert "#0 [Ann]: 5H 6H 7H" in text
    assert "[/]Bob: 4 cards" in text
    assert "it is not your turn: Cy [red] is to play" in text  # the engine's "seat 2", named


# 2. ------------------------------------------------------------------------- saving


def test_a_failed_save_names_the_path_and_the_reason_and_the_game_goes_on(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "x.json"
    save = tmp_path / "ok.json"
    code, text = _run(["--seed", "1", "--save", str(save)], [f"save {missing}", f"save {tmp_path}", "d", "quit"])
    assert code == 0
    assert f"Could not save the game to {missing}: No such file or directory." in text
    assert f"Could not save the game to {tmp_path}: Is a directory." in text
    assert "Your hand (14)" in text  # the draw after the failed saves was played
    assert f"Saved the game to {save}." in text
    assert replay(json.loads(save.read_text()))["ok"]


def test_a_save_option_that_can_never_be_written_is_refused_before_the_game(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    assert play.main(["--save", str(tmp_path / "nowhere" / "x.json")], inp=io.StringIO("")) == 2
    assert "cannot save to" in capsys.readouterr().err
    assert play.main(["--save", str(tmp_path)], inp=io.StringIO("")) == 2
    assert "is a directory" in capsys.readouterr().err


def test_quit_when_the_save_fails_says_so_and_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: str, text: str) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)

    monkeypatch.setattr(play, "_write_file", refuse)
    save = tmp_path / "g.json"
    code, text = _run(["--seed", "1", "--save", str(save)], ["quit"])
    assert code == 1
    assert f"Could not save the game to {save}: Permission denied." in text
    assert "The game could not be saved." in text
    assert "Bye" not in text


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_saving_to_a_full_device_is_a_message_not_a_traceback() -> None:
    code, text = _run(["--seed", "1", "--save", "/dev/full"], ["save", "quit"])
    assert code == 1
    assert text.count("Could not save the game to /dev/full: No space left on device.") == 2
    assert "The game could not be saved." in text


def test_a_failed_save_leaves_the_file_it_would_replace_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "g.json"
    save.write_text("the game saved before\n")

    def no_room(src: str, dst: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(play.os, "replace", no_room)
    code, text = _run(["--seed", "1", "--save", str(save)], ["save"])
    assert code == 1  # the end of input saves as quit does, and that save failed too
    assert f"Could not save the game to {save}: No space left on device." in text
    assert save.read_text() == "the game saved before\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]  # no half-written file left


def test_quit_never_overwrites_another_game_in_the_default_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("rummy500-save.json").write_text('{"another": "game"}\n')
    code, text = _run(["--seed", "1"], ["save", "d", "quit"])
    assert code == 0
    assert text.count("Saved the game to rummy500-save-2.json.") == 2  # 'save' alone and quit: the same fresh file
    assert "Bye - to go on with this game: rummy500 play --load rummy500-save-2.json" in text
    assert Path("rummy500-save.json").read_text() == '{"another": "game"}\n'
    code, text = _run(["--seed", "2"], ["quit"])
    assert "Saved the game to rummy500-save-3.json." in text


def test_a_resumed_game_is_saved_back_to_the_file_it_came_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _ = _run(["--seed", "8", "--save", "my game.json"], ["d"])
    assert code == 0
    before = json.loads(Path("my game.json").read_text())
    code, text = _run(["--load", "my game.json", "--seed", "8"], ["moves", "1", "moves", "1", "quit"])
    assert code == 0
    assert "Saved the game to my game.json." in text
    assert "Bye - to go on with this game: rummy500 play --load 'my game.json'" in text
    assert not Path("rummy500-save.json").exists()
    after = json.loads(Path("my game.json").read_text())
    assert sum(len(r["actions"]) for r in after["rounds"]) > sum(len(r["actions"]) for r in before["rounds"])


def test_the_resume_command_names_a_player_who_is_not_the_first_seat(tmp_path: Path) -> None:
    record = _went_out_record()
    record["players"] = ["Bob", "Ann Lee"]
    saved = _save(tmp_path, record)
    code, text = _run(["--load", str(saved), "--name", "Ann Lee", "--seed", "1"], ["quit"])
    assert code == 0
    assert f"rummy500 play --load {saved} --name 'Ann Lee'" in text


def test_ctrl_c_saves_like_quit(tmp_path: Path) -> None:
    class CtrlC(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    save = tmp_path / "c.json"
    out = io.StringIO()
    assert play.main(["--seed", "1", "--save", str(save)], inp=CtrlC(), out=out) == 0
    assert f"Saved the game to {save}." in out.getvalue()
    assert replay(json.loads(save.read_text()))["ok"]


# 3. ---------------------------------------------------------------- partnerships, bonus


def test_a_partnership_game_shows_the_sides_and_is_decided_on_side_totals(tmp_path: Path) -> None:
    argv = ["--preset", "partnership", "--rules", '{"target": 150}', "--opponents", "random", "--seed", "3"]
    game, code, text = _game(argv + ["--save", str(tmp_path / "p.json")], _Keyboard)
    assert code == 0
    m = game.match
    assert "Partnerships: side A (You & Random bot 2) against side B (Random bot 1 & Random bot 3)" in text
    assert "Random bot 2 (your partner):" in text
    assert _rows(text, "side A") and _rows(text, "side B")
    assert "Side totals: A (You & Random bot 2)" in text
    sides = m.side_totals()
    win = 0 if sides[0] > sides[1] else 1
    names = ["You & Random bot 2", "Random bot 1 & Random bot 3"]
    assert f"Game over. {names[win]} win with {sides[win]} against {sides[1 - win]}." in text
    assert f"Final totals: {names[win]} {sides[win]} (" in text
    assert "Totals: [" not in text


def test_persian_says_its_two_rounds_and_the_final_bonus(tmp_path: Path) -> None:
    argv = ["--preset", "persian", "--opponents", "random", "--seed", "2", "--save", str(tmp_path / "p.json")]
    game, code, text = _game(argv, _Keyboard)
    assert code == 0
    banner = text.splitlines()[0]
    assert banner.startswith("Rummy 500 - persian rules, 4 players, 2 rounds, final bonus +50")
    assert "target" not in banner
    assert "Round 1 of 2 over" in text and "Round 2 of 2 over" in text
    m = game.match
    assert m.bonus_to is not None
    side = m.rules.side_of(m.bonus_to)
    names = ["You & Random bot 2", "Random bot 1 & Random bot 3"]
    assert f"Final bonus: +50 to {names[side]} (the best total)." in text
    # The resumed game's banner names the preset again (the record keeps only the options).
    code, text = _run(["--load", str(tmp_path / "p.json")], [])
    assert text.startswith("Resuming a game - persian rules, 4 players, 2 rounds")


def test_the_banner_of_a_resumed_game_shows_its_real_rules(tmp_path: Path) -> None:
    save = tmp_path / "r.json"
    _run(["--preset", "popular", "--rules", '{"target": 300}', "--seed", "1", "--save", str(save)], ["quit"])
    code, text = _run(["--load", str(save)], ["quit"])
    assert text.startswith("Resuming a game - popular rules with target: 300, 2 players, target 300.")
    assert "standard rules" not in text


# 4. ------------------------------------------------------------------ the end of a round


def _went_out_record() -> dict[str, Any]:
    # Seat 0 draws the 9C, melds 5H 6H 7H and is left with the 9C to discard: it goes out.
    record = make_record({}, ["5H 6H 7H", "KS QS 2D"], "9C 3C 4C 5C", "8D", ["0 draw", "0 meld 5H 6H 7H"])
    record["players"] = ["Ann", "Bob"]
    return record


def test_the_end_of_a_round_shows_every_hand_the_points_and_who_went_out(tmp_path: Path) -> None:
    saved = _save(tmp_path, _went_out_record())
    code, text = _run(["--load", str(saved), "--save", str(tmp_path / "after.json"), "--seed", "1"], ["discard 9C", "quit"])
    assert code == 0
    assert "Round 1 over - Ann went out" in text
    # player, cards left, table points, hand points, round score, total
    assert _rows(text, "Ann") == [["Ann (out)", "-", "18", "0", "+18", "18"]]
    assert _rows(text, "Bob") == [["Bob", "2D QS KS", "0", "22", "-22", "-22"]]
    assert "Round score = table points - hand points" in text


def test_a_round_that_ends_on_the_stock_says_so(tmp_path: Path) -> None:
    record = make_record(
        {}, ["5H 6H 7H 9C", "KS QS 2D 4C"], "3S", "8D", ["0 draw", "0 discard 3S", "1 take 1", "1 discard 4C"]
    )
    record["players"] = ["Ann", "Bob"]
    saved = _save(tmp_path, record)
    code, text = _run(["--load", str(saved), "--save", str(tmp_path / "after.json"), "--seed", "1"], ["pass", "quit"])
    assert code == 0
    assert "Stock: 0 cards" in text
    assert "Round 1 over - the stock ran out and Ann passed: nobody went out" in text
    assert _rows(text, "Ann") == [["Ann", "9C 5H 6H 7H", "0", "27", "-27", "-27"]]
    assert _rows(text, "Bob") == [["Bob", "2D 3S QS KS", "0", "25", "-25", "-25"]]


# 5. ------------------------------------------------------------------ out-of-turn offers


def _offer_record() -> dict[str, Any]:
    # Bob discards the 9S; Cy is to draw, and Ann may call Rummy on the 8H, 3rd from the top (it fits her run).
    record = make_record(
        {"calling_rummy": "pile"},
        ["5H 6H 7H 2C 3D KC", "KS QS KD 4C", "4S 5S 9D JD"],
        "AC 9S AD AH 2S 3S 4D",
        "8H",
        ["0 draw", "0 meld 5H 6H 7H", "0 discard 2C", "1 draw", "1 discard 9S"],
    )
    record["players"] = ["Ann", "Bob", "Cy"]
    return record


def test_an_offer_shows_the_table_and_names_the_card_a_call_claims(tmp_path: Path) -> None:
    saved = _save(tmp_path, _offer_record())
    code, text = _run(
        ["--load", str(saved), "--save", str(tmp_path / "after.json"), "--seed", "1"], ["draw", "moves", "1", "quit"]
    )
    assert code == 0
    table, offer = text.split("You may play out of turn (Cy is to play):", 1)
    assert "Pile (top first, depth:card): 1:9S 2:2C 3:8H" in table  # resumed at an offer: the table first
    assert "Your hand (3): AC KC 3D" in table
    claim = "rummy 3 - Rummy! on the 8H (3rd from the top): you take 3 cards (9S 2C 8H) and must use the 8H"
    assert claim in offer
    assert "Not allowed: it is not your turn: Cy is to play" in offer
    assert "  1  " + claim in offer and "2  decline (let it pass)" in offer
    assert "  Ann: rummy 3" in offer  # the move number, echoed as the move it played
    assert "You must use the 8H this turn." in offer


def test_the_same_offer_again_in_one_turn_is_a_line_not_a_new_table(tmp_path: Path) -> None:
    argv = ["--rules", '{"meld_out_of_turn": true}', "--opponents", "random", "--seed", "4"]
    _, code, text = _game(argv + ["--save", str(tmp_path / "o.json")], _Keyboard)
    assert code == 0
    assert "You may play out of turn" in text
    assert "Still open to you out of turn:" in text
    for part in text.split("Still open to you out of turn:")[1:]:
        assert "(Enter to let it pass, 'table' to look)" in part.splitlines()[0]


# 6. ------------------------------------------------------------------------- the rest


def test_refused_options_and_files_exit_2(tmp_path: Path, capsys) -> None:  # noqa: ANN001 - pytest fixture
    assert play.main(["--hint-seconds", "-1"], inp=io.StringIO("")) == 2
    assert "--hint-seconds must be 0 or more, not -1" in capsys.readouterr().err
    assert play.main(["--hint-seconds", "nan"], inp=io.StringIO("")) == 2
    capsys.readouterr()
    for content in ("{}", "[]", '{"rules": {}, "players": 2, "rounds": []}'):
        path = _save(tmp_path, json.loads(content), "x.json")
        assert play.main(["--load", str(path)], inp=io.StringIO("")) == 2
        assert "is not a saved game" in capsys.readouterr().err or content == "[]"


def test_pile_numbers_from_zero_and_bare_verbs_are_explained(tmp_path: Path) -> None:
    code, text = _run(
        ["--seed", "1", "--save", str(tmp_path / "s.json")], ["take 0", "rummy 0", "meld", "d", "moves", "1", "quit"]
    )
    assert code == 0
    assert "take 0: the pile's cards are counted from 1, the top card (e.g. take 1)" in text
    assert "rummy 0: the pile's cards are counted from 1, the top card (e.g. rummy 1)" in text
    assert "meld: say which cards, e.g. meld 5H 6H 7H" in text
    assert "needs 'take' to be" not in text
    assert "  You: " in text.split("your move> 1", 1)[1]  # the numbered move, echoed


def test_whole_game_final_line_names_players_and_never_says_1_cards(tmp_path: Path) -> None:
    argv = ["--opponents", "random,random", "--seed", "5", "--rules", '{"target": 100}']
    game, code, text = _game(argv + ["--save", str(tmp_path / "g.json")], _Keyboard)
    assert code == 0
    m = game.match
    order = sorted(range(3), key=lambda s: -m.totals[s])
    assert "Final totals: " + ", ".join(f"{m.players[s]} {m.totals[s]}" for s in order) in text
    assert "Totals: [" not in text
    assert " 1 cards" not in text
    assert play._plural(1, "card") == "1 card" and play._plural(0, "card") == "0 cards"


def test_dealers_gambit_names_the_dealer_and_explains_the_nominations(tmp_path: Path) -> None:
    # Seed 6: the human deals the first hand.
    code, text = _run(
        ["--preset", "dealers_gambit", "--opponents", "random", "--seed", "6", "--save", str(tmp_path / "g.json")],
        ["help", "moves", "1", "quit"],
    )
    assert code == 0
    assert "- dealer: You" in text
    assert "You deal: say what jokers do this hand:" in text
    assert "nominate split - jokers are not wild; 'take N split'" in text
    assert "Dealer's Gambit (this game)" in text and "take N split (N >= 2) spends a joker" in text
    assert "Jokers this hand: wild (jokers are wild and worth 0)" in text
    # Nobody looks at their cards before the nomination (RULES.md); then the hand is shown.
    before, after = text.split("Jokers this hand: wild", 1)
    assert "Your hand: 13 cards, face down until the dealer has nominated" in before
    assert "Your hand (13): " in after and "Your hand (" not in before


def test_describe_rules_finds_the_preset_of_bare_options() -> None:
    from rummy500.rules import Rules

    assert play.describe_rules(Rules.from_mapping({"calling_rummy": "pile"})) == "popular rules"
    rules = Rules.from_mapping({"partnership": True, "players": 4, "target": 300})
    assert play.describe_rules(rules) == "partnership rules with target: 300"
