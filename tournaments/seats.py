"""An account's seat in a tournament game: the game was made with the account in its seat but a token nobody
holds, so the account's browser asks for one here (a new token each time; an older one stops working)."""
from __future__ import annotations

from django.db import transaction

from games.models import Game, Seat
from games.play import services as game_services
from games.play.services import Conflict, Forbidden, NotFound

from .models import TournamentGame


def take_seat(tournament_id, game_id: str, user) -> tuple[Game, str, str]:
    """A new token for the seat ``user`` plays in game ``game_id`` of the tournament (returned once; an
    older token of that seat stops working): (game, side, token)."""
    with transaction.atomic():
        game = game_services.get_game(game_id, lock=True)
        if not TournamentGame.objects.filter(game=game, pairing__tournament_id=tournament_id).exists():
            raise NotFound(f"game {game.id} is not a game of this tournament")
        seat = None
        if user is not None and user.is_authenticated:
            seat = next((s for s in game.seats.all() if s.user_id == user.pk and s.kind == Seat.Kind.HUMAN), None)
        if seat is None:
            raise Forbidden("you have no seat in this game")
        if game.is_over:
            raise Conflict(f"the game is over ({game.result or game.get_status_display()})")
        token = seat.issue_token()
        seat.save(update_fields=["token_hash"])
    return game, seat.side, token
