"""Bots for the puzzle: ``perfect`` (and ``strong``, the same) play a shortest solution, solving once per
position and remembering the plan; ``random`` is the generic one.

The solver is exact but may need more than a move's time budget on the hardest positions: then the bot plays
the move whose position has the best lower bound (the solver's cheap estimate) and tries to solve again next
turn, when the puzzle is smaller.
"""
from __future__ import annotations

import time

from games.bots.base import Bot
from games.ropasci360.rules import INDEX

from .rules import SEAT, TURN_LIMIT
from .solver import CODE, OutOfTime, Search, encode, solve


class PlanBot(Bot):
    level = "perfect"

    def __init__(self, game, seat: str, *, seed: int | None = None, seconds: float | None = None):
        super().__init__(game, seat, seed=seed, seconds=seconds)
        self.plan: dict = {}  # (position, turn) -> the planned action there

    def choose(self, state):
        key = (state.position, state.turn)
        if key not in self.plan:
            budget = 1.0 if self.seconds is None else self.seconds
            try:
                turns = solve(state.position, max_turns=TURN_LIMIT - state.turn,
                              deadline=time.perf_counter() + budget)
            except OutOfTime:
                return self.fallback(state)
            if turns is None:  # lost whatever Upper does
                return state.legal_actions(SEAT)[0]
            self.remember(state, turns)
        return self.plan[key]

    def remember(self, state, turns) -> None:
        sim = state.clone()
        for action in turns:
            self.plan[(sim.position, sim.turn)] = action
            sim.apply_actions({SEAT: action})

    def fallback(self, state):
        """The legal action leading to the position with the best (lowest) estimate; the first on ties."""
        board, ups, lower = encode(state.position)
        search = Search(board)
        order = [CODE[s] << 6 | INDEX[h] for s, h in state.position.upper]
        best, best_key = None, None
        for action in state.legal_actions(SEAT):
            pairs = sorted(zip(order, (INDEX[b] for _, _, b in action)))
            new, nl = board.resolve(ups, lower, [d for _, d in pairs])
            key = (0, 0, 0) if not nl else search.estimate(new, nl) if new else (float("inf"),)
            if best_key is None or key < best_key:
                best, best_key = action, key
        return best


def _factory(level: str):
    def make(game, seat, *, seed=None, seconds=None):
        bot = PlanBot(game, seat, seed=seed, seconds=seconds)
        bot.level = level
        return bot
    return make


BOTS = {"perfect": _factory("perfect"), "strong": _factory("strong")}
