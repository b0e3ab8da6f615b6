"""Sim's own bots (``BOTS``), searching over edge masks (``rules.Tables``), never over engine states.

An edge is *safe* for a seat when colouring it would not complete a triangle of that seat's colour; a seat
that must move with no safe edge left loses. Colouring an unsafe edge never helps (it loses at once), so the
searches only try safe edges while there are any.

* ``greedy``: the safe edge that leaves the mover the most safe edges minus the mean of what it leaves the
  other seats still in (colouring an edge both could use takes it from them); ties at random.
* ``strong``, two seats still in: negamax alpha-beta with a transposition table keyed by the two masks
  (mover's first), iterative deepening under the time budget. The static value is ``SAFE * (own safe edges -
  opponent's safe edges)``; no edge left is a tie (0), no safe edge a loss. Wins sooner (losses later) score
  higher. When the search reaches the end of every line it has solved the position and plays perfectly.
* ``strong``, three seats still in: max^n (each seat maximises its own return, coalition sharing included)
  over safe edges, iterative deepening under the budget, the leaves valued by sharing the return among the
  seats still in in proportion to their safe edges (plus one).
* ``perfect``, the solved game (two players, 6 nodes; ``solved``): every safe edge's result read from the table
  of all positions; a winning edge at random if there is one. In a lost position (every edge loses against
  perfect play) the edge after which the fewest of the opponent's safe replies still win (as a share), to leave
  a fallible opponent the most room to go wrong. Any other game (4, 5 or 7 to 10 nodes, three players) it
  plays as ``strong`` (which is exact from the first move on 4 and 5 nodes).
"""
from __future__ import annotations

import time

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot

from . import solved
from .rules import completes, final_returns

WIN = 100000.0
SAFE = 10.0
CHECK_EVERY = 256
EXACT, LOWER, UPPER = 0, 1, 2
SOLVED = 1 << 30  # table depth of a position searched to the end of every line


class _Timeout(Exception):
    pass


def bits(mask: int):
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def farther(value: float) -> float:
    """A child's win or loss seen from its parent: one move farther, so one closer to 0 (a win sooner and a
    loss later score higher). The value moves by at most 1, so searching the child with the parent's window
    widened by 1 on each side keeps every cutoff sound."""
    return value + 1 if value < -WIN / 2 else value - 1 if value > WIN / 2 else value


def safe_edges(own: int, free: int, pairs) -> int:
    """The mask of the edges in ``free`` that would not complete a triangle in colour ``own``."""
    out = 0
    for e in bits(free):
        if not any(own & m == m for m, _ in pairs[e]):
            out |= 1 << e
    return out


class _SimBot(Bot):
    def _start(self, state):
        """The legal actions (checked non-empty), the game's tables, the masks, free edges and seat indices."""
        actions = state.legal_actions(self.seat)
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        return actions, state.game.tables.pairs, list(state.masks), state.free(), state.alive(), state.to_move


class GreedyBot(_SimBot):
    level = "greedy"

    def choose(self, state):
        actions, pairs, masks, free, alive, me = self._start(state)
        return greedy_edge(state, masks, free, alive, me, pairs, self.rng)


def greedy_edge(state, masks, free, alive, me, pairs, rng):
    """``greedy``'s move (see the module docstring), as an engine action."""
    safe = safe_edges(masks[me], free, pairs)
    scored = []
    for e in bits(safe or free):
        bit = 1 << e
        rest = free & ~bit
        mine = bin(safe_edges(masks[me] | bit, rest, pairs)).count("1")
        others = [bin(safe_edges(masks[p], rest, pairs)).count("1") for p in alive if p != me]
        scored.append((mine - sum(others) / max(1, len(others)), e))
    best = max(s for s, _ in scored)
    ties = [e for s, e in scored if s == best]
    return state.game.tables.edges[ties[rng.randrange(len(ties))]]


