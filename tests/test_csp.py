"""The Content-Security-Policy: every page gets it (scripts only from the site's files, no framing but the
embed), and the pages keep to it in a real browser: a live game, the replay, the embed in a foreign page, the
lobby's position editor, and the staff admin (its Abort button asks through a script file, not an inline
handler). Every other browser test also fails on a blocked resource (``tests.conftest.Browser``).
"""
from __future__ import annotations

import contextlib
import http.server
import json
import secrets
import threading

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.test_browser_play import Browser


@contextlib.contextmanager
def another_site(html: str):
    """A page of another origin (a server of its own on another port) that holds ``html``; yields its URL."""
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}/post"
    finally:
        site.shutdown()
        site.server_close()


def policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in (p.strip() for p in header.split(";")) if part}


def create(client):
    return client.post("/api/games", json.dumps({"game": "tic_tac_toe", "players": {"x": "human", "o": "human"}}),
                       content_type="application/json")


def new_game(client) -> str:
    return create(client).json()["id"]


@pytest.mark.django_db
def test_every_response_has_the_policy():
    client = Client()
    created = create(client)
    game_id = created.json()["id"]
    responses = [created] + [client.get(url) for url in ("/", f"/games/{game_id}", f"/games/{game_id}/replay",
                                                         "/admin/login/", "/no-such-page")]
    for response in responses:
        url = response.request["PATH_INFO"]
        directives = policy(response)
        assert directives["script-src"] == ["'self'"], url
        assert directives["object-src"] == ["'none'"], url
        assert directives["frame-ancestors"] == ["'none'"], url
        assert "'unsafe-eval'" not in sum(directives.values(), []), url


@pytest.mark.django_db
def test_only_the_embed_may_be_framed():
    client = Client()
    game_id = new_game(client)
    embed = client.get(f"/embed/games/{game_id}")
    assert embed.status_code == 200
    assert policy(embed)["frame-ancestors"] == ["*"]
    assert "X-Frame-Options" not in embed.headers
    replay = client.get(f"/games/{game_id}/replay")
    assert replay.headers["X-Frame-Options"] == "DENY"


@pytest.mark.browser
def test_pages_keep_to_the_policy_in_a_browser(browser, server):
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(server.url + "/api/games", method="POST", headers={
        "Content-Type": "application/json"}, data=json.dumps({"game": "tic_tac_toe", "players": {
            "x": "human", "o": "bot:random"}}).encode())
    with opener.open(request) as response:
        created = json.loads(response.read())
    game_id, token = created["id"], created["seats"]["x"]["token"]

    viewer = Browser(browser)
    page = viewer.page
    try:
        # A live game: the WebSocket connects (connect-src) and a move made through the API arrives.
        page.goto(f"{server.url}/games/{game_id}")
        expect(page.locator("#board")).to_have_attribute("data-turn", "0")
        move = urllib.request.Request(f"{server.url}/api/games/{game_id}/actions", method="POST", headers={
            "Content-Type": "application/json", "Authorization": f"Seat {token}"},
            data=json.dumps({"turn": 1, "action": 4}).encode())
        opener.open(move).read()
        expect(page.locator("#board")).not_to_have_attribute("data-turn", "0")

        # The replay viewer, its scripts and chart.
        page.goto(f"{server.url}/games/{game_id}/replay")
        expect(page.locator("#board")).to_be_visible()

        # The lobby and its position editor (a script-built board).
        page.goto(f"{server.url}/?game=ropasci_puzzle")
        expect(page.locator("#position-editor")).to_be_visible()

        # The embed framed by another site's page (another port: another origin) loads.
        with another_site(f'<!doctype html><title>A blog</title><iframe id="embed" '
                          f'src="{server.url}/embed/games/{game_id}"></iframe>') as blog:
            page.goto(blog)
            expect(page.frame_locator("#embed").locator("#board")).to_be_visible()
    finally:
        viewer.close()
    assert not viewer.errors, viewer.errors

    # The staff admin: its own pages and ours, and the Abort button's question.
    username, password = f"staff-{secrets.token_hex(3)}", secrets.token_urlsafe(12)
    server.manage("shell", "-c", "from django.contrib.auth import get_user_model; "
                  f"get_user_model().objects.create_superuser({username!r}, 's@example.com', {password!r})")
    staff = Browser(browser)
    page = staff.page
    try:
        page.goto(f"{server.url}/admin/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        page.goto(f"{server.url}/admin/games/game/")
        expect(page.get_by_role("link", name=game_id)).to_be_visible()
        page.goto(f"{server.url}/admin/games/game/dashboard/")
        page.goto(f"{server.url}/admin/games/game/{game_id}/change/")
        questions = []

        def answer(dialog):
            questions.append(dialog.message)
            dialog.dismiss() if len(questions) == 1 else dialog.accept()

        page.on("dialog", answer)
        page.get_by_role("button", name="Abort game").click()  # dismissed: nothing happens
        expect(page.get_by_role("button", name="Abort game")).to_be_visible()
        page.get_by_role("button", name="Abort game").click()  # accepted: the game is aborted
        expect(page.get_by_role("button", name="Abort game")).to_have_count(0)
        assert questions == [f"Abort game {game_id}? Its players are told at once."] * 2
    finally:
        staff.close()
    assert not staff.errors, staff.errors
