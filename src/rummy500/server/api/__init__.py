"""The HTTP and websocket routes: the lobby, played games and the table socket."""

from fastapi import APIRouter

from rummy500.server.api import games, review, tables, ws

router = APIRouter()
router.include_router(tables.router)
router.include_router(games.router)
router.include_router(review.router)
router.include_router(ws.router)

__all__ = ["router"]
