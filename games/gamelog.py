"""A game's turn log as viewers and downloads see it: every record through the game's ``redact_record``
for the viewer (a spectator for anything public), and as text in the game's own log format (the
COMP30024 referee's, where the game has one) or a plain one."""
from __future__ import annotations

from .engine import CHANCE, game_module
from .models import Game
from .services import engine_for


def visible_records(game: Game, seat: str | None = None, upto: int | None = None) -> list[dict]:
    eg = engine_for(game)
    rows = game.turns.order_by("number").values("number", "actions", "events")
    if upto is not None:
        rows = rows.filter(number__lte=upto)
    over = game.is_over
    return [{"number": r["number"], "actions": eg.redact_record(r["actions"], seat, over), "events": r["events"]}
            for r in rows]


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
            text = f"chance: {action}" if seat == CHANCE else f"{seat}: {eg.action_to_text(eg.action_from_json(action, seat))}"
            lines.append(f"turn {n}: {text}")
    if result:
        lines.append(result)
    return "\n".join(lines) + "\n"
