"""A turn whose legal actions are every combination of independent parts (the puzzle: one move per Upper
token), through Django's test client: the page offers one list per part and never the product (so 5 and 9
tokens, up to billions of combinations, make a small page), the form posted without the page's script is
joined part by part, and the API gives the parts."""
import json
import math
import re
import time

import pytest
from django.test import Client
from django.urls import reverse

from games.read import presenters
from games.play import services
from games.api.payloads import LISTED_PRODUCT
from games.models import Game
from games.engine.ui import ui_for

pytestmark = pytest.mark.django_db

PUZZLE = {"game": "ropasci_puzzle", "seat_upper": "me", "turn_seconds": "", "bot_seconds": "1", "name": ""}
FIVE = {"upper": [["p", 3, -2], ["p", 3, 0], ["p", 2, 1], ["s", 4, -3], ["r", 0, -1]],
        "lower": [["r", -1, 0], ["r", 0, 2], ["p", 1, -2], ["s", -2, 1]], "block": [["", 1, 0]]}  # 23,814 a turn
NINE = {"upper": [["r", -4, 2], ["r", -4, 3], ["r", -4, 4], ["p", -3, 1], ["p", -3, 2], ["p", -3, 3],
                  ["s", -2, 0], ["s", -2, 1], ["s", -2, 2]],
        "lower": [["s", -3, 4], ["p", -2, 3]], "block": [["", 0, 0]]}  # 3,220,717,500 a turn
PAGE_BYTES = 300_000
PAGE_SECONDS = 1.0


def new_puzzle(client, position) -> Game:
    response = client.post(reverse("new_game"), {**PUZZLE, "param_position": json.dumps(position)})
    assert response.status_code == 302, response.content.decode()[:3000]
    return Game.objects.get(pk=response["Location"].rsplit("/", 1)[-1])


def part_options(html: str) -> list[list[str]]:
    """Per part's <select>, the values of its options (the part's JSON)."""
    lists = re.findall(r'<select id="action-part-(\d+)" name="action_part_\1".*?</select>', html, re.S)
    assert lists
    out = []
    for i in range(len(lists)):
        block = re.search(rf'<select id="action-part-{i}".*?</select>', html, re.S).group(0)
        out.append([v.replace("&quot;", '"') for v in re.findall(r'<option value="([^"]+)"', block)])
    return out


@pytest.mark.parametrize("position,tokens", [(FIVE, 5), (NINE, 9)], ids=["five", "nine"])
def test_a_puzzle_page_with_many_tokens_is_small_and_fast_with_one_list_per_token(position, tokens):
    client = Client()
    game = new_puzzle(client, position)
    client.get(game.get_absolute_url())  # the first view also finds the fewest turns (cached)
    start = time.perf_counter()
    response = client.get(game.get_absolute_url())
    seconds = time.perf_counter() - start
    html = response.content.decode()
    assert response.status_code == 200
    assert len(response.content) < PAGE_BYTES and seconds < PAGE_SECONDS, (len(response.content), seconds)
    assert html.count('class="action-part"') == tokens
    assert '<label for="action-part-0">Token 1 (' in html
    state = services.current_state(game)
    names = {"r": "Rock", "p": "Paper", "s": "Scissors"}
    for i, (sym, r, q) in enumerate(state.observation("upper")["upper"]):  # in move order: symbol, r, q
        assert f'<label for="action-part-{i}">Token {i + 1} ({names[sym]} on ({r}, {q}))</label>' in html
    product = math.prod(len(p) for p in state.legal_action_parts("upper"))
    assert f"({product:,} legal actions)" in html
    assert 'id="action-select"' not in html  # the product is never listed
    info = presenters.legal_actions_info(ui_for(services.engine_for(game)), state, "upper")
    assert [len(entries) for entries in info["script"]["parts"]] == [len(p) for p in
                                                                     state.legal_action_parts("upper")]


def test_the_per_part_form_is_played_without_the_script_and_a_missing_part_is_refused():
    client = Client()
    game = new_puzzle(client, FIVE)
    options = part_options(client.get(game.get_absolute_url()).content.decode())
    assert len(options) == 5
    url = reverse("act", args=[game.id])
    # A part left out (or left empty) is named on the game page, as every refused move without the script
    # is (htmx gets the same words in the page's error line), and nothing changes.
    form = {"turn": "1", **{f"action_part_{i}": opts[0] for i, opts in enumerate(options)}}
    for broken in ({k: v for k, v in form.items() if k != "action_part_2"}, {**form, "action_part_2": ""}):
        response = client.post(url, broken, follow=True)
        assert response.redirect_chain == [(game.get_absolute_url(), 302)]
        assert "choose part 3 of the action first (action_part_2 is missing)" in response.content.decode()
        response = client.post(url, broken, HTTP_HX_REQUEST="true")
        assert "choose part 3 of the action first" in response.content.decode()
    response = client.post(url, {**form, "action_part_1": "[1, 2"}, follow=True)
    assert "part 2 of the action is not acceptable JSON" in response.content.decode()
    response = client.post(url, {**form, "action_part_0": json.dumps(["SLIDE", [0, 0], [0, 1]])}, follow=True)
    assert "illegal action: move 1 must move token 1" in response.content.decode()
    game.refresh_from_db()
    assert game.turn == 0
    # The whole form, as the browser posts it without JavaScript (the hidden "action" empty).
    chosen = [opts[-1] for opts in options]
    response = client.post(url, {"turn": "1", "action": "", **{f"action_part_{i}": v for i, v in enumerate(chosen)}})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn == 1
    assert game.turns.get(number=1).actions["upper"] == [json.loads(v) for v in chosen]


def test_the_api_gives_the_parts_and_lists_the_product_only_when_small():
    five = services.create_game("ropasci_puzzle", {"upper": "human"}, params={"position": FIVE})
    body = Client().get(f"/api/games/{five.game.id}", HTTP_AUTHORIZATION=f"Seat {five.tokens['upper']}").json()
    parts = body["legal_action_parts"]
    assert len(parts) == 5 and math.prod(map(len, parts)) == 23814 > LISTED_PRODUCT
    assert "legal_actions" not in body
    assert ["SLIDE", [2, 1], [1, 1]] in parts[0]  # token 1, the paper on (2, 1): its moves' JSON
    assert all(kind in ("SLIDE", "SWING") and a == [2, 1] for kind, a, _ in parts[0])
    small = services.create_game("ropasci_puzzle", {"upper": "human"})  # the course's example: 2 tokens
    body = Client().get(f"/api/games/{small.game.id}", HTTP_AUTHORIZATION=f"Seat {small.tokens['upper']}").json()
    a, b = body["legal_action_parts"]
    assert body["legal_actions"] == [[x, y] for x in a for y in b]
    # A spectator gets neither.
    body = Client().get(f"/api/games/{small.game.id}").json()
    assert "legal_action_parts" not in body and "legal_actions" not in body
