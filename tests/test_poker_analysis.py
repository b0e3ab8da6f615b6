"""Poker's analysis tells nothing secret: a decision is analysed from the deciding seat's view only (its own
cards and the public ones; another seat's unseen cards change nothing), and only where the hand's showdown
showed that seat's cards; through the site, a finished game's analysis holds no card at all and no
analysis of a decision whose cards were never shown."""
from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import AsyncClient

from games.bots.analysis import analyse_positions
from games.engine import load_game
from games.engine.api import CHANCE
from games.engine.history import apply_record
from games.play import services
from games.poker.bots import _SeatView

from tests.analysis_games import SHORT, play
from tests.test_analysis_every_game import play_on_the_site

PARAMS = SHORT["poker"]
CARD = re.compile(r'"[2-9TJQKA][cdhs]"')


def hands(records: list[dict]):
    """Each position's mover (None at a deal) and, per turn, its events, from folding the log."""
    game = load_game("poker", **PARAMS)
    state = game.new_initial_state()
    movers, events = [], []
    for record in records:
        movers.append(None if state.is_chance_node() else state.players_to_act()[0])
        events.append(apply_record(game, state, record).events)
    return movers, events


def shown(seat: str, events_after: list) -> bool:
    """Whether the hand in play ends in a showdown showing ``seat``'s cards."""
    for turn in events_after:
        for event in turn:
            if "showdown" in event:
                return seat in event["showdown"]
            if "hand_start" in event:
                return False
    return False


def game_with_a_showdown():
    for seed in range(1, 60):
        params, records = play("poker", seed=seed)
        movers, events = hands(records)
        decisions = [n for n, m in enumerate(movers) if m and shown(m, events[n:])]
        if decisions:
            return records, movers, events, decisions
    raise AssertionError("no showdown in 60 games")


def test_a_decision_is_analysed_from_the_deciding_seats_cards_only():
    records, movers, events, decisions = game_with_a_showdown()
    n = decisions[0]
    seat = movers[n]
    # Another seat's hole cards dealt before the decision, swapped for cards nobody holds: the seat could not
    # see them, so its analysis is the same.
    dealt = {r[CHANCE].split(":")[-1] for r in records if CHANCE in r}
    spare = iter(sorted({r + s for r in "23456789TJQKA" for s in "cdhs"} - dealt))
    swapped = [dict(r) for r in records]
    for k in range(n):
        where, _, card = str(swapped[k].get(CHANCE, "")).partition(":")
        if card and where in load_game("poker", **PARAMS).info.players and where != seat:
            swapped[k][CHANCE] = f"{where}:{next(spare)}"
    assert swapped != records
    end = next(k for k in range(n, len(records)) if any("showdown" in e for e in events[k])) + 1
    one = analyse_positions("poker", PARAMS, records[:end], [n], 0.02)[0]
    two = analyse_positions("poker", PARAMS, swapped[:end], [n], 0.02)[0]
    assert one["best"] and one == two
    assert set(one["values"]) == {seat} and one["actual"][seat]["action"] == records[n][seat]


def test_a_decision_whose_cards_were_never_shown_is_not_analysed():
    records, movers, events, _ = game_with_a_showdown()
    hidden = [n for n, m in enumerate(movers) if m and not shown(m, events[n:])]
    assert hidden
    for n, result in zip(hidden, analyse_positions("poker", PARAMS, records, hidden, 0.02)):
        assert result["withheld"] == movers[n]
        assert not result["values"] and not result["strategies"] and "actual" not in result and not result["best"]


def test_the_seat_view_refuses_another_seats_eyes():
    game = load_game("poker", **PARAMS)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_chance(state.chance_outcomes()[0][0])
    mover = state.players_to_act()[0]
    view = _SeatView(state, mover)
    other = next(s for s in game.info.players if s != mover)
    assert view.observation(mover) == state.observation(mover)
    with pytest.raises(PermissionError):
        view.observation(other)
    with pytest.raises(PermissionError):
        view.legal_actions(other)


def finished_poker_game():
    """A poker game played to its end on the site, with each position's mover and the events of every turn."""
    cache.clear()
    game, _ = play_on_the_site("poker")
    rows = list(game.turns.order_by("number").values("actions", "events"))
    movers, _ = hands([r["actions"] for r in rows])
    return game, movers, [r["events"] for r in rows]


@pytest.mark.django_db(transaction=True)
async def test_the_site_shows_no_card_and_no_secret_decision():
    """Asked as a browser asks (the async views on an event loop of their own), so it does not matter whether a
    browser test started Playwright's loop in this process first."""
    game, movers, events = await sync_to_async(finished_poker_game)()
    client = AsyncClient()
    response = await client.get(f"/games/{game.id}/replay/analysis/game", {"format": "json"})
    assert response.status_code == 200
    text = response.content.decode()
    assert not CARD.search(text)
    body = json.loads(text)
    for n, mover in enumerate(movers):
        if mover and not shown(mover, events[n:]):
            assert body["seat_values"][mover][n] is None and body["best"][mover][n] is None
            assert body["played"][mover][n] is None
    for n in range(game.turn + 1):
        one = (await client.get(f"/games/{game.id}/replay/analysis", {"turn": n, "format": "json"})).content
        assert not CARD.search(one.decode()), n
    html = (await client.get(f"/games/{game.id}/replay/analysis/game", headers={"HX-Request": "true"})).content
    assert 'id="value-chart"' in html.decode()
    assert (await sync_to_async(services.get_game)(game.id)).is_over
