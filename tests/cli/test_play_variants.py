"""The terminal client under house rules, as a player sees it (the audit of rule-specific decisions).

Each test loads a position written as a record (tests/rules/scenario.py) and types moves at it like
a person at the keyboard. The other seats are scripted (they play what the test names, else their
first legal move, and let every offer pass), so what is shown does not hang on any bot's strategy.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import rich  # noqa: F401  (the cli extra: a missing dependency fails, it does not skip)
from tests.rules.scenario import make_record  # noqa: E402

from rummy500.actions import Action, Decline, Draw, parse_action  # noqa: E402
from rummy500.bots.hinting import Hint  # noqa: E402
from rummy500.cli import play  # noqa: E402
from rummy500.record import match_from_record, replay  # noqa: E402
from rummy500.views import View  # noqa: E402


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The width a terminal-less run gets, whatever the terminal that started the tests."""
    monkeypatch.setenv("COLUMNS", "100")


class Scripted:
    """A seat that plays the first of ``plays`` that is legal, else lets an offer pass, else its first legal move."""

    def __init__(self, *plays: str) -> None:
        self.plays: list[Action] = [parse_action(p) for p in plays]

    def act(self, view: View, rng: object) -> Action:
        for a in self.plays:
            if a in view.legal:
                return a
        if Decline() in view.legal:
            return Decline()
        return view.legal[0]


def _play(
    tmp_path: Path, record: dict[str, Any], lines: list[str], bots: dict[int, Scripted] | None = None
) -> tuple[play.Game, int, str]:
    """Load ``record``, seat 0 at the keyboard typing ``lines``; returns the game, the exit status and the screen."""
    match = match_from_record(record)
    match.continue_play()
    out = io.StringIO()
    others = bots or {}
    seats = {s: others.get(s, Scripted()) for s in range(1, match.rules.players)}
    game = play.Game(
        match,
        0,
        seats,  # type: ignore[arg-type]
        inp=io.StringIO("".join(f"{x}\n" for x in lines)),
        out=out,
        seed=1,
        save_path=str(tmp_path / "game.json"),
        hint_seconds=0,
    )
    code = game.run()
    return game, code, out.getvalue()


def _after(text: str, typed: str) -> str:
    """The line the client answered ``typed`` with."""
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.endswith("> " + typed))
    return lines[i + 1]


# ---------------------------------------------------------------- must_go_out_to_win


def _going_out(scores: list[int]) -> dict[str, Any]:
    """You go out by 'draw', 'layoff 4H on 0', 'discard 2C'; Bob has melded kings and aces but holds 3C 4D."""
    record = make_record(
        {"must_go_out_to_win": True},
        ["5H 6H 7H 2C", "KS KH KD AS AH AD 3C 4D"],
        "9C 9D 4H 8S 8C 7C 6C 5C",
        "TS",
        ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C", "1 draw", "1 meld KS KH KD", "1 meld AS AH AD", "1 discard 9D"],
        scores=scores,
    )
    record["players"] = ["You", "Bob"]
    return record


def test_must_go_out_says_why_a_total_over_the_target_does_not_win(tmp_path: Path) -> None:
    game, code, text = _play(tmp_path, _going_out([0, 480]), ["draw", "layoff 4H on 0", "discard 2C", "quit"])
    assert code == 0 and not game.match.is_over
    bob = game.match.totals[1]
    assert bob >= 500
    assert (
        f"Bob has reached the target ({bob} of 500) but did not go out: the game goes on"
        " (must_go_out_to_win: only a player who goes out with the target reached wins)." in text
    )


def test_must_go_out_names_the_real_winner_and_why(tmp_path: Path) -> None:
    game, code, text = _play(tmp_path, _going_out([490, 600]), ["draw", "layoff 4H on 0", "discard 2C"])
    m = game.match
    assert code == 0 and m.winner == 0
    you, bob = m.totals
    assert bob > you >= 500
    assert (
        f"Game over. You win with {you}: you went out having reached 500, and only a player who goes out can win"
        f" (must_go_out_to_win); Bob has {bob} but did not go out. Well played!" in text
    )
    assert f"Final totals: Bob {bob}, You {you} (the winner)" in text
    assert "You wins" not in text
    assert "reached the target" not in text  # the round's note is left to the winner's line


