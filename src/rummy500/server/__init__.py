"""The web server: lobby over REST, live play over one websocket per seat, replays.

Layout: :mod:`~rummy500.server.config` (settings), :mod:`~rummy500.server.app`
(the app factory), :mod:`~rummy500.server.api` (routes), :mod:`~rummy500.server.manager`
(tables from lobby to finish), :mod:`~rummy500.server.session` (the master of
one live match: checks, commit, presence, bot driver), :mod:`~rummy500.server.hub`
(connections), :mod:`~rummy500.server.engine` (the door into the engine),
:mod:`~rummy500.server.storage` (SQLite and PostgreSQL), :mod:`~rummy500.server.bus`
(between processes: in memory or Redis), :mod:`~rummy500.server.cluster` (several
processes, one set of tables) and :mod:`~rummy500.server.bots`. The command
``rummy500 serve`` is :mod:`rummy500.cli.serve`. The wire protocol is in
docs/protocol.md.
"""
