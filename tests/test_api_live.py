"""Long-polling and WebSockets against the real ASGI stack (in-process channel layer, real database)."""
import asyncio
import json
from collections import Counter

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games.play import seatsession, services
from ropasci.asgi import application
from tests.asgi_http import asgi_get

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


async def new_game():
    return await sync_to_async(services.create_game)("ropasci360", {"upper": "human", "lower": "human"})


async def submit(created, side, turn, action):
    return await sync_to_async(services.submit_action)(created.game.id, created.tokens[side], turn, action)


async def get_json(path: str) -> tuple[int, dict]:
    status, _, body = await asgi_get(path)
    return status, json.loads(body)


async def test_wait_turn_wakes_up_when_the_turn_resolves():
    created = await new_game()
    waiter = asyncio.ensure_future(get_json(f"/api/games/{created.game.id}?wait_turn=1"))
    await submit(created, "upper", 1, ["THROW", "r", [4, 0]])
    await asyncio.sleep(0)  # let the waiter subscribe; correctness does not depend on it
    assert not waiter.done()
    await submit(created, "lower", 1, ["THROW", "s", [-4, 0]])
    status, body = await asyncio.wait_for(waiter, 10)
    assert status == 200 and body["turn"] == 1


async def connect(game_id, session_key=None, token=None):
    headers = list(HEADERS)
    if token:
        headers.append((b"authorization", f"Seat {token}".encode()))
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}", headers=headers)
    connected, code = await comm.connect()
    return comm, connected, code


async def test_spectator_gets_board_at_once_and_after_each_turn():
    created = await new_game()
    comm, connected, _ = await connect(created.game.id)
    assert connected
    first = await comm.receive_from(timeout=5)
    assert 'id="board"' in first and 'data-turn="0"' in first
    await submit(created, "upper", 1, ["THROW", "r", [4, 0]])
    await submit(created, "lower", 1, ["THROW", "s", [-4, 0]])
    frames = [await comm.receive_from(timeout=5)]
    while 'data-turn="1"' not in frames[-1]:
        frames.append(await comm.receive_from(timeout=5))
    assert 'data-player="upper"' in frames[-1] and 'data-symbol="s"' in frames[-1]
    await comm.disconnect()


async def test_unknown_game_closes_and_bad_messages_get_errors():
    comm, connected, _ = await connect("nosuchgame")
    assert connected and "no such game" in await comm.receive_from(timeout=5)  # said, then closed
    assert (await comm.receive_output(timeout=5))["code"] == 4404
    created = await new_game()
    comm, connected, _ = await connect(created.game.id)
    await comm.receive_from(timeout=5)
    await comm.send_to(text_data="{not json")
    assert "malformed JSON" in await comm.receive_from(timeout=5)
    await comm.send_json_to({"type": "dance"})
    assert "unknown message" in await comm.receive_from(timeout=5)
    await comm.send_json_to({"type": "submit", "turn": 1, "action": ["THROW", "r", [4, 0]]})
    assert "only a player can act" in await comm.receive_from(timeout=5)
    await comm.disconnect()


async def test_player_submits_over_the_socket_and_errors_change_nothing():
    created = await new_game()

    def session_for(side):
        s = SessionStore()
        seatsession.remember(s, created.game.id, side, created.tokens[side])
        s.save()
        return s.session_key

    key = await sync_to_async(session_for)("upper")
    comm, connected, _ = await connect(created.game.id, key)
    assert connected
    await comm.receive_from(timeout=5)
    await comm.send_json_to({"type": "submit", "turn": 1, "action": ["THROW", "r", [0, 0]]})
    assert "must land in its first 1 row" in await comm.receive_from(timeout=5)
    await comm.send_json_to({"type": "submit", "turn": 3, "action": ["THROW", "r", [4, 0]]})
    assert "stale turn" in await comm.receive_from(timeout=5)
    await comm.send_json_to({"type": "submit", "action": ["THROW", "r", [4, 0]]})
    assert "expected" in await comm.receive_from(timeout=5)
    game = await sync_to_async(services.get_game)(created.game.id)
    assert await sync_to_async(lambda: game.pending.count())() == 0
    await comm.send_json_to({"type": "submit", "turn": 1, "action": ["THROW", "r", [4, 0]]})
    await comm.receive_from(timeout=5)
    assert await sync_to_async(lambda: list(game.pending.values_list("side", flat=True)))() == ["upper"]
    await comm.send_json_to({"type": "resign"})
    for _ in range(10):  # frames of earlier broadcasts may come first
        await comm.receive_from(timeout=5)
        game = await sync_to_async(services.get_game)(created.game.id)
        if game.is_over:
            break
    assert game.result == "winner: lower" and game.ending == "resignation"
    await comm.disconnect()


