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
        "from games.play import services; "
        "print(services.create_game('ropasci360', {'upper': 'bot:random', 'lower': 'bot:greedy'}).game.id)"))
    game_id = created.stdout.strip().splitlines()[-1]
    with LiveServer(database_url=database_url, migrate=False, env={"BOT_WORKERS": "1"}) as second:
        body = wait_for(second.url, game_id, 3)
        assert body["turn"] >= 3 or body["status"] == "finished", body
        assert body["turns"][0]["actions"]["upper"][0] == "THROW"


def test_a_surviving_server_picks_up_stalled_bot_moves_and_expired_clocks(tmp_path):
    """Work a dead process left behind (here: games changed by another process that runs no bots or clocks,
    as a SIGKILLed server would leave them) is picked up by the sweep of any server that lives."""
    database_url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env = {"BOT_WORKERS": "1", "SWEEP_SECONDS": "0.5", "BOT_STALL_SECONDS": "1"}
    with LiveServer(database_url=database_url, env=env) as server:
        status, _ = call(server.url, "/healthz")  # the first request starts the server loop and its sweep
        made = server.manage("shell", "-c", (
            "from datetime import timedelta; from django.utils import timezone; "
            "from games.play import services; from games.models import Game; "
            "bot = services.create_game('tic_tac_toe', {'x': 'bot:random', 'o': 'bot:random'}).game; "
            "timed = services.create_game('tic_tac_toe', {'x': 'human', 'o': 'human'}, turn_seconds=5).game; "
            "Game.objects.filter(pk=timed.pk).update(turn_started=timezone.now() - timedelta(seconds=60)); "
            "print(bot.id, timed.id)"))
        bot_id, timed_id = made.stdout.strip().splitlines()[-1].split()
        check = ("from games.models import Game; g = Game.objects.get(pk='{}'); print(g.status, g.turn, g.ending)")
        for _ in range(60):  # each look is a new process: polling the database, not the server
            bot = server.manage("shell", "-c", check.format(bot_id)).stdout.strip().splitlines()[-1].split()
            timed = server.manage("shell", "-c", check.format(timed_id)).stdout.strip().splitlines()[-1].split()
            if int(bot[1]) >= 2 and timed[0] == "finished":
                break
        assert int(bot[1]) >= 2, bot
        assert timed[0] == "finished" and timed[2] == "timeout", timed


@pytest.mark.django_db
def test_the_sweep_finds_the_bot_moves_due_in_games_left_alone(django_assert_num_queries):
    """``botmoves.stalled_games``, in one query: a bot seat still to choose in a game unchanged since the
    cut-off; not a bot that has chosen in a simultaneous turn, a bot not to act, or a game changed since."""
    from datetime import timedelta

    from django.utils import timezone

    from games.play import botmoves, services

    def soon():
        return timezone.now() + timedelta(seconds=1)

    bot = services.create_game("ropasci360", {"upper": "human", "lower": "bot:random"}).game
    services.create_game("tic_tac_toe", {"x": "human", "o": "bot:random"})  # x (a person) to move
    with django_assert_num_queries(1):
        assert botmoves.stalled_games(soon()) == {bot.id}
    assert botmoves.stalled_games(timezone.now() - timedelta(seconds=60)) == set()  # changed since
    services.submit_bot_action(bot.id, "lower", 1, ["THROW", "s", [-4, 0]])
    assert botmoves.stalled_games(soon()) == set()  # chosen: waiting for the person


@pytest.mark.django_db
def test_the_sweep_computes_again_a_bot_move_this_process_lost(monkeypatch, settings):
    """A move counted in flight here but never delivered (the browser suite's stalled bot seat) does not block
    the game: the sweep forgets it and computes the move again once it is due for ``BOT_STALL_SECONDS``."""
    from games.live import botrunner, serverloop
    from games.play import services

    settings.BOT_STALL_SECONDS = 0
    scheduled = []
    monkeypatch.setattr(botrunner, "schedule_bots", scheduled.append)
    game = services.create_game("ropasci360", {"upper": "human", "lower": "bot:random"}).game
    key = (game.id, "lower", 1)
    botrunner._inflight.add(key)
    try:
        serverloop.sweep()
        assert scheduled == [game.id] and key not in botrunner._inflight
    finally:
        botrunner._inflight.discard(key)
