"""The COMP30024 referee's RoPaSci 360 game logs: parse, write, and replay them through the engine.

A log is one line per player per turn, Upper first (``turn 7: upper: SLIDE from (1, -1) to (0, -1)``),
then, if the game ended, the result line verbatim (``winner: upper``, ``draw: ...``). Published logs write
hexes either as ``(r, q)`` or as ``Hex(r=R, q=Q)``; both are read, ``(r, q)`` is written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .api import IllegalAction
from .ropasci360 import GAME, SIDES

_TURN_LINE = re.compile(r"^turn\s+(\d+)\s*:\s*(upper|lower)\s*:\s*(.*?)\s*$")
_RESULT_LINE = re.compile(r"^(winner: (?:upper|lower)|draw: .+?)\s*$")


class LogFormatError(ValueError):
    """A log that cannot be read; ``line`` is the 1-based line number at fault."""

    def __init__(self, line: int, message: str):
        self.line = line
        super().__init__(f"line {line}: {message}")


@dataclass
class RefereeLog:
    """The turns of a log as (upper action, lower action) pairs, and its result line if it has one."""

    turns: list[tuple[tuple, tuple]] = field(default_factory=list)
    result: str | None = None


def parse(text: str) -> RefereeLog:
    """Read a referee log. A turn whose lower line is missing at the very end (a cut-off log) is dropped."""
    log = RefereeLog()
    pending_upper = None  # (turn number, action) waiting for its lower line
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if log.result is not None:
            raise LogFormatError(lineno, f"text after the result line: {line[:80]!r}")
        m = _TURN_LINE.match(line)
        if m:
            number, side, action_text = int(m.group(1)), m.group(2), m.group(3)
            expected = len(log.turns) + 1
            if (number, side) != (expected, "upper" if pending_upper is None else "lower"):
                if number == expected or pending_upper is not None:
                    raise LogFormatError(lineno, f"expected the {'upper' if pending_upper is None else 'lower'} line of turn {expected}")
                raise LogFormatError(lineno, f"expected turn {expected}, found turn {number}")
            try:
                action = GAME.action_from_text(action_text, side)
            except IllegalAction as exc:
                raise LogFormatError(lineno, f"cannot read the action {action_text[:80]!r}: {exc.rule}") from None
            if side == "upper":
                pending_upper = action
            else:
                log.turns.append((pending_upper, action))
                pending_upper = None
            continue
        m = _RESULT_LINE.match(line)
        if m:
            if pending_upper is not None:
                raise LogFormatError(lineno, f"result line before the lower line of turn {len(log.turns) + 1}")
            log.result = m.group(1)
            continue
        raise LogFormatError(lineno, f"not a turn line or a result line: {line[:80]!r}")
    return log


def write(turns, result: str | None = None) -> str:
    """Write (upper action, lower action) pairs, and the result line if given, as a referee log."""
    lines = []
    for n, pair in enumerate(turns, start=1):
        for side, action in zip(SIDES, pair):
            lines.append(f"turn {n}: {side}: {GAME.action_to_text(action)}")
    if result:
        lines.append(result)
    return "\n".join(lines) + "\n"


@dataclass
class Replay:
    """A log replayed through the engine: the final state, the turns applied, and how it ended."""

    state: object
    applied: int
    outcome: str  # the result line, 'unfinished after N turns' or 'illegal action at turn N by SIDE'
    illegal: IllegalAction | None = None
    extra_turns: int = 0  # turns in the log after the game had already ended


def replay(log: RefereeLog) -> Replay:
    """Apply the log's turns; stop at the end of the game or at the first illegal action."""
    state = GAME.new_initial_state()
    for n, (upper, lower) in enumerate(log.turns, start=1):
        if state.is_terminal():
            return Replay(state, n - 1, state.result().text, extra_turns=len(log.turns) - n + 1)
        for side, action in (("upper", upper), ("lower", lower)):
            try:
                state.check_action(side, action)
            except IllegalAction as exc:
                return Replay(state, n - 1, f"illegal action at turn {n} by {side}", illegal=exc)
        state.apply_actions({"upper": upper, "lower": lower})
    if state.is_terminal():
        return Replay(state, len(log.turns), state.result().text)
    return Replay(state, len(log.turns), f"unfinished after {len(log.turns)} turns")
