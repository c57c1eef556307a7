"""The ASGI application: :func:`create_app` wires settings, storage, hub, manager and routes.

At startup every unfinished game is rebuilt from storage by replaying its log
and its bots resume; at shutdown the bots stop and the database is released.
With ``settings.redis_url`` several such processes share the tables through
Redis (see :mod:`rummy500.server.cluster`); at startup a process then only
takes the games that no other process drives.
The browser client is served from ``static/``: ``/`` and ``/t/{table_id}``
(invite links) answer ``index.html``, the other files live under ``/static``.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from rummy500.server.api import router
from rummy500.server.bus import Bus, open_bus
from rummy500.server.config import Settings
from rummy500.server.hub import Hub
from rummy500.server.limits import BodyLimit, ClientLimits
from rummy500.server.manager import TableManager
from rummy500.server.storage import Storage, StorageError, open_storage

__all__ = ["create_app"]

log = logging.getLogger(__name__)

#: The collector's thresholds while serving (CPython's default is ``(700, 10, 10)``). A full
#: collection scans every tracked object: with 500 live games that is some 300 ms with the event
#: loop stopped, and at the default thresholds it came often enough to set the p99 of the whole
#: process (p99 157 ms against 11 ms with rarer ones, 500 tables, benchmarks/load.py --scenario
#: human500). A full one now waits for about ten million allocations (minutes of play), and for
#: CPython's own rule (a quarter more long-lived objects than at the last one), so reference cycles
#: are still collected. Young collections stay small: the ``medium`` bot used to leave some 70
#: objects in reference cycles per decision (no longer: the bots leave none), and a young
#: generation of 50,000 took 50-125 ms of CPU to scan (cold in the cache; the loop stopped
#: meanwhile: p99 130-240 ms on a busy machine), where 2,000 at a time cost about as much CPU in
#: all and pause for a few ms (p99 20-45 ms, same load).
GC_THRESHOLDS = (2_000, 50, 100)


def tune_gc() -> None:
    """Set the collector up for serving: what start-up made is frozen out of it, thresholds raised.

    ``gc.freeze`` moves every object alive now (modules, the app) to a
    generation the collector never scans again; it runs before the games are
    restored, which must stay collectable.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)

_NO_CLIENT = """<!doctype html><meta charset="utf-8"><title>rummy500</title>
<p>The rummy500 server is running, but its browser client is missing
(<code>rummy500/server/static/index.html</code>). The API is described at
<a href="/openapi.json">/openapi.json</a>.</p>
"""

#: Pages may load only this server's scripts, styles and sockets, and never be framed.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

#: Sent with every answer (the API docs pages, when served, go without the CSP: they load a CDN's scripts).
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    # Invite links carry the table id: keep it out of other sites' logs.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": CSP,
}


def _problem(error: Mapping[str, Any]) -> str:
    """One validation problem in words, without the input (it may be huge or not encodable)."""
    where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
    message = str(error.get("msg", "invalid"))
    text = f"{where}: {message}" if where else message
    return text.encode("utf-8", "replace").decode("utf-8")[:200]


