"""The command line's audit fixes, as a user sees them: what each command prints and its exit status.

A bad option, rule or file is one line on standard error and exit status 2
(docs/terminal.md), never a traceback nor a dump of internal names; an option
that would be ignored is refused the same way; ``serve`` binds its port before
it says where to open it; standard output that cannot be written and Ctrl-C
end every command in one line.
"""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import rich  # noqa: F401  (the cli extra: a missing dependency fails, it does not skip)

from rummy500.cli import main as rummy500  # noqa: E402
from rummy500.cli import play  # noqa: E402

from .test_play_terminal import make_record  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: JSON nested deeper than Python's parser recurses
DEEP = "[" * 5000 + "]" * 5000


def _run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = play.main(argv, inp=io.StringIO("".join(f"{x}\n" for x in lines)), out=out)
    return code, out.getvalue()


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``rummy500 ARGV``, which must refuse it: exit status 2, nothing on standard output, one line on standard error."""
    code = rummy500(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.rstrip("\n")


def _env() -> dict[str, str]:
    """The environment of a ``python -m rummy500`` child: this checkout's sources first."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    return env


# 1. ------------------------------------------------------------- demo of a partnership preset


@pytest.mark.parametrize("preset", ["persian", "partnership"])
def test_demo_plays_a_partnership_preset_at_its_four_seats(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert rummy500(["demo", "--preset", preset, "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "  seat 3: " in out and "  seat 4: " not in out
    assert "Round over: " in out


def test_demo_players_still_sets_the_table_and_a_preset_refuses_a_wrong_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert rummy500(["demo", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "  seat 2: " in out and "  seat 3: " not in out
    line = _refused(capsys, ["demo", "--preset", "persian", "--players", "2"])
    assert line == "rummy500 demo: partnership needs players: 4 (got players: 2)"


# 2. ------------------------------------------------------------- serve binds, then says where


def _no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server was started")

    monkeypatch.setattr(uvicorn, "run", never)


def test_serve_says_a_port_in_use_in_one_line_and_never_says_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummy500.cli.serve import serve_main

    _no_server(monkeypatch)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert serve_main(["--port", str(port), "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"rummy500 serve: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serve_on_port_0_names_the_port_it_listens_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    from rummy500.cli.serve import serve_main

    seen: dict[str, Any] = {}

    def run(app: object, **options: Any) -> None:  # instead of serving: the socket uvicorn is handed
        seen["said"] = capsys.readouterr().err  # said before the server starts
        with socket.socket(fileno=os.dup(options["fd"])) as sock:
            seen["port"] = sock.getsockname()[1]
            with socket.create_connection(("127.0.0.1", seen["port"]), timeout=5):
                pass  # it listens already: a browser opening the link is queued, not refused

    monkeypatch.setattr(uvicorn, "run", run)
    assert serve_main(["--port", "0", "--data-dir", str(tmp_path), "--workers", "0"]) == 0
    port = seen["port"]
    assert port != 0
    assert seen["said"].splitlines()[-1] == f"rummy500: open http://127.0.0.1:{port}/"


def test_serve_on_port_0_serves_the_port_it_names(tmp_path: Path) -> None:
    import httpx
    import uvicorn  # noqa: F401  (a dev dependency: missing, it fails)
    cmd = [sys.executable, "-m", "rummy500", "serve", "--port", "0", "--data-dir", str(tmp_path), "--workers", "0"]
    proc = subprocess.Popen(cmd, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        said = [proc.stderr.readline()]
        while said[-1] and "open http" not in said[-1] and len(said) < 20:
            said.append(proc.stderr.readline())
        assert any(line.startswith("rummy500: games kept in sqlite:///") for line in said), said
        assert said[-1].startswith("rummy500: open http://127.0.0.1:"), said
        url = said[-1].split("open ", 1)[1].strip()
        assert not url.endswith(":0/")
        for _ in range(200):
            try:
                answer = httpx.get(url + "api/rules", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        else:
            raise AssertionError(f"nothing answers at {url}")
        assert answer.status_code == 200
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


# 3. ------------------------------------------------------------- serve's bad values, by their option


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--grace", "-1"], "--grace must be from 0 to 604800 (got -1)"),
        (["--port", "99999"], "--port must be from 0 to 65535 (got 99999)"),
        (["--call-window", "-5"], "--call-window must be from 0 to 60 (got -5)"),
        (["--summary", "nan"], "--summary must be from 0 to 600 (got nan)"),
        (["--max-body", "0"], "--max-body must be 1024 or more (got 0)"),
        (["--workers", "-1"], "--workers must be from 0 to 64 (got -1)"),
        (["--lease", "0.1"], "--lease must be from 0.3 to 600 (got 0.1)"),
        (["--client-rate", "0"], "--client-rate must be more than 0 (got 0)"),
        (["--redis-prefix", ""], "--redis-prefix must be 1 to 64 characters long (got '')"),
        (["--chat-max-chars", "0"], "--chat-max-chars must be 1 or more (got 0)"),
    ],
)
def test_serve_refuses_a_bad_value_naming_its_option_in_one_line(
    args: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummy500.cli.serve import serve_main

    _no_server(monkeypatch)
    assert serve_main([*args, "--data-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"rummy500 serve: {says}\n"


def test_every_setting_serve_sets_is_named_by_its_option() -> None:
    import pydantic  # noqa: F401  (a dev dependency: missing, it fails)

    from rummy500.cli.serve import _OPTIONS, build_parser
    from rummy500.server.config import Settings

    flags = {a.dest: a.option_strings for a in build_parser()._actions}
    for field, (dest, flag) in _OPTIONS.items():
        assert field in Settings.model_fields, field
        assert flag in flags[dest], (field, dest, flag)


def test_serve_names_the_environment_variable_a_bad_value_came_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummy500.cli.serve import serve_main

    _no_server(monkeypatch)
    monkeypatch.setenv("RUMMY500_CHAT_MAX_CHARS", "0")
    assert serve_main(["--data-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "rummy500 serve: $RUMMY500_CHAT_MAX_CHARS must be 1 or more (got 0)\n"


def test_serve_says_an_unreachable_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg  # noqa: F401  (a dev dependency: missing, it fails)

    from rummy500.cli.serve import serve_main

    _no_server(monkeypatch)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert serve_main(["--db", f"postgresql://ann:sekret@127.0.0.1:{port}/games", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummy500 serve: cannot open the database: "), err
    assert err.count("\n") == 1 and "sekret" not in err and "sqlalche.me" not in err, err


# 4. ------------------------------------------------------------- in-memory SQLite


@pytest.mark.parametrize(
    "url", ["sqlite://", "sqlite:///:memory:", "sqlite+pysqlite:///:memory:", "sqlite:///file:x?mode=memory&uri=true"]
)
def test_open_storage_refuses_an_in_memory_sqlite_database(url: str) -> None:
    import sqlalchemy  # noqa: F401  (a dev dependency: missing, it fails)

    from rummy500.server.storage import StorageError, open_storage

    with pytest.raises(StorageError, match=r"in-memory SQLite database: .*use sqlite:///PATH \(a file\)"):
        open_storage(url)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_serve_refuses_an_in_memory_sqlite_database_in_one_line(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummy500.cli.serve import serve_main

    _no_server(monkeypatch)
    assert serve_main(["--db", url, "--data-dir", str(tmp_path), "--port", "0"]) == 2
    assert capsys.readouterr().err == (
        f"rummy500 serve: {url!r} is an in-memory SQLite database: every game would be lost when the server stops;"
        " use sqlite:///PATH (a file)\n"
    )


# 5. ------------------------------------------------------------- play --load and the options of a new game


def _saved_game(tmp_path: Path) -> Path:
    save = tmp_path / "game.json"
    code, _ = _run(["--seed", "1", "--save", str(save)], ["d", "quit"])
    assert code == 0
    return save


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--preset", "persian"], "--preset cannot change a loaded game: its rules are in the record"),
        (["--rules", '{"target": 100}'], "--rules cannot change a loaded game: its rules are in the record"),
        (
            ["--opponents", "hard"],
            "--opponents cannot change a loaded game: its bots keep the levels their names say (Medium bot 1)",
        ),
    ],
)
def test_load_refuses_an_option_the_loaded_game_would_ignore(
    args: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = _saved_game(tmp_path)
    before = save.read_text()
    assert play.main(["--load", str(save), *args], inp=io.StringIO("quit\n"), out=io.StringIO()) == 2
    assert capsys.readouterr().err == f"rummy500 play: {says}\n"
    assert save.read_text() == before


def test_load_takes_opponents_for_a_bot_whose_name_does_not_say_its_level(tmp_path: Path) -> None:
    record = make_record({}, ["5H 6H 7H 9C", "KS QS 2D JD"], "3C 4C 5C 8S", "8D", [])
    record["players"] = ["Ann", "Bob"]
    path = tmp_path / "named.json"
    path.write_text(json.dumps(record))
    args = play.parser().parse_args(["--load", str(path), "--name", "Ann", "--opponents", "hard", "--seed", "1"])
    game = play.build(args, inp=io.StringIO("quit\n"), out=io.StringIO())
    assert type(game.bots[1]).__name__ == "HardBot"  # Bob: --opponents said hard
    # --seed with --load seeds the bots and the deals to come: taken, as documented.


def test_load_of_an_illegal_record_counts_rounds_and_actions_from_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = make_record({}, ["5H 6H 7H 9C", "KS QS 2D JD"], "3C 4C 5C 8S", "8D", ["0 draw", "0 meld 5H 6H 7H"])
    record["rounds"][0]["actions"].append({"p": 0, "draw": "stock"})  # a second draw in one turn
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert play.main(["--load", str(path)], inp=io.StringIO(""), out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rummy500 play: cannot resume {path}: round 1, action 3 is not allowed: "), err
    assert err.count("\n") == 1


# 6. ------------------------------------------------------------- JSON nested too deeply


def test_load_of_deeply_nested_json_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "n.json"
    path.write_text(DEEP + "\n")
    assert play.main(["--load", str(path)], inp=io.StringIO(""), out=io.StringIO()) == 2
    assert capsys.readouterr().err == f"rummy500 play: cannot read {path}: not JSON: nested too deeply\n"


@pytest.mark.parametrize("command", ["play", "simulate", "tournament"])
def test_deeply_nested_rules_are_one_line(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = _refused(capsys, [command, "--rules", DEEP])
    assert line == f"rummy500 {command}: --rules is not JSON: nested too deeply"


# 7. ------------------------------------------------------------- standard output that cannot be written


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["rules"],
        ["demo"],
        ["simulate", "--json", "--games", "1", "--bots", "random,random"],
        ["tournament", "--json", "--games", "1", "--bots", "random,easy"],
    ],
)
def test_a_full_standard_output_is_one_line_and_status_2(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "rummy500", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            env=_env(),
            timeout=120,
            check=False,
        )
    assert proc.returncode == 2, proc.stderr.decode()
    assert proc.stderr.decode() == "rummy500: cannot write the output: No space left on device\n"


def test_another_os_error_of_a_command_is_not_called_an_output_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import rummy500.cli as cli

    def command(argv: list[str]) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", "records/game.json")

    monkeypatch.setattr(cli, "_commands", lambda: {"x": ("a command that writes a file", command)})
    with pytest.raises(OSError, match="records/game.json"):
        cli.main(["x"])


# 8. ------------------------------------------------------------- move numbers


def test_a_move_number_plays_only_from_the_list_shown_for_this_move(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    # 'moves' lists the draws; after the draw, '1' would have been the first meld of a list never shown.
    code, text = _run(["--seed", "1", "--save", str(save)], ["moves", "d", "1", "quit"])
    assert code == 0
    after = text.split("You drew", 1)[1]
    assert "1: no numbered list is shown for this move: type 'moves' to see the numbered moves" in after
    assert "  You: " not in after  # nothing was played
    actions = json.loads(save.read_text())["rounds"][0]["actions"]
    assert [a for a in actions if a["p"] == 0] == [{"p": 0, "draw": "stock"}]


def test_a_move_number_plays_from_the_list_shown_for_this_move(tmp_path: Path) -> None:
    code, text = _run(["--seed", "1", "--save", str(tmp_path / "s.json")], ["d", "moves", "sort", "1", "quit"])
    assert code == 0
    listed = text.split("your move> moves", 1)[1]
    first = listed.split("\n")[1].split(None, 1)[1]  # "    1  meld 3C 4C JK=2C": the move numbered 1
    assert f"  You: {first}" in listed  # played and echoed, after a command that changed nothing
    assert "no numbered list" not in text


# 9. ------------------------------------------------------------- Ctrl-C


@pytest.mark.parametrize("command", ["simulate", "tournament", "review", "rules"])
def test_ctrl_c_is_one_line_and_status_130(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    where = {
        "simulate": ("rummy500.cli.simulate", "run_games"),
        "tournament": ("rummy500.sim.tournament", "run_tournament"),
        "review": ("rummy500.cli.review_cmd", "review_record"),
        "rules": ("rummy500.cli.rules_cmd", "catalogue_markdown"),
    }[command]
    monkeypatch.setattr(importlib.import_module(where[0]), where[1], interrupted)
    argv = {
        "simulate": ["simulate", "--games", "1"],
        "tournament": ["tournament", "--games", "1", "--bots", "random,easy"],
        "review": ["review", "-", "--unfinished"],
        "rules": ["rules", "--markdown"],
    }[command]
    if command == "review":
        record = make_record({}, ["5H 6H 7H 9C", "KS QS 2D JD"], "3C 4C 5C 8S", "8D", ["0 draw"])
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(record)))
    try:
        code = rummy500(argv)
    except KeyboardInterrupt:  # (caught here: escaping, it would stop the whole test run)
        pytest.fail("Ctrl-C escaped the command: a traceback")
    assert code == 130
    assert capsys.readouterr().err.endswith("rummy500: interrupted\n")


def test_ctrl_c_of_a_running_simulation_is_one_line_and_status_130() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummy500", "simulate", "--games", "100000", "--bots", "random,random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        text=True,
        # Ctrl-C as at a terminal, even where the tests were started with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509 - single-threaded child setup
    )
    time.sleep(4)  # well into the games
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "rummy500: interrupted\n"


# ------------------------------------------------------------------ smaller ones


def test_rules_show_refuses_an_empty_name(capsys: pytest.CaptureFixture[str]) -> None:
    line = _refused(capsys, ["rules", "--show", ""])
    assert line.startswith("rummy500 rules: --show needs a preset's name (presets: standard, ")


@pytest.mark.parametrize(("args", "other"), [(["--show", "persian"], "--show"), (["--json"], "--json")])
def test_rules_markdown_refuses_an_option_it_would_ignore(
    args: list[str], other: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _refused(capsys, ["rules", "--markdown", *args])
    assert line == f"rummy500 rules: --markdown prints the whole catalogue as Markdown: it takes no {other}"


def test_replay_position_refuses_indent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(make_record({}, ["5H 6H 7H 9C", "KS QS 2D JD"], "3C 4C 5C 8S", "8D", ["0 draw"])))
    line = _refused(capsys, ["replay", str(path), "--position", "--indent", "2"])
    assert line == (
        "rummy500 replay: --indent lays out the JSON result, and --position prints a position instead: give one of them"
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--format", "single", "--games", "5"], "--games is for --format round-robin, not --format single"),
        (["--format", "round-robin", "--rounds", "3"], "--rounds is for --format ring, not --format round-robin"),
        (["--rounds", "3"], "--rounds is for --format ring, not --format round-robin"),
        (["--format", "ring", "--max-table", "3"], "--max-table is for --format multi, not --format ring"),
        (["--format", "multi", "--jobs", "2"], "--jobs is for --format round-robin, not --format multi"),
        (
            ["--bots", "random*2,easy"],
            "random*2: LEVEL*N enters N bots of a level in --format single, multi and ring;"
            " the round-robin plays each level once (--bots random,easy,medium)",
        ),
    ],
)
def test_tournament_refuses_an_option_of_another_format(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _refused(capsys, ["tournament", *args]) == f"rummy500 tournament: {says}"


def test_the_command_list_names_every_tournament_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert rummy500(["--help"]) == 0
    out = capsys.readouterr().out
    assert "a rated round-robin, a single- or multi-table tourney, or a ring game" in " ".join(out.split())


# 8. ------------------------------------------------------------- seeds


@pytest.mark.parametrize("command", ["demo", "play", "review", "simulate", "tournament"])
def test_a_negative_seed_is_refused_it_would_replay_its_positive_twin(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # (random.Random(-4) deals as random.Random(4): `simulate --seed -4` printed `--seed 4`'s games.)
    argv = [command, "game.json"] if command == "review" else [command]
    with pytest.raises(SystemExit) as info:
        rummy500([*argv, "--seed", "-4"])
    out, err = capsys.readouterr()
    assert info.value.code == 2 and out == ""
    last = err.splitlines()[-1]  # (after argparse's usage, or alone: review's errors are one line)
    assert last.startswith(f"rummy500 {command}: ")
    assert "argument --seed: must be 0 or more, not -4 (a negative seed plays the same games as its positive twin)" in last


def test_play_without_the_terminal_package_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # rich is imported where play first uses it, not at the command's import: that was a traceback.
    for name in [m for m in sys.modules if m == "rich" or m.startswith("rich.")] or ["rich"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    line = _refused(capsys, ["play", "--opponents", "random"])
    assert line.startswith("rummy500: this command needs more packages (rich")
