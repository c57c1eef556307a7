"""A socket that fails while it is being told its table is not left counted at the table.

Between counting a new socket (the hub, the session's presence) and its
message loop the handler awaits the database (the waiting room's chat, the
lobby's presence). A failure there, such as the database going away, ended the
handler before its clean-up: the socket stayed counted as connected for good
(found 8 December 2026).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummy500.server.app import create_app
from rummy500.server.storage.base import StorageError

from .helpers import create_table, make_settings, ws_path


def test_a_socket_whose_opening_fails_on_the_database_is_not_left_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(make_settings(tmp_path))
    with TestClient(app) as client:
        manager = app.state.manager
        made = create_table(client, name="Ann", seats=2)
        table_id = made["table_id"]

        async def away(*args: object, **kwargs: object) -> list[object]:
            raise StorageError("the database went away")

        monkeypatch.setattr(manager, "stored_chat", away)
        with (
            contextlib.suppress(WebSocketDisconnect, StorageError),
            client.websocket_connect(ws_path(table_id, made["token"])) as ws,
        ):
            ws.receive_json()  # (the table, before the chat that fails)
        assert manager.hub.connections(table_id) == []
        monkeypatch.undo()
        # The seat shows as not connected to anyone who looks now.
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        assert seats[0]["connected"] is False
