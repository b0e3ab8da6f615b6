"""Othello bots: the evaluation (for the generic ``greedy`` level) and the ``strong`` level's own search.

``strong`` works on the rules' bitboards (``own``, ``opp``: the side to move and the other) and never touches
engine states inside the search. Midgame: negamax alpha-beta with principal-variation search, iterative
deepening under the wall-clock budget, a transposition table kept between moves, and move ordering (the
table's move, then squares by static value and, deeper in the tree, fewest replies for the opponent). With
``SOLVE_EMPTIES`` or fewer empty squares it first tries to solve the game exactly (win / draw / loss: a
window of one disc around zero) with fastest-first ordering; a proven win or draw is played, and a proven
loss, or a solve the clock cut short, falls back to the midgame search with the time left.

The evaluation, for the side to move: corners; X squares (diagonally next to an empty corner) and C squares
(beside one) as liabilities; mobility (placements now); potential mobility (frontier discs: next to an
empty square, where the opponent can later find placements); stable discs (edge runs anchored in an own
corner, and discs on a filled edge, which can never be flipped); parity (the side to move gets the last
placement when the number of empties is odd); and the disc count, which matters only near the end.
"""
from __future__ import annotations

import time

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot

from .rules import CELLS, FULL, INDEX, SIDE_INDEX, flips, placements, squares_of

WIN = 100000.0  # a finished game, for ``evaluate``
WON = 10000  # a finished game inside the search, plus the disc difference
SOLVE_EMPTIES = 20  # try an exact solve from this many empty squares
SOLVE_SHARE = 0.7  # ... within this share of the budget (the midgame search gets the rest)
CHECK_EVERY = 256  # nodes between clock checks
TABLE_LIMIT = 400_000  # entries kept between moves

CORNER, X_SQUARE, C_SQUARE = 30.0, 12.0, 4.0
MOBILITY, FRONTIER, STABLE, PARITY = 4.0, 1.5, 5.0, 2.0
DISC_FROM = 20  # empties below which each disc starts to count, up to DISC_MAX a disc at the end
DISC_MAX = 2.0

NOT_COL0 = 0xFEFEFEFEFEFEFEFE
NOT_COL7 = 0x7F7F7F7F7F7F7F7F


def _bit(r: int, c: int) -> int:
    return 1 << (r * 8 + c)


def _corner_tables():
    """Per corner: its bit, its X square, its two C squares (as one mask) and its two edge rays."""
    out = []
    for r, c in ((0, 0), (0, 7), (7, 0), (7, 7)):
        dr, dc = (1 if r == 0 else -1), (1 if c == 0 else -1)
        rays = (tuple(_bit(r, c + dc * k) for k in range(1, 8)), tuple(_bit(r + dr * k, c) for k in range(1, 8)))
        out.append((_bit(r, c), _bit(r + dr, c + dc), _bit(r, c + dc) | _bit(r + dr, c), rays))
    return tuple(out)


CORNERS = _corner_tables()
EDGES = (sum(_bit(0, c) for c in range(8)), sum(_bit(7, c) for c in range(8)),
         sum(_bit(r, 0) for r in range(8)), sum(_bit(r, 7) for r in range(8)))
# Static square values, for move ordering: corners best, X squares worst.
_VALUES = (
    (100, -20, 10, 5, 5, 10, -20, 100),
    (-20, -50, -2, -2, -2, -2, -50, -20),
    (10, -2, 1, 1, 1, 1, -2, 10),
    (5, -2, 1, 0, 0, 1, -2, 5),
)
SQUARE_VALUE = tuple(_VALUES[min(r, 7 - r)][c] for r in range(8) for c in range(8))


def _near(bits: int) -> int:
    """The squares in or next to (all eight directions) a square of ``bits``."""
    h = bits | ((bits << 1) & NOT_COL0) | ((bits >> 1) & NOT_COL7)
    return (h | (h << 8) | (h >> 8)) & FULL


