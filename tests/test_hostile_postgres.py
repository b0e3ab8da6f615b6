"""NUL (``%00``, ``"\\u0000"``) on PostgreSQL, through the real stack (Daphne, the middleware, the database).

PostgreSQL refuses NUL in any string, also in a comparison, so an id, a name or an admin filter holding one
made a 500 wherever it reached a query (SQLite answered 404). Every URL with a string id (found by walking the
URL resolver, so that a new endpoint is covered as soon as it exists), the API's names, the forms' names, the
admin's filters and search, and a cookie: a clear 4xx, never a 500, and the database unchanged.
"""
from __future__ import annotations

import http.client
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import psycopg
import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.conftest import fresh_postgres_database
from tests.liveserver import LiveServer

pytestmark = pytest.mark.services

NUL_ID = "a%00b"
PASSWORD = "not-a-secret-9431"
CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


class Browser:
    """Cookies and CSRF tokens, as a browser keeps them; every answer is (status, text), redirects followed."""

    def __init__(self, base: str):
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                                  urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        token = next((c.value for c in self.jar if c.name == "csrftoken"), None)
        if token is None:
            self.open("GET", "/accounts/login/")
            token = next(c.value for c in self.jar if c.name == "csrftoken")
        return token

    def open(self, method: str, path: str, body: bytes | None = None, content_type: str = "",
             headers: dict | None = None) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        if content_type:
            request.add_header("Content-Type", content_type)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")

    def post_form(self, path: str, fields: dict) -> tuple[int, str]:
        """A form POST with its CSRF token; ``fields`` values are sent as given (already %-encoded)."""
        body = "&".join(f"{key}={value}" for key, value in {"csrfmiddlewaretoken": self.csrf(), **fields}.items())
        return self.open("POST", path, body.encode(), "application/x-www-form-urlencoded",
                         {"X-CSRFToken": self.csrf()})

    def post_json(self, path: str, text: str) -> tuple[int, dict]:
        status, body = self.open("POST", path, text.encode(), "application/json")
        return status, json.loads(body)


@pytest.fixture(scope="module")
def pg(postgres_url):
    """A server on a fresh PostgreSQL database with a superuser (``root``) logged in, a bot account
    (``robot``) and an open game; the database's URL as ``pg.database_url``."""
    with (fresh_postgres_database(postgres_url, migrated=True) as url,
          LiveServer(database_url=url, env={"DJANGO_SUPERUSER_PASSWORD": PASSWORD}, migrate=False) as srv):
        srv.manage("createsuperuser", "--noinput", "--username", "root", "--email", "root@example.com")
        srv.manage("shell", "-c", "from django.contrib.auth import get_user_model; from players.models import "
                   "Profile; u = get_user_model().objects.create_user('robot', password='x'); "
                   "Profile.objects.update_or_create(user=u, defaults={'is_bot': True})")
        srv.root = Browser(srv.url)
        status, _ = srv.root.post_form("/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD})
        assert status == 200 and any(c.name == "sessionid" for c in srv.root.jar)
        status, game = srv.root.post_json("/api/games", json.dumps(
            {"game": "ropasci360", "players": {"upper": "human", "lower": "human"}}))
        assert status == 201, game
        srv.game = game
        yield srv


def snapshot(database_url: str) -> dict[str, str]:
    """Every table's contents (a digest each), but for the sessions a login or a visit writes and the servers'
    beat (``clocks.beat``, written every second)."""
    with psycopg.connect(database_url.replace("postgres://", "postgresql://", 1)) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('django_session', 'games_serverbeat')")]
        return {table: conn.execute(f'SELECT md5(coalesce(string_agg(t::text, \',\' ORDER BY t::text), \'\')) '
                                    f'FROM "{table}" t').fetchone()[0] for table in tables}


def string_id_urls() -> list[str]:
    """Every URL pattern with a string (or path) parameter, that parameter NUL-holding, any integer ``1``."""
    found = []

    def walk(patterns, prefix):
        for entry in patterns:
            route = getattr(entry.pattern, "_route", None)
            if route is None:  # a regular expression (the admin's app index): not an id
                continue
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + route)
            elif isinstance(entry, URLPattern):
                full = prefix + route
                kinds = [kind or "str" for kind, _ in CONVERTER.findall(full)]
                if any(kind in ("str", "path", "slug") for kind in kinds):
                    found.append("/" + CONVERTER.sub(lambda m: "1" if m.group(1) == "int" else NUL_ID, full))

    walk(get_resolver().url_patterns, "")
    return sorted(set(found))


def assert_refused(status: int, body: str, what) -> None:
    assert 400 <= status < 500, (what, status, body[:300])


def test_every_url_with_a_string_id_refuses_nul_and_changes_nothing(pg):
    urls = string_id_urls()
    assert len(urls) >= 40 and "/api/games/a%00b" in urls and "/admin/games/game/a%00b/change/" in urls, urls
    before = snapshot(pg.database_url)
    for url in urls:
        for method in ("GET", "POST"):
            if method == "GET":
                status, body = pg.root.open("GET", url)
            else:
                status, body = pg.root.post_form(url, {"name": "x", "side": "upper"})
            assert_refused(status, body, (method, url))
            if url.startswith("/api/"):
                assert "NUL" in json.loads(body)["error"]
    assert snapshot(pg.database_url) == before


