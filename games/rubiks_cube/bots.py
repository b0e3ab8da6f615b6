"""The Rubik's Cube ``strong`` bot: Kociemba's two-phase algorithm (the ``kociemba`` package, in C), played
out one move at a time.

The state's stickers are already in the package's input format (Kociemba's facelet order, each sticker the
letter of its colour's face). A solution is a plan of moves; the plan is kept in a module-level table keyed
by the stickers it expects next, so that the server, which builds a new bot for every move in a worker
process, solves each cube once and then only reads the table; a position not in the table (the player
changed course) is solved afresh. Solutions have at most ``MAX_SOLUTION`` moves (about 20 in practice) and
take milliseconds. There is no ``evaluate``, so no ``greedy`` level: ``BOTS`` offers ``strong`` alone.
"""
from __future__ import annotations

import time

import kociemba

from games.bots.base import Bot

from .rules import MOVES, SOURCE, turn

MAX_SOLUTION = 24  # the package's default depth limit (two-phase solutions are seldom over 22 moves)
PLANS_KEPT = 4096  # entries of the plan table before it is cleared

_plans: dict[str, tuple[str, ...]] = {}  # stickers -> the rest of a plan that solves them


def solve(facelets: str) -> tuple[str, ...]:
    """A solution of the cube ``facelets`` as moves; ValueError for a cube that cannot be solved."""
    moves = tuple(kociemba.solve(facelets, max_depth=MAX_SOLUTION).split())
    if any(m not in SOURCE for m in moves):
        raise ValueError(f"unexpected solver output: {' '.join(moves)}")
    return moves


class SolverBot(Bot):
    """Plays Kociemba's solution move by move (see the module docstring). ``stats``: the planned solution's
    length and the solver's time (0 when the plan came from the table)."""

    level = "strong"

    def choose(self, state):
        legal = state.legal_actions(self.seat)
        if not legal:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        facelets = state.facelets
        plan = _plans.get(facelets)
        started = time.perf_counter()
        if plan is None:
            try:
                plan = solve(facelets)
            except ValueError:  # not a cube the solver accepts (a hand-made state): any move will do
                plan = (MOVES[self.rng.randrange(len(MOVES))],)
            if len(_plans) >= PLANS_KEPT:
                _plans.clear()
        self.stats = {"plan": len(plan), "seconds": time.perf_counter() - started}
        move = plan[0]
        if plan[1:]:
            _plans[turn(facelets, move)] = plan[1:]
        return move


BOTS = {"strong": SolverBot}


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the solver's distance. The strong bot plays Kociemba's
    solution from here; its length sets the value (``games.bots.looks.distance_value``: solved 1, 15 moves
    to go 0) and its first move is the best one. The scramble (chance) is not valued."""
    from games.bots.looks import playout_look
    from games.bots.review import review

    return review(state.game, state, playout_look(state.game, 0.05 if seconds is None else seconds, "strong"),
                  actual)
