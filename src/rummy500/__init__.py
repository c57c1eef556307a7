"""rummy500: Rummy 500 -- the rules engine, game records, bots and the web app.

The engine (this package's top-level modules) is pure Python with no
dependencies::

    >>> import random
    >>> from rummy500 import Match, Rules
    >>> match = Match(Rules.from_mapping({"preset": "standard"}), seed=7)
    >>> state = match.round_state()  # (match.state, typed without its None)
    >>> str(state.legal_actions()[0])
    'draw'
"""

from rummy500.actions import (
    Action,
    ActionError,
    Block,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Float,
    LayOff,
    Meld,
    Nominate,
    Pass,
    Reshuffle,
    Swap,
    Take,
    action_from_record,
    parse_action,
)
from rummy500.cards import JOKER, Card, CardError, parse_card, parse_cards
from rummy500.match import Match
from rummy500.record import RecordError, load_record, replay
from rummy500.rules import OPTIONS, PRESETS, Rules, RulesError
from rummy500.state import IllegalAction, Phase, RoundState
from rummy500.views import View

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "OPTIONS",
    "PRESETS",
    "Action",
    "ActionError",
    "Block",
    "CallRummy",
    "Card",
    "CardError",
    "Decline",
    "Discard",
    "Draw",
    "Float",
    "IllegalAction",
    "LayOff",
    "Match",
    "Meld",
    "Nominate",
    "Pass",
    "Phase",
    "RecordError",
    "Reshuffle",
    "RoundState",
    "Rules",
    "RulesError",
    "Swap",
    "Take",
    "View",
    "action_from_record",
    "load_record",
    "parse_action",
    "parse_card",
    "parse_cards",
    "replay",
]
