"""games.runtime.asgihandler: a request for a sync view crosses from the event loop to a thread once for the whole
middleware chain and view, where Django's own ASGI handler hops for every middleware hook; an async view
keeps the async chain. Real requests through the handlers, counted at asgiref's ``SyncToAsync``."""
from __future__ import annotations

import json

import pytest
from asgiref.sync import SyncToAsync
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler

from games.runtime.asgihandler import OneHopASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hops(monkeypatch):
    """Counts ``sync_to_async`` calls (thread hops) made while a test runs."""
    count = [0]
    real = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        count[0] += 1
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    return count


async def request(app, path: str, method: str = "GET", body: bytes = b"", query: bytes = b"") -> tuple[int, bytes]:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query, "root_path": "",
             "headers": [(b"host", b"localhost"), (b"content-type", b"application/json")],
             "client": ("127.0.0.1", 50000), "server": ("localhost", 80)}
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": body, "more_body": False})
    start = await communicator.receive_output(10)
    content = b""
    while True:
        message = await communicator.receive_output(10)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(10)
    return start["status"], content


async def test_a_sync_view_runs_its_middleware_and_view_in_one_hop(hops):
    status, _ = await request(OneHopASGIHandler(), "/healthz")
    assert status == 200
    one_hop = hops[0]
    hops[0] = 0
    status, _ = await request(ASGIHandler(), "/healthz")
    assert status == 200
    # The chain and the view in one hop, plus one each for the request_started/finished signals' receivers.
    assert one_hop <= 3 < hops[0]


async def test_a_page_that_is_not_found_and_a_refused_request_answer_as_before():
    app = OneHopASGIHandler()
    status, _ = await request(app, "/no/such/page")
    assert status == 404
    status, content = await request(app, "/api/games", "POST", b"{not json")
    assert status == 400 and json.loads(content)["error"]


async def test_an_async_view_keeps_the_async_chain():
    app = OneHopASGIHandler()
    app.sync_handler = None  # not used: the request would fail if it went that way
    status, content = await request(app, "/api/challenges/nosuchchallenge")
    assert status == 404 and json.loads(content)["error"]


async def test_a_sync_views_url_is_resolved_once(monkeypatch):
    from django.urls.resolvers import URLResolver
    paths = []
    real = URLResolver.resolve
    monkeypatch.setattr(URLResolver, "resolve", lambda self, path: paths.append(path) or real(self, path))
    status, _ = await request(OneHopASGIHandler(), "/healthz")
    assert status == 200 and paths.count("/healthz") == 1


async def test_the_games_api_reads_in_one_hop_and_waits_on_the_loop(hops):
    """``GET /api/games/{id}`` is a sync view (one hop); a long-poll's wait is its streamed body, awaited on
    the loop, and answers when the turn resolves."""
    import asyncio

    from asgiref.sync import sync_to_async

    from games.play import services
    created = await sync_to_async(services.create_game)("tic_tac_toe", {"x": "human", "o": "human"})
    game_id = created.game.id
    hops[0] = 0
    status, content = await request(OneHopASGIHandler(), f"/api/games/{game_id}")
    assert status == 200 and json.loads(content)["turn"] == 0 and hops[0] <= 3
    waiter = asyncio.ensure_future(request(OneHopASGIHandler(), f"/api/games/{game_id}", query=b"wait_turn=1"))
    await sync_to_async(services.submit_action)(game_id, created.tokens["x"], 1, 4)
    status, content = await asyncio.wait_for(waiter, 20)
    assert status == 200 and json.loads(content)["turn"] == 1
