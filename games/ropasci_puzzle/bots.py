"""Bots for the puzzle: ``perfect`` (and ``strong``, the same) play a shortest solution, solving once per
position and remembering the plan; ``random`` is the generic one (it chooses part by part,
so a token at a time).

The solver is exact but may need more than a move's time budget on the hardest positions: then the bot plays
the move whose position has the best lower bound (the solver's cheap estimate) and tries to solve again next
turn, when the puzzle is smaller.
"""
from __future__ import annotations

import math
import time

from games.bots.base import Bot
from games.ropasci360.rules import INDEX

from .rules import SEAT, TURN_LIMIT
from .solver import CODE, OutOfTime, Search, encode, solve

FALLBACK_ALL = 2000  # joint actions the fallback compares all of (three tokens have at most about 1,000)


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
            if turns is None:  # lost whatever Upper does: the first legal action
                return tuple(moves[0] for moves in state.token_moves())
            self.remember(state, turns)
        return self.plan[key]

    def remember(self, state, turns) -> None:
        sim = state.clone()
        for action in turns:
            self.plan[(sim.position, sim.turn)] = action
            sim.apply_actions({SEAT: action})

    def fallback(self, state):
        """The legal action leading to the position with the best (lowest) estimate: of all of them when they
        are few (the first on ties), else improving one token's move at a time from the first."""
        board, ups, lower = encode(state.position)
        search = Search(board)
        order = [CODE[s] << 6 | INDEX[h] for s, h in state.position.upper]

        def key(action):
            pairs = sorted(zip(order, (INDEX[b] for _, _, b in action)))
            new, nl = board.resolve(ups, lower, [d for _, d in pairs])
            return (0, 0, 0) if not nl else search.estimate(new, nl) if new else (float("inf"),)

        if math.prod(len(moves) for moves in state.token_moves()) <= FALLBACK_ALL:
            return min(state.legal_actions(SEAT), key=key)
        best = [moves[0] for moves in state.token_moves()]  # never the product: 9 tokens make millions
        best_key = key(best)
        improved = True
        while improved:
            improved = False
            for i, options in enumerate(state.token_moves()):
                for option in options:
                    trial = best[:i] + [option] + best[i + 1:]
                    trial_key = key(trial)
                    if trial_key < best_key:
                        best, best_key, improved = trial, trial_key, True
        return tuple(best)


def _factory(level: str):
    def make(game, seat, *, seed=None, seconds=None):
        bot = PlanBot(game, seat, seed=seed, seconds=seconds)
        bot.level = level
        return bot
    return make


BOTS = {"perfect": _factory("perfect"), "strong": _factory("strong")}


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the perfect bot plays a shortest solution from here (the solver,
    within ``seconds``, the bot's budget); its length sets the value (``games.bots.looks.distance_value``) and its
    first turn is the best move."""
    from games.bots.looks import playout_look
    from games.bots.review import review

    return review(state.game, state, playout_look(state.game, 0.05 if seconds is None else seconds, "perfect"),
                  actual)
