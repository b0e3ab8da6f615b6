"""A provably shortest solution of a RoPaSci 360 single-player puzzle (``solve``), by iterative deepening.

The search is over joint positions (every Upper token moves each turn), not token by token. For a turn limit
T = L, L + 1, ... it looks, depth first, for a plan of exactly that many turns; the first T with a plan gives
an optimal one. A branch is cut as soon as a lower bound exceeds the turns left:

* a cheap bound, for every position generated: per symbol, the tokens share out their remaining targets and
  each visits its share (a tour over the targets; a turn covers at most two hexes), and no target can be
  reached before the closest token of any kind could slide there (see ``relax`` for why);
* the relaxation of ``relax``, for every position entered: far stronger (it knows that a swing needs a
  pivot where another token can really be at that time), warm-started from the parent's result, whose
  per-token sets also filter each token's moves before the joint moves are formed.

What a branch is proven not to manage is remembered (a table of lower bounds per position) across depths and
thresholds. Positions are canonical (Upper tokens sorted: tokens of one symbol are interchangeable), and a
position is dead when some Lower token has no predator left or none can reach it.

``solve`` runs this search in C (``solver.c``, ``NativeSearch``: the same nodes, 30 to 70 times faster) when the
core builds; ``Search`` is its Python twin, used with ``ROPASCI_NATIVE=0`` or without a compiler. Both search a
position of workers (tokens with targets left: one, or two of different classes) and escorts (one or two, with
none; or one worker beside three escorts of one class, one of them tracked as a worker) over the workers' moves
alone, the escorts as the set of placements those moves leave possible (``bdfs`` in C, ``escorts.py`` in Python;
``docs/puzzles.md``, "Workers with escorts"): the course's tours take hundredths of a second in C instead of
seconds. ``ROPASCI_ESCORTS=0`` turns that off (joint moves only). Three workers, one of them
alone in its class, are searched over two tokens' moves with that one carried as the set of its placements (``cdfs``
in C, ``carried.py``; ``ROPASCI_CARRY=0`` turns it off): about half the time on the course's far, split and walls
kinds, and a fifth of the positions where two workers share a class.
Both refute positions where a worker could not finish even with the others as nothing but its pivots (the oracle,
``oracle.py``; ``ROPASCI_ORACLE=0`` turns it off): the slowest of those kinds take a tenth of the time.
"""
from __future__ import annotations

import ctypes
import itertools
import os
import time
from collections import deque
from operator import or_
from pathlib import Path

from games.engine import native
from games.ropasci360.rules import HEXES, INDEX, NEIGHBOURS, N

from .carried import CARRY_TARGETS, CarrySearch
from .escorts import GONE, EscortSearch
from .oracle import Oracle, knobs, prey
from .position import Position, parse_position
from .relax import BIT, Relaxation, mask_of

MAX_TURNS = 60  # the game's turn limit too
CODE = {"r": 0, "p": 1, "s": 2}
LETTER = "rps"
NAMES = ("rock", "paper", "scissors")
# Symbols (as a bitmask 1 << code) that fall on a hex, by the mask of symbols there: code c beats (c + 2) % 3.
DEAD = (0, 0, 0, 0b001, 0, 0b100, 0b010, 0b111)
FAR = 10 ** 6
TABLE_LIMIT = 8_000_000  # remembered bounds; the table starts afresh beyond this (only speed is lost: 2,000,000 left
# four-4x9-850 unsolved in 10 minutes, its oracle's table starting afresh again and again; 8,000,000: 40 s, 0.4 GB)
NATIVE_MAX_TURNS = 120  # the C core's arrays (MAXT in solver.c); longer limits use the Python search
TOKENS_MAX = 9  # MAXK and MAXG in solver.c (position.MAX_UPPER, MAX_LOWER)
EFFORT_MAX = 0x7FFF  # the C core keeps a refutation's effort in 15 bits of its table's entry
# The children of a position at depth 1 of the joint search are taken in rounds: each this many positions at first,
# twice as many each round (0: one at a time to the end). Where a plan lies below a later child, the ones before it
# no longer cost their whole subtrees first; a refutation loses little, since what a child refuted is kept.
ROUND_FIRST = 1_000


class OutOfTime(Exception):
    """``solve`` passed its deadline."""


class Left(Exception):
    """A child taken in a round spent the round's positions: it is taken up again in the next (``ROUND_FIRST``)."""


def predator(code: int) -> int:
    """The symbol that beats ``code``."""
    return (code + 1) % 3


