"""Ending a game early: a seat resigns (or drops out of a game that goes on without it), staff abort it, or
its turn clock runs out."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.engine import RESIGN, Result
from games.models import Game
from games.play import turnlog
from games.play.access import get_game, seat_for_token
from games.play.announce import after_commit
from games.play.errors import Conflict
from games.play.positions import current_state, engine_for
from games.play.turns import advance, expire_if_late, finish, log_turn


def resign(game_id: str, token: str | None) -> Game:
    """The seat of ``token`` gives up. Where the game lets a seat drop out (``State.can_drop_out``: three or
    more seats) it leaves and the others play on: the turn log records ``{RESIGN: side}`` so that a replay
    does the same. Otherwise the game ends and the other seats share the win."""
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        seat = seat_for_token(game, token)
        if game.is_over:
            raise Conflict("the game is already over")
        if turnlog.holds(game, {RESIGN: seat.side}):
            raise Conflict(f"{seat.side} has already resigned: the others play on")
        if game.status == Game.Status.ACTIVE:
            state = current_state(game)
            if state.can_drop_out(seat.side):
                _drop_out(game, state, seat.side)
                return game
        sides = list(engine_for(game).info.players)
        others = [s for s in sides if s != seat.side]
        text = f"winner: {others[0]}" if len(others) == 1 else f"{seat.side} resigned"
        # Alone at the table (a puzzle, 2048) giving up returns nothing; otherwise the others share the win.
        result = Result(text, None, {seat.side: 0.0}) if not others else Result.shared(sides, others, text)
        finish(game, result, Game.Ending.RESIGNATION)
        game.save()
        after_commit(game)
    return game


def _drop_out(game: Game, state, side: str) -> None:
    """``side`` leaves a game that goes on without it (its own turn record); the seat to move keeps its clock
    unless the turn passed to another seat. Should that leave the game over, it ended by resignation."""
    to_act, started = list(game.to_act), game.turn_started
    game.pending.all().delete()  # a choice made for this turn is void: the seats still in choose again
    log_turn(game, state, {RESIGN: side})
    advance(game, state)
    if game.is_over:
        game.ending = Game.Ending.RESIGNATION
    elif game.to_act == to_act:
        game.turn_started = started
    game.save()
    after_commit(game, as_saved=True)


def abort(game_id: str, reason: str = "aborted by staff") -> Game:
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        if game.is_over:
            return game
        finish(game, None, Game.Ending.ABORTED, status=Game.Status.ABORTED)
        game.note = reason[:300]
        game.save()
        after_commit(game)
    return game


def check_timeout(game_id: str) -> Game:
    """Apply the turn clock now; cheap when there is no clock or it has not run out."""
    game = get_game(game_id)
    deadline = game.turn_deadline
    if deadline is None or timezone.now() < deadline:
        return game
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        expire_if_late(game)
    return game
