"""Rules engines: pure Python, standard library only, never imports Django.

Games register themselves by short name; ``load_game("ropasci360")`` returns the game object whose
``new_initial_state()`` starts a game. See ``docs/engine.md``.
"""
from __future__ import annotations

from .api import Action, Game, GameInfo, IllegalAction, Result, State, Turn

_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry under ``game.info.name``."""
    _REGISTRY[game.info.name] = game
    return game


def load_game(name: str) -> Game:
    """The registered game called ``name``; KeyError names the known games otherwise."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def registered_names() -> list[str]:
    return sorted(_REGISTRY)


from . import ropasci360  # noqa: E402  (registers itself)

__all__ = ["Action", "Game", "GameInfo", "IllegalAction", "Result", "State", "Turn",
           "load_game", "register", "registered_names", "ropasci360"]