async def test_spectators_share_one_render_and_a_client_has_a_socket_cap(monkeypatch, settings):
    from games.live import consumers
    from games.read import presenters
    created = await new_game()
    renders = []
    real = presenters.render_fragments
    monkeypatch.setattr(presenters, "render_fragments", lambda *a, **k: renders.append(1) or real(*a, **k))
    settings.SOCKETS_PER_CLIENT = 5
    monkeypatch.setattr(consumers, "_open", Counter())  # not the sockets earlier tests left open
    socks = []
    for _ in range(5):
        comm, connected, _ = await connect(created.game.id)
        assert connected
        socks.append(comm)
    htmls = {await comm.receive_from(timeout=5) for comm in socks}
    assert len(htmls) == 1 and len(renders) == 1  # five spectators, one render, the same bytes
    comm, connected, _ = await connect(created.game.id)  # a sixth from the same client is refused
    assert "too many open sockets" in await comm.receive_from(timeout=5)
    assert (await comm.receive_output(timeout=5))["code"] == 4429
    await socks[0].disconnect()
    comm, connected, _ = await connect(created.game.id)  # a place is free again
    assert connected
    await comm.disconnect()
    for comm in socks[1:]:
        await comm.disconnect()


async def test_a_change_is_rendered_here_for_each_kind_of_viewer_before_it_is_announced(monkeypatch):
    from games.live import consumers, fanout, watching
    from games.read import presenters
    created = await new_game()
    gid = created.game.id
    spectator, _, _ = await connect(gid)
    upper, _, _ = await connect(gid, token=created.tokens["upper"])
    for comm in (spectator, upper):
        await comm.receive_from(timeout=5)
    assert sorted(watching.kinds(gid), key=str) == [None, "upper"]
    hops = []
    real = consumers.database_sync_to_async
    for module in (consumers, fanout):  # the consumers' thread hops, and the one they share for a change
        monkeypatch.setattr(module, "database_sync_to_async", lambda func: hops.append(func) or real(func))
    await submit(created, "upper", 1, ["THROW", "r", [4, 0]])
    await submit(created, "lower", 1, ["THROW", "s", [-4, 0]])
    game = await sync_to_async(services.get_game)(gid)
    ready = {side: presenters.cached_fragments(gid, game.version, side) for side in (None, "upper")}
    assert all(ready.values()) and ready[None] != ready["upper"]
    for side, comm in ((None, spectator), ("upper", upper)):
        frames = [await comm.receive_from(timeout=5)]
        while 'data-turn="1"' not in frames[-1]:
            frames.append(await comm.receive_from(timeout=5))
        assert frames[-1] == ready[side]
    assert hops == []  # each update went out from the renders made before the announcement
    await spectator.disconnect()
    await upper.disconnect()
    assert watching.kinds(gid) == []


async def test_viewers_of_a_change_made_elsewhere_share_one_thread_hop(monkeypatch):
    from games.live import broadcast, consumers, fanout
    from games.read import presenters
    monkeypatch.setattr(broadcast, "_render_for_watchers", lambda *a: None)  # as if another process committed
    created = await new_game()
    gid = created.game.id
    comms = [(await connect(gid, token=token))[0] for token in (None, created.tokens["upper"], created.tokens["lower"])]
    for comm in comms:
        await comm.receive_from(timeout=5)
    hops = []
    real = consumers.database_sync_to_async
    for module in (consumers, fanout):  # the consumers' thread hops, and the one they share for a change
        monkeypatch.setattr(module, "database_sync_to_async", lambda func: hops.append(func) or real(func))
    for side, action in (("upper", ["THROW", "r", [4, 0]]), ("lower", ["THROW", "s", [-4, 0]])):
        await submit(created, side, 1, action)
        version = (await sync_to_async(services.get_game)(gid)).version
        frames = [await comm.receive_from(timeout=5) for comm in comms]
        assert frames == [presenters.cached_fragments(gid, version, s) for s in (None, "upper", "lower")]
    assert hops == [fanout.render_for_watchers] * 2  # one per change, for the three kinds of viewer
    for comm in comms:
        await comm.disconnect()


async def test_a_send_to_a_socket_its_client_has_closed_is_dropped_quietly():
    from autobahn.exception import Disconnected

    from games.live.consumers import GameConsumer
    consumer = GameConsumer()

    async def closed(message):
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed
    await consumer.send(text_data="<div></div>")  # no exception: nothing for Daphne to log

    async def broken(message):
        raise RuntimeError("not about a closed socket")

    consumer.base_send = broken
    with pytest.raises(RuntimeError):
        await consumer.send(text_data="<div></div>")
