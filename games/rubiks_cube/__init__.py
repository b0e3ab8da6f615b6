"""Rubik's Cube (one player): rules, the two-phase solver bot and the site's adapter. Pure Python but for the
templates and static files that ``ui`` points to (the bot uses the ``kociemba`` package); see
``docs/games/rubiks_cube.md``."""
from games.engine.api import InvalidParams, check_params

NAME = "rubiks_cube"
DEFAULTS = {"scramble_moves": 25}
MIN_SCRAMBLE, MAX_SCRAMBLE = 0, 100


def make_game(**params):
    from .rules import RubiksCube
    params = check_params(NAME, params, DEFAULTS)
    if not MIN_SCRAMBLE <= params["scramble_moves"] <= MAX_SCRAMBLE:
        raise InvalidParams(f"{NAME}: scramble_moves must be from {MIN_SCRAMBLE} to {MAX_SCRAMBLE}, "
                            f"got {params['scramble_moves']}")
    return RubiksCube(params["scramble_moves"])
