"""Which engine the tests run: pure Python by default, the compiled build when asked.

``scripts/test.sh`` runs the differential tests a second time against the
compiled build (``scripts/build_compiled.py``) with ``RUMMY500_EXPECT_COMPILED=1``;
this test makes that step fail if the modules it imports are not the compiled
ones (a build that silently fell back to the pure-Python sources would prove
nothing). Without the variable it checks the opposite: the default install is
pure Python.
"""

import importlib
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
try:
    from build_compiled import MODULES
finally:
    sys.path.remove(str(ROOT / "scripts"))

NAMES = ["rummy500." + m.removesuffix(".py").replace("/", ".") for m in MODULES]
EXPECT_COMPILED = os.environ.get("RUMMY500_EXPECT_COMPILED") == "1"


@pytest.mark.parametrize("name", NAMES)
def test_engine_module_is_the_expected_build(name: str) -> None:
    module = importlib.import_module(name)
    suffix = Path(module.__file__ or "").suffix
    if EXPECT_COMPILED:
        assert suffix == ".so", f"{name} is {module.__file__}, not the compiled build"
    else:
        assert suffix == ".py", f"{name} is {module.__file__}: the default engine must be pure Python"


def test_pure_modules_stay_interpreted() -> None:
    # The modules left out of the build are the sources, in either mode.
    for name in ("rummy500.public", "rummy500.views", "rummy500.bots.hard", "rummy500.env.aec"):
        module = importlib.import_module(name)
        assert Path(module.__file__ or "").suffix == ".py", name


def _play(state, rng, moves: int) -> list[str]:
    from rummy500.state import Phase

    out = []
    for _ in range(moves):
        if state.is_over:
            break
        if state.public.phase is Phase.SHUFFLE:
            state.apply(state.chance_reshuffle(rng))
            continue
        acts = state.legal_actions()
        action = rng.choice(acts)
        out.append(str(action))
        state.apply(action, check=False)
    return out


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_a_copied_state_plays_on_alike(how: str) -> None:
    # The compiled RoundState and hand index are native classes: copying and pickling
    # must carry every field (the caches included) as the pure-Python slots do.
    import copy
    import pickle
    import random

    from rummy500.rules import Rules
    from rummy500.state import RoundState

    rng = random.Random(5)
    state = RoundState.new(Rules.preset_rules("popular", players=3), 0, rng)
    _play(state, rng, 25)
    state.legal_actions()  # the caches filled
    twin = {"copy": state.copy, "deepcopy": lambda: copy.deepcopy(state), "pickle": lambda: pickle.loads(pickle.dumps(state))}[how]()
    assert twin.position() == state.position()
    assert twin.legal_actions() == state.legal_actions()
    assert _play(twin, random.Random(9), 200) == _play(state, random.Random(9), 200)
    assert twin.position() == state.position()
