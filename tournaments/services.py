"""The tournaments app's public functions, one import for callers: every change to a tournament goes through
them, one module per use case (``create``, ``invitations`` and the start, ``advance``, an account's
``seats``), each one transaction with a row lock on the tournament (or the game); ``standings`` reads the
table from the games' outcomes. Games are made through ``games.play.services.create_game`` like any other
game, and refusals are its errors (``BadRequest``, ``Forbidden``, ``NotFound``, ``Conflict``).
"""
from games.play.services import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from tournaments.advance import OVER, advance, advance_if_stalled, on_game_changed
from tournaments.create import MAX_ENTRANTS, MAX_GAMES, MAX_GAMES_PER_PAIRING, create_tournament, two_seat_kinds
from tournaments.invitations import answer, start_now
from tournaments.plan import default_swiss_rounds, planned_games
from tournaments.seats import take_seat
from tournaments.standings import Table, game_points, table

__all__ = ["MAX_ENTRANTS", "MAX_GAMES", "MAX_GAMES_PER_PAIRING", "OVER", "BadRequest", "Conflict", "Forbidden",
           "NotFound", "ServiceError", "Table", "advance", "advance_if_stalled", "answer", "create_tournament",
           "default_swiss_rounds", "game_points", "on_game_changed", "planned_games", "start_now", "table",
           "take_seat", "two_seat_kinds"]
