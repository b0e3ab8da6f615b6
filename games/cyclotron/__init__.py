"""Cyclotron (Adam's Rock-Paper-Scissors without the luck): rules, bot evaluation and the site's adapter.
Pure Python but for the templates and static files that ``ui`` points to; see ``docs/games/cyclotron.md``."""
from games.engine.api import check_params

NAME = "cyclotron"


def make_game(**params):
    from .rules import GAME
    check_params(NAME, params, {})
    return GAME
