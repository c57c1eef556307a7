"""The master of one live match: the only code that changes a game's state.

A :class:`MatchSession` knows no sockets and no SQL. It receives actions (from
people through the hub, or from its own bots), runs the fixed chain of checks,
stores each accepted action durably, applies it, and tells its listeners, who
send every seat its own view. One module per job:

- :mod:`~rummy500.server.session.match`: the session itself (lock, commit,
  catch-up from other processes, what listeners and relays are told);
- :mod:`~rummy500.server.session.guards`: the chain of checks and its error codes;
- :mod:`~rummy500.server.session.presence`: connections, away players, stand-ins;
- :mod:`~rummy500.server.session.driver`: the bot driver (bot seats, stand-ins,
  out-of-turn calls);
- :mod:`~rummy500.server.session.events`: the public log sent with each state;
- :mod:`~rummy500.server.session.ids`: a table as log lines name it (never its
  whole id: the id is the invite).

When several server processes serve the same tables (``shared``), each holds
its own session of a game and the stored log is the only truth: before
checking an action the session catches up on actions the others appended; if
another process wins the race for an action number the action is refused as
``stale_version`` after catching up. Only the session whose process holds the
table's lease is ``driving``: it alone plays bots and stand-ins. Connections
held by the other processes are counted in ``SeatInfo.remote``. What the
others must hear of (a stored action, a chat line, the driver's stand-ins) goes
to the :class:`SessionRelay`; the session itself never touches the bus.
"""

from rummy500.server.session.guards import SessionError, clean_name, clean_text
from rummy500.server.session.ids import short_id, without_id
from rummy500.server.session.match import ActionStore, MatchSession, SessionListener, SessionRelay, keep_chat_line
from rummy500.server.session.presence import SeatInfo

__all__ = [
    "ActionStore",
    "MatchSession",
    "SeatInfo",
    "SessionError",
    "SessionListener",
    "SessionRelay",
    "clean_name",
    "clean_text",
    "keep_chat_line",
    "short_id",
    "without_id",
]
