"""The table's pace: the Rummy-call window, the turn clock, the round-summary hold, hints, chat history.

Positions come from seeded games played by random bots up to the moment a test
needs (a claimable discard, a round's last move). The session runs on a clock
the test moves by hand, so every timer is decided by the test, never by how
fast the machine is.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from rummy500.actions import CallRummy
from rummy500.bots import make_bot
from rummy500.server.engine import LiveGame, parse_rules
from rummy500.server.pace import TableSettings
from rummy500.server.session import MatchSession, SeatInfo, SessionError
from rummy500.server.storage import ChatLine

from .helpers import run_async
from .test_leak import CARD, DECLARED


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Store:
    def __init__(self) -> None:
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.chat: list[ChatLine] = []

    def append_action(self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool = False) -> None:
        self.actions.append((seat, action))

    def append_chat(self, game_id: str, line: ChatLine) -> None:
        self.chat.append(line)

    def finish(self, game_id: str, *, record: dict[str, Any], result: dict[str, Any]) -> None:
        pass


class Told:
    """A listener counting the states sent."""

    def __init__(self) -> None:
        self.states = 0

    def state_changed(self, session: MatchSession) -> None:
        self.states += 1

    def table_changed(self, session: MatchSession) -> None:
        pass

    def chat(self, session: MatchSession, sender: str, seat: int, text: str) -> None:
        pass


def find_position(preset: str, players: int, want: Any, limit: int = 400) -> tuple[int, list[tuple[int, Any]]]:
    """A seed and the actions (random bots) leading to the first position where ``want(game)`` holds."""
    rules = parse_rules({"preset": preset}, players)
    for seed in range(1, limit):
        game = LiveGame(rules, [f"P{i}" for i in range(players)], seed)
        rng = random.Random(seed)
        bots = [make_bot("random", seed + i) for i in range(players)]
        played: list[tuple[int, Any]] = []
        while not game.is_over and len(played) < 600:
            if want(game):
                return seed, played
            seat = game.to_move
            action = bots[seat].act(game.view(seat), rng)
            game.apply(seat, action)
            played.append((seat, action))
    raise AssertionError("no seed reaches the position")


def make_session(
    preset: str,
    kinds: list[str],
    seed: int,
    played: list[tuple[int, Any]],
    clock: Clock,
    **options: Any,
) -> MatchSession:
    players = len(kinds)
    rules = parse_rules({"preset": preset}, players)
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    game = LiveGame.replay(rules, names, seed, [(s, a.to_record()) for s, a in played])
    session = MatchSession(
        game_id="pace",
        title="pace",
        rules=rules.to_mapping(),
        seats=[SeatInfo(i, names[i], kind, "random" if kind == "bot" else None) for i, kind in enumerate(kinds)],
        game=game,
        store=Store(),
        bot_delay=0.0,
        rng=random.Random(seed),
        clock=clock,
        **options,
    )
    for i, kind in enumerate(kinds):
        if kind == "human":
            session.connect(i)
    return session


async def settle() -> None:
    """Let the bot driver run until it waits for something."""
    for _ in range(50):
        await asyncio.sleep(0.005)


def _ann_may_call(game: LiveGame) -> bool:
    return (
        game.to_move != 0
        and game.call_chance()
        and any(isinstance(a, CallRummy) for a in game.legal(0))
        and game.match.state.public.last_discarder != 0
    )


def test_a_person_can_win_a_rummy_call_against_bots() -> None:
    seed, played = find_position("popular", 3, _ann_may_call)

    async def run() -> None:
        clock = Clock()
        session = make_session("popular", ["human", "bot", "bot"], seed, played, clock, call_window=4.0)
        session.start()
        await settle()
        # The window is open, the same for every seat, and names no card.
        paces = [session.state_message(s)["pace"] for s in (0, 1, 2, None)]
        assert all(p == paces[0] for p in paces)
        assert paces[0]["call_window"] == {"left": 4.0, "seconds": 4.0}
        assert not CARD.findall(DECLARED.sub("", json.dumps(paces[0])))
        # Bots (the one to move, the ones who might call) wait for the window's end.
        assert session.version == len(played)
        call = next(a for a in session.game.legal(0) if isinstance(a, CallRummy))
        clock.now += 3.0
        await session.submit(0, session.version, call.to_record())
        event = [e for e in session.log() if e["kind"] == "action"][-1]
        assert event["seat"] == 0 and event["action"] == call.to_record() and event["auto"] is False
        await session.close()

    run_async(run())


def test_the_seat_to_move_waits_for_the_call_window_then_play_goes_on() -> None:
    # Bob (a person) may call: the window is the long one; the bot Cy discarded last.
    seed, played = find_position(
        "popular", 3, lambda g: g.to_move == 0 and g.call_chance() and g.match.state.public.last_discarder == 2
    )

    async def run() -> None:
        clock = Clock()
        session = make_session("popular", ["human", "human", "bot"], seed, played, clock, call_window=4.0)
        session.start()
        await settle()
        assert session.version == len(played)  # the bots wait for the window too
        draw = session.game.legal(0)[0]
        with pytest.raises(SessionError) as refused:
            await session.submit(0, session.version, draw.to_record())
        assert refused.value.code == "not_your_turn" and "Rummy!" in refused.value.message
        assert session.version == len(played)
        clock.now += 4.1
        session.kick()
        await settle()
        if session.version == len(played):  # no bot called: Ann plays on
            await session.submit(0, session.version, draw.to_record())
            assert session.store.actions[-1] == (0, draw.to_record())
        else:
            raise AssertionError("only Bob could call, and he did not: nobody may act for him")
        await session.close()

    run_async(run())


def test_an_idle_connected_player_is_played_for_when_the_turn_clock_runs_out() -> None:
    seed, played = find_position("standard", 2, lambda g: g.to_move == 0 and g.match.state.public.phase.value == "draw")

    async def run() -> None:
        clock = Clock()
        session = make_session(
            "standard", ["human", "bot"], seed, played, clock, settings=TableSettings(turn_clock=30)
        )
        session.start()
        await settle()
        assert session.version == len(played)
        shown = session.state_message(1)["pace"]["clock"]
        assert shown == {"seat": 0, "left": 30.0, "seconds": 30, "kind": "turn"}
        clock.now += 29
        session.kick()
        await settle()
        assert session.version == len(played)  # still Ann's time
        clock.now += 2
        session.kick()
        await settle()
        # The bot played Ann's whole turn (draw ... discard) for her, marked as the computer's.
        mine = [e for e in session.log() if e["kind"] == "action" and e["version"] > len(played) and e["seat"] == 0]
        assert mine and all(e["auto"] for e in mine)
        assert "discard" in mine[-1]["action"] or session.game.match.round_index > 0
        if session.game.to_move == 0:  # Ann's next turn: a fresh clock, she plays it herself
            assert session.state_message(0)["pace"]["clock"]["left"] == 30.0
        await session.close()

    run_async(run())


def _round_ends_next(game: LiveGame) -> bool:
    if game.to_move != 1 or game.match.round_index != 0:
        return False
    state = game.match.state
    return state.public.phase.value == "play" and len(state.hands[1]) == 1


def test_the_round_summary_holds_the_table_until_the_person_is_ready() -> None:
    seed, played = find_position("standard", 2, _round_ends_next, limit=800)

    async def run() -> None:
        clock = Clock()
        session = make_session("standard", ["human", "bot"], seed, played, clock, summary_seconds=45.0)
        told = Told()
        session.listeners.append(told)
        session.start()
        for _ in range(20):
            await settle()
            if session.game.match.round_index == 1:
                break
        assert session.game.match.round_index == 1, "the bot did not go out"
        ended = session.version
        summary = session.state_message(None)["pace"]["summary"]
        assert summary is not None and summary["round"] == 0 and summary["waiting"] == [0]
        for row in summary["seats"]:
            assert row["round_score"] == row["melded"] - row["in_hand"]
        assert session.state_message(0)["last_round"]["seats"] == summary["seats"]
        await settle()
        assert session.version == ended  # nobody plays behind the summary
        seat = session.game.to_move
        if seat == 0:
            with pytest.raises(SessionError) as refused:
                await session.submit(0, session.version, session.game.legal(0)[0].to_record())
            assert "round summary" in refused.value.message
        before = told.states
        session.ready(0)
        assert told.states == before + 1  # everyone hears the hold is over
        assert session.state_message(0)["pace"]["summary"] is None
        await session.close()

    run_async(run())


def test_the_round_summary_ends_by_itself_after_its_time() -> None:
    seed, played = find_position("standard", 2, _round_ends_next, limit=800)

    async def run() -> None:
        clock = Clock()
        session = make_session("standard", ["human", "bot"], seed, played, clock, summary_seconds=45.0)
        session.start()
        for _ in range(20):
            await settle()
            if session.pace.hold is not None:
                break
        assert session.pace.hold is not None
        clock.now += 46
        session.kick()
        await settle()
        assert session.pace.hold is None
        await session.close()

    run_async(run())


def test_a_hint_comes_from_the_seats_own_view_and_can_be_turned_off() -> None:
    seed, played = find_position("standard", 2, lambda g: g.to_move == 0 and g.match.state.public.phase.value == "play")

    async def run() -> None:
        clock = Clock()
        session = make_session("standard", ["human", "human"], seed, played, clock)
        hint = await session.hint(0)
        assert hint["type"] == "hint" and hint["version"] == session.version
        assert hint["action"] in [a.to_record() for a in session.game.legal(0)]
        assert hint["reason"]
        # It names only cards Ann can see: her hand, the pile, the melds.
        view = session.game.view_dict(0)
        seen = set(view["hand"]) | set(view["discard"]) | {c for m in view["melds"] for c in m["cards"]}
        named = set(CARD.findall(DECLARED.sub("", json.dumps(hint["action"]))))
        assert named <= seen
        with pytest.raises(SessionError):
            await session.hint(None)
        off = make_session("standard", ["human", "human"], seed, played, clock, settings=TableSettings(hints=False))
        with pytest.raises(SessionError) as refused:
            await off.hint(0)
        assert "hints off" in refused.value.message
        await session.close()
        await off.close()

    run_async(run())


def test_chat_history_is_kept_for_people_who_reconnect() -> None:
    async def run() -> None:
        rules = parse_rules({"preset": "standard"}, 2)
        session = MatchSession(
            game_id="c",
            title="c",
            rules=rules.to_mapping(),
            seats=[SeatInfo(0, "Ann", "human"), SeatInfo(1, "Bob", "human")],
            game=LiveGame(rules, ["Ann", "Bob"], 3),
            store=Store(),
            chat_history=2,
        )
        for text in ("hi", "good luck", "thanks"):
            await session.chat(0, text)
        assert session.chat_history() == [
            {"type": "chat", "seat": 0, "from": "Ann", "text": "good luck"},
            {"type": "chat", "seat": 0, "from": "Ann", "text": "thanks"},
        ]
        await session.close()

    run_async(run())


def test_table_settings_are_checked() -> None:
    assert TableSettings.from_mapping({"turn_clock": 60, "public": True}).to_mapping() == {
        "turn_clock": 60,
        "hints": True,
        "public": True,
    }
    with pytest.raises(ValueError, match="turn_clock"):
        TableSettings.from_mapping({"turn_clock": 45})
    with pytest.raises(ValueError, match="hints"):
        TableSettings.from_mapping({"hints": "no"})


@pytest.mark.parametrize(("preset", "players", "extra"), [("popular", 3, {}), ("popular", 4, {"calling_rummy": "top_card"})])
def test_a_call_window_opens_whenever_any_seat_could_call(preset: str, players: int, extra: dict[str, Any]) -> None:
    """The window is judged on public facts, yet never misses a position where a seat may call."""
    rules = parse_rules({"preset": preset, **extra}, players)
    checked = 0
    for seed in range(1, 11):
        game = LiveGame(rules, [f"P{i}" for i in range(players)], seed)
        rng = random.Random(seed)
        bots = [make_bot("random", seed + i) for i in range(players)]
        while not game.is_over and game.version < 300:
            callers = [s for s in range(players) if any(isinstance(a, CallRummy) for a in game.legal(s))]
            if callers:
                checked += 1
                assert game.call_chance(), f"seed {seed} version {game.version}: seats {callers} may call"
            seat = game.to_move
            game.apply(seat, bots[seat].act(game.view(seat), rng))
    assert checked > 5


def test_bots_pauses_end_on_shared_beats_within_an_eighth_of_their_length() -> None:
    """Bots due within one beat wake together (one burst of decisions), never far from their pause."""
    from rummy500.server.session.driver import pause_end

    ends = []
    for start in [1000.0, 1000.013, 1000.049, 1000.07, 1000.2491]:
        end = pause_end(start, 0.8, beat=0.1)
        assert abs(end - 0.8 - start) <= 0.05 + 1e-9  # half a beat at most
        ends.append(round(end, 6))
    # 1000.013 and 1000.049 end on the beat at 1000.8; 1000.07 and 1000.2491 round to the next ones.
    assert ends == [1000.8, 1000.8, 1000.8, 1000.9, 1001.0]
    # A short pause gets a beat of a quarter of its length: within an eighth of it, on a multiple of it.
    end = pause_end(1000.013, 0.2, beat=0.1)
    assert abs(end - 1000.213) <= 0.025 + 1e-9
    assert abs(end / 0.05 - round(end / 0.05)) < 1e-6
    # No pause (the tests' bots) stays no pause.
    assert pause_end(1000.013, 0.0) == 1000.013


def test_a_bots_pause_sleeps_until_its_beat(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from rummy500.server.session import driver

    # On a loop clock the test sets: the sleep asked for ends exactly on the pause's beat (0.02 s for
    # a pause of 0.08 s), within half a beat of the pause's length, whatever the start.
    for start in (1000.013, 1000.049, 1000.07, 1000.0):
        slept: list[float] = []

        async def sleep(seconds: float, slept: list[float] = slept) -> None:
            slept.append(seconds)

        loop = SimpleNamespace(time=lambda start=start: start)
        monkeypatch.setattr(driver, "asyncio", SimpleNamespace(get_running_loop=lambda loop=loop: loop, sleep=sleep))
        with pytest.raises(StopIteration):
            driver.bot_pause(0.08).send(None)
        assert len(slept) == 1
        assert start + slept[0] == pytest.approx(driver.pause_end(start, 0.08), abs=1e-9)
        assert abs(slept[0] - 0.08) <= 0.01 + 1e-9
    monkeypatch.undo()

    # On the real loop: it really sleeps, never waking before its beat. How late it wakes is the
    # machine's business (a loaded CI machine may be late by much): only an absurd wait fails.
    async def pause() -> tuple[float, float]:
        start = asyncio.get_running_loop().time()
        await driver.bot_pause(0.08)
        return start, asyncio.get_running_loop().time()

    start, end = run_async(pause())
    assert end >= driver.pause_end(start, 0.08) - 0.002  # never before its beat (the clock's resolution aside)
    assert end - start < 10
