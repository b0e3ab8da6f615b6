"""Course-style players for the COMP30024 2020 referee (``python -m referee WHITE BLACK``), for Expendibots.

``Player(colour)`` with ``colour`` "white" or "black"; ``action()`` returns the referee's tuple,
``("MOVE", n, (x, y), (x, y))`` or ``("BOOM", (x, y))`` (x the column 0-7 left to right, y the row 0-7 bottom
to top, White starting on rows 0 and 1: the engine's own squares); ``update(colour, action)`` is told every
action of the game, its own included, with the colour that took it (squares as tuples or lists, numbers of any
integer type, as the referee's ``==`` lets them through).

``Player`` is the strong bot (alpha-beta), ``GreedyPlayer`` and ``RandomPlayer`` the other levels. Each keeps
its own engine state. Only the standard library and the pure game kit are used; Django is never imported.

The referee's limits (``-t 60 -s 100``): 60 s of CPU per player (``time.process_time`` around each
``__init__``, ``action()`` and ``update()``, garbage collected off the clock), and memory shared by both
players: the game is over ("resource limit exceeded") once the process's ``VmPeak`` is 2 x 100 MB past its
``VmSize`` right after both players' packages were imported. So the adapter keeps its own CPU clock and gives
each move ``remaining / max(20, its expected turns left)`` of a 48 s plan (expected: at most 60 of its turns,
at most those left before its 250th), capped at 1 s; and everything the levels use (the bot modules, the game,
its evaluation) is loaded when this module is imported, so ``__init__`` adds nothing to the baseline. The
search's transposition table is cleared between moves once it holds ``TABLE_ENTRIES`` positions, which keeps
the growth of a whole game to a few tens of MB (``docs/bots.md``).
"""
from __future__ import annotations

import time

from games.bots import alphabeta, base, greedy, make_bot  # noqa: F401 (loaded before the referee's baseline)
from games.engine import game_module, load_game

CPU_LIMIT = 60.0  # the course's limit per player per game
CPU_PLAN = 48.0  # what the adapter plans to spend at most (the rest is slack)
MAX_MOVE = 1.0  # cap per move (seconds)
MIN_MOVE = 0.005
HORIZON = 60  # expected turns of ours left, at most
MAX_TURNS = 250  # each player's turns before the game is drawn
TABLE_ENTRIES = 50_000  # transposition-table positions kept from one move to the next

GAME = load_game("expendibots")
COURSE = game_module("expendibots", "course")
game_module("expendibots", "bots")


class _CoursePlayer:
    level = "strong"

    def __init__(self, colour):
        started = time.process_time()
        self.colour = colour
        self.state = GAME.new_initial_state()
        self.bot = make_bot(self.level, GAME, colour)
        self.cpu_used = time.process_time() - started

    def move_budget(self) -> float:
        """Seconds for the next move from the remaining planned CPU time."""
        remaining = max(0.0, CPU_PLAN - self.cpu_used)
        expected_left = max(20, min(HORIZON, MAX_TURNS - self.state.turn // 2))
        return max(MIN_MOVE, min(MAX_MOVE, remaining / expected_left))

    def action(self):
        started = time.process_time()
        try:
            if self.level == "strong":  # the search: its clock and its table
                self.bot.budget = self.move_budget()
                if len(self.bot.tt) > TABLE_ENTRIES:
                    self.bot.tt.clear()
            return self.bot.choose(self.state)
        finally:
            self.cpu_used += time.process_time() - started

    def update(self, colour, action):
        started = time.process_time()
        try:
            if not self.state.is_terminal():
                self.state.apply_actions({colour: COURSE.from_course_action(action)})
        finally:
            self.cpu_used += time.process_time() - started


class Player(_CoursePlayer):
    """The strongest bot (``strong``: alpha-beta search with iterative deepening and a transposition table)."""

    level = "strong"


class GreedyPlayer(_CoursePlayer):
    """The ``greedy`` bot: best immediate outcome, ignoring the opponent's reply."""

    level = "greedy"


class RandomPlayer(_CoursePlayer):
    """The ``random`` bot: a uniformly random legal action."""

    level = "random"


__all__ = ["GreedyPlayer", "Player", "RandomPlayer"]
