"""The strong bot's view of a position, for the replay's analysis: the same depth-1 matrix game as
:meth:`games.bots.strong.StrongBot.choose`, at a fixed width instead of a clock, so that an analysis never
depends on the machine's speed."""
from __future__ import annotations

import numpy as np

from .evaluation import get_evaluation
from .strong import WIDTHS, StrongBot

# About the time of one matrix entry (RoPaSci 360, mid-game, the development machine, in Python): only to turn
# an analysis budget into a fixed width (:func:`width_for`).
ENTRY_SECONDS = 4e-5
SUPPORT = 1e-4  # strategies report actions played with at least this probability

def width_for(seconds: float) -> int:
    """The candidates per seat an analysis with a budget of ``seconds`` looks at: the widest of ``WIDTHS``
    whose matrix should take at most that long (at least the narrowest). A function of the budget alone."""
    fits = [w for w in WIDTHS if w * w * ENTRY_SECONDS <= seconds]
    return fits[-1] if fits else WIDTHS[0]


def analyse(game, state, *, width: int, seen=None, actual=None) -> dict:
    """The strong bot's view of ``state`` in a two-seat simultaneous ``game``: the same candidates, payoff
    matrix and equilibrium as :meth:`StrongBot.choose` (depth 1), over the first ``width`` candidates of
    each seat, with no clock and no random tie-breaks, so the same position, history and width always give
    the same answer. ``seen`` counts the positions reached so far (``position_key`` -> times, this one
    included), as the bot would have observed them; ``actual`` is the seat -> engine action played here, if
    known. Returns JSON-able data:

    * ``value``: the equilibrium value for the game's first seat, clipped to -1..1 (0 a draw);
    * ``strategies``: seat -> ``[[action JSON, probability], ...]`` (most likely first, at least ``SUPPORT``);
    * ``candidates`` (seat -> actions in the matrix), ``legal`` (seat -> legal actions), ``width``;
    * with ``actual``, ``actual``: seat -> ``{"action", "candidate" (in the matrix), "probability" (in the
      equilibrium), "value" (for that seat, against the other's equilibrium strategy), "gave_away" (the
      seat's equilibrium value minus that: 0 for an action in the support, more for a worse one)}``. An action
      outside the matrix is valued with the same payoff function against the other's strategy (it may even
      come out better than the equilibrium: a negative ``gave_away``, a good move the candidates missed).

    A finished position has its result as value and no strategies."""
    first = game.info.players[0]
    to_act = [s for s in game.info.players if s in state.players_to_act()]
    sign = 1.0
    if state.is_terminal() or not to_act:
        ev = get_evaluation(game.info.name)
        v = float(ev.value(state, first)) if state.is_terminal() else 0.0
        return {"value": _clean(max(-1.0, min(1.0, v))), "strategies": {}, "candidates": {}, "legal": {}, "width": width}
    row = to_act[0]
    bot = StrongBot(game, row, seconds=0.0)
    if row != first:
        sign = -1.0
    bot.seen.update(seen or {})
    A, B = bot.candidates(state)
    rows, x, y, M, cols = bot.matrix_game(state, A, B, (width,))
    v = float(x @ M @ y)
    col = bot.opp if B[0] is not None else None

    def strategy(actions, p):
        pairs = sorted(((float(p[k]), k) for k in range(len(p)) if p[k] >= SUPPORT), key=lambda t: (-t[0], t[1]))
        return [[game.action_to_json(actions[k]), round(q, 6)] for q, k in pairs]

    out = {
        "value": _clean(max(-1.0, min(1.0, sign * v))),
        "strategies": {row: strategy(A, x)},
        "candidates": {row: len(rows)},
        "legal": {row: len(state.legal_actions(row))},
        "width": width,
    }
    if col is not None:
        out["strategies"][col] = strategy(B, y)
        out["candidates"][col] = len(cols)
        out["legal"][col] = len(state.legal_actions(col))
    if actual:
        out["actual"] = {}
        if row in actual:
            a = actual[row]
            i = next((k for k in rows if A[k] == a), None)
            line = M[i] if i is not None else np.array([bot._leaf(bot._child(state, a, B[j])) for j in cols])
            va = float(line @ y)
            out["actual"][row] = {"action": game.action_to_json(a), "candidate": i is not None,
                                  "probability": round(float(x[i]), 6) if i is not None else 0.0,
                                  "value": _clean(va), "gave_away": _clean(v - va)}
        if col is not None and col in actual:
            b = actual[col]
            j = next((k for k in cols if B[k] == b), None)
            line = M[:, j] if j is not None else np.array([bot._leaf(bot._child(state, A[i], b)) for i in rows])
            vb = float(x @ line)
            out["actual"][col] = {"action": game.action_to_json(b), "candidate": j is not None,
                                  "probability": round(float(y[j]), 6) if j is not None else 0.0,
                                  "value": _clean(-vb), "gave_away": _clean(vb - v)}
    return out


def _clean(v: float) -> float:
    """Six decimals, and no -0.0 (what is reported; the search's own values are exact)."""
    return round(float(v), 6) + 0.0
