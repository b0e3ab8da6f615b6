"""Finding a game and a seat for a request: the game by id (with its row lock for writers), the seat a token
plays, and the seats the turn in play still waits on."""
from __future__ import annotations

from games.models import Game, Seat
from games.play.errors import Forbidden, NotFound


def get_game(game_id: str, *, lock: bool = False) -> Game:
    qs = Game.objects.select_for_update() if lock else Game.objects
    try:
        return qs.get(pk=str(game_id)[:16])
    except Game.DoesNotExist:
        raise NotFound(f"no game {game_id!r}") from None


def seat_for_token(game: Game, token: str | None) -> Seat:
    """The seat of ``game`` that ``token`` plays; Forbidden for a missing or wrong token."""
    if not token:
        raise Forbidden("missing seat token (send 'Authorization: Seat <token>')")
    for seat in game.seats.all():
        if seat.token_matches(token):
            return seat
    raise Forbidden("wrong seat token for this game")


def waiting_on(game: Game) -> list[str]:
    """Seats still to act in the turn being played (public: whether, never what, a seat submitted)."""
    if game.status != Game.Status.ACTIVE:
        return []
    done = set(game.pending.filter(turn=game.turn + 1).values_list("side", flat=True)) if len(game.to_act) > 1 else ()
    return [side for side in game.to_act if side not in done]
