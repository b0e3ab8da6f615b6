"""Hex on an N x N rhombus of hexagons: rules, the bots' Monte Carlo tree search and the site's adapter.
Pure Python but for the templates and static files that ``ui`` points to; see ``docs/games/hex.md``."""
from games.engine.api import InvalidParams, check_params

NAME = "hex"
DEFAULTS = {"size": 11}
MIN_SIZE, MAX_SIZE = 2, 19


def make_game(**params):
    from .rules import Hex
    params = check_params(NAME, params, DEFAULTS)
    if not MIN_SIZE <= params["size"] <= MAX_SIZE:
        raise InvalidParams(f"{NAME}: size must be from {MIN_SIZE} to {MAX_SIZE}, got {params['size']}")
    return Hex(params["size"])
