"""Resigning in a game of three or more seats takes that seat out and the others play on (``State.resign``,
``services.resign``); the turn log records it, so the replay and the log show it. Two seats: the game ends."""
from __future__ import annotations

import time

import pytest

from games.read import gamelog
from games.play import services
from games.engine import RESIGN
from games.models import Game
from tests.liveserver import api_call as call

POKER3 = {"game": "poker", "params": {"players": 3, "chips": 60, "big_blind": 20},
          "players": {"p0": "human", "p1": "bot:random", "p2": "bot:random"}}


def wait_over(base: str, game_id: str, limit: float = 120.0) -> dict:
    deadline = time.monotonic() + limit
    game = call(base, f"/api/games/{game_id}")[1]
    while game["status"] == "active" and time.monotonic() < deadline:
        game = call(base, f"/api/games/{game_id}?wait_turn={game['turn'] + 1}")[1]
    return game


def test_a_person_resigns_a_three_seat_poker_game_and_the_two_bots_play_it_out(server):
    status, game = call(server.url, "/api/games", POKER3)
    assert status == 201, game
    token, path = game["seats"]["p0"]["token"], f"/api/games/{game['id']}"
    status, after = call(server.url, path + "/resign", {}, token)
    assert status == 200 and after["status"] == "active", after  # not over: the bots play on
    assert "p0" not in after["to_act"]
    assert call(server.url, path + "/resign", {}, token)[0] == 409  # once
    done = wait_over(server.url, game["id"])
    assert done["status"] == "finished" and done["ending"] == "rules", done
    records = [t["actions"] for t in done["turns"]]
    after_resigning = records[records.index({"resign": "p0"}) + 1:]
    assert any("p1" in r or "p2" in r for r in after_resigning)  # the bots played on ...
    assert not any("p0" in r for r in after_resigning)  # ... without p0
    assert done["outcome"]["returns"]["p0"] == 0.0 and len(done["outcome"]["winners"]) == 1
    status, html = server.get(f"/games/{game['id']}")
    assert status == 200 and "resigned" in html  # p0's status
    resigned_at = records.index({"resign": "p0"}) + 1  # its page of the move list (a long game has several)
    status, html = server.get(f"/games/{game['id']}/replay/panel?turn={resigned_at}")
    assert status == 200 and "Player 0 resigns and sits out the rest of the game" in html
    assert server.get(f"/games/{game['id']}/export.json")[0] == 200
    status, log = server.get(path + "/log.txt")
    assert status == 200 and "p0: resigns" in log


@pytest.mark.django_db(transaction=True)
def test_nim3p_resignations_are_turns_of_the_log_and_the_last_resignation_ends_the_game():
    made = services.create_game("nim3p", {"p0": "human", "p1": "human", "p2": "human"}, 30)
    tokens, game_id = made.tokens, made.game.id
    services.submit_action(game_id, tokens["p0"], 1, [0, 1])
    started = Game.objects.get(pk=game_id).turn_started
    game = services.resign(game_id, tokens["p2"])  # not to move: p1 keeps its clock
    assert game.status == Game.Status.ACTIVE and game.to_act == ["p1"] and game.turn == 2
    assert Game.objects.get(pk=game_id).turn_started == started
    with pytest.raises(services.Conflict):
        services.resign(game_id, tokens["p2"])
    with pytest.raises(services.Conflict):  # out: never to act again
        services.submit_action(game_id, tokens["p2"], 3, [0, 1])
    services.submit_action(game_id, tokens["p1"], 3, [1, 1])
    assert Game.objects.get(pk=game_id).to_act == ["p0"]  # p2 is skipped
    game = services.resign(game_id, tokens["p0"])
    assert game.status == Game.Status.FINISHED and game.ending == Game.Ending.RESIGNATION
    assert game.outcome["winners"] == ["p1"] and {s.side: s.score for s in game.seats.all()} == \
        {"p0": 0.0, "p1": 1.0, "p2": 0.0}
    records = [t.actions for t in game.turns.order_by("number")]
    assert records == [{"p0": [0, 1]}, {RESIGN: "p2"}, {"p1": [1, 1]}, {RESIGN: "p0"}]
    assert services.current_state(game).to_json()["out"] == ["p2", "p0"]  # folded from the log
    assert "p2: resigns" in gamelog.log_text(game)


@pytest.mark.django_db(transaction=True)
def test_resigning_a_two_seat_game_still_ends_it():
    made = services.create_game("tic_tac_toe", {"x": "human", "o": "human"})
    game = services.resign(made.game.id, made.tokens["x"])
    assert game.status == Game.Status.FINISHED and game.ending == Game.Ending.RESIGNATION
    assert game.outcome["winners"] == ["o"] and not game.turns.exists()
