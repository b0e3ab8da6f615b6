"""Import a COMP30024 referee log as a game: the upload page and ``manage.py importlog`` both land here.

The log is read (both hex notations), replayed through the engine turn by turn, and stored like any
played game: a ``Game`` with ``source="imported"``, two human seats, one ``Turn`` row per applied turn with
canonical JSON actions and the battles, and the cached state. The engine decides how the game ended, never
the log's own result line. A log with an illegal action is kept up to the turn before it, and ``Game.note``
says where and why it stops. A file that cannot be read raises :class:`LogImportError` and stores nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from django.db import transaction

from .engine import IllegalAction, load_game
from .engine import refereelog
from .models import Game, Seat, Turn

KIND = "ropasci360"
MAX_BYTES = 256 * 1024
MAX_NAME = 60
SIDES = ("upper", "lower")


class LogImportError(ValueError):
    """Why a file cannot be imported; ``line`` is the 1-based line at fault when there is one."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass
class Imported:
    game: Game
    log_turns: int  # turns in the file
    messages: list[str] = field(default_factory=list)  # what the importer noticed, for the user


def decode(data: bytes, *, limit: int = MAX_BYTES) -> str:
    """The text of an uploaded file, or LogImportError for one too large, binary or not UTF-8."""
    if len(data) > limit:
        raise LogImportError(f"the file is too large ({len(data) // 1024} KiB); the limit is {limit // 1024} KiB")
    if not data.strip():
        raise LogImportError("the file is empty")
    if b"\x00" in data:
        raise LogImportError("this is not a text file (it contains NUL bytes): expected a referee log")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise LogImportError(f"line {line}: the file is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                             f"{exc.start}): expected a referee log", line=line) from None


_VS = re.compile(r"^(?P<upper>.+?)[\s_.-]+vs?\.?[\s_.-]+(?P<lower>.+)$", re.IGNORECASE)


def clean_name(name: str | None) -> str:
    """A display name: printable, one line, at most 60 characters; empty if nothing is left."""
    if not name:
        return ""
    name = "".join(ch if ch.isprintable() else " " for ch in str(name))
    return " ".join(name.split())[:MAX_NAME]


def names_from_filename(filename: str | None) -> dict[str, str]:
    """``alice-vs-bob.txt`` names Upper alice and Lower bob; any other name gives nothing."""
    if not filename:
        return {}
    stem = PurePath(str(filename).replace("\\", "/")).name
    stem = re.sub(r"\.(txt|log)$", "", stem, flags=re.IGNORECASE)
    m = _VS.match(stem)
    if not m:
        return {}
    names = {side: clean_name(m.group(side)) for side in SIDES}
    return names if all(names.values()) else {}


def import_text(text: str, *, filename: str | None = None, names: dict[str, str] | None = None) -> Imported:
    """Parse, replay and store a referee log; LogImportError (nothing stored) if it cannot be read."""
    try:
        log = refereelog.parse(text)
    except refereelog.LogFormatError as exc:
        raise LogImportError(str(exc), line=exc.line) from None
    if not log.turns:
        raise LogImportError("the log has no complete turn (expected lines like "
                             "'turn 1: upper: THROW symbol r to (4, 0)')")

    display = {side: side for side in SIDES}
    display.update(names_from_filename(filename))
    for side, name in (names or {}).items():
        if side in display and clean_name(name):
            display[side] = clean_name(name)

    eg = load_game(KIND)
    state = eg.new_initial_state()
    rows: list[Turn] = []
    note = ""
    messages: list[str] = []
    for n, (upper, lower) in enumerate(log.turns, start=1):
        if state.is_terminal():
            messages.append(f"the game ended after turn {n - 1}; the {len(log.turns) - n + 1} later turn(s) "
                            f"in the log were not imported")
            break
        pair = {"upper": upper, "lower": lower}
        illegal = None
        for side in SIDES:
            try:
                state.check_action(side, pair[side])
            except IllegalAction as exc:
                illegal = (side, exc)
                break
        if illegal:
            side, exc = illegal
            note = f"illegal action at turn {n} by {side}: {exc.rule}"
            break
        turn = state.apply_actions(pair)
        rows.append(Turn(number=turn.number, actions={s: eg.action_to_json(pair[s]) for s in SIDES},
                         events=turn.events))

    if state.is_terminal():
        status, result, ending = Game.Status.FINISHED, state.result().text, Game.Ending.RULES
        if log.result and log.result != result:
            messages.append(f"the log's own result line says {log.result!r}; the rules say {result!r}")
    else:
        status, result, ending = Game.Status.ABORTED, "", Game.Ending.ABORTED
        if not note:
            note = f"log ends after {len(rows)} turns (unfinished)"

    with transaction.atomic():
        game = Game.objects.create(kind=KIND, status=status, result=result, ending=ending, turn=len(rows),
                                   state=state.to_json(), source=Game.Source.IMPORTED, note=note[:300])
        for side in SIDES:
            Seat.objects.create(game=game, side=side, kind=Seat.Kind.HUMAN, display_name=display[side])
        for row in rows:
            row.game = game
        Turn.objects.bulk_create(rows)
    return Imported(game, len(log.turns), messages)


def import_bytes(data: bytes, **kwargs) -> Imported:
    return import_text(decode(data), **kwargs)
