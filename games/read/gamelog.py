"""A game's turn log as viewers and downloads see it: every record through the game's ``redact_record``
for the viewer (a spectator for anything public), and as text in the game's own log format (the
COMP30024 referee's, where the game has one) or a plain one."""
from __future__ import annotations

from games.engine import CHANCE, RESIGN, game_module
from games.play.lru import LRU
from games.models import Game
from games.play.services import engine_for
from games.play import turnlog


# Per process: game id -> its turn rows read so far, as stored; (game id, seat, over) -> the records so far,
# as that seat sees them.
_rows = LRU(512)
_read = LRU(512)


def stored_rows(game: Game) -> list[dict]:
    """The game's turn rows (``number``, ``actions``, ``events``) up to ``game.turn``, as stored, reading only
    the turns this process has not read before: the log is append-only, so a stored turn never changes, and
    one read of a new turn serves every viewer. Shared: the caller must not change the list."""
    rows = _rows.get(game.id) or []
    if len(rows) < game.turn:
        rows = rows + turnlog.rows(game, after=len(rows), upto=game.turn)
        _rows.put(game.id, rows)
    return rows[:game.turn]


def resigned(game: Game) -> set[str]:
    """The seats that dropped out of a game that went on without them (their ``{RESIGN: seat}`` turns)."""
    return {row["actions"][RESIGN] for row in stored_rows(game) if RESIGN in row["actions"]}


def is_move(actions: dict) -> bool:
    """Whether a turn's record holds a player's move: not a chance event (a deal, a new tile, a scramble
    move) nor only a seat dropping out."""
    return any(side not in (CHANCE, RESIGN) for side in actions)


def moves_made(game: Game, upto: int | None = None) -> int:
    """The moves played in the game's first ``upto`` turns (all by default): what people count, where the
    turn number also counts chance turns (2048's new tiles, the cube's scramble, poker's deals)."""
    return sum(is_move(row["actions"]) for row in stored_rows(game)[:upto])


def records_so_far(game: Game, seat: str | None = None) -> list[dict]:
    """``visible_records(game, seat)`` of the game as saved, redacting only the turns this process has not
    redacted for that viewer before (the end of the game, which may reveal what was hidden, starts afresh).
    A long game's every request would otherwise read and decode its whole log. Shared: the caller must not
    change the list."""
    key = (game.id, seat, game.is_over)
    known = _read.get(key) or []
    if len(known) < game.turn:
        eg, over = engine_for(game), game.is_over
        known = known + [_as_seen(eg, row, seat, over) for row in stored_rows(game)[len(known):]]
        _read.put(key, known)
    return known[:game.turn]


def visible_records(game: Game, seat: str | None = None, upto: int | None = None) -> list[dict]:
    eg = engine_for(game)
    rows = turnlog.rows(game, upto=upto)
    over = game.is_over
    return [_as_seen(eg, row, seat, over) for row in rows]


def _as_seen(eg, row: dict, seat: str | None, over: bool) -> dict:
    return {"number": row["number"], "actions": eg.redact_record(row["actions"], seat, over), "events": row["events"]}


def log_text(game: Game) -> str:
    """The game as a log file: resolved turns, then the result line once finished."""
    eg = engine_for(game)
    records = [r["actions"] for r in visible_records(game)]
    result = game.result if game.status == Game.Status.FINISHED else None
    if not records and not result:
        return ""
    logs = game_module(game.kind, "logs")
    if logs is not None:
        turns = [{seat: eg.action_from_json(a, seat) for seat, a in rec.items()} for rec in records]
        return logs.write(turns, result)
    lines = []
    for n, rec in enumerate(records, start=1):
        for seat, action in rec.items():
            if seat == CHANCE:
                text = f"chance: {action}"
            elif seat == RESIGN:
                text = f"{action}: resigns"
            else:
                text = f"{seat}: {eg.action_to_text(eg.action_from_json(action, seat))}"
            lines.append(f"turn {n}: {text}")
    if result:
        lines.append(result)
    return "\n".join(lines) + "\n"
