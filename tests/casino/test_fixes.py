"""Ctrl-C, abandoned rounds, strict rule options, chips and the edge report, as a user meets them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rummy500.casino import cli as casino_cli
from rummy500.casino.play import Session
from rummy500.casino.rules import CasinoRules
from rummy500.casino.strategy import UPS, chart_for
from rummy500.cli import main

from .helpers import stacked

DOCS = Path(__file__).resolve().parents[2] / "docs" / "casino.md"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def play_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str, *argv: str, ctrl_c: bool = False
) -> tuple[int, str, str]:
    """``rummy500 casino play ARGV`` with ``typed`` on stdin (then Ctrl-C at the next prompt)."""
    monkeypatch.setattr("sys.stdin", CtrlC(typed) if ctrl_c else io.StringIO(typed))
    try:
        return run(capsys, "casino", "play", *argv)
    except KeyboardInterrupt:  # a traceback for the user (and it would stop pytest)
        pytest.fail("Ctrl-C escaped from rummy500 casino play")


class CtrlC(io.StringIO):
    """A keyboard that types some lines, then Ctrl-C at the next prompt."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline(-1 if size is None else size)
        if not line:
            raise KeyboardInterrupt
        return line


def session(lines: list[str], deal: str, bankroll: float = 100) -> tuple[Session, str]:
    chart = chart_for(compute=False)
    assert chart is not None
    out = io.StringIO()
    s = Session(CasinoRules(), chart, bankroll, 7, io.StringIO("".join(x + "\n" for x in lines)), out)
    s.shoe = stacked(deal)
    s.run()
    return s, out.getvalue()


# -- 1. Ctrl-C ends the session as quit does ------------------------------------------------


def test_ctrl_c_at_the_bet_prompt_ends_with_the_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = play_cli(capsys, monkeypatch, "", "--seed", "290", ctrl_c=True)
    assert code == 0 and err == ""
    assert out.rstrip().splitlines()[-1] == "Rounds 0, bankroll 1000, basic-strategy mistakes 0 of 0 decisions."


def test_ctrl_c_mid_round_abandons_it_and_keeps_the_bonus(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seed 290: 5-5 against a 5; the hit deals another 5, a 3 to 1 bonus on the bet of 10.
    code, out, err = play_cli(capsys, monkeypatch, "10\nh\n", "--seed", "290", ctrl_c=True)
    assert code == 0 and err == "" and "Bonus! bonus 3 to 1 on 5H 5C 5C: +30" in out
    assert out.rstrip().splitlines()[-1] == "Rounds 1, bankroll 1020, basic-strategy mistakes 1 of 1 decisions."


def test_ctrl_c_while_a_chart_is_computed_stops_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(rules: CasinoRules) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(casino_cli, "_chart", interrupted)
    code, out, err = play_cli(capsys, monkeypatch, "", "--decks", "5")
    assert code == 130 and out == "" and err.strip() == "rummy500 casino: interrupted"


def test_ctrl_c_between_prompts_settles_the_round_and_ends_with_the_summary() -> None:
    class Out(io.StringIO):
        def write(self, text: str) -> int:
            if text.startswith("Dealer: "):  # the round is over, not yet paid
                raise KeyboardInterrupt
            return super().write(text)

    chart = chart_for(compute=False)
    assert chart is not None
    out = Out()
    s = Session(CasinoRules(), chart, 100, 7, io.StringIO("10\ns\n10\n"), out)
    s.shoe = stacked("TS 6D 9S 9H TD")  # 19 against the dealer's 6 9 10 = 25
    try:
        assert s.run() == 0
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C escaped from the session")
    assert (
        out.getvalue().rstrip().splitlines()[-1] == "Rounds 1, bankroll 110, basic-strategy mistakes 0 of 1 decisions."
    )


# -- 2. abandoning a round keeps the bonuses already paid ----------------------------------


@pytest.mark.parametrize("typed", ["10\nh\nquit\n", "10\nh\n"])
def test_quitting_or_end_of_input_mid_round_keeps_the_bonus(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    code, out, _ = play_cli(capsys, monkeypatch, typed, "--seed", "290")
    assert code == 0 and "Bonus! bonus 3 to 1 on 5H 5C 5C: +30" in out
    assert "Round abandoned: the bets on the table are lost (-10); bonuses paid (+30) are kept." in out
    assert out.rstrip().splitlines()[-1] == "Rounds 1, bankroll 1020, basic-strategy mistakes 1 of 1 decisions."


def test_abandoning_after_a_split_loses_every_bet_on_the_table() -> None:
    # 8-8 against a 6, split; the first hand gets a 3 and the player quits on 8-3.
    s, text = session(["10", "p", "quit"], deal="8S 6D 8H 3C 9D")
    assert "Round abandoned: the bets on the table are lost (-20)." in text
    assert s.bankroll == 80


# -- 3. rule options are type-checked ------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ('{"decks": "6"}', 'decks must be a whole number from 1 to 8, not "6"'),
        ('{"max_hands": null}', "max_hands must be a whole number from 1 to 8, not null"),
        ('{"max_hands": 4.0}', "max_hands must be a whole number from 1 to 8, not 4.0"),
        ('{"decks": true}', "decks must be a whole number from 1 to 8, not true"),
        ('{"surrender": "false"}', 'surrender must be true or false, not "false"'),
        ('{"h17": "no"}', 'h17 must be true or false, not "no"'),
        ('{"surrender": 0}', "surrender must be true or false, not 0"),
        ('{"max_hands": 9}', "max_hands must be 1 to 8, not 9"),
    ],
)
def test_rules_json_values_of_the_wrong_type_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], rules: str, message: str
) -> None:
    code, out, err = run(capsys, "casino", "edge", "--rules", rules)
    assert code == 2 and out == ""
    assert err == f"rummy500 casino: --rules: {message}\n"