class Board:
    """What never changes in one puzzle: blocks, the Lower tokens (one group per hex: tokens sharing a hex have
    one symbol and fall together), each hex's moves and per-class distances (lazily)."""

    def __init__(self, position: Position):
        blocks = {INDEX[h] for h in position.blocks}
        free = [i not in blocks for i in range(N)]
        self.slides = tuple(tuple(b for b in NEIGHBOURS[a] if free[b]) for a in range(N))
        self.swings = tuple(
            tuple((y, tuple(z for z in NEIGHBOURS[y] if z != a and z not in NEIGHBOURS[a] and free[z]))
                  for y in NEIGHBOURS[a] if free[y])
            for a in range(N))
        groups = {INDEX[h]: CODE[s] for s, h in position.lower}
        self.groups = tuple(sorted(groups.items()))  # (hex, symbol code)
        self.group_at = {h: g for g, (h, _) in enumerate(self.groups)}
        # The groups each class (Upper symbol) must remove, and where a token of that class may not land: under
        # a Lower token that beats it and can never be removed (nothing on the board beats that token).
        self.targets = tuple(tuple(g for g, (_, s) in enumerate(self.groups) if predator(s) == c) for c in range(3))
        present = {CODE[s] for s, _ in position.upper}
        deadly = tuple(frozenset(h for h, s in self.groups if s == predator(c) and predator(s) not in present)
                       for c in range(3))
        self.free = free
        self.safe = tuple(tuple(free[i] and i not in deadly[c] for i in range(N)) for c in range(3))
        self.relaxation = Relaxation(mask_of(i for i in range(N) if free[i]),
                                     tuple(mask_of(i for i in range(N) if self.safe[c][i]) for c in range(3)))
        self._dist: dict = {}

    def kill(self, c: int, lower: int) -> int:
        """Where a Lower token of ``lower`` beats class c (c < 0: nowhere), as a mask of the relaxation's grid."""
        m = 0
        if c >= 0:
            for g, (h, s) in enumerate(self.groups):
                if lower >> g & 1 and s == predator(c):
                    m |= BIT[h]
        return m

    def dist(self, kind: str, c: int, target: int) -> list[int]:
        """Turns from every hex to ``target``: kind "swing" for a token of class c, two hexes a turn as if a pivot
        were always there, landing only where it may; "front" for any token sliding over free hexes."""
        key = (kind, c, target)
        d = self._dist.get(key)
        if d is None:
            d = self._dist[key] = self._bfs(kind, c, target)
        return d

    def _bfs(self, kind: str, c: int, target: int) -> list[int]:
        land = self.free if kind == "front" else self.safe[c]
        dist = [FAR] * N
        dist[target] = 0
        queue = deque([target])
        while queue:  # moves are symmetric: slides obviously, a swing a->z around y is z->a around y
            a = queue.popleft()
            nd = dist[a] + 1
            nxt = list(self.slides[a])
            if kind == "swing":
                for _, zs in self.swings[a]:
                    nxt.extend(zs)
            for b in nxt:
                if dist[b] > nd and land[b]:
                    dist[b] = nd
                    queue.append(b)
        return dist

    def moves(self, a: int, occupied: set) -> list[int]:
        """Destinations of a token on hex ``a`` (slides, then swings around occupied hexes; each hex once)."""
        out = list(self.slides[a])
        for y, zs in self.swings[a]:
            if y in occupied:
                for z in zs:
                    if z not in out:
                        out.append(z)
        return out

    @staticmethod
    def falls(mask: int) -> int:
        """The symbols (as a mask) that fall on a hex holding the symbols of ``mask`` (Upper's and Lower's)."""
        return DEAD[mask]

    def resolve(self, ups: tuple, lower: int, dests) -> tuple[tuple, int]:
        """The position after Upper's tokens (codes ``symbol << 6 | hex``) move to ``dests``: battles on every
        hex where a token landed."""
        arrive: dict[int, int] = {}
        for u, d in zip(ups, dests):
            arrive[d] = arrive.get(d, 0) | 1 << (u >> 6)
        dead_at = {}
        for d, mask in arrive.items():
            g = self.group_at.get(d)
            if g is not None and lower >> g & 1:
                s = self.groups[g][1]
                dead = DEAD[mask | 1 << s]
                if dead >> s & 1:
                    lower &= ~(1 << g)
            else:
                dead = DEAD[mask]
            if dead:
                dead_at[d] = dead
        if not dead_at:
            return tuple(sorted((u & ~63) | d for u, d in zip(ups, dests))), lower
        return tuple(sorted((u & ~63) | d for u, d in zip(ups, dests)
                            if not dead_at.get(d, 0) >> (u >> 6) & 1)), lower


