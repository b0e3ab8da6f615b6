"""Rate limits (games.guard.ratelimit, games.runtime.middleware): per client address and per seat, 429 with Retry-After,
nothing changed by a refused request; WebSocket messages and open long-polls capped; the Seat header on the
WebSocket handshake. The rest of the tests run with the limits off (tests/conftest.py)."""
import asyncio
import http.cookiejar
import json
import queue
import secrets
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import caches
from django.test import Client, override_settings

from games.api import longpoll
from games.guard import ratelimit
from games.play import services
from games.engine import load_game
from games.models import Game, Turn
from ropasci.asgi import application
from tests.asgi_http import asgi_get
from tests.liveserver import LiveServer

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # straight to the server

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
TTT = {"game": "tic_tac_toe", "players": {"x": "human", "o": "human"}}


@pytest.fixture(autouse=True)
def limits_on():
    caches["ratelimit"].clear()
    with override_settings(RATE_LIMITS=1):
        yield
    caches["ratelimit"].clear()


def within_one_window(kind: str, attempt):
    """``attempt()``'s result, from fresh counts, once it ran within one of ``kind``'s windows (they are aligned to
    the clock: requests that straddle two are split between them, and the one over the limit gets through); a
    second try only if a window ended on the way."""
    window = ratelimit.LIMITS[kind][1]
    for _ in range(2):
        caches["ratelimit"].clear()
        started = time.time() // window
        result = attempt()
        if time.time() // window == started:
            break
    return result


def post_json(client, path, body, token=None, **extra):
    if token:
        extra["HTTP_AUTHORIZATION"] = f"Seat {token}"
    return client.post(path, json.dumps(body), content_type="application/json", **extra)


def test_game_creation_is_limited_per_address_and_the_refusal_creates_nothing():
    client = Client()
    allowed, _ = ratelimit.LIMITS["create"]

    def attempt():
        Game.objects.all().delete()
        for _ in range(allowed):
            assert post_json(client, "/api/games", TTT).status_code == 201
        return post_json(client, "/api/games", TTT)
    refused = within_one_window("create", attempt)
    assert refused.status_code == 429
    assert "too many requests" in refused.json()["error"]
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert Game.objects.count() == allowed
    # Another address is not held back by this one; the lobby's page answers 429 too.
    assert post_json(client, "/api/games", TTT, REMOTE_ADDR="10.0.0.2").status_code == 201
    page = client.post("/games/new", {"game": "tic_tac_toe", "seat_x": "me", "seat_o": "invite",
                                      "turn_seconds": "", "bot_seconds": "1"})
    assert page.status_code == 429 and "Too many requests" in page.content.decode()


def test_moves_are_limited_per_seat_and_per_address(monkeypatch):
    # An hour's window, and a fresh game for a second try: a 10 s window could end during the requests under load,
    # and the move over the limit then went through in the next window and stayed in the game.
    monkeypatch.setitem(ratelimit.LIMITS, "act", (ratelimit.LIMITS["act"][0], 3600))
    client = Client()
    allowed, _ = ratelimit.LIMITS["act"]
    game = {}

    def attempt():
        game.update(post_json(client, "/api/games", TTT).json())
        x = game["seats"]["x"]["token"]
        for _ in range(allowed):  # stale turns: refused by the service, but counted
            assert post_json(client, f"/api/games/{game['id']}/actions", {"turn": 9, "action": 0}, x).status_code == 409
        return post_json(client, f"/api/games/{game['id']}/actions", {"turn": 1, "action": 0}, x)
    refused = within_one_window("act", attempt)
    o = game["seats"]["o"]["token"]
    assert refused.status_code == 429 and refused["Retry-After"]
    assert Turn.objects.filter(game_id=game["id"]).count() == 0
    # The other seat, from the same address, still plays (the address allows more than one seat's share).
    assert post_json(client, f"/api/games/{game['id']}/actions", {"turn": 1, "action": 0}, o).status_code == 409
    # Behind a trusted proxy the client is the address the proxy saw.
    with override_settings(TRUSTED_PROXIES=1):
        meta = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 5.6.7.8"}
        assert ratelimit.client_address(meta) == "5.6.7.8"


