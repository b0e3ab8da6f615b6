"""2048 (GBG's one-player sliding-tile game): rules, the expectimax bot and the site's adapter. Pure Python but
for the templates and static files that ``ui`` points to; see ``docs/games/2048.md``. The package cannot be
called ``2048`` (not a Python name), so it is ``g2048`` and registers the name ``NAME``."""
from games.engine.api import check_params

NAME = "2048"


def make_game(**params):
    from .rules import GAME
    check_params(NAME, params, {})
    return GAME
