"""The strong bot: simultaneous-move search with mixed strategies.

Each turn:

1. Both seats' legal actions are ordered by the game's evaluation module (``candidates``): tactical actions
   first (captures, escapes of attacked tokens, the best throw of each symbol), then by greedy score.
2. Iterative widening (depth 1): a payoff matrix over the first ``w`` candidates of each seat, every entry
   the evaluation of the position after that joint action (applied on a clone by the engine, so captures,
   end conditions and repetition draws are exact), for growing ``w`` while time allows.
3. Optionally (``depth=2``, off by default: it measured weaker at 0.2 s per move), a second simultaneous
   stage: the entries of a sub-game, grown double-oracle style from the depth-1 equilibrium, are replaced by
   the value of a small matrix game one turn deeper (the child's own quick candidates, solved too).
4. The last completed matrix is solved for a mixed Nash equilibrium by linear programming (SciPy/HiGHS,
   :mod:`games.bots.nash`), and the action is sampled from the equilibrium strategy.

Positions the bot has already seen in this game are valued closer to a draw (a third occurrence is one),
so a bot that is ahead makes progress instead of repeating, and one that is behind welcomes repetition. A
draw can be valued below an even position (``CONTEMPT``, off: 0.05 measured weaker in self-play).
The time budget is wall-clock seconds per move (``seconds``, default 1 s), checked with
``time.perf_counter`` between matrix entries.
"""
from __future__ import annotations

import time
from collections import Counter

import numpy as np

from . import DEFAULT_SECONDS, get_evaluation
from .base import Bot
from .nash import saddle_point, solve

DEPTH = 1  # 2 adds the second simultaneous stage (measured weaker at 0.2 s per move, see docs/bots.md)
WIDTHS = (4, 6, 8, 11, 15, 20, 28, 40, 60, 90, 140)
INNER_WIDTH = 5  # candidates per seat in the second stage
REPEAT_FACTOR = 0.6  # a position seen once already is valued this much of the way from a draw
CONTEMPT = 0.0  # a draw is worth this much less than an even position (0.05 measured worse, see docs)
SHALLOW_SHARE = 0.35  # share of the budget for the depth-1 widening when a depth-2 stage follows
MARGIN = 0.9  # use this share of the budget, the rest is slack for the last entry and the LP


class OutOfTime(Exception):
    pass


