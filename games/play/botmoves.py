"""When a server bot is to move: the one answer to "is this bot move due", for the in-process pool, the
channel-layer workers and the sweep alike, and how long the bot may think."""
from __future__ import annotations

from django.conf import settings

from games.models import Game, Seat
from games.play.access import waiting_on


def due_bots(game: Game) -> list[Seat]:
    """The bot seats of ``game`` whose move for the turn in play is due (none once the game is not active)."""
    if game.status != Game.Status.ACTIVE:
        return []
    waiting = set(waiting_on(game))
    return [s for s in game.seats.all() if s.kind == Seat.Kind.BOT and s.side in waiting]


def due_seat(game: Game | None, side: str, turn: int) -> Seat | None:
    """The bot seat ``side`` if its move for turn ``turn`` (1-based) is still due, else None (played by
    another worker, a restart's duplicate, the game moved on or ended)."""
    if game is None or game.turn + 1 != turn:
        return None
    return next((s for s in due_bots(game) if s.side == side), None)


def bot_seconds(seat: Seat) -> float | None:
    """The seat's thinking time per move, capped by the BOT_SECONDS setting (None: the level's default)."""
    limits = [s for s in (seat.bot_seconds, getattr(settings, "BOT_SECONDS", None)) if s is not None]
    return min(limits) if limits else None
