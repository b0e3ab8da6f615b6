"""Othello (Reversi) on the 8x8 board: rules, the bots' bitboard search and the site's adapter.
Pure Python but for the templates and static files that ``ui`` points to; see ``docs/games/othello.md``."""
from games.engine.api import check_params

NAME = "othello"


def make_game(**params):
    from .rules import GAME
    check_params(NAME, params, {})
    return GAME
