"""Turn clocks stop while no server runs: a server killed mid-turn and down for longer than the turn clock
comes back with the seat to move still holding at least the time it had left (games.live.clocks.beat/resume)."""
from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.live import clocks
from games.play import services
from games.models import Game, ServerBeat
from tests.liveserver import LiveServer, api_call as call

FAST_SWEEP = {"SWEEP_SECONDS": "0.5"}


def seconds_left(game: dict) -> float:
    return (datetime.fromisoformat(game["deadline"]) - timezone.now()).total_seconds()


def play_through_an_outage(database_url: str | None, processes: int = 1) -> None:
    """A game with a 5 s clock, O to move; every server process SIGKILLed, down for longer than O's clock, then
    all started again at once: O still has at least the time it had left (and not twice the outage more)."""
    servers = [LiveServer(env=FAST_SWEEP, database_url=database_url, migrate=not n) for n in range(processes)]
    try:
        for server in servers:
            server.start()
        base = servers[0].url
        status, game = call(base, "/api/games", {"game": "tic_tac_toe", "turn_seconds": 5,
                                                 "players": {"x": "human", "o": "human"}})
        assert status == 201, game
        tokens = {side: game["seats"][side]["token"] for side in ("x", "o")}
        path = f"/api/games/{game['id']}"
        assert call(base, path + "/actions", {"turn": 1, "action": 4}, tokens["x"])[0] == 200
        status, game = call(base, path)
        left = seconds_left(game)  # O's clock runs
        assert game["to_act"] == ["o"] and 3 < left <= 5
        for server in servers:
            server.kill()
        deadline = datetime.fromisoformat(game["deadline"])
        while timezone.now() < deadline + timedelta(seconds=1):  # down for longer than O's clock
            time.sleep(0.1)
        restarts = [threading.Thread(target=server.restart) for server in servers]
        restarting = time.monotonic()
        for thread in restarts:
            thread.start()
        for thread in restarts:
            thread.join()
        base = servers[-1].url
        status, game = call(base, path)
        since = time.monotonic() - restarting  # the clock may run again from the first server's start on
        assert status == 200 and game["status"] == "active", game
        # The gap made up once: O keeps what it had, less at most the time the restarts took, not twice the outage.
        assert left - since - 0.5 <= seconds_left(game) <= left + 3, (seconds_left(game), left, since)
        status, moved = call(base, path + "/actions", {"turn": 2, "action": 0}, tokens["o"])
        assert status == 200, moved
        status, game = call(base, path)
        assert game["turn"] == 2 and game["status"] == "active" and game["to_act"] == ["x"]
    finally:
        for server in servers:
            server.stop()


def test_a_turn_clock_does_not_run_while_no_server_runs():
    play_through_an_outage(None)


@pytest.mark.services
def test_a_turn_clock_does_not_run_while_no_server_runs_two_processes_on_postgresql(postgres_database_url):
    play_through_an_outage(postgres_database_url, processes=2)


@pytest.mark.django_db(transaction=True)
def test_an_outage_is_applied_once_and_not_while_a_server_beats():
    created = services.create_game("tic_tac_toe", {"x": "human", "o": "human"}, 30)
    started = Game.objects.get(pk=created.game.pk).turn_started
    clocks.beat()
    assert clocks.resume() == timedelta(0)  # a server beat just now: it runs
    ServerBeat.objects.filter(pk=1).update(beat=timezone.now() - timedelta(seconds=60))
    gap = clocks.resume()
    assert timedelta(seconds=60) <= gap < timedelta(seconds=61)
    assert clocks.resume() == timedelta(0)  # a second process starting: already applied
    assert Game.objects.get(pk=created.game.pk).turn_started == started + gap
