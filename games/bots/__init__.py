"""Bots that play any game through the engine interface; pure Python, never imports Django.

Levels (``LEVELS``):

* ``random``: a uniformly random legal action; works for every engine game.
* ``greedy``: the action with the best immediate outcome by the game's evaluation, ignoring the replies.
* ``strong``: simultaneous-move search: a payoff matrix over pruned candidate actions of both seats, with a
  look-ahead evaluation, solved for a mixed Nash equilibrium by linear programming (SciPy/HiGHS), and a
  move sampled from the equilibrium strategy.

``make_bot(level, game, seat, seed=..., seconds=...)`` returns an object with ``choose(state) -> action``
(the engine's action form) and ``observe(state)`` (optional: shows the bot every position of the game, which
the strong bot uses to steer around repetitions). ``greedy`` and ``strong`` need a per-game evaluation module,
found by game name in ``EVALUATIONS`` (see :mod:`games.bots.ropasci360_eval` for the interface).
"""
from __future__ import annotations

import importlib

LEVELS = ("random", "greedy", "strong")

# Default time budget per move in seconds (wall clock), per level.
DEFAULT_SECONDS = {"random": 0.0, "greedy": 0.0, "strong": 1.0}

# game name -> module implementing evaluate / score_actions / candidates / position_key
EVALUATIONS = {"ropasci360": "games.bots.ropasci360_eval"}


def get_evaluation(game_name: str):
    """The evaluation module of a game; KeyError if the game has none (only ``random`` can play it)."""
    try:
        path = EVALUATIONS[game_name]
    except KeyError:
        raise KeyError(f"no evaluation for game {game_name!r}; levels other than 'random' need one "
                       f"(known: {', '.join(sorted(EVALUATIONS))})") from None
    return importlib.import_module(path)


def make_bot(level: str, game, seat: str, *, seed: int | None = None, seconds: float | None = None):
    """A bot of ``level`` playing ``seat`` in ``game`` (an engine Game object or its registered name)."""
    if isinstance(game, str):
        from games.engine import load_game
        game = load_game(game)
    if seat not in game.info.players:
        raise ValueError(f"unknown seat {seat!r} for {game.info.name} (seats: {', '.join(game.info.players)})")
    if level == "random":
        from .base import RandomBot
        return RandomBot(game, seat, seed=seed, seconds=seconds)
    if level == "greedy":
        from .greedy import GreedyBot
        return GreedyBot(game, seat, seed=seed, seconds=seconds)
    if level == "strong":
        from .strong import StrongBot
        return StrongBot(game, seat, seed=seed, seconds=seconds)
    raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")


__all__ = ["DEFAULT_SECONDS", "EVALUATIONS", "LEVELS", "get_evaluation", "make_bot"]
