"""``rummy500 review``'s score table adds up in the game's own points, whatever the scoring rules."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console

from rummy500.bots.random_bot import RandomBot
from rummy500.cli.review_cmd import print_scores, replay_scores
from rummy500.server.engine import LiveGame, parse_rules

# Rules that score a round by more than melded minus in hand: a divisor (with card values that are
# not all multiples of 5, so the division rounds), a going-out bonus and a final bonus in a
# partnership, hands going to the player who went out.
GAMES: list[tuple[dict[str, Any], int]] = [
    ({"preset": "quick", "rounds": 2}, 2),
    ({"preset": "standard", "score_divisor": 5, "rounds": 2, "final_bonus": 50}, 3),
    ({"preset": "persian"}, 4),
    ({"preset": "standard", "hand_penalty": "to_goer", "rounds": 2}, 2),
    ({"preset": "standard", "hand_penalty": "to_goer", "stock_out": "end_round", "rounds": 3, "final_bonus": 20}, 2),
    ({"preset": "standard", "rounds": 2}, 2),
]


def _played(rules: dict[str, Any], players: int, seed: int) -> tuple[dict[str, Any], LiveGame]:
    names = "ABCD"[:players]
    game = LiveGame(parse_rules(rules, players), list(names), seed)
    bots = [RandomBot(s) for s in range(players)]
    rng = random.Random(seed)
    while not game.match.is_over:
        assert game.match.state is not None
        seat = game.match.state.public.to_move
        game.apply(seat, bots[seat].act(game.match.view(seat), rng))
    return game.record(), game


def _table(record: dict[str, Any]) -> tuple[list[str], list[list[str]], str]:
    """The score table as printed at 80 columns: its header, its rows (cells), and the words under it."""
    out = io.StringIO()
    print_scores(replay_scores(record), Console(file=out, width=80, color_system=None))
    text = out.getvalue()
    assert all(len(line) <= 80 for line in text.splitlines()), text
    lines = [line for line in text.splitlines() if line.startswith("│") or line.startswith("┃")]
    cells = [[c.strip() for c in line.strip()[1:-1].replace("┃", "│").split("│")] for line in lines]
    return cells[0], cells[1:], " ".join(text[text.index("└") :].split())


@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_every_row_adds_up_to_its_round_score_and_total(rules: dict[str, Any], players: int) -> None:
    record, game = _played(rules, players, seed=3)
    head, rows, foot = _table(record)
    col = {name: k for k, name in enumerate(head)}
    extra = "other" in col
    totals = [0] * players
    bonus_rows = 0
    for row in rows:
        if not row[col["round score"]]:
            continue  # a long name folded onto a second line
        player = row[col["player"]]
        if player.startswith("final bonus"):
            bonus_rows += 1
            to = game.match.bonus_to
            assert to is not None
            assert row[col["round score"]] == f"+{game.rules.final_bonus}"
            totals[to] += game.rules.final_bonus
            assert int(row[col["total"]]) == totals[to]
            continue
        seat = "ABCD".index(player[0])
        got = int(row[col["round score"]])
        other = int(row[col["other"]] or 0) if extra else 0
        assert int(row[col["melded"]]) - int(row[col["in hand"]]) + other == got, row
        totals[seat] += got
        assert int(row[col["total"]]) == totals[seat], row
    assert totals == game.match.totals
    assert bonus_rows == (1 if game.match.bonus_to is not None and game.rules.final_bonus else 0)
    # The words under the table define every column that is there.
    assert "melded:" in foot and "in hand:" in foot and ("other:" in foot) == extra
    if bonus_rows:
        assert f"final bonus of {game.rules.final_bonus} to" in foot


def test_the_final_bonus_of_a_partnership_goes_to_the_side() -> None:
    record, game = _played({"preset": "persian"}, 4, seed=3)
    _, rows, foot = _table(record)
    side = "A & C" if game.match.bonus_to == 0 else "B & D"
    assert f"final bonus of 50 to {side}" in foot
    assert any(row[1].startswith("final bonus to") for row in rows)