def test_the_default_player_you_wins_in_good_english(tmp_path: Path) -> None:
    record = make_record({"target": 10}, ["5H 6H 7H", "KS QS 2D"], "9C 3C", "8D", ["0 draw", "0 meld 5H 6H 7H"])
    record["players"] = ["You", "Bob"]
    _, code, text = _play(tmp_path, record, ["discard 9C"])
    assert code == 0
    assert "Game over. You win with 18. Well played!" in text
    assert "Final totals: You 18, Bob -22" in text


# ---------------------------------------------------------------- stock_out: reshuffle


def test_a_reshuffle_of_the_pile_into_the_stock_is_announced(tmp_path: Path) -> None:
    record = make_record({"stock_out": "reshuffle"}, ["5H 6H 7H 2C", "KS QS 2D"], "9C", "8D 3S", [])
    _, code, text = _play(tmp_path, record, ["draw", "discard 2C", "quit"])
    assert code == 0
    after = text.split("your move> discard 2C", 1)[1]
    assert after.splitlines()[1] == (
        "  The stock is empty: the discard pile but its top card (2 cards) is shuffled into a new stock."
    )
    assert "Stock: 2 cards" in after or "Stock: 1 card" in after  # the bot drew from the new stock


# ---------------------------------------------------------------- calling_rummy: steal


def _steal_position() -> dict[str, Any]:
    """Your turn, about to draw: the KC (2nd from the top) fits Bob's kings (meld #0)."""
    return make_record(
        {"calling_rummy": "steal"},
        ["KC 2C 3D 9S", "KS KH KD 4S 7C"],
        "5C 6C 7D 8D 9D",
        "8H",
        ["0 draw", "0 discard KC", "1 draw", "1 meld KS KH KD", "1 discard 7C"],
    )


def test_steal_forms_are_in_help_and_a_plain_call_says_which_form_to_type(tmp_path: Path) -> None:
    game, code, text = _play(tmp_path, _steal_position(), ["help", "rummy 2", "rummy 2 on 0", "quit"])
    assert code == 0
    assert "  rummy N on ID        (calling_rummy: steal)" in text  # the house rules' part of help
    assert "Calling Rummy by stealing (this game: calling_rummy: steal)" in text  # this game's own help
    assert "  rummy N meld CARDS   meld it at once with other pile cards" in text
    assert _after(text, "rummy 2") == (
        "Not allowed: a steal names where the card goes: 'on' a meld id, or the pile cards it melds with"
        " - write 'rummy 2 on ID' or 'rummy 2 meld CARDS' (here: 'rummy 2 on 0')"
    )
    record = game.match.record()
    assert {"p": 0, "rummy": 2, "on": 0} in record["rounds"][0]["actions"]
    assert replay(json.loads(json.dumps(record)))["ok"]


def test_help_without_the_house_rules_leaves_their_own_help_out(tmp_path: Path) -> None:
    record = make_record({}, ["5H 6H 7H 9C", "KS QS 2D"], "2C 3C", "8D", [])
    _, _, text = _play(tmp_path, record, ["help", "quit"])
    assert "Moves (the record notation)" in text
    assert "Calling Rummy by stealing" not in text and "Floating (this game" not in text


def test_the_docs_give_the_steal_forms_and_float() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "terminal.md").read_text()
    for form in ("`rummy N on ID`", "`rummy N meld CARDS`", "`float`"):
        assert form in doc, form


# ---------------------------------------------------------------- a bot's Rummy call


def test_a_bots_call_names_the_card_the_cards_taken_and_the_turns_lost(tmp_path: Path) -> None:
    # calling_rummy: pile. You discard the 9C; Seat 2 calls on the 8H (3rd from the top), which fits your
    # 5H 6H 7H: it takes 9C 5S 8H and plays now, so Seat 1 (about to draw) loses its turn.
    record = make_record(
        {"calling_rummy": "pile"}, ["5H 6H 7H 9C", "KS QS 2D 4S", "QC QH 3S 8S"], "2C 3C 4C 5C", "8H 5S", []
    )
    bots = {2: Scripted("rummy 3", "layoff 8H on 0")}
    _, code, text = _play(tmp_path, record, ["draw", "meld 5H 6H 7H", "discard 9C", "quit"], bots)
    assert code == 0
    after = text.split("your move> discard 9C\n", 1)[1].splitlines()
    assert (
        after[0]
        == "  Seat 2: rummy 3 - Rummy! on the 8H (3rd from the top): takes 3 cards (9C 5S 8H) and must use the 8H"
    )
    assert after[1] == "    Seat 2 plays now: Seat 1 loses its turn (play goes on after Seat 2)."
    assert after[2] == "  Seat 2: layoff 8H on 0"