def test_names_and_ids_in_api_bodies_refuse_nul(pg):
    game = pg.game
    anonymous = Browser(pg.url)
    token = game["seats"]["upper"]["token"]
    before = snapshot(pg.database_url)
    players = '{"upper": "human", "lower": "human"}'
    bodies = [
        ("/api/games", f'{{"game": "ropasci360", "players": {players}, "name": "a\\u0000b"}}'),
        ("/api/games", f'{{"game": "ropasci\\u0000360", "players": {players}}}'),
        ("/api/games", f'{{"game": "ropasci360", "players": {{"upper\\u0000": "human", "lower": "human"}}}}'),
        ("/api/challenges", '{"target": "robot\\u0000", "game": "tic_tac_toe"}'),
        ("/api/challenges", '{"target": "robot", "game": "tic_tac_toe", "name": "a\\u0000b"}'),
        ("/api/challenges", '{"target": "robot", "game": "tic_tac_toe", "side": "x\\u0000"}'),
    ]
    for path, text in bodies:
        status, body = anonymous.post_json(path, text)
        assert status == 400 and "NUL" in body["error"], (path, text, status, body)
    request = urllib.request.Request(f"{pg.url}/api/games/{game['id']}/actions", method="POST",
                                     data=b'{"turn": 1, "action": ["THROW", "r\\u0000", [4, 0]]}',
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Seat {token}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        anonymous.opener.open(request, timeout=30)
    assert refused.value.code == 400 and "NUL" in json.loads(refused.value.read())["error"]
    assert snapshot(pg.database_url) == before


def test_names_in_forms_refuse_nul(pg):
    game = pg.game
    visitor = Browser(pg.url)
    before = snapshot(pg.database_url)
    posts = [
        (visitor, f"/games/{game['id']}/join", {"side": "lower", "name": "a%00b"}),
        (visitor, "/games/new", {"game": "tic_tac_toe", "seat_x": "me", "seat_o": "invite", "name": "a%00b"}),
        (visitor, "/accounts/signup/", {"username": "a%00b", "password1": "Zq8-long-pass", "password2":
                                        "Zq8-long-pass"}),
        (visitor, "/accounts/login/", {"username": "root%00", "password": PASSWORD}),
        (pg.root, "/players/robot/challenge", {"game": "tic_tac_toe", "side": "random", "name": "a%00b"}),
        (pg.root, "/accounts/keys/new", {"name": "a%00b"}),
        (visitor, "/games/new", {"game%00": "tic_tac_toe"}),
    ]
    for browser, path, fields in posts:
        status, body = browser.post_form(path, fields)
        assert_refused(status, body, (path, fields))
    boundary = "hostile-boundary"
    multipart = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n"
                 f"{visitor.csrf()}\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"upper\"\r\n\r\n"
                 f"a\x00b\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n"
                 f"not a log\r\n--{boundary}--\r\n").encode()
    status, body = visitor.open("POST", "/import", multipart, f"multipart/form-data; boundary={boundary}",
                                {"X-CSRFToken": visitor.csrf()})
    assert status == 400 and "NUL" in body, (status, body[:300])
    assert snapshot(pg.database_url) == before


def test_admin_filters_and_search_refuse_nul(pg):
    changelists = sorted({url.rsplit("/a%00b/", 1)[0] + "/"
                          for url in string_id_urls() if url.startswith("/admin/") and url.endswith("/change/")})
    assert "/admin/games/game/" in changelists and len(changelists) >= 8, changelists
    before = snapshot(pg.database_url)
    tried = 0
    for changelist in changelists:
        status, page = pg.root.open("GET", changelist)
        assert status == 200, (changelist, status)
        params = {"q"}  # the search box, and every filter the page links to
        for href in re.findall(r'href="\?([^"#]*)"', page):
            params.update(urllib.parse.parse_qs(href.replace("&amp;", "&"), keep_blank_values=True))
        for param in sorted(params):
            status, body = pg.root.open("GET", f"{changelist}?{urllib.parse.quote(param)}=%00")
            assert status == 400, (changelist, param, status, body[:300])
            tried += 1
    assert tried >= 30, tried
    assert snapshot(pg.database_url) == before


def test_a_cookie_holding_nul_is_ignored(pg):
    """A session cookie with NUL (a quoted cookie may carry ``\\000``) is as if not sent: the page, anonymous."""
    host, port = pg.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("GET", "/", headers={"Cookie": 'sessionid="abcdefghijkl\\000mnop"'})
        response = conn.getresponse()
        assert response.status == 200 and "Log in" in response.read().decode()
    finally:
        conn.close()


def test_a_websocket_with_nul_in_its_id_or_cookie_is_answered_not_a_500(pg):
    """The socket's own stack (Channels, not Django's middleware): NUL in the game id is "no such game" (4404), a
    cookie holding NUL is as if not sent; before, both made the handshake a 500 on PostgreSQL."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    base = pg.url.replace("http://", "ws://")
    with connect(f"{base}/ws/games/a%00b", proxy=None, open_timeout=10, origin=pg.url) as ws:
        assert "no such game" in ws.recv(timeout=10)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd.code == 4404
    with connect(f"{base}/ws/games/{pg.game['id']}", proxy=None, open_timeout=10, origin=pg.url,
                 additional_headers={"Cookie": 'sessionid="abcdefghijkl\\000mnop"'}) as ws:
        assert 'id="board"' in ws.recv(timeout=10)
