"""The solver's strong lower bound: a relaxation of the puzzle solved over sets of hexes, one token at a time.

Question answered: can every token still do its part within ``C`` turns, if each token only had to be
consistent with where the *others could be*? Per token, the hexes it may occupy at each time and the set V
of its class's targets it has hit so far are computed forward from its hex and backward from the goal
("all targets hit", or for tokens sharing a symbol: targets the others can cover). A swing needs a pivot:
it is allowed only through hexes another token may occupy at that time, so the per-token sets depend on each
other and are narrowed to a fixpoint. Two more facts prune: a token may land on no hex where a Lower token
that beats it can never be removed, and *the front lemma*: no token can stand on a hex at time t if every
token was more than t slides away at time 0 (a token jumps two hexes only around another token, which is at
least as close, so the closest token to any hex gets at most one step nearer per turn).

Every real plan is a plan of this relaxation (tokens may also vanish: a token that falls just stops, once its
class's remaining work is covered), so "infeasible" proves that no plan of ``C`` turns exists. Hexes are bits
of a Python int laid out on a 10-wide grid (axial r, q), so a step of all of a set's hexes is six shifts.
"""
from __future__ import annotations

from games.ropasci360.rules import HEXES

WIDTH = 10  # bits per row: 9 columns and one that is never on the board, so that shifts do not wrap
BIT = tuple(1 << ((r + 4) * WIDTH + (q + 4)) for r, q in HEXES)


def mask_of(hexes) -> int:
    m = 0
    for i in hexes:
        m |= BIT[i]
    return m


def _step(m: int, piv: int) -> int:
    """Hexes one slide from ``m``, or one swing around a pivot in ``piv`` (not yet cut to the board)."""
    new = m << 9 | m << 10 | m << 1 | m >> 9 | m >> 10 | m >> 1
    if piv:
        # Per direction d: pivots next to m in that direction, then the three hexes beyond them (d, d +- 60).
        y = (m << 9) & piv
        if y:
            new |= y << 9 | y << 10 | y >> 1
        y = (m << 10) & piv
        if y:
            new |= y << 10 | y << 1 | y << 9
        y = (m << 1) & piv
        if y:
            new |= y << 1 | y >> 9 | y << 10
        y = (m >> 9) & piv
        if y:
            new |= y >> 9 | y >> 10 | y << 1
        y = (m >> 10) & piv
        if y:
            new |= y >> 10 | y >> 1 | y >> 9
        y = (m >> 1) & piv
        if y:
            new |= y >> 1 | y << 9 | y >> 10
    return new


def _step_back(z: int, piv: int) -> int:
    """Hexes from which one slide, or one swing around a pivot in ``piv``, reaches ``z``."""
    pre = z << 9 | z << 10 | z << 1 | z >> 9 | z >> 10 | z >> 1
    if piv:
        y = (z >> 9 | z >> 10 | z << 1) & piv
        if y:
            pre |= y >> 9
        y = (z >> 10 | z >> 1 | z >> 9) & piv
        if y:
            pre |= y >> 10
        y = (z >> 1 | z << 9 | z >> 10) & piv
        if y:
            pre |= y >> 1
        y = (z << 9 | z << 10 | z >> 1) & piv
        if y:
            pre |= y << 9
        y = (z << 10 | z << 1 | z << 9) & piv
        if y:
            pre |= y << 10
        y = (z << 1 | z >> 9 | z << 10) & piv
        if y:
            pre |= y << 1
    return pre


_HAS: dict[int, list[int]] = {}


def _down(sets, m: int) -> int:
    """The subsets of members of ``sets`` (bits over m targets), as a bitset: bit W set iff W is one."""
    has = _HAS.get(m)
    if has is None:  # has[j]: the sets W (as bits) that contain target j
        has = _HAS[m] = [sum(1 << w for w in range(1 << m) if w >> j & 1) for j in range(m)]
    down = 0
    for u in sets:
        down |= 1 << u
    for j in range(m):
        down |= (down & has[j]) >> (1 << j)
    return down


def _covered_by(finals: list[set[int]], m: int) -> int:
    """Bitset of the target sets W that one set from each of ``finals`` (any number of families) can cover."""
    down = _down(finals[-1], m)
    has = _HAS[m]
    for family in finals[:-1]:  # down stays closed under subsets: joining one more family keeps it so
        seen = out = 0
        for a in sorted(family, key=lambda v: -v.bit_count()):
            if seen >> a & 1:  # a subset of a set already joined: adds nothing
                continue
            seen |= _down((a,), m)
            joined = down  # every set covered so far with a's targets added
            for j in range(m):
                if a >> j & 1:
                    joined |= (joined & ~has[j]) << (1 << j)
            out |= joined
        down = out
    return down


