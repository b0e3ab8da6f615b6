"""The search of three workers with one carried as a set (``docs/puzzles.md``, "Three workers: one carried as a
set").

When three Upper tokens of three classes all have targets (the course's hardest positions: `far`, `split`,
`walls`), the joint search multiplies every path of two of them by the few states the third can be in: on
`far-3x9-73` the 46,467 joint positions that refute 12 turns hold about 5,000 different (turns left, two tokens'
hexes, targets left). So from such a position on, the search goes over the moves of two tokens (*tracked*) and
carries the third (``W``) as the set of its placements those moves leave possible. W must be alone in its class (its
targets are its own), so where two of the three workers share a class, those two are tracked (a child's relaxation
starts from the sets of the token that arrived there: ``arrivals``) and W has up to ``CARRY_TARGETS``
targets. A set maps W's targets still
left (bits over ``board.targets[cw]``) to the mask of W's hexes on the relaxation's grid (``GBIT``: W fell after
its last target). The tracked tokens stay tracked to the end, with work or without; a tracked move's battles with
W and the Lower tokens are resolved placement by placement where they can happen, and may send placements to
different children (a tracked token falls on a target W has not removed yet). As in the escorts' search, a plan
exists from a set iff from one of its placements, so what is refuted is kept per (tracked tokens, their Lower
tokens left, turns, W's targets left) as the union of W's refuted hexes; children are tried the hardest to refute
first, as in the joint search.

``cdfs`` in ``solver.c`` is the same search step for step. ``ROPASCI_CARRY=0`` turns it off (then such positions are
searched by joint moves).
"""
from __future__ import annotations

import itertools

from .escorts import EFFORT_MAX, GBIT, HEX_OF, bel_or, bits, moves_from, pivots_needed
from .relax import BIT, _step

FAR = 10 ** 6  # solver.FAR

CARRY_TARGETS = 6  # W's targets at most: its set has a row per subset of them (CROWS in the C core)
CARRY_LIMIT = 2_000_000  # refuted rows kept (as solver.TABLE_LIMIT); the table starts afresh beyond


def hexes_of(X: dict) -> int:
    """Every hex W may be on."""
    m = 0
    for row in X.values():
        m |= row
    return m & ~GBIT


def arrivals(tk: tuple, to: tuple, ntk: tuple) -> list[int]:
    """For each tracked token after a move, the one before it that arrived there (two of one class are told apart by
    where they went; stacked on one hex, either will do), so that a child's relaxation starts from its own sets."""
    out, used = [], 0
    for v in ntk:
        i = next(i for i, u in enumerate(tk) if not used >> i & 1 and u >> 6 == v >> 6 and to[i] == v & 63)
        used |= 1 << i
        out.append(i)
    return out


