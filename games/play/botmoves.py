"""When a server bot is to move: the one answer to "is this bot move due", for the in-process pool, the
channel-layer workers and the sweep alike, how long the bot may think, and how long its move waits in a game
of bots made to be watched (``Game.move_seconds``: a move a second, the pace people can follow, for every
viewer however late they come; other games' bots answer as soon as they have chosen)."""
from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import Exists, OuterRef

from games.models import Game, PendingAction, Seat
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


def stalled_games(before: datetime) -> set[str]:
    """The ids of the games with a bot move due (as ``due_bots`` says) and no change since ``before``, in one
    query for them all: the sweep's look for moves that a dead process left undone."""
    chosen = PendingAction.objects.filter(game=OuterRef("game"), side=OuterRef("side"), turn=OuterRef("game__turn") + 1)
    rows = (Seat.objects.filter(kind=Seat.Kind.BOT, game__status=Game.Status.ACTIVE, game__updated__lt=before)
            .annotate(chosen=Exists(chosen)).values_list("game_id", "side", "game__to_act", "chosen"))
    # waiting_on's rule: a seat to act is waited on unless it has chosen in a simultaneous turn.
    return {game_id for game_id, side, to_act, chosen in rows
            if side in (to_act or []) and not (chosen and len(to_act) > 1)}


def wait_before(game: Game, now: datetime) -> float:
    """Seconds a bot move chosen ``now`` waits before it is played: until ``move_seconds`` after the turn in
    play began (0: at once)."""
    if not game.move_seconds or game.turn_started is None:
        return 0.0
    return max(0.0, game.move_seconds - (now - game.turn_started).total_seconds())


def bot_seconds(seat: Seat) -> float | None:
    """The seat's thinking time per move, capped by the BOT_SECONDS setting (None: the level's default)."""
    limits = [s for s in (seat.bot_seconds, getattr(settings, "BOT_SECONDS", None)) if s is not None]
    return min(limits) if limits else None
