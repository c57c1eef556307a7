"""Dependencies of the routes, as ``Annotated`` types (one place, as in FastAPI's template).

The app keeps its services on ``app.state`` (see :func:`rummy500.server.app.create_app`);
these dependencies hand them to routes and websocket handlers alike (they take
an :class:`~starlette.requests.HTTPConnection`, the common base of both).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException
from starlette.requests import HTTPConnection

from rummy500.server.config import Settings
from rummy500.server.hub import Hub
from rummy500.server.limits import ClientLimits
from rummy500.server.manager import TableManager

__all__ = ["BearerToken", "HubDep", "LimitsDep", "ManagerDep", "SettingsDep"]


def get_manager(conn: HTTPConnection) -> TableManager:
    """The app's table manager."""
    return conn.app.state.manager


def get_hub(conn: HTTPConnection) -> Hub:
    """The app's connection registry."""
    return conn.app.state.hub


def get_settings(conn: HTTPConnection) -> Settings:
    """The app's settings."""
    return conn.app.state.settings


def get_limits(conn: HTTPConnection) -> ClientLimits:
    """The app's per-client limits."""
    return conn.app.state.limits


def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header.

    Raises:
        HTTPException: 401 when the header is missing or not a bearer token.
    """
    if authorization:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return token.strip()
    raise HTTPException(
        status_code=401,
        detail={"code": "bad_token", "message": "send the seat token as 'Authorization: Bearer TOKEN'"},
        headers={"WWW-Authenticate": "Bearer"},
    )


ManagerDep = Annotated[TableManager, Depends(get_manager)]
HubDep = Annotated[Hub, Depends(get_hub)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
BearerToken = Annotated[str, Depends(bearer_token)]
LimitsDep = Annotated[ClientLimits, Depends(get_limits)]