def test_rules_json_booleans_are_read_as_the_flags() -> None:
    with pytest.raises(ValueError, match="surrender must be true or false"):
        CasinoRules(surrender="false")  # type: ignore[arg-type]
    assert CasinoRules().with_options(surrender=False) == CasinoRules(surrender=False)


def test_rules_json_false_is_no_surrender(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "casino", "edge", "--rules", '{"surrender": false}', "--json")
    assert code == 0 and err == ""  # the shipped chart: nothing is recomputed
    assert json.loads(out)["house_edge_pct"] == pytest.approx(1.47, abs=0.02)


# -- 4. an SVG path that cannot be written --------------------------------------------------


def test_strategy_svg_in_a_missing_folder_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "x.svg"
    code, out, err = run(capsys, "casino", "strategy", "--svg", str(target))
    assert code == 2 and out == ""  # checked before the chart is printed
    assert err.count("\n") == 1 and err.startswith(f"rummy500 casino: cannot write {target}: no such directory")


def test_strategy_svg_onto_a_folder_is_a_one_line_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "casino", "strategy", "--svg", str(tmp_path))
    assert code == 2 and out == ""
    assert err == f"rummy500 casino: cannot write {tmp_path}: it is a directory\n"


# -- 5. what the bankroll cannot cover is not offered, hinted or counted ----------------------


def test_an_unaffordable_double_is_not_offered_hinted_or_counted() -> None:
    # Bankroll 10, bet 10: 4-7 = 11 against a 6 (the chart doubles); hit to 20 and stand;
    # the dealer's 6 10 10 busts.
    s, text = session(["10", "?", "d", "h", "s", "quit"], deal="4H 6D 7D 9C TS TC", bankroll=10)
    first = text.split("Bet [10]: ", 1)[1]
    assert first.startswith("Dealer shows 6\u2666\n> your hand: 4\u2665 7\u2666 = 11\nhit/stand/surrender? ")
    assert "double" not in first.split("Result")[0].replace("not enough chips to double", "")
    assert "Basic strategy: hit." in text
    assert "not enough chips to double (bankroll 10)" in text
    assert "mistakes: " not in text.split("Rounds")[0]
    assert text.rstrip().endswith("Rounds 1, bankroll 20, basic-strategy mistakes 0 of 2 decisions.")


