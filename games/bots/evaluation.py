"""What every search bot needs of a game: its evaluation module (the ``bots`` module of its package) and the
default time budget of each level. Apart from ``games.bots`` so that the bots import it, not their package."""
from __future__ import annotations

from games.engine import game_module

# Default time budget per move in seconds (wall clock), per level.
DEFAULT_SECONDS = {"random": 0.0, "greedy": 0.0, "strong": 1.0, "perfect": 1.0}


def get_evaluation(game_name: str):
    """The evaluation module of a game; KeyError if the game has none (only ``random`` can play it)."""
    module = game_module(game_name, "bots")
    if module is None:
        raise KeyError(f"no evaluation for game {game_name!r}; levels other than 'random' need one")
    return module
