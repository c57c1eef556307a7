"""Every message of the web protocol as a pydantic model (docs/protocol.md describes them).

Requests are split by direction as in FastAPI's full-stack template: what a
client sends (``...Request``, strict: unknown fields refused) and what the
server answers. Websocket messages are a discriminated union on ``type``.

Views are the engine's ``view.to_dict()`` and are passed through as JSON
objects: the engine owns their shape (docs/api.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = [
    "ChatMessage",
    "ClientAction",
    "ClientChat",
    "ClientMessage",
    "ClientSync",
    "CreateTableRequest",
    "CreateTableResponse",
    "ErrorCode",
    "ErrorMessage",
    "FinalBonus",
    "GameSummary",
    "JoinRequest",
    "JoinResponse",
    "ReplayStep",
    "RoundResult",
    "RulesCatalogue",
    "SeatPublic",
    "StateMessage",
    "TableInfo",
    "TableMessage",
    "client_message_adapter",
]

Name = Annotated[str, Field(min_length=1, max_length=40)]

ErrorCode = Literal[
    "bad_message",
    "bad_token",
    "no_table",
    "not_seated",
    "not_running",
    "stale_version",
    "not_your_turn",
    "illegal_action",
    "rate_limited",
    "too_many_sockets",
    "unavailable",
    "internal",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------ REST: in
class CreateTableRequest(_Strict):
    """``POST /api/tables``: open a table; the creator takes seat 0."""

    name: Name = Field(description="the creator's display name")
    title: str | None = Field(default=None, max_length=80, description="table name for the lobby")
    seats: int = Field(default=2, ge=2, le=8, description="number of seats, 2..8")
    preset: str = Field(default="standard", max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict, description="options over the preset")
    bots: dict[str, str] = Field(default_factory=dict, description='bot seats and their levels, e.g. {"1": "random"}')


class JoinRequest(_Strict):
    """``POST /api/tables/{id}/join``: take the first open seat."""

    name: Name


# ----------------------------------------------------------------- REST: out
class CreateTableResponse(BaseModel):
    """The new table, the creator's seat and its secret token."""

    table_id: str
    seat: int
    token: str
    invite_url: str


class JoinResponse(BaseModel):
    """The seat taken and its secret token."""

    table_id: str
    seat: int
    token: str


class SeatPublic(BaseModel):
    """A seat as everybody may see it."""

    seat: int
    name: str | None
    kind: Literal["open", "human", "bot"]
    bot_level: str | None = None
    connected: bool = False
    autoplay: bool = Field(default=False, description="a bot plays for this away player")


class TableInfo(BaseModel):
    """Public facts about a table (lobby info, and the ``table`` of websocket messages)."""

    id: str
    title: str
    status: Literal["lobby", "running", "finished"]
    rules: dict[str, Any]
    seats: list[SeatPublic]
    version: int = 0
    spectators: int = 0
    created: datetime | None = None
    invite_path: str | None = None


class GameSummary(BaseModel):
    """One line of ``GET /api/games``."""

    id: str
    title: str
    status: Literal["lobby", "running", "finished"]
    players: list[str]
    rules: dict[str, Any]
    created: datetime
    started: datetime | None = None
    finished: datetime | None = None
    actions: int = 0
    totals: list[int] | None = None
    winner: int | list[int] | None = None


class OptionInfo(BaseModel):
    """One option of the catalogue."""

    name: str
    default: Any
    values: str
    description: str
    group: str | None = None


class PresetInfo(BaseModel):
    """One preset: its options over the standard game."""

    name: str
    description: str
    options: dict[str, Any]


class RulesCatalogue(BaseModel):
    """``GET /api/rules``: what the table editor offers."""

    options: list[OptionInfo]
    presets: list[PresetInfo]
    bot_levels: list[str] = Field(description="weakest first")
    default_bot_level: str = Field(description="given to seats still open at the start")


class ReplayStep(BaseModel):
    """``GET /api/games/{id}/replay/{step}``: a finished game after ``step`` actions."""

    step: int
    steps: int = Field(description="number of actions in the game")
    action: dict[str, Any] | None = Field(description="the event of action `step` (null at 0)")
    view: dict[str, Any] = Field(description="the spectator view after `step` actions")
    hands: list[list[str]] = Field(description="every seat's hand (the game is over)")


# ---------------------------------------------------------- websocket: in
class ClientAction(_Strict):
    """Play an action: the RECORD.md verb without ``p``, for the state at ``version``."""

    type: Literal["action"]
    version: int = Field(strict=True, description="the version of the state the action was chosen on")
    action: dict[str, Any]


class ClientChat(_Strict):
    """Say something to the table."""

    type: Literal["chat"]
    text: str


class ClientSync(_Strict):
    """Ask for the current state again."""

    type: Literal["sync"]


ClientMessage = Annotated[ClientAction | ClientChat | ClientSync, Field(discriminator="type")]
client_message_adapter: TypeAdapter[ClientAction | ClientChat | ClientSync] = TypeAdapter(ClientMessage)


# --------------------------------------------------------- websocket: out
class FinalBonus(BaseModel):
    """``final_bonus`` given when the game was decided."""

    seat: int
    points: int


class RoundResult(BaseModel):
    """One finished round of the score sheet."""

    round: int = Field(description="0-based round number")
    dealer: int
    went_out: int | None = Field(description="the seat that went out, null when the stock ran out")
    round_scores: list[int] = Field(description="per seat")
    totals: list[int] = Field(description="per seat, after this round (and the final bonus)")
    bonus: FinalBonus | None = None


class StateMessage(BaseModel):
    """The position as this connection may see it, after ``version`` accepted actions."""

    type: Literal["state"] = "state"
    version: int
    view: dict[str, Any]
    table: TableInfo
    log: list[dict[str, Any]]
    rounds: list[RoundResult] = Field(default_factory=list, description="every finished round, oldest first")


class TableMessage(BaseModel):
    """The table changed (lobby joins, presence, a bot standing in, the start)."""

    type: Literal["table"] = "table"
    table: TableInfo


class ErrorMessage(BaseModel):
    """A refused message; the state is unchanged and the socket stays open."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    version: int | None = None


class ChatMessage(BaseModel):
    """A chat line from a seated player."""

    model_config = ConfigDict(populate_by_name=True)

    type: Literal["chat"] = "chat"
    seat: int
    text: str
    from_: str = Field(alias="from")

    def to_json_dict(self) -> dict[str, Any]:
        """The wire form (``from`` rather than ``from_``)."""
        return self.model_dump(by_alias=True)
