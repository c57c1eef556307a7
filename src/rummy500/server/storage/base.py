"""The storage interface: what the server keeps about tables and games, whatever the database.

A table is a game from its lobby on: it is created with its seats, players join
it, it starts and becomes a running game, and it finishes. The stored truth of a
game is its rules, its players, its secret seed and its append-only action log;
the live state is rebuilt from them by replaying the log (see
:mod:`rummy500.server.engine`). When a game ends its RECORD.md record and result
are stored too. What the players say at a started game is kept beside its log
(chat lines are public at the table: a page that reconnects, or a server that
restarts, finds them again).

Methods are synchronous; the server calls them from worker threads.
"""

from __future__ import annotations

import re
import unicodedata
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

__all__ = [
    "BLANK_LOOKING",
    "IGNORABLE",
    "AlreadyJoinedError",
    "ChatLine",
    "ConflictError",
    "GameRow",
    "NameTakenError",
    "NewTable",
    "NextSeat",
    "SeatKind",
    "SeatRow",
    "Status",
    "Storage",
    "StorageError",
    "StoredAction",
    "WouldWait",
    "bot_name",
    "name_key",
]

Status = Literal["lobby", "running", "finished"]
SeatKind = Literal["open", "human", "bot"]


class StorageError(RuntimeError):
    """The database failed or refused a write."""


class WouldWait(StorageError):
    """An append made not to wait (``SqliteStorage.append_action`` ``at_once``) met another connection's lock.

    Nothing was written; the same append without ``at_once`` (in a thread)
    waits for the lock.
    """


class ConflictError(StorageError):
    """A write lost a race: the action number is taken, the seat is gone, the table started."""


class NameTakenError(ConflictError):
    """A join refused because someone seated at the table (a person or a bot) has that name.

    Attributes:
        name: The name as the table shows it (the seated one's spelling).
        kind: ``human`` or ``bot``: who has it.
    """

    def __init__(self, name: str, kind: str) -> None:
        self.name = name
        self.kind = kind
        super().__init__(f"{name} is already at this table")


class AlreadyJoinedError(ConflictError):
    """A "play again" refused because the caller's seat of the finished table already has a seat at the next one.

    Attributes:
        table_id: The next table.
        seat: The seat the caller holds there.
    """

    def __init__(self, table_id: str, seat: int) -> None:
        self.table_id = table_id
        self.seat = seat
        super().__init__(f"already seated at seat {seat} of the next table")


@dataclass(frozen=True)
class NextSeat:
    """Where :meth:`Storage.play_again` seated the caller.

    Attributes:
        table_id: The next table.
        seat: The caller's seat there.
        created: Whether this call made the next table (the caller is its creator, at seat 0).
        reissued: Whether the caller held that seat already and its token was replaced.
    """

    table_id: str
    seat: int
    created: bool
    reissued: bool = False


#: Characters that show as blank space but are not spaces (a Braille blank, the Hangul fillers):
#: in a name they are spaces ("Ann⠀" is "Ann").
BLANK_LOOKING = {ord(ch): " " for ch in "\u2800\u115f\u1160\u3164\uffa0"}

#: Unicode's default-ignorable code points (DerivedCoreProperties.txt, Default_Ignorable_Code_Point):
#: characters a font draws as nothing, whatever their category (a combining grapheme joiner, variation
#: selectors, Khmer inherent vowels, Mongolian variation selectors, the Hangul fillers, tag characters
#: and the rest of the U+E0000 block). "Ann\u034f" and "Ann\U000e0100" read as "Ann".
IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)