class Search:
    """One solve: the iterative deepening, its bounds and its statistics (``nodes``: positions entered,
    ``relaxations``: runs of the relaxation, ``thresholds``: turn counts tried)."""

    def __init__(self, board: Board, deadline: float | None = None, oracle: bool = True):
        self.board = board
        self.deadline = deadline
        self.known: dict = {}  # (ups, lower) -> proven lower bound on the turns still needed
        # (ups, lower) -> positions searched to refute it last time (at most EFFORT_MAX): children are tried the
        # hardest to refute first, since in the last round a plan most often lies below such a position.
        self.effort: dict = {}
        self.target_bit = tuple({g: 1 << j for j, g in enumerate(board.targets[c])} for c in range(3))
        self._estimates: dict = {}
        self._tour: dict = {}
        self._paths: dict = {}
        self._local: dict = {}  # Lower tokens left -> each class's remaining targets
        self._left: dict = {}  # Lower tokens left -> each class's remaining target hexes
        self.nodes = self.relaxations = self.thresholds = 0
        self.limit = float("inf")  # positions entered beyond which the child of a round is Left
        self.max_turns = 0
        self.root = 0  # the turn count under way (run)
        # Workers with escorts searched as such, as the C core does (ROPASCI_ESCORTS=0: joint moves only).
        self.escorts = EscortSearch(self) if os.environ.get("ROPASCI_ESCORTS", "1") != "0" else None
        # Three workers of three classes searched with one carried as a set (``carried.py``; ROPASCI_CARRY=0: not).
        self.carry = CarrySearch(self) if os.environ.get("ROPASCI_CARRY", "1") != "0" else None
        # Both ask whether each worker could finish alone with the others as its escorts (``oracle.py``;
        # ROPASCI_ORACLE=0 or ROPASCI_ESCORTS=0: not; its own searches are the escorts'). The smaller puzzles'
        # searches have no oracle of their own.
        self.oracle = None
        if oracle and self.escorts is not None and os.environ.get("ROPASCI_ORACLE", "1") != "0":
            self.oracle = Oracle(self, lambda c: Search(smaller_board(board, c), deadline, oracle=False))
        # Lower bounds on the optimum: "estimate" (tours and front lemma at the root), "relaxation" (the first
        # turn count the root's relaxation allows) and "proved" (every smaller turn count refuted by the search).
        self.bounds: dict = {}

    # --- bounds -----------------------------------------------------------------------------------------
    def _tsp(self, c: int):
        """cost[S][e]: turns to hit every target of class c in the set S (bits over ``targets[c]``), starting on
        target e (in S), two hexes a turn."""
        got = self._paths.get(c)
        if got is None:
            b = self.board
            hexes = [b.groups[g][0] for g in b.targets[c]]
            m = len(hexes)
            d = [[b.dist("swing", c, hexes[j])[hexes[i]] for j in range(m)] for i in range(m)]
            cost = [[FAR] * m for _ in range(1 << m)]
            for s in range(1, 1 << m):
                for e in range(m):
                    if s >> e & 1:
                        rest = s & ~(1 << e)
                        cost[s][e] = 0 if not rest else min(
                            (d[e][f] + cost[rest][f] for f in range(m) if rest >> f & 1), default=FAR)
            got = self._paths[c] = (hexes, cost)
        return got

    def tour(self, c: int, x: int, s: int) -> int:
        """Turns for one token of class c on hex x to hit the targets in s."""
        if not s:
            return 0
        key = (c, x, s)
        v = self._tour.get(key)
        if v is None:
            hexes, cost = self._tsp(c)
            v = min((self.board.dist("swing", c, h)[x] + cost[s][e] for e, h in enumerate(hexes) if s >> e & 1),
                    default=FAR)
            self._tour[key] = v
        return v

    def share(self, c: int, xs: tuple, s: int) -> int:
        """Turns for class c's tokens on hexes ``xs`` to hit the targets in s between them: the best sharing
        for one or two tokens; for three, only the farthest target from its nearest token (the best sharing
        costs 3^targets steps, too many for every joint move; the relaxation does the sharing then)."""
        if not s:
            return 0
        if not xs:
            return FAR
        if len(xs) == 1:
            return self.tour(c, xs[0], s)
        if len(xs) > 2:
            return max(min(self.tour(c, x, 1 << j) for x in xs) for j in range(s.bit_length()) if s >> j & 1)
        key = (c, xs, s)
        v = self._tour.get(key)
        if v is None:
            v = FAR
            a = s
            while True:  # every subset a of s for the first token, the rest shared by the others
                first = self.tour(c, xs[0], a)
                if first < v:
                    v = min(v, max(first, self.share(c, xs[1:], s & ~a)))
                if not a:
                    break
                a = (a - 1) & s
            self._tour[key] = v
        return v

    def local(self, c: int, lower: int) -> int:
        """The class's remaining targets as bits over ``targets[c]``."""
        got = self._local.get(lower)
        if got is None:
            if len(self._local) > TABLE_LIMIT:
                self._local.clear()
            got = self._local[lower] = tuple(sum(1 << j for j, g in enumerate(self.board.targets[k]) if lower >> g & 1)
                                             for k in range(3))
        return got[c]

    def estimate(self, ups: tuple, lower: int) -> tuple[int, int, int]:
        """(lower bound, sum of the per-class bounds, how far target-less tokens are from the busiest class):
        the bound cuts branches, the whole tuple orders the moves tried first."""
        key = (ups, lower)
        got = self._estimates.get(key)
        if got is None:
            if len(self._estimates) > TABLE_LIMIT:
                self._estimates.clear()
            got = self._estimates[key] = self._estimate(ups, lower)
        return got

    def _estimate(self, ups: tuple, lower: int) -> tuple[int, int, int]:
        b = self.board
        per_class = []
        worst, busiest = 0, ()
        for c in range(3):
            s = self.local(c, lower)
            xs = tuple(u & 63 for u in ups if u >> 6 == c)
            v = self.share(c, xs, s) if s else 0
            per_class.append(v)
            if s and v >= worst:
                worst, busiest = v, xs
        front = 0
        for g, (h, _) in enumerate(b.groups):
            if lower >> g & 1:
                dist = b.dist("front", 0, h)
                front = max(front, min(dist[u & 63] for u in ups))
        escort = 0
        if busiest:
            for u in ups:
                if not self.local(u >> 6, lower):
                    escort += min(b.dist("front", 0, x)[u & 63] for x in busiest)
        return max(worst, front), sum(per_class), escort

    def targets_left(self, c: int, lower: int) -> tuple:
        """The hexes of class c's remaining targets."""
        left = self._left.get(lower)
        if left is None:
            if len(self._left) > TABLE_LIMIT:
                self._left.clear()
            b = self.board
            left = self._left[lower] = tuple(tuple(b.groups[g][0] for g in b.targets[k] if lower >> g & 1)
                                             for k in range(3))
        return left[c]

    def tokens(self, ups: tuple, lower: int) -> list:
        """The relaxation's tokens: (class, its hex as a mask, the hexes of its class's remaining targets)."""
        return [(u >> 6, BIT[u & 63], self.targets_left(u >> 6, lower)) for u in ups]

    @property
    def oracle_stats(self) -> tuple[int, int, int, int]:
        """The oracle's smaller puzzles searched, their nodes and relaxations, and the positions it refuted."""
        o = self.oracle
        if o is None:
            return 0, 0, 0, 0
        return (o.queries, sum(s.nodes for s in o.subs.values()), sum(s.relaxations for s in o.subs.values()),
                o.refuted)

    def check_limits(self) -> None:
        """On entering a position: past the deadline, or past the positions of the round under way."""
        if self.deadline is not None and time.perf_counter() > self.deadline:  # a node costs far more than this
            raise OutOfTime
        if self.nodes > self.limit:
            raise Left

    def relax(self, ups, lower, turns, init=None):
        self.relaxations += 1
        return self.board.relaxation.run(self.tokens(ups, lower), turns, init)

    # --- the search -------------------------------------------------------------------------------------
    def run(self, ups: tuple, lower: int, max_turns: int):
        """The dests of each turn of a shortest plan (as lists, in ``ups`` order of that turn), or None."""
        if not lower:
            return []
        if dead_reason(self.board, ups, lower):
            return None
        turns = self.bounds["estimate"] = self.bounds["proved"] = max(1, self.estimate(ups, lower)[0])
        self.max_turns = max_turns
        while turns <= max_turns:
            self.thresholds += 1
            self.root = turns  # the depth of a position is root - its budget
            if self.oracle is not None:
                self.oracle.critical_four = 0
            occ = self.relax(ups, lower, turns)
            if occ is not None:
                self.bounds.setdefault("relaxation", turns)
                path: list = []
                if self._dfs(ups, lower, turns, occ, path):
                    self.bounds["proved"] = turns
                    return path[::-1]
            turns += 1
            self.bounds["proved"] = turns  # no plan of fewer turns: each threshold below failed exhaustively
        return None

    def _escorts(self, ups: tuple, lower: int, budget: int, occ, path: list) -> bool | None:
        """The search of workers with escorts from here (``escorts.py``), when the position is one: whether a plan
        of ``budget`` turns exists; None when it is not such a position."""
        wi, es = [], []
        for i, u in enumerate(ups):
            if not self.local(u >> 6, lower):
                es.append(i)
            elif len(wi) < 2:
                wi.append(i)
        e = self.escorts
        e.ask = len(ups) <= 3
        if len(ups) == 4:
            if len(wi) != 1 or len(es) != 3 or len({ups[i] >> 6 for i in es}) != 1:
                return None
            # one worker and three escorts of one class: the escort nearest the worker is tracked as a worker
            near = min(es, key=lambda i: (self.board.dist("front", 0, ups[wi[0]] & 63)[ups[i] & 63], i))
            es.remove(near)
            wi = sorted(wi + [near])
        if not es or not wi or len(es) + len(wi) < len(ups) or (len(wi) == 2 and ups[wi[0]] >> 6 == ups[wi[1]] >> 6):
            return None
        e.ca = ups[es[0]] >> 6 if len(es) == 2 else -1
        e.cb = ups[es[-1]] >> 6
        X = {ups[es[0]] & 63 if len(es) == 2 else GONE: BIT[ups[es[-1]] & 63]}
        occ4 = [occ[wi[0]], occ[wi[1]] if len(wi) == 2 else None, occ[es[0]] if len(es) == 2 else None, occ[es[-1]]]
        wk = tuple(ups[i] for i in wi)
        if len(wk) == 2 and self.oracle is not None and e.ask:
            self.oracle.mode(0)
            self.oracle.critical = self.oracle.pick(ups, lower, budget)
        self.nodes -= 1  # counted there
        if e.dfs(wk, lower, X, budget, occ4, 0):
            path.extend(reversed(e.record(wk, lower, X, 0)))
            return True
        self.known[(ups, lower)] = budget + 1
        return False

    def _carried(self, ups: tuple, lower: int, budget: int, occ, path: list) -> bool | None:
        """The search with one worker carried as a set (``carried.py``) from here, when three workers are left and
        one at least is alone in its class: whether a plan of ``budget`` turns exists; None when it is not such a
        position."""
        classes = [u >> 6 for u in ups]
        if len(ups) != 3 or len(set(classes)) == 1 or not all(self.local(c, lower) for c in classes):
            return None
        lone = [i for i, c in enumerate(classes) if classes.count(c) == 1]
        if len(lone) == 1 and self.local(classes[lone[0]], lower).bit_count() > CARRY_TARGETS:
            return None
        crit = 0
        if self.oracle is not None:
            self.oracle.mode(1 if len(lone) == 3 else 2)
            crit = self.oracle.critical = self.oracle.pick(ups, lower, budget)
        # W is alone in its class (two tokens of one class are tracked: they share their targets). Of three classes:
        # one with at most three targets (the fewer rows, the cheaper each step), then a worker the oracle need not
        # ask about (asking about W costs a question per placement), then the fewest targets
        w = min(lone, key=lambda i: (self.local(ups[i] >> 6, lower).bit_count() > 3, crit >> (ups[i] >> 6) & 1,
                                     self.local(ups[i] >> 6, lower).bit_count(), i))
        cr = self.carry
        cr.start(ups[w] >> 6)
        tk = tuple(u for i, u in enumerate(ups) if i != w)
        lt = lower & ~cr.wgroups
        X = {self.local(ups[w] >> 6, lower): BIT[ups[w] & 63]}
        self.nodes -= 1  # counted there
        if cr.dfs(tk, lt, X, budget, [o for i, o in enumerate(occ) if i != w], occ[w], 0):
            path.extend(reversed(cr.record(tk, lt, X)))
            return True
        self.known[(ups, lower)] = budget + 1
        return False

    def _four_allowed(self, ups: tuple, lower: int, budget: int) -> bool:
        """The oracle in the joint search of four tokens (``Oracle.pick`` at the root of each turn count, then in
        its first turns): whether each tight worker alone in its class could finish with the other three where they
        are."""
        o = self.oracle
        depth = self.root - budget
        o.mode(3)
        if depth == 0:
            o.critical_four = o.pick(ups, lower, budget)
        if depth >= o.ask_depth:
            return True
        for i, u in enumerate(ups):
            if o.critical_four >> (u >> 6) & 1 and not o.allows_four(
                    u >> 6, u & 63, lower, tuple(v & 63 for j, v in enumerate(ups) if j != i), budget, depth == 0):
                return False
        return True

    def _dfs(self, ups: tuple, lower: int, budget: int, occ, path: list) -> bool:
        """Is there a plan of ``budget`` turns from here? ``occ``: the relaxation's per-token hex sets."""
        self.nodes += 1
        first = self.nodes
        self.check_limits()
        b = self.board
        known = self.known
        if self.escorts is not None and len(ups) <= 4:
            got = self._escorts(ups, lower, budget, occ, path)
            if got is False:
                self.effort[(ups, lower)] = min(self.nodes - first + 1, EFFORT_MAX)
            if got is not None:
                return got
        if self.carry is not None:
            got = self._carried(ups, lower, budget, occ, path)
            if got is False:
                self.effort[(ups, lower)] = min(self.nodes - first + 1, EFFORT_MAX)
            if got is not None:
                return got
        if (len(ups) == 4 and self.oracle is not None and sum(map(bool, b.targets)) > 1
                and not self._four_allowed(ups, lower, budget)):
            self.oracle.refuted += 1
            known[(ups, lower)] = budget + 1
            return False
        occupied = {u & 63 for u in ups}
        lists = []
        for i, u in enumerate(ups):
            alive = occ[i][1]
            dests = b.moves(u & 63, occupied)
            keep = [d for d in dests if BIT[d] & alive]
            # Falling on purpose onto a Lower token that beats it (the relaxation keeps a token off those).
            if len(ups) > 1:
                kill = b.kill(u >> 6, lower)
                keep += [d for d in dests if BIT[d] & kill and not BIT[d] & alive]
            if not keep:
                known[(ups, lower)] = budget + 1
                return False
            lists.append(keep)
        # Per class, the combinations of its tokens' moves that keep its own bound within the budget (a
        # class's targets fall only to its own tokens), then every joint move made of those.
        parts = []
        for c in sorted({u >> 6 for u in ups}):
            idx = [i for i, u in enumerate(ups) if u >> 6 == c]
            s = self.local(c, lower)
            prey = (c + 2) % 3
            combos = []
            landed = set()
            for combo in class_moves(ups, idx, lists):
                where = combo
                if len(combo) > 1:
                    where = tuple(sorted(combo))
                    if where in landed:  # the class's tokens are interchangeable: the same hexes, the same child
                        continue
                    landed.add(where)
                # What the combination does on its own: its tokens' codes, hexes, the Lower groups it removes,
                # and whether it lands on a Lower token it does not simply beat (then the battles are resolved).
                hit = gone = plain = 0
                for d in combo:
                    plain |= 1 << d
                    g = b.group_at.get(d)
                    if g is not None and lower >> g & 1:
                        if b.groups[g][1] != prey:
                            gone = -1
                        else:
                            gone |= 1 << g
                            hit |= self.target_bit[c][g]
                if s and self.share(c, where, s & ~hit) >= budget:
                    continue
                combos.append((combo, tuple(c << 6 | d for d in where), plain, gone))
            if not combos:
                known[(ups, lower)] = budget + 1
                return False
            parts.append((idx, combos))
        children = []
        seen = set()
        dests = [0] * len(ups)
        for n, choice in enumerate(itertools.product(*(combos for _, combos in parts))):
            if not n & 4095 and n and self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfTime  # nine tokens may make millions of joint moves in one node
            # The usual case without ``resolve``: the classes land on different hexes and each only removes
            # its prey there (classes come in code order and each combination's codes are sorted: so is new).
            taken = removed = 0
            new = ()
            for combo, codes, plain, gone in choice:
                if taken & plain or gone < 0:
                    new = None
                    break
                taken |= plain
                removed |= gone
                new += codes
            if new is None:
                new, nl = b.resolve(ups, lower, joint(parts, choice, dests))
                if nl and any(self.local(c, nl) and not any(u >> 6 == c for u in new) for c in range(3)):
                    continue  # a Lower token left without a predator: a dead child, passed over
            else:
                nl = lower & ~removed
            if not nl:
                path.append((ups, joint(parts, choice, dests)))
                return True
            key = (new, nl)
            if not new or key in seen or known.get(key, 0) >= budget:
                continue
            seen.add(key)
            est = self.estimate(new, nl)
            if est[0] >= budget:
                known[key] = max(known.get(key, 0), est[0])
                continue
            children.append(((est[0], -self.effort.get(key, 0), est[1], est[2]), choice, new, nl))
        children.sort(key=lambda t: t[0])
        # A child's token starts from the hexes any token of its class could occupy from time 1 on (the child's
        # tokens are the parent's, moved once and re-sorted): one list per class, the same for every child.
        by_class: dict = {}
        for pu, po in zip(ups, occ):
            merged = by_class.get(pu >> 6)
            by_class[pu >> 6] = po[1:] if merged is None else list(map(or_, merged, po[1:]))
        cap = ROUND_FIRST if self.root - budget == 1 else 0  # in rounds at depth 1 (the oracle's searches: never)
        while children:
            left = []
            for item in children:
                _, choice, new, nl = item
                key = (new, nl)
                if known.get(key, 0) >= budget:  # learnt while searching an earlier sibling
                    continue
                child = self.relax(new, nl, budget - 1, [by_class[u >> 6] for u in new])
                if child is not None:
                    if cap:
                        self.limit = self.nodes + cap
                        try:
                            found = self._dfs(new, nl, budget - 1, child, path)
                        except Left:
                            left.append(item)
                            continue
                        finally:
                            self.limit = float("inf")
                    else:
                        found = self._dfs(new, nl, budget - 1, child, path)
                    if found:
                        path.append((ups, joint(parts, choice, dests)))
                        return True
                known[key] = budget
            children, cap = left, cap * 2
        if len(known) > TABLE_LIMIT:
            known.clear()
            self.effort.clear()
        known[(ups, lower)] = budget + 1
        self.effort[(ups, lower)] = min(self.nodes - first + 1, EFFORT_MAX)
        return False