def test_reads_beyond_what_play_needs_are_limited_per_address(monkeypatch):
    # A smaller limit over an hour's window: the reads up to a refusal and the checks after it fit in one window
    # however loaded the machine (300 reads a 10 s window could take most of the window under load, and the
    # checks then straddled into the next one, twice).
    monkeypatch.setitem(ratelimit.LIMITS, "read", (20, 3600))
    client = Client()
    game = post_json(client, "/api/games", TTT).json()
    x, o = game["seats"]["x"]["token"], game["seats"]["o"]["token"]
    url = f"/api/games/{game['id']}"
    allowed, window = ratelimit.LIMITS["read"]
    for _ in range(2):  # a second try only if the window ended on the way
        caches["ratelimit"].clear()
        answers = [client.get(url)]
        while answers[-1].status_code == 200:  # a program polling without waiting
            answers.append(client.get(url))
            assert len(answers) <= 2 * allowed + 1
        refused = answers[-1]
        ends = time.monotonic() + int(refused["Retry-After"]) - 1
        assert refused.status_code == 429 and len(answers) >= allowed + 1 and 1 <= int(refused["Retry-After"]) <= window
        # Still, each seat reads each new turn once: the one read a turn that play needs is never counted.
        turn = Game.objects.get(pk=game["id"]).turn + 1
        seat = [x, o][turn % 2 == 0]
        assert post_json(client, f"{url}/actions", {"turn": turn, "action": turn}, seat).status_code == 200
        first = client.get(f"{url}?wait_turn={turn}", HTTP_AUTHORIZATION=f"Seat {seat}")
        again = client.get(f"{url}?wait_turn={turn}", HTTP_AUTHORIZATION=f"Seat {seat}")
        # A program that sends no token: the address's first read of each new turn of this game is free too.
        assert post_json(client, f"{url}/actions", {"turn": turn + 1, "action": turn + 1},
                         [x, o][turn % 2 == 1]).status_code == 200
        anonymous = client.get(f"{url}?wait_turn={turn + 1}")
        anonymous_again = client.get(f"{url}?wait_turn={turn + 1}")
        if time.monotonic() < ends:
            break
    assert first.status_code == 200 and first.json()["turn"] == turn
    assert again.status_code == 429
    assert anonymous.status_code == 200 and anonymous.json()["turn"] == turn + 1
    assert anonymous_again.status_code == 429


def test_imports_are_limited_per_address():
    client = Client()
    allowed, _ = ratelimit.LIMITS["import"]

    def attempt():
        for _ in range(allowed):
            assert client.post("/import", {"log": "not a log"}).status_code == 400
        return client.post("/import", {"log": "not a log"})
    refused = within_one_window("import", attempt)
    assert refused.status_code == 429 and refused["Retry-After"]


def test_limits_off_when_scaled_to_zero():
    client = Client()
    with override_settings(RATE_LIMITS=0):
        for _ in range(ratelimit.LIMITS["import"][0] + 3):
            assert client.post("/import", {"log": "not a log"}).status_code == 400


async def test_websocket_messages_are_limited_and_a_seat_header_authenticates():
    created = await sync_to_async(services.create_game)("tic_tac_toe", {"x": "human", "o": "human"})
    # A program's socket: Authorization: Seat <token> makes it that seat (it may submit).
    comm = WebsocketCommunicator(application, f"/ws/games/{created.game.id}",
                                 headers=HEADERS + [(b"authorization", f"Seat {created.tokens['x']}".encode())])
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)
    await comm.send_json_to({"type": "submit", "turn": 1, "action": 4})
    frame = await comm.receive_from(timeout=5)
    while 'data-turn="1"' not in frame:
        frame = await comm.receive_from(timeout=5)
    allowed, _ = ratelimit.LIMITS["ws"]
    for _ in range(allowed + 1):
        await comm.send_json_to({"type": "sync"})
    frames = [await comm.receive_from(timeout=5)]
    while "too many" not in frames[-1]:  # the accepted move was not counted: the 41st sync is refused
        frames.append(await comm.receive_from(timeout=5))
    assert "too many messages" in frames[-1] and len(frames) >= allowed + 1
    await comm.disconnect()
    # A wrong token is refused: a line saying so, then close code 4403.
    bad = WebsocketCommunicator(application, f"/ws/games/{created.game.id}",
                                headers=HEADERS + [(b"authorization", b"Seat nope")])
    await bad.connect()
    assert "wrong seat token" in await bad.receive_from(timeout=5)
    assert (await bad.receive_output(timeout=5))["code"] == 4403


