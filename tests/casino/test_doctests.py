import doctest

import pytest

from rummy500.casino import cards, exact, money, strategy, svg


@pytest.mark.parametrize("module", [cards, exact, money, strategy, svg], ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    failures, attempted = doctest.testmod(module, raise_on_error=False)
    assert attempted > 0 and failures == 0
