"""The bot contract: a registry by name, legal answers only, and no way to see hidden cards."""

from __future__ import annotations

import ast
import dataclasses
import gc
import random
from collections.abc import Callable
from pathlib import Path

import pytest

import rummy500.bots as bots_pkg
from rummy500 import Match, Rules
from rummy500.actions import Action, Decline
from rummy500.bots import BOT_LEVELS, Bot, make_bot
from rummy500.state import RoundState
from rummy500.views import View

from .conftest import FAST

BOTS_DIR = Path(bots_pkg.__file__).parent


def _bot(level: str, seed: int = 1, **extra: object) -> Bot:
    return make_bot(level, seed, **{**FAST.get(level, {}), **extra})


#: Every level, and the searching levels' options that change what they search.
VARIANTS: list[tuple[str, dict[str, object]]] = [(level, {}) for level in BOT_LEVELS] + [
    ("hard", {"hold_back": True}),
    ("expert", {"hold_back": True}),
]


def test_registry_names_every_level() -> None:
    assert BOT_LEVELS == ("random", "easy", "medium", "hard", "expert")
    for level in BOT_LEVELS:
        bot = make_bot(level, 3)
        assert isinstance(bot, Bot)
        assert bot.level == level
    assert make_bot("HARD", 1).level == "hard"
    assert make_bot("Expert", 1).level == "expert"


def test_unknown_level_is_refused_with_the_list() -> None:
    with pytest.raises(KeyError, match="random, easy, medium, hard, expert"):
        make_bot("grandmaster")


def _play(level: str, preset: str, seed: int, steps: int, check: Callable[[Bot, View, Action | None, bool], None]) -> int:
    """Three ``level`` bots play a ``preset`` match for ``steps`` turns; ``check(bot, view, answer, in_turn)`` sees every answer.

    Returns how many in-turn answers were checked.
    """
    match = Match(Rules.from_mapping({"preset": preset, "players": 3}), seed=seed)
    bots = [_bot(level, s) for s in range(3)]
    rng = random.Random(seed)
    turns = 0
    for _ in range(steps):
        state = match.state
        assert state is not None
        for s in state.actors()[1:]:
            view = match.view(s)
            check(bots[s], view, bots[s].act(view, rng), False)
        seat = state.public.to_move
        view = match.view(seat)
        act = bots[seat].act(view, rng)
        check(bots[seat], view, act, True)
        turns += 1
        assert act is not None
        match.apply(seat, act)
        if match.is_over:
            break
    return turns


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_in_turn_answer_is_legal_and_out_of_turn_may_pass(level: str) -> None:
    def legal(_bot: Bot, view: View, act: Action | None, in_turn: bool) -> None:
        assert act in view.legal if in_turn else (act is None or act in view.legal)

    assert _play(level, "popular", 11, 120, legal) >= 100


#: The reasons of moves a bot makes by a fixed rule (they name no action).
RULE_REASONS = ("a wild joker", "a stolen card", "my joker is not wild", "a joker is worth", "Rummy!", "laying out of turn", "a random")


@pytest.mark.parametrize("preset", ["boathouse", "popular"])
@pytest.mark.parametrize("level", BOT_LEVELS)
def test_every_reason_explains_the_move_it_was_given_for(level: str, preset: str) -> None:
    """``explain()`` (what a hint shows) is about the move just made: never a reason left from an earlier one.

    A move forced by the rules (the one legal action, a meld of the card taken from the pile)
    once kept the reason of the decision before it, so a hint said "take 3" beside a meld.
    """

    def explained(bot: Bot, _view: View, act: Action | None, in_turn: bool) -> None:
        why = bot.explain()
        if in_turn:
            assert why.startswith((str(act), *RULE_REASONS)), (str(act), why)
        elif act in (None, Decline()):
            assert "call" in why, why
        else:
            assert why.startswith(RULE_REASONS), (act, why)

    assert _play(level, preset, 5, 150, explained) >= 100


def test_no_legal_actions_means_no_action() -> None:
    rules = Rules.from_mapping({})
    state = RoundState.new(rules, 0, random.Random(2))
    view = state.view(0)  # seat 1 is to move: seat 0 has nothing to do
    assert not view.legal
    for level in BOT_LEVELS:
        assert make_bot(level, 1).act(view, random.Random(1)) is None


# ---------------------------------------------------------------- no cheating
def _reachable_objects(root: object, limit: int = 50_000) -> list[object]:
    seen: set[int] = set()
    out: list[object] = []
    stack = [root]
    while stack and len(out) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


