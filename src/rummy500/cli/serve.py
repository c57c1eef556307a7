"""``rummy500 serve``: run the web server on this machine with uvicorn.

With no options it listens on 127.0.0.1:8000 and keeps its games in a SQLite
file in the data folder, so it runs on a laptop with nothing else installed.
Several processes (on one or more machines, behind any load balancer) share the
same tables with ``--db postgresql://... --redis redis://...`` (see
docs/deploy.md). The URLs may also come from ``$RUMMY500_DB_URL`` and
``$RUMMY500_REDIS_URL``, which keeps passwords off the command line.
The main CLI dispatches ``rummy500 serve ...`` to :func:`serve_main`.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rummy500.server.config import Settings

__all__ = ["build_parser", "serve_main"]

_TOKEN_RE = re.compile(r"(token=)[^&\s\"']+")


def startup_lines(settings: Settings) -> list[str]:
    """What ``serve`` says as it starts: where games are kept and where to open it (no password, ever)."""
    from rummy500.server.config import safe_url

    where = settings.db_url or settings.database_url()
    lines = [f"rummy500: games kept in {safe_url(where)}"]
    if settings.redis_url:
        lines.append(f"rummy500: tables shared through Redis at {safe_url(settings.redis_url)}")
    lines.append(f"rummy500: open http://{settings.host}:{settings.port}/")
    return lines


class RedactTokens(logging.Filter):
    """Keep seat tokens out of access logs (websocket URLs carry ``?token=``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's arguments with tokens replaced by ``***``."""
        if record.args:
            record.args = tuple(
                _TOKEN_RE.sub(r"\1***", a) if isinstance(a, str) else a
                for a in (record.args if isinstance(record.args, tuple) else (record.args,))
            )
        if isinstance(record.msg, str):
            record.msg = _TOKEN_RE.sub(r"\1***", record.msg)
        return True


def build_parser() -> argparse.ArgumentParser:
    """The ``serve`` command's options."""
    p = argparse.ArgumentParser(
        prog="rummy500 serve", description="Run the Rummy 500 web app (lobby, live tables, replays)."
    )
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    p.add_argument(
        "--db",
        metavar="URL",
        default=os.environ.get("RUMMY500_DB_URL") or None,
        help="sqlite:///PATH or postgresql://user@host:port/db (default: $RUMMY500_DB_URL, else SQLite in the data folder)",
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        default=os.environ.get("RUMMY500_REDIS_URL") or None,
        help="redis://host:6379/0 to share the tables with other serve processes (needs PostgreSQL; "
        "default: $RUMMY500_REDIS_URL, else none: this process alone)",
    )
    p.add_argument(
        "--redis-prefix",
        metavar="PREFIX",
        default=os.environ.get("RUMMY500_REDIS_PREFIX", "rummy500:"),
        help="prefix of the Redis keys and channels (default rummy500:)",
    )
    p.add_argument(
        "--lease",
        type=float,
        metavar="SECONDS",
        default=10.0,
        help="with --redis: how long a table's lease lasts unrenewed (default 10)",
    )
    p.add_argument(
        "--heartbeat",
        type=float,
        metavar="SECONDS",
        default=1.2,
        help="with --redis: how long after a process dies the others take its tables' bots over (default 1.2)",
    )
    p.add_argument("--data-dir", type=Path, metavar="DIR", help="folder of the embedded database")
    p.add_argument(
        "--grace",
        type=float,
        metavar="SECONDS",
        default=60.0,
        help="how long a player may be away before a bot plays for them (default 60)",
    )
    p.add_argument("--bot-delay", type=float, metavar="SECONDS", default=0.8, help="pause before each bot action")
    p.add_argument(
        "--call-window",
        type=float,
        metavar="SECONDS",
        default=4.0,
        help="time every seat gets to call Rummy! when a person could (default 4; 0: none)",
    )
    p.add_argument(
        "--summary",
        type=float,
        metavar="SECONDS",
        default=45.0,
        help="longest time a round summary holds the table until everyone is ready (default 45; 0: none)",
    )
    p.add_argument("--public-url", metavar="URL", help="base URL for invite links")
    p.add_argument(
        "--chat-max-chars",
        type=int,
        metavar="N",
        default=os.environ.get("RUMMY500_CHAT_MAX_CHARS") or None,
        help="longest chat line kept, in characters (default: $RUMMY500_CHAT_MAX_CHARS, else 500)",
    )
    limits = p.add_argument_group("limits (see docs/deploy.md; a client is one peer address)")
    limits.add_argument("--sockets-per-client", type=int, metavar="N", help="open websockets per client (32)")
    limits.add_argument(
        "--client-rate", type=float, metavar="N", help="messages a second per client, all sockets together (30)"
    )
    limits.add_argument("--client-burst", type=int, metavar="N", help="messages per client in a burst (90)")
    limits.add_argument("--tables-per-client", type=int, metavar="N", help="tables per client waiting in the lobby (20)")
    limits.add_argument("--table-rate", type=float, metavar="N", help="new tables a minute per client (20)")
    limits.add_argument("--max-body", type=int, metavar="BYTES", help="largest HTTP request body (65536)")
    limits.add_argument("--max-message", type=int, metavar="BYTES", help="largest websocket message (16384)")
    limits.add_argument("--lobby-expiry", type=float, metavar="HOURS", help="delete tables never started after (24)")
    limits.add_argument("--idle-days", type=float, metavar="DAYS", help="do not rebuild games idle this long at start (7)")
    limits.add_argument(
        "--allow-origin", action="append", metavar="URL", help="another site whose pages may open websockets"
    )
    p.add_argument("--workers", type=int, metavar="N", help="processes for bot thinking and replays (2; 0: a thread); with N > 0 hints get two processes of their own")
    p.add_argument(
        "--cpu",
        type=int,
        metavar="N",
        help="run the event loop and its threads on CPU N only (Linux; less CPU per move, see docs/deploy.md)",
    )
    p.add_argument(
        "--ws-compression", action="store_true", help="compress websocket messages (permessage-deflate; off: less CPU)"
    )
    p.add_argument("--api-docs", action="store_true", help="serve /docs and /redoc (they load scripts from a CDN)")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    return p


class QuietBadText(logging.Filter):
    """Drop uvicorn's error log of a websocket text frame that is not UTF-8.

    The sender gets its close (1007) anyway; a traceback per frame would let
    any client flood the log.
    """

    MESSAGE = "Invalid UTF-8 sequence received from client."

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record but that one."""
        return record.msg != self.MESSAGE


def quiet_bad_text() -> None:
    """Install :class:`QuietBadText` on uvicorn's error logger (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietBadText) for f in logger.filters):
        logger.addFilter(QuietBadText())


#: Websocket frames up to this size reach the app, which answers ``bad_message``
#: past ``ws_max_message_bytes``; larger ones close the socket (1009).
FRAME_CAP = 1024 * 1024


def uvicorn_options(settings: Settings, log_level: str = "info") -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run`` / ``uvicorn.Config`` for these settings.

    The websocket implementation is uvicorn's sans-I/O one on the
    ``websockets`` library (``websockets-sansio``): less CPU per message than
    the older ``websockets`` implementation (its streams and tasks per socket;
    docs/deploy.md, Performance, has the figures). A frame that is not UTF-8 closes its
    socket (1007); the traceback uvicorn logs for it is dropped
    (:class:`QuietBadText`, installed here). An oversized handshake gets a 4xx
    at once. tests/server/test_uvicorn.py holds these behaviours.
    """
    quiet_bad_text()
    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": log_level,
        # Our logging (set up by serve_main, with the token filter) rather than uvicorn's.
        "log_config": None,
        "ws": "websockets-sansio",
        "ws_max_size": max(FRAME_CAP, 4 * settings.ws_max_message_bytes),
        "ws_per_message_deflate": settings.ws_compression,
        "proxy_headers": False,
    }


def serve_main(argv: list[str]) -> int:
    """Run ``rummy500 serve`` with these arguments (without ``serve``).

    Returns:
        The exit status: 0 after a clean shutdown, 2 on bad options or a database
        that cannot be opened.
    """
    args = build_parser().parse_args(argv)
    try:
        import uvicorn
        from pydantic import ValidationError

        from rummy500.server.app import create_app
        from rummy500.server.config import Settings
        from rummy500.server.storage import StorageError, open_storage
    except ImportError as exc:  # pragma: no cover - depends on the installation
        print(
            f"rummy500 serve: the server's packages are missing ({exc}); install rummy500 with its server dependencies",
            file=sys.stderr,
        )
        return 2
    fields = {
        "host": args.host,
        "port": args.port,
        "db_url": args.db,
        "grace_seconds": args.grace,
        "bot_delay": args.bot_delay,
        "call_window": args.call_window,
        "summary_seconds": args.summary,
        "public_url": args.public_url,
        "redis_url": args.redis,
        "redis_prefix": args.redis_prefix,
        "lease_seconds": args.lease,
        "heartbeat_seconds": args.heartbeat,
    }
    if args.data_dir is not None:
        fields["data_dir"] = args.data_dir
    optional = {
        "sockets_per_client": args.sockets_per_client,
        "client_rate_per_second": args.client_rate,
        "client_rate_burst": args.client_burst,
        "tables_per_client": args.tables_per_client,
        "table_rate_per_minute": args.table_rate,
        "max_body_bytes": args.max_body,
        "ws_max_message_bytes": args.max_message,
        "lobby_expiry_hours": args.lobby_expiry,
        "idle_days": args.idle_days,
        "allowed_origins": tuple(args.allow_origin) if args.allow_origin else None,
        "workers": args.workers,
        "cpu": args.cpu,
        "api_docs": args.api_docs or None,
        "ws_compression": args.ws_compression or None,
        "chat_max_chars": args.chat_max_chars,
    }
    fields.update({k: v for k, v in optional.items() if v is not None})
    try:
        settings = Settings(**fields)
    except ValidationError as exc:
        print(f"rummy500 serve: {exc}", file=sys.stderr)
        return 2
    if settings.redis_url:
        from rummy500.server.bus import BusError, check_redis

        if not settings.database_url().lower().startswith(("postgresql", "postgres")):
            print(
                "rummy500 serve: --redis shares the tables between processes, which must share one "
                "database: add --db postgresql://...",
                file=sys.stderr,
            )
            return 2
        try:
            check_redis(settings.redis_url)
        except BusError as exc:
            print(f"rummy500 serve: {exc}", file=sys.stderr)
            return 2
    if settings.cpu is not None:
        from rummy500.server.affinity import pin

        try:
            pin(settings.cpu)  # before any thread starts: they inherit it
        except ValueError as exc:
            print(f"rummy500 serve: {exc}", file=sys.stderr)
            return 2
    try:
        storage = open_storage(settings.database_url())
    except StorageError as exc:
        print(f"rummy500 serve: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    redact = RedactTokens()
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(redact)
    for line in startup_lines(settings):
        print(line, file=sys.stderr)
    app = create_app(settings, storage=storage)
    try:
        uvicorn.run(app, **uvicorn_options(settings, args.log_level))
    finally:
        storage.close()
    return 0
