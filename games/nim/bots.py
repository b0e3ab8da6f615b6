"""Nim's own bots (``BOTS``): Nim is solved, so ``strong`` and ``perfect`` both play the Grundy strategy.

With at most ``m`` items per move a heap of ``h`` items is worth ``h mod (m + 1)`` (its Grundy value); the
position is lost for the side to move exactly when the XOR of those values is 0. ``perfect`` takes the move
that makes it 0; from a lost position it takes 1 item from the biggest heap (the lowest-numbered one on a tie),
which keeps the game long and gives the opponent most room to go wrong. ``greedy`` looks one move ahead: it
takes the last item when it can, else avoids leaving a single heap the opponent can take at once.
"""
from __future__ import annotations

from games.bots.base import Bot


def grundy(heaps, max_take: int) -> int:
    """The XOR of the heaps' Grundy values: 0 exactly when the side to move loses against perfect play."""
    x = 0
    for h in heaps:
        x ^= h % (max_take + 1)
    return x


def perfect_action(heaps, max_take: int) -> tuple[int, int]:
    """A move to a position of Grundy value 0 if there is one, else 1 item from the biggest heap."""
    x = grundy(heaps, max_take)
    if x:
        for h, items in enumerate(heaps):
            g = items % (max_take + 1)
            if g ^ x < g:
                return (h, g - (g ^ x))
    biggest = max(range(len(heaps)), key=lambda h: (heaps[h], -h))
    return (biggest, 1)


class _NimBot(Bot):
    def _legal(self, state) -> list:
        actions = state.legal_actions(self.seat)
        if not actions:
            raise ValueError(f"{self.seat} has no legal action (to act: {state.players_to_act()})")
        return actions


class PerfectBot(_NimBot):
    level = "perfect"

    def choose(self, state):
        self._legal(state)
        return perfect_action(state.heaps, state.game.max_take)


class StrongBot(PerfectBot):
    level = "strong"


class GreedyBot(_NimBot):
    """One move ahead: win now if possible, else a random move that does not let the opponent win at once."""

    level = "greedy"

    def choose(self, state):
        actions = self._legal(state)
        heaps, max_take = state.heaps, state.game.max_take
        total = sum(heaps)
        wins = [a for a in actions if a[1] == total]
        if wins:
            return wins[0]
        safe = []
        for h, c in actions:
            rest = [n - c if i == h else n for i, n in enumerate(heaps)]
            left = [n for n in rest if n]
            if not (len(left) == 1 and left[0] <= max_take):
                safe.append((h, c))
        pool = safe or actions
        return pool[self.rng.randrange(len(pool))]


BOTS = {"greedy": GreedyBot, "strong": StrongBot, "perfect": PerfectBot}


def analyse(state, seconds: float | None = None, *, seen=None, actual=None) -> dict:
    """The replay's analysis (``docs/bots.md``): the solved game. The side to move wins (1) exactly when the
    heaps' Grundy value is not 0; the best move the perfect bot's."""
    from games.bots.review import Look, review, zero_sum

    game = state.game

    def look(s, best: bool) -> Look:
        v = 1.0 if grundy(s.heaps, game.max_take) else -1.0
        move = perfect_action(s.heaps, game.max_take) if best else None
        return Look(zero_sum(game, s.players_to_act()[0], v), move, after=v)
    return review(game, state, look, actual)
