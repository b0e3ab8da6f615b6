"""Nim3P as in GBG (rules: ``docs/games/nim3p.md``): Nim (``games.nim.rules``) for the seats ``p0``, ``p1``,
``p2`` in that order, ``p0`` first; a move takes any number of items (at least one) from one heap; the
player *after* the one who takes the last item wins (1, the others 0). With ``extra_rule`` the player after
the winner gets 0.2.

Actions and their forms are Nim's: ``(heap, count)``, JSON ``[heap, count]``, text ``heap:count``.
"""
from __future__ import annotations

from games.engine.api import GameInfo, Result
from games.nim.rules import Nim

SEATS = ("p0", "p1", "p2")
EXTRA = 0.2  # the return of the player after the winner under the extra rule


class Nim3P(Nim):
    """Nim3P with the given (validated) parameters; ``make_game`` builds it."""

    def __init__(self, heaps: int, size: int, extra_rule: bool):
        self.params = {"heaps": heaps, "size": size, "extra_rule": extra_rule}
        self.heaps, self.size, self.extra_rule = heaps, size, extra_rule
        self.max_take = size  # GBG: "Max Minus" is always the heap size, i.e. no limit but the heap
        self.info = GameInfo(name="nim3p", title="Nim3P", players=SEATS, simultaneous=False,
                             max_turns=heaps * size)
        self._results = tuple(self._result_after(last) for last in range(3))

    def _result_after(self, last: int) -> Result:
        """The result once seat ``last`` took the last item: the next seat wins."""
        winner, third = SEATS[(last + 1) % 3], SEATS[(last + 2) % 3]
        returns = {s: 0.0 for s in SEATS}
        returns[winner] = 1.0
        if self.extra_rule:
            returns[third] = EXTRA
        return Result(f"winner: {winner}", winner, returns)

    def limit(self, items: int) -> int:
        return items

    def end_events(self, last: int) -> list:
        return [{"last_item": SEATS[last], "winner": SEATS[(last + 1) % 3]}]
