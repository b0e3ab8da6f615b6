"""One bot move from a game's turn log: the function the server runs in its worker pool.

``choose_action`` is module-level and takes and returns only JSON-able values, so it pickles for
``concurrent.futures.ProcessPoolExecutor`` (see :mod:`games.bots.pool`).
"""
from __future__ import annotations

from typing import Any

from games.engine import load_game

from . import make_bot

JSON = Any


def replay(game_name: str, turns: list[dict], observer=None):
    """The state after replaying ``turns`` from the initial position (``observer(state)`` sees every position).

    Each turn is a dict seat -> action in canonical JSON, or a dict with such a dict under ``"actions"``
    (the HTTP API's turn records). Replaying, rather than loading a snapshot, keeps the repetition history exact.
    """
    game = load_game(game_name)
    state = game.new_initial_state()
    if observer:
        observer(state)
    for turn in turns:
        actions = turn.get("actions", turn) if isinstance(turn, dict) else turn
        state.apply_actions({seat: game.action_from_json(a, seat) for seat, a in actions.items()})
        if observer:
            observer(state)
    return state


def choose_action(game_name: str, turns: list[dict], seat: str, level: str,
                  seconds: float | None = None, seed: int | None = None) -> JSON:
    """The ``level`` bot's action for ``seat`` after ``turns``, in canonical JSON."""
    game = load_game(game_name)
    bot = make_bot(level, game, seat, seed=seed, seconds=seconds)
    state = replay(game_name, turns, observer=bot.observe)
    if state.is_terminal():
        raise ValueError(f"the game is over ({state.result().text})")
    if seat not in state.players_to_act():
        raise ValueError(f"{seat} is not to act (to act: {', '.join(state.players_to_act()) or 'none'})")
    return game.action_to_json(bot.choose(state))
