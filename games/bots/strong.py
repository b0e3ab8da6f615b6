"""The strong bot: simultaneous-move search with mixed strategies.

Each turn:

1. Both seats' legal actions are ordered by the game's evaluation module (``candidates``): tactical actions
   first (captures, escapes of attacked tokens, the best throw of each symbol), then by greedy score.
2. Iterative widening (depth 1): a payoff matrix over the first ``w`` candidates of each seat, every entry
   the evaluation of the position after that joint action (applied on a clone by the engine, so captures,
   end conditions and repetition draws are exact), for growing ``w`` while time allows.
3. A second simultaneous stage (``depth=2``; the course adapter's, while the server's default ``depth=1`` stops
   at 2 and moves in milliseconds): the entries of a sub-game,
   grown double-oracle style from the depth-1 equilibrium, are replaced by the value of a matrix game one turn
   deeper (each side's first ``INNER_WIDTH`` candidates in the child, ordered as at the root, solved too).
4. The last completed matrix is solved for a mixed Nash equilibrium by linear programming (SciPy/HiGHS,
   :mod:`games.bots.nash`), and the action is sampled from the equilibrium strategy; with ``exploit`` (the course
   adapter's), from the equilibrium strategy that does best against an opponent favouring its first candidates,
   and with ``opp_ranks`` too, the strategy within ``EXPLOIT_TOL`` of the value that does best against the ranks
   this opponent's actions have had so far (``saw_opponent``).

Positions the bot has already seen in this game are valued closer to a draw (a third occurrence is one),
so a bot that is ahead makes progress instead of repeating, and one that is behind welcomes repetition. A
draw can be valued below an even position (``CONTEMPT``, off: 0.05 measured weaker in self-play); a draw by
repetition is valued a little below one (``REPEAT_CONTEMPT``), so an even game is not drawn by shuffling.
The time budget is seconds per move (``seconds``, default 1 s) on the bot's ``clock`` (wall time,
``time.perf_counter``; the course adapter sets CPU time), checked between matrix entries, or between blocks of
them when the game's evaluation fills matrices fast (its optional ``matrix_values``, e.g. a C core).

:func:`games.bots.matrixanalysis.analyse` reports the same depth-1 game at a position (both equilibrium strategies,
the value, what actual choices gave away) with a fixed width instead of a clock: the replay's analysis.
"""
from __future__ import annotations

import time
from collections import Counter

import numpy as np

from .evaluation import DEFAULT_SECONDS, get_evaluation
from .base import Bot
from .nash import refine, solve, value

