"""The one fold of a turn log into states, used by the server, the replay viewer, the bots and log import.

A turn record is what the server stores per resolved turn: a dict seat -> action in canonical JSON, or
``{CHANCE: outcome}`` for a chance event, or ``{RESIGN: seat}`` for a seat dropping out (``State.resign``).
Folding applies them in order from the initial state; rules that look at history (repetitions) see the whole
game, which a snapshot of the last position would lose.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from .api import CHANCE, RESIGN, Game, IllegalAction, LogFormatError, ParsedLog, State, Turn


def apply_record(game: Game, state: State, record: Mapping[str, Any]) -> Turn:
    """Apply one stored turn record (canonical JSON) to ``state``; IllegalAction if it does not fit."""
    if CHANCE in record:
        return state.apply_chance(record[CHANCE])
    if RESIGN in record:
        return state.resign(record[RESIGN])
    return state.apply_actions({seat: game.action_from_json(a, seat) for seat, a in record.items()})


def fold(game: Game, records: Iterable[Mapping[str, Any]], *, observer: Callable[[State], None] | None = None
         ) -> State:
    """The state after applying ``records`` from the initial state; ``observer`` sees every position."""
    state = game.new_initial_state()
    if observer:
        observer(state)
    for record in records:
        apply_record(game, state, record)
        if observer:
            observer(state)
    return state


def states(game: Game, records: Iterable[Mapping[str, Any]]) -> list[State]:
    """The state before the first record and after each one (independent clones)."""
    out = []
    fold(game, records, observer=lambda s: out.append(s.clone()))
    return out


@dataclass
class Replay:
    """A log replayed through the engine: the final state, the turns applied, and how it ended."""

    state: State
    applied: int
    outcome: str  # the game's result text, 'unfinished after N turns' or 'illegal action at turn N by SEAT'
    illegal: IllegalAction | None = None
    extra_turns: int = 0  # turns in the log after the game had already ended
    records: list | None = None  # the applied turns as canonical JSON records


def replay_checked(game: Game, turns: list[Mapping[str, Any]]) -> Replay:
    """Apply a log's turns (dicts seat -> engine action), checking each seat's action first; stop at the end
    of the game or at the first illegal action. Used for imported logs, which may break the rules. A chance
    turn is ``{CHANCE: outcome}``."""
    state = game.new_initial_state()
    records = []
    for n, actions in enumerate(turns, start=1):
        if state.is_terminal():
            return Replay(state, n - 1, state.result().text, extra_turns=len(turns) - n + 1, records=records)
        if CHANCE in actions:
            try:
                state.apply_chance(actions[CHANCE])
            except IllegalAction as exc:
                return Replay(state, n - 1, f"illegal action at turn {n} by {CHANCE}", illegal=exc, records=records)
            records.append({CHANCE: actions[CHANCE]})
            continue
        for seat, action in actions.items():
            try:
                state.check_action(seat, action)
            except IllegalAction as exc:
                return Replay(state, n - 1, f"illegal action at turn {n} by {seat}", illegal=exc, records=records)
        try:
            state.apply_actions(dict(actions))
        except IllegalAction as exc:  # e.g. a seat missing from the turn
            seat = exc.player or next(iter(actions), "?")
            return Replay(state, n - 1, f"illegal action at turn {n} by {seat}", illegal=exc, records=records)
        records.append({seat: game.action_to_json(a) for seat, a in actions.items()})
    if state.is_terminal():
        return Replay(state, len(turns), state.result().text, records=records)
    return Replay(state, len(turns), f"unfinished after {len(turns)} turns", records=records)


def read_log(text: str, game_name: str | None = None) -> tuple[str, ParsedLog]:
    """Read a game log in the format of ``game_name``, or of whichever registered game's format reads it
    (their line formats do not overlap). LogFormatError from the format that read furthest otherwise (the
    first registered on a tie)."""
    from .registry import game_module, names_in_order
    names = [game_name] if game_name else names_in_order()
    best: LogFormatError | None = None
    for name in names:
        logs = game_module(name, "logs")
        if logs is None:
            continue
        try:
            return name, logs.parse(text)
        except LogFormatError as exc:
            if best is None or exc.line > best.line:
                best = exc
    if best is None:
        raise LogFormatError(1, f"no log format for {game_name or 'any game'}")
    raise best
