"""Golden playthroughs: a behaviour change shows up as a diff of tests/playthroughs/<preset>.txt.

If a change is intended, regenerate with ``python -m rummy500.playthrough tests/playthroughs``
and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rummy500.playthrough import playthrough
from rummy500.rules import PRESETS

FOLDER = Path(__file__).resolve().parents[1] / "playthroughs"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_playthrough_of_every_preset_is_unchanged(preset: str) -> None:
    want = (FOLDER / f"{preset}.txt").read_text()
    got = playthrough(preset)
    if got != want:
        for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines(), strict=False), 1):
            assert a == b, f"{preset}.txt line {i} differs (regenerate on purpose: python -m rummy500.playthrough)"
    assert got == want
