"""The HTTP API for programs, and the services behind it: real database, real engine."""
import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.play import services
from games.models import Game, PendingAction, Turn

pytestmark = pytest.mark.django_db


def post(client, url, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Seat {token}"} if token else {}
    raw = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, raw, content_type="application/json", **headers)


@pytest.fixture
def client():
    return Client()


@pytest.fixture
def game(client):
    r = post(client, "/api/games", {"game": "ropasci360", "players": {"upper": "human", "lower": "human"},
                                     "turn_seconds": None})
    assert r.status_code == 201
    return r.json()


def act(client, game, side, turn, action):
    return post(client, f"/api/games/{game['id']}/actions", {"turn": turn, "action": action},
                game["seats"][side]["token"])


def test_create_answers_ids_urls_and_tokens(client, game):
    assert set(game) == {"id", "url", "replay_url", "seats"}
    assert game["url"].endswith(f"/games/{game['id']}") and game["replay_url"].endswith(f"/games/{game['id']}/replay")
    assert set(game["seats"]) == {"upper", "lower"} and all(s["token"] for s in game["seats"].values())
    detail = client.get(f"/api/games/{game['id']}").json()
    assert detail["status"] == "active" and detail["turn"] == 0 and detail["to_act"] == ["upper", "lower"]
    assert detail["result"] is None and detail["ending"] is None and detail["turns"] == []
    assert detail["game"] == "ropasci360" and detail["state"]["throws_left"] == {"upper": 9, "lower": 9}


def test_create_with_bot_gives_token_only_for_human(client):
    r = post(client, "/api/games", {"game": "ropasci360", "players": {"upper": "bot:greedy", "lower": "human"}})
    assert r.status_code == 201
    assert "token" not in r.json()["seats"]["upper"] and r.json()["seats"]["lower"]["token"]


@pytest.mark.parametrize("body,message", [
    ("{not json", "malformed JSON"),
    ([1, 2], "expected a JSON object"),
    ({"game": "chess", "players": {"upper": "human", "lower": "human"}}, "unknown game"),
    ({"game": "ropasci360", "players": {"upper": "human"}}, "players must name"),
    ({"game": "ropasci360", "players": {"upper": "human", "lower": "bot:genius"}}, "a player must be"),
    ({"game": "ropasci360", "players": {"upper": "human", "lower": "human"}, "turn_seconds": "fast"}, "turn_seconds"),
])
def test_create_rejects_bad_input(client, body, message):
    before = Game.objects.count()
    r = post(client, "/api/games", body)
    assert r.status_code == 400 and message in r.json()["error"]
    assert Game.objects.count() == before


def test_a_turn_resolves_when_both_have_acted(client, game):
    r = act(client, game, "upper", 1, ["THROW", "r", [4, 0]])
    assert r.status_code == 202 and r.json()["status"] == "accepted"
    assert client.get(f"/api/games/{game['id']}").json()["to_act"] == ["lower"]
    r = act(client, game, "lower", 1, ["THROW", "s", [-4, 0]])
    assert r.status_code == 200 and r.json()["status"] == "resolved"
    detail = client.get(f"/api/games/{game['id']}").json()
    assert detail["turn"] == 1 and detail["to_act"] == ["upper", "lower"]
    assert detail["turns"] == [{"number": 1, "actions": {"upper": ["THROW", "r", [4, 0]], "lower": ["THROW", "s", [-4, 0]]},
                                "events": []}]
    assert not PendingAction.objects.exists()


