"""Course-style players for the COMP30024 2021 referee (``python -m referee games.bots.comp30024 OTHER``).

``Player(player)`` with ``player`` "upper" or "lower"; ``action()`` returns the referee's tuple
(``("THROW", "r", (r, q))``, ``("SLIDE", (r, q), (r, q))``, ``("SWING", (r, q), (r, q))``);
``update(opponent_action, player_action)`` is told both actions after each turn (hexes as tuples or lists).

``Player`` is the strong bot, ``GreedyPlayer`` and ``RandomPlayer`` the other levels. Each keeps its own
engine state. Only the standard library, NumPy and SciPy are used, and Django is never imported.

The course allows 60 s of CPU per player per game: the adapter keeps its own ``time.process_time`` clock
and gives each move ``remaining / max(20, expected turns left)`` of a 48 s plan (``cpu_plan``; expected turns
left: at most 120, at most the turns remaining before the 360-turn limit), capped at 1 s, so even a 360-turn
game stays well inside the limit. The search's deadlines are in CPU time too (``bot.clock``), so a loaded
machine slows a game down without weakening the player. The search keeps no tables between moves, so memory
stays small.

The referee's memory baseline is the process's virtual size right after it imports both players' packages,
and a player is forfeited once the peak grows 100 MB past it: NumPy and SciPy alone add about 290 MB of
virtual memory. So everything the levels use (the bot modules, NumPy and SciPy through ``strong``, the game,
its evaluation module) is loaded when this module is imported, not in ``__init__``.
"""
from __future__ import annotations

import time
from collections import Counter

from games.bots import base, greedy, make_bot, strong  # noqa: F401 (loaded before the referee's baseline)
from games.engine import game_module, load_game

CPU_LIMIT = 60.0  # the course's limit per player per game
CPU_PLAN = 48.0  # what the adapter plans to spend at most (the rest is slack)
MAX_MOVE = 1.0  # cap per move (seconds)
MIN_MOVE = 0.005
HORIZON = 120  # expected turns left, at most
MAX_TURNS = 360

GAME = load_game("ropasci360")
game_module("ropasci360", "bots")


def _tuple_action(action):
    """An action with its hexes as tuples (the referee may pass lists)."""
    return tuple(tuple(x) if isinstance(x, list) else x for x in action)


class _CoursePlayer:
    level = "strong"
    cpu_plan = CPU_PLAN  # seconds of CPU this player plans to spend in a game
    depth = None  # the strong bot's search depth, when not its default
    exploit = False  # the strong bot plays the strategy best against the opponent's candidates as it picks them
    repeat_contempt = None  # the strong bot's value of a draw by repetition below a draw, when not its default

    def __init__(self, player):
        started = time.process_time()
        self.side = player
        self.other = "lower" if player == "upper" else "upper"
        self.state = GAME.new_initial_state()
        self.bot = make_bot(self.level, GAME, player)
        self.bot.clock = time.process_time  # the search's deadlines in CPU time, as the course counts it
        if self.depth:
            self.bot.depth = self.depth
        if self.exploit:
            self.bot.exploit = True
            self.bot.opp_ranks = Counter()  # the opponent's candidate ranks, learnt as the game goes
        if self.repeat_contempt is not None:
            self.bot.repeat_contempt = self.repeat_contempt
        self.cpu_used = 0.0
        self.cpu_used += time.process_time() - started

    def move_budget(self) -> float:
        """Seconds for the next move from the remaining planned CPU time."""
        remaining = max(0.0, self.cpu_plan - self.cpu_used)
        expected_left = max(20, min(HORIZON, MAX_TURNS - self.state.turn))
        return max(MIN_MOVE, min(MAX_MOVE, remaining / expected_left))

    def action(self):
        started = time.process_time()
        try:
            self.bot.seconds = self.move_budget()
            return self.bot.choose(self.state)
        finally:
            self.cpu_used += time.process_time() - started

    def update(self, opponent_action, player_action):
        started = time.process_time()
        try:
            if not self.state.is_terminal():
                if self.exploit:
                    self.bot.saw_opponent(self.state.turn, _tuple_action(opponent_action))
                self.state.apply_actions({self.side: _tuple_action(player_action),
                                          self.other: _tuple_action(opponent_action)})
                self.bot.observe(self.state)
        finally:
            self.cpu_used += time.process_time() - started


class Player(_CoursePlayer):
    """The strongest bot (``strong``: simultaneous-move search with mixed strategies), with its second
    simultaneous stage: the course gives 60 s of CPU a game, which one stage leaves nearly unused; it plays the
    strategy best against the opponent's candidates weighted as this opponent has picked them so far, giving up at
    most ``EXPLOIT_TOL`` of the game's value; a draw by repetition is
    worth 0.1 less than a draw to it (the server's bot: 0.02), so it does not shuffle into one against an agent
    that repeats (docs/bots.md)."""

    level = "strong"
    depth = 2
    exploit = True
    repeat_contempt = 0.1


class GreedyPlayer(_CoursePlayer):
    """The ``greedy`` bot: best immediate outcome, ignoring the opponent's reply."""

    level = "greedy"


class RandomPlayer(_CoursePlayer):
    """The ``random`` bot: a uniformly random legal action."""

    level = "random"


__all__ = ["GreedyPlayer", "Player", "RandomPlayer"]
