"""The write side's public functions, one import for callers: everything that changes a game goes through
them, one function per use case (``create``, ``moves``, ``endings``), each in a transaction with a row lock
on the game, the engine validating, the turn log written, and ``signals.game_changed`` sent after commit
(``announce``: the broadcaster, bot runner and turn clock listen; the write side imports none of them).

Views, API endpoints, consumers, bots and admin actions are thin callers of these functions.
"""
from games.play.access import get_game, seat_for_token, waiting_on
from games.play.create import (BOT_LEVELS, BOT_SECONDS_RANGE, TURN_SECONDS_CHOICES, Created, claim_seat,
                               create_game, load_kind, parse_player)
from games.play.endings import abort, check_timeout, resign
from games.play.errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from games.play.moves import submit_action, submit_bot_action
from games.play.positions import current_state, engine_for, state_at
from games.play.turns import draw_chance

__all__ = ["BOT_LEVELS", "BOT_SECONDS_RANGE", "TURN_SECONDS_CHOICES", "BadRequest", "Conflict", "Created",
           "Forbidden", "NotFound", "ServiceError", "abort", "check_timeout", "claim_seat", "create_game",
           "current_state", "draw_chance", "engine_for", "get_game", "load_kind", "parse_player", "resign",
           "seat_for_token", "state_at", "submit_action", "submit_bot_action", "waiting_on"]
