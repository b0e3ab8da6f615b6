"""The COMP30024 referee's RoPaSci 360 game logs: read and write them (the game's log format).

A log is one line per player per turn, Upper first (``turn 7: upper: SLIDE from (1, -1) to (0, -1)``),
then, if the game ended, the result line verbatim (``winner: upper``, ``draw: ...``). Published logs write
hexes either as ``(r, q)`` or as ``Hex(r=R, q=Q)``; both are read, ``(r, q)`` is written.
"""
from __future__ import annotations

import re
from games.engine.api import IllegalAction, LogFormatError, ParsedLog

from .rules import GAME, SIDES

TITLE = "COMP30024 referee log (RoPaSci 360)"
EXAMPLE = "turn 1: upper: THROW symbol r to (4, 0)"
NOTE = "hexes as (r, q) or Hex(r=R, q=Q)."  # for the import page

_TURN_LINE = re.compile(r"^turn\s+(\d+)\s*:\s*(upper|lower)\s*:\s*(.*?)\s*$")
_RESULT_LINE = re.compile(r"^(winner: (?:upper|lower)|draw: .+?)\s*$")


def parse(text: str) -> ParsedLog:
    """Read a referee log. A turn whose lower line is missing at the very end (a cut-off log) is dropped."""
    log = ParsedLog()
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
                log.turns.append({"upper": pending_upper, "lower": action})
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
    """Write turns (dicts seat -> engine action), and the result line if given, as a referee log."""
    lines = []
    for n, actions in enumerate(turns, start=1):
        for side in SIDES:
            lines.append(f"turn {n}: {side}: {GAME.action_to_text(actions[side])}")
    if result:
        lines.append(result)
    return "\n".join(lines) + "\n"
