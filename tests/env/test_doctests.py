import doctest

import pytest

from rummy500.env import aec, encoding, facts, observation


@pytest.mark.parametrize("module", [encoding, aec, facts, observation], ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    failures, attempted = doctest.testmod(module, raise_on_error=False)
    assert attempted > 0 and failures == 0


def test_openspiel_and_single_agent_docstrings_run():
    from rummy500.env import openspiel, single

    for module in (openspiel, single):
        failures, attempted = doctest.testmod(module, raise_on_error=False)
        assert attempted > 0 and failures == 0


def test_bounds_docstrings_run():
    from rummy500.env import bounds

    failures, attempted = doctest.testmod(bounds, raise_on_error=False)
    assert attempted > 0 and failures == 0
