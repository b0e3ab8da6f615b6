"""Positions of games, folded from the turn log once and kept: a broadcast to many viewers, or a move
after a move, does not replay the whole game again.

Keys are (game id, number of resolved turns): the log is append-only, so such a position never changes.
A state is put here only after the transaction that logged its turn commits, and handed out as a clone.
The cache is per process; another process folds the log itself (the database is the truth).
"""
from __future__ import annotations

from django.db import transaction

from games.engine import load_game
from games.engine.history import apply_record
from games.play import turnlog
from games.play.lru import LRU

SIZE = 512
_states = LRU(SIZE)


def engine_for(game):
    """The engine game of ``game`` (its kind with its parameters)."""
    return load_game(game.kind, **(game.params or {}))


def current_state(game):
    """The exact engine state after the game's resolved turns (a private copy)."""
    return state_after(game, game.turn)


def state_at(game, turn: int):
    """The exact engine state after ``turn`` resolved turns (0: the start), a private copy."""
    return state_after(game, max(0, min(turn, game.turn)))


def state_after(game, turn: int):
    """The exact state of ``game`` after ``turn`` resolved turns, as a private copy."""
    key = (game.pk, turn)
    cached = _states.get(key)
    if cached is not None:
        return cached.clone()
    eg = engine_for(game)
    # Start from the nearest cached earlier position of the same game, if any.
    start, state = 0, None
    for (gid, n), st in _states.items():
        if gid == game.pk and start < n <= turn:
            start, state = n, st
    state = state.clone() if state is not None else eg.new_initial_state()
    records = turnlog.records(game, after=start, upto=turn)
    for record in records:
        apply_record(eg, state, record)
    _states.put(key, state.clone())
    return state


def remember_on_commit(game, state) -> None:
    """Keep ``state`` as the position after ``game.turn`` turns once the current transaction commits."""
    key, snapshot = (game.pk, game.turn), state.clone()
    transaction.on_commit(lambda: _states.put(key, snapshot))


def forget(game_id: str) -> None:
    _states.drop(lambda key: key[0] != game_id)
