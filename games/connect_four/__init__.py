"""Connect Four: rules, the bitboard search bot and the site's adapter. Pure Python but for the templates and
static files that ``ui`` points to; see ``docs/games/connect_four.md``."""
from games.engine.api import check_params

NAME = "connect_four"


def make_game(**params):
    from .rules import GAME
    check_params(NAME, params, {})
    return GAME