def test_rejections_in_order_token_turn_action(client, game):
    gid = game["id"]
    url = f"/api/games/{gid}/actions"
    assert post(client, url, {"turn": 1, "action": ["THROW", "r", [4, 0]]}).status_code == 403
    assert post(client, url, {"turn": 1, "action": ["THROW", "r", [4, 0]]}, "nope").status_code == 403
    other = post(client, "/api/games", {"players": {"upper": "human", "lower": "human"}}).json()
    assert post(client, url, {"turn": 1, "action": ["THROW", "r", [4, 0]]}, other["seats"]["upper"]["token"]).status_code == 403
    # wrong token and stale turn and illegal action: the token decides
    assert post(client, url, {"turn": 7, "action": ["JUMP"]}, "nope").status_code == 403
    # stale turn and illegal action: the turn decides
    r = act(client, game, "upper", 2, ["THROW", "r", [0, 0]])
    assert r.status_code == 409 and "stale turn" in r.json()["error"]
    r = act(client, game, "upper", 1, ["THROW", "r", [0, 0]])
    assert r.status_code == 400 and "must land in its first 1 row" in r.json()["error"]
    r = act(client, game, "upper", 1, ["SLIDE", [4, 0], [3, 0]])
    assert r.status_code == 400 and "upper has no token on (4, 0)" in r.json()["error"]
    for bad in ["{", "[]", json.dumps({"turn": 1}), json.dumps({"turn": "1", "action": ["THROW", "r", [4, 0]]}),
                json.dumps({"turn": 1, "action": "THROW r (4, 0)"})]:
        r = post(client, url, bad, game["seats"]["upper"]["token"])
        assert r.status_code in (400, 409) and r.json()["error"]
    assert not PendingAction.objects.exists() and not Turn.objects.exists()
    assert act(client, game, "upper", 1, ["THROW", "r", [4, 0]]).status_code == 202
    r = act(client, game, "upper", 1, ["THROW", "p", [4, 1 - 2]])
    assert r.status_code == 409 and "already submitted" in r.json()["error"]
    assert PendingAction.objects.get().action == ["THROW", "r", [4, 0]]


def test_unknown_game_is_404(client):
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert post(client, "/api/games/nosuchgame/actions", {"turn": 1, "action": []}, "x").status_code == 404


def play(client, game, turns):
    for n, (u, l) in enumerate(turns, start=1):
        assert act(client, game, "upper", n, u).status_code == 202
        assert act(client, game, "lower", n, l).status_code == 200


def test_a_whole_game_to_the_end_by_the_rules_and_its_log(client, game):
    # Repetition: throw, then shuffle back and forth until the third occurrence.
    turns = [(["THROW", "r", [4, 0]], ["THROW", "s", [-4, 0]])]
    for _ in range(2):
        turns += [(["SLIDE", [4, 0], [3, 0]], ["SLIDE", [-4, 0], [-3, 0]]),
                  (["SLIDE", [3, 0], [4, 0]], ["SLIDE", [-3, 0], [-4, 0]])]
    play(client, game, turns)
    detail = client.get(f"/api/games/{game['id']}").json()
    assert detail["status"] == "finished" and detail["ending"] == "rules"
    assert detail["result"] == "draw: same game state occurred for 3rd time" and detail["to_act"] == []
    r = act(client, game, "upper", 6, ["SLIDE", [4, 0], [3, 0]])
    assert r.status_code == 409
    log = client.get(f"/api/games/{game['id']}/log.txt")
    assert log["Content-Type"].startswith("text/plain")
    lines = log.content.decode().splitlines()
    assert lines[0] == "turn 1: upper: THROW symbol r to (4, 0)" and lines[1] == "turn 1: lower: THROW symbol s to (-4, 0)"
    assert lines[-1] == "draw: same game state occurred for 3rd time" and len(lines) == 11
    # The cached state is what a replay of the log gives.
    g = Game.objects.get(pk=game["id"])
    assert services.current_state(g).to_json() == g.state


def test_resign_and_log_has_winner(client, game):
    play(client, game, [(["THROW", "r", [4, 0]], ["THROW", "s", [-4, 0]])])
    r = post(client, f"/api/games/{game['id']}/resign", {}, game["seats"]["lower"]["token"])
    assert r.status_code == 200 and r.json()["result"] == "winner: upper" and r.json()["ending"] == "resignation"
    assert client.get(f"/api/games/{game['id']}/log.txt").content.decode().splitlines()[-1] == "winner: upper"
    assert post(client, f"/api/games/{game['id']}/resign", {}, game["seats"]["upper"]["token"]).status_code == 409


def test_timeout_loses_for_the_late_seat(client):
    g = post(client, "/api/games", {"players": {"upper": "human", "lower": "human"}, "turn_seconds": 30}).json()
    assert act(client, g, "upper", 1, ["THROW", "r", [4, 0]]).status_code == 202
    Game.objects.filter(pk=g["id"]).update(turn_started=timezone.now() - timedelta(seconds=31))
    detail = client.get(f"/api/games/{g['id']}").json()
    assert detail["status"] == "finished" and detail["result"] == "winner: upper" and detail["ending"] == "timeout"
    assert act(client, g, "lower", 1, ["THROW", "r", [-4, 0]]).status_code == 409


