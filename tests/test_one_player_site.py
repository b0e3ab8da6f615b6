"""The site's parts for one-player games and games with ready-made setups, through Django's test client:
JSON options in the lobby, presets and the library page, the position editor, hints (only for one seat, only
the player to move, errors answered clearly) and the result against the optimum."""
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import load_game
from games.models import Game
from games.ropasci_puzzle.position import EXAMPLE, library, parse_position
from games.ropasci_puzzle.ui import UI, optimum

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PUZZLE = {"game": "ropasci_puzzle", "seat_upper": "me", "turn_seconds": "", "bot_seconds": "1", "name": ""}
ONE_TOKEN = {"upper": [["r", 0, 0]], "lower": [["s", 2, 0]], "block": []}


def options(client, **query):
    response = client.get(reverse("new_game_options"), {"game": "ropasci_puzzle", **query})
    assert response.status_code == 200
    return response.content.decode()


def shown_position(html: str) -> dict:
    import html as html_lib
    return json.loads(html_lib.unescape(re.search(r"<textarea[^>]*>\s*([^<]*)</textarea>", html).group(1)))


def errors(html: str) -> list[str]:
    return re.findall(r'class="error"[^>]*>([^<]*)<', html)


def new_puzzle(client, position) -> Game:
    response = client.post(reverse("new_game"), {**PUZZLE, "param_position": json.dumps(position)})
    assert response.status_code == 302, response.content.decode()[:3000]
    return Game.objects.get(pk=response["Location"].rsplit("/", 1)[-1])


def test_a_preset_fills_the_position_and_is_the_link_to_share():
    client = Client()
    html = options(client, preset="spiral")
    spiral = next(e for e in library() if e["name"] == "spiral")
    assert shown_position(html) == parse_position(spiral["position"]).to_json()
    assert '<option value="spiral" selected' in html
    assert '"/play/ropasci_puzzle?game=ropasci_puzzle&amp;preset=spiral"' in html
    # The game's start page from that link, without JavaScript, and from the old lobby's link.
    page = client.get("/play/ropasci_puzzle", {"game": "ropasci_puzzle", "preset": "spiral"}).content.decode()
    assert shown_position(page) == parse_position(spiral["position"]).to_json()
    page = client.get("/", {"game": "ropasci_puzzle", "preset": "spiral"}, follow=True).content.decode()
    assert shown_position(page) == parse_position(spiral["position"]).to_json()


def test_an_edited_position_is_no_preset_and_its_link_carries_it():
    html = options(Client(), param_position=json.dumps(ONE_TOKEN))
    assert '<option value="" selected' in html
    link = re.search(r'share-setup"><a href="([^"]+)"', html).group(1).replace("&amp;", "&")
    from urllib.parse import parse_qs, urlsplit
    query = parse_qs(urlsplit(link).query)
    assert json.loads(query["param_position"][0]) == parse_position(ONE_TOKEN).to_json()


@pytest.mark.parametrize("tool,hex_,expect", [
    ("lower-p", "hex:3,-1", lambda p: ["p", 3, -1] in p["lower"]),
    # A hex holds one token or a block: placing replaces what is there, of either side and any symbol.
    ("upper-s", "hex:2,0", lambda p: ["s", 2, 0] in p["upper"] and p["lower"] == []),
    ("upper-p", "hex:2,0", lambda p: ["p", 2, 0] in p["upper"] and p["lower"] == []),
    ("upper-r", "hex:0,0", lambda p: p["upper"] == [["r", 0, 0]]),
    ("lower-s", "hex:0,0", lambda p: p["upper"] == [] and p["lower"] == [["s", 2, 0], ["s", 0, 0]]),
    ("clear", "hex:4,-4", lambda p: p == {"upper": [], "lower": [], "block": []}),  # the board starts afresh
    ("block", "hex:2,0", lambda p: p["block"] == [["", 2, 0]] and p["lower"] == []),
    ("erase", "hex:0,0", lambda p: p["upper"] == []),
    ("erase", "hex:9,9", lambda p: p == ONE_TOKEN),  # off the board: nothing happens
    ("erase", "tok:0,0", lambda p: p == ONE_TOKEN),  # not a cell's key: nothing happens
    ("erase", "hex:" + "9" * 60, lambda p: p == ONE_TOKEN),
])
def test_the_editor_places_and_erases(tool, hex_, expect):
    html = options(Client(), param_position=json.dumps(ONE_TOKEN), tool=tool, edit=hex_)
    assert expect(shown_position(html)), shown_position(html)


