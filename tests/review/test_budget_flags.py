"""The review benchmarks' budget flags (``benchmarks/budget_flags.py``) describe the budget they are given."""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest

from rummy500.review import DEFAULT_BUDGET, Budget

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
try:
    from budget_flags import add_budget_flags, budget_from
finally:
    sys.path.pop(0)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_budget_flags(parser)
    return parser


def parse(*argv: str) -> argparse.Namespace:
    return _parser().parse_args(list(argv))


def test_no_flags_measure_the_default_review() -> None:
    assert budget_from(parse()) == DEFAULT_BUDGET


def test_each_flag_sets_its_field() -> None:
    got = budget_from(
        parse("--samples", "4", "--extend", "31", "--confirm", "2", "--horizon", "end", "--leaf", "heuristic",
              "--no-sync-stock", "--estimate-unsure", "--prior-sd", "12", "--settle-after", "3", "--prune-after", "2")
    )
    assert got == replace(
        DEFAULT_BUDGET, samples=4, extend=31, confirm=2, horizon=None, leaf="heuristic", sync_stock=False,
        estimate_unsure=True, prior_sd=12.0, settle_after=3, prune_after=2,
    )
    assert budget_from(parse("--horizon", "8")).horizon == 8
    assert budget_from(parse("--horizon", "auto")).horizon == "auto" == DEFAULT_BUDGET.horizon


def test_every_field_but_candidates_has_a_flag() -> None:
    flags = {action.dest for action in _parser()._actions}
    assert {f.name for f in fields(Budget)} - flags == {"candidates"}
    got = budget_from(parse("--confidence", "1.5", "--confirm-guesses", "12", "--confirm", "3"))
    assert got == replace(DEFAULT_BUDGET, confidence=1.5, confirm_guesses=12, confirm=3)


def test_an_unknown_leaf_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse("--leaf", "deep")
    assert "--leaf" in capsys.readouterr().err
