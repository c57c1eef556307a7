"""The engine's short paths build their events without the dataclasses' ``__init__``: the same events."""

from dataclasses import fields

import pytest

from rummy500 import state
from rummy500.cards import parse_card
from rummy500.events import Discarded, Drew, Took

CARDS = (parse_card("QS"), parse_card("3H"))


@pytest.mark.parametrize(
    ("quick", "expected"),
    [
        (state._discarded(1, CARDS[:1]), Discarded(1, CARDS[:1])),
        (state._drew(0, CARDS[:1]), Drew(0, 1, CARDS[:1])),
        (state._drew(2, CARDS), Drew(2, 2, CARDS)),
        (state._took(3, CARDS), Took(3, CARDS)),
    ],
    ids=["discarded", "drew one", "drew two", "took"],
)
def test_short_path_events_equal_the_dataclass_ones(quick, expected):
    assert type(quick) is type(expected)
    # every field set (a field added to the event but not to its builder fails here)
    assert [getattr(quick, f.name) for f in fields(expected)] == [getattr(expected, f.name) for f in fields(expected)]
    assert quick == expected and hash(quick) == hash(expected)
    assert quick.to_dict() == expected.to_dict()
    assert quick.seen_by(None) == expected.seen_by(None)
