"""REST routes of the lobby: the rules catalogue, creating, joining, leaving and starting tables, playing again."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response

from rummy500.server.api.deps import BearerToken, LimitsDep, ManagerDep, SettingsDep
from rummy500.server.config import Settings
from rummy500.server.engine import rules_catalogue
from rummy500.server.limits import ClientLimits, client_key
from rummy500.server.manager import LobbyError, TableManager
from rummy500.server.protocol import (
    AgainRequest,
    AgainResponse,
    CreateTableRequest,
    CreateTableResponse,
    JoinRequest,
    JoinResponse,
    RulesCatalogue,
    TableInfo,
)

router = APIRouter(prefix="/api", tags=["lobby"])


def _http(exc: LobbyError) -> HTTPException:
    return HTTPException(status_code=exc.status, detail=exc.detail())


@router.get("/rules", response_model=RulesCatalogue)
async def get_rules(manager: ManagerDep) -> RulesCatalogue:
    """The options catalogue with one-line descriptions, the presets and the bot levels."""
    return RulesCatalogue(
        **rules_catalogue(),
        bot_levels=manager.bot_levels,
        default_bot_level=manager.default_bot_level,
    )


@router.post("/tables", response_model=CreateTableResponse, status_code=201)
async def create_table(
    body: CreateTableRequest, request: Request, manager: ManagerDep, settings: SettingsDep, limits: LimitsDep
) -> CreateTableResponse:
    """Open a table. The creator gets seat 0 and its token; share ``invite_url``.

    One client may keep ``tables_per_client`` tables waiting in the lobby and
    open ``table_rate_per_minute`` a minute (429 beyond).
    """
    client = client_key(request.scope)
    await _prune_lobby(client, manager, limits)
    _may_open(client, limits)
    try:
        table_id, token = await manager.create_table(body)
    except LobbyError as exc:
        raise _http(exc) from exc
    limits.opened(client, table_id)
    return CreateTableResponse(
        table_id=table_id, seat=0, token=token, invite_url=_invite_url(request, settings, table_id)
    )


async def _prune_lobby(client: str, manager: TableManager, limits: ClientLimits) -> None:
    """Forget the client's tables that left the lobby, when it is at its limit (they are checked only then)."""
    waiting = limits.lobby.get(client, set())
    if len(waiting) >= limits.max_tables:
        for table_id in waiting - await manager.in_lobby(waiting):
            limits.left_lobby(table_id, client)


def _may_open(client: str, limits: ClientLimits) -> None:
    """Refuse (429) a new table to a client at its limits: tables waiting in the lobby, tables a minute."""
    if len(limits.lobby.get(client, ())) >= limits.max_tables:
        raise HTTPException(
            429,
            detail={
                "code": "too_many_tables",
                "message": f"you have {limits.max_tables} tables waiting in the lobby; start or leave one first",
            },
        )
    if not limits.may_open_table(client):
        raise HTTPException(429, detail={"code": "rate_limited", "message": "too many new tables; wait a minute"})


def _invite_url(request: Request, settings: Settings, table_id: str) -> str:
    base = (settings.public_url or str(request.base_url)).rstrip("/")
    return f"{base}/t/{table_id}"


@router.get("/tables/{table_id}", response_model=TableInfo)
async def get_table(table_id: str, manager: ManagerDep) -> TableInfo:
    """Public facts about a table: seats, status, rules (never cards)."""
    return await _info(table_id, manager)


@router.post("/tables/{table_id}/join", response_model=JoinResponse)
async def join_table(table_id: str, body: JoinRequest, manager: ManagerDep) -> JoinResponse:
    """Take the first open seat of a table in the lobby (409 ``name_taken``: someone seated there has the name)."""
    try:
        seat, token = await manager.join(table_id, body.name)
    except LobbyError as exc:
        raise _http(exc) from exc
    return JoinResponse(table_id=table_id, seat=seat, token=token)


