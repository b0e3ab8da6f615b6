"""The game and the position a replay URL asks for (``/games/<id>/...?turn=N&flip=1``), read the same way by
the viewer, its previews and the animated GIF."""
from __future__ import annotations

from django.http import Http404

from games.models import Game
from games.play import services


def game_or_404(game_id: str) -> Game:
    try:
        return services.get_game(game_id)
    except services.NotFound:
        raise Http404(f"no game {game_id!r}") from None


def turn_param(request, game: Game) -> tuple[int, bool]:
    """The ``turn`` asked for, clamped to 0..game.turn (default: the last); and whether it was in range."""
    raw = request.GET.get("turn")
    if raw is None or raw == "":
        return game.turn, True
    try:
        n = int(raw)
    except (TypeError, ValueError):
        return game.turn, False
    clamped = max(0, min(n, game.turn))
    return clamped, clamped == n


def flip_param(request) -> bool:
    return request.GET.get("flip", "") in ("1", "true", "yes", "on")
