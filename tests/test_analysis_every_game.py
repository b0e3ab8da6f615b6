"""The replay's analysis over every registered game (as the conformance suite runs over every game): a short
game played to its end by bots, analysed in the worker (``analyse_positions``) and through the site (the
whole-game JSON and chart, a position's fragment, computed in the bot workers), and checked: the answer's
shape, every value in -1..1, every best move legal where it is offered, the played moves as the log has them,
the slips a subset of the moves."""
from __future__ import annotations

import json
import time

import pytest
from django.core.cache import cache
from django.test import Client

from games.bots import levels_for, make_bot
from games.bots.analysis import analyse_positions
from games.engine import load_game, registered_names
from games.engine.history import apply_record
from games.play import services
from games.read import analysisview

from tests.analysis_games import SHORT, SOLVERS, play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def in_range(v) -> bool:
    return v is None or (isinstance(v, (int, float)) and -1.0 <= v <= 1.0)


def check_answer(game, state, result: dict, record: dict | None) -> None:
    """One position's answer: values in range, the best move legal, the played move the log's."""
    players = set(game.info.players)
    assert set(result["values"]) <= players and all(in_range(v) for v in result["values"].values())
    assert in_range(result.get("value"))
    for seat, action in (result.get("best") or {}).items():
        assert seat in state.players_to_act()
        state.check_action(seat, game.action_from_json(action, seat))  # raises if illegal
    for seat, actual in (result.get("actual") or {}).items():
        assert record is not None and actual["action"] == record[seat]
        assert isinstance(actual["gave_away"], float) and in_range(actual["value"])


@pytest.mark.parametrize("name", registered_names())
def test_every_game_is_analysed_by_its_best_bot(name):
    params, records = play(name)
    game = load_game(name, **params)
    started = time.process_time()
    results = analyse_positions(name, params, records, list(range(len(records) + 1)), 0.01)
    assert time.process_time() - started < 30
    state = game.new_initial_state()
    decisions = 0
    for n, result in enumerate(results):
        check_answer(game, state, result, records[n] if n < len(records) else None)
        decisions += bool(result.get("actual"))
        if n < len(records):
            apply_record(game, state, records[n])
    assert results[-1]["strategies"] == {} and "actual" not in results[-1]  # the end: nothing to choose
    if game.info.perfect_information:  # every move was analysed (poker: only decisions shown at a showdown)
        assert decisions == sum(1 for r in records if "chance" not in r)
    for gave, n, seat, action in analysisview.slips(dict(enumerate(results))):
        assert gave > analysisview.threshold(results[n]) and records[n][seat] == action


def play_on_the_site(name: str):
    """A game created through the services, played to its end by bots as its seats would (chance drawn by the
    server), as the site stores it."""
    params = SHORT.get(name, {})
    engine = load_game(name, **params)
    created = services.create_game(name, {seat: "human" for seat in engine.info.players}, params=params)
    level = next(lv for lv in ("perfect", "strong") if lv in levels_for(engine)) if name in SOLVERS else "random"
    bots = {seat: make_bot(level, engine, seat, seed=3, seconds=0.05) for seat in engine.info.players}
    for _ in range(600):
        game = services.get_game(created.game.id)
        if game.is_over:
            return game, engine
        state = services.current_state(game)
        for side in list(game.to_act):
            action = engine.action_to_json(bots[side].choose(state))
            services.submit_action(game.id, created.tokens[side], game.turn + 1, action)
    raise AssertionError(f"{name} did not end")


@pytest.mark.parametrize("name", registered_names())
def test_every_game_has_its_analysis_on_the_replay(name):
    cache.clear()
    game, engine = play_on_the_site(name)
    client = Client()
    records = list(game.turns.order_by("number").values_list("actions", flat=True))
    body = json.loads(client.get(f"/games/{game.id}/replay/analysis/game", {"format": "json"}).content)
    assert body["missing"] == 0 and body["turns"] == game.turn
    for seat in engine.info.players:
        assert len(body["seat_values"][seat]) == game.turn + 1 and all(map(in_range, body["seat_values"][seat]))
        for k, best in enumerate(body["best"][seat]):
            if best is not None:
                services.state_at(game, k).check_action(seat, engine.action_from_json(best, seat))
            played = body["played"][seat][k]
            assert played is None or played == records[k][seat]
    for slip in body["slips"]:
        assert records[slip["turn"] - 1][slip["seat"]] == slip["action"] and slip["gave_away"] > analysisview.SLIP
    html = client.get(f"/games/{game.id}/replay/analysis/game", {"turn": game.turn}, **HTMX).content.decode()
    assert 'id="value-chart"' in html and 'class="an-slips"' in html
    page = client.get(f"/games/{game.id}/replay/analysis/game").content.decode()  # without htmx: a page
    assert "<html" in page and 'id="value-chart"' in page
    if any(v is not None for seat in engine.info.players for v in body["played"][seat]):
        assert 'class="an-moves"' in html
    n = next((k for k in range(game.turn) if any(body["best"][s][k] for s in engine.info.players)), 0)
    fragment = client.get(f"/games/{game.id}/replay/analysis", {"turn": n}, **HTMX)
    assert fragment.status_code == 200 and f'data-turn="{n}"' in fragment.content.decode()


def test_the_chart_takes_the_viewing_seats_view_and_switches_to_any_seat():
    from games.play import seatsession

    cache.clear()
    game, engine = play_on_the_site("connect_four")
    url = f"/games/{game.id}/replay/analysis/game"
    spectator = Client()
    first = spectator.get(url, **HTMX).content.decode()
    assert 'data-seat="yellow"' in first and 'class="an-seats"' in first
    assert f'hx-get="{url}?seat=red&amp;turn={game.turn}"' in first
    player = Client()
    session = player.session
    seatsession.remember(session, game.id, "red", "a-token")
    session.save()
    mine = player.get(url, **HTMX).content.decode()
    assert 'data-seat="red"' in mine and 'aria-current="true"><span class="rp-dot red"' in mine
    assert 'data-seat="yellow"' in player.get(url, {"seat": "yellow"}, **HTMX).content.decode()
    assert 'data-seat="yellow"' in spectator.get(url, {"seat": "nobody"}, **HTMX).content.decode()
    # The seat's view: Red's value is Yellow's, negated.
    body = json.loads(spectator.get(url, {"format": "json"}).content)
    assert all(r == -y for r, y in zip(body["seat_values"]["red"], body["seat_values"]["yellow"]) if r is not None)


@pytest.mark.parametrize("name", registered_names())
def test_the_fallback_analyses_any_game(name):
    """What a game without an ``analyse`` of its own would get (alpha-beta on its ``evaluate``, a playout of
    its best level, or the best level's move alone), over the first positions of a short game."""
    from games.bots.analysis import actual_actions
    from games.bots.looks import fallback

    params, records = play(name)
    game = load_game(name, **params)
    state = game.new_initial_state()
    for n in range(min(6, len(records))):
        result = fallback(game, state, 0.01, actual_actions(game, records, n))
        check_answer(game, state, result, records[n])
        if not state.is_chance_node() and game.info.perfect_information and not game.info.simultaneous:
            assert result.get("best")
        elif not game.info.perfect_information or game.info.simultaneous:  # none: see looks.fallback
            assert result["values"] == {} and not result["strategies"]
        apply_record(game, state, records[n])
