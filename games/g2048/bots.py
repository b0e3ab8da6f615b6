"""2048 bots: ``greedy`` through ``evaluate`` and ``strong``, an expectimax search over bitboards.

* ``evaluate(state, seat)``: the score plus ``EMPTY_BONUS`` per empty cell (for the generic greedy bot, which
  scores each move's result: points now, then room).
* ``BOTS = {"strong": StrongBot}``: expectimax. A board is one 64-bit int, 4 bits per cell (the tile's
  exponent; cell ``(r, c)`` at bit ``16 r + 4 c``, so each row is a 16-bit int), always carried with its
  transpose (whose rows are the board's columns). Tables over all 65536 lines give a line's change when
  moved towards its start or its end, that change spread over a column (to update the other of the pair:
  moving up is moving the transpose left), its empty cells, and its heuristic value: empty cells and
  possible merges rewarded, lines that are not monotone and many small tiles penalised (the terms and
  weights of nneonneo's well-known 2048 AI). A board's value is the sum over its four rows and four columns.
  The search alternates the player's moves (max) and the new tile (the expectation over every empty cell, a
  2 with 0.9 and a 4 with 0.1); a branch whose probability falls under ``PROB_CUT`` is scored by the
  heuristic. A transposition table per search keeps chance nodes already valued at that depth. A lost board
  is worth 0, below any live one. The search runs in C (``expectimax.c``, loaded by ``games.engine.native``,
  about a hundred times faster, its tables built from the weights here) or, without a compiler or with
  ``ROPASCI_NATIVE=0``, in Python (:class:`Expectimax`, the twin the tests compare it with; its tables take
  about half a second to build, once per process, on the first move, not counted in its budget).
  How deep: :func:`search_depth` picks the depth from the board (deeper with more distinct tiles), reached by
  iterative deepening under the time budget: the next depth is started only when the last one's time, times
  its growth, says it can finish (depth 1 always does: it has at most four chance nodes). In C a move
  takes a few milliseconds, seldom more than a tenth of a second; in Python the budget stops it sooner.

The bitboard holds exponents up to 15 (32768); the bot's tables never merge two 32768s, and a larger tile
(not seen in practice) is read as 15. The move chosen is always one of the state's legal moves.
"""
from __future__ import annotations

import ctypes
import itertools
import math
import threading
import time
from pathlib import Path

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot
from games.engine import native

from .rules import ACTIONS, CELLS

EMPTY_BONUS = 4.0  # evaluate: points a free cell is worth

LINE_BASE = 200000.0  # every line's value starts here, so that live boards are worth more than lost ones (0)
EMPTY_WEIGHT = 270.0
MERGE_WEIGHT = 700.0
MONOTONE_WEIGHT = 47.0
MONOTONE_POWER = 4.0
SUM_WEIGHT = 11.0
SUM_POWER = 3.5
PROB_CUT = 1e-4  # a chance branch less likely than this is scored by the heuristic
MIN_DEPTH, MAX_DEPTH, DISTINCT_FREE = 3, 6, 5  # search_depth: max(3, distinct tiles - 5), at most 6
CHECK_EVERY = 0x3F  # (a mask) chance nodes between clock checks (a node can take half a millisecond)
ROW = 0xFFFF


def evaluate(state, seat) -> float:
    """The score plus a little for each empty cell (the greedy bot scores every move's result with it)."""
    return state.score + EMPTY_BONUS * state.cells.count(0)


def search_depth(cells) -> int:
    """How many tile layers the strong bot searches (if its clock allows): ``max(3, distinct tiles - 5)``, at
    most 6. As in strong 2048 AIs, deeper when the board holds many distinct tiles, which is when it is crowded
    and a slip costs most; such boards have few empty cells, so a deeper search is also cheaper there."""
    distinct = len(set(cells) - {0})
    return max(MIN_DEPTH, min(MAX_DEPTH, distinct - DISTINCT_FREE))


def bitboard(cells) -> int:
    """The engine's cells (exponents) as a bitboard; a tile above 32768 is read as 32768."""
    b = 0
    for i in range(CELLS):
        b |= min(cells[i], 15) << (4 * i)
    return b


def transpose(b: int) -> int:
    """The board mirrored on its main diagonal: cell (r, c) to (c, r). Swaps the off-diagonal nibbles of each
    2x2 block, then the off-diagonal 2x2 blocks."""
    a = (b & 0xF0F00F0FF0F00F0F) | ((b & 0x0000F0F00000F0F0) << 12) | ((b >> 12) & 0x0000F0F00000F0F0)
    return (a & 0xFF00FF0000FF00FF) | ((a & 0x00000000FF00FF00) << 24) | ((a >> 24) & 0x00000000FF00FF00)


