"""Nim (two players, the last taker wins; GBG's rules): rules, bots and the site's adapter. Pure Python but for
the templates and static files that ``ui`` points to; see ``docs/games/nim.md``."""
from games.engine.api import InvalidParams, check_params

NAME = "nim"
DEFAULTS = {"heaps": 3, "size": 5, "max_take": 3}
LIMITS = {"heaps": (1, 10), "size": (1, 20), "max_take": (1, 20)}


def check_ranges(name: str, params: dict, limits: dict) -> None:
    """InvalidParams unless every integer parameter named in ``limits`` lies in its range (shared by nim3p)."""
    for key, (low, high) in limits.items():
        if not low <= params[key] <= high:
            raise InvalidParams(f"{name}: {key} must be from {low} to {high}, got {params[key]}")


def make_game(**params):
    from .rules import Nim
    params = check_params(NAME, params, DEFAULTS)
    check_ranges(NAME, params, LIMITS)
    return Nim(**params)
