"""RoPaSci 360, single player: the course's first project as a puzzle game, with an optimal solver
(``solver.solve``), the bots that play its solutions and the site's adapter. Pure Python but for the templates
and static files that ``ui`` points to; see ``docs/games/ropasci_puzzle.md`` and ``docs/puzzles.md``."""
from games.engine.api import InvalidParams, check_params

from .position import EXAMPLE, PositionError, parse_position

NAME = "ropasci_puzzle"
DEFAULTS = {"position": EXAMPLE}


def make_game(**params):
    from .rules import RoPaSciPuzzle
    params = check_params(NAME, params, DEFAULTS)
    try:
        position = parse_position(params["position"])
    except PositionError as exc:
        raise InvalidParams(f"{NAME}: parameter 'position': {exc}") from None
    return RoPaSciPuzzle(position)