#: Letters of other scripts that look like a Latin letter (after case folding): "Аnn" with a Cyrillic
#: А reads as "Ann" at the table, so it is the same name. A short list of the letters that pass
#: for Latin ones in a name, not Unicode's whole table of confusables: Cyrillic and Greek; Cherokee
#: capitals (their small letters fold to them: "ᎪᏴᏟ" reads "ABC"); Armenian ո օ ս հ ց զ
#: ("n o u h g q"); Latin alpha ɑ and script g ɡ. Letters that only resemble others loosely stay
#: apart ("Мария" and "Марина", "José" and "Jose" are different names).
_LOOK_ALIKES = str.maketrans(
    "авекмнорстухіјѕԁӏԛԝ"  # Cyrillic
    "αβεηικμνορτυχζ"  # Greek
    "ᎠᎡᎢᎥᎩᎪᎫᎬᎳᎷᎻᎽᏀᏂᏃᏏᏙᏚᏞᏟᏢᏦᏴ"  # Cherokee
    "ոօսհցզ"  # Armenian
    "ɑɡ",  # Latin
    "abekmhopctyxijsdlqw"  # read as
    "abehikmvoptuxz"
    "drtiyajewmhyghzbvslcpkb"
    "nouhgq"
    "ag",
)


def name_key(name: str) -> str:
    """What two seat names are compared by: what a player sees of them at the table.

    Compatibility forms made plain (a full-width "Ｂｏｂ" is "Bob"), invisible
    characters dropped (controls, format characters, every default-ignorable
    code point: :data:`IGNORABLE`, joiners and variation selectors included) and
    blank-looking ones (a Braille blank, a Hangul filler) read as spaces, letters
    of other scripts that look like a Latin letter read as that letter, spaces
    trimmed and collapsed, case folded.

    >>> name_key("  Bob ") == name_key("BOB") == name_key("bob") == name_key("Ｂｏｂ")
    True
    >>> name_key("Ann  Marie") == name_key("ann marie")
    True
    >>> name_key("\u0410nn") == name_key("Ann") == name_key("Ann\u200b") == name_key("Ann\u2800")
    True
    >>> name_key("Ann\u034f") == name_key("Ann\ufe0f") == name_key("Ann\U000e0100") == name_key("\u13aann")
    True
    >>> name_key("Ann") == name_key("Anna") or name_key("José") == name_key("Jose")
    False
    """
    plain = unicodedata.normalize("NFKC", name).translate(BLANK_LOOKING)
    kept = "".join(ch for ch in IGNORABLE.sub("", plain) if unicodedata.category(ch) not in ("Cf", "Cc"))
    # Composed again: "e\u034f\u0301" (a joiner between a letter and its accent) is "é".
    kept = unicodedata.normalize("NFKC", kept)
    return " ".join(kept.casefold().translate(_LOOK_ALIKES).split())


def bot_name(seat: int, taken: set[str]) -> str:
    """The name of a bot at ``seat`` (``Bot 3`` for seat 2), primed until no seat has it.

    ``taken`` holds the :func:`name_key` of the names already at the table; the
    name given is added to it.

    >>> taken = {name_key("bot 3")}
    >>> bot_name(2, taken), bot_name(1, taken)
    ("Bot 3'", 'Bot 2')
    """
    name = f"Bot {seat + 1}"
    while name_key(name) in taken:
        name += "'"
    taken.add(name_key(name))
    return name


@dataclass(frozen=True)
class SeatRow:
    """One seat of a table.

    Attributes:
        seat: Seat number, 0..n-1.
        kind: ``open`` (nobody yet), ``human`` or ``bot``.
        name: Display name (``None`` while open).
        bot_level: Level of a bot seat, else ``None``.
    """

    seat: int
    kind: SeatKind
    name: str | None = None
    bot_level: str | None = None


@dataclass(frozen=True)
class NewTable:
    """A table to store in the lobby (see :meth:`Storage.play_again`): seat 0 is its creator's."""

    id: str
    title: str
    rules: dict[str, Any]
    seats: list[SeatRow]
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredAction:
    """One accepted action of the log: number ``seq`` (from 0), seat and RECORD.md verb.

    ``created`` is when it was stored (``None`` where the adapter does not
    say): the last action's is the game's ``finished`` time. ``auto`` is
    whether the computer played it (a bot's seat, or a person's turn played
    for them: turn clock run out, away, idle); actions stored before the flag
    was kept read as ``False``. It is never part of the game's record.
    """

    seq: int
    seat: int
    action: dict[str, Any]
    created: datetime | None = None
    auto: bool = False


