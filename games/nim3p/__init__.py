"""Nim3P (GBG's Nim for three: the player after the last taker wins): rules, bots and the site's adapter, built
on ``games.nim``. Pure Python but for the templates and static files that ``ui`` points to; see
``docs/games/nim3p.md``."""
from games.engine.api import check_params
from games.nim import check_ranges

NAME = "nim3p"
DEFAULTS = {"heaps": 3, "size": 5, "extra_rule": False}
LIMITS = {"heaps": (1, 6), "size": (1, 10)}  # within these the perfect bot solves the game exactly


def make_game(**params):
    from .rules import Nim3P
    params = check_params(NAME, params, DEFAULTS)
    check_ranges(NAME, params, LIMITS)
    return Nim3P(**params)
