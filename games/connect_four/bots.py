"""Connect Four knowledge for the bots, and the ``strong`` bot: an alpha-beta search over bitboards.

A position is two ints: ``cur``, the discs of the side to move, and ``mask``, every disc (the engine's
bitboards: 7 bits per column, see ``rules``). Dropping into a column is ``mask + bottom bit of the column``
(the carry runs up to the lowest empty cell); the side to move next has the discs ``cur ^ mask``. The
cells that would complete four for a side come from a few shifts (``threats``), so the search never builds
an object per node: ints in, ints out, and the transposition table packs each entry into one int.

* ``evaluate(state, seat)``: ``±WIN`` once won, 0 for a draw; the next move's tactics (the side to move wins
  at once, or cannot stop the other side) and else ``static``. The generic ``greedy`` bot uses it.
* ``static(cur, mask, moves, opp_threats)``: for the side to move: threats (empty cells that would complete
  four), counted more on rows of the side's parity (the first player wants threats on odd rows counted from
  the bottom, the second on even rows: who gets to fill a cell in the end goes by that parity), more again
  when two are stacked in one column; plus each disc's number of possible lines through its cell.
* ``BOTS = {"strong": StrongBot}``: negamax alpha-beta with principal-variation search, iterative deepening
  under the time budget, a transposition table kept between moves and centre-first move order (the table's
  move first). Every node first finds the moves that do not hand the opponent an immediate win (a forced
  block, never a disc under an opponent's threat): none left means a loss two plies on. Scores: a win whose
  last disc is the ``n``-th of the game is ``WIN - n`` (sooner is better), a draw 0.
"""
from __future__ import annotations

import time

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot

from .rules import CELLS, COLS, ROWS, SEAT_INDEX, STRIDE

WIN = 100000
WIN_NOW = 50000  # evaluate: the side to move wins with its next disc (or the other side does, unstoppably)
GOOD_THREAT = 24  # a threat on a row of the side's parity
THREAT = 8  # any other threat
STACKED = 30  # two threats one above the other in a column

BOTTOM = sum(1 << (c * STRIDE) for c in range(COLS))
BOARD = BOTTOM * ((1 << ROWS) - 1)
COLUMN = tuple(((1 << ROWS) - 1) << (c * STRIDE) for c in range(COLS))
ODD_ROWS = BOTTOM * 0b010101  # rows 1, 3, 5 counted from the bottom: the first player's parity
EVEN_ROWS = BOTTOM * 0b101010
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
NO_MOVE = 7
# ORDERS[c]: column c first, then the others centre first; ORDERS[NO_MOVE]: centre first.
ORDERS = tuple((c,) + tuple(x for x in CENTRE_FIRST if x != c) for c in range(COLS)) + (CENTRE_FIRST,)

# Lines of four through each cell, by height from the bottom (rows) and column.
LINES_THROUGH = ((3, 4, 5, 7, 5, 4, 3), (4, 6, 8, 10, 8, 6, 4), (5, 8, 11, 13, 11, 8, 5),
                 (5, 8, 11, 13, 11, 8, 5), (4, 6, 8, 10, 8, 6, 4), (3, 4, 5, 7, 5, 4, 3))
# The same as bit planes: PLANES[k] holds the cells whose count has bit k set.
PLANES = tuple(sum(1 << (c * STRIDE + h) for h in range(ROWS) for c in range(COLS) if LINES_THROUGH[h][c] >> k & 1)
               for k in range(4))
P0, P1, P2, P3 = PLANES

# Transposition table entries, one int: (value + OFFSET) << 11 | depth << 5 | flag << 3 | column.
OFFSET = 1 << 20
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 400_000  # entries kept between moves
CHECK_EVERY = 255  # (a mask) nodes between clock checks


def threats(p: int, mask: int) -> int:
    """The empty cells that would complete four for the discs ``p`` (``mask``: every disc)."""
    r = (p << 1) & (p << 2) & (p << 3)
    a = (p << 7) & (p << 14)
    r |= (a & (p << 21)) | (a & (p >> 7))
    a = (p >> 7) & (p >> 14)
    r |= (a & (p << 7)) | (a & (p >> 21))
    a = (p << 6) & (p << 12)
    r |= (a & (p << 18)) | (a & (p >> 6))
    a = (p >> 6) & (p >> 12)
    r |= (a & (p << 6)) | (a & (p >> 18))
    a = (p << 8) & (p << 16)
    r |= (a & (p << 24)) | (a & (p >> 8))
    a = (p >> 8) & (p >> 16)
    r |= (a & (p << 8)) | (a & (p >> 24))
    return r & (BOARD ^ mask)


