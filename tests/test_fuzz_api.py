"""Hypothesis against the HTTP API and the WebSocket of every registered game: arbitrary JSON as actions and
turns, other games' tokens, unknown message types, unicode, stale turns. Never a 5xx; a refusal always says
why in JSON (or an error fragment on the socket) and changes nothing."""
from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from hypothesis import HealthCheck, given, settings, strategies as st

from games.play import services
from games.engine import load_game, registered_names
from games.models import Game, PendingAction, Turn
from ropasci.asgi import application

GAMES = sorted(registered_names())
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10**30, max_value=10**30) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
TURNS = st.one_of(st.integers(min_value=-3, max_value=5), st.integers(), st.text(max_size=6), st.none(),
                  st.floats(allow_nan=False), JSON_VALUES)
OK = {200, 202}
REFUSED = {400, 403, 404, 409, 413}


def human_game(name: str):
    seats = load_game(name).info.players
    return services.create_game(name, {seat: "human" for seat in seats})


def snapshot(game_id: str):
    game = Game.objects.get(pk=game_id)
    return (game.turn, game.status, Turn.objects.filter(game_id=game_id).count(),
            sorted(PendingAction.objects.filter(game_id=game_id).values_list("side", "turn")))


@pytest.mark.django_db
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(action=JSON_VALUES, turn=TURNS, body_extra=st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=2))
def test_any_action_body_is_answered_clearly_and_refusals_change_nothing(name, action, turn, body_extra):
    created = human_game(name)
    gid = created.game.id
    other = human_game("tic_tac_toe" if name != "tic_tac_toe" else "nim")
    client = Client()
    seat, token = next(iter(created.tokens.items()))
    before = snapshot(gid)
    body = {**body_extra, "turn": turn, "action": action}
    try:
        raw = json.dumps(body)
    except ValueError:
        return
    for use in (token, next(iter(other.tokens.values())), "", "x" * 300):  # its own, another game's, none, junk
        response = client.post(f"/api/games/{gid}/actions", raw, content_type="application/json",
                               **({"HTTP_AUTHORIZATION": f"Seat {use}"} if use else {}))
        assert response.status_code in OK | REFUSED, (response.status_code, response.content[:300])
        if response.status_code in REFUSED:
            assert response.json()["error"]
            assert snapshot(gid) == before
        if use != token:
            assert response.status_code in (400, 403)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(messages=st.lists(st.one_of(JSON_VALUES.map(json.dumps), st.text(min_size=1, max_size=40),
                                   st.fixed_dictionaries({"type": st.sampled_from(["submit", "resign", "sync", "x"]),
                                                          "turn": TURNS, "action": JSON_VALUES}).map(json.dumps)),
                         min_size=1, max_size=4))
def test_any_websocket_message_is_answered_and_changes_nothing_for_a_spectator(name, messages):
    created = human_game(name)
    before = snapshot(created.game.id)

    async def run():
        comm = WebsocketCommunicator(application, f"/ws/games/{created.game.id}",
                                     headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
        connected, _ = await comm.connect(timeout=30)
        assert connected
        await comm.receive_from(timeout=30)  # generous: CI runs two test processes on two cores
        for text in messages:
            await comm.send_to(text_data=text)
            frame = await comm.receive_from(timeout=30)  # an answer to every message: a view or an error
            assert frame
        await comm.disconnect()

    async_to_sync(run)()
    assert snapshot(created.game.id) == before  # a spectator's messages never change the game