class StrongBot(_SimBot):
    level = "strong"

    def choose(self, state):
        actions, pairs, masks, free, alive, me = self._start(state)
        safe = safe_edges(masks[me], free, pairs)
        if len(actions) == 1 or (len(alive) == 2 and not safe):
            return actions[self.rng.randrange(len(actions))]  # one move, or every move loses at once
        self.pairs, self.coalition, self.players = pairs, state.game.coalition, len(masks)
        budget = DEFAULT_SECONDS["strong"] if self.seconds is None else float(self.seconds)
        self.deadline, self.nodes = time.perf_counter() + budget, 0
        self.best = None
        order = list(bits(safe or free))
        self.rng.shuffle(order)
        try:
            if len(alive) == 2:
                other = alive[0] if alive[1] == me else alive[1]
                self.table, self.open = {}, free | masks[me] | masks[other]  # the edges not of a seat out
                self._deepen_two(masks[me], masks[other], order, bin(free).count("1"))
            else:
                self._deepen_three(masks, me, order, bin(free).count("1"))
        except _Timeout:
            pass
        if self.best is None:
            return greedy_edge(state, masks, free, alive, me, pairs, self.rng)
        return state.game.tables.edges[self.best]

    def _tick(self):
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _Timeout

    # --- two seats: negamax alpha-beta --------------------------------------------------------------
    def _deepen_two(self, own, opp, order, moves_left):
        """Iterative deepening at the root: ``self.best`` is the best edge of the deepest completed search."""
        for depth in range(1, moves_left + 1):
            self.horizon = False
            value, self.best = self._root_two(own, opp, order, depth)
            order.remove(self.best)
            order.insert(0, self.best)
            if not self.horizon or abs(value) > WIN / 2:
                break

    def _root_two(self, own, opp, order, depth):
        alpha, best = -WIN * 2, order[0]
        for e in order:
            bit = 1 << e
            value = -self._negamax(opp, own | bit, depth - 1, -WIN * 2, -alpha + 1)
            value = farther(value)
            if value > alpha:
                alpha, best = value, e
        return alpha, best

    def _negamax(self, own, opp, depth, alpha, beta):
        """The value for the mover (colour ``own``) of the position, fail-soft; mate scores count moves from
        this node (a loss here is ``-WIN``; each move further away is one closer to 0)."""
        self._tick()
        free = self.open & ~(own | opp)
        if not free:
            return 0.0
        key = (own, opp)
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_depth < SOLVED:
                    self.horizon = True
                if e_flag == EXACT or (e_flag == LOWER and e_value >= beta) or (e_flag == UPPER and e_value <= alpha):
                    return e_value
        safe = safe_edges(own, free, self.pairs)
        if not safe:
            return -WIN
        if depth <= 0:
            self.horizon = True
            return SAFE * (bin(safe).count("1") - bin(safe_edges(opp, free, self.pairs)).count("1"))
        moves = list(bits(safe))
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        alpha0, saved, self.horizon = alpha, self.horizon, False
        best_value, best = -WIN * 2, moves[0]
        for e in moves:
            value = -self._negamax(opp, own | 1 << e, depth - 1, -beta - 1, -alpha + 1)  # widened: see farther
            value = farther(value)
            if value > best_value:
                best_value, best = value, e
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        solved = not self.horizon
        self.horizon = saved or self.horizon
        flag = UPPER if best_value <= alpha0 else LOWER if best_value >= beta else EXACT
        self.table[key] = (SOLVED if solved else depth, best_value, flag, best)
        return best_value

    # --- three seats: max^n ------------------------------------------------------------------------------
    def _deepen_three(self, masks, me, order, moves_left):
        """Iterative deepening at the root: ``self.best`` is the best edge of the deepest completed search."""
        for depth in range(1, moves_left + 1):
            self.horizon = False
            scored = [(self._maxn(masks, [], me, e, depth - 1)[me], -k, e) for k, e in enumerate(order)]
            self.best = max(scored)[2]
            order.remove(self.best)
            order.insert(0, self.best)
            if not self.horizon:
                break

    def _maxn(self, masks, out, mover, e, depth):
        """Every seat's return (max^n) after ``mover`` colours edge ``e`` in ``masks`` (``out``: seats out)."""
        self._tick()
        pairs, players = self.pairs, self.players
        if completes(masks[mover], pairs[e]):
            out = out + [mover]
        masks = list(masks)
        masks[mover] |= 1 << e
        alive = [p for p in range(players) if p not in out]
        used = 0
        for m in masks:
            used |= m
        free = ~used & ((1 << len(pairs)) - 1)
        if len(alive) == 1 or not free:
            return final_returns(players, alive, self.coalition)
        nxt = next(q % players for q in range(mover + 1, mover + players + 1) if q % players in alive)
        if depth <= 0:
            self.horizon = True
            weights = [bin(safe_edges(masks[p], free, pairs)).count("1") + 1 if p in alive else 0
                       for p in range(players)]
            shares = [w / sum(weights) for w in weights]
            if self.coalition == "1-2":
                shares[1] = shares[2] = (shares[1] + shares[2]) / 2
            return tuple(shares)
        best = None
        for edge in bits(safe_edges(masks[nxt], free, pairs) or free):
            value = self._maxn(masks, out, nxt, edge, depth - 1)
            if best is None or value[nxt] > best[nxt]:
                best = value
        return best