@dataclass(frozen=True)
class ChatLine:
    """One chat line said at a game: the speaker's seat and display name, and the cleaned text."""

    seat: int
    name: str
    text: str

    def message(self) -> dict[str, Any]:
        """The line as the ``chat`` message sockets are sent.

        >>> ChatLine(1, "Ann", "good game").message()
        {'type': 'chat', 'seat': 1, 'from': 'Ann', 'text': 'good game'}
        """
        return {"type": "chat", "seat": self.seat, "from": self.name, "text": self.text}


@dataclass(frozen=True)
class GameRow:
    """A table or game as stored.

    Attributes:
        id: Unguessable table id.
        title: Table name shown in the lobby.
        status: ``lobby``, ``running`` or ``finished``.
        created: When the table was created (UTC).
        started: When the game started, or ``None``.
        finished: When the game ended, or ``None``.
        rules: The rules mapping (preset and options, ``players`` included).
        seats: Every seat, in order.
        seed: The secret shuffle seed, set at start. Never shown before the end.
        record: The RECORD.md record, once finished.
        result: ``{"totals": [...], "winner": ...}``, once finished.
        actions: Number of accepted actions.
        settings: How the table is run (turn clock, hints, public); empty for
            tables stored before settings existed (the defaults apply).
        next_table: The table its players opened to play again once it was
            over (``None`` until one of them does).
    """

    id: str
    title: str
    status: Status
    created: datetime
    rules: dict[str, Any]
    seats: list[SeatRow] = field(default_factory=list)
    started: datetime | None = None
    finished: datetime | None = None
    seed: int | None = field(default=None, repr=False)
    record: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    actions: int = 0
    settings: dict[str, Any] = field(default_factory=dict)
    next_table: str | None = None

    @property
    def players(self) -> list[str]:
        """Seat names in order (open seats as empty strings)."""
        return [s.name or "" for s in self.seats]


