"""The documentation's examples run: docs/api.md and the engine modules' (and the bots package's) docstrings."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from rummy500 import bots, drive, events, position

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_api_guide_examples_run() -> None:
    failures, attempted = doctest.testfile(str(API), module_relative=False, raise_on_error=False)
    assert attempted > 5 and failures == 0


@pytest.mark.parametrize("module", [drive, events, position, bots], ids=lambda m: m.__name__)
def test_engine_docstring_examples_run(module: object) -> None:
    failures, attempted = doctest.testmod(module, raise_on_error=False)  # type: ignore[arg-type]
    assert attempted > 0 and failures == 0