class NativeSearch:
    """``Search.run`` done by the C core (``solver.c``, the same search step for step, 30 to 70 times faster): the
    same statistics and bounds, OutOfTime past the deadline."""

    def __init__(self, lib, board: Board, deadline: float | None = None):
        self.lib = lib
        self.board = board
        self.deadline = deadline
        self.nodes = self.relaxations = self.thresholds = 0
        self.oracle_stats = (0, 0, 0, 0)
        self.bounds: dict = {}

    def run(self, ups: tuple, lower: int, max_turns: int):
        if not lower:
            return []
        if dead_reason(self.board, ups, lower):
            return None
        row = 1 + 2 * TOKENS_MAX
        max_turns = max(0, max_turns)  # no turn count to try either way
        tables = _tables(self.board)
        stats = (ctypes.c_longlong * 10)()
        path = (ctypes.c_int * (row * max(1, max_turns)))()
        oracle = (ctypes.POINTER(ctypes.c_int) * 3)()
        if (os.environ.get("ROPASCI_ORACLE", "1") != "0" and os.environ.get("ROPASCI_ESCORTS", "1") != "0"
                and sum(map(bool, self.board.targets)) > 1):
            for c in range(3):
                if self.board.targets[c]:
                    sub = _tables(smaller_board(self.board, c))
                    oracle[c] = (ctypes.c_int * len(sub))(*sub)
        got = self.lib.ropasci_solve((ctypes.c_int * len(tables))(*tables), len(ups), (ctypes.c_int * len(ups))(*ups),
                                     max_turns, 1e308 if self.deadline is None else self.deadline, stats, path,
                                     os.environ.get("ROPASCI_ESCORTS", "1") != "0",
                                     os.environ.get("ROPASCI_CARRY", "1") != "0", oracle, (ctypes.c_int * 21)(*knobs()),
                                     ROUND_FIRST)
        if got == -2:
            raise MemoryError("the puzzle solver's C core ran out of memory")
        if got == -3:
            raise RuntimeError("the puzzle solver's C core found a plan it could not write out")
        self.nodes, self.relaxations, self.thresholds, estimate, relaxation, proved = stats[:6]
        self.oracle_stats = tuple(stats[6:])
        self.bounds = {"estimate": estimate, "proved": proved}
        if relaxation >= 0:
            self.bounds["relaxation"] = relaxation
        if got < 0:
            raise OutOfTime
        if got == 0:
            return None
        steps = []
        for t in range(got):
            n = path[t * row]
            codes = path[t * row + 1: t * row + 1 + TOKENS_MAX]
            dests = path[t * row + 1 + TOKENS_MAX: (t + 1) * row]
            steps.append((tuple(codes[:n]), tuple(dests[:n])))
        return steps


