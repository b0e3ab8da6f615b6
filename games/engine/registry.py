"""The one list of games, and loading a game by name with its parameters.

Each entry of ``PACKAGES`` is a package that defines ``NAME`` and ``make_game(**params) -> Game``, and by
convention may have the modules ``bots`` (evaluation for the bot levels), ``logs`` (a log format) and ``ui``
(the site's adapter: board drawing, words, input). Packages are imported on first use, so that the kit
itself never imports a game.
"""
from __future__ import annotations

import importlib
import json
import threading
from types import ModuleType

from .api import Game, InvalidParams

PACKAGES = (
    "games.ropasci360",
    "games.expendibots",
    "games.cyclotron",
    "games.tic_tac_toe",
    "games.connect_four",
    "games.othello",
    "games.hex",
    "games.nim",
    "games.nim3p",
    "games.sim",
    "games.g2048",
    "games.rubiks_cube",
    "games.poker",
    "games.ropasci_puzzle",
)

_modules: dict[str, ModuleType] | None = None
_loaded: dict[tuple[str, str], Game] = {}
_lock = threading.Lock()


def _packages() -> dict[str, ModuleType]:
    global _modules
    if _modules is None:
        found = {}
        for path in PACKAGES:
            module = importlib.import_module(path)
            found[module.NAME] = module
        _modules = found
    return _modules


def registered_names() -> list[str]:
    return sorted(_packages())


def names_in_order() -> list[str]:
    """Registered names in the order of ``PACKAGES``."""
    return list(_packages())


def default_name() -> str:
    """The game offered first (the lobby's default, the API's when a request names none): the first entry of
    ``PACKAGES``."""
    return names_in_order()[0]


def course_games() -> list[str]:
    """The games whose package has a ``course`` module (COMP30024-style ``Player`` classes can play them), in
    the order of ``PACKAGES``."""
    return [name for name in names_in_order() if game_module(name, "course") is not None]


def game_module(name: str, part: str | None = None) -> ModuleType | None:
    """The package of game ``name`` (KeyError if unknown), or its module ``part`` (None if it has none)."""
    package = _packages().get(name)
    if package is None:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(registered_names())}")
    if part is None:
        return package
    try:
        return importlib.import_module(f"{package.__name__}.{part}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package.__name__}.{part}":
            return None
        raise


def load_game(name: str, **params) -> Game:
    """The game called ``name`` with ``params`` (the game's defaults for the rest). KeyError names the known
    games for an unknown name; InvalidParams says what is wrong with the parameters."""
    package = game_module(name)
    try:
        key = (name, json.dumps(params, sort_keys=True))
    except (TypeError, ValueError):
        raise InvalidParams(f"{name}: parameters must be JSON values") from None
    with _lock:
        game = _loaded.get(key)
    if game is None:
        game = package.make_game(**params)
        with _lock:
            if len(_loaded) > 512:  # parameters come from users: keep the cache bounded
                _loaded.clear()
            _loaded[key] = game
    return game