@router.post(
    "/tables/{table_id}/again",
    response_model=AgainResponse,
    status_code=201,
    responses={200: {"model": AgainResponse, "description": "joined the next table another player made"}},
)
async def play_again(
    table_id: str,
    token: BearerToken,
    request: Request,
    response: Response,
    manager: ManagerDep,
    settings: SettingsDep,
    limits: LimitsDep,
    body: AgainRequest | None = None,
) -> AgainResponse:
    """Play again with the same people (``Authorization: Bearer`` a seat token of this finished table).

    The first caller makes the next table (201): the same title, rules,
    seats, bots, turn clock, hints and privacy, the caller at seat 0 as its
    creator; everyone at the finished table is sent its ``table`` with
    ``next_table``. Later callers join it (200) with their name from the
    finished table, in their old seat number if it is open, else the lowest
    open seat. Answers the caller's seat, its new token and the next table's
    public facts. 409 ``not_finished`` before the end, ``already_joined``
    for a caller seated there already (unless ``{"reissue": true}``),
    ``name_taken``, or ``cannot_join`` (full or started); 403 ``bad_token``
    for a token with no seat at this table.
    """
    client = client_key(request.scope)
    reissue = body.reissue if body is not None else False

    async def may_create() -> None:
        """Only a caller who makes the next table opens one: the client's table limits apply then."""
        await _prune_lobby(client, manager, limits)
        _may_open(client, limits)

    try:
        placed, new_token = await manager.play_again(table_id, token, reissue=reissue, before_create=may_create)
    except LobbyError as exc:
        raise _http(exc) from exc
    if placed.created:
        limits.opened(client, placed.table_id)
    else:
        response.status_code = 200
    return AgainResponse(
        table_id=placed.table_id,
        seat=placed.seat,
        token=new_token,
        invite_url=_invite_url(request, settings, placed.table_id),
        created=placed.created,
        table=await _info(placed.table_id, manager),
    )


@router.post("/tables/{table_id}/leave", response_model=TableInfo)
async def leave_table(table_id: str, token: BearerToken, manager: ManagerDep) -> TableInfo:
    """Give your seat back before the start (``Authorization: Bearer`` your seat token).

    The seat is open again for anyone with the invite link; the token plays
    here no more (its sockets are closed with 4401) and everyone at the table
    gets a ``table`` message. The creator cannot leave (409
    ``host_cannot_leave``); nor can anyone once the game started (409
    ``not_in_lobby``). Answers the table's public facts.
    """
    try:
        await manager.leave(table_id, token)
    except LobbyError as exc:
        raise _http(exc) from exc
    return await _info(table_id, manager)


@router.post("/tables/{table_id}/seats/{seat}/remove", response_model=TableInfo)
async def remove_seat(table_id: str, seat: int, token: BearerToken, manager: ManagerDep) -> TableInfo:
    """The creator (seat 0's token) opens another seat before the start: a person's, as if they had left, or a bot's.

    The seat is ``open`` again (for anyone with the invite link; a seat still
    open at the start gets a bot) and everyone at the table gets a ``table``
    message. Never seat 0 nor an open seat or one the table does not have (409
    ``cannot_remove``); never once the game started (409 ``not_in_lobby``).
    Answers the table's public facts.
    """
    try:
        await manager.remove(table_id, seat, token)
    except LobbyError as exc:
        raise _http(exc) from exc
    return await _info(table_id, manager)


async def _info(table_id: str, manager: ManagerDep) -> TableInfo:
    """The table's info, or 404 ``no_table`` (none, or deleted meanwhile)."""
    info = await manager.table_info(table_id)
    if info is None:  # deleted meanwhile (a lobby table expired)
        raise HTTPException(404, detail={"code": "no_table", "message": "no such table"})
    return info


@router.post("/tables/{table_id}/start", response_model=TableInfo)
async def start_table(table_id: str, token: BearerToken, manager: ManagerDep) -> TableInfo:
    """Deal: open seats get bots. Only the creator's token (seat 0) may start."""
    try:
        await manager.start(table_id, token)
    except LobbyError as exc:
        raise _http(exc) from exc
    info = await manager.table_info(table_id)
    assert info is not None
    return info
