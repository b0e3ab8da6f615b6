"""Tic-tac-toe: rules, the perfect bot and the site's adapter. Pure Python but for the templates and static
files that ``ui`` points to; see ``docs/games/tic_tac_toe.md``."""
from games.engine.api import check_params

NAME = "tic_tac_toe"


def make_game(**params):
    from .rules import GAME
    check_params(NAME, params, {})
    return GAME
