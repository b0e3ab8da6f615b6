"""RoPaSci 360, the simultaneous-move hex game of COMP30024 (2021): rules, referee logs, bot evaluation
and the site's adapter. Django only in ``ui``; the rules are pure Python."""
from games.engine.api import check_params

NAME = "ropasci360"


def make_game(**params):
    from .rules import GAME
    check_params(NAME, params, {})
    return GAME
