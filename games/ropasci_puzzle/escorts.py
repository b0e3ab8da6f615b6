"""The search of workers with escorts: the Python twin of ``bdfs`` in ``solver.c`` (``docs/puzzles.md``, "Workers
with escorts"), the same search step for step.

A worker is a token whose class still has targets, an escort one whose class has none. When every worker (one, or
two of different classes) has one or two escorts (three tokens at most), the escorts matter only as pivots and in
battles: the search goes over the workers' moves and carries the set of escort placements those moves leave
possible. A set (``Bel``) maps escort A's hex (``GONE``: fallen, or no escort A) to the mask of escort B's hexes on
the relaxation's grid (``GBIT``: B fallen); rows are never empty. A plan exists from a set iff from one of its
placements, so refuted placements are kept per (workers, Lower tokens left, turns, escort classes) and taken out of
any set that comes there again. A worker whose last target falls while the other still works becomes escort A.
One worker beside three escorts of one class (four tokens) is searched so too, the escort nearest it tracked as a
second worker without work (``Turn.work``): it lives on where it is alive and may fall, as an escort may.
"""
from __future__ import annotations

from games.ropasci360.rules import N

from .relax import BIT, _step

GONE = N  # escort A's row when it has fallen, or there is none
GBIT = 1 << 127  # escort B fallen: above every hex of the grid
EFFORT_MAX = 0x7FFF  # solver.EFFORT_MAX
BELS_LIMIT = 50_000  # refuted sets kept (as in solver.c); the table starts afresh beyond
HEX_OF = {bit: i for i, bit in enumerate(BIT)}


def bel_or(X: dict, a: int, v: int) -> None:
    if v:
        X[a] = X.get(a, 0) | v


def bel_and(X: dict, a: int, v: int) -> None:
    """For a row in use."""
    kept = X[a] & v
    if kept:
        X[a] = kept
    else:
        del X[a]


def bel_hexes(X: dict) -> tuple[int, int]:
    """The hexes escort A and escort B may be on."""
    ha = hb = 0
    for a, row in X.items():
        if a < N:
            ha |= BIT[a]
        hb |= row & ~GBIT
    return ha, hb


def bits(m: int):
    """The single bits of m, lowest first."""
    while m:
        one = m & -m
        yield one
        m ^= one


def moves_from(board, a: int, piv: int) -> list[int]:
    """Board.moves around the pivots (a mask)."""
    out = list(board.slides[a])
    for y, zs in board.swings[a]:
        if piv & BIT[y]:
            for z in zs:
                if z not in out:
                    out.append(z)
    return out


def interleaved(kids: list) -> list:
    """The first position's children (sorted by bound, then effort), taken alternately: the first not yet taken in
    that order, then in the order by effort (most first), then by bound. Once the turn count below is refuted, the
    plan most often lies below a child whose refutation there took the most positions (its effort), but the bound
    says so often too, and each order is far the better on some positions (``duo-3x9-320``, when it was made: 113,209
    positions by bound, 57,157 so): a child of the first position holds most of the search, so the two orders are run
    side by side there, and where both are poor no more is lost than the better one's way to the plan, twice."""
    by_effort = sorted(kids, key=lambda k: (k[1], k[0], k[2], k[3]))
    out, taken, a, e = [], set(), 0, 0
    while len(out) < len(kids):
        if len(out) % 2:
            while by_effort[e][3] in taken:
                e += 1
            kid = by_effort[e]
        else:
            while kids[a][3] in taken:
                a += 1
            kid = kids[a]
        taken.add(kid[3])
        out.append(kid)
    return out


def pivots_needed(board, w: int, z: int) -> int:
    """The hexes (a mask) one of which must hold a pivot for a move from w to z: 0 for a slide."""
    if z in board.slides[w]:
        return 0
    need = 0
    for y, zs in board.swings[w]:
        if z in zs:
            need |= BIT[y]
    return need


class Turn:
    """One turn of the workers, for moving placements on."""

    __slots__ = ("nw", "frm", "to", "cls", "lower", "ca", "cb", "fin", "fin_row", "zmask", "killa", "killb", "work")


