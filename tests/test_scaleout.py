"""Two Daphne processes on one PostgreSQL database and the Redis channel layer: the deployment shape."""
import threading

import pytest

from tests.conftest import fresh_postgres_database
from tests.liveserver import LiveServer, api_call as call

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def two_servers(postgres_database_url, redis_url):
    env = {"REDIS_URL": redis_url}
    with LiveServer(env=env, database_url=postgres_database_url) as a, \
            LiveServer(env=env, database_url=postgres_database_url, migrate=False) as b:
        yield a.url, b.url


@pytest.fixture(scope="module")
def postgres_database_url(postgres_url):
    """One database shared by both servers for the whole module."""
    with fresh_postgres_database(postgres_url) as url:
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
