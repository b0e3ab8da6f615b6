"""A database too busy to answer (SQLite's write lock held by another connection past the wait) gets 503 and
Retry-After from the API, never a 500, and a clear error line over the WebSocket; nothing changes, and the same
move goes through once the database is free."""
from __future__ import annotations

import contextlib
import json
import sqlite3

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client

from games.play import services
from games.models import Game, PendingAction, Turn
from ropasci.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def wait_briefly_for_locks():
    """This thread's connection waits 50 ms for SQLite's write lock (the site's setting is 20 s)."""
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout = 50")


@contextlib.contextmanager
def write_lock_held_elsewhere():
    if connection.vendor != "sqlite":
        pytest.skip("the lock is SQLite's")
    other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def unchanged(game_id: str) -> bool:
    return (Game.objects.get(pk=game_id).turn == 0 and not Turn.objects.filter(game_id=game_id).exists()
            and not PendingAction.objects.filter(game_id=game_id).exists())


def test_a_move_while_the_database_is_busy_gets_503_and_changes_nothing():
    client = Client()
    body = {"game": "tic_tac_toe", "players": {"x": "human", "o": "human"}}
    game = client.post("/api/games", json.dumps(body), content_type="application/json").json()
    move = dict(path=f"/api/games/{game['id']}/actions", data=json.dumps({"turn": 1, "action": 4}),
                content_type="application/json", HTTP_AUTHORIZATION=f"Seat {game['seats']['x']['token']}")
    try:
        wait_briefly_for_locks()
        with write_lock_held_elsewhere():
            response = client.post(**move)
        assert response.status_code == 503
        assert response.json() == {"error": "the server is busy: try again in a moment"}
        assert response["Retry-After"] == "2"
        assert unchanged(game["id"])
        assert client.post(**move).status_code == 200
    finally:
        connection.close()  # the next test's connection waits as configured


async def test_a_move_over_the_websocket_while_the_database_is_busy_gets_an_error_line():
    created = await sync_to_async(services.create_game)("tic_tac_toe", {"x": "human", "o": "human"})
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"authorization", f"Seat {created.tokens['x']}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/games/{created.game.id}", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=10)  # the board
    await database_sync_to_async(wait_briefly_for_locks)()  # the consumers' thread
    try:
        with write_lock_held_elsewhere():
            await comm.send_json_to({"type": "submit", "turn": 1, "action": 4})
            answer = await comm.receive_from(timeout=10)
        assert "the server is busy: try again in a moment" in answer and 'id="game-error"' in answer
        assert await sync_to_async(unchanged)(created.game.id)
    finally:
        await database_sync_to_async(lambda: connection.close())()
        await comm.disconnect()


def test_only_a_busy_database_counts_as_busy():
    from django.db import OperationalError

    from games.guard.refusals import database_busy
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's messages")
    assert database_busy(OperationalError("database is locked"))
    assert not database_busy(OperationalError("no such table: games_game"))  # a bug: it stays a 500
    assert not database_busy(ValueError("database is locked"))