class EscortSearch:
    """The workers' search for one ``solver.Search`` (its board, bounds, relaxation, counters and deadline)."""

    def __init__(self, search):
        self.search = search
        self.board = search.board
        self.free = search.board.relaxation.free
        self.known: dict = {}  # bel key -> the placements refuted
        # (workers, Lower left, escort classes) -> the most positions a refutation of it searched (at most
        # EFFORT_MAX): children are tried the hardest to refute first, as in the joint search. The most, not the
        # last: a refutation that finds its children refuted in the table already is quick, and that says nothing of
        # how near a plan the position is (the 2,404 tail positions, with CarrySearch.effort kept so too: 0.89 of the
        # positions searched).
        self.effort: dict = {}
        self.ca = self.cb = -1  # escort A's and B's classes (-1: no escort A)
        self.bturn: dict = {}  # depth -> the workers' hexes after that turn
        self.bend = 0  # the depth where the workers' plan ends
        self.ask = True  # whether the oracle is asked (not beside a fourth token: its smaller puzzles have two escorts)

    # --- one turn ----------------------------------------------------------------------------------------
    def turn(self, wk: tuple, lower: int, to: tuple):
        """The workers wk (codes) moving to ``to``: None if one with work left falls to another worker or a Lower
        token; else (the Turn, the workers with work left after it, the Lower tokens left)."""
        s = self.search
        left, nl = self.board.resolve(wk, lower, to)
        tn = Turn()
        tn.nw, tn.lower, tn.fin, tn.fin_row, tn.zmask, tn.work = len(wk), lower, -1, GONE, 0, 0
        tn.frm = tuple(u & 63 for u in wk)
        tn.to = to
        tn.cls = tuple(u >> 6 for u in wk)
        nwk = []
        for i, u in enumerate(wk):
            c = u >> 6
            tn.zmask |= BIT[to[i]]
            alive = (c << 6 | to[i]) in left
            if s.local(c, lower):
                tn.work |= 1 << i
            if s.local(c, nl):
                if not alive:
                    return None
                nwk.append(c << 6 | to[i])
            elif not s.local(c, lower):  # a token without work, tracked as a worker: lives on where it is alive
                if alive:
                    nwk.append(c << 6 | to[i])
            elif nl:
                tn.fin, tn.fin_row = i, to[i] if alive else GONE
        tn.ca, tn.cb = self.ca, self.cb
        tn.killa, tn.killb = self.board.kill(self.ca, lower), self.board.kill(self.cb, lower)
        return tn, tuple(nwk), nl

    def fate(self, tn: Turn, a2: int, b2: int):
        """The battles for one placement (escort A landing on a2, B on b2; -1: none): None if a worker with work left
        falls, else A's row and B's bit after the turn (A: the worker finishing now, if any)."""
        b = self.board
        hexes = list(tn.to)
        cls = list(tn.cls)
        ia = ib = -1
        if a2 >= 0:
            ia = len(hexes)
            hexes.append(a2)
            cls.append(tn.ca)
        if b2 >= 0:
            ib = len(hexes)
            hexes.append(b2)
            cls.append(tn.cb)
        dead = []
        for i, h in enumerate(hexes):
            mask = 0
            for j, other in enumerate(hexes):
                if other == h:
                    mask |= 1 << cls[j]
            g = b.group_at.get(h)
            if g is not None and tn.lower >> g & 1:
                mask |= 1 << b.groups[g][1]
            dead.append(b.falls(mask) >> cls[i] & 1)
        for i in range(tn.nw):
            if dead[i] and i != tn.fin and tn.work >> i & 1:
                return None
        if tn.fin >= 0:
            ra = GONE if dead[tn.fin] else tn.to[tn.fin]
        else:
            ra = GONE if ia < 0 or dead[ia] else a2
        return ra, GBIT if ib < 0 or dead[ib] else BIT[b2]

    def emit(self, tn: Turn, out: dict, a2: int, SB: int) -> None:
        """Escort A lands on a2 (-1: none) while escort B lands on each of SB."""
        if a2 >= 0 and tn.zmask & BIT[a2]:
            spec = SB
        else:
            spec = SB & (tn.zmask | (BIT[a2] if a2 >= 0 else 0))
        rest = SB & ~spec
        if rest:  # no battle but with the Lower tokens
            if tn.fin >= 0:
                ra = tn.fin_row
            else:
                ra = GONE if a2 < 0 or tn.killa & BIT[a2] else a2
            dead = rest & tn.killb
            bel_or(out, ra, (rest & ~dead) | (GBIT if dead else 0))
        for one in bits(spec):  # a battle with a worker, or between the escorts
            got = self.fate(tn, a2, -1 if one == GBIT else HEX_OF[one])
            if got is not None:
                bel_or(out, *got)

    def pivots(self, tn: Turn, X: dict) -> dict:
        """The placements of X that give each worker's swing its pivot."""
        b = self.board
        out = dict(X)
        for i in range(tn.nw):
            need = pivots_needed(b, tn.frm[i], tn.to[i])
            if not need:
                continue
            if tn.nw == 2 and need & BIT[tn.frm[1 - i]]:
                continue  # the other worker is the pivot
            for a in sorted(out):
                if not (a < N and BIT[a] & need):
                    bel_and(out, a, need)
        return out

    def step(self, tn: Turn, X: dict) -> dict:
        """The placements after the workers' turn, from X."""
        free = self.free
        P = self.pivots(tn, X)
        out: dict = {}
        w0 = 0
        for w in tn.frm:
            w0 |= BIT[w]
        for a in sorted(P):
            S = P[a]
            if a == GONE:
                self.emit(tn, out, -1, (_step(S & ~GBIT, w0) & free) | (S & GBIT))
                continue
            nb = _step(BIT[a], 0) & free
            adj, far = S & nb, S & ~nb
            if far:  # B not next to A: each moves on its own
                SB = (_step(far & ~GBIT, w0) & free) | (far & GBIT)
                for a2 in moves_from(self.board, a, w0):
                    self.emit(tn, out, a2, SB)
            for one in bits(adj):  # B next to A: each may swing around the other
                SB = _step(one, w0 | BIT[a]) & free
                for a2 in moves_from(self.board, a, w0 | one):
                    self.emit(tn, out, a2, SB)
        return out

    # --- the table of refuted placements -----------------------------------------------------------------
    def key(self, wk: tuple, lower: int, turns: int) -> tuple:
        return wk, lower, turns, self.ca, self.cb

    def unrefuted(self, wk: tuple, lower: int, turns: int, X: dict) -> bool:
        """Takes out of X what is known refuted with ``turns`` or more turns; whether something is left."""
        for t in range(turns, min(turns + 2, self.search.max_turns) + 1):
            R = self.known.get(self.key(wk, lower, t))
            if R:
                for a in [a for a in X if a in R]:
                    bel_and(X, a, ~R[a])
        return bool(X)

    def refute(self, wk: tuple, lower: int, turns: int, X: dict) -> None:
        key = self.key(wk, lower, turns)
        R = self.known.get(key)
        if R is None:
            if len(self.known) == BELS_LIMIT:
                self.known.clear()
            R = self.known[key] = {}
        for a, row in X.items():
            bel_or(R, a, row)

    # --- the search --------------------------------------------------------------------------------------
    def relax_child(self, kid: tuple, wk: tuple, ya: int, yb: int, occ4: list, turns: int):
        """The relaxation of a child (workers of the parent wk), escort A starting on the hexes ya and B on yb:
        (its sets, per role as occ4) or None."""
        s = self.search
        nl, fin, _, nwk, _ = kid[4:]
        toks, init, roles = [], [], []
        for j, u in enumerate(nwk):  # the workers left, each from its own sets
            frm = max(w for w, p in enumerate(wk) if p >> 6 == u >> 6)
            toks.append((u >> 6, BIT[u & 63], s.targets_left(u >> 6, nl)))
            init.append(occ4[frm][1:])
            roles.append(j)
        if ya:
            toks.append((self.ca, ya, s.targets_left(self.ca, nl)))
            init.append((occ4[fin] if fin >= 0 else occ4[2])[1:])
            roles.append(2)
        if yb:
            toks.append((self.cb, yb, s.targets_left(self.cb, nl)))
            init.append(occ4[3][1:])
            roles.append(3)
        s.relaxations += 1
        occ = self.board.relaxation.run(toks, turns, init)
        if occ is None:
            return None
        out = [None] * 4
        for role, o in zip(roles, occ):
            out[role] = o
        return out

    def dfs(self, wk: tuple, lower: int, X0: dict, budget: int, occ4: list, depth: int) -> bool:
        """Is there a plan of ``budget`` turns for the workers wk (codes, sorted) with the escorts on any of the
        placements X0? (The workers' hexes of each turn in ``bturn``.) occ4: the relaxation's sets of the workers,
        escort A and escort B (None: none)."""
        s, b = self.search, self.board
        X = dict(X0)
        ca = self.ca  # restored on the way out: a child whose worker finished has escort A
        s.nodes += 1
        first = s.nodes
        s.check_limits()
        if depth == 0 and not self.unrefuted(wk, lower, budget, X):  # below, the parent took it out already
            return False
        nw = len(wk)
        o = s.oracle
        if nw == 2 and o is not None and self.ask and depth < o.ask_depth:  # one escort: its placements are row GONE's
            for i, u in enumerate(wk):
                if o.critical >> (u >> 6) & 1 and not o.allows(u >> 6, u & 63, lower, wk[1 - i] & 63, X.get(GONE, 0),
                                                              budget, depth == 0):
                    o.refuted += 1
                    self.refute(wk, lower, budget, X)
                    return False
        ha, hb = bel_hexes(X)
        lists = []
        for i, u in enumerate(wk):
            a, c = u & 63, u >> 6
            piv = ha | hb | (BIT[wk[1 - i] & 63] if nw == 2 else 0)
            keep = []
            idle = not s.local(c, lower)
            for d in moves_from(self.board, a, piv):
                g = b.group_at.get(d)
                falls = g is not None and lower >> g & 1 and b.falls(1 << c | 1 << b.groups[g][1]) >> c & 1
                if idle and falls:
                    keep.append(d)  # a token without work may fall, as an escort may
                    continue
                if not BIT[d] & occ4[i][1]:
                    continue
                if falls:
                    continue  # it would fall
                keep.append(d)
            lists.append(keep)
            if not keep:
                break
        kids = []
        if all(lists) and len(lists) == nw:
            for to in (((p,) for p in lists[0]) if nw == 1 else ((p, q) for p in lists[0] for q in lists[1])):
                got = self.turn(wk, lower, to)
                if got is None:
                    continue
                tn, nwk, nl = got
                if not nl:  # the last Lower token falls: done if some placement allows the swings
                    if not self.pivots(tn, X):
                        continue
                    self.bturn[depth] = to
                    self.bend = depth + 1
                    return True
                tours = [s.tour(u >> 6, u & 63, s.local(u >> 6, nl)) for u in nwk]
                worst = max(tours)
                if worst >= budget:
                    continue
                Y = self.step(tn, X)
                if not Y:
                    continue
                ya, yb = bel_hexes(Y)
                everywhere = ya | yb
                for z in to:
                    everywhere |= BIT[z]
                front = 0
                for g, (h, _) in enumerate(b.groups):
                    if nl >> g & 1:
                        d = b.dist("front", 0, h)
                        front = max(front, min(d[HEX_OF[one]] for one in bits(everywhere)))
                est = max(worst, front)
                if est >= budget:
                    continue
                effort = self.effort.get((nwk, nl, wk[tn.fin] >> 6 if tn.fin >= 0 else self.ca, self.cb), 0)
                kids.append((est, -effort, sum(tours), -len(kids), nl, tn.fin, to, nwk, Y))
        # By bound, the effort of the child's refutations (most first, as in the joint search), the sum of the
        # workers' tours, then the later in the workers' move lists first (solver.c); at the first position,
        # alternately in that order and by effort first (interleaved).
        kids.sort(key=lambda k: k[:4])
        if depth == 0:
            kids = interleaved(kids)
        try:
            for kid in kids:
                _, _, _, _, nl, fin, to, nwk, Y = kid
                if fin >= 0:
                    self.ca = wk[fin] >> 6  # the worker that finished: escort A from now on
                if self.unrefuted(nwk, nl, budget - 1, Y):
                    ya, yb = bel_hexes(Y)
                    child = self.relax_child(kid, wk, ya, yb, occ4, budget - 1)
                    if child is not None and self.dfs(nwk, nl, Y, budget - 1, child, depth + 1):
                        self.bturn[depth] = to
                        return True
                    self.refute(nwk, nl, budget - 1, Y)
                self.ca = ca
            self.refute(wk, lower, budget, X)
            key = (wk, lower, ca, self.cb)
            self.effort[key] = min(max(s.nodes - first + 1, self.effort.get(key, 0)), EFFORT_MAX)
            return False
        finally:
            self.ca = ca

    def record(self, wk0: tuple, lower0: int, X0: dict, d0: int) -> list:
        """The plan found from depth d0 as (ups, dests) per turn, the escorts' moves included: the placements forward
        along the workers' turns, then back from one at the end, for each turn a placement and escort moves that lead
        to the next."""
        T = self.bend - d0
        ca0 = self.ca
        E, tns = [dict(X0)], []
        wk, lower = wk0, lower0
        for t in range(T):
            tn, wk, lower = self.turn(wk, lower, self.bturn[d0 + t])
            tns.append(tn)
            if tn.fin >= 0:
                self.ca = tn.cls[tn.fin]
            if t + 1 < T:
                E.append(self.step(tn, E[t]))
        self.ca = ca0
        steps = []
        ra, rb = -2, 0
        for t in range(T - 1, -1, -1):
            tn = tns[t]
            w0 = 0
            for w in tn.frm:
                w0 |= BIT[w]
            found = self.back(tn, E[t], w0, ra, rb)
            if found is None:
                raise RuntimeError("the workers' search found a plan it could not write out")
            ups, dests, ra, rb = found
            steps.append((ups, dests))
        return steps[::-1]

    def back(self, tn: Turn, E: dict, w0: int, ra: int, rb: int):
        """A placement of E and escort moves that lead to (ra, rb) after turn tn (ra -2: any): (ups, dests, its
        row, its bit), or None."""
        b = self.board
        far = b.dist("front", 0, ra) if 0 <= ra < N else None
        for pa in sorted(E):
            if ra not in (-2, GONE) and tn.fin < 0 and (pa == GONE or far[pa] > 2):
                continue
            for one in bits(E[pa]):
                pb = -1 if one == GBIT else HEX_OF[one]
                if ra != -2 and rb != GBIT and (pb < 0 or b.dist("front", 0, HEX_OF[rb])[pb] > 2):
                    continue
                if not self.pivots(tn, {pa: one}):
                    continue  # this placement does not give the workers' swings their pivots
                ma = moves_from(self.board, pa, w0 | (one if pb >= 0 else 0)) if pa != GONE else [-1]
                mb = moves_from(self.board, pb, w0 | (BIT[pa] if pa != GONE else 0)) if pb >= 0 else [-1]
                for a2 in ma:
                    for b2 in mb:
                        if ra != -2 and self.fate(tn, a2, b2) != (ra, rb):
                            continue
                        ups = [c << 6 | w for c, w in zip(tn.cls, tn.frm)]
                        dests = list(tn.to)
                        if pa != GONE:
                            ups.append(tn.ca << 6 | pa)
                            dests.append(a2)
                        if pb >= 0:
                            ups.append(tn.cb << 6 | pb)
                            dests.append(b2)
                        return tuple(ups), tuple(dests), pa, one
        return None