class StrongBot(Bot):
    level = "strong"

    def __init__(self, game, seat, *, seed=None, seconds=None, depth=DEPTH):
        super().__init__(game, seat, seed=seed, seconds=DEFAULT_SECONDS["strong"] if seconds is None else seconds)
        self.ev = get_evaluation(game.info.name)
        self.opp = next(s for s in game.info.players if s != seat)
        self.depth = depth
        self.widths = WIDTHS
        self.shallow_share = SHALLOW_SHARE
        self.contempt = CONTEMPT
        self.seen: Counter = Counter()
        self._last_seen_turn = None
        self.stats: dict = {}

    # --- history ---------------------------------------------------------------------------------
    def observe(self, state) -> None:
        turn = getattr(state, "turn", None)
        if turn is not None and turn == self._last_seen_turn:
            return
        self._last_seen_turn = turn
        self.seen[self.ev.position_key(state)] += 1

    # --- search ----------------------------------------------------------------------------------
    def choose(self, state):
        start = time.perf_counter()
        self.observe(state)
        deadline = start + max(0.0, self.seconds) * MARGIN
        me, opp = self.seat, self.opp
        legal = list(state.legal_actions(me))
        if not legal:
            raise ValueError(f"{me} has no legal action (to act: {state.players_to_act()})")
        if len(legal) == 1:
            return legal[0]
        ev = self.ev
        A = ev.candidates(state, me, legal, rng=self.rng)
        B = ev.candidates(state, opp, rng=self.rng) if opp in state.players_to_act() else [None]
        self.stats = {"width": 0, "deep_width": 0, "entries": 0, "inner": 0}

        values: dict[tuple[int, int], float] = {}
        # With a second stage to come, depth 1 gets a share of the budget only.
        shallow_deadline = deadline if self.depth < 2 else start + (deadline - start) * self.shallow_share

        def child(i, j):
            # Recomputed rather than cached: cheap, and keeps memory small (clones carry the history).
            c = state.clone()
            c.apply_actions({me: A[i]} if B[j] is None else {me: A[i], opp: B[j]})
            return c

        def value1(i, j):
            v = values.get((i, j))
            if v is None:
                if time.perf_counter() > shallow_deadline:
                    raise OutOfTime
                v = self._leaf(child(i, j))
                values[(i, j)] = v
                self.stats["entries"] += 1
            return v

        best = None  # (row actions, x)
        # Depth 1, widening.
        for w in self.widths:
            m, n = min(w, len(A)), min(w, len(B))
            try:
                M = np.array([[value1(i, j) for j in range(n)] for i in range(m)])
            except OutOfTime:
                break
            x, y, v = solve(M)
            best = (list(range(m)), x, y, M, list(range(n)))
            self.stats["width"] = max(m, n)
            if m == len(A) and n == len(B):
                break
        if best is None:  # not even the smallest matrix: take the top candidate
            return A[0]

        # Depth 2 over a growing sub-game of the depth-1 game: start from both equilibrium supports and
        # the best replies to them, then add, each round, each side's best reply (by depth-1 values) to the
        # other's current depth-2 strategy, and the next candidate in order (a double-oracle style widening).
        if self.depth >= 2 and B[0] is not None:
            _, x1, y1, M1, _ = best
            m1, n1 = M1.shape
            row_pref = sorted(range(m1), key=lambda i: (-x1[i], i))
            col_pref = sorted(range(n1), key=lambda j: (-y1[j], j))
            R = [i for i in row_pref if x1[i] > 1e-3]
            C = [j for j in col_pref if y1[j] > 1e-3]
            for i in list(R):
                j = int(M1[i].argmin())
                if j not in C:
                    C.append(j)
            for j in list(C):
                i = int(M1[:, j].argmax())
                if i not in R:
                    R.append(i)
            for order, chosen in ((row_pref, R), (col_pref, C)):
                for k in order:
                    if len(chosen) >= min(3, len(order)):
                        break
                    if k not in chosen:
                        chosen.append(k)
            deep: dict[tuple[int, int], float] = {}
            hint_a, hint_b = A[:8], B[:8]
            while True:
                try:
                    M = np.empty((len(R), len(C)))
                    for a, i in enumerate(R):
                        for b, j in enumerate(C):
                            v = deep.get((i, j))
                            if v is None:
                                if time.perf_counter() > deadline:
                                    raise OutOfTime
                                v = self._inner(child(i, j), hint_a, hint_b, deadline)
                                deep[(i, j)] = v
                            M[a, b] = v
                except OutOfTime:
                    break
                x, y, v = solve(M)
                best = (R[:], x, y, M, C[:])
                self.stats["deep_width"] = max(len(R), len(C))
                grown = False
                j = int((x @ M1[R, :]).argmin())
                if j not in C:
                    C.append(j)
                    grown = True
                i = int((M1[:, C[:len(y)]] @ y).argmax())
                if i not in R:
                    R.append(i)
                    grown = True
                for order, chosen in ((row_pref, R), (col_pref, C)):
                    nxt = next((k for k in order if k not in chosen), None)
                    if nxt is not None:
                        chosen.append(nxt)
                        grown = True
                if not grown:
                    break

        rows, x = best[0], best[1]
        self.last = (A, B, best)  # the last search's candidates and solved matrix, for inspection
        p = np.where(x > 1e-3, x, 0.0)
        p = p / p.sum()
        k = self.rng.choices(range(len(rows)), weights=p.tolist())[0]
        self.stats["seconds"] = time.perf_counter() - start
        self.stats["support"] = int((p > 0).sum())
        return A[rows[k]]

    def _leaf(self, c) -> float:
        v = self.ev.value(c, self.seat)
        if c.is_terminal():
            return v if v else -self.contempt
        n = self.seen.get(self.ev.position_key(c), 0)
        if n:
            # Toward the value of a draw (the third occurrence is one).
            f = REPEAT_FACTOR ** n
            v = f * v - (1.0 - f) * self.contempt
        return v

    def _inner(self, c, hint_a, hint_b, deadline) -> float:
        """Value of a second simultaneous stage from position ``c``."""
        if c.is_terminal():
            return self._leaf(c)
        self.stats["inner"] += 1
        ev = self.ev
        me, opp = self.seat, self.opp
        A2 = ev.quick_candidates(c, me, hint_a, INNER_WIDTH)
        B2 = ev.quick_candidates(c, opp, hint_b, INNER_WIDTH)
        M = np.empty((len(A2), len(B2)))
        for i, a in enumerate(A2):
            if time.perf_counter() > deadline:
                raise OutOfTime
            for j, b in enumerate(B2):
                g = c.clone()
                g.apply_actions({me: a, opp: b})
                M[i, j] = self._leaf(g)
        sp = saddle_point(M)
        if sp is not None:
            return float(M[sp])
        return solve(M)[2]
