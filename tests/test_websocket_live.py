"""The game WebSocket over a real socket to Daphne, as a program uses it: odd frames get an error and the socket
stays open; every refusal (a wrong token, no such game, a foreign Origin) is an accepted handshake, an error line
saying why, then a close code the program can read (never a bare HTTP 403)."""
from __future__ import annotations

import re

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.liveserver import api_call


def ws_url(server, game_id: str) -> str:
    return server.url.replace("http://", "ws://") + f"/ws/games/{game_id}"


def open_socket(server, game_id: str, **options):
    options.setdefault("origin", server.url)
    return connect(ws_url(server, game_id), proxy=None, open_timeout=10, **options)


def new_game(server):
    status, game = api_call(server.url, "/api/games",
                            {"game": "tic_tac_toe", "players": {"x": "human", "o": "human"}})
    assert status == 201, game
    return game


def board_turn(frame: str) -> int:
    return int(re.search(r'id="board"[^>]*data-turn="(\d+)"', frame).group(1))


def refusal(server, game_id: str, **options) -> tuple[str, int]:
    """(the error line sent, the close code) of a socket the server refuses."""
    with open_socket(server, game_id, **options) as ws:
        message = ws.recv(timeout=10)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    return message, closed.value.rcvd.code


@pytest.mark.parametrize("frame", ["", b"", b"\x00\xff binary", b'{"type": "sync"}'], ids=repr)
def test_an_empty_or_binary_frame_gets_an_error_and_the_socket_stays_open(server, frame):
    game = new_game(server)
    with open_socket(server, game["id"]) as ws:
        assert board_turn(ws.recv(timeout=10)) == 0
        ws.send(frame)
        error = ws.recv(timeout=10)
        assert 'id="game-error"' in error and "JSON text" in error, error
        ws.send('{"type": "sync"}')  # still open, still answering
        assert board_turn(ws.recv(timeout=10)) == 0


def test_a_wrong_seat_token_is_accepted_then_closed_with_4403_and_a_reason(server):
    game = new_game(server)
    message, code = refusal(server, game["id"], additional_headers={"Authorization": "Seat not-a-token"})
    assert code == 4403 and "token" in message, (code, message)
    message, code = refusal(server, "no-such-game")
    assert code == 4404 and "no such game" in message, (code, message)


def test_origin_may_be_absent_or_name_an_allowed_host_but_not_another_site(server):
    game = new_game(server)
    seat = {"Authorization": f"Seat {game['seats']['x']['token']}"}
    with open_socket(server, game["id"], origin=None, additional_headers=seat) as ws:  # a program, no Origin
        assert board_turn(ws.recv(timeout=10)) == 0
        ws.send('{"type": "submit", "turn": 1, "action": 4}')
        assert board_turn(ws.recv(timeout=10)) == 1
    # The site's own origin, its hosts on another scheme or port (ALLOWED_HOSTS names hosts only).
    for origin in (server.url, "https://127.0.0.1:8443", "http://localhost"):
        with open_socket(server, game["id"], origin=origin) as ws:
            assert board_turn(ws.recv(timeout=10)) == 1, origin
    for origin in ("http://evil.example", "null", "http://127.0.0.1.evil.example"):
        message, code = refusal(server, game["id"], origin=origin)
        assert code == 4403 and "Origin" in message, (origin, code, message)
