"""Bot seats on a real server: moves computed in the worker pool, and live games resumed after a restart."""

import pytest

from tests.liveserver import LiveServer, api_call as call


def wait_for(base, game_id, turn, polls=4):
    """Long-poll until ``turn`` turns resolved (a loaded CI machine may need more than one 30 s poll
    while the worker pool starts)."""
    for _ in range(polls):
        status, body = call(base, f"/api/games/{game_id}?wait_turn={turn}")
        assert status == 200, body
        if body["turn"] >= turn or body["status"] != "active":
            break
    return body


def test_a_person_plays_a_bot_through_the_api(server):
    status, game = call(server.url, "/api/games", {"game": "ropasci360", "players": {"upper": "human", "lower": "bot:greedy"}})
    assert status == 201 and "token" not in game["seats"]["lower"]
    token = game["seats"]["upper"]["token"]
    for turn in (1, 2):
        action = ["THROW", "r", [4, turn - 3]]
        status, body = call(server.url, f"/api/games/{game['id']}/actions", {"turn": turn, "action": action}, token)
        assert status in (200, 202), body
        body = wait_for(server.url, game["id"], turn)
        assert body["turn"] == turn, body
        assert body["turns"][-1]["actions"]["upper"] == action and body["turns"][-1]["actions"]["lower"][0] in ("THROW", "SLIDE", "SWING")


def test_bot_against_bot_resumes_after_a_restart(tmp_path):
    database_url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with LiveServer(database_url=database_url) as first:
        pass  # migrated; now stopped: create a game while no server runs
    created = first.manage("shell", "-c", (
        "from games import services; "
        "print(services.create_game('ropasci360', {'upper': 'bot:random', 'lower': 'bot:greedy'}).game.id)"))
    game_id = created.stdout.strip().splitlines()[-1]
    with LiveServer(database_url=database_url, migrate=False, env={"BOT_WORKERS": "1"}) as second:
        body = wait_for(second.url, game_id, 3)
        assert body["turn"] >= 3 or body["status"] == "finished", body
        assert body["turns"][0]["actions"]["upper"][0] == "THROW"