def _stable(d: int, filled: int) -> int:
    """How many of the discs ``d`` can never be flipped: edge runs from an own corner, and discs on a
    filled edge (an edge disc can only be flipped along its edge)."""
    s = 0
    for corner, _, _, rays in CORNERS:
        if d & corner:
            s |= corner
            for ray in rays:
                for b in ray:
                    if not d & b:
                        break
                    s |= b
    for edge in EDGES:
        if filled & edge == edge:
            s |= d & edge
    return s.bit_count()


def heuristic(own: int, opp: int) -> float:
    """The static value of a position for ``own``, the side to move (zero-sum, not for finished games)."""
    filled = own | opp
    empty = FULL ^ filled
    empties = empty.bit_count()
    v = MOBILITY * (placements(own, opp).bit_count() - placements(opp, own).bit_count())
    near = _near(empty)
    v -= FRONTIER * ((own & near).bit_count() - (opp & near).bit_count())
    for corner, x, cs, _ in CORNERS:
        if own & corner:
            v += CORNER
        elif opp & corner:
            v -= CORNER
        else:
            v -= X_SQUARE * ((own & x).bit_count() - (opp & x).bit_count())
            v -= C_SQUARE * ((own & cs).bit_count() - (opp & cs).bit_count())
    if filled & 0x8100000000000081:
        v += STABLE * (_stable(own, filled) - _stable(opp, filled))
    v += PARITY if empties & 1 else -PARITY
    if empties < DISC_FROM:
        v += DISC_MAX * (DISC_FROM - empties) / DISC_FROM * (own.bit_count() - opp.bit_count())
    return v


def evaluate(state, seat) -> float:
    """Static value of ``state`` for ``seat`` (zero-sum); ``±WIN`` (0 for a draw) once the game is over."""
    p = SIDE_INDEX[seat] if isinstance(seat, str) else seat
    res = state.result()
    if res is not None:
        winners = res.winners
        return 0.0 if not winners else WIN if winners == [("black", "white")[p]] else -WIN
    own, opp = state.discs[p], state.discs[1 - p]
    return heuristic(own, opp) if state.to_move == p else -heuristic(opp, own)


def _final(own: int, opp: int) -> int:
    diff = own.bit_count() - opp.bit_count()
    return WON + diff if diff > 0 else -WON + diff if diff < 0 else 0


class _Timeout(Exception):
    pass