def _tables(board: Board) -> list[int]:
    """The board as ``ropasci_solve`` reads it (``board_init`` in solver.c): hexes' bits on relax's grid, free and
    safe hexes, each hex's slides and swings in the Python order (so that ties break alike), groups."""
    out = [BIT[i].bit_length() - 1 for i in range(N)]
    out += [int(f) for f in board.free]
    for c in range(3):
        out += [int(f) for f in board.safe[c]]
    for a in range(N):
        out += [len(board.slides[a]), *board.slides[a], *[0] * (6 - len(board.slides[a]))]
    for a in range(N):
        out.append(len(board.swings[a]))
        for y, zs in board.swings[a]:
            out += [y, len(zs), *zs, *[0] * (3 - len(zs))]
        out += [0] * 5 * (6 - len(board.swings[a]))
    pad = [0] * (TOKENS_MAX - len(board.groups))
    out += [len(board.groups), *(h for h, _ in board.groups), *pad, *(s for _, s in board.groups), *pad]
    return out


def native_core():
    """The loaded C core (``solver.c``), or None: then the Python ``Search`` runs (``ROPASCI_NATIVE=0``, no
    compiler)."""
    lib = native.load(Path(__file__).with_name("solver.c"))
    if lib is not None and lib.ropasci_solve.argtypes is None:
        lib.ropasci_solve.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                                      ctypes.c_int, ctypes.c_double, ctypes.POINTER(ctypes.c_longlong),
                                      ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int,
                                      ctypes.POINTER(ctypes.POINTER(ctypes.c_int)), ctypes.POINTER(ctypes.c_int),
                                      ctypes.c_int]
        lib.ropasci_solve.restype = ctypes.c_int
    return lib


