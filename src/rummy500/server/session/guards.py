"""The chain of checks on a request: each refusal is a :class:`SessionError` with a stable code.

An action goes through, in order: well-formed (:func:`parse_request`), a seat
(:func:`seat_of`), then under the session's lock the game running, not stale,
the seat may act now, and legal (:func:`check_move`). A chat line must come
from a seat and hold some text (:func:`chat_text`), and the seat must not be
talking faster than :class:`ChatRate` allows. Every check leaves the game
unchanged; the codes are listed in docs/protocol.md.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from typing import Any

from rummy500.server.engine import Action, IllegalAction, LiveGame, parse_action
from rummy500.server.limits import TokenBucket
from rummy500.server.storage.base import BLANK_LOOKING, IGNORABLE

__all__ = [
    "CHAT_BURST",
    "CHAT_LINES_PER_SECOND",
    "ChatRate",
    "SessionError",
    "chat_text",
    "check_move",
    "clean_name",
    "clean_text",
    "parse_request",
    "seat_of",
]

#: Chat lines a second one seat may say over time (all its sockets together, per server process).
CHAT_LINES_PER_SECOND = 1.0
#: Chat lines one seat may say at once before :data:`CHAT_LINES_PER_SECOND` applies.
CHAT_BURST = 5


class SessionError(Exception):
    """A refused request, with a stable code for the client (see docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")


#: Format characters kept inside text: the zero-width non-joiner and joiner (emoji sequences such
#: as 👩‍💻, Persian and Indic words).
_JOINERS = frozenset("\u200c\u200d")
#: The black flag that a run of tag characters makes a subdivision's flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿: 🏴 and the tags of
#: "gbsct", then the cancel tag). Tags anywhere else draw nothing and are dropped.
_FLAG = "\U0001f3f4"
#: Variation selectors 15 and 16 (text or emoji presentation: ❤️ is ❤ and VS16), kept right after a
#: character that may take them: a symbol (``So``, ``Sm``), one this Python does not know (``Cn``: a
#: newer emoji), or one of the others that have emoji variation sequences (the keycaps' # * 0-9,
#: ‼ ⁉ ℹ 〰 〽). After a letter ("Ann\ufe0f") they draw nothing and are dropped.
_PRESENTATION = frozenset("\ufe0e\ufe0f")
_PRESENTATION_BASES = frozenset("#*0123456789\u203c\u2049\u2139\u3030\u303d")
#: What a line may hold and still show nothing: spaces, the joiners, selectors and tags kept, a
#: Braille blank.
_UNSEEN = _JOINERS | _PRESENTATION | frozenset(map(chr, range(0xE0020, 0xE0080))) | {"\u2800"}


def _is_tag(ch: str) -> bool:
    return "\U000e0020" <= ch <= "\U000e007f"


def _dropped(ch: str) -> bool:
    """Whether a character is taken out of chat text and names, wherever it stands.

    Out go controls (but tabs and line breaks, which are spaces), lone surrogates,
    private use, format characters but the joiners (bidirectional overrides,
    zero-width spaces) and the default-ignorable code points
    (:data:`~rummy500.server.storage.base.IGNORABLE`: a combining grapheme joiner,
    variation selectors, Hangul fillers, tag characters); :func:`clean_text`
    keeps a flag's tags and an emoji's presentation selector.

    A character this Python's Unicode does not know yet (``Cn``: an emoji newer than it) is kept,
    as the browser keeps it; dropping it made the page's copy of a line differ from the server's
    (but those of the default-ignorable blocks, which browsers draw as nothing).
    """
    category = unicodedata.category(ch)
    if category == "Cc":
        return ch not in "\t\n\x0b\x0c\r"  # line breaks and tabs are spaces: "gg\nwp" is "gg wp"
    if ch in _JOINERS:
        return False
    return category in ("Cs", "Co", "Cf") or IGNORABLE.match(ch) is not None


def _kept(text: str) -> str:
    """``text`` without what :func:`_dropped` drops, and without tags and selectors out of place."""
    kept = []
    before = ""  # the character before this one, as sent
    flag = False  # in the tags after a black flag
    for ch in text:
        if _is_tag(ch):
            flag = flag or before == _FLAG
            keep = flag
        else:
            flag = False
            if ch in _PRESENTATION:
                keep = before in _PRESENTATION_BASES or unicodedata.category(before or " ") in ("So", "Sm", "Cn")
            else:
                keep = not _dropped(ch)
        if keep:
            kept.append(ch)
        before = ch
    return "".join(kept)


def clean_text(text: str, limit: int) -> str:
    r"""Chat text as it is kept and shown, trimmed to ``limit`` characters.

    Out go controls, format characters and default-ignorable code points (see
    :func:`_dropped`), but the joiners, a flag's tag characters (right after
    the black flag) and a presentation selector right after an emoji (a red
    heart and VS16); runs of spaces are one. A line left showing nothing
    (joiners, selectors, flags' tags and Braille blanks only) is empty.

    >>> clean_text("gg \u202eevil\x00\nlol \U0001fae8", 40) == "gg evil lol \U0001fae8"
    True
    >>> clean_text("\U0001f469\u200d\U0001f4bb  can  code \u2764\ufe0f", 40) == "\U0001f469\u200d\U0001f4bb can code \u2764\ufe0f"
    True
    >>> clean_text("Ann\u034f\ufe0f\U000e0100\u17b4\u180b", 40), clean_text("\U000e0041\U000e0042", 40), clean_text("\u200d", 40)
    ('Ann', '', '')
    """
    cleaned = " ".join(_kept(text).split())[:limit]
    return cleaned if any(ch not in _UNSEEN and not ch.isspace() for ch in cleaned) else ""


def clean_name(text: str, limit: int) -> str:
    """A seat's or a table's name: as :func:`clean_text`, and blank-looking characters are spaces.

    >>> clean_name("Ann\u2800", 40), clean_name("\u3164", 40), clean_name("\u034f", 40)
    ('Ann', '', '')
    """
    return clean_text(text.translate(BLANK_LOOKING), limit)


def parse_request(record: Any) -> Action:
    """The action a client sent, a RECORD.md verb without ``p``.

    Raises:
        SessionError: ``bad_message`` when it is not a well-formed action.
    """
    try:
        return parse_action(record)
    except ValueError as exc:
        raise SessionError("bad_message", str(exc)) from exc


def seat_of(seat: int | None, doing: str) -> int:
    """The seat of a connection that wants to act or chat.

    Args:
        seat: The connection's seat (``None``: a spectator).
        doing: What is refused to a spectator, for the message.

    Raises:
        SessionError: ``not_seated`` for a spectator.
    """
    if seat is None:
        raise SessionError("not_seated", doing)
    return seat


def check_move(game: LiveGame, seat: int, version: Any, action: Action) -> None:
    """The checks on an action that need the game (the session's lock held).

    Args:
        game: The game at its current version.
        seat: The acting seat.
        version: The version the client saw when choosing the action.
        action: The parsed action.

    Raises:
        SessionError: ``not_running``, ``stale_version``, ``not_your_turn`` or
            ``illegal_action``.
    """
    # A move chosen on an earlier position is stale even when the game has
    # ended since (another seat's Rummy! call can end it out of turn): the
    # client is told the game moved on, and is sent where it went.
    if version != game.version:
        raise SessionError(
            "stale_version",
            f"the game is at version {game.version}, your action was for {version}",
        )
    if game.is_over:
        raise SessionError("not_running", "the game is over")
    if seat not in game.actors():
        raise SessionError("not_your_turn", f"{game.names[game.to_move]} is to move")
    try:
        game.check(seat, action)
    except (IllegalAction, ValueError) as exc:
        raise SessionError("illegal_action", str(exc)) from exc


def chat_text(seat: int | None, text: Any, limit: int) -> tuple[int, str]:
    """The seat and cleaned text of a chat line.

    Raises:
        SessionError: ``not_seated`` for a spectator; ``bad_message`` when the
            text is not a string or nothing is left of it.
    """
    speaker = seat_of(seat, "only seated players can chat")
    if not isinstance(text, str):
        raise SessionError("bad_message", "chat text must be a string")
    clean = clean_text(text, limit)
    if not clean:
        raise SessionError("bad_message", "empty chat message")
    return speaker, clean


class ChatRate:
    """How fast each seat may chat: :data:`CHAT_BURST` lines at once, then :data:`CHAT_LINES_PER_SECOND`.

    One bucket per seat of a table, whatever socket the lines come through
    (a seat's several tabs share it), in the waiting room and during the game
    alike. A line over the limit is refused with ``rate_limited`` (the
    connection's own message rate still bounds how many refusals a flood
    gets): it is neither kept nor sent to anyone.

    >>> now = [0.0]
    >>> rate = ChatRate(clock=lambda: now[0])
    >>> for _ in range(5):
    ...     rate.check("t", 1)
    >>> try:
    ...     rate.check("t", 1)
    ... except SessionError as exc:
    ...     print(exc.code)
    rate_limited
    >>> rate.check("t", 2)  # another seat has its own
    >>> now[0] += 1.0
    >>> rate.check("t", 1)
    """

    def __init__(
        self,
        rate: float = CHAT_LINES_PER_SECOND,
        burst: int = CHAT_BURST,
        *,
        clock: Callable[[], float] = time.monotonic,
        keep: int = 10_000,
    ) -> None:
        """Buckets of ``rate`` lines a second and bursts of ``burst``, on ``clock``.

        ``keep``: past this many seats, the buckets that have refilled are forgotten.
        """
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.keep = keep
        self._buckets: dict[tuple[str, int], TokenBucket] = {}

    def check(self, table_id: str, seat: int) -> None:
        """Spend one of the seat's lines, or refuse the line.

        Raises:
            SessionError: ``rate_limited``: the seat said too many lines too fast.
        """
        key = (table_id, seat)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.keep:
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full()}
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        if not bucket.take():
            raise SessionError(
                "rate_limited",
                f"chat is limited to {self.burst} lines at once, then {self.rate:g} a second: "
                "that line was not sent; send it again in a moment",
            )
