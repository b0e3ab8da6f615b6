"""Two Daphne processes on one PostgreSQL database and the Redis channel layer: the deployment shape."""
import re
import subprocess
import sys
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.conftest import fresh_postgres_database
from tests.liveserver import BASE_DIR, LiveServer, api_call as call

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def two_servers(postgres_database_url, redis_url):
    env = {"REDIS_URL": redis_url}
    with LiveServer(env=env, database_url=postgres_database_url, migrate=False) as a, \
            LiveServer(env=env, database_url=postgres_database_url, migrate=False) as b:
        yield a.url, b.url


@pytest.fixture(scope="module")
def postgres_database_url(postgres_url):
    """One migrated database shared by both servers for the whole module."""
    with fresh_postgres_database(postgres_url, migrated=True) as url:
        yield url


def new_game(base):
    status, game = call(base, "/api/games", {"game": "ropasci360", "players": {"upper": "human", "lower": "human"}})
    assert status == 201
    return game


def test_a_long_poll_on_one_server_wakes_for_a_turn_played_on_the_other(two_servers):
    a, b = two_servers
    game = new_game(a)
    got = {}
    waiter = threading.Thread(target=lambda: got.update(r=call(b, f"/api/games/{game['id']}?wait_turn=1")))
    waiter.start()
    assert call(a, f"/api/games/{game['id']}/actions", {"turn": 1, "action": ["THROW", "r", [4, 0]]},
                game["seats"]["upper"]["token"])[0] == 202
    assert call(b, f"/api/games/{game['id']}/actions", {"turn": 1, "action": ["THROW", "p", [-4, 0]]},
                game["seats"]["lower"]["token"])[0] == 200
    waiter.join(35)
    status, body = got["r"]
    assert status == 200 and body["turn"] == 1


def test_simultaneous_submissions_on_two_servers_resolve_each_turn_once(two_servers):
    a, b = two_servers
    games = [new_game(a) for _ in range(6)]
    results = {}

    def submit(base, game, side, action):
        results[(game["id"], side)] = call(base, f"/api/games/{game['id']}/actions", {"turn": 1, "action": action},
                                           game["seats"][side]["token"])[0]

    threads = []
    for g in games:
        threads.append(threading.Thread(target=submit, args=(a, g, "upper", ["THROW", "r", [4, 0]])))
        threads.append(threading.Thread(target=submit, args=(b, g, "lower", ["THROW", "s", [-4, 0]])))
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for g in games:
        assert sorted([results[(g["id"], "upper")], results[(g["id"], "lower")]]) == [200, 202]
        status, body = call(b, f"/api/games/{g['id']}")
        assert body["turn"] == 1 and len(body["turns"]) == 1 and body["to_act"] == ["upper", "lower"]


IDLE_SECONDS = 15  # three times channels-redis's 5 s blocking read: a client timeout at or under it closes sockets


def turns_shown(ws, until: int, deadline: float) -> int:
    """Read the socket's frames until its board shows ``until`` resolved turns (or the deadline passes)."""
    shown = -1
    while shown < until and time.monotonic() < deadline:
        try:
            frame = ws.recv(timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            break
        match = re.search(r'data-turn="(\d+)"', frame)
        shown = int(match.group(1)) if match else shown
    return shown


def test_an_idle_spectator_and_an_idle_bot_worker_both_get_the_next_move(postgres_url, redis_url, tmp_path):
    """With Redis's client timing out at channels-redis's blocking read, every idle socket was closed with 1011
    and the bot worker died with a TimeoutError: after 15 s of quiet, a move reached neither."""
    env = {"REDIS_URL": redis_url, "BOT_QUEUE": "channels"}
    with fresh_postgres_database(postgres_url, migrated=True) as database_url, \
            LiveServer(env=env, database_url=database_url, migrate=False) as server:
        log = open(tmp_path / "worker.log", "wb")
        worker = subprocess.Popen([sys.executable, "manage.py", "runworker", "bot-moves"], cwd=BASE_DIR,
                                  env=server.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        try:
            status, game = call(server.url, "/api/games",
                                {"game": "tic_tac_toe", "players": {"x": "human", "o": "bot:random"}})
            assert status == 201, game
            ws_url = server.url.replace("http://", "ws://") + f"/ws/games/{game['id']}"
            with connect(ws_url, origin=server.url, ping_interval=None, proxy=None) as spectator:
                assert turns_shown(spectator, 0, time.monotonic() + 10) == 0
                idle_until, closed = time.monotonic() + IDLE_SECONDS, None
                try:
                    frame = spectator.recv(timeout=IDLE_SECONDS)
                    pytest.fail(f"a frame came while nothing happened: {frame[:200]}")
                except TimeoutError:
                    pass  # quiet, and still open
                except ConnectionClosed as exc:
                    closed = exc
                try:  # the rest of the idle time, unless the worker dies first
                    worker.wait(max(0.0, idle_until - time.monotonic()))
                except subprocess.TimeoutExpired:
                    pass
                worker_log = (tmp_path / "worker.log").read_text()
                assert closed is None and worker.poll() is None, \
                    f"spectator socket closed: {closed}; worker exit code: {worker.poll()}\n{worker_log[-2000:]}"

                status, body = call(server.url, f"/api/games/{game['id']}/actions", {"turn": 1, "action": 4},
                                    game["seats"]["x"]["token"])
                assert status == 200, body
                assert turns_shown(spectator, 2, time.monotonic() + 30) == 2, (tmp_path / "worker.log").read_text()
            status, body = call(server.url, f"/api/games/{game['id']}?wait_turn=2")
            assert status == 200 and body["turn"] == 2 and body["turns"][1]["actions"].get("o") is not None, body
        finally:
            worker.terminate()
            worker.wait(10)
            log.close()