async def test_a_websocket_playing_legal_moves_is_never_refused():
    """More accepted moves than the socket's message limit: none is counted, none refused."""
    created = await sync_to_async(services.create_game)("2048", {"player": "human"})
    comm = WebsocketCommunicator(application, f"/ws/games/{created.game.id}",
                                 headers=HEADERS + [(b"authorization", f"Seat {created.tokens['player']}".encode())])
    connected, _ = await comm.connect()
    assert connected

    def position():
        game = services.get_game(created.game.id)
        return game.turn, services.current_state(game).legal_actions("player")

    allowed, _ = ratelimit.LIMITS["ws"]
    for _ in range(allowed + 10):
        turn, legal = await sync_to_async(position)()
        await comm.send_json_to({"type": "submit", "turn": turn + 1, "action": legal[0]})
        while True:  # the answer to this move: the view after it, or an error
            frame = await comm.receive_from(timeout=10)
            assert "too many" not in frame and "Not accepted" not in frame, frame
            if (await sync_to_async(position)())[0] > turn:
                break
    await comm.disconnect()


@override_settings(LONG_POLLS_PER_ADDRESS=2)
async def test_open_long_polls_are_capped_per_client():
    created = await sync_to_async(services.create_game)("tic_tac_toe", {"x": "human", "o": "human"})
    url = f"/api/games/{created.game.id}?wait_turn=1"

    waiting = [asyncio.ensure_future(asgi_get(url)) for _ in range(2)]
    deadline = asyncio.get_running_loop().time() + 20
    while sum(n for key, n in longpoll.polls.held.items() if key.startswith("address:")) < 2:  # both are held open
        assert asyncio.get_running_loop().time() < deadline, [w.result()[0] for w in waiting if w.done()]
        await asyncio.sleep(0.01)  # polling for the server's state (no timing assumed)
    status, headers, _ = await asgi_get(url)
    assert status == 429 and headers[b"Retry-After"] == b"1"
    await sync_to_async(services.submit_action)(created.game.id, created.tokens["x"], 1, 4)
    answers = await asyncio.wait_for(asyncio.gather(*waiting), 10)
    assert all(status == 200 and json.loads(body)["turn"] == 1 for status, _, body in answers)
    assert not longpoll.polls.held


# --- on a live Daphne, limits on at their defaults -----------------------------------------------------------

@pytest.fixture(scope="module")
def limited():
    """Behind one trusted proxy: each test names its own client address (X-Forwarded-For), so that the
    counts of one test do not hold back another."""
    with LiveServer(env={"RATE_LIMITS": "1", "TRUSTED_PROXIES": "1"}) as srv:
        yield srv


