"""Hex bots: an evaluation (for the generic ``greedy`` level) and the ``strong`` level's Monte Carlo tree
search with RAVE.

Playouts fill every empty cell at random (the side to move gets the first, third, ... of a shuffled list)
and decide the winner by one connectivity check on the full board: Hex has no draws, so a full board has
exactly one winner, and a chain that already stood before the playout still stands after it. The check is a
flood over Black's stones held as one int bitset, grown by shifting it towards the six neighbours, from
row 0 until it stops growing or reaches row N-1.

The tree (``_Node``) keeps, per child, its visits and wins and its all-moves-as-first (RAVE) visits and wins:
a playout counts for the child on cell x of a node where side p moves whenever p ended up owning x. A
child's value blends the two, ``(1 - beta) * wins/visits + beta * rave``, with ``beta = r / (n + r + n * r *
RAVE_BIAS)`` (n visits, r RAVE visits), so RAVE guides the search until real visits take over. Before the
search the bot plays an immediate win, and if the opponent has one it only considers the cells that stop
it. ``choose`` returns the most visited child. ``evaluate`` is the difference of the two sides' connection
distances (the fewest empty cells each still needs, through its own stones, around the opponent's).
"""
from __future__ import annotations

import math
import time
from collections import deque

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot

from .rules import SIDE_INDEX

WIN = 100000.0
RAVE_BIAS = 0.002  # how fast the RAVE share fades with real visits
EXPLORE = 0.05  # the UCB exploration weight on top of the blend
FIRST_PLAY = 1.1  # value of a child with neither real nor RAVE visits (try it early)
EXPAND_AFTER = 2  # a child gets its own node at this many visits


class _Tables:
    """Per board size: cell bits, the shift masks of the flood, rims and neighbours."""

    def __init__(self, game):
        n = self.n = game.size
        self.cells = n * n
        self.bit = tuple(1 << i for i in range(self.cells))
        cols = range(n)
        self.not_first = sum(1 << (r * n + c) for r in cols for c in cols if c != 0)
        self.not_last = sum(1 << (r * n + c) for r in cols for c in cols if c != n - 1)
        self.top = (1 << n) - 1
        self.bottom = self.top << (n * (n - 1))
        self.neighbours = game.neighbours
        self.rim_flags = tuple(tuple((1 if i in first else 0) | (2 if i in second else 0) for i in range(self.cells))
                               for first, second in game.rims)

    def black_connects(self, black: int) -> bool:
        """Whether Black's stones ``black`` join row 0 to row N-1."""
        n, nf, nl, bottom = self.n, self.not_first, self.not_last, self.bottom
        s = black & self.top
        while s:
            if s & bottom:
                return True
            grown = (s | ((s >> 1 | s << (n - 1)) & nl) | ((s << 1 | s >> (n - 1)) & nf) | s >> n | s << n) & black
            if grown == s:
                return False
            s = grown
        return False


_TABLES: dict[int, _Tables] = {}


def tables(game) -> _Tables:
    t = _TABLES.get(game.size)
    if t is None:
        t = _TABLES[game.size] = _Tables(game)
    return t


def winning_cells(t: _Tables, board: list, p: int) -> list[int]:
    """The empty cells where a stone of ``p`` would join its two rims at once."""
    nbrs, flags = t.neighbours, t.rim_flags[p]
    group = {}  # stone -> its group's rim flags (1 first rim, 2 second), shared through a one-item list
    for i, v in enumerate(board):
        if v == p and i not in group:
            todo, f = [i], [0]
            group[i] = f
            while todo:
                k = todo.pop()
                f[0] |= flags[k]
                for j in nbrs[k]:
                    if board[j] == p and j not in group:
                        group[j] = f
                        todo.append(j)
    out = []
    for i, v in enumerate(board):
        if v < 0:
            f = flags[i]
            for j in nbrs[i]:
                g = group.get(j)
                if g is not None:
                    f |= g[0]
            if f == 3:
                out.append(i)
    return out


def distance(t: _Tables, board: list, p: int) -> int:
    """The fewest empty cells ``p`` must still fill to join its rims (0-1 breadth first search: own stones
    cost nothing, the opponent's block); ``t.cells + 1`` if it can no longer."""
    flags, nbrs = t.rim_flags[p], t.neighbours
    dist = [t.cells + 1] * t.cells
    todo = deque()
    for i in range(t.cells):
        if flags[i] & 1 and board[i] != 1 - p:
            dist[i] = 0 if board[i] == p else 1
            (todo.appendleft if board[i] == p else todo.append)(i)
    while todo:
        i = todo.popleft()
        d = dist[i]
        if flags[i] & 2:
            return d
        for j in nbrs[i]:
            v = board[j]
            if v == 1 - p:
                continue
            nd = d if v == p else d + 1
            if nd < dist[j]:
                dist[j] = nd
                (todo.appendleft if v == p else todo.append)(j)
    return t.cells + 1


def evaluate(state, seat) -> float:
    """Static value for ``seat``: the opponent's connection distance minus its own (zero-sum); ``±WIN``
    once the game is over."""
    p = SIDE_INDEX[seat] if isinstance(seat, str) else seat
    res = state.result()
    if res is not None:
        return WIN if res.winner == ("black", "white")[p] else -WIN
    t = tables(state.game)
    return float(distance(t, state.board, 1 - p) - distance(t, state.board, p))


