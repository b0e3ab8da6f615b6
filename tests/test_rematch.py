"""A rematch after a game (games.play.rematch, games/web/rematch.py) and what a finished game's page offers
next (games.read.aftergame): seats swapped, bots kept at their level, the asker's seat remembered, the
library's next puzzle, and a tournament game's way back."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.engine import load_game
from games.engine.ui import ui_for
from games.models import Game
from games.play import services
from games.play.rematch import rematch
from games.read import presenters
from games.read.aftergame import after_game

pytestmark = pytest.mark.django_db


def finished(kind, players, side, **params):
    created = services.create_game(kind, players, params=params or None)
    services.resign(created.game.id, created.tokens[side])
    return created


def test_the_seats_are_swapped_and_the_bots_keep_their_level():
    old = finished("tic_tac_toe", {"x": "human", "o": "bot:greedy"}, "x")
    new, side = rematch(old.game.id, "x")
    seats = {s.side: s for s in new.game.seats.all()}
    assert side == "o" and list(new.tokens) == ["o"]
    assert seats["x"].kind == "bot" and seats["x"].bot_level == "greedy" and seats["o"].kind == "human"
    assert new.game.kind == "tic_tac_toe" and new.game.params == old.game.params


def test_a_rematch_needs_the_game_over_and_a_player():
    live = services.create_game("tic_tac_toe", {"x": "human", "o": "human"})
    with pytest.raises(services.Conflict):
        rematch(live.game.id, "x")
    done = finished("tic_tac_toe", {"x": "human", "o": "human"}, "o")
    with pytest.raises(services.Conflict):
        rematch(done.game.id, None)


def test_the_rematch_button_takes_the_browser_to_its_new_seat():
    client = Client()
    client.post(reverse("new_game"), {"game": "tic_tac_toe", "seat_x": "me", "seat_o": "bot:random",
                                      "bot_seconds": "1"})
    old = Game.objects.get()
    client.post(reverse("resign", args=[old.id]), {"confirm": "yes"})
    page = client.get(old.get_absolute_url()).content.decode()
    assert 'data-role="rematch"' in page and page.count('class="result-banner') == 1
    response = client.post(reverse("rematch", args=[old.id]))
    new = Game.objects.exclude(pk=old.id).get()
    assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
    assert "You play <strong>O</strong>" in client.get(new.get_absolute_url()).content.decode()
    assert client.post(reverse("rematch", args=[old.id]), HTTP_HX_REQUEST="true")["HX-Redirect"].startswith("/games/")


def test_against_a_person_the_rematch_waits_for_the_other_player_to_accept():
    a, b = Client(), Client()
    a.post(reverse("new_game"), {"game": "tic_tac_toe", "seat_x": "me", "seat_o": "invite", "name": "ann"})
    old = Game.objects.get()
    b.post(reverse("join", args=[old.id]), {"side": "o", "name": "bob"})
    b.post(reverse("resign", args=[old.id]), {"confirm": "yes"})
    assert 'data-role="rematch"' in b.get(old.get_absolute_url()).content.decode()
    a.post(reverse("rematch", args=[old.id]))
    new = Game.objects.exclude(pk=old.id).get()
    seats = {s.side: s for s in new.seats.all()}
    assert new.status == "waiting" and seats["o"].display_name == "ann" and not seats["x"].is_claimed
    old.refresh_from_db()
    assert old.rematch_id == new.id
    home = Client().get(reverse("home")).content.decode()  # it waits for Bob: not listed for anyone to join
    assert new.id not in home.split('id="open-games"')[1].split("</section>")[0]
    # Bob's page (as the socket pushes it) offers to accept; Ann's leads to the game that waits for him.
    offer = presenters.live_fragments(old.id, "o")
    assert "ann</strong> offers a rematch" in offer and "Accept rematch" in offer
    mine = a.get(old.get_absolute_url()).content.decode()
    assert f'href="{new.get_absolute_url()}" data-role="rematch"' in mine and "Accept rematch" not in mine
    assert a.post(reverse("rematch", args=[old.id]))["Location"] == new.get_absolute_url()  # no second game
    response = b.post(reverse("rematch", args=[old.id]))
    assert response["Location"] == new.get_absolute_url() and Game.objects.count() == 2
    new.refresh_from_db()
    seats = {s.side: s for s in new.seats.all()}
    assert new.status == "active" and seats["x"].display_name == "bob"
    assert "You play <strong>X</strong>" in b.get(new.get_absolute_url()).content.decode()
    # Once it has started, the old game's page leads to it, and a new request makes a new one.
    assert "Accept rematch" not in presenters.live_fragments(old.id, "o")


def test_a_puzzle_offers_the_next_one_and_the_library():
    ui = ui_for(load_game("ropasci_puzzle"))
    first, second = ui.presets()[:2]
    old = finished("ropasci_puzzle", {"upper": "human"}, "upper", **first.params)
    offered = after_game(Game.objects.get(pk=old.game.id), ui, "upper")
    assert offered["next_preset"] == second.name
    assert {"url": "/library/ropasci_puzzle", "text": "Back to the library", "role": "library"} in offered["after_links"]
    new, side = rematch(old.game.id, "upper", preset=second.name)
    assert side == "upper" and new.game.params["position"] == second.params["position"]
    html = presenters.live_fragments(old.game.id, "upper")
    assert 'data-role="next-puzzle"' in html and "Next puzzle" in html


def test_a_tournament_game_links_back_to_its_tournament():
    from tournaments import services as tournaments
    user = get_user_model().objects.create_user("ann", password="pw-ann-123")
    tournament = tournaments.create_tournament(name="Cup", kind="tic_tac_toe", bots=["random", "greedy"], user=user)
    game = Game.objects.filter(tournament_game__pairing__tournament=tournament).first()
    services.abort(game.id)
    game.refresh_from_db()
    offered = after_game(game, ui_for(load_game("tic_tac_toe")), None)
    assert offered["after_links"] == [{"url": tournament.get_absolute_url(), "text": "Back to the tournament (Cup)",
                                       "role": "tournament", "decides_next": True}]
    # The tournament decides the pairings: no rematch, even of its games of bots.
    assert offered["rematch_url"] == "" and 'data-role="rematch"' not in presenters.live_fragments(game.id, None)
    games = Game.objects.count()
    response = Client().post(reverse("rematch", args=[game.id]))
    assert response.status_code == 302 and Game.objects.count() == games
