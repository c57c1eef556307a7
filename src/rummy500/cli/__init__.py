"""The ``rummy500`` command: one subcommand per module under ``rummy500.cli``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

__all__ = ["main"]


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
        ("tournament", "rummy500.cli.tournament", "main", "round-robin between bots with ratings"),
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
        except ModuleNotFoundError as exc:
            print(f"rummy500: this command needs more packages ({exc.name}); install with: pip install -e '.[all]'", file=sys.stderr)
            return 2
        return int(getattr(mod, attr)(argv) or 0)

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
    try:
        return cmds[args[0]][1](args[1:])
    except BrokenPipeError:
        # Whoever read the output stopped reading (`rummy500 rules | head`): end quietly, as other
        # commands do. Later writes (Python's own flush at exit included) go nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
