"""The documentation's examples run: docs/api.md and the docstrings of every module of the package."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import rummy500

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _modules_with_examples() -> list[str]:
    """Every module of the package whose source holds a docstring example (``>>>``)."""
    names = ["rummy500"] + [m.name for m in pkgutil.walk_packages(rummy500.__path__, "rummy500.") if not m.name.endswith("__main__")]
    out = []
    for name in names:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None
        if ">>>" in Path(spec.origin).read_text(encoding="utf-8"):
            out.append(name)
    return out


def test_the_api_guide_examples_run() -> None:
    failures, attempted = doctest.testfile(str(API), module_relative=False, raise_on_error=False)
    assert attempted > 5 and failures == 0


@pytest.mark.parametrize("name", _modules_with_examples())
def test_every_modules_examples_run(name: str) -> None:
    """No example in a docstring goes unchecked: each module that has one runs them (the engine's, the bots', review, rules ...)."""
    failures, attempted = doctest.testmod(importlib.import_module(name), raise_on_error=False)
    assert attempted > 0 and failures == 0


def test_the_records_guide_examples_replay() -> None:
    """Every whole record docs/records.md shows (no "..." in it) is a legal game, as its text says."""
    import json
    import re

    from rummy500.record import load_record, replay_match

    text = (API.parent / "records.md").read_text(encoding="utf-8")
    whole = [b for b in re.findall(r"```json\n(.*?)```", text, re.S) if '"players"' in b and "..." not in b]
    assert whole, "docs/records.md shows a whole record"
    for block in whole:
        match, illegal = replay_match(load_record(json.loads(block)))
        assert illegal is None, illegal
        assert match.rounds, block


#: The guides whose examples are whole programs in ```python blocks (not doctests), and how many each shows.
#: A block that starts with an import is a whole program; the others are signature lists or fragments.
PROGRAMS = {"README.md": 1, "docs/formats.md": 1, "docs/research.md": 3}


def _programs(name: str) -> list[tuple[int, str]]:
    """The ```python blocks of ``name`` that are whole programs, with the line each starts on."""
    import re

    text = (API.parents[1] / name).read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"```python\n(.*?)```", text, re.S):
        if m.group(1).startswith(("import ", "from ")):
            out.append((text.count("\n", 0, m.start()) + 2, m.group(1)))
    return out


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_the_guides_example_programs_run(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """README.md, docs/formats.md and docs/research.md show whole programs: each runs as written."""
    programs = _programs(name)
    assert len(programs) == PROGRAMS[name], f"{name} shows {len(programs)} example programs"
    for line, code in programs:
        exec(compile(code, f"{name}:{line}", "exec"), {"__name__": f"example_{line}"})
    capsys.readouterr()
