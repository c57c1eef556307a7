"""The ``rummy500 casino`` commands, run as a user runs them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rummy500.casino.play import Session
from rummy500.casino.rules import CasinoRules
from rummy500.casino.simulate import simulate
from rummy500.casino.strategy import chart_for
from rummy500.cli import main

from .helpers import stacked


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_edge_and_the_variant_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "casino", "edge")
    assert code == 0 and "house edge 1.00" in out
    code, out, _ = run(capsys, "casino", "edge", "--variants", "--json")
    data = json.loads(out)
    assert data["house_edge_pct"] == pytest.approx(1.00, abs=0.02)
    for v in data["variants"]:
        assert v["computed"] == pytest.approx(v["published"], abs=0.02), v
    code, out, _ = run(capsys, "casino", "edge", "--no-surrender", "--json")
    assert json.loads(out)["house_edge_pct"] == pytest.approx(1.47, abs=0.02)


def test_bad_options_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "casino", "edge", "--decks", "12")
    assert code == 2 and err.strip() == "rummy500 casino: decks must be 1 to 8, not 12"
    code, _, err = run(capsys, "casino", "edge", "--rules", '{"jokers": 1}')
    assert code == 2 and "unknown rule option(s): jokers" in err
    code, _, err = run(capsys, "casino", "deal")
    assert code == 2 and "unknown command 'deal'" in err


def test_strategy_prints_the_chart_and_writes_the_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "chart.svg"
    code, out, _ = run(capsys, "casino", "strategy", "--svg", str(svg))
    assert code == 0
    assert "Suited two-card exceptions" in out and "suited 67: H against" in out
    row16 = next(line for line in out.splitlines() if line.split()[:1] == ["16"])
    assert row16.split()[-2:] == ["Rh", "Rh"]  # hard 16 against 10 and ace
    text = svg.read_text()
    assert text.startswith("<svg") and "suited 67" in text


def test_simulation_is_the_same_on_one_or_two_processes(capsys: pytest.CaptureFixture[str]) -> None:
    chart = chart_for(compute=False)
    assert chart is not None
    one = simulate(CasinoRules(), chart, 500, seed=4, workers=1, chunk=200)
    two = simulate(CasinoRules(), chart, 500, seed=4, workers=2, chunk=200)
    assert one.rounds == two.rounds == 500
    assert (one.total, one.total_sq, one.bonus) == (two.total, two.total_sq, two.bonus)
    code, out, _ = run(capsys, "casino", "simulate", "--hands", "2000", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["rounds"] == 2000 and data["exact_pct"] == pytest.approx(1.0, abs=0.02)
    assert 0.5 < data["ci95_pct"] < 10 and data["agrees"] == (abs(data["house_edge_pct"] - data["exact_pct"]) <= data["ci95_pct"])


def session(lines: list[str], deal: str | None = None, bankroll: float = 100) -> tuple[Session, str]:
    chart = chart_for(compute=False)
    assert chart is not None
    out = io.StringIO()
    s = Session(CasinoRules(), chart, bankroll, 7, io.StringIO("".join(x + "\n" for x in lines)), out)
    if deal:
        s.shoe = stacked(deal)
    s.run()
    return s, out.getvalue()


def test_play_counts_mistakes_and_gives_hints() -> None:
    # 10-6 against a 6: basic strategy stands; the player asks, then hits anyway.
    s, text = session(["10", "?", "h", "s", "quit"], deal="TS 6D 6S 4C 9H TD")
    assert "Dealer shows 6\u2666" in text and "your hand: 10\u2660 6\u2660 = 16" in text
    assert "Basic strategy: stand." in text
    assert "(basic strategy says stand; mistakes: 1)" in text
    assert s.mistakes == 1 and s.decisions == 2  # standing on 20 is right
    assert s.bankroll == 110  # the dealer's 6 9 10 busts
    assert text.rstrip().endswith("Rounds 1, bankroll 110, basic-strategy mistakes 1 of 2 decisions.")


def test_play_pays_bonuses_and_refuses_bad_input() -> None:
    s, text = session(["abc", "500", "10", "fold", "h", "quit"], deal="7S 9D 7H 7D 5C 9H")
    assert "not a bet: 'abc'" in text
    assert "the bet must be more than 0 and at most your bankroll 100" in text
    assert "unknown action 'fold'" in text
    assert "Bonus! bonus 5 to 1 on 7S 7H 7D: +50" in text
    assert s.bankroll == 100 + 50 + 10  # and 21 against the dealer's 9 5 9 = 23


def test_play_piped_to_the_end_of_input() -> None:
    s, text = session(["25", "s", "s", "s", "s", "", "s", "s"])
    assert s.rounds >= 1 and "Rounds" in text.splitlines()[-1]


def test_the_docs_image_is_the_shipped_chart() -> None:
    from rummy500.casino.svg import chart_svg

    chart = chart_for(compute=False)
    assert chart is not None
    doc = Path(__file__).resolve().parents[2] / "docs" / "casino-strategy.svg"
    assert doc.read_text(encoding="utf-8") == chart_svg(chart), "rerun python scripts/casino_chart.py"
