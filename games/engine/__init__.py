"""The game kit: the engine interface, the registry of game packages, and the one fold of a turn log.

Pure Python, standard library only, never imports Django. A game is a package under ``games/`` (see
``docs/architecture.md``, "Adding a game"); ``load_game("hex", size=9)`` returns its game object, whose
``new_initial_state()`` starts a game; a game whose seats take turns builds its state on ``SequentialState``.
See ``docs/engine.md``.
"""
from __future__ import annotations

from .api import (CHANCE, RESIGN, Action, Game, GameInfo, IllegalAction, InvalidParams, LogFormatError, ParsedLog,
                  Result, State, Turn, check_params)
from .registry import PACKAGES, game_module, load_game, registered_names
from .sequential import SequentialState

__all__ = ["CHANCE", "RESIGN", "Action", "Game", "GameInfo", "IllegalAction", "InvalidParams", "LogFormatError",
           "PACKAGES", "ParsedLog", "Result", "SequentialState", "State", "Turn", "check_params", "game_module",
           "load_game", "registered_names"]