def _line_left(line) -> int:
    """A line of four exponents moved towards index 0, packed (two 15s do not merge: 4 bits a cell)."""
    tiles = [e for e in line if e]
    out, shift, j = 0, 0, 0
    while j < len(tiles):
        e = tiles[j]
        if j + 1 < len(tiles) and tiles[j + 1] == e and e < 15:
            e += 1
            j += 1
        out |= e << shift
        shift += 4
        j += 1
    return out


POWER_MONOTONE = [e ** MONOTONE_POWER for e in range(16)]
POWER_SUM = [e ** SUM_POWER for e in range(16)]


def _line_value(line) -> float:
    """The heuristic of one row or column (see the module docstring)."""
    tiles = [e for e in line if e]
    merges = sum(1 for x, y in zip(tiles, tiles[1:]) if x == y)
    up = down = 0.0
    for x, y in zip(line, line[1:]):
        if x > y:
            down += POWER_MONOTONE[x] - POWER_MONOTONE[y]
        else:
            up += POWER_MONOTONE[y] - POWER_MONOTONE[x]
    return (LINE_BASE + EMPTY_WEIGHT * (4 - len(tiles)) + MERGE_WEIGHT * merges - MONOTONE_WEIGHT * min(up, down)
            - SUM_WEIGHT * sum(POWER_SUM[e] for e in tiles))


def _spread(row: int) -> int:
    """A 16-bit line written down column 0: nibble i to bit 16 i."""
    return (row & 15) | (row >> 4 & 15) << 16 | (row >> 8 & 15) << 32 | (row >> 12) << 48


def _reverse(row: int) -> int:
    return (row & 15) << 12 | (row >> 4 & 15) << 8 | (row >> 8 & 15) << 4 | row >> 12


class Tables:
    """Everything the search reads, per 16-bit line (built once per process, in about half a second)."""

    def __init__(self):
        rows = range(1 << 16)
        # (a3, a2, a1, a0) in lexicographic order: the row a0 | a1 << 4 | a2 << 8 | a3 << 12 counts up.
        lines = [line[::-1] for line in itertools.product(range(16), repeat=4)]
        moved = [_line_left(line) for line in lines]
        self.left = left = [row ^ m for row, m in zip(rows, moved)]
        self.right = right = [row ^ _reverse(moved[_reverse(row)]) for row in rows]
        # The same changes written into the other board of the pair, to be shifted by 4 * row.
        self.left_t = [_spread(x) for x in left]
        self.right_t = [_spread(x) for x in right]
        self.value = [_line_value(line) for line in lines]
        # Per row r: the row's empty cells as (2-tile on the board, the same on the transpose), by empty mask.
        masks = [sum(1 << c for c in range(4) if not line[c]) for line in lines]
        self.empty = []
        for r in range(4):
            by_mask = [tuple((1 << (16 * r + 4 * c), 1 << (16 * c + 4 * r)) for c in range(4) if mask >> c & 1)
                       for mask in range(16)]
            self.empty.append([by_mask[m] for m in masks])


_TABLES: Tables | None = None


def tables() -> Tables:
    global _TABLES
    if _TABLES is None:
        _TABLES = Tables()
    return _TABLES


class _Timeout(Exception):
    pass


def after_moves(t: Tables, b: int, tb: int) -> list[tuple[int, int, int]]:
    """(action index, board, its transpose) for each move that changes ``b`` (``tb`` its transpose), in
    ACTIONS order (left, up, right, down)."""
    L, R, Lt, Rt = t.left, t.right, t.left_t, t.right_t
    r0, r1, r2, r3 = b & ROW, (b >> 16) & ROW, (b >> 32) & ROW, b >> 48
    c0, c1, c2, c3 = tb & ROW, (tb >> 16) & ROW, (tb >> 32) & ROW, tb >> 48
    out = []
    x = L[r0] | L[r1] << 16 | L[r2] << 32 | L[r3] << 48
    if x:
        out.append((0, b ^ x, tb ^ (Lt[r0] | Lt[r1] << 4 | Lt[r2] << 8 | Lt[r3] << 12)))
    x = L[c0] | L[c1] << 16 | L[c2] << 32 | L[c3] << 48
    if x:
        out.append((1, b ^ (Lt[c0] | Lt[c1] << 4 | Lt[c2] << 8 | Lt[c3] << 12), tb ^ x))
    x = R[r0] | R[r1] << 16 | R[r2] << 32 | R[r3] << 48
    if x:
        out.append((2, b ^ x, tb ^ (Rt[r0] | Rt[r1] << 4 | Rt[r2] << 8 | Rt[r3] << 12)))
    x = R[c0] | R[c1] << 16 | R[c2] << 32 | R[c3] << 48
    if x:
        out.append((3, b ^ (Rt[c0] | Rt[c1] << 4 | Rt[c2] << 8 | Rt[c3] << 12), tb ^ x))
    return out