def joint(parts, choice, dests: list) -> tuple:
    """The joint move (a destination per token, in ``ups`` order) made of one combination per class."""
    for (idx, _), (combo, *_) in zip(parts, choice):
        for i, d in zip(idx, combo):
            dests[i] = d
    return tuple(dests)


def class_moves(ups: tuple, idx: list, lists: list):
    """The moves of the tokens ``idx`` of one class, one tuple per combination (in ``idx`` order); tokens on one
    hex with the same moves are interchangeable, so they take each multiset of those moves once (nine stacked
    tokens with six moves: 2,002 combinations instead of 10 million)."""
    runs = []  # [number of tokens, their moves, the first's index]; ups is sorted: identical tokens are neighbours
    for i in idx:
        if runs and ups[i] == ups[runs[-1][2]] and lists[i] == runs[-1][1]:
            runs[-1][0] += 1
        else:
            runs.append([1, lists[i], i])
    for parts in itertools.product(*(itertools.combinations_with_replacement(moves, n) for n, moves, _ in runs)):
        yield tuple(itertools.chain.from_iterable(parts))


def smaller_board(board: Board, c: int) -> Board:
    """The board of the oracle's smaller puzzle for class c (``oracle.py``): the same blocks, c's targets only, and
    Upper tokens of class c and of the class it beats (a Board reads only their symbols)."""
    spot = HEXES[0]
    return Board(Position(upper=((LETTER[c], spot), (LETTER[prey(c)], spot)),
                          lower=tuple((LETTER[board.groups[g][1]], HEXES[board.groups[g][0]])
                                      for g in board.targets[c]),
                          blocks=tuple(HEXES[i] for i in range(N) if not board.free[i])))


