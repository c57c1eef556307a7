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

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from rummy500.server.config import CHAT_MAX_CHARS

__all__ = [
    "AgainRequest",
    "AgainResponse",
    "ChatHistoryMessage",
    "ChatMessage",
    "ClientAction",
    "ClientChat",
    "ClientHint",
    "ClientMessage",
    "ClientReady",
    "ClientSync",
    "CreateTableRequest",
    "CreateTableResponse",
    "ErrorCode",
    "ErrorMessage",
    "FinalBonus",
    "GameSummary",
    "HintMessage",
    "JoinRequest",
    "JoinResponse",
    "ReplayStep",
    "RoundResult",
    "RulesCatalogue",
    "SeatPublic",
    "StateMessage",
    "TableSettingsInfo",
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
    "nothing_to_ready",
    "rate_limited",
    "too_many_sockets",
    "unavailable",
    "internal",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------ REST: in
class _StrictTypes(_Strict):
    """A REST body whose values keep their JSON types (strict, as the websocket's messages).

    ``"3"``, ``3.0`` or ``true`` for a number, ``"yes"`` or ``1`` for a boolean
    are refused (422 ``bad_request`` naming the field), never coerced.
    """

    model_config = ConfigDict(extra="forbid", strict=True)


class CreateTableRequest(_StrictTypes):
    """``POST /api/tables``: open a table; the creator takes seat 0.

    ``rules.players``, if given, must be ``seats`` (the seat count sets it).
    """

    name: Name = Field(description="the creator's display name")
    title: str | None = Field(default=None, max_length=80, description="table name for the lobby")
    seats: int = Field(default=2, ge=2, le=8, description="number of seats, 2..8")
    preset: str = Field(default="standard", max_length=40)
    rules: dict[str, Any] = Field(default_factory=dict, description="options over the preset")
    bots: dict[str, str] = Field(default_factory=dict, description='bot seats and their levels, e.g. {"1": "random"}')
    turn_clock: Literal[0, 30, 60, 120] = Field(
        default=0, description="seconds per turn before the seat's bot plays it; 0: off"
    )
    hints: bool = Field(default=True, description="players may ask for a hint")
    public: bool = Field(default=False, description="list the finished game among the public replays")

    @field_validator("turn_clock", mode="before")
    @classmethod
    def _whole_seconds(cls, value: Any) -> Any:
        # A literal of numbers compares by value: 30.0 (or false for 0) would pass as 30 (or 0).
        if type(value) is not int:
            raise ValueError("must be a whole number of seconds: 0, 30, 60 or 120")
        return value


class JoinRequest(_StrictTypes):
    """``POST /api/tables/{id}/join``: take the first open seat."""

    name: Name


class AgainRequest(_StrictTypes):
    """``POST /api/tables/{id}/again``: play again with the same people (the body may be left out)."""

    reissue: bool = Field(
        default=False,
        description="already seated at the next table (the answer was lost): give that seat a new token",
    )


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


class TableSettingsInfo(BaseModel):
    """How a table is run (set when it is created)."""

    turn_clock: int = Field(default=0, description="seconds per turn; 0: no clock")
    hints: bool = True
    public: bool = False
    chat_max_chars: int = Field(
        default=CHAT_MAX_CHARS, description="the longest chat line the server takes, in characters (its setting)"
    )


class TableInfo(BaseModel):
    """Public facts about a table (lobby info, and the ``table`` of websocket messages)."""

    id: str
    title: str
    status: Literal["lobby", "running", "finished"]
    rules: dict[str, Any]
    seats: list[SeatPublic]
    settings: TableSettingsInfo = Field(default_factory=TableSettingsInfo)
    version: int = 0
    spectators: int = 0
    created: datetime | None = None
    finished: datetime | None = Field(default=None, description="when the game ended; null until then")
    invite_path: str | None = None
    next_table: str | None = Field(
        default=None, description="once the game is over: the table its players opened to play again"
    )


class AgainResponse(BaseModel):
    """The next table, the caller's seat there and its secret token."""

    table_id: str
    seat: int
    token: str
    invite_url: str
    created: bool = Field(description="this call made the next table: the caller is its creator (seat 0)")
    table: TableInfo


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


class ChoiceInfo(BaseModel):
    """One named value of an option, in a player's words."""

    value: bool | int | str = Field(description="the value as a record's rules object writes it")
    label: str = Field(description="a short name for the value (the web form's choice)")
    description: str = Field(description="what choosing this value means")


class NumberInfo(BaseModel):
    """The whole numbers an option accepts besides its named values."""

    min: int | None = Field(description="smallest accepted (null: no bound)")
    max: int | None = Field(description="largest accepted (null: no bound)")
    label: str
    description: str


class OptionInfo(BaseModel):
    """One option of the catalogue."""

    name: str
    label: str = Field(default="", description="the option's name in a player's words")
    default: Any
    values: str = Field(description="the values as RULES.md lists them (text)")
    description: str
    group: str | None = None
    choices: list[ChoiceInfo] = Field(
        default_factory=list, description="every named value (words, true/false, listed numbers), in order"
    )
    number: NumberInfo | None = Field(default=None, description="the free whole numbers accepted besides the choices")
    implied: list[dict[str, Any]] = Field(
        default_factory=list,
        description="what the engine plays when the option is left out, given other options: {when: {option: value}, value}",
    )
    seats: list[dict[str, Any]] = Field(
        default_factory=list, description="{value, players}: the only seat counts a value can be played at"
    )


class PresetInfo(BaseModel):
    """One preset: its options over the standard game."""

    name: str
    label: str = Field(default="", description="the preset's name in a player's words")
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
    round: int = Field(default=0, description="0-based round of this step (the round just ended, at a round's end)")
    round_over: dict[str, Any] | None = Field(
        default=None, description="when action `step` ended a round: its summary (as a state's `last_round`)"
    )
    game_over: dict[str, Any] | None = Field(
        default=None, description="when action `step` ended the game: `totals` (final bonus included) and `winner` (a seat, or a side's seats)"
    )
    round_ends: list[int] = Field(
        default_factory=list, description="the step that ends each round, in order (round r + 1 starts at the step after round r's end)"
    )


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


class ClientReady(_Strict):
    """The player has read the round summary (the next round starts when all have)."""

    type: Literal["ready"]


class ClientHint(_Strict):
    """Ask for a hint: a strong bot's move for this seat, with a reason."""

    type: Literal["hint"]


_ClientMessages = ClientAction | ClientChat | ClientSync | ClientReady | ClientHint
ClientMessage = Annotated[_ClientMessages, Field(discriminator="type")]
client_message_adapter: TypeAdapter[_ClientMessages] = TypeAdapter(ClientMessage)


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


class SeatSummary(BaseModel):
    """One seat in a round summary."""

    seat: int
    melded: int = Field(description="points of the cards this seat laid on the table")
    in_hand: int = Field(description="points of the cards left in this seat's hand")
    bonus: int = Field(default=0, description="the going_out_bonus in this seat's round score (0 unless it went out)")
    round_score: int
    total: int
    hand: list[str] = Field(description="the cards left in hand (laid open when the round is scored)")


class RoundSummary(BaseModel):
    """A scored round as the table shows it."""

    round: int = Field(description="0-based round number")
    went_out: int | None
    seats: list[SeatSummary]
    melds: list[dict[str, Any]]
    final_bonus: FinalBonus | None = Field(
        default=None, description="the round that ended the game: the final_bonus in the seats' totals"
    )
    left: float | None = Field(default=None, description="seconds the summary still holds the table")
    ready: list[int] = Field(default_factory=list, description="seats that pressed Ready")
    waiting: list[int] = Field(default_factory=list, description="seats still reading")


class Clock(BaseModel):
    """A countdown shown at the table."""

    seat: int
    left: float = Field(description="seconds left")
    seconds: int | None = Field(default=None, description="the whole turn clock")
    kind: Literal["turn", "away"] = Field(description="turn: the turn clock; away: the grace of an away player")


class CallWindow(BaseModel):
    """Every seat's window to call Rummy! before the next player may draw."""

    left: float
    seconds: float


class Pace(BaseModel):
    """The table's public timers."""

    turn_clock: int
    hints: bool
    call_window: CallWindow | None
    clock: Clock | None
    summary: RoundSummary | None = Field(description="the round summary holding the table, if any")


class StateMessage(BaseModel):
    """The position as this connection may see it, after ``version`` accepted actions."""

    type: Literal["state"] = "state"
    version: int
    view: dict[str, Any]
    table: TableInfo
    log: list[dict[str, Any]]
    rounds: list[RoundResult] = Field(default_factory=list, description="every finished round, oldest first")
    table_points: list[int] | None = Field(default=None, description="points each seat has on the table this round")
    pace: Pace
    last_round: RoundSummary | None = Field(default=None, description="the last scored round")


class HintMessage(BaseModel):
    """A hint for this seat only."""

    type: Literal["hint"] = "hint"
    version: int
    action: dict[str, Any] | None = Field(
        description="the move to send; null: send nothing (let an out-of-turn chance to call Rummy! pass)"
    )
    text: str = Field(description='the move as the engine writes it ("discard 9H"), or "let the chance pass"')
    reason: str
    level: str = Field(description="the bot level that chose the move: the strongest that answered within the hint budget")


class ChatHistoryMessage(BaseModel):
    """The recent chat lines, sent when a connection opens."""

    type: Literal["chat_history"] = "chat_history"
    messages: list[dict[str, Any]]


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