DEPTH = 1  # 2 adds the second simultaneous stage: it spends the whole budget (the course adapter's choice)
WIDTHS = (4, 6, 8, 11, 15, 20, 28, 40, 60, 90, 140)
INNER_WIDTH = 24  # candidates per seat in the second stage (against the champion 16: 0.677, 24: 0.739; docs/bots.md)
REPEAT_FACTOR = 0.6  # a position seen once already is valued this much of the way from a draw
CONTEMPT = 0.0  # a draw is worth this much less than an even position (0.05 measured worse, see docs)
# A draw by repetition is worth this much less again: against a bot that shuffles back and forth, an even opening
# would otherwise end in a draw after a few turns (about a fifth of a throw's flexibility in evaluation terms).
REPEAT_CONTEMPT = 0.02
SHALLOW_SHARE = 0.35  # share of the budget for the depth-1 widening when a depth-2 stage follows
# Among equilibria, play one that also does best against an opponent favouring its first candidates (a column
# weighted 1 / (1 + its rank)): the same guarantee, more taken from an opponent that is not at equilibrium. On in
# the course adapter's Player (measured there, docs/bots.md), off on the server.
EXPLOIT = False
# With ``opp_ranks`` (a Counter: the course adapter's Player keeps one), those column weights are learnt during the
# game: PRIOR_COUNT moves' worth of the 1 / (1 + rank) shape plus the ranks the opponent's actual actions had among
# its candidates; and the strategy may then give up EXPLOIT_TOL of the guaranteed value to take more from it.
PRIOR_COUNT = 4.0
EXPLOIT_TOL = 0.03
MARGIN = 0.9  # use this share of the budget, the rest is slack for the last entry and the LP
FAST_BLOCK = 256  # matrix entries per call of a fast (C) filler between clock checks


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
        self.exploit = EXPLOIT
        self.inner_width = INNER_WIDTH
        self.contempt = CONTEMPT
        self.repeat_contempt = REPEAT_CONTEMPT
        self.clock = time.perf_counter  # the budget's clock: wall time; the course adapter counts CPU time
        self.seen: Counter = Counter()
        self._last_seen_turn = None
        self.stats: dict = {}
        self.opp_ranks: Counter | None = None  # the ranks of the opponent's actions among its candidates
        self._searched = None  # (turn, the opponent's candidates) of the last search

    # --- history ---------------------------------------------------------------------------------
    def observe(self, state) -> None:
        turn = getattr(state, "turn", None)
        if turn is not None and turn == self._last_seen_turn:
            return
        self._last_seen_turn = turn
        self.seen[self.ev.position_key(state)] += 1

    def saw_opponent(self, turn, action) -> None:
        """The opponent played ``action`` on ``turn``: count its rank among the candidates of that turn's search."""
        if self.opp_ranks is None or self._searched is None or self._searched[0] != turn:
            return
        B, self._searched = self._searched[1], None  # once a turn
        if action in B:
            self.opp_ranks[B.index(action)] += 1

    # --- search ----------------------------------------------------------------------------------
    def choose(self, state):
        start = self.clock()
        self.observe(state)
        deadline = start + max(0.0, self.seconds) * MARGIN
        me = self.seat
        legal = list(state.legal_actions(me))
        if not legal:
            raise ValueError(f"{me} has no legal action (to act: {state.players_to_act()})")
        if len(legal) == 1:
            return legal[0]
        A, B = self.candidates(state, legal, rng=self.rng)
        self._searched = (state.turn, B)
        self.stats = {"width": 0, "deep_width": 0, "entries": 0, "inner": 0}

        # With a second stage to come, depth 1 gets a share of the budget only.
        shallow_deadline = deadline if self.depth < 2 else start + (deadline - start) * self.shallow_share

        def child(i, j):
            return self._child(state, A[i], B[j])

        best = self.matrix_game(state, A, B, self.widths, shallow_deadline)  # depth 1, widening
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
            while True:
                try:
                    M = np.empty((len(R), len(C)))
                    for a, i in enumerate(R):
                        for b, j in enumerate(C):
                            v = deep.get((i, j))
                            if v is None:
                                if self.clock() > deadline:
                                    raise OutOfTime
                                v = self._inner(child(i, j), deadline)
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

        if self.exploit and B[0] is not None:
            rows, x, y, M, cols = best
            q = 1.0 / (1.0 + np.array(cols, dtype=float))
            tol = 1e-7
            if self.opp_ranks is not None:
                q = PRIOR_COUNT * q / q.sum() + np.array([self.opp_ranks.get(c, 0) for c in cols], dtype=float)
                tol = EXPLOIT_TOL
            better = refine(M, q / q.sum(), float((x @ M).min()), tol)
            if better is not None:
                best = (rows, better, y, M, cols)
        rows, x = best[0], best[1]
        self.last = (A, B, best)  # the last search's candidates and solved matrix (the strategy played), for inspection
        p = np.where(x > 1e-3, x, 0.0)
        p = p / p.sum()
        k = self.rng.choices(range(len(rows)), weights=p.tolist())[0]
        self.stats["seconds"] = self.clock() - start
        self.stats["support"] = int((p > 0).sum())
        return A[rows[k]]

    def candidates(self, state, legal=None, *, rng=None) -> tuple[list, list]:
        """Both seats' candidate actions, most promising first (the opponent's is ``[None]`` when it is not
        to act); ``rng`` breaks ties between equal scores (None: by the order of the legal actions)."""
        A = self.ev.candidates(state, self.seat, legal, rng=rng)
        B = self.ev.candidates(state, self.opp, rng=rng) if self.opp in state.players_to_act() else [None]
        return A, B

    def _child(self, state, a, b):
        # Recomputed rather than cached: cheap, and keeps memory small (clones carry the history).
        c = state.clone()
        c.apply_actions({self.seat: a} if b is None else {self.seat: a, self.opp: b})
        return c

    def matrix_game(self, state, A, B, widths, deadline: float | None = None):
        """The depth-1 game: the payoff matrix over the first ``w`` candidates of each seat (``A`` rows, ``B``
        columns; each entry ``_leaf`` of the position after that joint action), solved for each ``w`` of
        ``widths`` in turn while ``deadline`` (``time.perf_counter``; None: none) allows. Returns the last
        solved ``(rows, x, y, M, cols)``, or None if not even the first matrix was completed.

        With the evaluation's fast filler (a C core), entries are cheap next to the LP: only the widest
        completed matrix is solved, and a width that the entries' measured pace says cannot be completed
        in time is not started."""
        self.stats.setdefault("entries", 0)
        fill = self._fast_matrix(state, A, B)
        pace = [0.0, 0]  # the fast filler's seconds and entries so far
        if fill is None:
            def block(i0, i1, j0, j1):
                for i in range(i0, i1):
                    for j in range(j0, j1):
                        if deadline is not None and self.clock() > deadline:
                            raise OutOfTime
                        V[i, j] = self._leaf(self._child(state, A[i], B[j]))
                        self.stats["entries"] += 1
        else:  # the clock is checked between blocks of about FAST_BLOCK entries
            def block(i0, i1, j0, j1):
                step = max(1, FAST_BLOCK // (j1 - j0))
                for i in range(i0, i1, step):
                    now = self.clock()
                    if deadline is not None and now > deadline:
                        raise OutOfTime
                    k = min(i1, i + step)
                    fill(V, i, k, j0, j1)
                    pace[0] += self.clock() - now
                    pace[1] += (k - i) * (j1 - j0)
                    self.stats["entries"] += (k - i) * (j1 - j0)

        def solved(m, n):
            M = V[:m, :n].copy()
            x, y, v = solve(M)
            self.stats["width"] = max(m, n)
            return list(range(m)), x, y, M, list(range(n))

        # V[:done_m, :done_n] holds the entries so far; each wider matrix adds its new columns, then rows.
        V = np.empty((min(max(widths), len(A)), min(max(widths), len(B))))
        done_m = done_n = 0
        best = None
        for w in widths:
            m, n = min(w, len(A)), min(w, len(B))
            if (fill is not None and deadline is not None and pace[1]
                    and self.clock() + (m * n - done_m * done_n) * pace[0] / pace[1] > deadline):
                break
            try:
                if n > done_n:
                    block(0, done_m, done_n, n)
                block(done_m, m, 0, n)
            except OutOfTime:
                break
            done_m, done_n = m, n
            if fill is None:
                best = solved(m, n)
            if m == len(A) and n == len(B):
                break
        if fill is not None and done_m:
            best = solved(done_m, done_n)
        return best

    def _fast_matrix(self, state, A, B):
        """The evaluation's fast filler of this payoff matrix (``fill(out, i0, i1, j0, j1)``: the entries
        ``_leaf(_child(state, A[i], B[j]))`` of those rows and columns), or None: the entries are computed here."""
        hook = getattr(self.ev, "matrix_values", None)
        if hook is None or B[0] is None:
            return None
        return hook(state, self.seat, A, B, self.seen, contempt=self.contempt,
                    repeat_contempt=self.repeat_contempt, repeat_factor=REPEAT_FACTOR)

    def _leaf(self, c) -> float:
        v = self.ev.value(c, self.seat)
        terminal = c.is_terminal()
        if terminal and v:
            return v
        n = self.seen.get(self.ev.position_key(c), 0)
        if terminal:  # a draw; one by repetition (seen twice before) costs the repetition contempt too
            return -self.contempt - (self.repeat_contempt if n >= 2 else 0.0)
        if n:
            # Toward the value of a draw by repetition (the third occurrence is one).
            f = REPEAT_FACTOR ** n
            v = f * v - (1.0 - f) * (self.contempt + self.repeat_contempt)
        return v

    def _inner(self, c, deadline) -> float:
        """Value of a second simultaneous stage from position ``c``."""
        if c.is_terminal():
            return self._leaf(c)
        self.stats["inner"] += 1
        ev = self.ev
        me, opp = self.seat, self.opp
        A2 = ev.candidates(c, me)[:self.inner_width]
        B2 = ev.candidates(c, opp)[:self.inner_width]
        M = np.empty((len(A2), len(B2)))
        fill = self._fast_matrix(c, A2, B2)
        if fill is not None:
            if self.clock() > deadline:
                raise OutOfTime
            fill(M, 0, len(A2), 0, len(B2))
        else:
            for i, a in enumerate(A2):
                if self.clock() > deadline:
                    raise OutOfTime
                for j, b in enumerate(B2):
                    g = c.clone()
                    g.apply_actions({me: a, opp: b})
                    M[i, j] = self._leaf(g)
        return value(M)
