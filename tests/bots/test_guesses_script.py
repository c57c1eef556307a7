"""``benchmarks/guesses.py``: how many of the opponent's hidden cards each guessing model gets right."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
try:
    import guesses
finally:
    sys.path.pop(0)


def test_the_share_counts_only_the_cards_that_were_hidden() -> None:
    assert doctest.testmod(guesses).failed == 0
    assert guesses.hit_share([5, 6, 7], [5, 6, 7], ()) == 1.0  # an exact guess
    assert guesses.hit_share([8, 9, 10], [5, 6, 7], ()) == 0.0
    assert guesses.hit_share([5, 5, 9], [5, 5, 7], (5,)) == 0.5  # one 5 was seen taken: two cards hidden, one right


def test_every_model_guesses_every_decision_on_the_same_positions() -> None:
    got = guesses.measure(1, 2, 3, "medium")
    shares = got["shares"]
    assert got["decisions"] > 0 and set(shares) == set(guesses.MODELS)
    assert all(len(xs) == got["decisions"] for xs in shares.values())
    assert all(0.0 <= x <= 1.0 for xs in shares.values() for x in xs)
    # Random guesses of a 7-card hand from 40-odd unseen cards are mostly wrong, but not all.
    assert 0.0 < sum(shares["uniform"]) / got["decisions"] < 0.6
    # How connected the hands are: the real ones and each model's guesses, at every decision.
    links = got["linked"]
    assert set(links) == {"real", *guesses.MODELS}
    assert all(len(xs) == got["decisions"] and all(0.0 <= x <= 1.0 for x in xs) for xs in links.values())
    assert sum(links["structure"]) > sum(links["uniform"])  # the shaped guesses link more cards


def test_the_table_and_a_refused_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert guesses.main(["--rounds", "1", "--samples", "2", "--opponent", "medium"]) == 0
    out = capsys.readouterr().out
    assert all(m in out for m in guesses.MODELS) and "less uniform" in out
    assert "cards linked" in out and "(real hands)" in out
    assert guesses.main(["--opponent", "wizard"]) == 2
    assert "unknown level 'wizard'" in capsys.readouterr().err