def test_a_call_that_skips_your_turn_says_so(tmp_path: Path) -> None:
    # You are about to draw; Seat 1 calls on the 8H (5th from the top): your turn is lost.
    record = make_record(
        {"calling_rummy": "pile"},
        ["5H 6H 7H 9C 2C", "KS QS 2D 4S", "QC QH 3S 8S"],
        "3C 4C 5C 6C 7C",
        "8H 5S",
        ["0 draw", "0 meld 5H 6H 7H", "0 discard 9C", "1 draw", "1 discard 4S", "2 draw", "2 discard 3S"],
    )
    _, code, text = _play(tmp_path, record, ["quit"], {1: Scripted("rummy 5", "layoff 8H on 0")})
    assert code == 0
    assert (
        "  Seat 1: rummy 5 - Rummy! on the 8H (5th from the top): takes 5 cards (3S 4S 9C 5S 8H) and must use the 8H"
        in text
    )
    assert "    Seat 1 plays now: you lose your turn (play goes on after Seat 1)." in text


def test_a_bots_steal_names_the_card_and_where_it_went(tmp_path: Path) -> None:
    record = make_record(
        {"calling_rummy": "steal"}, ["5H 6H 7H 9C", "KS QS 2D 4S", "QC QH 3S 8S"], "2C 3C 4C 5C", "8H 5S", []
    )
    _, code, text = _play(
        tmp_path, record, ["draw", "meld 5H 6H 7H", "discard 9C", "quit"], {2: Scripted("rummy 3 on 0")}
    )
    assert code == 0
    after = text.split("your move> discard 9C\n", 1)[1].splitlines()
    assert (
        after[0]
        == "  Seat 2: rummy 3 on 0 - Rummy! steals the 8H (3rd from the top) and lays it off at once on meld #0"
    )
    assert after[1] == "  Seat 1: draw"  # a steal skips nobody: play goes on as before
    assert "lose" not in text


# ---------------------------------------------------------------- going_out: floating


def test_an_empty_hand_is_told_to_float_and_a_floating_hand_is_marked(tmp_path: Path) -> None:
    record = make_record({"going_out": "floating"}, ["5H 6H 7H", "KS QS 2D"], "8H 3C 4C 5C", "9D", [])
    lines = ["draw", "meld 5H 6H 7H 8H", "discard 9D", "help", "hint", "float", "quit"]
    _, code, text = _play(tmp_path, record, lines)
    assert code == 0
    said = text.split("your move> meld 5H 6H 7H 8H\n", 1)[1]
    assert (
        "You have melded all your cards: type 'float' to end your turn with no cards; you go out by discarding"
        " at a later turn (going_out: floating)." in said
    )
    assert _after(text, "discard 9D") == (
        "Not allowed: you do not hold 9D - you hold no cards: type 'float' to end your turn"
    )
    assert "Floating (this game: going_out: floating): when you have melded or laid off every card, type" in text
    assert "  float                (going_out: floating) every card melded" in text
    assert "hint (medium bot): float - " in text and "float - float" not in text
    after_float = text.split("your move> float\n", 1)[1]
    assert "  Your hand (0): - (floating: you go out by discarding at a later turn)" in after_float


def test_another_floating_player_is_marked_on_the_table(tmp_path: Path) -> None:
    record = make_record(
        {"going_out": "floating"},
        ["2C 9S KH", "5H 6H 7H"],
        "3C 8H 4C 5C",
        "9D",
        ["0 draw", "0 discard 3C", "1 draw", "1 meld 5H 6H 7H 8H", "1 float"],
    )
    _, code, text = _play(tmp_path, record, ["quit"])
    assert code == 0
    assert "  Seat 1: 0 cards (floating: goes out by a discard at a later turn)" in text


def test_float_in_a_game_without_floating_names_the_rule(tmp_path: Path) -> None:
    record = make_record({}, ["5H 6H 7H 9C", "KS QS 2D"], "2C 3C", "8D", [])
    _, code, text = _play(tmp_path, record, ["draw", "float", "quit"])
    assert code == 0
    assert _after(text, "float") == "Not allowed: floating is not allowed in this game (going_out: floating)"