def test_a_view_holds_no_reference_to_the_round_state() -> None:
    match = Match(Rules.from_mapping({"preset": "dealers_gambit", "players": 3}), seed=4)
    state = match.state
    assert state is not None
    view = match.view(0)
    assert all(not isinstance(getattr(view, f.name), RoundState) for f in dataclasses.fields(View))
    reachable = _reachable_objects(view)
    assert not any(isinstance(o, RoundState) for o in reachable)
    assert not any(o is state.hands[1] or o is state.stock for o in reachable)


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module, under TYPE_CHECKING) for every import in a file."""
    tree = ast.parse(path.read_text())
    out: list[tuple[str, bool]] = []
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in ast.walk(node):
                guarded.add(id(sub))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.module, id(node) in guarded))
        elif isinstance(node, ast.Import):
            out.extend((a.name, id(node) in guarded) for a in node.names)
    return out


def test_bots_never_import_the_game_or_the_round_state() -> None:
    """Bots get a View; only the determinizer builds RoundStates -- its own guesses."""
    for path in sorted(BOTS_DIR.glob("*.py")):
        for module, typing_only in _imports(path):
            assert module not in ("rummy500.match", "rummy500.record", "rummy500.server"), f"{path.name} imports {module}"
            if module == "rummy500.state" and path.name != "determinize.py":
                assert typing_only, f"{path.name} imports rummy500.state outside TYPE_CHECKING"


def _poisoned(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """The same position for ``seat``, with every card it cannot see dealt differently."""
    other = state.copy()
    hidden = []
    keep: list[list] = []
    for s in range(state.n):
        if s == seat:
            keep.append([])
            continue
        known = list(state.public.known[s])
        rest = list(state.hands[s])
        for c in known:
            rest.remove(c)
        keep.append(known)
        hidden.extend(rest)
    hidden.extend(state.stock)
    rng.shuffle(hidden)
    pos = 0
    for s in range(state.n):
        if s == seat:
            continue
        need = len(state.hands[s]) - len(keep[s])
        other.hands[s] = keep[s] + hidden[pos : pos + need]
        pos += need
    other.stock = hidden[pos:]
    other.forget_caches()
    return other


@pytest.mark.parametrize(("level", "extra"), VARIANTS, ids=lambda v: v if isinstance(v, str) else ",".join(v) or "-")
def test_poisoned_hidden_cards_change_nothing(level: str, extra: dict[str, object]) -> None:
    rules = Rules.from_mapping({"preset": "popular"})
    match = Match(rules, seed=21)
    movers = [make_bot("medium", 1), make_bot("medium", 2)]
    rng = random.Random(5)
    checked = 0
    for step in range(80):
        state = match.state
        assert state is not None
        seat = state.public.to_move
        view = match.view(seat)
        if step % 7 == 3 and len(view.legal) > 1:
            twin = _poisoned(state, seat, random.Random(step))
            assert twin.hands != state.hands or twin.stock != state.stock
            twin_view = twin.view(seat, match.totals)
            assert twin_view == view
            a = _bot(level, 9, **extra).act(view, random.Random(step))
            b = _bot(level, 9, **extra).act(twin_view, random.Random(step))
            assert a == b
            checked += 1
        match.apply(seat, movers[seat].act(view, rng))
        if match.is_over:
            break
    assert checked >= 5


def test_no_bot_decides_a_rule_from_option_strings() -> None:
    """Bots read rule facts from the view (or the engine's Rules methods), never option names or values."""
    from rummy500.actions import GAMBIT_MODES
    from rummy500.rules import OPTIONS

    words = set(OPTIONS)
    for spec in OPTIONS.values():
        words.update(v.strip() for v in spec.values.split(",") if v.strip().replace("_", "").isalpha())
    words -= {"false", "true"}
    # A Dealer's Gambit nomination ("wild", "double", "split") is the dealer's own move, not a rule;
    # "auto" is also hard's own setting horizon="auto" (an option such as decks: auto would be read
    # through its attribute, which the second test below catches).
    allowed = set(GAMBIT_MODES) | {"auto"}
    found = []
    for path in sorted(Path(bots_pkg.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
            if text in words and text not in allowed:
                found.append(f"{path.name}:{node.lineno} {node.value!r}")
            if isinstance(node, ast.Attribute) and node.attr in OPTIONS and node.attr not in _PLAIN_FACTS:
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert not found, "bots decide rules from options: " + ", ".join(found)


# Options that are plain facts of the table rather than rules to apply (the pack, the players).
_PLAIN_FACTS = {"players", "partnership", "short_pack"}