def call(srv, path: str, body=None, token=None, address="10.0.0.1", headers=None, form=None):
    """One request to the live server: (status, headers, decoded body); POST when ``body`` or ``form``."""
    data = json.dumps(body).encode() if body is not None else urllib.parse.urlencode(form).encode() if form else None
    request = urllib.request.Request(srv.url + path, data=data, method="POST" if data is not None else "GET",
                                     headers={"X-Forwarded-For": address, **(headers or {})})
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Seat {token}")
    try:
        with OPENER.open(request, timeout=40) as response:
            return response.status, response.headers, _decoded(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, _decoded(exc.read())


def _decoded(raw: bytes):
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")


def test_simultaneous_long_polls_of_one_seat_are_capped_exactly(limited):
    """The slot is taken at the check: of 20 simultaneous waits by one seat, exactly the cap are held."""
    status, _, game = call(limited, "/api/games", TTT, address="10.0.1.1")
    assert status == 201, game
    x, o = game["seats"]["x"]["token"], game["seats"]["o"]["token"]
    answers = queue.Queue()
    url = f"/api/games/{game['id']}?wait_turn=1"
    for _ in range(20):
        threading.Thread(target=lambda: answers.put(call(limited, url, token=o, address="10.0.1.1")),
                         daemon=True).start()
    cap = 4  # settings.LONG_POLLS_PER_SEAT's default
    refused = [answers.get(timeout=30) for _ in range(20 - cap)]  # the held ones answer only after the move
    assert all(status == 429 and "waiting requests" in body["error"] for status, _, body in refused), refused
    assert answers.empty()
    status, _, body = call(limited, f"/api/games/{game['id']}/actions", {"turn": 1, "action": 4}, x,
                           address="10.0.1.1")
    assert status == 200, body
    held = [answers.get(timeout=30) for _ in range(cap)]
    assert all(status == 200 and body["turn"] == 1 for status, _, body in held), held


def test_made_up_seat_tokens_cannot_push_a_creation_count_out(limited):
    """Hundreds of requests with random seat tokens make no entries in the counts: the creation limit holds."""
    address = "10.0.2.1"
    window = ratelimit.LIMITS["create"][1]
    game_id = None
    for _ in range(2):  # a second try only if the creation window ended during the first (the server's clock is ours)
        started = time.time() // window
        answers = []
        while not answers or answers[-1][0] != 429:  # a window the first try filled refuses at once
            answers.append(call(limited, "/api/games", TTT, address=address))
            assert len(answers) <= 2 * ratelimit.LIMITS["create"][0] + 1, [a[0] for a in answers]
        game_id = game_id or next(body["id"] for status, _, body in answers if status == 201)
        for n in range(300):
            bogus = secrets.token_urlsafe(16)
            assert call(limited, f"/api/games/{game_id}/actions", {"turn": 1, "action": 0}, bogus,
                        address=address)[0] in (403, 429)
            if n % 6 == 0:
                assert call(limited, f"/api/games/{game_id}", token=bogus, address=address)[0] in (403, 429)
        status, _, body = call(limited, "/api/games", TTT, address=address)
        if time.time() // window == started:
            break
    assert status == 429, body


def test_a_person_pressing_2048_arrows_as_fast_as_the_page_answers_is_never_refused(limited):
    """The web form's moves (htmx), each legal and one a turn, far faster than the 30 a seat may waste in 10 s."""
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(jar))

    def post(path, form):
        csrf = next(c.value for c in jar if c.name == "csrftoken")
        request = urllib.request.Request(limited.url + path, data=urllib.parse.urlencode(form).encode(),
                                         headers={"X-CSRFToken": csrf, "HX-Request": "true",
                                                  "X-Forwarded-For": "10.0.3.1", "Referer": limited.url + "/"})
        with browser.open(request, timeout=30) as response:
            return response.status, response.geturl(), response.read().decode()

    browser.open(limited.url + "/", timeout=30).read()
    status, url, _ = post("/games/new", {"game": "2048", "seat_player": "me", "turn_seconds": "", "bot_seconds": "1"})
    assert status == 200 and "/games/" in url, url
    game_id = url.rstrip("/").rsplit("/", 1)[-1]
    engine = load_game("2048")
    moves = 0
    while moves < 70:
        status, _, game = call(limited, f"/api/games/{game_id}", address="10.0.3.1")
        assert status == 200, game
        if game["status"] != "active":  # the board filled up (rarely this soon): enough moves were played
            assert moves > 2 * ratelimit.LIMITS["act"][0], game
            break
        legal = engine.state_from_json(game["state"]).legal_actions("player")
        status, _, page = post(f"/games/{game_id}/act", {"turn": game["turn"] + 1, "action": json.dumps(legal[0])})
        assert status == 200 and "Not accepted" not in page, page  # a 429 would raise HTTPError
        moves += 1


@pytest.mark.services
def test_the_counts_live_in_redis_in_the_scaled_out_mode(redis_url):
    """With REDIS_URL the counts are in Redis, shared by every process: another process's cache sees them."""
    redis = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url,
             "KEY_PREFIX": f"ropasci-rl-test-{secrets.token_hex(4)}"}
    with override_settings(CACHES={"default": redis, "ratelimit": redis}):
        from django.core.cache.backends.redis import RedisCache
        other = RedisCache(redis_url, {"KEY_PREFIX": redis["KEY_PREFIX"]})  # as another server process
        allowed, _ = ratelimit.LIMITS["import"]
        for attempt in range(3):  # again only if a window ended on the way: the counts start afresh in a new one
            address = f"10.9.0.{attempt}"  # (no clear(): on Redis it would empty the whole database)
            name = ratelimit._window("import", address)[0]
            waits = [ratelimit.hit("import", address) for _ in range(allowed + 1)]
            wait = ratelimit.over("import", address)
            shared = other.get(name)
            ratelimit.refund("import", address)
            refunded = other.get(name)
            if ratelimit._window("import", address)[0] == name:
                break
        assert waits[:-1] == [0.0] * allowed and waits[-1] >= 1 and wait >= 1
        assert shared == allowed + 1
        assert refunded == allowed
        assert ratelimit.first_read("g:seat", 3) and not ratelimit.first_read("g:seat", 3)
