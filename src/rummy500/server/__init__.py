"""The web server: lobby over REST, live play over one websocket per seat, replays.

Layout: :mod:`~rummy500.server.config` (settings), :mod:`~rummy500.server.app`
(the app factory), :mod:`~rummy500.server.api` (routes), :mod:`~rummy500.server.manager`
(tables from lobby to finish), :mod:`~rummy500.server.session` (the master of
one live match), :mod:`~rummy500.server.hub` (connections), :mod:`~rummy500.server.engine`
(the door into the engine), :mod:`~rummy500.server.storage` (SQLite and
PostgreSQL), :mod:`~rummy500.server.bots` and :mod:`~rummy500.server.cli_serve`
(``rummy500 serve``). The wire protocol is in docs/protocol.md.
"""
