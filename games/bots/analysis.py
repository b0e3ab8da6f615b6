"""Position analysis from a game's turn log: the functions the server runs in its worker pool for the
replay's analysis (see ``games/read/analysis.py``). Module-level, JSON in and out, so they pickle for
``concurrent.futures.ProcessPoolExecutor`` (``pool.submit_call(analyse_positions, ...)``).

A game's ``bots`` module defines ``analyse(state, seconds, *, seen=None, actual=None) -> {"value",
"strategies", ...}`` (RoPaSci 360: the strong bot's equilibrium, :func:`games.bots.matrixanalysis.analyse`; the games
that take turns: their best bot through :func:`games.bots.review.review`); a game without one gets
:func:`games.bots.looks.fallback`. ``seen`` is what the bot would have observed (``position_key`` -> times
reached, this position included) and ``actual`` the actions played at the position, when the log has them. A
hidden-information game's ``analyse`` also gets ``later``: the public events of every turn after the position,
so that it can keep to itself the analysis of a decision whose private information the game never showed.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import game_module, load_game
from games.engine.api import CHANCE, RESIGN
from games.engine.history import apply_record

JSON = Any


def analyser(game_name: str):
    """The game's own ``analyse`` function, or None if it has none (then the fallback analyses it)."""
    module = game_module(game_name, "bots")
    return getattr(module, "analyse", None) if module is not None else None


def analyse_one(game, state, seconds: float, **hints) -> dict:
    """One position's analysis, by the game's ``analyse`` or the fallback, with ``values`` (seat -> -1..1)
    filled in from ``value`` for a two-seat game whose hook gives only that, and ``best`` (seat -> the most
    likely action) from ``strategies`` where the hook gives no ``best``; a played move's value clipped to
    -1..1."""
    own = analyser(game.info.name)
    if own is None:
        from .looks import fallback
        result = fallback(game, state, seconds, hints.get("actual"))
    else:
        if game.info.perfect_information:
            hints.pop("later", None)
        result = own(state, seconds, **hints)
    for actual in (result.get("actual") or {}).values():  # RoPaSci 360's win is valued a little over 1
        actual["value"] = max(-1.0, min(1.0, actual["value"]))
    if "best" not in result:
        result["best"] = {seat: s[0][0] for seat, s in result.get("strategies", {}).items() if s}
    if "values" not in result:
        players = game.info.players
        v = result.get("value")
        result["values"] = {} if v is None else {players[0]: v, players[-1]: -v} if len(players) == 2 else \
            {players[0]: v}
    return result


def analyse_positions(game_name: str, params: dict | None, turns: list[dict], positions: list[int],
                      seconds: float) -> list[dict]:
    """The analysis of the position after ``n`` turns of ``turns`` (turn records) for each ``n`` of
    ``positions``, in that order; the log is folded once. Where the log has turn ``n + 1``, its actions are
    the ``actual`` ones of position ``n``. A hidden-information game needs the whole log (``later``)."""
    game = load_game(game_name, **(params or {}))
    module = game_module(game_name, "bots")
    key = getattr(module, "position_key", None)
    hidden = not game.info.perfect_information
    wanted = set(positions)
    if any(n < 0 or n > len(turns) for n in wanted):
        raise ValueError(f"positions must be 0..{len(turns)}")
    out: dict[int, dict] = {}
    seen: Counter = Counter()
    state = game.new_initial_state()
    last = max(wanted, default=-1)
    waiting: dict[int, Any] = {}  # hidden information: positions whose later events are still being read
    events: list[list] = []
    for n in range(len(turns) + 1 if hidden else last + 1):
        if key is not None:
            seen[key(state)] += 1
        if n in wanted:
            if hidden:
                waiting[n] = state.clone()
            else:
                out[n] = analyse_one(game, state, seconds, seen=dict(seen), actual=actual_actions(game, turns, n))
        if n < len(turns) and (n < last or hidden):
            events.append(list(apply_record(game, state, turns[n]).events or []))
    for n, at in waiting.items():
        out[n] = analyse_one(game, at, seconds, seen=None, actual=actual_actions(game, turns, n), later=events[n:])
    return [out[n] for n in positions]


def actual_actions(game, turns: list[dict], n: int) -> dict | None:
    """The engine actions of turn ``n + 1`` (played at the position after ``n`` turns), or None."""
    if n >= len(turns) or CHANCE in turns[n] or RESIGN in turns[n]:
        return None
    return {seat: game.action_from_json(a, seat) for seat, a in turns[n].items()}
