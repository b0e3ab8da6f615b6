"""Nim3P's own bots (``BOTS``). ``perfect`` (and ``strong``, the same) solve the game exactly by max^n search.

Max^n: every player maximises its own return, assuming every other player does the same. A position's value
is the vector of returns relative to the player to move (it, the next, the one after); it depends only on the
multiset of heap sizes (any heap may be emptied in one move), so the memo is keyed by the sorted non-empty
heaps and the extra rule, and shared by every game and bot in the process. Ties between moves are broken
deterministically: the highest own return, then the lowest return for the next player, then the smallest
resulting position (sorted heaps, compared as tuples), then the lowest heap number and count.

Within the parameter limits (6 heaps of 10) the whole game has at most 8,008 positions: the first move of a
largest game solves it in about a second and every later move reads the memo. If the clock runs out before
the search ends, the bot plays ``greedy``'s move for that turn (positions solved so far stay in the memo).
``greedy`` looks one move ahead: taking the last item hands the win to the next player, so it avoids that
whenever it has another move, and otherwise plays at random.
"""
from __future__ import annotations

import time

from games.bots import DEFAULT_SECONDS
from games.bots.base import Bot

from .rules import EXTRA

_MEMO: dict[tuple, tuple] = {}  # (extra_rule, sorted non-empty heaps) -> (returns relative to the mover, ...)
CHECK_EVERY = 256  # positions solved between clock checks


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


def greedy_action(state, actions, rng):
    """A random move that does not take the last item (which hands the win to the next player), if any."""
    total = sum(state.heaps)
    pool = [a for a in actions if a[1] < total] or actions
    return pool[rng.randrange(len(pool))]


class _Nim3PBot(Bot):
    def _legal(self, state) -> list:
        actions = state.legal_actions(self.seat)
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        return actions


class GreedyBot(_Nim3PBot):
    level = "greedy"

    def choose(self, state):
        return greedy_action(state, self._legal(state), self.rng)


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
                ranked.append((solver.rank(child), child, (h, c)))
        except _Timeout:
            return greedy_action(state, actions, self.rng)
        return min(ranked)[2]


class StrongBot(PerfectBot):
    level = "strong"


BOTS = {"greedy": GreedyBot, "strong": StrongBot, "perfect": PerfectBot}