def dead_reason(board: Board, ups: tuple, lower: int) -> str | None:
    """Why no plan can exist, or None: no Upper token left; one that cannot move (then no turn can be played);
    a Lower token that nothing left can beat, or that none of its predators can ever reach (moving as if every
    free hex could hold a pivot)."""
    if not lower:
        return None
    if not ups:
        return "no Upper tokens left"
    for u in ups:
        if not board.slides[u & 63]:
            return f"Upper's token on {HEXES[u & 63]} cannot move"
    for g, (h, s) in enumerate(board.groups):
        if lower >> g & 1:
            c = predator(s)
            where = f"Lower's {NAMES[s]} on {HEXES[h]}"
            if not any(u >> 6 == c for u in ups):
                return f"nothing left can beat {where}"
            if min(board.dist("swing", c, h)[u & 63] for u in ups if u >> 6 == c) >= FAR:
                return f"no {NAMES[c]} can reach {where}"
    return None


def plan_to_actions(steps) -> list[tuple]:
    """The search's (ups, dests) per turn as the game's actions: one (kind, (r, q), (r, q)) per Upper token,
    tokens in the game's order (symbol, r, q)."""
    actions = []
    for ups, dests in steps:
        moves = []
        for u, d in zip(ups, dests):
            a = u & 63
            moves.append((LETTER[u >> 6], HEXES[a], ("SLIDE" if d in NEIGHBOURS[a] else "SWING", HEXES[a], HEXES[d])))
        moves.sort(key=lambda m: (m[0], m[1], m[2]))
        actions.append(tuple(m[2] for m in moves))
    return actions


