"""Matches between bots: ``manage.py arena A B --games N`` is a thin wrapper around :func:`run_arena`.

Any registered two-seat game (``game_name``, default the registry's first). A player spec is a bot level
(``random``, ``greedy``, ``strong``) or, for a game whose package has a ``course`` module (its COMP30024
interface), a course-style ``package[:Class]``, loaded as the course referee does (the module's ``Player``
unless a class name follows a colon) and played through that module. Games alternate sides: in game ``i``
the first player (A) has seat ``i % 2`` of the game's seats.
Games run in parallel in worker processes. An illegal action (or an exception) forfeits the game, as in the
course tournament. A game's ``turns`` counts its turn records (plies in an alternating game).
"""
from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from games.engine import IllegalAction, game_module, load_game
from games.engine.registry import course_games, default_name

from . import LEVELS, make_bot

@dataclass
class GameRecord:
    index: int
    a_seat: str  # the seat the first player (A) had
    result: str  # the referee's result line, or "forfeit: ..." on an illegal action or error
    winner: str | None  # seat
    turns: int
    a_score: float  # 1, 0.5 or 0 for A
    seconds: float = 0.0
    moves: list = field(default_factory=list)  # per turn, {seat: action}


@dataclass
class ArenaResult:
    a: str
    b: str
    records: list[GameRecord] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.records if r.a_score == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.records if r.a_score == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for r in self.records if r.a_score == 0.0)

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def score(self) -> float:
        return sum(r.a_score for r in self.records) / self.games if self.records else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, self.games)

    def summary(self) -> str:
        lo, hi = self.interval
        return (f"{self.a} vs {self.b}: {self.wins}-{self.draws}-{self.losses} "
                f"score={self.score:.3f} (95% CI {lo:.3f}-{hi:.3f})")


def wilson_interval(p: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed over ``n`` trials (draws count as halves)."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1.0 - p) / n + z2 / (4 * n * n))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


# --- players ---------------------------------------------------------------------------------------

def load_player_class(spec: str):
    """The class named by ``package[:Class]`` (default class name ``Player``)."""
    module_name, _, class_name = spec.partition(":")
    module = importlib.import_module(module_name)
    try:
        return getattr(module, class_name or "Player")
    except AttributeError:
        raise ValueError(f"{module_name} has no class {class_name or 'Player'!r}") from None


def check_game(game_name: str) -> tuple[str, ...]:
    """The seats of the registered game ``game_name``; ValueError if it is unknown or not for two seats."""
    try:
        game = load_game(game_name)
    except KeyError as exc:
        raise ValueError(exc.args[0] if exc.args else f"unknown game {game_name!r}") from None
    seats = tuple(game.info.players)
    if len(seats) != 2:
        raise ValueError(f"the arena plays two-seat games; {game_name} has {len(seats)} seats")
    return seats


def check_spec(spec: str, game_name: str | None = None) -> None:
    """Raise ValueError unless ``spec`` names a level or, for a game with a course interface, an importable
    course-style class."""
    if spec in LEVELS:
        return
    game_name = game_name or default_name()
    if game_module(game_name, "course") is None:
        raise ValueError(f"{spec!r} is not a bot level ({', '.join(LEVELS)}); course-style package[:Class] "
                         f"players are only for {', '.join(course_games())}, not {game_name}")
    try:
        load_player_class(spec)
    except ImportError as exc:
        raise ValueError(f"{spec!r} is neither a bot level ({', '.join(LEVELS)}) nor an importable "
                         f"package[:Class]: {exc}") from None


class _BotAgent:
    def __init__(self, level, game, seat, seed, seconds):
        self.bot = make_bot(level, game, seat, seed=seed, seconds=seconds)

    def act(self, state):
        return self.bot.choose(state)

    def after_turn(self, state, mine, theirs):
        pass


def _agent(spec, game, seat, seed, seconds):
    if spec in LEVELS:
        return _BotAgent(spec, game, seat, seed, seconds)
    check_spec(spec, game.info.name)
    return game_module(game.info.name, "course").CourseAgent(load_player_class(spec), seat)


def format_game(rec: GameRecord, a: str, b: str, seats) -> str:
    """The arena's verbose line for one game: who had which seat, the result, turns and time."""
    who = " ".join(f"{seat}={a if seat == rec.a_seat else b}" for seat in seats)
    return f"game {rec.index + 1}: {who}: {rec.result} after {rec.turns} turns ({rec.seconds:.1f} s)"


def play_game(a: str, b: str, index: int, seed: int | None = None, seconds: float | None = None,
              game_name: str | None = None) -> GameRecord:
    """Play one game of ``game_name`` (None: the registry's first) between specs ``a`` and ``b``; A has the
    game's seat ``index % 2``."""
    started = time.perf_counter()
    game = load_game(game_name or default_name())
    seats = game.info.players
    a_seat = seats[index % 2]
    b_seat = seats[1 - index % 2]
    if seed is not None:
        random.seed(seed)  # course-style players use the global generators
        try:
            import numpy as np
            np.random.seed(seed % 2**32)
        except ImportError:  # pragma: no cover
            pass
    agents = {a_seat: _agent(a, game, a_seat, None if seed is None else 2 * seed, seconds),
              b_seat: _agent(b, game, b_seat, None if seed is None else 2 * seed + 1, seconds)}
    state = game.new_initial_state()
    result, winner = None, None
    moves = []
    while not state.is_terminal():
        actions = {}
        for seat in state.players_to_act():
            try:
                actions[seat] = agents[seat].act(state)
                state.check_action(seat, actions[seat])
            except IllegalAction as exc:
                winner = seats[1 - seats.index(seat)]
                result = f"forfeit: {exc}"
                break
            except Exception as exc:  # a crashing player forfeits too
                winner = seats[1 - seats.index(seat)]
                result = f"forfeit: {seat} raised {type(exc).__name__}: {exc}"
                break
        if result:
            break
        state.apply_actions(actions)
        moves.append(actions)
        for seat in seats:  # every seat hears every turn (an alternating game's waiting seat too)
            agents[seat].after_turn(state, actions.get(seat), actions.get(seats[1 - seats.index(seat)]))
    if result is None:
        res = state.result()
        winners = res.winners
        result, winner = res.text, (winners[0] if len(winners) == 1 else None)
    a_score = 0.5 if winner is None else (1.0 if winner == a_seat else 0.0)
    return GameRecord(index, a_seat, result, winner, len(moves), a_score, time.perf_counter() - started, moves)


def _play_args(args):
    return play_game(*args)


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def run_arena(a: str, b: str, games: int, seed: int | None = None, seconds: float | None = None,
              workers: int | None = None, on_game=None, game_name: str | None = None) -> ArenaResult:
    """Play ``games`` games of ``a`` against ``b``; ``on_game(record)`` is called as each one finishes."""
    game_name = game_name or default_name()
    check_game(game_name)
    check_spec(a, game_name)
    check_spec(b, game_name)
    base = random.randrange(2**31) if seed is None else seed
    jobs = [(a, b, i, base * 100003 + i, seconds, game_name) for i in range(games)]
    workers = min(games, workers or os.cpu_count() or 1)
    out = ArenaResult(a, b)
    if workers <= 1:
        for job in jobs:
            rec = play_game(*job)
            out.records.append(rec)
            if on_game:
                on_game(rec)
    else:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
            for rec in pool.map(_play_args, jobs):
                out.records.append(rec)
                if on_game:
                    on_game(rec)
    return out