class Expectimax:
    """One search of one position: ``search(board, depth, deadline)`` (see the module docstring)."""

    def __init__(self, t: Tables):
        self.t = t
        self.nodes = 0
        self.depth_cut = False  # some branch was cut by depth (a deeper search may differ)

    def search(self, b: int, depth: int, deadline: float) -> list[tuple[float, int]]:
        """(value, action index) of every move that changes ``b``, searched to ``depth`` tile layers;
        raises _Timeout at ``deadline``."""
        t = self.t
        V, E0, E1, E2, E3 = t.value, *t.empty
        table: dict[int, tuple[int, float]] = {}
        clock = time.perf_counter

        def best_leaf(a: int, ta: int) -> float:
            """The best heuristic value among the moves of ``a`` (0: none, the game is lost)."""
            best = 0.0
            for _, c, tc in after_moves(t, a, ta):
                v = (V[c & ROW] + V[(c >> 16) & ROW] + V[(c >> 32) & ROW] + V[c >> 48]
                     + V[tc & ROW] + V[(tc >> 16) & ROW] + V[(tc >> 32) & ROW] + V[tc >> 48])
                if v > best:
                    best = v
            return best

        def best_move(a: int, ta: int, d: int, p: float) -> float:
            best = 0.0
            for _, c, tc in after_moves(t, a, ta):
                v = chance(c, tc, d, p)
                if v > best:
                    best = v
            return best

        def chance(a: int, ta: int, d: int, p: float) -> float:
            if d == 0 or p < PROB_CUT:
                if d == 0:
                    self.depth_cut = True
                return (V[a & ROW] + V[(a >> 16) & ROW] + V[(a >> 32) & ROW] + V[a >> 48]
                        + V[ta & ROW] + V[(ta >> 16) & ROW] + V[(ta >> 32) & ROW] + V[ta >> 48])
            hit = table.get(a)
            if hit is not None and hit[0] >= d:
                return hit[1]
            self.nodes += 1
            if not self.nodes & CHECK_EVERY and clock() > deadline:
                raise _Timeout
            cells = E0[a & ROW] + E1[(a >> 16) & ROW] + E2[(a >> 32) & ROW] + E3[a >> 48]
            n = len(cells)
            p2, p4 = p * 0.9 / n, p * 0.1 / n
            total = 0.0
            if d == 1 or p2 < PROB_CUT:  # the replies are scored by the heuristic at once
                self.depth_cut = self.depth_cut or d == 1
                for two, two_t in cells:
                    total += 0.9 * best_leaf(a | two, ta | two_t) + 0.1 * best_leaf(a | two << 1, ta | two_t << 1)
            else:
                d -= 1
                for two, two_t in cells:
                    total += (0.9 * best_move(a | two, ta | two_t, d, p2)
                              + 0.1 * best_move(a | two << 1, ta | two_t << 1, d, p4))
                d += 1
            value = total / n
            table[a] = (d, value)
            return value

        return [(chance(c, tc, depth, 1.0), k) for k, c, tc in after_moves(t, b, transpose(b))]


class NativeExpectimax:
    """The same search in C (``expectimax.c``, many times faster): ``search`` as in :class:`Expectimax`."""

    def __init__(self, lib: ctypes.CDLL):
        self.lib = lib
        self.nodes = 0
        self.depth_cut = False

    def search(self, b: int, depth: int, deadline: float) -> list[tuple[float, int]]:
        values, stats = (ctypes.c_double * 4)(), (ctypes.c_longlong * 2)()
        left = deadline - time.perf_counter() if deadline != math.inf else 1e9
        mask = self.lib.g2048_search(b, depth, left, values, stats)
        self.nodes += stats[0]
        self.depth_cut = self.depth_cut or bool(stats[1])
        if mask == -1:
            raise _Timeout
        if mask < 0:
            raise MemoryError("the C search found no memory")
        return [(values[k], k) for k in range(4) if mask >> k & 1]