class CarrySearch:
    """The search with W carried, for one ``solver.Search`` (its board, bounds, relaxation, counters, deadline)."""

    def __init__(self, search):
        self.search = search
        self.board = search.board
        self.free = search.board.relaxation.free
        # (tracked, their Lower tokens left, turns, W's class, W's targets left) -> W's hexes refuted there
        self.known: dict = {}
        # (tracked, their Lower tokens left, W's class) -> the most positions a refutation of it searched (at most
        # EFFORT_MAX): children are tried the hardest to refute first, as in the joint search (EscortSearch.effort).
        self.effort: dict = {}
        self.cw = -1  # W's class
        self.wgroups = 0  # the Lower groups that are W's targets
        self._lower_of: dict = {}  # W's targets left -> their groups
        self._hexes: dict = {}  # Lower tokens left -> their hexes
        self.bturn: dict = {}  # depth -> (tracked move, tracked after it, their Lower tokens left)
        self.bend = 0

    # --- placements and turns ----------------------------------------------------------------------------
    def start(self, cw: int) -> None:
        b = self.board
        self.cw = cw
        self.wgroups = sum(1 << g for g in b.targets[cw])
        self._lower_of = {}

    def lower_of(self, s: int) -> int:
        """The groups of W's targets in s."""
        got = self._lower_of.get(s)
        if got is None:
            got = self._lower_of[s] = sum(1 << g for j, g in enumerate(self.board.targets[self.cw]) if s >> j & 1)
        return got

    def lower_hexes(self, lower: int) -> int:
        got = self._hexes.get(lower)
        if got is None:
            got = self._hexes[lower] = sum(BIT[h] for g, (h, _) in enumerate(self.board.groups) if lower >> g & 1)
        return got

    def pivots(self, tk: tuple, to: tuple, X: dict) -> dict:
        """The placements of X that give each tracked token's swing its pivot."""
        b = self.board
        out = dict(X)
        for i, u in enumerate(tk):
            need = pivots_needed(b, u & 63, to[i])
            if not need:
                continue
            if any(BIT[v & 63] & need for j, v in enumerate(tk) if j != i):
                continue  # another tracked token is the pivot
            for s in list(out):
                kept = out[s] & need
                if kept:
                    out[s] = kept
                else:
                    del out[s]
        return out

    def outcome(self, tk: tuple, lower: int, to: tuple, z: int) -> tuple | None:
        """W landing on z (-1: W is not on the board) as the tracked tokens move to ``to``: (tracked after the
        turn, their Lower tokens left, W's targets left, W's bit or GBIT), or None when W falls with work left."""
        s_ = self.search
        if z < 0:
            ntk, nl = self.board.resolve(tk, lower, to)
            return ntk, nl & ~self.wgroups, s_.local(self.cw, nl), GBIT
        ups, nl = self.board.resolve(tk + (self.cw << 6,), lower, to + (z,))
        ntk = tuple(u for u in ups if u >> 6 != self.cw)
        s2 = s_.local(self.cw, nl)
        alive = len(ntk) < len(ups)
        if not alive and s2:
            return None
        return ntk, nl & ~self.wgroups, s2, BIT[z] if alive else GBIT

    def step(self, tk: tuple, lt: int, to: tuple, X: dict) -> dict:
        """The children of the tracked move ``to`` from X: {(tracked, their Lower tokens left): placements}."""
        X = self.pivots(tk, to, X)
        out: dict = {}
        if not X:
            return out
        w0 = land = 0
        for u, d in zip(tk, to):
            w0 |= BIT[u & 63]
            land |= BIT[d]
        for s, S in X.items():
            lower = lt | self.lower_of(s)
            if S & GBIT:
                ntk, nlt, s2, one = self.outcome(tk, lower, to, -1)
                bel_or(out.setdefault((ntk, nlt), {}), s2, one)
            S &= ~GBIT
            if not S:
                continue
            M = _step(S, w0) & self.free
            special = land | self.lower_hexes(lower)
            plain = M & ~special
            if plain:  # W lands where nothing is: the tracked tokens' battles alone
                ntk, nlt, s2, _ = self.outcome(tk, lower, to, -1)
                bel_or(out.setdefault((ntk, nlt), {}), s2, plain)
            for one in bits(M & special):
                got = self.outcome(tk, lower, to, HEX_OF[one])
                if got is not None:
                    ntk, nlt, s2, bit = got
                    bel_or(out.setdefault((ntk, nlt), {}), s2, bit)
        return out

    # --- the table of refuted placements -----------------------------------------------------------------
    def unrefuted(self, tk: tuple, lt: int, turns: int, X: dict) -> bool:
        """Takes out of X what is known refuted with ``turns`` or more turns; whether something is left."""
        known = self.known
        for s in list(X):
            m = X[s]
            for t in range(turns, min(turns + 2, self.search.max_turns) + 1):
                if not m:
                    break
                m &= ~known.get((tk, lt, t, self.cw, s), 0)
            if m:
                X[s] = m
            else:
                del X[s]
        return bool(X)

    def refute(self, tk: tuple, lt: int, turns: int, X: dict) -> None:
        known = self.known
        for s, row in X.items():
            key = (tk, lt, turns, self.cw, s)
            if key not in known and len(known) == CARRY_LIMIT:
                known.clear()
            known[key] = known.get(key, 0) | row

    # --- the search --------------------------------------------------------------------------------------
    def w_token(self, Y: dict):
        """W as a token of the relaxation: (class, {targets hit: hexes}, its targets' hexes), or None once it has
        fallen in every placement."""
        b = self.board
        rows = {s: S & ~GBIT for s, S in Y.items() if S & ~GBIT}
        if not rows:
            return None
        some = 0
        for s in rows:
            some |= s
        tg = [j for j in range(len(b.targets[self.cw])) if some >> j & 1]
        start: dict = {}
        for s, S in rows.items():
            v = sum(1 << k for k, j in enumerate(tg) if not s >> j & 1)
            start[v] = start.get(v, 0) | S
        return self.cw, start, tuple(b.groups[b.targets[self.cw][j]][0] for j in tg)

    def relax(self, tk: tuple, lt: int, Y: dict, turns: int, init: list | None):
        """The relaxation of tracked tokens tk with W on Y: (tracked sets, W's sets or None), or None."""
        s_ = self.search
        toks = [(u >> 6, BIT[u & 63], s_.targets_left(u >> 6, lt)) for u in tk]
        w = self.w_token(Y)
        if w is not None:
            toks.append(w)
        s_.relaxations += 1
        occ = self.board.relaxation.run(toks, turns, None if init is None else init[:len(toks)])
        if occ is None:
            return None
        return occ[:len(tk)], occ[len(tk)] if w is not None else None

    def dfs(self, tk: tuple, lt: int, X0: dict, budget: int, occ: list, occw, depth: int) -> bool:
        """Is there a plan of ``budget`` turns for the tracked tokens tk with W on any placement of X0? (The
        tracked moves of each turn in ``bturn``.) occ, occw: the relaxation's sets of the tracked tokens and W."""
        s_, b = self.search, self.board
        X = dict(X0)
        s_.nodes += 1
        first = s_.nodes
        s_.check_limits()
        if depth == 0 and not self.unrefuted(tk, lt, budget, X):  # below, the parent took it out already
            return False
        if s_.oracle is not None and len(tk) == 2 and depth < s_.oracle.ask_depth \
                and not self.asked(tk, lt, X, budget, depth == 0):
            s_.oracle.refuted += 1
            self.refute(tk, lt, budget, X0)
            return False
        wh = hexes_of(X)
        some = 0
        for s in X:
            some |= s
        lower_any = lt | self.lower_of(some)  # the Lower tokens some placement has
        lists = []
        for i, u in enumerate(tk):
            piv = wh
            for j, v in enumerate(tk):
                if j != i:
                    piv |= BIT[v & 63]
            dests = moves_from(self.board, u & 63, piv)
            alive = occ[i][1]
            keep = [d for d in dests if BIT[d] & alive]
            if len(tk) > 1 or wh:  # falling on purpose, as in the joint search
                kill = b.kill(u >> 6, lower_any)
                keep += [d for d in dests if BIT[d] & kill and not BIT[d] & alive]
            if not keep:
                self.refute(tk, lt, budget, X)
                return False
            lists.append(keep)
        wlim = occw[1] | GBIT if occw is not None else GBIT
        kids = []
        for to in itertools.product(*lists):
            for (ntk, nlt), Y in self.step(tk, lt, to, X).items():
                if not nlt and 0 in Y:
                    self.bturn[depth] = (to, ntk, nlt)
                    self.bend = depth + 1
                    return True
                Y = {s: S & wlim for s, S in Y.items() if S & wlim}
                if not Y:
                    continue
                est, total = self.estimate(ntk, nlt, Y)
                if est >= budget:
                    continue
                kids.append((est, -self.effort.get((ntk, nlt, self.cw), 0), total, -len(kids), to, ntk, nlt, Y))
        kids.sort(key=lambda k: k[:4])
        init = [o[1:] for o in occ] + ([occw[1:]] if occw is not None else [])
        for _, _, _, _, to, ntk, nlt, Y in kids:
            if not self.unrefuted(ntk, nlt, budget - 1, Y):
                continue
            kinit = [init[i] for i in arrivals(tk, to, ntk)]
            if occw is not None:
                kinit.append(init[-1])
            child = self.relax(ntk, nlt, Y, budget - 1, kinit)
            if child is not None and self.dfs(ntk, nlt, Y, budget - 1, child[0], child[1], depth + 1):
                self.bturn[depth] = (to, ntk, nlt)
                return True
            self.refute(ntk, nlt, budget - 1, Y)
        self.refute(tk, lt, budget, X)
        key = (tk, lt, self.cw)
        self.effort[key] = min(max(s_.nodes - first + 1, self.effort.get(key, 0)), EFFORT_MAX)
        return False

    def asked(self, tk: tuple, lt: int, X: dict, budget: int, eager: bool) -> bool:
        """The oracle (``oracle.py``) on entering: takes out of X the placements where W could not finish alone with
        the tracked tokens as its escorts; whether each tracked worker could finish with the other and W where it
        may be, and a placement is left."""
        o = self.search.oracle
        if o.critical >> self.cw & 1:
            for s in list(X):
                S = X[s]
                if s:
                    for one in bits(S & ~GBIT):
                        if not o.allows(self.cw, HEX_OF[one], self.lower_of(s), tk[0] & 63, BIT[tk[1] & 63], budget,
                                        eager):
                            S &= ~one
                if S:
                    X[s] = S
                else:
                    del X[s]
        loose = 0
        for S in X.values():
            loose |= S
        for i, u in enumerate(tk):
            c = u >> 6
            if o.critical >> c & 1 and self.search.local(c, lt) and not o.allows(c, u & 63, lt, tk[1 - i] & 63, loose,
                                                                                  budget, eager):
                return False
        return bool(X)

    def estimate(self, tk: tuple, lt: int, Y: dict) -> tuple[int, int]:
        """(lower bound, sum of the tours) of a child: the tracked tokens' tours, W's from its best placement, and
        the front lemma over the Lower tokens left in every placement from every hex a token may be on."""
        s_, b = self.search, self.board
        tours = []
        everywhere = hexes_of(Y)
        for c in range(3):
            if c == self.cw:
                continue
            left = s_.local(c, lt)
            xs = [u & 63 for u in tk if u >> 6 == c]
            if left:
                tours.append(s_.share(c, tuple(xs), left))
        for u in tk:
            everywhere |= BIT[u & 63]
        w = 0
        if 0 not in Y:
            w = min(s_.tour(self.cw, HEX_OF[one], s) for s, S in Y.items() for one in bits(S))
        sure = -1
        for s in Y:
            sure &= s
        if not everywhere:
            return FAR, FAR
        front = 0
        for g, (h, _) in enumerate(b.groups):
            if (lt | self.lower_of(sure)) >> g & 1:
                d = b.dist("front", 0, h)
                front = max(front, min(d[HEX_OF[one]] for one in bits(everywhere)))
        return max(max(tours, default=0), w, front), sum(tours) + w

    def record(self, tk0: tuple, lt0: int, X0: dict) -> list:
        """The plan found as (ups, dests) per turn, W's moves included: the placements forward along the tracked
        moves, then back from one at the end, for each turn a placement and a move of W that lead to the next."""
        T = self.bend
        E, keys = [dict(X0)], [(tk0, lt0)]
        for t in range(T):
            to, ntk, nlt = self.bturn[t]
            E.append(self.step(*keys[t], to, E[t])[(ntk, nlt)])
            keys.append((ntk, nlt))
        want = (0, next(iter(bits(E[T][0]))))
        steps = []
        for t in range(T - 1, -1, -1):
            found = self.back(keys[t], self.bturn[t][0], keys[t + 1], E[t], want)
            if found is None:
                raise RuntimeError("the carried search found a plan it could not write out")
            ups, dests, want = found
            steps.append((ups, dests))
        return steps[::-1]

    def back(self, key: tuple, to: tuple, nkey: tuple, E: dict, want: tuple):
        """A placement of E and a move of W that lead to the placement ``want`` (targets left, bit) of the child
        ``nkey``: (ups, dests, that placement), or None."""
        tk, lt = key
        w0 = 0
        for u in tk:
            w0 |= BIT[u & 63]
        P = self.pivots(tk, to, E)
        for s in sorted(P):
            lower = lt | self.lower_of(s)
            for one in bits(P[s]):
                if one == GBIT:
                    got = self.outcome(tk, lower, to, -1)
                    if got is not None and got[:2] == nkey and got[2:] == want:
                        return tk, to, (s, one)
                    continue
                a = HEX_OF[one]
                for z in moves_from(self.board, a, w0):
                    if not self.free & BIT[z]:
                        continue
                    got = self.outcome(tk, lower, to, z)
                    if got is not None and got[:2] == nkey and got[2:] == want:
                        return tk + (self.cw << 6 | a,), to + (z,), (s, one)
        return None
