"""Nim3P's own bots (``BOTS``). ``perfect`` (and ``strong``, the same) solve the game exactly by max^n search.

Max^n: every player maximises its own return, assuming every other player does the same. A position's value
is the vector of returns relative to the player to move (it, the next, the one after); it depends only on the
multiset of heap sizes (any heap may be emptied in one move), so the memo is keyed by the sorted non-empty
heaps and the extra rule, and shared by every game and bot in the process. In this model a player breaks
ties between its moves deterministically: the highest own return, then the lowest return for the next
player, then the smallest resulting position (sorted heaps, compared as tuples).

The bot always plays a move of the highest own max^n return. Among those it prefers the one with the highest
expected own return if everybody played uniformly at random from there on (another memo over the same
positions): in a position max^n scores as lost, this leaves the others most room to go wrong. Then the
model's tie-breaks, then the lowest heap number and count.

Within the parameter limits (6 heaps of 10) the whole game has at most 8,008 positions: the first move of a
largest game solves it in about 0.2 s and every later move reads the memos. If the clock runs out before
the search ends, it plays a random move that does not take the last item for that turn (positions solved so
far stay in the memos). ``greedy`` looks one round ahead: max^n over its own move and the next two players'
replies (the model's tie-breaks), positions beyond counting as undecided (a third each); ties at random.
"""
from __future__ import annotations

import time

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot

from .rules import EXTRA

_MEMO: dict[tuple, tuple] = {}  # (extra_rule, sorted non-empty heaps) -> (returns relative to the mover, ...)
_CHANCE: dict[tuple, tuple] = {}  # the same keys -> expected returns under uniformly random play
CHECK_EVERY = 256  # positions solved between clock checks
UNDECIDED = (1 / 3, 1 / 3, 1 / 3)


class _Timeout(Exception):
    pass


def children(heaps: tuple) -> list[tuple]:
    """The distinct positions (sorted non-empty heaps) one move leads to from ``heaps``."""
    out = []
    for i, items in enumerate(heaps):
        if i and heaps[i - 1] == items:
            continue  # taking from an equal heap leads to the same positions
        rest = heaps[:i] + heaps[i + 1:]
        for left in range(items):
            out.append(tuple(sorted(rest + (left,))) if left else rest)
    return out


class Solver:
    """Max^n values of Nim3P positions, memoised in ``_MEMO``; raises _Timeout past ``deadline``."""

    def __init__(self, extra_rule: bool, deadline: float):
        self.extra, self.deadline, self.count = extra_rule, deadline, 0
        self.end = (1.0, EXTRA if extra_rule else 0.0, 0.0)  # no item left: the mover follows the last taker

    def value(self, heaps: tuple) -> tuple:
        """Returns of (the mover, the next player, the one after) under max^n play from ``heaps``."""
        if not heaps:
            return self.end
        key = (self.extra, heaps)
        found = _MEMO.get(key)
        if found is not None:
            return found
        self.count += 1
        if self.count % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        best = min((self.rank(child), child) for child in children(heaps))[0]
        value = (-best[0], best[1], best[2])
        _MEMO[key] = value
        return value

    def chance(self, heaps: tuple) -> tuple:
        """Expected returns of (the mover, the next, the one after) if every player, from ``heaps`` on, took a
        uniformly random legal move (memoised in ``_CHANCE``)."""
        if not heaps:
            return self.end
        key = (self.extra, heaps)
        found = _CHANCE.get(key)
        if found is not None:
            return found
        self.count += 1
        if self.count % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        total, moves = [0.0, 0.0, 0.0], sum(heaps)
        for i, items in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1:]
            for left in range(items):
                nxt, third, mover = self.chance(tuple(sorted(rest + (left,))) if left else rest)
                total[0] += mover
                total[1] += nxt
                total[2] += third
        value = (total[0] / moves, total[1] / moves, total[2] / moves)
        _CHANCE[key] = value
        return value

    def rank(self, child: tuple) -> tuple:
        """Sort key of a move to ``child`` for the mover (smaller is better): its own return negated, the next
        player's return, the third player's, from the child's value (which is relative to the next player)."""
        nxt, third, mover = self.value(child)
        return (-mover, nxt, third)


def after(heaps, h: int, c: int) -> tuple:
    """The position (sorted non-empty heaps) after taking ``c`` items from heap ``h``."""
    rest = list(heaps)
    rest[h] -= c
    return tuple(sorted(n for n in rest if n))


def safe_action(state, actions, rng):
    """A random move that does not take the last item (which hands the win to the next player), if any: the
    perfect bot's move when its clock runs out."""
    total = sum(state.heaps)
    pool = [a for a in actions if a[1] < total] or actions
    return pool[rng.randrange(len(pool))]


def shallow(heaps: tuple, depth: int, end: tuple) -> tuple:
    """Max^n values (as ``Solver.value``, same tie-breaks) looking only ``depth`` moves ahead; a position
    beyond that counts as undecided, a third for each player."""
    if not heaps:
        return end
    if depth == 0:
        return UNDECIDED
    best = min((((-v[2], v[0], v[1]), child) for child in children(heaps)
                for v in (shallow(child, depth - 1, end),)))[0]
    return (-best[0], best[1], best[2])


class _Nim3PBot(Bot):
    def _legal(self, state) -> list:
        actions = state.legal_actions(self.seat)
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        return actions


class GreedyBot(_Nim3PBot):
    """One round ahead: its own move and the two replies (max^n), a random one among the best."""

    level = "greedy"

    def choose(self, state):
        actions = self._legal(state)
        end = (1.0, EXTRA if state.game.extra_rule else 0.0, 0.0)
        values = {}
        for h, c in actions:
            child = after(state.heaps, h, c)
            if child not in values:
                values[child] = shallow(child, 2, end)[2]
        scored = [values[after(state.heaps, h, c)] for h, c in actions]
        ties = [a for a, v in zip(actions, scored) if v == max(scored)]
        return ties[self.rng.randrange(len(ties))]


class PerfectBot(_Nim3PBot):
    level = "perfect"

    def choose(self, state):
        actions = self._legal(state)
        budget = DEFAULT_SECONDS["perfect"] if self.seconds is None else float(self.seconds)
        solver = Solver(state.game.extra_rule, time.perf_counter() + budget)
        try:
            ranked = []
            for h, c in actions:
                child = after(state.heaps, h, c)
                own, nxt, third = solver.rank(child)
                ranked.append((own, -solver.chance(child)[2], nxt, third, child, (h, c)))
        except _Timeout:
            return safe_action(state, actions, self.rng)
        return min(ranked)[-1]


class StrongBot(PerfectBot):
    level = "strong"


BOTS = {"greedy": GreedyBot, "strong": StrongBot, "perfect": PerfectBot}


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): max^n play, solved. Each seat's value is its return under
    that play (1 won .. 0 lost) as -1..1; the best move the perfect bot's. A position the solver cannot
    finish within ``seconds`` gets the move alone."""
    from games.bots.review import Look, review

    game = state.game
    budget = 0.5 if seconds is None else seconds

    def look(s, best: bool) -> Look:
        mover = s.players_to_act()[0]
        i = game.info.players.index(mover)
        move = PerfectBot(game, mover, seed=0, seconds=budget).choose(s) if best else None
        try:
            returns = Solver(game.extra_rule, time.perf_counter() + budget).value(
                tuple(sorted(h for h in s.heaps if h)))
        except _Timeout:
            return Look({}, move)
        players = game.info.players
        values = {players[(i + k) % len(players)]: 2 * r - 1 for k, r in enumerate(returns)}
        return Look(values, move, after=values[mover])
    return review(game, state, look, actual)
