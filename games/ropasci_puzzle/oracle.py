"""A lower bound from one worker alone: the *oracle* (``docs/puzzles.md``, "One worker alone: the oracle").

A worker X alone in its class is the only token that can remove its targets. Take a plan from any position and
play it in a smaller puzzle: X and its targets left as they are, every other Upper token turned into a token of the
class X beats, every other Lower token gone. The others then never beat X, never beat each other and never fall on a
Lower token; they only fall where X lands on them, and only serve as X's pivots, on the same hexes as in the plan
(a token that fell in the plan lives on in the smaller puzzle and may move anywhere: it can always move back where
it came from). So X removes its targets there in as few turns as in the plan, and the smaller puzzle's optimum is a
lower bound on the turns left. Its search is one worker with two escorts, the escorts' search, while the relaxation
lets X swing wherever another token *may* be: on the course's hard positions the root's relaxation is 2 to 5 turns
under the optimum and this bound at most one or two.

Both searches of several workers (``escorts.py`` with two workers, ``carried.py``) ask, on entering a position in
their first turns, whether each worker that is tight (``pick``) could finish in the turns left with the others where
they may be, and refute the position where one cannot; the carried search also drops W's placements where W
could not. Answers are kept per placement of the others as an interval: refuted below ``lb`` turns, solved in
``ub``. Asking costs a search, so it waits until the search has entered ``WAKE`` positions and stops while the
smaller searches have taken more than ``SPEND`` nodes per position. The searches have their own settings
(``mode``): the carried one also asks about workers with turns to spare, deeper, and stops while its questions refute
too little (``C_YIELD``), which took its slowest position found from 17.5 s to 0.54 s; carried beside two workers of
one class (``T_*``), it asks about W only (the only worker alone in its class) and never stops. The joint search of
four tokens (``F_*``) asks about a tight worker alone in its class with the other three as its escorts
(``allows_four``: that smaller puzzle is one worker and three escorts of one class). ``solver.c`` does the same step
for step;
``ROPASCI_ORACLE=0`` turns it off.
"""
from __future__ import annotations

from .escorts import GBIT, GONE, bits
from .relax import BIT

FAR = 10 ** 6  # solver.FAR
# When to ask (read by each Oracle when it starts, and passed to the C core; see docs/puzzles.md for their figures):
WAKE = 1_000  # not before the search has entered this many positions: easy positions never pay for it
# Per search of several workers, the workers' search with escorts (two workers) and the carried one (three):
SLACK = 0  # about a worker only if it could not finish alone with this many turns to spare
SPEND = 2  # nor once the smaller puzzles' searches took more nodes than this many per position entered
ASK_DEPTH = 5  # in the first turns of a search of several workers only, where what it refutes would cost the most
YIELD_AFTER = 0  # after this many questions (0: never)...
YIELD = 0  # ...nor while it has refuted fewer positions than this many per 100 questions
# The carried search asks about more workers and deeper, but stops if that refutes little (docs/puzzles.md)
C_SLACK, C_SPEND, C_ASK_DEPTH, C_YIELD_AFTER, C_YIELD = 3, 2, 10, 300, 80
# The carried search with two workers of one class tracked asks about W alone, and W is nearly always what holds the
# plan back there (its smaller puzzle 13 turns where the twins' is 6): it asks more and never yields
T_SLACK, T_SPEND, T_ASK_DEPTH, T_YIELD_AFTER, T_YIELD = 3, 4, 10, 0, 0
# The joint search of four tokens asks about a worker alone in its class with the other three as its escorts (the
# smaller puzzle is one worker and three escorts of one class, "Workers with escorts"), tight workers only
F_SLACK, F_SPEND, F_ASK_DEPTH, F_YIELD_AFTER, F_YIELD = 0, 4, 10, 300, 80


def knobs() -> list[int]:
    """The settings above as ``ropasci_solve`` takes them."""
    return [WAKE, SLACK, SPEND, ASK_DEPTH, YIELD_AFTER, YIELD, C_SLACK, C_SPEND, C_ASK_DEPTH, C_YIELD_AFTER, C_YIELD,
            T_SLACK, T_SPEND, T_ASK_DEPTH, T_YIELD_AFTER, T_YIELD,
            F_SLACK, F_SPEND, F_ASK_DEPTH, F_YIELD_AFTER, F_YIELD]


def prey(code: int) -> int:
    """The symbol ``code`` beats (solver's codes: rock 0, paper 1, scissors 2)."""
    return (code + 2) % 3


