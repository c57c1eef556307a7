"""``rummy500 replay`` findings of the record audit: what a user sees for each.

1. ``first_discard: first_player``: the first player's refused draw / take /
   pass says they start the discard pile, not "you have already drawn".
2. ``state.phase`` ``shuffle`` (``stock_out: reshuffle``) is documented, and
   the record entry it waits for is the reshuffle.
3. Unknown keys in a round or a deal (and misspelt top-level fields) are a
   malformed record naming the key and where it is; a top-level ``dealer``
   alone is a round without a deal. Documented extra fields stay accepted.
4. ``rules.players`` 2.0 is refused with or without ``players``.
5. Discarding a declared joker (``JK=7H``) says a discarded joker is plain ``JK``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rummy500.actions import Draw, Pass, Take
from rummy500.cli import replay_cmd
from rummy500.match import Match
from rummy500.public import Phase
from rummy500.record import load_record, replay
from rummy500.rules import Rules
from rummy500.state import IllegalAction, RoundState

ROOT = Path(__file__).resolve().parents[2]
DEAL = {
    "hands": [["AS", "2S", "3S", "9D", "KC"], ["4H", "5H", "6H", "8C", "8D"]],
    "stock": ["QD", "7S", "2C", "5D"],
    "discard": ["TC"],
}


def run(record: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any, str]:
    """``rummy500 replay FILE``: exit status, the parsed JSON printed (or None), standard error."""
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    code = replay_cmd.main([str(path)])
    out, err = capsys.readouterr()
    if code == 2:
        assert out == "" and len(err.splitlines()) == 1, (out, err)
        assert err.startswith("rummy500 replay: malformed record: "), err
        return code, None, err
    assert err == "", err
    return code, json.loads(out), err


# ------------------------------------------------- 1. first_discard: first_player

HOYLE_DECK = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"]
FIRST_PLAYER_WORDS = "you were dealt the extra card (first_discard: first_player)"


@pytest.mark.parametrize("action", [{"draw": "stock"}, {"take": 1}, {"pass": True}])
@pytest.mark.parametrize(
    ("rules", "deal"),
    [
        ({"preset": "hoyle"}, {"deck": HOYLE_DECK}),
        ({"preset": "hoyle", "jokers": 2}, DEAL),  # a constructed deal with an upcard: still no draw first
    ],
)
def test_hoyle_first_player_may_not_draw_and_is_told_they_start_the_pile(action, rules, deal, tmp_path, capsys):
    record = {"rules": rules, "players": 2, "rounds": [{"dealer": 1, "deal": deal, "actions": [{"p": 0, **action}]}]}
    code, result, _ = run(record, tmp_path, capsys)
    assert code == 1 and result["ok"] is False
    message = result["error"]["message"]
    assert result["error"]["round"] == 0 and result["error"]["action"] == 0
    assert message.startswith(FIRST_PLAYER_WORDS) and "starts the discard pile with a discard" in message
    assert "already drawn" not in message
    assert result["state"]["phase"] == "play" and result["state"]["to_move"] == 0


def test_hoyle_draws_after_the_first_turn_still_say_already_drawn(tmp_path, capsys):
    actions = [{"p": 0, "discard": "KC"}, {"p": 1, "draw": "stock"}, {"p": 1, "draw": "stock"}]
    record = {"rules": {"preset": "hoyle", "jokers": 2}, "players": 2, "dealer": 1, "deal": DEAL}
    record["actions"] = actions
    code, result, _ = run(record, tmp_path, capsys)
    assert code == 1 and result["error"]["action"] == 2
    assert result["error"]["message"] == "you have already drawn this turn"


@pytest.mark.parametrize("action", [Draw(), Take(1), Pass()])
def test_hoyle_first_player_refusal_through_the_engine_api(action):
    rules = Rules.from_mapping({"preset": "hoyle", "players": 2})
    state = RoundState.new(rules, 1, random.Random(7))
    assert state.public.phase is Phase.PLAY and state.public.to_move == 0
    with pytest.raises(IllegalAction) as info:
        state.apply(action, 0)
    assert str(info.value).startswith(FIRST_PLAYER_WORDS)


# ------------------------------------------------------------ 2. phase shuffle

RESHUFFLE = {
    "rules": {"stock_out": "reshuffle"},
    "players": 2,
    "rounds": [
        {
            "dealer": 1,
            "deal": {
                "hands": [["7H", "8H", "2C", "KC"], ["4D", "5D", "9S", "QS"]],
                "stock": ["QC"],
                "discard": ["TC", "3D"],
            },
            "actions": [{"p": 0, "draw": "stock"}, {"p": 0, "discard": "KC"}],
        }
    ],
}


def _with(actions: list[dict[str, Any]]) -> dict[str, Any]:
    rec = json.loads(json.dumps(RESHUFFLE))
    rec["rounds"][0]["actions"].extend(actions)
    return rec


def test_a_record_may_stop_in_phase_shuffle_before_the_reshuffle_is_recorded(tmp_path, capsys):
    code, result, _ = run(RESHUFFLE, tmp_path, capsys)
    assert code == 0 and result["ok"] is True
    state = result["state"]
    assert state["phase"] == "shuffle" and state["stock_count"] == 0 and state["to_move"] == 1
    assert state["discard"] == ["TC", "3D", "KC"]


def test_after_shuffle_the_next_entry_is_the_reshuffle_of_the_pile_but_its_top(tmp_path, capsys):
    # As documented: {"p": to_move, "reshuffle": discard without its top card}, the new stock top first.
    code, result, _ = run(_with([{"p": 1, "reshuffle": ["3D", "TC"]}, {"p": 1, "draw": "stock"}]), tmp_path, capsys)
    assert code == 0 and result["ok"] is True
    state = result["state"]
    assert state["phase"] == "play" and state["discard"] == ["KC"] and state["stock_count"] == 1
    assert "3D" in state["hands"][1]  # the top of the new stock


@pytest.mark.parametrize("action", [{"p": 1, "draw": "stock"}, {"p": 1, "take": 1}, {"p": 1, "pass": True}])
def test_in_phase_shuffle_any_other_entry_is_illegal(action, tmp_path, capsys):
    code, result, _ = run(_with([action]), tmp_path, capsys)
    assert code == 1
    message = "the discard pile must be reshuffled into a new stock first"
    assert result["error"] == {"round": 0, "action": 2, "message": message}
    assert result["state"]["phase"] == "shuffle"


def test_every_phase_the_replay_can_print_is_documented():
    text = (ROOT / "docs" / "records.md").read_text()
    listed = re.search(r"`phase` —(.*?)—", text, re.S)
    assert listed is not None
    documented = set(re.findall(r"`(\w+)`", listed.group(1)))
    assert {p.value for p in Phase} | {"game_over"} <= documented
    assert "`shuffle` (`stock_out: reshuffle`)" in text and '"reshuffle": [...]' in text


# ------------------------------------------------------------ 3. unknown keys

TYPO_ROUND = {"players": 2, "rounds": [{"dealr": 1, "deal": DEAL, "actions": [{"p": 0, "draw": "stock"}]}]}
TYPO_DEAL = {
    "players": 2,
    "rounds": [
        {
            "dealer": 1,
            "deal": {"hands": DEAL["hands"], "stok": ["QD"], "discard": ["TC"]},
            "actions": [{"p": 0, "draw": "stock"}],
        }
    ],
}


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (TYPO_ROUND, "rounds[0]: unknown key 'dealr' (did you mean 'dealer'?)"),
        (TYPO_DEAL, "rounds[0].deal: unknown key 'stok' (did you mean 'stock'?)"),
        ({**TYPO_ROUND, "rounds": [{**TYPO_ROUND["rounds"][0], "dealr": None, "comment": "x"}]},
         "rounds[0]: unknown key 'dealr'"),
        ({"players": 2, "rounds": [{"dealer": 1, "deal": DEAL, "notes": "x"}]},
         "rounds[0]: unknown key 'notes' (known keys: 'dealer', 'deal', 'actions')"),
        ({"players": 2, "rounds": [{"dealer": 1, "deal": {**DEAL, "zzz": 1}}]},
         "rounds[0].deal: unknown key 'zzz' (known keys: 'hands', 'stock', 'discard', 'deck')"),
        (
            {"players": 2, "dealer": 1, "deal": {**DEAL, "Stock": []}},
            "malformed record: deal: unknown key 'Stock' (did you mean 'stock'?)",  # a one-round record: no rounds[0]
        ),
        (
            {"players": 2, "round": [{"dealer": 1, "deal": DEAL}]},
            "top level: unknown key 'round' (did you mean 'rounds'?)",
        ),
        ({"players": 2, "dealr": 1, "deal": DEAL}, "top level: unknown key 'dealr' (did you mean 'dealer'?)"),
        ({"Rules": {"preset": "hoyle"}, "players": 2}, "top level: unknown key 'Rules' (did you mean 'rules'?)"),
        (
            {"players": 2, "stock": ["QD"], "deal": DEAL},
            "top level: unknown key 'stock' (a deal's field: it belongs inside 'deal')",
        ),
    ],
)
def test_an_unknown_key_is_a_malformed_record_naming_it_and_where(record, words, tmp_path, capsys):
    code, _, err = run(record, tmp_path, capsys)
    assert code == 2
    assert words in err, err


def test_the_stock_typo_no_longer_surfaces_as_a_misleading_illegal_action(tmp_path, capsys):
    code, _, err = run(TYPO_DEAL, tmp_path, capsys)
    assert code == 2 and "stock is empty" not in err


@pytest.mark.parametrize(
    ("dealer", "words"),
    [
        (7, "malformed record: dealer must be a seat 0..1"),
        (-1, "malformed record: dealer must be a seat 0..1"),
        ("x", "malformed record: dealer must be a seat 0..1"),
        (True, "malformed record: dealer must be a seat 0..1"),
        (1, "malformed record: deal is missing"),
    ],
)
def test_a_top_level_dealer_alone_is_a_round_without_a_deal(dealer, words, tmp_path, capsys):
    code, _, err = run({"players": 2, "dealer": dealer}, tmp_path, capsys)
    assert code == 2 and words in err, err


@pytest.mark.parametrize(
    "extra",
    [
        {"event": "club night", "date": "2024-05-01", "site": "Leeds", "notes": "friendly", "id": 4, "version": 2},
        {"winner": 0, "result": "1-0", "seed": 9, "comment": "x", "player_names": ["A", "B"]},
    ],
)
def test_extra_top_level_fields_stay_ignored_as_documented(extra, tmp_path, capsys):
    record = {"players": 2, "dealer": 1, "deal": DEAL, "actions": [{"p": 0, "draw": "stock"}], **extra}
    code, result, _ = run(record, tmp_path, capsys)
    assert code == 0 and result["ok"] is True


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "standard"},
        {"preset": "hoyle"},
        {"preset": "standard", "stock_out": "reshuffle"},
        {"preset": "standard", "dealers_gambit": True},
        {"preset": "standard", "calling_rummy": "steal", "joker_swap": True},
        {"preset": "standard", "discard_count": "match_drawn", "stock_draw_count": 2},
    ],
)
def test_records_the_project_writes_still_load_and_replay(rules):
    """Match.record() (what the CLI, the simulator and the server save) stays a valid record."""
    rng = random.Random(11)
    match = Match(Rules.from_mapping(rules), seed=5)
    for _ in range(400):
        if match.is_over or match.state is None:
            break
        if match.state.is_over:
            match.continue_play()
            continue
        seat = match.state.public.to_move
        legal = match.legal_actions(seat)
        if not legal:
            break
        match.apply(seat, rng.choice(legal))
    record = json.loads(json.dumps(match.record()))
    load_record(record)
    assert replay(record)["ok"] is True


def test_the_shared_conformance_records_and_the_docs_example_still_load():
    for case in sorted((ROOT.parent / "shared" / "conformance").glob("*.json")):
        data = json.loads(case.read_text())
        if data.get("expect", {}).get("exit") != 2:
            load_record(data["record"])
    example = re.search(r"```json\n(.*?)```", (ROOT / "docs" / "records.md").read_text(), re.S)
    assert example is not None
    load_record(json.loads(example.group(1)))


# ---------------------------------------------------------- 4. rules.players 2.0


@pytest.mark.parametrize("players", [2, ["Ann", "Bob"]])
def test_rules_players_as_a_float_is_refused_with_or_without_players(players, tmp_path, capsys):
    code, _, alone = run({"rules": {"players": 2.0}}, tmp_path, capsys)
    assert code == 2 and "option 'players' cannot be 2.0" in alone
    code, _, err = run({"rules": {"players": 2.0}, "players": players}, tmp_path, capsys)
    assert code == 2 and err == alone


def test_rules_players_and_players_must_still_agree(tmp_path, capsys):
    code, _, err = run({"rules": {"players": 3}, "players": 2}, tmp_path, capsys)
    assert code == 2 and "'players' (2) and rules.players (3) disagree" in err
    code, result, _ = run({"rules": {"players": 2}, "players": ["Ann", "Bob"], "deal": DEAL}, tmp_path, capsys)
    assert code == 0 and result["totals"] == [0, 0]


# ------------------------------------------------- 5. a declared joker discarded

JOKER_DEAL = {
    "hands": [["4H", "5H", "JK", "9C", "9D"], ["6H", "7H", "KC", "KD"]],
    "stock": ["QC", "QD"],
    "discard": ["TC"],
}


def test_discarding_a_declared_joker_says_it_is_written_plain_jk(tmp_path, capsys):
    actions = [{"p": 0, "draw": "stock"}, {"p": 0, "discard": "JK=7H"}]
    record: dict[str, Any] = {"players": 2, "dealer": 1, "deal": JOKER_DEAL, "actions": actions}
    code, result, _ = run(record, tmp_path, capsys)
    assert code == 1
    assert result["error"]["action"] == 1
    assert "a discarded joker is written plain 'JK', not 'JK=7H'" in result["error"]["message"]
    record["actions"][1] = {"p": 0, "discard": "JK"}
    code, result, _ = run(record, tmp_path, capsys)
    assert code == 0 and result["state"]["discard"] == ["TC", "JK"]

