"""Hostile input and a failing channel layer, through the real server (Daphne, the ASGI stack, the database).

Every odd body gets a 400 with a JSON message and changes nothing; no request ever answers 500. With Redis
unreachable, or accepting connections but never answering, a move is still stored and answered as such:
broadcasting happens after the commit and never fails the request.
"""
from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

from tests.liveserver import LiveServer, api_call


def raw(base: str, method: str, path: str, body: bytes = b"", headers: dict | None = None, timeout: float = 30):
    """(status, body text) of one request with exactly these bytes."""
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        conn.close()


DEEP = b"[" * 100_000 + b"]" * 100_000
HOSTILE_BODIES = {
    "deeply nested": DEEP,
    "nested objects": b'{"a":' * 5000 + b"1" + b"}" * 5000,
    "a number with thousands of digits": b'{"game": "ropasci360", "turn_seconds": ' + b"9" * 5000 + b"}",
    "a huge float": b'{"game": "ropasci360", "turn_seconds": 1e999999}',
    "NaN": b'{"game": "ropasci360", "turn_seconds": NaN}',
    "NUL in a name": b'{"game": "ropasci360", "players": {"upper": "human", "lower": "human"}, '
                     b'"name": "a\\u0000"}',
    "not UTF-8": b'{"game": "\xff\xfe"}',
    "not JSON": b"<xml/>",
    "empty": b"",
    "a list": b"[1, 2, 3]",
    "a string": b'"ropasci360"',
    "players as a list": b'{"game": "ropasci360", "players": ["human", "human"]}',
    "params as a string": b'{"game": "hex", "params": "size=7", "players": {}}',
    "game as an object": b'{"game": {"name": "ropasci360"}, "players": {}}',
    "over the size limit": b'{"pad": "' + b"x" * (200 * 1024) + b'"}',
}


@pytest.mark.parametrize("label", list(HOSTILE_BODIES))
def test_hostile_bodies_to_create_get_a_400_and_create_nothing(server, label):
    status, body = raw(server.url, "POST", "/api/games", HOSTILE_BODIES[label])
    assert status in (400, 413), (label, status, body[:300])
    assert json.loads(body)["error"]
    status, listing = raw(server.url, "GET", "/api/games/does-not-exist")
    assert status == 404 and json.loads(listing)["error"]


HOSTILE_ACTIONS = [
    ["THROW", ["r"], [4, 0]],  # a list where the engine expects a symbol
    ["THROW", "r", [[4], 0]],
    ["THROW", "r", [10 ** 20, 0]],
    ["SLIDE", {"r": 4}, [4, 0]],
    [[[[]]]],
    {"THROW": "r"},
    None,
    True,
    "THROW r (4, 0)",
    1e300,
]


def test_hostile_actions_get_a_400_and_change_nothing(server):
    status, game = api_call(server.url, "/api/games",
                            {"game": "ropasci360", "players": {"upper": "human", "lower": "human"}})
    assert status == 201
    token = game["seats"]["upper"]["token"]
    path = f"/api/games/{game['id']}/actions"
    for action in HOSTILE_ACTIONS:
        status, body = api_call(server.url, path, {"turn": 1, "action": action}, token)
        assert status == 400 and "illegal action" in body["error"], (action, status, body)
    for text in (b'{"turn": 1, "action": ["THROW", "r", [' + b"4" * 5000 + b', 0]]}', DEEP,
                 b'{"turn": ' + b"1" * 5000 + b', "action": null}'):
        status, body = raw(server.url, "POST", path, text, {"Authorization": f"Seat {token}"})
        assert status == 400 and json.loads(body)["error"], (status, body[:200])
    status, detail = api_call(server.url, f"/api/games/{game['id']}")
    assert status == 200 and detail["turn"] == 0 and detail["to_act"] == ["upper", "lower"]
    status, body = api_call(server.url, path, {"turn": 1, "action": ["THROW", "r", [4, 0]]}, token)
    assert status == 202, body


def test_hostile_form_posts_and_websocket_frames_never_500(server):
    status, game = api_call(server.url, "/api/games",
                            {"game": "ropasci360", "players": {"upper": "human", "lower": "human"}})
    # No seat in this browser: a clear refusal, not a crash (CSRF is checked first, so no token: 403).
    status, body = raw(server.url, "POST", f"/games/{game['id']}/act", b"turn=1&action=" + b"[" * 50_000,
                       {"Content-Type": "application/x-www-form-urlencoded"})
    assert status in (400, 403), (status, body[:200])
    status, body = raw(server.url, "GET", f"/games/{game['id']}/replay?turn=" + "9" * 5000)
    assert status in (200, 400), status
    status, body = raw(server.url, "GET", f"/api/games/{game['id']}?wait_turn=" + "9" * 5000)
    assert status == 400 and json.loads(body)["error"]


