"""Import a game log (a COMP30024 referee log of any game with a log format) as a game: the upload page and
``manage.py importlog`` both land here.

The game is recognised by which log format reads the file; the log is replayed through the engine turn by
turn and stored like any played game: a ``Game`` with ``source="imported"``, human seats, one ``Turn`` row
per applied turn with canonical JSON actions and events, and the cached state. The engine decides how the game ended, never
the log's own result line. A log with an illegal action is kept up to the turn before it, and ``Game.note``
says where and why it stops. A file that cannot be read raises :class:`LogImportError` and stores nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from django.db import transaction

from games.engine import LogFormatError, Result, load_game
from games.engine.history import read_log, replay_checked
from games.models import Game, Seat, Turn

MAX_BYTES = 256 * 1024
MAX_NAME = 60


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


def names_from_filename(filename: str | None, sides=("first", "second")) -> dict[str, str]:
    """``alice-vs-bob.txt`` names the first seat alice and the second bob; any other name gives nothing."""
    if not filename:
        return {}
    stem = PurePath(str(filename).replace("\\", "/")).name
    stem = re.sub(r"\.(txt|log)$", "", stem, flags=re.IGNORECASE)
    m = _VS.match(stem)
    if not m:
        return {}
    names = {sides[0]: clean_name(m.group("upper")), sides[1]: clean_name(m.group("lower"))}
    return names if all(names.values()) else {}


def import_text(text: str, *, filename: str | None = None, names: dict[str, str] | list[str] | None = None,
                game: str | None = None) -> Imported:
    """Parse, replay and store a game log; LogImportError (nothing stored) if it cannot be read. ``names``
    are the players' display names by seat, or in seat order (the game is known only once the log is read)."""
    try:
        kind, log = read_log(text, game)
    except LogFormatError as exc:
        raise LogImportError(str(exc), line=exc.line) from None
    eg = load_game(kind)
    if not log.turns:
        raise LogImportError("the log has no complete turn")
    sides = list(eg.info.players)
    display = {side: side for side in sides}
    display.update(names_from_filename(filename, sides) if len(sides) == 2 else {})
    if isinstance(names, (list, tuple)):
        names = dict(zip(sides, names))
    for side, name in (names or {}).items():
        if side in display and clean_name(name):
            display[side] = clean_name(name)

    rep = replay_checked(eg, log.turns)
    messages: list[str] = []
    note = ""
    if rep.extra_turns:
        messages.append(f"the game ended after turn {rep.applied}; the {rep.extra_turns} later turn(s) "
                        f"in the log were not imported")
    if rep.illegal is not None:
        note = f"{rep.outcome}: {rep.illegal.rule}"
    state = rep.state
    result: Result | None = state.result() if state.is_terminal() else None
    if result is not None:
        status, ending = Game.Status.FINISHED, Game.Ending.RULES
        if log.result and log.result != result.text:
            messages.append(f"the log's own result line says {log.result!r}; the rules say {result.text!r}")
    else:
        status, ending = Game.Status.ABORTED, Game.Ending.ABORTED
        if not note:
            note = f"log ends after {rep.applied} turns (unfinished)"

    events = _events(eg, rep.records)
    with transaction.atomic():
        game = Game.objects.create(kind=kind, params=dict(eg.params), status=status, ending=ending,
                                   result=result.text if result else "", outcome=result.to_json() if result else None,
                                   turn=len(rep.records), state=state.to_json(), to_act=[],
                                   source=Game.Source.IMPORTED, note=note[:300])
        for side in sides:
            Seat.objects.create(game=game, side=side, kind=Seat.Kind.HUMAN, display_name=display[side],
                                score=result.returns.get(side) if result else None)
        Turn.objects.bulk_create(Turn(game=game, number=n, actions=record, events=ev)
                                 for n, (record, ev) in enumerate(zip(rep.records, events), start=1))
    return Imported(game, len(log.turns), messages)


def _events(eg, records: list[dict]) -> list[list]:
    """Each applied turn's events, from a second fold (the checked replay keeps only the final state)."""
    from games.engine.history import apply_record
    state = eg.new_initial_state()
    return [apply_record(eg, state, record).events for record in records]


def import_bytes(data: bytes, **kwargs) -> Imported:
    return import_text(decode(data), **kwargs)