# ---------------------------------------------------------------- hints


def _hint_says(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, action: Action, reason: str) -> str:
    monkeypatch.setattr(play, "strongest_hint", lambda view, seed, budget: Hint(action, "medium", reason, 0.0))
    record = make_record({}, ["5H 6H 7H 9C", "KS QS 2D"], "2C 3C", "8D", [])
    _, _, text = _play(tmp_path, record, ["hint", "quit"])
    return _after(text, "hint")


def test_a_hint_with_one_move_does_not_repeat_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert (
        _hint_says(monkeypatch, tmp_path, Draw(), "draw is the only move")
        == "hint (medium bot): draw - it is the only move"
    )


def test_a_bots_first_person_reason_is_said_to_the_player(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    said = _hint_says(monkeypatch, tmp_path, Draw(), "a stolen card scores for me, and I still draw")
    assert said == "hint (medium bot): draw - a stolen card scores for you, and you still draw"
    assert (
        play.second_person("laying out of turn what I would lay anyway")
        == "laying out of turn what you would lay anyway"
    )
    assert play.second_person("my joker is not wild this hand: block the dealer's") == (
        "your joker is not wild this hand: block the dealer's"
    )
    assert play.second_person("I held this hand before") == "You held this hand before"
    assert (
        play.second_person("the pile lets me go out; meld 9D TD JD is mine")
        == "the pile lets you go out; meld 9D TD JD is yours"
    )


# ---------------------------------------------------------------- odd numbers


def test_numbers_python_cannot_read_get_one_clear_line(tmp_path: Path) -> None:
    # A pile of ten cards: 'take 9' would be a move to check, so 't٩' must not become one.
    record = make_record({}, ["5H 6H 7H 9C", "KS QS 2D"], "2C 3C", "AD 2S 3S 4S 5S 6S 7S 8S 9S TS", [])
    huge = "rummy " + "9" * 5000
    game, code, text = _play(tmp_path, record, [huge, "rummy ²", "t²", "t٩", "٣", "take ٩", "layoff 5H on #٣", "quit"])
    assert code == 0
    assert _after(text, huge) == (
        "a number of 5000 digits is far too large: no move, pile depth or meld number comes near it  (type 'help' or 'moves')"
    )
    for typed, digit in (
        ("rummy ²", "²"),
        ("t²", "²"),
        ("t٩", "٩"),
        ("٣", "٣"),
        ("take ٩", "٩"),
        ("layoff 5H on #٣", "٣"),
    ):
        assert _after(text, typed) == (
            f"'{digit}' is not one of the digits 0-9: moves, pile depths and melds are numbered with 0-9  (type 'help' or 'moves')"
        ), typed
    for leak in ("int()", "Exceeds the limit", "set_int_max_str_digits", "invalid literal"):
        assert leak not in text
    assert game.match.record()["rounds"][0]["actions"] == []  # nothing was played


# ---------------------------------------------------------------- Dealer's Gambit split, Hoyle's first turn


def test_a_split_names_the_cards_that_leave_play(tmp_path: Path) -> None:
    record = make_record(
        {"dealers_gambit": True, "jokers": 2},
        ["JK 9H 9S 4D", "KS QS 2D 5C"],
        "8H 3C 4C",
        "9C 7H 2S 3D",
        ["1 nominate split"],
    )
    _, code, text = _play(tmp_path, record, ["moves", "take 4 split", "quit"])
    assert code == 0
    assert "take 4 split - spends a joker: only the 9C comes to hand; 3D 2S 7H leave play for the hand" in text
    assert (
        _after(text, "take 4 split")
        == "    The split spends a joker: only the 9C comes to hand; 3D 2S 7H leave play for the hand"
    )


def test_the_first_player_dealt_the_extra_card_is_told_to_start_the_pile(tmp_path: Path) -> None:
    record = make_record({"first_discard": "first_player"}, ["5H 6H 7H 9C 2S", "KS QS 2D 5C"], "8H 3C 4C", "", [])
    _, code, text = _play(tmp_path, record, ["moves", "quit"])
    assert code == 0
    assert (
        "You were dealt the extra card: you do not draw this turn; meld if you like, then start the discard pile"
        " with a discard (first_discard: first_player)." in text
    )
    assert re.search(r"^\s+\d+  meld 5H 6H 7H$", text, re.M)  # melding first is a move
