"""The analysis of a position of an alternating-move game by the game's best bot: the shared part of every such
game's ``analyse`` hook (``docs/bots.md``, "Analysis"). Pure Python, no Django.

A game gives a *look*: ``look(state, best) -> Look``, the values of a position for the seats it values (-1
lost .. 1 won) and, when ``best`` is asked and a seat is to act, that seat's best action (optionally every
option with its value for the mover, where the search valued them all). :func:`review` turns it into the
hook's answer: the value, the best move beside the move played, and what the played move gave away (the
mover's value after the best move minus its value after the played one, each looked at the same way).
"""
from __future__ import annotations

import math
from typing import Callable, NamedTuple


class Look(NamedTuple):
    values: dict  # seat -> value, -1 lost .. 1 won; a seat the position has no value for is left out
    best: object = None  # the mover's best engine action, when asked
    options: list | None = None  # [(engine action, value for the mover)]: every option, where the search has them
    after: float | None = None  # the mover's value after ``best`` (a search's own value); None: looked at
    note: str = ""  # the figure behind the value, in words ("12 moves to solve")


def squash(x: float, scale: float) -> float:
    """A score on the game's own scale as a value in -1..1 (``scale``: the score that counts as clearly
    ahead, about 0.76)."""
    return max(-1.0, min(1.0, math.tanh(x / scale)))


def clean(v: float) -> float:
    v = round(float(v), 6)
    return 0.0 if v == 0 else v


def result_values(game, state) -> dict:
    """A finished game's values: winners 1, the others -1, a draw 0; one seat: 1 if it won (a puzzle solved),
    else -1 (2048's locked board, a puzzle given up)."""
    res = state.result()
    players = list(game.info.players)
    if len(players) == 1:
        return {players[0]: 1.0 if res.winner == players[0] else -1.0}
    winners = res.winners
    return {s: (1.0 if s in winners else -1.0) if winners else 0.0 for s in players}


def zero_sum(game, seat: str, v: float) -> dict:
    """Two seats: ``seat``'s value and the other's, its opposite."""
    a, b = game.info.players
    return {seat: clean(v), (b if seat == a else a): clean(-v)}


def searched(win: float, scale: float) -> Callable[[float], float]:
    """A search score (``±win`` a won or lost game, fewer the plies to it) as a value in -1..1: wins ±1, the
    rest squashed by ``scale``."""
    def value(score: float) -> float:
        if abs(score) >= win - 1000:
            return 1.0 if score > 0 else -1.0
        return squash(score, scale)
    return value


def legal_count(state, seat: str) -> int:
    """How many legal actions ``seat`` has, without listing a product of parts (a puzzle's millions)."""
    parts = state.legal_action_parts(seat)
    return math.prod(len(p) for p in parts) if parts is not None else len(state.legal_actions(seat))


def value_of(game, state, look) -> dict:
    """Every valued seat's value of ``state``: the result if it is over, else the look's."""
    if state.is_terminal():
        return result_values(game, state)
    return {s: clean(v) for s, v in look(state, False).values.items()}


def review(game, state, look: Callable[..., Look], actual: dict | None = None) -> dict:
    """The hook's answer for ``state``: ``value`` (the first seat's, None if the position has none for it),
    ``values`` (seat -> -1..1), and where a seat is to act ``to_act``, ``best`` (seat -> action JSON),
    ``strategies`` (the best move alone, as the equilibrium games give their mixes), ``options`` (seat ->
    ``[[action JSON, value]]``, best first, where the search valued every option), ``note``; with ``actual``
    (seat -> engine action played here) ``actual``: seat -> ``{"action", "candidate" (it was the best),
    "probability", "value" (the mover's after it), "gave_away"}``, where the look values both moves."""
    players = list(game.info.players)
    base = {"strategies": {}, "candidates": {}, "legal": {}, "width": None}
    if state.is_terminal():
        values = result_values(game, state)
        return {"value": values.get(players[0]), "values": values, **base}
    movers = [] if state.is_chance_node() else list(state.players_to_act())
    here = look(state, bool(movers))
    values = {s: clean(v) for s, v in here.values.items()}
    out = {"value": values.get(players[0]), "values": values, **base, "note": here.note}
    if not movers or here.best is None:
        return out
    mover = movers[0]
    best = game.action_to_json(here.best)
    out.update(to_act=mover, best={mover: best}, strategies={mover: [[best, 1.0]]}, candidates={mover: 1},
               legal={mover: legal_count(state, mover)})
    options = None
    if here.options is not None:
        options = sorted(((game.action_to_json(a), clean(v)) for a, v in here.options), key=lambda t: -t[1])
        out["options"] = {mover: [list(t) for t in options]}
    if not actual or mover not in actual:
        return out
    played = game.action_to_json(actual[mover])

    def after(action, json_action) -> float | None:
        if options is not None:
            found = [v for a, v in options if a == json_action]
            if found:
                return found[0]
        child = state.clone()
        child.apply_action(mover, action)
        return value_of(game, child, look).get(mover)

    top = here.after if here.after is not None else after(here.best, best)
    got = top if played == best else after(actual[mover], played)
    if top is None or got is None:  # a move the look cannot value (poker's all in where the bot gave none)
        return out
    out["actual"] = {mover: {"action": played, "candidate": played == best,
                             "probability": 1.0 if played == best else 0.0, "value": clean(got),
                             "gave_away": clean(top - got)}}
    return out
