"""A bot that fails or answers an illegal move never ends a terminal game, nor does a failing hint.

The terminal ended the session (exit 1, nothing saved) on an illegal bot move and
with a traceback on a bot's or the hint's exception (bot audit, 7 December 2026);
the server has always played a random legal move instead.
"""

import io
import json

import pytest

import rummy500.cli.play as play
from rummy500.actions import Discard
from rummy500.bots.medium import MediumBot
from rummy500.cards import parse_card


@pytest.mark.parametrize("mode", ["raise", "illegal"])
def test_a_failing_bot_plays_a_random_legal_move_and_the_game_goes_on(monkeypatch, tmp_path, mode):
    original = MediumBot.act

    def broken(self, view, rng=None):
        if view.seat == 1 and view.to_move == 1:
            if mode == "raise":
                raise RuntimeError("a bot bug naming 7H")
            return Discard((parse_card("AS"),) if parse_card("AS") not in view.hand else (parse_card("2C"),))
        return original(self, view, rng)

    monkeypatch.setattr(MediumBot, "act", broken)
    save = tmp_path / "game.json"
    out = io.StringIO()
    code = play.main(
        ["--opponents", "medium", "--seed", "3", "--save", str(save)],
        inp=io.StringIO("draw\ndiscard 2C\n" + "moves\n" * 3),
        out=out,
    )
    text = out.getvalue()
    problem = "failed (RuntimeError)" if mode == "raise" else "chose a move that is not allowed"
    assert f"bot {problem}; it plays " in text and "chosen at random" in text
    assert "a bot bug" not in text  # only the kind of failure: its text might name cards
    assert code == 0 and "could not move" not in text
    record = json.loads(save.read_text())
    seat1 = [a for a in record["rounds"][0]["actions"] if a["p"] == 1]
    assert seat1, "the bot's seat moved on (randomly) instead of ending the game"


def test_a_failing_hint_says_so_and_the_game_goes_on(monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise ValueError("hint bug")

    monkeypatch.setattr(play, "strongest_hint", broken)
    save = tmp_path / "game.json"
    out = io.StringIO()
    code = play.main(
        ["--opponents", "medium", "--seed", "3", "--save", str(save)],
        inp=io.StringIO("hint\ndraw\n"),
        out=out,
    )
    assert "No hint this time: the hint failed (ValueError)." in out.getvalue()
    assert code == 0 and save.exists()
