"""The formats' runnable example plays every format to its end."""

from rummy500.formats.__main__ import main


def test_the_formats_example_plays_every_format(capsys):
    assert main(["--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "single-table tourney:" in out and "multi-table tourney of 9:" in out and out.count("ring round") == 3