def test_an_unaffordable_split_is_not_offered() -> None:
    s, text = session(["10", "s", "quit"], deal="8S 6D 8H TC TD", bankroll=15)
    assert "hit/stand/double/split/surrender? " not in text
    assert "hit/stand/surrender? " in text  # neither a double nor a split: 15 < 20


# -- 6. a bankroll or a bet must be a finite, sane number of chips ----------------------------


@pytest.mark.parametrize("bankroll", ["inf", "nan", "-inf", "1e13", "0"])
def test_bankrolls_that_are_not_finite_or_too_large_are_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bankroll: str
) -> None:
    code, out, err = play_cli(capsys, monkeypatch, "10\ns\n", f"--bankroll={bankroll}")
    assert code == 2 and out == ""
    assert err.startswith(
        "rummy500 casino: --bankroll must be more than 0 and at most 1000000000000 chips (at most 12 decimal places), not "
    )
    assert err.count("\n") == 1


def test_bets_that_are_not_finite_are_asked_again() -> None:
    s, text = session(["inf", "nan", "-inf", "10", "s", "quit"], deal="TS 6D 9S 9H TD")
    assert "not a bet: 'inf'" in text and "not a bet: 'nan'" in text and "not a bet: '-inf'" in text
    assert text.rstrip().endswith("Rounds 1, bankroll 110, basic-strategy mistakes 0 of 1 decisions.")


def test_the_largest_bankroll_plays() -> None:
    s, text = session(["1e12", "s", "quit"], deal="TS 6D 9S 9H TD", bankroll=10**12)
    assert text.rstrip().endswith("Rounds 1, bankroll 2000000000000, basic-strategy mistakes 0 of 1 decisions.")


# -- 7. the edge report names the edge each variant is measured from -----------------------


def test_edge_json_gives_the_benchmark_edge_beside_the_published_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "casino", "edge", "--decks", "4", "--variants", "--json")
    data = json.loads(out)
    assert code == 0 and data["rules"]["decks"] == 4
    assert data["house_edge_pct"] == pytest.approx(1.0226, abs=1e-4)  # the 4-deck rules asked for
    assert data["benchmark_house_edge_pct"] == pytest.approx(1.0009, abs=1e-4)
    assert data["published_house_edge_pct"] == 1.00 and data["variants_measured_from"] == "benchmark"
    for v in data["variants"]:
        assert v["computed"] == pytest.approx(v["house_edge_pct"] - data["benchmark_house_edge_pct"], abs=2e-4), v
    four = next(v for v in data["variants"] if v["variant"] == "4 decks")
    assert four["house_edge_pct"] == data["house_edge_pct"]
    code, out, _ = run(capsys, "casino", "edge", "--decks", "4", "--variants")
    assert "each variant's change to the benchmark rules' house edge, in points:" in out


# -- the chart's footnote and the docs say what the chart computes ---------------------------


def test_the_three_card_footnote_covers_every_total_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "casino", "strategy")
    assert code == 0
    assert "(hard 11 or less, soft 16 or less: hit; hard 18 or more, soft 20 or more: stand)" in out.splitlines()
    chart = chart_for(compute=False)
    assert chart is not None
    for keys, play in (
        ([f"H{t}" for t in range(4, 12)] + [f"S{t}" for t in range(12, 17)], "H"),
        ([f"H{t}" for t in range(18, 22)] + [f"S{t}" for t in range(20, 22)], "S"),
    ):
        assert {chart.hit_stand[k][u] for k in keys for u in UPS} == {play}


def test_the_docs_give_the_suited_six_seven_exception_as_computed() -> None:
    chart = chart_for(compute=False)
    assert chart is not None
    hits = {up for up, acts in chart.exceptions["6,7"].items() if acts[0] == "H"}
    assert hits == {2, 3, 4, 5, 6, 1}
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    assert "suited 6-7 hits against 2–6, where the chart stands on 13, and against an ace, where it surrenders" in text
    assert "abandoning" in text.lower() or "abandons the round" in text