@pytest.mark.parametrize("text,message", [
    ("{not json", "not valid JSON"),
    ('{"upper": [], "lower": [["s", 0, 0]]}', "Upper must have 1 to 9 tokens"),
    (json.dumps({"upper": [["r", 0, 0]] * 10, "lower": [["s", 2, 0]]}), "Upper must have 1 to 9 tokens"),
    ('{"upper": [["r", 9, 9]], "lower": [["s", 0, 0]]}', "off the board"),
    ("[1, 2]", "must be a dict"),
])
def test_a_bad_position_is_named_in_the_options_and_refused_on_creation(text, message):
    client = Client()
    html = options(client, param_position=text, tool="block", edit="hex:1,1")
    assert any(message in e for e in errors(html)), errors(html)
    before = Game.objects.count()
    response = client.post(reverse("new_game"), {**PUZZLE, "param_position": text})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Game.objects.count() == before


def test_a_position_with_four_upper_tokens_is_accepted_and_played_with_hints():
    """Like the course's public test with three papers and a scissors."""
    four = {"upper": [["p", 3, -2], ["p", 3, 0], ["p", 2, 1], ["s", 4, -3]],
            "lower": [["r", -1, 0], ["r", 0, 2], ["p", 1, -2]], "block": [["", 1, 0]]}
    client = Client()
    html = options(client, param_position=json.dumps(four))
    assert errors(html) == [] and shown_position(html) == four
    game = new_puzzle(client, four)
    assert client.get(game.get_absolute_url()).status_code == 200
    play_the_hints(client, game, 4)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "after 4 turns: as few as possible!" in client.get(game.get_absolute_url()).content.decode()


def test_the_library_page_lists_every_puzzle_with_play_watch_and_link():
    response = Client().get(reverse("library", args=["ropasci_puzzle"]))
    html = response.content.decode()
    assert response.status_code == 200
    for entry in library():
        assert f'id="{entry["name"]}"' in html and f"preset={entry['name']}" in html
    assert html.count(">Play</button>") == len(library())
    assert html.count('value="bot:perfect"') == len(library())
    assert Client().get(reverse("library", args=["nim"])).status_code == 404  # a game with no library
    assert Client().get(reverse("library", args=["nope"])).status_code == 404


def test_a_hint_is_the_perfect_bots_move_for_the_player_only():
    client = Client()
    game = new_puzzle(client, EXAMPLE)
    url = reverse("hint", args=[game.id])
    response = client.post(url, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "Hint:" in html, html
    action = json.loads(re.search(r'data-action="([^"]+)"', html).group(1).replace("&quot;", '"'))
    assert action in [load_game("ropasci_puzzle").action_to_json(a)
                      for a in load_game("ropasci_puzzle").new_initial_state().legal_actions("upper")]
    # Someone without the seat, a GET, and a two-player game are refused; nothing changes.
    assert "You have no seat in this game" in Client().post(url, **HTMX).content.decode()
    assert client.get(url).status_code == 405
    two = Client()
    response = two.post(reverse("new_game"), {"game": "tic_tac_toe", "seat_x": "me", "seat_o": "bot:random",
                                              "turn_seconds": "", "bot_seconds": "1"})
    ttt = response["Location"].rsplit("/", 1)[-1]
    refused = two.post(reverse("hint", args=[ttt]), **HTMX).content.decode()
    assert "only for one-player games" in refused
    assert Client().post(reverse("hint", args=["nosuchgame"])).status_code == 404
    game.refresh_from_db()
    assert game.turn == 0


def play_the_hints(client, game, turns: int) -> None:
    """Ask for a hint and play it, ``turns`` times, as a player pressing Hint then the hinted move."""
    for turn in range(1, turns + 1):
        html = client.post(reverse("hint", args=[game.id]), **HTMX).content.decode()
        value = re.search(r'data-action="([^"]+)"', html).group(1).replace("&quot;", '"')
        response = client.post(reverse("act", args=[game.id]), {"turn": str(turn), "action": value}, **HTMX)
        assert response.status_code == 200


def test_playing_the_hints_solves_in_the_fewest_turns_and_says_so():
    client = Client()
    game = new_puzzle(client, EXAMPLE)
    play_the_hints(client, game, 3)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    page = client.get(game.get_absolute_url()).content.decode()
    assert "after 3 turns: as few as possible!" in page
    # Once over, there is nothing to hint at.
    assert "no move of yours" in client.post(reverse("hint", args=[game.id]), **HTMX).content.decode()


def test_a_longer_solution_is_compared_with_the_optimum():
    ui = UI(load_game("ropasci_puzzle", position=EXAMPLE))
    assert optimum(parse_position(EXAMPLE).to_json()) == 3
    reason = ui.result_reason({"text": "solved in 5 turns"}, {})
    assert reason == "Solved: no Lower token is left after 5 turns: the shortest solution takes 3 turns (2 fewer)."


def test_a_position_left_out_of_the_form_is_the_default():
    response = Client().post(reverse("new_game"), PUZZLE)
    assert response.status_code == 302
    game = Game.objects.get(pk=response["Location"].rsplit("/", 1)[-1])
    assert game.params["position"] == parse_position(EXAMPLE).to_json()