class Oracle:
    """The smaller puzzles of one ``solver.Search``: one search per worker class, built on first use by
    ``make(c)``, and the answers so far."""

    def __init__(self, search, make):
        self.search = search
        self.make = make  # class -> a Search on the board of its smaller puzzle
        self.subs: dict = {}
        self.known: dict = {}  # (class, hex, targets left, the others' hexes) -> [lb, ub]
        self.queries = 0  # smaller puzzles searched (answers not known before)
        self.critical = 0  # the classes worth asking about in the search under way (bits)
        self.critical_four = 0  # ... in the joint search of four tokens from the root (pick)
        self.spent = 0  # nodes of the smaller puzzles' searches
        self.refuted = 0  # positions it refuted
        self.wake, *modes = knobs()
        self.modes = (modes[:5], modes[5:10], modes[10:15], modes[15:])
        self.mode(0)

    def mode(self, k: int) -> None:
        """The settings for the search about to start: 0 the workers' search with escorts, 1 the carried one, 2 the
        carried one with two workers of one class tracked, 3 the joint search of four tokens."""
        self.slack, self.spend, self.ask_depth, self.yield_after, self.yield_ = self.modes[k]

    def sub(self, c: int):
        got = self.subs.get(c)
        if got is None:
            got = self.subs[c] = self.make(c)
            got.max_turns = self.search.max_turns
        return got

    def allows(self, c: int, x: int, lower: int, fixed: int, loose: int, turns: int, eager: bool) -> bool:
        """Could the worker of class c on hex x remove its targets in ``lower`` within ``turns``, with another token
        on hex ``fixed`` and one more on any hex of the mask ``loose`` (GBIT: or none) as its escorts? Answered from
        what is known of each placement, else by one search of the escorts' kind over the placements not known,
        as its set; a plan found tells which placement it starts from. ``eager``: asked at the start of a search, where
        a question may save a whole turn count, so whatever WAKE and SPEND say."""
        b = self.search.board
        sub = 0
        for j, g in enumerate(b.targets[c]):
            if lower >> g & 1:
                sub |= 1 << j
        known, open_ = self.known, 0
        for one in bits(loose):
            got = known.get((c, x, sub, fixed, one))
            if got is None:
                open_ |= one
            elif turns >= got[1]:
                return True
            elif turns >= got[0]:
                open_ |= one
        if not open_:
            return False
        if not eager and self.later():
            return True  # not yet, or asked too much for what it refutes here: the search goes on without it
        self.queries += 1
        s = self.sub(c)
        e, p = s.escorts, prey(c)
        worker = (c, BIT[x], s.targets_left(c, sub))
        if open_ & ~GBIT:
            e.ca = e.cb = p
            X = {fixed: open_}
            toks = [worker, (p, BIT[fixed], ()), (p, open_ & ~GBIT, ())]
        else:
            e.ca, e.cb = -1, p
            X = {GONE: BIT[fixed]}
            toks = [worker, (p, BIT[fixed], ())]
        s.relaxations += 1
        occ = s.board.relaxation.run(toks, turns, None)
        if occ is not None:
            occ4 = [occ[0], None, occ[1], occ[2]] if len(toks) == 3 else [occ[0], None, None, occ[1]]
            wk = (c << 6 | x,)
            before = s.nodes
            found = e.dfs(wk, sub, X, turns, occ4, 0)
            self.spent += s.nodes - before
            if found:
                escorts = [u & 63 for u in e.record(wk, sub, X, 0)[0][0] if u >> 6 == p]
                escorts.remove(fixed)
                one = BIT[escorts[0]] if escorts else GBIT
                known.setdefault((c, x, sub, fixed, one), [0, FAR])[1] = turns
                return True
        for one in bits(open_):
            known.setdefault((c, x, sub, fixed, one), [0, FAR])[0] = turns + 1
        return False

    def later(self) -> bool:
        """Whether a question not at a search's start waits: before WAKE positions, while the smaller searches have
        taken more than ``spend`` positions per position, or while asking refutes too little."""
        return (self.search.nodes < self.wake or self.spent > self.spend * self.search.nodes
                or 0 < self.yield_after < self.queries and 100 * self.refuted < self.yield_ * self.queries)

    def allows_four(self, c: int, x: int, lower: int, others: tuple, turns: int, eager: bool) -> bool:
        """``allows`` for the worker of class c on x beside three other tokens, on the hexes ``others``: one search of
        its smaller puzzle (one worker, three escorts of one class: the search of workers with escorts), its answer
        kept per placement as ``allows`` keeps them."""
        sub = 0
        for j, g in enumerate(self.search.board.targets[c]):
            if lower >> g & 1:
                sub |= 1 << j
        key = (c, x, sub, tuple(sorted(others)))
        got = self.known.get(key)
        if got is not None and turns >= got[1]:
            return True
        if got is not None and turns < got[0]:
            return False
        if not eager and self.later():
            return True
        self.queries += 1
        s = self.sub(c)
        ups = tuple(sorted([c << 6 | x] + [prey(c) << 6 | h for h in others]))
        before = s.nodes
        occ = s.relax(ups, sub, turns)
        found = occ is not None and s._dfs(ups, sub, turns, occ, [])
        self.spent += s.nodes - before
        got = self.known.setdefault(key, [0, FAR])
        if found:
            got[1] = turns
        else:
            got[0] = turns + 1
        return found

    def pick(self, ups: tuple, lower: int, budget: int) -> int:
        """Before a search of several workers from ups (three or four tokens) with ``budget`` turns: the classes (bits)
        of the workers worth asking about, those alone in their class that could not finish alone, the others where
        they are, with ``slack`` turns to spare. The others would seldom refute anything and each question costs a
        search."""
        s = self.search
        critical = 0
        for i, u in enumerate(ups):
            c = u >> 6
            if not s.local(c, lower) or sum(v >> 6 == c for v in ups) > 1:  # not alone in its class: no smaller puzzle
                continue
            o = tuple(v & 63 for j, v in enumerate(ups) if j != i)
            t = budget - self.slack - 1
            if t <= 0 or not (self.allows(c, u & 63, lower, o[0], BIT[o[1]], t, True) if len(o) == 2
                              else self.allows_four(c, u & 63, lower, o, t, True)):
                critical |= 1 << c
        return critical
