"""Sim (Gustavus Simmons' game on a complete graph, for two or three players as in GBG): rules, bots and the
site's adapter. Pure Python but for the templates and static files that ``ui`` points to; see
``docs/games/sim.md``."""
from games.engine.api import InvalidParams, check_params

NAME = "sim"
DEFAULTS = {"nodes": 6, "players": 2, "coalition": "none"}
NODES = (4, 10)  # the range of ``nodes``
COALITIONS = ("none", "1-2")


def make_game(**params):
    from .rules import Sim
    params = check_params(NAME, params, DEFAULTS)
    low, high = NODES
    if not low <= params["nodes"] <= high:
        raise InvalidParams(f"{NAME}: nodes must be from {low} to {high}, got {params['nodes']}")
    if params["players"] not in (2, 3):
        raise InvalidParams(f"{NAME}: players must be 2 or 3, got {params['players']}")
    if params["coalition"] not in COALITIONS:
        raise InvalidParams(f"{NAME}: coalition must be 'none' or '1-2', got {params['coalition']!r}")
    if params["coalition"] == "1-2" and params["players"] != 3:
        raise InvalidParams(f"{NAME}: coalition '1-2' (white and blue against black) needs players=3")
    return Sim(**params)
