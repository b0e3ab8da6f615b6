"""Expendibots, the stacking-and-exploding game of COMP30024 (2020): rules, the 2020 referee's logs, bot
evaluation and the site's adapter. Pure Python but for ``ui``."""
from games.engine.api import check_params

NAME = "expendibots"


def make_game(**params):
    from .rules import GAME
    check_params(NAME, params, {})
    return GAME