def encode(position: Position) -> tuple[Board, tuple, int]:
    board = Board(position)
    ups = tuple(sorted(CODE[s] << 6 | INDEX[h] for s, h in position.upper))
    return board, ups, (1 << len(board.groups)) - 1


def solve(position, *, max_turns: int = MAX_TURNS, stats: dict | None = None,
          deadline: float | None = None) -> list[tuple] | None:
    """A shortest solution of ``position`` (the course's JSON, or a parsed ``Position``): a list of turns,
    each the game's action (a tuple of ``(kind, (r, q), (r, q))``, one per Upper token in the order (symbol,
    r, q)); None if there is none within ``max_turns``. ``stats``, if given, receives ``nodes``,
    ``relaxations``, ``thresholds``, ``oracle`` (``Search.oracle_stats``), ``seconds`` and ``bounds``
    (``Search.bounds``). Raises PositionError for a
    malformed position and OutOfTime once ``time.perf_counter()`` passes ``deadline``."""
    if not isinstance(position, Position):
        position = parse_position(position)
    start = time.perf_counter()
    board, ups, lower = encode(position)
    lib = native_core() if max_turns <= NATIVE_MAX_TURNS else None
    search = Search(board, deadline) if lib is None else NativeSearch(lib, board, deadline)
    try:
        steps = search.run(ups, lower, max_turns)
    finally:
        if stats is not None:
            stats.update(nodes=search.nodes, relaxations=search.relaxations, thresholds=search.thresholds,
                         oracle=search.oracle_stats, seconds=time.perf_counter() - start, bounds=dict(search.bounds))
    return None if steps is None else plan_to_actions(steps)


def why_unsolvable(position) -> str | None:
    """The reason a position can plainly never be solved (see ``dead_reason``), or None."""
    if not isinstance(position, Position):
        position = parse_position(position)
    return dead_reason(*encode(position))
