"""REST routes of played games: the list, a finished game's record, stepping through it.

Nothing here reveals a deal, a hand or the seed before the game is over: the
record and the replay answer 409 until then. A game that this version of the
server cannot replay (its stored moves are refused by the engine now) answers
409 ``damaged`` for its replay; its record (which carries its deals) and its
seed are still given.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query

from rummy500.server.api.deps import ManagerDep
from rummy500.server.manager import GameDamaged, LobbyError
from rummy500.server.protocol import GameSummary, ReplayStep
from rummy500.server.storage import GameRow

router = APIRouter(prefix="/api/games", tags=["games"])

_NOT_FOUND = {"code": "no_table", "message": "no such game"}


def _summary(row: GameRow) -> GameSummary:
    result = row.result or {}
    return GameSummary(
        id=row.id,
        title=row.title,
        status=row.status,
        players=row.players,
        rules=row.rules,
        created=row.created,
        started=row.started,
        finished=row.finished,
        actions=row.actions,
        totals=result.get("totals"),
        winner=result.get("winner"),
    )


@router.get("", response_model=list[GameSummary])
async def list_games(
    manager: ManagerDep,
    status: Literal["finished"] = "finished",
    limit: int = Query(default=50, ge=1, le=500),
) -> list[GameSummary]:
    """Finished public games, the most recently finished first (the replays list).

    Tables in the lobby or in play are never listed: their id is the invite,
    and a list would let strangers join or watch them. Nor are private tables'
    games: their replay opens only through the table's own link (its id), which
    only its players and those they invited have.
    """
    return [_summary(row) for row in await manager.list_games(status, limit, public_only=True)]


async def _finished(manager: ManagerDep, game_id: str) -> GameRow:
    try:
        row = await manager.finished_game(game_id)
    except LobbyError as exc:
        raise HTTPException(exc.status, detail=exc.detail()) from exc
    if row is None:
        raise HTTPException(404, detail=_NOT_FOUND)
    return row


@router.get("/{game_id}/record")
async def get_record(game_id: str, manager: ManagerDep) -> dict[str, Any]:
    """The RECORD.md record of a finished game (409 while it is being played)."""
    row = await _finished(manager, game_id)
    assert row.record is not None
    return row.record


@router.get("/{game_id}/seed")
async def get_seed(game_id: str, manager: ManagerDep) -> dict[str, str]:
    """The shuffle seed of a finished game, for anyone who wants to check the deal."""
    row = await _finished(manager, game_id)
    return {"seed": str(row.seed)}


@router.get("/{game_id}/replay/{step}", response_model=ReplayStep)
async def get_replay_step(game_id: str, step: int, manager: ManagerDep) -> ReplayStep:
    """A finished game after ``step`` actions: the spectator view and every hand.

    409 ``damaged``: this version of the server cannot replay the game (its record is still given).
    """
    row = await _finished(manager, game_id)
    try:
        steps, found = await manager.replay_step(row, step)
    except GameDamaged as exc:
        raise HTTPException(409, detail=exc.detail()) from None
    if found is None:
        raise HTTPException(404, detail={"code": "no_step", "message": f"steps run from 0 to {steps}"})
    return ReplayStep(step=step, steps=steps, **found)
