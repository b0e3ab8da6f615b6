"""The COMP30024 2020 referee's Expendibots game logs: read and write them (the game's log format).

The referee logs one line per action, ``[white] - MOVE 2 from (3, 1) to (3, 3).`` or
``[black] - BOOM at (4, 6).``, White first and then alternating, and when the game ends the result,
``[over ] - winner: white`` or ``[over ] - draw detected: ...``. Its log file starts with
``[game ] - Start game log at <date>``, and a game stopped by an illegal action ends with
``[error] - illegal action detected (white): <the action as a Python literal>.`` instead of a result.

Reading is lenient about blank lines, spacing inside the brackets and around ``-``, and a missing trailing
period; the start line is skipped (before the first action only). An ``[error]`` line becomes that seat's
last record, holding the action it names (the Python literal if it reads as one, else its text), so that
replaying the log reports the illegal action; nothing may follow it. Anything else is a LogFormatError
naming the line: a line that is not a referee line, an action that cannot be read, a line out of turn
(White first, then alternating) and text after the result.

Records are one per action (ply): ``{"white": action}`` or ``{"black": action}``, in order.
"""
from __future__ import annotations

import ast
import re

from games.engine.api import IllegalAction, LogFormatError, ParsedLog

from .rules import GAME, SEATS

TITLE = "COMP30024 referee log (Expendibots, 2020)"
EXAMPLE = "[white] - MOVE 1 from (3, 1) to (3, 3)."

_LINE = re.compile(r"^\[\s*([a-z]+)\s*\]\s*-(?:\s+(.*?))?\s*$")
_RESULT = re.compile(r"^(winner: (?:white|black)|draw detected: \S.*)$")
_START = re.compile(r"^Start game log\b")
_ERROR = re.compile(r"^illegal action detected \((white|black)\): (.*?)\.?$")


def parse(text: str) -> ParsedLog:
    """Read a referee log (see the module docstring); LogFormatError(line, message) if it cannot."""
    log = ParsedLog()
    ended = None  # "result" or "error" once the log has ended
    any_line = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        any_line = True
        m = _LINE.match(line)
        if not m:
            raise LogFormatError(lineno, f"not a referee log line ('[white] - ...'): {line[:80]!r}")
        header, rest = m.group(1), m.group(2) or ""
        if ended:
            what = "the result line" if ended == "result" else "the illegal action line"
            raise LogFormatError(lineno, f"text after {what}: {line[:80]!r}")
        expected = SEATS[len(log.turns) % 2]
        if header in SEATS:
            if header != expected:
                raise LogFormatError(lineno, f"expected {expected}'s action (action {len(log.turns) + 1}), "
                                             f"found {header}'s")
            try:
                action = GAME.action_from_text(rest, header)
            except IllegalAction as exc:
                raise LogFormatError(lineno, f"cannot read the action {rest[:80]!r}: {exc.rule}") from None
            log.turns.append({header: action})
        elif header == "over":
            r = _RESULT.match(rest)
            if not r:
                raise LogFormatError(lineno, f"cannot read the result {rest[:80]!r}")
            log.result = r.group(1)
            ended = "result"
        elif header == "game":
            if log.turns or not _START.match(rest):
                raise LogFormatError(lineno, f"unexpected game line (a second game starts?): {line[:80]!r}")
        elif header == "error":
            e = _ERROR.match(rest)
            if not e:
                raise LogFormatError(lineno, f"cannot read the error line {rest[:80]!r}")
            seat, literal = e.group(1), e.group(2)
            if seat != expected:
                raise LogFormatError(lineno, f"expected {expected}'s action (action {len(log.turns) + 1}), "
                                             f"found {seat}'s")
            log.turns.append({seat: _literal(literal)})
            ended = "error"
        else:
            raise LogFormatError(lineno, f"not a referee log line ('[white] - ...'): {line[:80]!r}")
    if not any_line:
        raise LogFormatError(1, "the log is empty")
    return log


def _literal(text: str):
    """The action an error line names: its Python literal if it reads as one, else the text."""
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text


def write(turns, result: str | None = None) -> str:
    """Write records (one-seat dicts seat -> engine action, in order), and the result line if given, as a
    referee log. An action the text form cannot express (what an ``[error]`` line held) is written as the
    referee's illegal-action line."""
    lines = []
    for record in turns:
        for seat, action in record.items():
            try:
                text = GAME.action_to_text(action)
                ok = GAME.action_from_text(text, seat) == action
            except Exception:  # noqa: BLE001 - anything the text form does not express
                ok = False
            if ok:
                lines.append(f"[{seat:5s}] - {text}")
            else:
                try:
                    literal = repr(action)
                except Exception:  # noqa: BLE001 - e.g. too deeply nested
                    literal = "<unprintable value>"
                lines.append(f"[error] - illegal action detected ({seat}): {literal}.")
    if result:
        lines.append(f"[over ] - {result}")
    return "\n".join(lines) + "\n"
