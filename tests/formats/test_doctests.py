import doctest

import pytest

from rummy500.formats import chips, games, multi


@pytest.mark.parametrize("module", [games, chips, multi], ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    failures, attempted = doctest.testmod(module, raise_on_error=False)
    assert attempted > 0 and failures == 0