class Storage(ABC):
    """Where tables, seats, tokens and action logs live.

    Seat tokens are never stored, only their SHA-256 hashes.
    """

    @abstractmethod
    def create_table(
        self,
        *,
        game_id: str,
        title: str,
        rules: dict[str, Any],
        seats: list[SeatRow],
        creator_token_hash: str,
        settings: dict[str, Any] | None = None,
    ) -> None:
        """Store a new table in the lobby; seat 0 is the creator's (``settings``: how it is run)."""

    @abstractmethod
    def get_game(self, game_id: str, *, with_record: bool = False) -> GameRow | None:
        """The table or game ``game_id`` (its record only if asked), or ``None``."""

    @abstractmethod
    def join(self, game_id: str, name: str, token_hash: str) -> int:
        """Seat a player in the first open seat of a table in the lobby.

        Names are unique at a table: a name that someone seated there (a
        person or a bot) has already, compared by :func:`name_key`, is refused.

        Returns:
            The seat number.

        Raises:
            NameTakenError: Someone at the table has that name.
            ConflictError: The table is not in the lobby or has no open seat.
        """

    @abstractmethod
    def vacate(self, game_id: str, seat: int, token_hash: str | None = None) -> None:
        """Open a seat of a table in the lobby again: its name and token (or its bot) are forgotten.

        Args:
            game_id: The table.
            seat: The seat to open (never seat 0, the creator's).
            token_hash: When given, the seat is opened only if this token still
                holds it (someone leaving); ``None``: whoever holds it, a
                person or a bot (removed by the table's creator).

        Raises:
            ConflictError: The table is not in the lobby, or the seat is not a
                seat other than the creator's held by a person (or a bot, when
                ``token_hash`` is ``None``), or not that token's.
        """

    @abstractmethod
    def play_again(
        self,
        game_id: str,
        seat: int,
        token_hash: str,
        *,
        new_table: NewTable,
        reissue: bool = False,
    ) -> NextSeat:
        """Seat the person of ``seat`` of a finished table at its next table, making it if there is none.

        One transaction, the finished table's row held: of two callers at
        once, one makes the next table and the other joins it. With no next
        table yet (or one deleted since, never started), ``new_table`` is
        stored (its seat 0 is the caller's, with ``token_hash``) and linked
        as the finished table's ``next_table``. Else the caller takes, at the
        next table (in the lobby), their old seat number if it is open, else
        the lowest open seat, with the name ``new_table`` gives seat 0.

        Args:
            game_id: The finished table.
            seat: The caller's seat there.
            token_hash: The caller's new token, for the next table.
            new_table: The table to make if there is none yet (id, title,
                rules, settings and seats, the caller at seat 0).
            reissue: A caller seated at the next table already (from this
                seat) gets ``token_hash`` for that seat instead of the
                old one, while the next table is in the lobby.

        Raises:
            AlreadyJoinedError: The caller has a seat there already (and not ``reissue``).
            NameTakenError: Someone else at the next table has the caller's name.
            ConflictError: The table is not finished (or does not exist), or the
                next table is full or has started.
        """

    @abstractmethod
    def seat_of_token(self, game_id: str, token_hash: str) -> int | None:
        """The seat a token hash belongs to at this table, or ``None``."""

    @abstractmethod
    def seat_tokens(self, game_id: str) -> dict[int, str]:
        """The token hash of each seat that has one (people's seats) at this table.

        Once a table has started its seats' tokens never change: a socket
        whose token is not its seat's here is a seat given back before the start.
        """

    @abstractmethod
    def start(self, game_id: str, *, seed: int, bot_level: str) -> GameRow:
        """Start a table: open seats become bots of ``bot_level``, the seed is stored.

        Raises:
            ConflictError: The table is not in the lobby.
        """

    @abstractmethod
    def append_action(
        self, game_id: str, seq: int, seat: int, action: dict[str, Any], *, auto: bool = False
    ) -> datetime | None:
        """Append action number ``seq`` to a running game's log, durably.

        ``auto``: the computer played it (see :attr:`StoredAction.auto`); kept
        with the action, so every server process, and every page loaded later,
        marks it alike.

        Returns:
            The time stored with it (``None``: the adapter does not say): the
            time the game ended if it is the last action.

        Raises:
            ConflictError: Number ``seq`` is already taken (another server wrote it)
                or the game is not running.
        """

    @abstractmethod
    def actions(self, game_id: str) -> list[StoredAction]:
        """The game's action log, in order."""

    def actions_since(self, game_id: str, seq: int) -> list[StoredAction]:
        """The actions numbered ``seq`` and on, in order (how a server process catches up).

        Adapters should override this with a query that reads only those rows.
        """
        return [a for a in self.actions(game_id) if a.seq >= seq]

    @abstractmethod
    def append_chat(self, game_id: str, line: ChatLine) -> None:
        """Keep a chat line said at a started (or finished) game, after the ones before it.

        Raises:
            StorageError: The database failed, or the game is unknown.
        """

    @abstractmethod
    def chat_lines(self, game_id: str, limit: int = 50) -> list[ChatLine]:
        """The last ``limit`` chat lines said at a game, oldest first."""

    @abstractmethod
    def finish(self, game_id: str, *, record: dict[str, Any], result: dict[str, Any]) -> datetime | None:
        """Mark a game finished and store its record and result.

        The game's ``finished`` time is stamped once: the time stored with its
        last action (so every server process, which each saw that action,
        shows the same); a second call keeps the first's.

        Returns:
            The stored ``finished`` time (``None``: the adapter does not say).
        """

    @abstractmethod
    def list_games(self, status: Status | None = None, limit: int = 100, *, public_only: bool = False) -> list[GameRow]:
        """Games, newest (finished, else created) first, optionally of one status, or only public ones (records not loaded)."""

    @abstractmethod
    def running_ids(self, active_since: datetime | None = None) -> list[str]:
        """Ids of the games started and not finished, oldest start first.

        Args:
            active_since: Only games started or played since then (``None``: all).
        """

    @abstractmethod
    def expire_lobby(self, before: datetime) -> int:
        """Delete the tables opened before ``before`` and never started.

        Returns:
            How many tables were deleted.
        """

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release connections."""
