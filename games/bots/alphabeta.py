"""The strong bot for alternating two-player zero-sum games: alpha-beta search through the engine interface.

Negamax alpha-beta with principal-variation (null-window) search, iterative deepening under a wall-clock
budget, a transposition table and move ordering (the table's move first, then killer moves, then the
evaluation's ``order_actions`` or, without it, the history heuristic). Pure Python, never imports Django.

The game's evaluation module (its package's ``bots``) provides:

* ``evaluate(state, seat) -> float``: static value from ``seat``'s point of view, zero-sum. Non-terminal
  values must stay well inside ``±(WIN - 1000)``; terminal positions are scored here from ``state.result()``.
* ``position_key(state)``: a hashable key of the position including the side to move (optional: without it
  the table is keyed by the state's JSON and the seat to act).
* ``order_actions(state, seat, actions) -> list``: optional, most promising first.
* ``WIN``: optional, 100000.0 by default.

A won game scores ``WIN - ply`` (a win sooner scores higher), a lost one ``-(WIN - ply)`` (a loss later scores
higher), a draw 0. The seat to act is ``players_to_act()[0]``; a seat may act twice in a row (the search
keeps track of whose point of view each value is from). Chance nodes, should a game have them, are averaged
over their outcomes without pruning. Only actions from ``legal_actions`` are ever applied, on clones.

``choose`` returns the best action of the last completed depth, or of the depth cut short by the budget when
that depth has already searched the previous best action (it goes first, so any action preferred to it is
better by a deeper search). Ties go to the earlier action of a root order shuffled by ``self.rng``, so a
seeded bot is reproducible (up to how far the clock lets it search). ``self.stats`` describes the last search.
"""
from __future__ import annotations

import json
import math
import time

from .evaluation import DEFAULT_SECONDS, get_evaluation
from .base import Bot

WIN = 100000.0
MATE_MARGIN = 1000.0  # values beyond WIN - MATE_MARGIN are wins (or losses) at a known distance in plies
INF = math.inf
EXACT, LOWER, UPPER = 0, 1, 2
SOLVED = 1 << 30  # table depth of a subtree searched to its end (its value holds at any depth)
MAX_DEPTH = 200
CHECK_EVERY = 64  # nodes between clock checks
TABLE_LIMIT = 200_000  # entries kept between moves; the table is cleared beyond this


class _Timeout(Exception):
    pass


