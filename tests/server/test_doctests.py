"""The server modules' docstring examples run."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from rummy500.server import config, engine, hints, hub
from rummy500.server.api import ws
from rummy500.server.session import driver, events, guards, match
from rummy500.server.storage import base


@pytest.mark.parametrize("module", [base, config, driver, engine, events, guards, hints, hub, match, ws], ids=lambda m: m.__name__)
def test_server_docstring_examples_run(module: ModuleType) -> None:
    failures, attempted = doctest.testmod(module, raise_on_error=False)
    assert attempted > 0 and failures == 0
