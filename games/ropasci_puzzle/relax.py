"""The solver's strong lower bound: a relaxation of the puzzle solved over sets of hexes, one token at a time.

Question answered: can every token still do its part within ``C`` turns, if each token only had to be
consistent with where the *others could be*? Per token, the hexes it may occupy at each time and the set V
of its class's targets it has hit so far are computed forward from its hex and backward from the goal
("all targets hit", or for tokens sharing a symbol: targets the others can cover). A swing needs a pivot:
it is allowed only through hexes another token may occupy at that time, so the per-token sets depend on each
other and are narrowed to a fixpoint. Two more facts prune: a token may land on no hex where a Lower token
that beats it can never be removed (nor on one under a Lower token that beats it before a token that removes
it may have stood there: the removable ones are the targets of the class the token beats), and *the front lemma*:
no token can stand on a hex at time t if every token was more than t slides away at time 0 (a token jumps two hexes
only around another token, which is at least as close, so the closest token to any hex gets at most one step nearer
per turn).

Every real plan is a plan of this relaxation (tokens may also vanish: a token that falls just stops, once its
class's remaining work is covered), so "infeasible" proves that no plan of ``C`` turns exists. Hexes are bits
of a Python int laid out on a 10-wide grid (axial r, q), so a step of all of a set's hexes is six shifts.
"""
from __future__ import annotations

from operator import or_

from games.ropasci360.rules import HEXES

WIDTH = 10  # bits per row: 9 columns and one that is never on the board, so that shifts do not wrap
FRONTS_KEPT = 100_000  # token placements whose fronts are kept (only speed is lost beyond)
BIT = tuple(1 << ((r + 4) * WIDTH + (q + 4)) for r, q in HEXES)


def mask_of(hexes) -> int:
    m = 0
    for i in hexes:
        m |= BIT[i]
    return m


def _step(m: int, piv: int) -> int:
    """Hexes one slide from ``m``, or one swing around a pivot in ``piv`` (not yet cut to the board)."""
    new = m << 9 | m << 10 | m << 1 | m >> 9 | m >> 10 | m >> 1
    if piv & new:  # some pivot next to m: per direction d, the pivots there, each swung over to d, d +- 60
        a = (m << 9) & piv
        b = (m << 10) & piv
        c = (m << 1) & piv
        d = (m >> 9) & piv
        e = (m >> 10) & piv
        f = (m >> 1) & piv
        new |= (a | b | f) << 9 | (a | b | c) << 10 | (b | c | d) << 1 | (c | d | e) >> 9 \
            | (d | e | f) >> 10 | (a | e | f) >> 1
    return new


def _step_back(z: int, piv: int) -> int:
    """Hexes from which one slide, or one swing around a pivot in ``piv``, reaches ``z``."""
    pre = z << 9 | z << 10 | z << 1 | z >> 9 | z >> 10 | z >> 1
    y = pre & piv
    if y:  # pivots next to z: a swing over one in direction d started one step before it
        pre |= ((z >> 9 | z >> 10 | z << 1) & y) >> 9 | ((z >> 10 | z >> 1 | z >> 9) & y) >> 10 \
            | ((z >> 1 | z << 9 | z >> 10) & y) >> 1 | ((z << 9 | z << 10 | z >> 1) & y) << 9 \
            | ((z << 10 | z << 1 | z << 9) & y) << 10 | ((z << 1 | z >> 9 | z << 10) & y) << 1
    return pre


_HAS: dict[int, list[int]] = {}
_BELOW: dict[tuple[int, int], int] = {}  # (m, a) -> the subsets of a, as _down((a,), m)


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
            below = _BELOW.get((m, a))
            if below is None:
                below = _BELOW[(m, a)] = _down((a,), m)
            seen |= below
            joined = down  # every set covered so far with a's targets added
            rest = a
            while rest:
                low = rest & -rest
                rest ^= low
                joined |= (joined & ~has[low.bit_length() - 1]) << low
            out |= joined
        down = out
    return down


def hexes_of_layer(layer: dict) -> int:
    m = 0
    for hexes in layer.values():
        m |= hexes
    return m