class AlphaBetaBot(Bot):
    level = "strong"

    def __init__(self, game, seat, *, seed=None, seconds=None, evaluation=None, max_depth: int = MAX_DEPTH):
        super().__init__(game, seat, seed=seed, seconds=seconds)
        if game.info.simultaneous:
            raise ValueError(f"{game.info.name} is a simultaneous game; alpha-beta needs alternating moves")
        self.ev = evaluation if evaluation is not None else get_evaluation(game.info.name)
        self.budget = DEFAULT_SECONDS["strong"] if seconds is None else float(seconds)
        self.max_depth = max_depth
        self.win = float(getattr(self.ev, "WIN", WIN))
        self.mate = self.win - MATE_MARGIN
        self._evaluate = self.ev.evaluate
        self._key_fn = getattr(self.ev, "position_key", None)
        self._order_fn = getattr(self.ev, "order_actions", None)
        self.tt: dict = {}
        self.killers: dict[int, list] = {}
        self.history: dict = {}
        self.stats: dict = {}
        self._nodes = 0
        self._deadline = INF
        self._horizon = False

    # --- the search --------------------------------------------------------------------------------
    def choose(self, state):
        to_act = state.players_to_act()
        if self.seat not in to_act:
            raise ValueError(f"{self.seat} is not to act (to act: {', '.join(to_act) or 'none'})")
        actions = list(state.legal_actions(self.seat))
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {to_act})")
        started = time.perf_counter()
        self._deadline = started + max(0.0, self.budget)
        self._nodes = 0
        self.killers = {}
        self.history = {}
        if len(self.tt) > TABLE_LIMIT:
            self.tt.clear()
        self.stats = {"depth": 0, "nodes": 0, "value": None, "partial": False, "seconds": 0.0,
                      "actions": len(actions)}
        if len(actions) == 1:
            self.stats["seconds"] = time.perf_counter() - started
            return actions[0]

        self.rng.shuffle(actions)
        if self._order_fn is not None:
            actions = list(self._order_fn(state, self.seat, actions))
        entry = self.tt.get(self._key(state, self.seat))
        if entry is not None and entry[3] in actions:
            actions.remove(entry[3])
            actions.insert(0, entry[3])

        best, best_value = actions[0], None
        for depth in range(1, self.max_depth + 1):
            self._horizon = False
            self._root_best = None
            try:
                value, move = self._root(state, actions, depth)
            except _Timeout:
                partial = self._root_best
                if partial is not None:
                    best, best_value = partial[1], partial[0]
                    self.stats["partial"] = True
                break
            best, best_value = move, value
            self.stats["depth"] = depth
            actions.remove(move)
            actions.insert(0, move)
            if abs(value) >= self.mate or not self._horizon:
                break  # a forced result, or the whole game tree searched: deeper cannot change the choice
        self.stats.update(nodes=self._nodes, value=best_value, seconds=time.perf_counter() - started,
                          table=len(self.tt))
        return best

    def _root(self, state, actions, depth):
        """Search the root's actions (first one with a full window, the rest with null windows)."""
        seat = self.seat
        alpha = -INF
        best_value, best = -INF, None
        saved = self._horizon
        for i, action in enumerate(actions):
            child = state.clone()
            child.apply_action(seat, action)
            if i == 0:
                value = self._search(child, seat, depth - 1, -INF, INF, 1)
            else:
                value = self._search(child, seat, depth - 1, alpha, math.nextafter(alpha, INF), 1)
                if value > alpha:
                    value = self._search(child, seat, depth - 1, alpha, INF, 1)
            if value > best_value:
                best_value, best = value, action
                self._root_best = (value, action)
            if value > alpha:
                alpha = value
        solved = not self._horizon
        self._horizon = saved or self._horizon
        self._store(self._key(state, seat), SOLVED if solved else depth, best_value, EXACT, best, 0)
        return best_value, best

    def _search(self, state, persp, depth, alpha, beta, ply):
        """The value of ``state`` from ``persp``'s point of view, searched ``depth`` plies deep."""
        if state.is_terminal():
            return self._terminal(state, persp, ply)
        if state.is_chance_node():
            return self._chance(state, persp, depth, ply)
        if depth <= 0:
            self._horizon = True
            self._tick()
            return self._evaluate(state, persp)
        to_act = state.players_to_act()
        mover = to_act[0]
        if mover == persp:
            return self._negamax(state, mover, depth, alpha, beta, ply)
        return -self._negamax(state, mover, depth, -beta, -alpha, ply)

    def _negamax(self, state, mover, depth, alpha, beta, ply):
        """The value of ``state`` for ``mover``, the seat to act there (fail-soft)."""
        self._tick()
        key = self._key(state, mover)
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                value = self._from_table(e_value, ply)
                if e_depth < SOLVED:
                    self._horizon = True
                if e_flag == EXACT:
                    return value
                if e_flag == LOWER:
                    if value >= beta:
                        return value
                    if value > alpha:
                        alpha = value
                elif value <= alpha:
                    return value
                elif value < beta:
                    beta = value
        actions = list(state.legal_actions(mover))
        if not actions:  # not terminal, yet nothing to do: score it statically
            self._horizon = True
            return self._evaluate(state, mover)
        actions = self._order(state, mover, actions, tt_move, ply)

        alpha0 = alpha
        saved = self._horizon
        self._horizon = False
        best_value, best = -INF, actions[0]
        for i, action in enumerate(actions):
            child = state.clone()
            child.apply_action(mover, action)
            if i == 0:
                value = self._search(child, mover, depth - 1, alpha, beta, ply + 1)
            else:
                value = self._search(child, mover, depth - 1, alpha, math.nextafter(alpha, INF), ply + 1)
                if alpha < value < beta:
                    value = self._search(child, mover, depth - 1, alpha, beta, ply + 1)
            if value > best_value:
                best_value, best = value, action
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._cutoff(mover, action, depth, ply, tt_move)
                        break
        solved = not self._horizon
        self._horizon = saved or self._horizon
        flag = UPPER if best_value <= alpha0 else LOWER if best_value >= beta else EXACT
        self._store(key, SOLVED if solved else depth, best_value, flag, best, ply)
        return best_value

    def _chance(self, state, persp, depth, ply):
        total = 0.0
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply_chance(outcome)
            total += p * self._search(child, persp, depth, -INF, INF, ply)
        return total

    def _terminal(self, state, persp, ply):
        self._tick()
        res = state.result()
        winners = res.winners if res is not None else []
        if not winners:
            return 0.0
        return self.win - ply if persp in winners else -(self.win - ply)

    # --- helpers --------------------------------------------------------------------------------------
    def _tick(self):
        self._nodes += 1
        if self._nodes % CHECK_EVERY == 0 and time.perf_counter() >= self._deadline:
            raise _Timeout

    def _key(self, state, mover):
        if self._key_fn is not None:
            return self._key_fn(state)
        return (mover, json.dumps(state.to_json(), sort_keys=True, default=str))

    def _order(self, state, mover, actions, tt_move, ply):
        if self._order_fn is not None:
            actions = list(self._order_fn(state, mover, actions))
        elif self.history:
            history = self.history
            actions.sort(key=lambda a: -history.get((mover, a), 0))
        front = []
        if tt_move is not None:
            front.append(tt_move)
        for killer in self.killers.get(ply, ()):
            if killer != tt_move:
                front.append(killer)
        if front:
            present = [a for a in front if a in actions]
            if present:
                for a in present:
                    actions.remove(a)
                actions[:0] = present
        return actions

    def _cutoff(self, mover, action, depth, ply, tt_move):
        if action != tt_move:
            killers = self.killers.setdefault(ply, [])
            if action not in killers:
                killers.insert(0, action)
                del killers[2:]
        key = (mover, action)
        self.history[key] = self.history.get(key, 0) + depth * depth

    def _store(self, key, depth, value, flag, move, ply):
        self.tt[key] = (depth, self._to_table(value, ply), flag, move)

    def _to_table(self, value, ply):
        """Win/loss scores count plies from the root; the table keeps them counted from the node."""
        if value >= self.mate:
            return value + ply
        if value <= -self.mate:
            return value - ply
        return value

    def _from_table(self, value, ply):
        if value >= self.mate:
            return value - ply
        if value <= -self.mate:
            return value + ply
        return value
