"""One bot move from a game's turn log: the function the server runs in its worker pool.

``choose_action`` is module-level and takes and returns only JSON-able values, so it pickles for
``concurrent.futures.ProcessPoolExecutor`` (see :mod:`games.bots.pool`).
"""
from __future__ import annotations

from typing import Any

from games.engine import load_game
from games.engine.history import fold

from . import make_bot

JSON = Any


def records(turns: list) -> list[dict]:
    """Turn records (seat -> canonical JSON action), also from the HTTP API's turn objects (``"actions"``)."""
    return [t.get("actions", t) if isinstance(t, dict) and isinstance(t.get("actions"), dict) else t for t in turns]


def replay(game_name: str, turns: list, observer=None, params: dict | None = None):
    """The state after ``turns`` from the initial position (``observer(state)`` sees every position).
    Replaying, rather than loading a snapshot, keeps history-dependent rules (repetitions) exact."""
    return fold(load_game(game_name, **(params or {})), records(turns), observer=observer)


def choose_action(game_name: str, turns: list[dict], seat: str, level: str,
                  seconds: float | None = None, seed: int | None = None, params: dict | None = None) -> JSON:
    """The ``level`` bot's action for ``seat`` after ``turns``, in canonical JSON."""
    game = load_game(game_name, **(params or {}))
    bot = make_bot(level, game, seat, seed=seed, seconds=seconds)
    state = fold(game, records(turns), observer=bot.observe)
    if state.is_terminal():
        raise ValueError(f"the game is over ({state.result().text})")
    if seat not in state.players_to_act():
        raise ValueError(f"{seat} is not to act (to act: {', '.join(state.players_to_act()) or 'none'})")
    return game.action_to_json(bot.choose(state))