class Relaxation:
    """For one puzzle: ``free`` (mask of hexes without a block) and ``safe[c]`` (free hexes a token of class c
    may land on: not under a Lower token that beats it for good)."""

    def __init__(self, free: int, safe: tuple[int, int, int]):
        self.free = free
        self.safe = safe
        self._target_masks: dict = {}
        self.failed = -1  # the class whose narrowing refuted the last refuted run
        self._fronts: dict = {}  # hexes of the tokens -> where the front lemma allows any at t = 0, 1, ...

    def run(self, toks, turns: int, init=None, rounds: int = 8):
        """``toks``: (class, mask of the hexes it may start on, target hex indices) per token (one hex; an escort
        of the workers' search may be on several; a carried worker starts from {targets hit: hexes}). ``init``: per
        token, hexes it may occupy at times 0..turns (from a parent's run), or None. Returns those sets narrowed
        (per token, a list of masks), or None when no plan of ``turns`` turns exists."""
        free = self.free
        m = 0
        for _, start, _ in toks:
            m |= start if isinstance(start, int) else hexes_of_layer(start)
        front = self._fronts.get(m)
        if front is None:
            if len(self._fronts) > FRONTS_KEPT:
                self._fronts.clear()
            front = self._fronts[m] = [m]
        while len(front) <= turns:  # the same tokens' hexes come back at every threshold: kept per puzzle
            m = front[-1]
            front.append((m | m << 9 | m << 10 | m << 1 | m >> 9 | m >> 10 | m >> 1) & free)
        k = len(toks)
        if init is None:
            occ = [[free] * (turns + 1) for _ in range(k)]
        else:
            occ = [o[:turns + 1] for o in init]  # copies: the lists are shared by siblings
        for p in range(k):
            start = toks[p][1]
            occ[p][0] = start if isinstance(start, int) else hexes_of_layer(start)
        groups: dict[int, list[int]] = {}
        for p, tok in enumerate(toks):
            groups.setdefault(tok[0], []).append(p)
        # The class that failed last first (siblings in the search fail alike), then those with the most targets:
        # they are the likeliest to fail, which ends the run at once.
        failed = self.failed
        groups = dict(sorted(groups.items(), key=lambda item: (item[0] != failed, -len(toks[item[1][0]][2]))))
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
                    self.failed = c
                    return None
                if changed:  # the others' pivots changed (and class-mates', which used the old sets)
                    dirty.update(other for other in groups if other != c or len(members) > 1)
        return occ

    def _narrow(self, toks, members, occ, turns, front) -> bool | None:
        """One pass over the tokens of one class, narrowing ``occ``: whether anything changed, or None if one
        of them cannot do its part."""
        k = len(toks)
        c, _, tg = toks[members[0]]
        m = len(tg)
        full = (1 << m) - 1
        # The hexes of Lower tokens that beat the class (the targets of the class it beats, but those a carried worker
        # may have removed already), until a token that beats them may have stood there: none of the class is there
        # alive before.
        pred = [q for q in range(k) if toks[q][0] == (c + 2) % 3]
        blocked, beaters = None, 0
        for q in pred:
            start, hit = toks[q][1], 0
            if not isinstance(start, int):
                for v in start:
                    hit |= v
            for j, h in enumerate(toks[q][2]):
                if not hit >> j & 1:
                    beaters |= BIT[h]
        if beaters:
            blocked, gone = [], 0
            for t in range(turns + 1):
                blocked.append(beaters & ~gone)
                for q in pred:
                    gone |= occ[q][t]
        passes = []
        for p in members:
            others = [occ[q] for q in range(k) if q != p]
            piv = others[0][:turns] if others else [0] * turns
            for oq in others[1:]:
                piv = list(map(or_, piv, oq))
            passes.append((p, piv, self._forward(toks[p], turns, piv, front, occ[p], blocked)))
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

    def _targets(self, tg):
        """For a token's target hexes: (mask of them all, bit -> target number, per set V of targets its hexes'
        mask), so that a step finds the targets it hits with one AND instead of a loop over the targets."""
        key = tuple(tg)
        got = self._target_masks.get(key)
        if got is None:
            bits = [BIT[h] for h in tg]
            hexes_of = [0] * (1 << len(bits))
            for v in range(1, 1 << len(bits)):
                low = v & -v
                hexes_of[v] = hexes_of[v ^ low] | bits[low.bit_length() - 1]
            got = self._target_masks[key] = (sum(bits), {b: 1 << j for j, b in enumerate(bits)}, hexes_of)
        return got

    def _forward(self, tok, turns, piv, front, prev, blocked=None):
        """Layers t = 0..: {V: hexes the token may occupy at time t having hit the targets in V}; stops early
        if it cannot move on (it fell)."""
        c, start, tg = tok
        limit_all = self.safe[c]
        anyt, number, hexes_of = self._targets(tg)
        layers = [{0: start} if isinstance(start, int) else start]
        cur = layers[0]
        for t in range(turns):
            nxt: dict[int, int] = {}
            lim = limit_all & front[t + 1] & prev[t + 1]
            if blocked:
                lim &= ~blocked[t + 1]
            pt = piv[t]
            for v, mm in cur.items():
                new = _step(mm, pt) & lim
                if not new:
                    continue
                hit = new & anyt & ~hexes_of[v]  # targets reached for the first time: the unusual case
                if hit:
                    new ^= hit
                    while hit:
                        b = hit & -hit
                        hit ^= b
                        w = v | number[b]
                        nxt[w] = nxt.get(w, 0) | b
                if new:
                    nxt[v] = nxt.get(v, 0) | new
            if not nxt:
                break
            layers.append(nxt)
            cur = nxt
        return layers

    def _backward(self, tg, turns, piv, layers, goal) -> list[int]:
        """Hexes per time on some path to the goal (a goal state may stop there: the token may fall)."""
        anyt, number, hexes_of = self._targets(tg)
        occ = [0] * (turns + 1)
        g_next: dict[int, int] = {}
        for t in range(len(layers) - 1, -1, -1):
            into: dict[int, int] = {}  # V -> target hexes at t + 1 whose first hit leads from V to a live state
            for w, gm in g_next.items():
                h = gm & hexes_of[w]
                while h:
                    b = h & -h
                    h ^= b
                    v = w ^ number[b]
                    into[v] = into.get(v, 0) | b
            g_cur: dict[int, int] = {}
            o = 0
            for v, mm in layers[t].items():
                if v in goal:
                    alive = mm
                elif t < turns:
                    z = g_next.get(v, 0) & ~(anyt & ~hexes_of[v]) | into.get(v, 0)
                    alive = _step_back(z, piv[t]) & mm if z else 0
                else:
                    alive = 0
                if alive:
                    g_cur[v] = alive
                    o |= alive
            occ[t] = o
            g_next = g_cur
        return occ
