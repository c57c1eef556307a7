"""Typed settings of the web server: where it listens, where it keeps games, timings and limits.

One frozen :class:`Settings` object is built by the command line (or by a test)
and handed to :func:`rummy500.server.app.create_app`. Bad values are refused by
pydantic when the object is built; nothing falls back silently.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

__all__ = [
    "CHAT_MAX_CHARS",
    "MAX_CONNECTIONS_PER_CLIENT",
    "STATIC_DIR",
    "Settings",
    "check_origin",
    "check_public_url",
    "default_data_dir",
    "safe_url",
]

#: The browser client's files, served at ``/``.
STATIC_DIR = Path(__file__).resolve().parent / "static"
#: The longest chat line unless configured (``Settings.chat_max_chars``).
CHAT_MAX_CHARS = 500
#: HTTP connections one client may hold open unless configured (``Settings.connections_per_client``).
MAX_CONNECTIONS_PER_CLIENT = 64


_PASSWORD_PARAM = re.compile(r"(?i)([?&]password=)[^&]*")


def safe_url(url: str) -> str:
    """A database or Redis URL fit for a message or a log: its credentials masked.

    Whatever stands before the last ``@`` (user and password) becomes ``***``,
    as does a ``password=`` query parameter.

    >>> safe_url("postgresql://ann:s3cr@t@db:5432/games")
    'postgresql://***@db:5432/games'
    >>> safe_url("postgresql://db/games?user=ann&password=pw&sslmode=require")
    'postgresql://db/games?user=ann&password=***&sslmode=require'
    >>> safe_url("sqlite:////var/lib/rummy500/games.sqlite3")
    'sqlite:////var/lib/rummy500/games.sqlite3'
    """
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.rsplit("@", 1)[1]
    rest = _PASSWORD_PARAM.sub(r"\1***", rest)
    return f"{scheme}{sep}{rest}"


def _web_address(url: str) -> tuple[str, str, str]:
    """``url``'s scheme, host and path, if it is an ``http://`` or ``https://`` address with a host.

    Raises:
        ValueError: It is not (no scheme, another scheme, no host, a bad port,
            a user name, a query or a fragment).
    """
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - raises ValueError for a port that is not one
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or "@" in parts.netloc
        or parts.query
        or parts.fragment
        or any(c.isspace() for c in url.strip())
    ):
        raise ValueError("must be an http:// or https:// URL with a host, such as https://cards.example.org")
    return parts.scheme.lower(), parts.netloc.lower(), parts.path


def check_public_url(url: str) -> str:
    """A ``public_url`` as given (trimmed) if it is an ``http(s)://`` URL with a host (a path is allowed).

    >>> check_public_url("https://cards.example.org/")
    'https://cards.example.org/'
    >>> check_public_url("cards.example.org")
    Traceback (most recent call last):
    ...
    ValueError: must be an http:// or https:// URL with a host, such as https://cards.example.org

    Raises:
        ValueError: It is not one.
    """
    _web_address(url)
    return url.strip()


def check_origin(url: str) -> str:
    """An ``allowed_origins`` entry as browsers send it: ``scheme://host[:port]``, lower case, no path.

    >>> check_origin("https://Friends.example.org:8443/")
    'https://friends.example.org:8443'
    >>> check_origin("https://friends.example.org/play")
    Traceback (most recent call last):
    ...
    ValueError: must be an origin, with no path (https://friends.example.org)

    Raises:
        ValueError: It is not one.
    """
    try:
        scheme, netloc, path = _web_address(url)
    except ValueError as exc:
        raise ValueError(
            "must be an origin: http:// or https://, a host and an optional port (https://friends.example.org:8443)"
        ) from exc
    if path not in ("", "/"):
        raise ValueError(f"must be an origin, with no path ({scheme}://{netloc})")
    return f"{scheme}://{netloc}"


def default_data_dir() -> Path:
    """The folder that holds the embedded SQLite database when no ``--db`` is given.

    ``$RUMMY500_DATA_DIR`` if set, else ``$XDG_DATA_HOME/rummy500``, else
    ``~/.local/share/rummy500``.
    """
    env = os.environ.get("RUMMY500_DATA_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "rummy500"


class Settings(BaseModel):
    """Everything the server can be told.

    Attributes:
        host: Interface to listen on.
        port: TCP port to listen on.
        db_url: ``sqlite:///PATH`` or ``postgresql://...``; ``None`` means a
            SQLite file ``rummy500.sqlite3`` in ``data_dir``.
        data_dir: Folder for the embedded database.
        grace_seconds: How long a seated player may be away before a bot plays
            their seat (until they come back); at most a week.
        bot_delay: Seconds a bot waits before each of its actions, so people can
            follow the play (at most 60).
        call_window: Seconds every seat gets to call Rummy! after a discard
            that leaves a claimable card, when a person could call (bots decide
            at the end; only-bot windows last ``bot_delay``). 0: no windows.
        summary_seconds: Longest time a round summary holds the table before
            the next round is played (it ends early once every connected
            person pressed Ready). 0: no hold.
        default_bot_level: Level given to seats still open when a game starts;
            ``None`` means ``medium`` (or the registry's first level).
        ws_max_message_bytes: Largest websocket message accepted from a client.
        ws_rate_per_second: Sustained messages per second one connection may send.
        ws_rate_burst: Messages one connection may send in a burst.
        chat_max_chars: Longest chat line.
        log_length: Public events kept in each state message.
        send_queue: Messages queued for one slow connection before it is dropped
            (it may reconnect and resync).
        public_url: Base URL used in invite links (e.g. ``https://cards.example``):
            ``http://`` or ``https://`` with a host; ``None`` means the URL
            the request came in on.
        static_dir: Folder of the browser client.
        redis_url: ``redis://host:6379/0`` when several server processes share
            the tables (with PostgreSQL); ``None`` (the default) for one process.
        redis_prefix: Prefix of every Redis key and channel.
        lease_seconds: How long a process's lease on a table's bots lasts
            unrenewed.
        heartbeat_seconds: How long a process's heartbeat lasts unrenewed (it
            is renewed three times as often): after a process dies, the others
            take its tables' bots over within about this long (at most a
            third more: 1.6 s by default).
        max_body_bytes: Largest HTTP request body (413 beyond).
        sockets_per_client: Websockets one client (peer address) may hold open
            in one process.
        client_rate_per_second: Messages a second one client may send over all
            its websockets together.
        client_rate_burst: Messages one client may send in a burst.
        tables_per_client: Tables one client may keep waiting in the lobby (per process).
        table_rate_per_minute: Tables one client may open a minute (per process).
        lobby_expiry_hours: Tables never started are deleted this long after
            they were opened.
        idle_days: Games with no action for this long are not rebuilt at
            startup (they load when someone opens them).
        allowed_origins: Origins (``https://host[:port]``) whose pages may open
            websockets, besides the server's own and ``public_url``'s (kept as
            browsers send them: lower case, no trailing ``/``).
        connections_per_client: HTTP connections (websockets not counted) one
            client may hold open at once in one process; more are answered
            503 and closed.
        header_timeout: Seconds a connection has to send a whole request
            head (after it opens, or after its last answer); then it is closed.
        workers: Processes that run bot thinking and replays off the event
            loop (``0``: a thread of the server process instead).
        cpu: Run the event loop and the server's threads on this CPU only
            (Linux; ``None``: wherever the system puts them). The worker
            processes still use every CPU. See :mod:`rummy500.server.affinity`.
        api_docs: Serve the interactive API pages ``/docs`` and ``/redoc``
            (they load scripts from a CDN; off by default). ``/openapi.json``
            is always served.
        ws_compression: Compress websocket messages (permessage-deflate) when
            the browser offers it. Off by default: a state message is a
            kilobyte or two, and compressing every message for every socket
            is a good part of the CPU a move costs.
    """

    # ``inf`` and ``nan`` are refused for every number: they pass ``ge=0`` and break later.
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    db_url: str | None = None
    data_dir: Path = Field(default_factory=default_data_dir)
    grace_seconds: float = Field(default=60.0, ge=0, le=7 * 24 * 3600)
    bot_delay: float = Field(default=0.8, ge=0, le=60)
    call_window: float = Field(default=4.0, ge=0, le=60)
    summary_seconds: float = Field(default=45.0, ge=0, le=600)
    default_bot_level: str | None = None
    ws_max_message_bytes: int = Field(default=16 * 1024, ge=256)
    ws_rate_per_second: float = Field(default=10.0, gt=0)
    ws_rate_burst: int = Field(default=30, ge=1)
    chat_max_chars: int = Field(default=CHAT_MAX_CHARS, ge=1)
    log_length: int = Field(default=40, ge=0)
    send_queue: int = Field(default=256, ge=1)
    public_url: Annotated[str, AfterValidator(check_public_url)] | None = None
    static_dir: Path = STATIC_DIR
    redis_url: str | None = None
    redis_prefix: str = Field(default="rummy500:", min_length=1, max_length=64)
    lease_seconds: float = Field(default=10.0, ge=0.3, le=600)
    heartbeat_seconds: float = Field(default=1.2, ge=0.3, le=600)
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    sockets_per_client: int = Field(default=32, ge=1)
    client_rate_per_second: float = Field(default=30.0, gt=0)
    client_rate_burst: int = Field(default=90, ge=1)
    tables_per_client: int = Field(default=20, ge=1)
    table_rate_per_minute: float = Field(default=20.0, gt=0)
    lobby_expiry_hours: float = Field(default=24.0, gt=0, le=87_600)
    idle_days: float = Field(default=7.0, gt=0, le=36_500)
    allowed_origins: tuple[Annotated[str, AfterValidator(check_origin)], ...] = ()
    connections_per_client: int = Field(default=MAX_CONNECTIONS_PER_CLIENT, ge=1)
    header_timeout: float = Field(default=10.0, gt=0, le=300)
    workers: int = Field(default=2, ge=0, le=64)
    cpu: int | None = Field(default=None, ge=0)
    api_docs: bool = False
    ws_compression: bool = False

    def database_url(self) -> str:
        """The database URL to open, the embedded SQLite file by default."""
        if self.db_url:
            return self.db_url
        return f"sqlite:///{(self.data_dir / 'rummy500.sqlite3').as_posix()}"
