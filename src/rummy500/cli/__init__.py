"""The ``rummy500`` command: one subcommand per module under ``rummy500.cli``.

Whatever the command, a reader that stops reading (``rummy500 rules | head``)
ends it quietly (exit status 1); standard output that cannot be written (a full
disk: ``rummy500 rules > /dev/full``) is one line on standard error, exit status
2; Ctrl-C is ``rummy500: interrupted``, exit status 130 (in a game, ``play``
saves and stops as at ``quit`` instead, in its own handler).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

#: After Ctrl-C, how long the exit may take before the process is ended anyway (see ``pools.end_within``).
EXIT_SECONDS = 5.0

__all__ = ["main", "run"]


def _commands() -> dict[str, tuple[str, Callable[[list[str]], int]]]:
    from rummy500.cli import demo, replay_cmd, rules_cmd

    cmds: dict[str, tuple[str, Callable[[list[str]], int]]] = {
        "replay": ("check a game record and print the result as JSON", replay_cmd.main),
        "rules": ("list presets and options, or show a preset", rules_cmd.main),
        "demo": ("print a seeded bot-vs-bot round move by move", demo.main),
    }
    for name, module, attr, helptext in (
        ("play", "rummy500.cli.play", "main", "play a game against bots in the terminal"),
        ("simulate", "rummy500.cli.simulate", "main", "play many bot games and report results"),
        (
            "tournament",
            "rummy500.cli.tournament",
            "main",
            "bots against bots: a rated round-robin, a single- or multi-table tourney, or a ring game",
        ),
        ("review", "rummy500.cli.review_cmd", "main", "review a finished game: each decision's expected points lost"),
        ("serve", "rummy500.cli.serve", "serve_main", "start the web app"),
        ("casino", "rummy500.casino.cli", "main", "Costa Rican Rummy, the casino blackjack variant (edge, strategy, play, simulate)"),
    ):
        cmds[name] = (helptext, _lazy(module, attr))
    return cmds


def _lazy(module: str, attr: str) -> Callable[[list[str]], int]:
    def run(argv: list[str]) -> int:
        import importlib

        try:
            mod = importlib.import_module(module)
            return int(getattr(mod, attr)(argv) or 0)
        except ModuleNotFoundError as exc:
            # (Raised at the import, or by a command importing an optional package where it uses
            # it, as `play` does rich: a missing package of ours is a bug, left to show.)
            if (exc.name or "rummy500").partition(".")[0] == "rummy500":
                raise
            print(f"rummy500: this command needs more packages ({exc.name}); install with: pip install -e '.[all]'", file=sys.stderr)
            return 2

    return run


def main(argv: list[str] | None = None) -> int:
    """Run the ``rummy500`` command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    cmds = _commands()
    if not args or args[0] in ("-h", "--help") or args[0] not in cmds:
        parser = argparse.ArgumentParser(prog="rummy500", description="Rummy 500: engine, bots, terminal and web play.")
        sub = parser.add_subparsers(dest="command", metavar="COMMAND")
        for name, (helptext, _) in cmds.items():
            sub.add_parser(name, help=helptext, add_help=False)
        if not args or args[0] in ("-h", "--help"):
            parser.print_help()
            return 0 if args else 2
        print(f"rummy500: unknown command {args[0]!r} (commands: {', '.join(cmds)})", file=sys.stderr)
        return 2
    out = _Stdout(sys.stdout) if sys.stdout is not None else None  # None: standard output closed (`>&-`)
    if out is not None:
        sys.stdout = out
    try:
        code = cmds[args[0]][1](args[1:])
        if out is not None:
            out.flush()  # what is still buffered: a full disk is found here, not at exit
    except BrokenPipeError:
        # Whoever read the output stopped reading (`rummy500 rules | head`): end quietly, as other
        # commands do. Later writes (Python's own flush at exit included) go nowhere.
        _drop_stdout()
        return 1
    except OSError as exc:
        if out is None or exc is not out.failed:  # not standard output's failure: the command's own
            raise
        _drop_stdout()
        print(f"rummy500: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C (in a game, `play` saves and stops in its own handler)
        print("rummy500: interrupted", file=sys.stderr)
        return 130
    finally:
        if out is not None and sys.stdout is out:
            sys.stdout = out.stream
    return code


def run() -> int:
    """The ``rummy500`` program (its console script, ``python -m rummy500``): :func:`main`, then the exit.

    After Ctrl-C (status 130) the exit is given :data:`EXIT_SECONDS`, then the
    process ends anyway (``pools.end_within``): a stopped pool's clean-up at
    exit cannot hold it up. Only here, not in :func:`main`, so that a program
    calling :func:`main` keeps its own process.
    """
    code = main()
    if code == 130:
        from rummy500.pools import end_within  # (not at start-up: it imports the process pools)

        end_within(EXIT_SECONDS, 130)
    return code


class _Stdout:
    """Standard output as the commands see it: the same stream, remembering the error of a write that failed.

    So that :func:`main` tells standard output's failure (a full disk) from
    another ``OSError`` of the command (a file it could not write).
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        #: the error of the last write or flush that failed, if any
        self.failed: OSError | None = None

    def write(self, text: str) -> int:
        """Write ``text`` to the stream, remembering the error if it fails."""
        try:
            return self.stream.write(text)
        except OSError as exc:
            self.failed = exc
            raise

    def flush(self) -> None:
        """Flush the stream, remembering the error if it fails."""
        try:
            self.stream.flush()
        except OSError as exc:
            self.failed = exc
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