class Relaxation:
    """For one puzzle: ``free`` (mask of hexes without a block) and ``safe[c]`` (free hexes a token of class c
    may land on: not under a Lower token that beats it for good)."""

    def __init__(self, free: int, safe: tuple[int, int, int]):
        self.free = free
        self.safe = safe

    def run(self, toks, turns: int, init=None, rounds: int = 8):
        """``toks``: (class, hex index, target hex indices) per token. ``init``: per token, hexes it may occupy
        at times 0..turns (from a parent's run), or None. Returns those sets narrowed (per token, a list of
        masks), or None when no plan of ``turns`` turns exists."""
        free = self.free
        m = 0
        for _, x, _ in toks:
            m |= BIT[x]
        front = [m]
        for _ in range(turns):
            m = (m | m << 9 | m << 10 | m << 1 | m >> 9 | m >> 10 | m >> 1) & free
            front.append(m)
        k = len(toks)
        if init is None:
            occ = [[free] * (turns + 1) for _ in range(k)]
        else:
            occ = [list(o[:turns + 1]) for o in init]
        for p in range(k):
            occ[p][0] = BIT[toks[p][1]]
        groups: dict[int, list[int]] = {}
        for p, tok in enumerate(toks):
            groups.setdefault(tok[0], []).append(p)
        # Classes with the most targets first: they are the likeliest to fail, which ends the run at once.
        groups = dict(sorted(groups.items(), key=lambda item: -len(toks[item[1][0]][2])))
        dirty = set(groups)
        for _ in range(rounds):
            if not dirty:
                break
            for c, members in groups.items():
                if c not in dirty:
                    continue
                dirty.discard(c)
                changed = self._narrow(toks, members, occ, turns, front)
                if changed is None:
                    return None
                if changed:  # the others' pivots changed (and class-mates', which used the old sets)
                    dirty.update(other for other in groups if other != c or len(members) > 1)
        return occ

    def _narrow(self, toks, members, occ, turns, front) -> bool | None:
        """One pass over the tokens of one class, narrowing ``occ``: whether anything changed, or None if one
        of them cannot do its part."""
        k = len(toks)
        tg = toks[members[0]][2]
        m = len(tg)
        full = (1 << m) - 1
        passes = []
        for p in members:
            piv = [0] * turns
            for q in range(k):
                if q != p:
                    oq = occ[q]
                    for t in range(turns):
                        piv[t] |= oq[t]
            passes.append((p, piv, self._forward(toks[p], turns, piv, front, occ[p])))
        if len(members) > 1 and m:
            finals = [set().union(*(layer.keys() for layer in layers)) for _, _, layers in passes]
        changed = False
        for i, (p, piv, layers) in enumerate(passes):
            if not m:
                goal = {0}
            elif len(members) == 1:
                if not any(full in layer for layer in layers):
                    return None
                goal = {full}
            else:
                down = _covered_by(finals[:i] + finals[i + 1:], m)
                goal = {v for v in finals[i] if down >> (full & ~v) & 1}
                if not goal:
                    return None
            new = self._backward(tg, turns, piv, layers, goal)
            if new != occ[p]:
                occ[p] = new
                changed = True
        return changed

    def _forward(self, tok, turns, piv, front, prev):
        """Layers t = 0..: {V: hexes the token may occupy at time t having hit the targets in V}; stops early
        if it cannot move on (it fell)."""
        c, x0, tg = tok
        limit_all = self.safe[c]
        bits = [BIT[h] for h in tg]
        anyt = sum(bits)
        layers = [{0: BIT[x0]}]
        cur = layers[0]
        for t in range(turns):
            nxt: dict[int, int] = {}
            lim = limit_all & front[t + 1] & prev[t + 1]
            pt = piv[t]
            for v, mm in cur.items():
                new = _step(mm, pt) & lim
                if not new:
                    continue
                if not new & anyt:  # no target reached: the usual case
                    nxt[v] = nxt.get(v, 0) | new
                    continue
                for j, b in enumerate(bits):
                    if not v >> j & 1:
                        hit = new & b
                        if hit:
                            new ^= hit
                            w = v | 1 << j
                            nxt[w] = nxt.get(w, 0) | hit
                if new:
                    nxt[v] = nxt.get(v, 0) | new
            if not nxt:
                break
            layers.append(nxt)
            cur = nxt
        return layers

    @staticmethod
    def _backward(tg, turns, piv, layers, goal) -> list[int]:
        """Hexes per time on some path to the goal (a goal state may stop there: the token may fall)."""
        bits = [BIT[h] for h in tg]
        occ = [0] * (turns + 1)
        g_next: dict[int, int] = {}
        for t in range(len(layers) - 1, -1, -1):
            g_cur: dict[int, int] = {}
            o = 0
            for v, mm in layers[t].items():
                if v in goal:
                    alive = mm
                else:
                    z = g_next.get(v, 0)
                    for j, b in enumerate(bits):
                        if not v >> j & 1:
                            z &= ~b
                            g2 = g_next.get(v | 1 << j)
                            if g2:
                                z |= g2 & b
                    alive = _step_back(z, piv[t]) & mm if z and t < turns else 0
                if alive:
                    g_cur[v] = alive
                    o |= alive
            occ[t] = o
            g_next = g_cur
        return occ