def test_a_late_move_commits_the_timeout_before_it_is_refused(client):
    g = post(client, "/api/games", {"players": {"upper": "human", "lower": "human"}, "turn_seconds": 30}).json()
    assert act(client, g, "upper", 1, ["THROW", "r", [4, 0]]).status_code == 202
    Game.objects.filter(pk=g["id"]).update(turn_started=timezone.now() - timedelta(seconds=31))
    r = act(client, g, "lower", 1, ["THROW", "r", [-4, 0]])  # nobody looked at the game since the deadline
    assert r.status_code == 409 and "turn clock ran out" in r.json()["error"]
    game = Game.objects.get(pk=g["id"])
    assert game.status == Game.Status.FINISHED and game.ending == "timeout" and game.result == "winner: upper"
    assert not Turn.objects.filter(game=game).exists()


def test_abort(client, game):
    services.abort(game["id"])
    detail = client.get(f"/api/games/{game['id']}").json()
    assert detail["status"] == "aborted" and detail["ending"] == "aborted" and detail["result"] is None
    assert act(client, game, "upper", 1, ["THROW", "r", [4, 0]]).status_code == 409


def test_pending_action_never_shows_to_others(client):
    """Two games that differ only in what upper submitted look the same to everyone else."""
    a = post(client, "/api/games", {"players": {"upper": "human", "lower": "human"}}).json()
    b = post(client, "/api/games", {"players": {"upper": "human", "lower": "human"}}).json()
    assert act(client, a, "upper", 1, ["THROW", "r", [4, 0]]).status_code == 202
    assert act(client, b, "upper", 1, ["THROW", "s", [4, -2]]).status_code == 202

    def public(g):
        body = client.get(f"/api/games/{g['id']}").json()
        for key in ("id", "url", "replay_url", "created"):
            body.pop(key)
        return body, client.get(f"/api/games/{g['id']}/log.txt").content

    assert public(a) == public(b)
    assert public(a)[0]["to_act"] == ["lower"]


def test_wait_turn_answers_at_once_when_reached_and_rejects_junk(client, game):
    play(client, game, [(["THROW", "r", [4, 0]], ["THROW", "s", [-4, 0]])])
    assert client.get(f"/api/games/{game['id']}?wait_turn=1").json()["turn"] == 1
    assert client.get(f"/api/games/{game['id']}?wait_turn=x").status_code == 400


def test_invite_seat_waits_until_claimed():
    created = services.create_game("ropasci360", {"upper": "human", "lower": "human"}, claim="upper")
    game = created.game
    assert game.status == "waiting" and set(created.tokens) == {"upper"}
    with pytest.raises(services.Conflict):
        services.submit_action(game.id, created.tokens["upper"], 1, ["THROW", "r", [4, 0]])
    game, side, token = services.claim_seat(game.id)
    assert side == "lower" and game.status == "active" and token
    with pytest.raises(services.Conflict):
        services.claim_seat(game.id)
    assert services.submit_action(game.id, token, 1, ["THROW", "r", [-4, 0]])[1] is False


@pytest.mark.django_db
def test_the_turns_in_a_view_are_the_whole_log_as_that_viewer_may_see_it_at_every_turn():
    """``records_so_far`` reads only the turns a process has not read for a viewer yet: it must always equal
    reading the whole log, for every seat and a spectator, with hidden cards and after they are revealed."""
    import random

    from games.read import gamelog
    from games.engine import load_game
    rng = random.Random(3)
    eg = load_game("poker")
    seats = eg.info.players
    created = services.create_game("poker", {seat: "human" for seat in seats})
    game_id = created.game.id
    for _ in range(200):
        game = Game.objects.get(pk=game_id)
        for viewer in (*seats, None):
            assert gamelog.records_so_far(game, viewer) == gamelog.visible_records(game, viewer)
        if game.is_over:
            break
        state = services.current_state(game)
        side = game.to_act[0]
        action = eg.action_to_json(rng.choice(state.legal_actions(side)))
        services.submit_action(game_id, created.tokens[side], game.turn + 1, action)
    assert game.is_over and game.turn > 2


def test_seat_and_challenge_tokens_never_start_with_a_dash(monkeypatch):
    """A token is typed on command lines (``python -m games.client --seat-token TOKEN``), where one starting with
    "-" would be read as an option: such a draw is drawn again."""
    from games import models
    draws = iter(["-starts-with-a-dash", "Afine_token-"])
    monkeypatch.setattr(models.secrets, "token_urlsafe", lambda n: next(draws))
    assert models.new_token() == "Afine_token-"