async def _validation_error(request: Request, exc: Exception) -> Response:
    """422 with one line per problem, never echoing what was sent."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    problems = [_problem(e) for e in errors[:20]] or ["invalid request"]
    return JSONResponse(
        status_code=422,
        content={"detail": {"code": "bad_request", "message": problems[0], "problems": problems}},
    )


#: The code of an HTTP error raised without one (unknown routes, methods, unreadable bodies).
HTTP_CODES = {
    400: "bad_request",
    401: "bad_token",
    403: "bad_token",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    422: "bad_request",
    429: "rate_limited",
}


#: Seconds a client is asked to wait when the database is away (``Retry-After``).
RETRY_AFTER_S = 5


async def _storage_error(request: Request, exc: Exception) -> Response:
    """503 ``unavailable`` when the database cannot be reached: the request may work shortly.

    One warning line names the kind of route, never a table's id (no traceback: the outage is the
    operator's news, not a bug).
    """
    where = "/".join(request.url.path.split("/")[:3])  # /api/tables, /api/games
    log.warning("%s %s...: storage unavailable (%s)", request.method, where, type(exc).__name__)
    return JSONResponse(
        status_code=503,
        content={"detail": {"code": "unavailable", "message": "the games' database is unavailable; try again shortly"}},
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


async def _http_error(request: Request, exc: Exception) -> Response:
    """Every HTTP error as ``{"detail": {"code", "message"}}`` (docs/protocol.md, Errors).

    Errors the routes raise carry their object already. The others are the
    framework's: an unknown path (404 ``not_found``), a method a route does not
    take (405 ``method_not_allowed``, with ``Allow``), and a body that is not
    JSON text the parser can read (not UTF-8, nested too deep, a number too
    long: 422 ``bad_request``, as a body of the wrong shape).
    """
    if not isinstance(exc, StarletteHTTPException):  # pragma: no cover - registered for these only
        raise exc
    headers = dict(exc.headers or {})
    if isinstance(exc.detail, dict) and "code" in exc.detail:
        return JSONResponse(status_code=exc.status_code, content={"detail": exc.detail}, headers=headers)
    status = exc.status_code
    if status == 400:
        # FastAPI's answer to a body it could not decode ("There was an error parsing the body").
        status = 422
        message = "the body is not JSON text that can be read: send UTF-8 JSON of the request's shape"
    elif status == 404:
        message = "no such page or API route"
    elif status == 405:
        message = "this route does not take that method (see the Allow header)"
    else:
        message = str(exc.detail) if exc.detail else HTTPStatus(status).phrase
    code = HTTP_CODES.get(status, "bad_request" if status < 500 else "internal")
    detail: dict[str, Any] = {"code": code, "message": message}
    if code == "bad_request":
        detail["problems"] = [message]
    return JSONResponse(status_code=status, content={"detail": detail}, headers=headers)


def create_app(
    settings: Settings | None = None,
    *,
    storage: Storage | None = None,
    seed_source: Callable[[], int] | None = None,
    bus: Bus | None = None,
) -> FastAPI:
    """Build the app.

    Args:
        settings: Server settings (defaults: embedded SQLite in the data folder).
        storage: Use this storage instead of opening ``settings.database_url()``
            (the app then does not close it).
        seed_source: Draws each new game's seed; only tests pass one (live games
            use :func:`secrets.randbits`).
        bus: Use this bus between server processes instead of the one
            ``settings.redis_url`` names (the app closes it at shutdown).

    Returns:
        The FastAPI application; services are on ``app.state``.
    """
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = storage or open_storage(settings.database_url())
        shared_bus = bus or open_bus(
            settings.redis_url,
            prefix=settings.redis_prefix,
            lease_seconds=settings.lease_seconds,
            heartbeat_seconds=settings.heartbeat_seconds,
        )
        hub = Hub()
        kwargs = {"seed_source": seed_source} if seed_source else {}
        manager = TableManager(settings, store, hub, bus=shared_bus, **kwargs)
        app.state.settings = settings
        app.state.hub = hub
        app.state.manager = manager
        # Frozen before the games are restored: a restored game is dropped from memory like any
        # other once nobody watches it (a frozen one never was: its session and bot driver hold
        # each other, and the collector never looks at frozen objects again).
        tune_gc()
        restored = await manager.restore()
        if restored:
            log.info("restored %d unfinished game(s)", restored)
        try:
            yield
        finally:
            queue = getattr(app.state, "review_queue", None)
            if queue is not None:  # a review running would hold the exit until it ends (minutes)
                queue.close()
            await manager.close()
            if storage is None:
                store.close()

    app = FastAPI(
        title="rummy500",
        summary="Rummy 500 at the table: lobby, live play over websockets, replays.",
        lifespan=lifespan,
        docs_url="/docs" if settings.api_docs else None,
        redoc_url="/redoc" if settings.api_docs else None,
    )
    app.state.settings = settings
    app.state.limits = ClientLimits(
        sockets=settings.sockets_per_client,
        rate=settings.client_rate_per_second,
        burst=settings.client_rate_burst,
        tables=settings.tables_per_client,
        tables_per_minute=settings.table_rate_per_minute,
    )
    app.include_router(router)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(StorageError, _storage_error)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Callable) -> Response:
        response = await call_next(request)
        docs = settings.api_docs and request.url.path in ("/docs", "/redoc")
        for name, value in SECURITY_HEADERS.items():
            if not (docs and name == "Content-Security-Policy"):
                response.headers.setdefault(name, value)
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        elif request.url.path.startswith("/static/"):
            # Unversioned URLs: after an upgrade the browser must not run yesterday's
            # modules. It keeps its copy and asks each time (If-None-Match: 304 when unchanged).
            response.headers.setdefault("Cache-Control", "no-cache")
        return response

    static = settings.static_dir
    index = static / "index.html"

    def _index() -> Response:
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(_NO_CLIENT, headers={"Cache-Control": "no-cache"})

    # HEAD as well as GET: uptime monitors ask with HEAD (the answer has the headers, no body).
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def home() -> Response:
        return _index()

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def invite(table_id: str) -> Response:
        return _index()

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_body_bytes,
        headers=[*SECURITY_HEADERS.items(), ("Cache-Control", "no-store")],
    )
    return app
