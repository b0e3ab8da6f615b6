"""Poker (GBG's Texas hold'em sit-and-go: the last player with chips wins): rules with hidden cards and chance,
bots and the site's adapter. Pure Python but for the templates and static files that ``ui`` points to; see
``docs/games/poker.md``."""
from games.engine.api import InvalidParams, check_params

NAME = "poker"
DEFAULTS = {"players": 6, "chips": 1000, "big_blind": 20}
LIMITS = {"players": (2, 10), "chips": (2, 10**7), "big_blind": (2, 10**6)}


def make_game(**params):
    from .rules import Poker
    params = check_params(NAME, params, DEFAULTS)
    for key, (lo, hi) in LIMITS.items():
        if not lo <= params[key] <= hi:
            raise InvalidParams(f"{NAME}: {key} must be from {lo} to {hi}, got {params[key]}")
    if params["big_blind"] % 2:
        raise InvalidParams(f"{NAME}: big_blind must be even (the small blind is half of it)")
    if params["chips"] < params["big_blind"]:
        raise InvalidParams(f"{NAME}: chips ({params['chips']}) must be at least the big blind")
    return Poker(**params)