class _Node:
    __slots__ = ("moves", "kids", "n", "w", "rn", "rw", "visits")

    def __init__(self, moves: list[int]):
        k = len(moves)
        self.moves = moves
        self.kids: list = [None] * k
        self.n = [0] * k
        self.w = [0] * k
        self.rn = [0] * k
        self.rw = [0] * k
        self.visits = 0

    def select(self) -> int:
        """The child to follow: the best blend of its win rate and RAVE value, plus a little exploration."""
        n, w, rn, rw = self.n, self.w, self.rn, self.rw
        log_total = math.log(self.visits + 1)
        best, best_j = -1.0, 0
        for j in range(len(n)):
            nj, rj = n[j], rn[j]
            if nj:
                beta = rj / (nj + rj + nj * rj * RAVE_BIAS)
                v = (1.0 - beta) * w[j] / nj + (beta * rw[j] / rj if rj else 0.0) + EXPLORE * math.sqrt(log_total / nj)
            elif rj:
                v = rw[j] / rj + EXPLORE
            else:
                v = FIRST_PLAY
            if v > best:
                best, best_j = v, j
        return best_j


class HexBot(Bot):
    level = "strong"

    def __init__(self, game, seat, *, seed=None, seconds=None):
        super().__init__(game, seat, seed=seed, seconds=seconds)
        self.budget = DEFAULT_SECONDS["strong"] if seconds is None else float(seconds)
        self.t = tables(game)
        self.stats: dict = {}

    def choose(self, state):
        actions = state.legal_actions(self.seat)
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        start = time.perf_counter()
        deadline = start + self.budget
        p = SIDE_INDEX[self.seat]
        board, cells = state.board, state.game.cells
        self.stats = {"simulations": 0}
        wins = winning_cells(self.t, board, p)
        if wins:
            return cells[wins[self.rng.randrange(len(wins))]]
        moves = winning_cells(self.t, board, 1 - p) or [i for i, v in enumerate(board) if v < 0]
        if len(moves) == 1:
            return cells[moves[0]]
        self.rng.shuffle(moves)
        root = _Node(moves)
        black = sum(self.t.bit[i] for i, v in enumerate(board) if v == 0)
        empties = [i for i, v in enumerate(board) if v < 0]
        sims = 0
        while True:
            self._simulate(root, p, black, empties)
            sims += 1
            if time.perf_counter() >= deadline:
                break
        j = max(range(len(moves)), key=lambda k: (root.n[k], root.w[k]))
        self.stats.update(simulations=sims, seconds=time.perf_counter() - start,
                          win_rate=root.w[j] / max(1, root.n[j]))
        return cells[moves[j]]

    def _simulate(self, root: _Node, p: int, black: int, empties: list[int]) -> None:
        """One descent, expansion, playout and update."""
        bit = self.t.bit
        node, mover, path = root, p, []
        taken = set()
        while True:
            j = node.select()
            m = node.moves[j]
            path.append((node, j, mover))
            taken.add(m)
            if mover == 0:
                black |= bit[m]
            kid = node.kids[j]
            if kid is None:
                break
            node, mover = kid, 1 - mover
        rest = [x for x in empties if x not in taken]
        if rest:
            self.rng.shuffle(rest)
            if node.n[j] + 1 >= EXPAND_AFTER:
                node.kids[j] = _Node(rest[:])
            if mover == 1:  # Black moves next in the playout: it gets rest[0], rest[2], ...
                black |= sum([bit[x] for x in rest[0::2]])
            else:
                black |= sum([bit[x] for x in rest[1::2]])
        winner = 0 if self.t.black_connects(black) else 1
        for node, j, mover in path:
            node.visits += 1
            node.n[j] += 1
            won = winner == mover
            if won:
                node.w[j] += 1
            own = 1 if mover == 0 else 0  # the bit value of a cell ``mover`` owns at the end
            rn, rw = node.rn, node.rw
            for k, x in enumerate(node.moves):
                if (black >> x) & 1 == own:
                    rn[k] += 1
                    if won:
                        rw[k] += 1


BOTS = {"strong": HexBot}


ANALYSIS_SCALE = 3.0  # cells of shortest-path lead that make a value of about 0.76 (when MCTS gives none)


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the strong bot's MCTS within ``seconds`` for the seat to
    act; the value its chosen move's win rate (2w - 1), a win in one 1, and where the search ends at once
    (one sensible move) the shortest-path lead, ``tanh(lead / ANALYSIS_SCALE)``."""
    from games.bots.review import Look, review, squash, zero_sum

    game = state.game
    budget = 0.05 if seconds is None else seconds

    def look(s, best: bool) -> Look:
        mover = s.players_to_act()[0]
        bot = HexBot(game, mover, seed=0, seconds=budget)
        move = bot.choose(s)
        rate = bot.stats.get("win_rate")
        if rate is not None:
            v = 2 * rate - 1
        elif winning_cells(bot.t, s.board, SIDE_INDEX[mover]):
            v = 1.0
        else:
            v = squash(evaluate(s, mover), ANALYSIS_SCALE)
        return Look(zero_sum(game, mover, v), move)  # the best move's value: its position searched alike
    return review(game, state, look, actual)