class BlackHole:
    """A TCP server that accepts connections and never answers: a Redis that hangs."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.held = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self):
        self.sock.close()
        for conn in self.held:
            conn.close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("failure", ["unreachable", "hanging"])
def test_a_move_is_stored_and_answered_when_the_channel_layer_fails(failure):
    hole = BlackHole() if failure == "hanging" else None
    port = hole.port if hole else closed_port()
    try:
        with LiveServer(env={"REDIS_URL": f"redis://127.0.0.1:{port}/0"}) as srv:
            status, game = api_call(srv.url, "/api/games",
                                    {"game": "ropasci360", "players": {"upper": "human", "lower": "human"}})
            assert status == 201, game
            seats = game["seats"]
            path = f"/api/games/{game['id']}/actions"
            status, body = api_call(srv.url, path, {"turn": 1, "action": ["THROW", "r", [4, 0]]},
                                    seats["upper"]["token"])
            assert status == 202, body
            status, body = api_call(srv.url, path, {"turn": 1, "action": ["THROW", "s", [-4, 0]]},
                                    seats["lower"]["token"])
            assert status == 200 and body["status"] == "resolved", body
            status, detail = api_call(srv.url, f"/api/games/{game['id']}?wait_turn=1")
            assert status == 200 and detail["turn"] == 1
            status, page = srv.get(f"/games/{game['id']}")
            assert status == 200
            deadline = time.monotonic() + 30  # a hanging layer is given up after broadcast.SEND_TIMEOUT
            while "broadcast" not in srv.read_log().lower() and time.monotonic() < deadline:
                time.sleep(0.1)  # polling the log for the outcome, with a deadline
            assert "broadcast" in srv.read_log().lower()  # the failure is logged, not hidden
    finally:
        if hole:
            hole.close()


def test_the_hosted_defaults_are_safe(tmp_path):
    """``make run`` serves with DEBUG off: short error pages without code or settings, the admin and its static
    files through WhiteNoise, and only the allowed host names."""
    key_file = tmp_path / "secret"
    with LiveServer(env={"DEBUG": "", "SECRET_KEY_FILE": str(key_file)}) as server:
        _check_safe_defaults(server)
    assert key_file.stat().st_mode & 0o777 == 0o600 and len(key_file.read_text().strip()) >= 50


def _check_safe_defaults(server):
    status, body = raw(server.url, "GET", "/games/no-such-game/replay?turn=1")
    assert status == 404 and len(body) < 20_000 and "Traceback" not in body and "SECRET_KEY" not in body
    status, body = raw(server.url, "GET", "/admin/login/")
    assert status == 200
    css = re.findall(r'href="([^"]+\.css)"', body)
    assert css and all(raw(server.url, "GET", href)[0] == 200 for href in css), css
    status, body = raw(server.url, "GET", "/", headers={"Host": "evil.example"})
    assert status == 400 and "Traceback" not in body


@pytest.mark.parametrize("method,path", [
    ("POST", "/api/games/{id}"), ("PUT", "/api/games/{id}"), ("DELETE", "/api/games/{id}"),
    ("GET", "/api/games/{id}/actions"), ("PATCH", "/api/games/{id}/actions"), ("DELETE", "/api/games"),
    ("POST", "/api/games/{id}/log.txt"), ("GET", "/api/games/{id}/resign"),
])
def test_wrong_methods_on_the_api_get_a_405_in_json(server, method, path):
    status, game = api_call(server.url, "/api/games",
                            {"game": "tic_tac_toe", "players": {"x": "human", "o": "human"}})
    status, body = raw(server.url, method, path.format(id=game["id"]), b"{}")
    assert status == 405 and "is not allowed here" in json.loads(body)["error"], (status, body[:200])


def test_check_deploy_passes_but_for_what_an_https_proxy_provides(tmp_path):
    """``manage.py check --deploy`` with DEBUG off: only HSTS, the HTTPS redirect and Secure cookies remain,
    which the TLS-terminating proxy (and SECURE_COOKIES=1) provide."""
    import os
    import subprocess
    import sys

    from tests.liveserver import BASE_DIR
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "SECURE_COOKIES")}
    env.update(DEBUG="0", SECRET_KEY_FILE=str(tmp_path / "key"), DJANGO_SETTINGS_MODULE="ropasci.settings")
    out = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=BASE_DIR, env=env,
                         capture_output=True, text=True)
    found = set(re.findall(r"\((security\.\w+)\)", out.stdout + out.stderr))
    assert found <= {"security.W004", "security.W008", "security.W012", "security.W016"}, out.stdout + out.stderr
    env["SECURE_COOKIES"] = "1"
    out = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=BASE_DIR, env=env,
                         capture_output=True, text=True)
    assert set(re.findall(r"\((security\.\w+)\)", out.stdout + out.stderr)) <= {"security.W004", "security.W008"}
