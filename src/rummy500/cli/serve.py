"""``rummy500 serve``: run the web server on this machine with uvicorn.

With no options it listens on 127.0.0.1:8000 and keeps its games in a SQLite
file in the data folder, so it runs on a laptop with nothing else installed.
Several processes (on one or more machines, behind any load balancer) share the
same tables with ``--db postgresql://... --redis redis://...`` (see
docs/deploy.md). The URLs may also come from ``$RUMMY500_DB_URL`` and
``$RUMMY500_REDIS_URL``, which keeps passwords off the command line.
The main CLI dispatches ``rummy500 serve ...`` to :func:`serve_main`.

The listening socket is bound before anything is said: ``open http://...``
names the port it got (``--port 0``: one the system picked), and a port it
cannot have is one line (``cannot listen on HOST:PORT: Address already in
use``), exit status 2, as a bad option (any: the command line's or the
environment's) or a database that cannot be opened is.

``SIGTERM`` (``systemctl stop``, ``kill``) stops the server as Ctrl-C does:
uvicorn closes the sockets (websockets with 1012), the games' database is
closed (SQLite's write-ahead log folded into its file) and the exit status is 0.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import re
import signal
import socket
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pydantic import ValidationError

    from rummy500.server.config import Settings
    from rummy500.server.storage import Storage

__all__ = ["build_parser", "serve_main"]

#: A ``key=value`` pair in a log message's text (not a request target: see :func:`redact_target`).
_PAIR_RE = re.compile(r"(?P<key>[^\s&?#=\"']+)=(?P<value>[^&\s\"']*)")
#: Query keys whose values never reach the log (compared lower-cased, after percent-decoding: ``%74oken``).
_SECRET_KEYS = ("token", "password", "secret")
#: A run of characters that may be a table id or a token (both come from ``secrets.token_urlsafe``:
#: 22 and 32 characters): shortened wherever it is in a logged path.
_ID_RUN = re.compile(r"[A-Za-z0-9_-]{20,}")
#: Path segments after which comes a table's (or its game's) id: ``/t/<id>``, ``/api/tables/<id>``,
#: ``/ws/tables/<id>``, ``/api/games/<id>``.
_ID_AFTER = frozenset({"t", "tables", "games"})
#: What a path segment keeps unencoded when it is written back (RFC 3986's ``pchar`` but ``%``).
_PCHAR = "!$&'()*+,;=:@~"


def startup_lines(settings: Settings, port: int | None = None) -> list[str]:
    """What ``serve`` says as it starts: where games are kept and where to open it (no password, ever).

    Args:
        settings: The server's settings.
        port: The port the server listens on, when it differs from ``settings.port``
            (``--port 0``: the port the system picked).
    """
    from rummy500.server.config import safe_url

    where = settings.db_url or settings.database_url()
    lines = [f"rummy500: games kept in {safe_url(where)}"]
    if settings.redis_url:
        lines.append(f"rummy500: tables shared through Redis at {safe_url(settings.redis_url)}")
    host = f"[{settings.host}]" if ":" in settings.host else settings.host  # an IPv6 address in a URL
    lines.append(f"rummy500: open http://{host}:{settings.port if port is None else port}/")
    return lines


#: The queue of connections not yet accepted (uvicorn's default).
BACKLOG = 2048


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening, as uvicorn would make it.

    Bound before the server starts, so that the port is known (``port`` 0: the
    system picks one) and a port already in use is said at once. A host name
    with several addresses is bound at one of them, an IPv4 one if it has one.
    Accepted connections inherit ``TCP_NODELAY`` from it (Linux, the BSDs),
    as asyncio would set it on each.

    Raises:
        OSError: The address cannot be resolved or bound (``strerror`` says why).
    """
    infos = socket.getaddrinfo(host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
    family, kind, proto, _, address = sorted(infos, key=lambda info: info[0] != socket.AF_INET)[0]
    sock = socket.socket(family, kind, proto)
    try:
        if os.name == "posix":  # a restart does not wait for the last connections' TIME_WAIT
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)  # as asyncio binds "::"
        if hasattr(socket, "TCP_NODELAY"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    return sock


def _secret_key(key: str) -> bool:
    """Whether a query key (as sent: ``%74oken`` is ``token``) names a secret, whatever its case."""
    from urllib.parse import unquote_plus

    name = unquote_plus(key).strip().lower()
    return any(word in name for word in _SECRET_KEYS)


def redact_target(target: str) -> str:
    """A request target (path and query, as uvicorn logs it) fit for the log.

    The path is read as the app reads it (percent-decoded: ``/api/%74ables/<id>``
    and ``/api%2Ftables%2F<id>`` reach the table's route too) and a table id in
    it is shortened as :func:`~rummy500.server.session.short_id` shortens it in
    the app's own lines (so are runs of 20 or more id characters anywhere in
    it); the value of a query key naming a secret (``token``, whatever its case
    or percent-encoding) is ``***``.

    >>> redact_target("/api/%74ables/AbCdEfGhIjKlMnOpQrStUv/join")
    '/api/tables/AbCdEfGh/join'
    >>> redact_target("/ws/tables/AbCdEfGhIjKlMnOpQrStUv?%74oken=s3cret&TOKEN=x&lang=en")
    '/ws/tables/AbCdEfGh?%74oken=***&TOKEN=***&lang=en'
    """
    from urllib.parse import quote, unquote

    from rummy500.server.session.ids import short_id

    path, mark, query = target.partition("?")
    segments = unquote(path, errors="replace").split("/")
    for i, segment in enumerate(segments):
        if i > 0 and segments[i - 1].lower() in _ID_AFTER and segment:
            segments[i] = short_id(segment)
        else:
            segments[i] = _ID_RUN.sub(lambda run: short_id(run[0]), segment)
    # Written back encoded: a decoded %0A or %22 must not start a line or end the quoted target.
    said = "/".join(quote(segment, safe=_PCHAR) for segment in segments)
    if not mark:
        return said
    pairs = []
    for pair in query.split("&"):
        key, equals, value = pair.partition("=")
        if _secret_key(key):
            value = "***" if equals else value
            key = key if equals else "***"
        else:
            value = _ID_RUN.sub(lambda run: short_id(run[0]), value)
        pairs.append(f"{key}{equals}{value}")
    return f"{said}?{'&'.join(pairs)}"


def redact_text(text: str) -> str:
    """A log line's text with the value of each ``key=value`` whose key names a secret replaced by ``***``.

    >>> redact_text("GET /x?%54oken=s3cret&a=1 and password=hunter2")
    'GET /x?%54oken=***&a=1 and password=***'
    """
    return _PAIR_RE.sub(lambda m: f"{m['key']}=***" if _secret_key(m["key"]) else m[0], text)


class RedactTokens(logging.Filter):
    """Keep seat tokens and whole table ids out of the log (uvicorn's access and websocket lines print request targets).

    A table id is its invite (whoever has it may watch the table, or take an
    open seat while it waits), and a websocket URL carries its seat's token
    (``?token=``): each argument of a uvicorn (or ``websockets``) record that
    is a request target (starts with ``/``) goes through :func:`redact_target`,
    any other text through :func:`redact_text`. (The app's own lines name
    tables by their short id already; their file paths are left alone.)
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's arguments, or its message when it has none: ids shortened, secrets ``***``.

        A message with arguments is a format written in the code: what may be
        secret comes in its arguments (and the format stays as it was, for the
        filters that know records by it, :class:`QuietBadText`).
        """
        args = record.args
        targets = record.name.startswith(("uvicorn", "websockets"))
        if isinstance(args, Mapping):
            record.args = {key: _redact_argument(value, targets) for key, value in args.items()}
        elif isinstance(args, tuple) and args:
            record.args = tuple(_redact_argument(value, targets) for value in args)
        elif isinstance(record.msg, str):
            record.msg = redact_text(record.msg)
        return True


def _redact_argument(value: object, targets: bool) -> object:
    if not isinstance(value, str):
        return value
    return redact_target(value) if targets and value.startswith("/") else redact_text(value)


class BadOption(Exception):
    """An option the command line parser refused (its message is one line)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, raised as :class:`BadOption` (no usage text)."""

    def error(self, message: str) -> NoReturn:
        """Raise the parser's complaint in the words of the other refusals.

        Raises:
            BadOption: Always.
        """
        raise BadOption(_parser_complaint(message))


#: argparse's words for a value its ``type`` refused: ``argument --port: invalid int value: 'abc'``.
_INVALID_VALUE = re.compile(r"argument (?P<flag>[^:]+): invalid (?P<kind>int|float) value: (?P<got>.*)")


def _parser_complaint(message: str) -> str:
    """The parser's message, in the words of the other refusals (``--port must be a whole number (got 'abc')``)."""
    bad = _INVALID_VALUE.fullmatch(message)
    if bad is not None:
        kind = "a whole number" if bad["kind"] == "int" else "a number"
        return f"{bad['flag']} must be {kind} (got {bad['got']})"
    message = message.removeprefix("argument ")
    if message.startswith("unrecognized arguments"):
        message += " (rummy500 serve --help lists the options)"
    return message


def build_parser() -> argparse.ArgumentParser:
    """The ``serve`` command's options (a bad one raises :class:`BadOption`)."""
    p = _Parser(prog="rummy500 serve", description="Run the Rummy 500 web app (lobby, live tables, replays).")
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
    limits.add_argument(
        "--connections-per-client", type=int, metavar="N", help="HTTP connections open at once per client (64)"
    )
    limits.add_argument(
        "--header-timeout",
        type=float,
        metavar="SECONDS",
        help="time a connection has to send a request's head (10), and then as long for its body",
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
    """Drop two kinds of uvicorn error-log records: bad UTF-8 text, and websocket frames.

    A text frame that is not UTF-8: the sender gets its close (1007) anyway;
    a traceback per frame would let any client flood the log. And at
    ``--log-level debug`` the ``websockets`` library logs every frame it
    sends or receives (``< TEXT '{"type": "action", ... "meld": ["2C", ...]}'``):
    a refused meld names cards of a hidden hand, and a state names the seat's
    own. Frames are never logged; the connection's other debug lines are kept.

    The websocket's "connection open" and "connection closed" lines move from
    ``info`` to ``debug``: the access log's ``WebSocket … [accepted]`` line
    already says a socket opened, and anyone could otherwise write two log
    lines per socket opened and closed, hundreds a second.
    """

    MESSAGE = "Invalid UTF-8 sequence received from client."
    FRAMES = ("< %s", "> %s")
    CHATTER = ("connection open", "connection closed")

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record but those (the chatter at ``debug``, kept only where debug is logged)."""
        if record.msg in self.CHATTER and record.levelno == logging.INFO:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        return record.msg != self.MESSAGE and record.msg not in self.FRAMES


def quiet_bad_text() -> None:
    """Install :class:`QuietBadText` on uvicorn's error logger (once): no bad-text tracebacks, no frames."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietBadText) for f in logger.filters):
        logger.addFilter(QuietBadText())


#: Seconds an idle HTTP connection is kept after its last answer (uvicorn's ``timeout_keep_alive``).
KEEP_ALIVE_SECONDS = 5

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
    from rummy500.server.limits import guarded_http

    quiet_bad_text()
    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": log_level,
        # Our logging (set up by serve_main, with the token filter) rather than uvicorn's.
        "log_config": None,
        # Connections that send nothing, or a request head byte by byte, are closed; one
        # client holds a bounded number of them (docs/deploy.md, Limits).
        "http": guarded_http(
            header_timeout=settings.header_timeout, connections_per_client=settings.connections_per_client
        ),
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "ws": "websockets-sansio",
        "ws_max_size": max(FRAME_CAP, 4 * settings.ws_max_message_bytes),
        "ws_per_message_deflate": settings.ws_compression,
        "proxy_headers": False,
    }


#: Each :class:`~rummy500.server.config.Settings` field ``serve`` sets: the option's ``dest`` and the option.
_OPTIONS: dict[str, tuple[str, str]] = {
    "host": ("host", "--host"),
    "port": ("port", "--port"),
    "db_url": ("db", "--db"),
    "data_dir": ("data_dir", "--data-dir"),
    "grace_seconds": ("grace", "--grace"),
    "bot_delay": ("bot_delay", "--bot-delay"),
    "call_window": ("call_window", "--call-window"),
    "summary_seconds": ("summary", "--summary"),
    "public_url": ("public_url", "--public-url"),
    "redis_url": ("redis", "--redis"),
    "redis_prefix": ("redis_prefix", "--redis-prefix"),
    "lease_seconds": ("lease", "--lease"),
    "heartbeat_seconds": ("heartbeat", "--heartbeat"),
    "sockets_per_client": ("sockets_per_client", "--sockets-per-client"),
    "client_rate_per_second": ("client_rate", "--client-rate"),
    "client_rate_burst": ("client_burst", "--client-burst"),
    "tables_per_client": ("tables_per_client", "--tables-per-client"),
    "table_rate_per_minute": ("table_rate", "--table-rate"),
    "max_body_bytes": ("max_body", "--max-body"),
    "ws_max_message_bytes": ("max_message", "--max-message"),
    "lobby_expiry_hours": ("lobby_expiry", "--lobby-expiry"),
    "idle_days": ("idle_days", "--idle-days"),
    "allowed_origins": ("allow_origin", "--allow-origin"),
    "workers": ("workers", "--workers"),
    "cpu": ("cpu", "--cpu"),
    "api_docs": ("api_docs", "--api-docs"),
    "ws_compression": ("ws_compression", "--ws-compression"),
    "chat_max_chars": ("chat_max_chars", "--chat-max-chars"),
    "connections_per_client": ("connections_per_client", "--connections-per-client"),
    "header_timeout": ("header_timeout", "--header-timeout"),
}

#: Options whose default comes from an environment variable (named in a refusal when the value came from it).
_ENVIRONMENT = {
    "db": "RUMMY500_DB_URL",
    "redis": "RUMMY500_REDIS_URL",
    "redis_prefix": "RUMMY500_REDIS_PREFIX",
    "chat_max_chars": "RUMMY500_CHAT_MAX_CHARS",
}


def _fields(args: argparse.Namespace) -> dict[str, Any]:
    """The :class:`~rummy500.server.config.Settings` fields the options give (those left out keep their defaults).

    An option left out whose environment variable is set takes its text (the
    settings check it, and a refusal names the variable).
    """
    fields: dict[str, Any] = {}
    for field, (dest, _) in _OPTIONS.items():
        value = getattr(args, dest)
        if value is None and dest in _ENVIRONMENT:
            value = _typed(dest, os.environ.get(_ENVIRONMENT[dest]) or None)
        if value is None or value is False:  # not given: the settings' default
            continue
        fields[field] = tuple(value) if isinstance(value, list) else value
    return fields


def _typed(dest: str, text: str | None) -> Any:
    """An environment variable's text as its option's type makes it (``"37"``: 37), else the text as it is."""
    kind = next((a.type for a in build_parser()._actions if a.dest == dest), None)
    if text is None or not callable(kind):
        return text
    try:
        return kind(text)
    except ValueError:
        return text  # the settings refuse it, naming the variable


def _named(dest: str, flag: str, argv: list[str]) -> str:
    """How to name an option in a message: ``--redis``, or ``$RUMMY500_REDIS_URL`` when its value came from there."""
    if dest not in _ENVIRONMENT:
        return flag
    unset = object()  # not a string: argparse never runs it through the option's type
    given = build_parser()
    given.set_defaults(**{dest: unset})
    if getattr(given.parse_known_args(argv)[0], dest) is unset:  # the option's default: the environment's value
        return f"${_ENVIRONMENT[dest]}"
    return flag


def _number(value: object) -> str:
    """A number as it is typed: ``-1`` (not ``-1.0``), ``0.3``, ``nan``."""
    if isinstance(value, float):
        return f"{value:g}" if math.isfinite(value) else str(value)
    return str(value)


def _bounds(field: str) -> str | None:
    """What values a setting takes, in words (``0 or more``, ``from 0 to 65535``); None if it has no bounds."""
    from rummy500.server.config import Settings

    low = high = None
    low_word = high_word = ""
    lengths: dict[str, int] = {}
    for rule in Settings.model_fields[field].metadata:
        for name in ("ge", "gt", "le", "lt", "min_length", "max_length"):
            value = getattr(rule, name, None)
            if value is None:
                continue
            if name in ("ge", "gt"):
                low, low_word = value, name
            elif name in ("le", "lt"):
                high, high_word = value, name
            else:
                lengths[name] = value
    if lengths:
        least, most = lengths.get("min_length", 0), lengths.get("max_length")
        return f"{least} to {most} characters long" if most is not None else f"at least {least} characters long"
    if low is not None and high is not None and low_word == "ge" and high_word == "le":
        return f"from {_number(low)} to {_number(high)}"
    words = []
    if low is not None:
        words.append(f"{_number(low)} or more" if low_word == "ge" else f"more than {_number(low)}")
    if high is not None:
        words.append(f"at most {_number(high)}" if high_word == "le" else f"less than {_number(high)}")
    return " and ".join(words) or None


def refusal(exc: ValidationError, argv: list[str]) -> str:
    """The first bad option of a :class:`~pydantic.ValidationError` of the settings, in one line, as it was given.

    ``--grace must be 0 or more (got -1)``; the environment variable
    (``$RUMMY500_CHAT_MAX_CHARS``) when the value came from there.
    """
    error = exc.errors()[0]
    field = str(error["loc"][0]) if error["loc"] else ""
    dest, flag = _OPTIONS.get(field, (field, f"--{field.replace('_', '-')}"))
    flag = _named(dest, flag, argv)
    value = error.get("input")
    got = repr(value) if isinstance(value, str) else _number(value)
    if error.get("type") == "value_error":  # a URL's own check: its words say what it takes
        reason = error.get("ctx", {}).get("error")
        return f"{flag} {reason or error.get('msg', 'is not allowed')} (got {got})"
    bounds = _bounds(field) if field in _OPTIONS else None
    if error.get("type") in ("int_parsing", "int_from_float"):
        return f"{flag} must be a whole number{f', {bounds}' if bounds else ''} (got {got})"
    if error.get("type") == "float_parsing":
        return f"{flag} must be a number{f', {bounds}' if bounds else ''} (got {got})"
    if bounds is not None:
        return f"{flag} must be {bounds} (got {got})"
    return f"{flag}: {str(error.get('msg', 'not allowed')).lower()} (got {got})"


def _say(message: object) -> None:
    """One line on standard error: the first line of ``message``, without SQLAlchemy's ``(module.Error)`` tag."""
    from rummy500.cli.replay_cmd import printable

    text = str(message).strip().splitlines()[0] if str(message).strip() else "failed"
    text = re.sub(r"\((?:\w+\.)+\w+\) ", "", text)
    print(f"rummy500 serve: {printable(text)}", file=sys.stderr)


class Terminated(BaseException):
    """``SIGTERM`` arrived: unwind (closing the database on the way) and exit with status 0.

    A :class:`BaseException`, as :class:`KeyboardInterrupt` is: no ``except Exception`` swallows it.
    """


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """While inside, ``SIGTERM`` raises :class:`Terminated` instead of killing the process outright.

    uvicorn handles ``SIGTERM`` itself while it serves (a graceful shutdown:
    requests finished, websockets closed with 1012, the app's shutdown run),
    then sends it to the process again with the handler it found, this one:
    so the caller's ``finally`` runs (the database is closed) and the process
    exits normally, as after Ctrl-C, rather than dying of the signal (status
    143) with SQLite's write-ahead log left beside its file and the worker
    pools' semaphores leaked. Only in the main thread (signals go there);
    elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def serve_main(argv: list[str]) -> int:
    """Run ``rummy500 serve`` with these arguments (without ``serve``).

    Returns:
        The exit status: 0 after a clean shutdown (Ctrl-C or ``SIGTERM``), 2 on
        bad options, a port it cannot listen on or a database that cannot be
        opened (one line on standard error).
    """
    try:
        args = build_parser().parse_args(argv)
    except BadOption as exc:
        _say(exc)
        return 2
    try:
        import uvicorn  # noqa: F401 - a missing server package is said here, before anything starts
        from pydantic import ValidationError

        from rummy500.server.app import create_app  # noqa: F401 - as above
        from rummy500.server.config import Settings
        from rummy500.server.storage import StorageError, open_storage
    except ImportError as exc:  # pragma: no cover - depends on the installation
        print(
            f"rummy500 serve: the server's packages are missing ({exc}); install rummy500 with its server dependencies",
            file=sys.stderr,
        )
        return 2
    try:
        settings = Settings(**_fields(args))
    except ValidationError as exc:
        _say(refusal(exc, argv))
        return 2
    if settings.redis_url:
        from rummy500.server.bus import BusError, check_redis

        if not settings.database_url().lower().startswith(("postgresql", "postgres")):
            _say(
                f"{_named('redis', '--redis', argv)} shares the tables between processes, which must share one "
                "database: add --db postgresql://... (or set $RUMMY500_DB_URL)"
            )
            return 2
        try:
            check_redis(settings.redis_url)
        except BusError as exc:
            _say(exc)
            return 2
    if settings.cpu is not None:
        from rummy500.server.affinity import pin

        try:
            pin(settings.cpu)  # before any thread starts: they inherit it
        except ValueError as exc:
            _say(exc)
            return 2
    try:
        storage = open_storage(settings.database_url())
    except StorageError as exc:
        _say(exc)
        return 2
    try:
        with stop_on_sigterm():
            return _serve(args, settings, storage)
    except Terminated:
        return 0
    finally:
        storage.close()


def _serve(args: argparse.Namespace, settings: Settings, storage: Storage) -> int:
    """Listen and serve until stopped (the caller closes ``storage``); the exit status."""
    import uvicorn

    from rummy500.server.app import create_app

    try:
        sock = listen(settings.host, settings.port)
    except OSError as exc:
        _say(f"cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}")
        return 2
    with sock:
        logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
        redact = RedactTokens()
        for handler in logging.getLogger().handlers:
            handler.addFilter(redact)
        for name in ("uvicorn", "uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addFilter(redact)
        for line in startup_lines(settings, sock.getsockname()[1]):
            print(line, file=sys.stderr)
        app = create_app(settings, storage=storage)
        options = uvicorn_options(settings, args.log_level)
        del options["host"], options["port"]  # the socket bound above is served, by its file descriptor
        uvicorn.run(app, fd=sock.fileno(), **options)
    return 0