class PerfectBot(_SimBot):
    level = "perfect"

    @staticmethod
    def plays(game) -> bool:
        """Offered only where the solved table holds the game: two players on 6 nodes (elsewhere, in games
        started before this was checked, it plays as the strong bot)."""
        return game.nodes == solved.NODES and len(game.info.players) == 2

    def choose(self, state):
        actions, pairs, masks, free, alive, me = self._start(state)
        edges = state.game.tables.edges
        if state.game.nodes == solved.NODES and len(masks) == 2:
            own, opp = masks[me], masks[1 - me]
            moves = solved.safe_moves(own, opp)
            if not moves:
                return actions[self.rng.randrange(len(actions))]  # every edge closes an own triangle
            results = {e: solved.wins(opp, own | 1 << e) for e in moves}
            if None not in results.values():  # always so in play (see ``solved.wins``)
                winning = [e for e in moves if not results[e]]
                if winning:
                    return edges[winning[self.rng.randrange(len(winning))]]
                share = {e: self._winning_share(own | 1 << e, opp) for e in moves}
                least = min(share.values())
                ties = [e for e in moves if share[e] == least]
                return edges[ties[self.rng.randrange(len(ties))]]
        return StrongBot(state.game, self.seat, seed=self.rng.randrange(1 << 30), seconds=self.seconds).choose(state)

    @staticmethod
    def _winning_share(own: int, opp: int) -> float:
        """The share of the opponent's safe replies (it to move, ``opp``) that win for it."""
        replies = solved.safe_moves(opp, own)
        return sum(solved.wins(own, opp | 1 << r) is False for r in replies) / len(replies) if replies else 0.0


BOTS = {"greedy": GreedyBot, "strong": StrongBot, "perfect": PerfectBot}


ANALYSIS_SCALE = 4.0  # safe edges more than the others' mean that make a value of about 0.76


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the perfect bot's move. On the solved board (two players, 6
    nodes) the values are exact: 1 won, -1 lost under perfect play. Elsewhere the move is the strong bot's
    within ``seconds``, and each seat's value comes from its safe edges (those it can still take without
    closing a triangle of its colour) against the mean of the other seats still in,
    ``tanh(difference / ANALYSIS_SCALE)``; a seat out is lost (-1)."""
    from games.bots.review import Look, review, squash, zero_sum

    game = state.game
    budget = 0.05 if seconds is None else seconds

    def look(s, best: bool) -> Look:
        mover = s.players_to_act()[0]
        move = PerfectBot(game, mover, seed=0, seconds=budget).choose(s) if best else None
        masks, free, alive = list(s.masks), s.free(), s.alive()
        if game.nodes == solved.NODES and len(masks) == 2:
            won = solved.wins(masks[s.to_move], masks[1 - s.to_move])
            if won is not None:
                v = 1.0 if won else -1.0
                return Look(zero_sum(game, mover, v), move, after=v)
        safe = {p: bin(safe_edges(masks[p], free, game.tables.pairs)).count("1") for p in alive}
        values = {}
        for p, seat in enumerate(game.info.players):
            others = [safe[q] for q in alive if q != p]
            values[seat] = -1.0 if p not in safe else squash(safe[p] - sum(others) / max(1, len(others)),
                                                               ANALYSIS_SCALE)
        return Look(values, move)
    return review(game, state, look, actual)