class OthelloBot(Bot):
    level = "strong"

    def __init__(self, game, seat, *, seed=None, seconds=None):
        super().__init__(game, seat, seed=seed, seconds=seconds)
        self.budget = DEFAULT_SECONDS["strong"] if seconds is None else float(seconds)
        self.tt: dict = {}  # (own, opp) -> (depth, value, flag, best square) of the midgame search
        self.solved: dict = {}  # (own, opp) -> (lower, upper) bounds of the exact disc difference
        self.stats: dict = {}
        self._nodes = 0
        self._deadline = 0.0
        self._partial = None  # the best root square so far in the depth being searched

    def choose(self, state):
        actions = state.legal_actions(self.seat)
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        self.stats = {"depth": 0, "solved": None, "nodes": 0}
        if len(actions) == 1:
            return actions[0]
        start = time.perf_counter()
        p = SIDE_INDEX[self.seat]
        own, opp = state.discs[p], state.discs[1 - p]
        moves = [INDEX[a] for a in actions]
        self.rng.shuffle(moves)
        moves.sort(key=lambda i: -SQUARE_VALUE[i])
        self._nodes = 0
        if len(self.tt) > TABLE_LIMIT:
            self.tt.clear()
        if len(self.solved) > TABLE_LIMIT:
            self.solved.clear()
        empties = 64 - (own | opp).bit_count()
        if empties <= SOLVE_EMPTIES:
            found = self._solve_root(own, opp, moves, empties, start + self.budget * SOLVE_SHARE)
            if found is not None and found[0] >= 0:
                self.stats.update(solved=found[0], nodes=self._nodes, seconds=time.perf_counter() - start)
                return CELLS[found[1]]
        best = self._deepen(own, opp, moves, empties, start + self.budget)
        self.stats.update(nodes=self._nodes, seconds=time.perf_counter() - start)
        return CELLS[best]

    def _tick(self):
        self._nodes += 1
        if not self._nodes % CHECK_EVERY and time.perf_counter() >= self._deadline:
            raise _Timeout

    # --- midgame --------------------------------------------------------------------------------------
    def _deepen(self, own, opp, moves, empties, deadline) -> int:
        """The best square by iterative deepening until ``deadline`` (the best of the last full depth, or of
        the cut depth once it has searched the previous best, which goes first)."""
        self._deadline = deadline
        best = moves[0]
        for depth in range(1, empties + 1):
            self._partial = None
            try:
                value, best = self._root(own, opp, moves, depth)
            except _Timeout:
                if self._partial is not None:
                    best = self._partial
                break
            self.stats["depth"] = depth
            moves.remove(best)
            moves.insert(0, best)
            if abs(value) >= WON:
                break
        return best

    def _root(self, own, opp, moves, depth):
        """(value, square) of one depth: the first move with a full window, the rest with null windows
        (re-searched when they beat it)."""
        alpha, best = -float("inf"), moves[0]
        for k, i in enumerate(moves):
            f = flips(own, opp, i)
            o2, p2 = opp ^ f, own | f | 1 << i
            if k == 0:
                v = -self._search(o2, p2, depth - 1, -float("inf"), -alpha)
            else:
                v = -self._search(o2, p2, depth - 1, -alpha - 1e-6, -alpha)
                if v > alpha:
                    v = -self._search(o2, p2, depth - 1, -float("inf"), -alpha)
            if v > alpha:
                alpha, best = v, i
                self._partial = i
        return alpha, best

    def _search(self, own, opp, depth, alpha, beta) -> float:
        """Negamax value for ``own`` (to move), fail-soft, ``depth`` plies deep."""
        self._tick()
        if depth <= 0:
            return heuristic(own, opp)
        key = (own, opp)
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == 0 or (e_flag > 0 and e_value >= beta) or (e_flag < 0 and e_value <= alpha):
                    return e_value
        moves = placements(own, opp)
        if not moves:
            if not placements(opp, own):
                return _final(own, opp)
            return -self._search(opp, own, depth, -beta, -alpha)
        children = []
        for i in squares_of(moves):
            f = flips(own, opp, i)
            o2, p2 = opp ^ f, own | f | 1 << i
            score = 1000 if i == tt_move else SQUARE_VALUE[i]
            if depth >= 3:
                score -= 8 * placements(o2, p2).bit_count()
            children.append((score, i, o2, p2))
        children.sort(reverse=True)
        alpha0, best, best_move = alpha, -float("inf"), children[0][1]
        for k, (_, i, o2, p2) in enumerate(children):
            if k == 0:
                v = -self._search(o2, p2, depth - 1, -beta, -alpha)
            else:
                v = -self._search(o2, p2, depth - 1, -alpha - 1e-6, -alpha)
                if alpha < v < beta:
                    v = -self._search(o2, p2, depth - 1, -beta, -v)
            if v > best:
                best, best_move = v, i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = -1 if best <= alpha0 else 1 if best >= beta else 0
        self.tt[key] = (depth, best, flag, best_move)
        return best

    # --- exact endgame ----------------------------------------------------------------------------------
    def _solve_root(self, own, opp, moves, empties, deadline):
        """(value, square): the best square by an exact win/draw/loss solve (value > 0 a win, 0 a draw,
        < 0 a loss); None if the clock ran out first (unless a win was already proven)."""
        self._deadline = deadline
        children = []
        for i in moves:
            f = flips(own, opp, i)
            o2, p2 = opp ^ f, own | f | 1 << i
            children.append((placements(o2, p2).bit_count() * 16 - SQUARE_VALUE[i], i, o2, p2))
        children.sort(key=lambda t: t[0])
        alpha, best = -1, None
        best_value = -float("inf")
        try:
            for _, i, o2, p2 in children:
                v = -self._solve(o2, p2, -1, -alpha, empties - 1)
                if v > best_value:
                    best_value, best = v, i
                    if v > alpha:
                        alpha = v
                        if alpha >= 1:
                            break
        except _Timeout:
            return (best_value, best) if best_value >= 1 else None
        return best_value, best

    def _solve(self, own, opp, alpha, beta, empties) -> int:
        """The exact final disc difference for ``own`` (to move), fail-soft within (alpha, beta)."""
        self._tick()
        if empties == 1:
            i = (FULL ^ (own | opp)).bit_length() - 1
            f = flips(own, opp, i)
            if f:
                n = f.bit_count()
                return own.bit_count() - opp.bit_count() + 2 * n + 1
            f = flips(opp, own, i)
            if f:
                n = f.bit_count()
                return own.bit_count() - opp.bit_count() - 2 * n - 1
            return own.bit_count() - opp.bit_count()
        moves = placements(own, opp)
        if not moves:
            if not placements(opp, own):
                return own.bit_count() - opp.bit_count()
            return -self._solve(opp, own, -beta, -alpha, empties)
        key = None
        if empties > 6:
            key = (own, opp)
            bounds = self.solved.get(key)
            if bounds is not None:
                lo, hi = bounds
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
            children = []
            for i in squares_of(moves):
                f = flips(own, opp, i)
                o2, p2 = opp ^ f, own | f | 1 << i
                children.append((placements(o2, p2).bit_count() * 16 - SQUARE_VALUE[i], o2, p2))
            children.sort(key=lambda t: t[0])
        else:
            children = []
            for i in squares_of(moves):
                f = flips(own, opp, i)
                children.append((-SQUARE_VALUE[i], opp ^ f, own | f | 1 << i))
            children.sort(key=lambda t: t[0])
        alpha0, best = alpha, -65
        for _, o2, p2 in children:
            v = -self._solve(o2, p2, -beta, -max(alpha, best), empties - 1)
            if v > best:
                best = v
                if best >= beta:
                    break
        if key is not None:
            lo, hi = self.solved.get(key, (-64, 64))
            if best >= beta:
                lo = max(lo, best)
            elif best <= alpha0:
                hi = min(hi, best)
            else:
                lo = hi = best
            self.solved[key] = (lo, hi)
        return best