_CORE: list = []  # [the C library or None], once loaded
_CORE_LOCK = threading.Lock()


def core() -> ctypes.CDLL | None:
    """The C search (its tables built from this module's weights), or None: the Python twin searches."""
    with _CORE_LOCK:
        if not _CORE:
            lib = native.load(Path(__file__).with_name("expectimax.c"))
            if lib is not None:
                lib.g2048_init.argtypes = [ctypes.c_double] * 8
                lib.g2048_search.argtypes = [ctypes.c_uint64, ctypes.c_int, ctypes.c_double,
                                             ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_longlong)]
                lib.g2048_value.argtypes = [ctypes.c_uint64]
                lib.g2048_value.restype = ctypes.c_double
                lib.g2048_init(LINE_BASE, EMPTY_WEIGHT, MERGE_WEIGHT, MONOTONE_WEIGHT, MONOTONE_POWER, SUM_WEIGHT,
                               SUM_POWER, PROB_CUT)
            _CORE.append(lib)
        return _CORE[0]


def searcher() -> Expectimax | NativeExpectimax:
    """A new search: in C when the core loads, else in Python (which builds its tables on first use)."""
    lib = core()
    return NativeExpectimax(lib) if lib is not None else Expectimax(tables())


class StrongBot(Bot):
    """Expectimax on bitboards, deepened while the clock allows (see the module docstring)."""

    level = "strong"

    def __init__(self, game, seat, *, seed=None, seconds=None):
        super().__init__(game, seat, seed=seed, seconds=seconds)
        self.budget = DEFAULT_SECONDS["strong"] if seconds is None else float(seconds)
        self.stats: dict = {}

    def choose(self, state):
        legal = list(state.legal_actions(self.seat))
        if not legal:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        self.stats = {"depth": 0, "nodes": 0, "seconds": 0.0}
        if len(legal) == 1:
            return legal[0]
        search = searcher()  # (the tables are built once per process, before the clock starts)
        started = time.perf_counter()
        b = bitboard(state.cells)
        deadline = started + self.budget
        best = None
        last_time = growth = None
        for depth in range(1, search_depth(state.cells) + 1):
            t0 = time.perf_counter()
            search.depth_cut = False
            try:
                scored = search.search(b, depth, deadline)
            except _Timeout:
                break
            took = time.perf_counter() - t0
            ranked = [(v, k) for v, k in scored if ACTIONS[k] in legal]
            if ranked:
                best = ACTIONS[max(ranked, key=lambda vk: (vk[0], -vk[1]))[1]]
                self.stats["depth"] = depth
            if not search.depth_cut:
                break  # every branch ended by probability or loss: deeper is the same search
            if last_time:
                growth = max(2.0, took / last_time)
            last_time = took
            if time.perf_counter() + took * (growth or 8.0) > deadline:
                break
        self.stats.update(nodes=search.nodes, seconds=time.perf_counter() - started)
        return best if best is not None else legal[0]


BOTS = {"strong": StrongBot}


ANALYSIS_TOP = 9 * LINE_BASE  # value 1 (a fresh board, about 8 * LINE_BASE, is about 0.8; a lost one, 0, -1)


def analysis_value(h: float) -> float:
    """The expectimax value as -1..1: linear from a lost board (-1) to ``ANALYSIS_TOP`` (1)."""
    return max(-1.0, min(1.0, 2 * h / ANALYSIS_TOP - 1))


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the strong bot's expectimax, one tile layer deep (two with a
    budget of 0.1 s or more), valuing every move; the position's value is its best move's
    (:func:`analysis_value`). A position waiting for its tile (chance) is not valued."""
    from games.bots.review import Look, review

    game = state.game
    depth = 2 if (seconds or 0.05) >= 0.1 else 1

    def look(s, best: bool) -> Look:
        if s.is_chance_node() or not best:
            return Look({})
        seat = game.info.players[0]
        legal = s.legal_actions(seat)
        scored = [(v, ACTIONS[k]) for v, k in searcher().search(bitboard(s.cells), depth, math.inf)
                  if ACTIONS[k] in legal]
        top, move = max(scored, key=lambda t: t[0])
        return Look({seat: analysis_value(top)}, move, options=[(a, analysis_value(v)) for v, a in scored],
                    after=analysis_value(top))
    return review(game, state, look, actual)
