"""Position analysis from a game's turn log: the functions the server runs in its worker pool for the
replay's "Analyse" (see ``games/read/analysis.py``). Module-level, JSON in and out, so they pickle for
``concurrent.futures.ProcessPoolExecutor`` (``pool.submit_call(analyse_positions, ...)``).

A game offers analysis when its ``bots`` module defines
``analyse(state, seconds, *, seen=None, actual=None) -> {"value", "strategies", ...}`` (RoPaSci 360: the
strong bot's equilibrium, :func:`games.bots.strong.analyse`). ``seen`` is what the bot would have observed
(``position_key`` -> times reached, this position included) and ``actual`` the actions played at the
position, when the log has them.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import game_module, load_game
from games.engine.api import CHANCE, RESIGN
from games.engine.history import apply_record

JSON = Any


def analyser(game_name: str):
    """The game's ``analyse`` function, or None if it has none."""
    module = game_module(game_name, "bots")
    return getattr(module, "analyse", None) if module is not None else None


def analyse_positions(game_name: str, params: dict | None, turns: list[dict], positions: list[int],
                      seconds: float) -> list[dict]:
    """The analysis of the position after ``n`` turns of ``turns`` (turn records) for each ``n`` of
    ``positions``, in that order; the log is folded once. Where the log has turn ``n + 1``, its actions are
    the ``actual`` ones of position ``n``."""
    game = load_game(game_name, **(params or {}))
    analyse = analyser(game_name)
    if analyse is None:
        raise ValueError(f"{game_name} has no analysis")
    module = game_module(game_name, "bots")
    key = getattr(module, "position_key", None)
    wanted = set(positions)
    if any(n < 0 or n > len(turns) for n in wanted):
        raise ValueError(f"positions must be 0..{len(turns)}")
    out: dict[int, dict] = {}
    seen: Counter = Counter()
    state = game.new_initial_state()
    last = max(wanted, default=-1)
    for n in range(last + 1):
        if key is not None:
            seen[key(state)] += 1
        if n in wanted:
            out[n] = analyse(state, seconds, seen=dict(seen), actual=actual_actions(game, turns, n))
        if n < len(turns) and n < last:
            apply_record(game, state, turns[n])
    return [out[n] for n in positions]


def actual_actions(game, turns: list[dict], n: int) -> dict | None:
    """The engine actions of turn ``n + 1`` (played at the position after ``n`` turns), or None."""
    if n >= len(turns) or CHANCE in turns[n] or RESIGN in turns[n]:
        return None
    return {seat: game.action_from_json(a, seat) for seat, a in turns[n].items()}
