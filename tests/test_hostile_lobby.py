"""The lobby's options with hostile values, for every registered game and each of its options, through the real
form POST (``/games/new``) and the two GETs that fill the form (``/?game=...``, ``/games/new/options``): a form
error saying why, never a 500, and no game made. (``ropasci_puzzle``'s position as ``1``, ``true``, ``1e999``,
``NaN``, 5,000 digits or 1,100 nested brackets answered 500 in all three.)"""
from __future__ import annotations

import pytest
from django.test import Client

from games.engine.registry import load_game, names_in_order
from games.web.forms import NewGameForm
from games.models import Game
from games.engine.ui import ui_for

pytestmark = pytest.mark.django_db

HOSTILE = ["1", "true", "1e999", "NaN", "9" * 5000, "[" * 1100 + "]" * 1100]
HOSTILE_JSON = HOSTILE + ['"a\\u0000b"', '{"upper": [["r", 0, "\\u0000"]]}', "{}", "[]", '"x"',
                          '{"upper": 1, "lower": [], "block": []}',
                          '{"upper": [[1, 2, 3]], "lower": [], "block": []}']


def valid_post(name: str) -> dict:
    """The lobby form's own initial values for game ``name``: a POST that makes a game."""
    form = NewGameForm(initial={"game": name})
    data = {}
    for field in form:
        value = field.value()
        if value is True:
            data[field.name] = "on"
        elif value not in (None, False):
            data[field.name] = str(value)
    return {**data, "game": name}


def refused(param, value: str) -> bool:
    """Whether ``value`` cannot be a valid value of ``param`` (a checkbox takes anything as "on")."""
    if param.json:
        return True
    if isinstance(param.default, bool):
        return False
    if param.choices:
        return value not in {str(v) for v, _ in param.choices}
    return not (value.isdigit() and len(value) < 10 and param.minimum <= int(value) <= param.maximum)


CASES = [(name, param.name) for name in names_in_order() for param in ui_for(load_game(name)).params()]


@pytest.mark.parametrize("name,option", CASES)
def test_hostile_option_values_get_a_form_error_and_make_no_game(name, option):
    param = next(p for p in ui_for(load_game(name)).params() if p.name == option)
    client = Client(raise_request_exception=False)
    control = valid_post(name)
    response = client.post("/games/new", control)
    assert response.status_code == 302 and Game.objects.count() == 1, (name, control, response.content[:500])
    for value in HOSTILE_JSON if param.json else HOSTILE:
        what = (name, option, value[:30])
        games = Game.objects.count()
        response = client.post("/games/new", {**control, f"param_{option}": value})
        assert response.status_code < 500, what
        if refused(param, value):
            assert response.status_code == 400 and response.context["form"].errors, what
            assert Game.objects.count() == games, what
        query = {"game": name, f"param_{option}": value}
        for path in ("/", "/games/new/options"):  # the old lobby's link leads to the game's start page
            response = client.get(path, query, follow=True)
            assert response.status_code == 200, (path, *what)
            if refused(param, value):
                assert response.context["form"].params_error and b'role="alert"' in response.content, (path, *what)


def test_the_position_errors_say_why():
    assert ("ropasci_puzzle", "position") in CASES and len({name for name, _ in CASES}) >= 5, CASES  # all seen
    client = Client()
    control = valid_post("ropasci_puzzle")
    for value, why in (("[" * 1100 + "]" * 1100, "nested deeper than"), ("9" * 5000, "more than 30 digits"),
                       ("1e999", "out of range"), ("NaN", "not a JSON number"), ("1", "must be a dict"),
                       ('"\\u0000"', "NUL")):
        response = client.post("/games/new", {**control, "param_position": value})
        assert response.status_code == 400 and why in response.content.decode(), (value, why)
        response = client.get("/games/new/options", {"game": "ropasci_puzzle", "param_position": value})
        assert why in response.context["form"].params_error, (value, why)