def _lines(b: int) -> int:
    return (b & P0).bit_count() + ((b & P1).bit_count() << 1) + ((b & P2).bit_count() << 2) + \
        ((b & P3).bit_count() << 3)


def static(cur: int, mask: int, moves: int, opp_threats: int) -> int:
    """The heuristic value for the side to move (``cur``, ``moves`` discs dropped so far); see above."""
    opp = cur ^ mask
    mine = threats(cur, mask)
    good_me, good_opp = (ODD_ROWS, EVEN_ROWS) if moves & 1 == 0 else (EVEN_ROWS, ODD_ROWS)
    g_me, g_opp = (mine & good_me).bit_count(), (opp_threats & good_opp).bit_count()
    return (_lines(cur) - _lines(opp)
            + GOOD_THREAT * (g_me - g_opp)
            + THREAT * (mine.bit_count() - g_me - opp_threats.bit_count() + g_opp)
            + STACKED * ((mine & (mine >> 1)).bit_count() - (opp_threats & (opp_threats >> 1)).bit_count()))


def _safe_moves(cur: int, mask: int, opp_threats: int) -> int:
    """The drop cells that do not let the opponent win at once (0: every move loses, or two must be blocked)."""
    possible = (mask + BOTTOM) & BOARD
    forced = possible & opp_threats
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return possible & ~(opp_threats >> 1)


def _column(cell: int) -> int:
    return (cell.bit_length() - 1) // STRIDE


def _position(state) -> tuple[int, int, int]:
    """(cur, mask, moves) of an engine state."""
    return state.bits[state.to_move()], state.bits[0] | state.bits[1], state.turn


def evaluate(state, seat) -> float:
    p = SEAT_INDEX[seat] if isinstance(seat, str) else seat
    res = state.result()
    if res is not None:
        if res.winner is None:
            return 0.0
        return float(WIN if SEAT_INDEX[res.winner] == p else -WIN)
    cur, mask, moves = _position(state)
    opp_threats = threats(cur ^ mask, mask)
    if threats(cur, mask) & (mask + BOTTOM) & BOARD:
        value = WIN_NOW
    elif not _safe_moves(cur, mask, opp_threats):
        value = -WIN_NOW
    else:
        value = static(cur, mask, moves, opp_threats)
    return float(value if state.to_move() == p else -value)


class _Timeout(Exception):
    pass