BOTS = {"strong": OthelloBot}



ANALYSIS_SCALE = 100.0  # a score this far ahead is a value of about 0.76 in the replay's analysis


class _ScoredBot(OthelloBot):
    """The strong bot remembering the score of its last full depth, for the analysis."""

    score = None

    def _root(self, own, opp, moves, depth):
        value, best = super()._root(own, opp, moves, depth)
        self.score = value
        return value, best


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the strong bot's search within ``seconds`` for the seat to
    act (an exact solve near the end), its move beside the one played and its score as a value
    (``tanh(score / ANALYSIS_SCALE)``, a proven win 1, a proven draw 0); where it chose without searching
    (one legal move), the position's ``evaluate``."""
    from games.bots.review import Look, review, squash, zero_sum

    game = state.game
    budget = 0.05 if seconds is None else seconds

    def look(s, best: bool) -> Look:
        mover = s.players_to_act()[0]
        bot = _ScoredBot(game, mover, seed=0, seconds=budget)
        move = bot.choose(s)
        solved = bot.stats.get("solved")
        if solved is not None:
            v = 1.0 if solved > 0 else 0.0
        else:
            score = evaluate(s, mover) if bot.score is None else bot.score
            v = 1.0 if score >= WON else -1.0 if score <= -WON else squash(score, ANALYSIS_SCALE)
        return Look(zero_sum(game, mover, v), move)
    return review(game, state, look, actual)
