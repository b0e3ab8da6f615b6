"""Playing a turn: a seat's action (a person's, with their token, or a server bot's) checked in order and
kept until every seat to act has chosen, then resolved at once: simultaneous turns never leak a choice."""
from __future__ import annotations

from django.db import transaction
from django.db.models import prefetch_related_objects

from games.engine import IllegalAction
from games.models import Game, PendingAction
from games.play.access import get_game, seat_for_token
from games.play.announce import after_commit
from games.play.errors import BadRequest, Conflict
from games.play.positions import current_state, engine_for
from games.play.turns import advance, expire_if_late, log_turn


def submit_action(game_id: str, token: str | None, turn, action) -> tuple[Game, bool]:
    """A seat's action for turn ``turn``. Checked in order: token (403), turn (409), action (400).
    Returns (game, resolved): resolved is True when this submission completed the turn."""
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        prefetch_related_objects([game], "seats")  # read once: for the token here, and the caller's answer
        seat = seat_for_token(game, token)
        if not expire_if_late(game):
            return _submit(game, seat.side, turn, action)
    raise Conflict(f"the game is over ({game.result}): the turn clock ran out")  # the timeout is committed


def submit_bot_action(game_id: str, side: str, turn: int, action) -> tuple[Game, bool]:
    with transaction.atomic():
        game = get_game(game_id, lock=True)
        if not expire_if_late(game):
            return _submit(game, side, turn, action)
    raise Conflict(f"the game is over ({game.result}): the turn clock ran out")


def _submit(game: Game, side: str, turn, action) -> tuple[Game, bool]:
    if game.is_over:
        raise Conflict(f"the game is over ({game.result or game.status})")
    if game.status != Game.Status.ACTIVE:
        raise Conflict("the game has not started: a seat is still open")
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise BadRequest("'turn' must be the number of the turn being played (resolved turns + 1)")
    if turn != game.turn + 1:
        raise Conflict(f"stale turn: turn {game.turn + 1} is being played, not turn {turn}")
    if side not in game.to_act:
        raise Conflict(f"{side} is not to act in turn {turn}")
    alone = len(game.to_act) == 1  # alternating: no pending rows (a lone seat's action resolves at once)
    if not alone and game.pending.filter(side=side, turn=turn).exists():
        raise Conflict(f"{side} has already submitted an action for turn {turn}")
    state = current_state(game)
    eg = engine_for(game)
    try:
        parsed = eg.action_from_json(action, side)
        state.check_action(side, parsed)
    except IllegalAction as exc:
        raise BadRequest(f"illegal action: {exc.rule}") from None
    as_json = eg.action_to_json(parsed)
    if alone:
        _resolve(game, state, {side: as_json}, clear_pending=False)
        return game, True
    PendingAction.objects.create(game=game, side=side, turn=turn, action=as_json)
    pending = {p.side: p.action for p in game.pending.filter(turn=turn)}
    if set(pending) >= set(game.to_act):
        _resolve(game, state, pending)
        return game, True
    game.save(update_fields=["updated"])
    after_commit(game, as_saved=True)  # open pages show that (never what) this seat has chosen: waiting_on
    return game, False


def _resolve(game: Game, state, pending: dict, *, clear_pending: bool = True) -> None:
    log_turn(game, state, pending)
    if clear_pending:
        game.pending.all().delete()
    advance(game, state)
    game.save()
    after_commit(game, as_saved=True)