class StrongBot(Bot):
    """Alpha-beta over bitboards (see the module docstring); ``self.stats`` describes the last search."""

    level = "strong"

    def __init__(self, game, seat, *, seed=None, seconds=None):
        super().__init__(game, seat, seed=seed, seconds=seconds)
        self.budget = DEFAULT_SECONDS["strong"] if seconds is None else float(seconds)
        self.table: dict[int, int] = {}
        self.nodes = 0
        self.deadline = 0.0
        self.stats: dict = {}
        self._partial = None

    def choose(self, state):
        legal = state.legal_actions(self.seat)
        if not legal:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        started = time.perf_counter()
        self.deadline = started + max(0.0, self.budget)
        self.nodes = 0
        self.stats = {"depth": 0, "value": None, "nodes": 0, "seconds": 0.0}
        cur, mask, moves = _position(state)
        possible = (mask + BOTTOM) & BOARD
        win = threats(cur, mask) & possible
        if win:
            return _column(win & -win)
        opp_threats = threats(cur ^ mask, mask)
        safe = _safe_moves(cur, mask, opp_threats)
        forced = possible & opp_threats
        if not safe:  # lost whatever happens: block one threat if there is one, else the centre-most move
            return _column(forced & -forced) if forced else next(c for c in CENTRE_FIRST if c in legal)
        candidates = [c for c in CENTRE_FIRST if safe & COLUMN[c]]
        if len(candidates) == 1:
            return candidates[0]
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        best = candidates[0]
        for depth in range(1, CELLS - moves + 1):
            try:
                value, best = self._root(cur, mask, moves, depth, candidates, safe)
            except _Timeout:
                if self._partial is not None:
                    best = self._partial
                break
            self.stats.update(depth=depth, value=value)
            candidates.remove(best)
            candidates.insert(0, best)
            if abs(value) > WIN - 2 * CELLS:
                break  # a forced result: deeper search cannot change it
        self.stats.update(nodes=self.nodes, seconds=time.perf_counter() - started)
        return best

    def _root(self, cur, mask, moves, depth, candidates, safe):
        """The best of ``candidates`` (the columns of the ``safe`` drop cells) searched ``depth`` plies:
        (value, column). ``self._partial`` is the best so far, once the first candidate is searched."""
        self._partial = None
        alpha, beta = -WIN, WIN
        best, best_col = -WIN - 1, candidates[0]
        opp = cur ^ mask
        for i, col in enumerate(candidates):
            child = mask | (safe & COLUMN[col])
            if i == 0:
                value = -self._search(opp, child, moves + 1, depth - 1, -beta, -alpha)
            else:
                value = -self._search(opp, child, moves + 1, depth - 1, -alpha - 1, -alpha)
                if value > alpha:
                    value = -self._search(opp, child, moves + 1, depth - 1, -beta, -alpha)
            if value > best:
                best, best_col = value, col
                self._partial = col
                alpha = max(alpha, value)
        return best, best_col

    def _search(self, cur, mask, moves, depth, alpha, beta):
        """The value for the side to move, whose discs are ``cur`` and who cannot win with this disc (the
        caller played only safe moves), searched ``depth`` plies (fail-soft)."""
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and time.perf_counter() > self.deadline:
            raise _Timeout
        opp_threats = threats(cur ^ mask, mask)
        safe = _safe_moves(cur, mask, opp_threats)
        if not safe:
            return moves + 2 - WIN
        if moves >= CELLS - 2:
            return 0  # at most two discs left and neither side can win with them
        if depth <= 0:
            return static(cur, mask, moves, opp_threats)
        top = WIN - moves - 3  # the soonest this side can win: with its next disc but one
        if beta > top:
            beta = top
            if alpha >= beta:
                return beta
        key = cur + mask
        entry = self.table.get(key)
        order = CENTRE_FIRST
        if entry is not None:
            order = ORDERS[entry & 7]
            if (entry >> 5) & 63 >= depth:
                value, flag = (entry >> 11) - OFFSET, (entry >> 3) & 3
                if flag == EXACT:
                    return value
                if flag == LOWER:
                    if value >= beta:
                        return value
                    if value > alpha:
                        alpha = value
                else:
                    if value <= alpha:
                        return value
                    if value < beta:
                        beta = value
        alpha0 = alpha
        best, best_col = -WIN - 1, NO_MOVE
        opp = cur ^ mask
        first = True
        for col in order:
            move = safe & COLUMN[col]
            if not move:
                continue
            child = mask | move
            if first:
                value = -self._search(opp, child, moves + 1, depth - 1, -beta, -alpha)
                first = False
            else:
                value = -self._search(opp, child, moves + 1, depth - 1, -alpha - 1, -alpha)
                if alpha < value < beta:
                    value = -self._search(opp, child, moves + 1, depth - 1, -beta, -alpha)
            if value > best:
                best, best_col = value, col
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[key] = ((best + OFFSET) << 11) | (depth << 5) | (flag << 3) | best_col
        return best


BOTS = {"strong": StrongBot}



ANALYSIS_SCALE = 30.0  # a score this far ahead is a value of about 0.76 in the replay's analysis


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the strong bot's bitboard search within ``seconds`` for the
    seat to act, its move beside the one played and its score as a value (``tanh(score / ANALYSIS_SCALE)``,
    wins ±1); where it chose without searching (a win now, a lost position, the one safe column), the
    position's ``evaluate``."""
    from games.bots.review import Look, review, searched, zero_sum

    game = state.game
    budget = 0.05 if seconds is None else seconds
    to_value = searched(WIN, ANALYSIS_SCALE)

    def look(s, best: bool) -> Look:
        mover = s.players_to_act()[0]
        bot = StrongBot(game, mover, seconds=budget)
        move = bot.choose(s)
        score = bot.stats.get("value")
        return Look(zero_sum(game, mover, to_value(evaluate(s, mover) if score is None else score)), move)
    return review(game, state, look, actual)
