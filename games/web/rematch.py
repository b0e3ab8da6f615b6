"""The rematch button of a finished game (and a puzzle's "Next puzzle"): a new game by
``games.play.rematch``, this browser's seat in it remembered in the session as for a new game."""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.views.decorators.http import require_POST

from games.models import Game
from games.play import seatsession, services, signals
from games.play.rematch import rematch as play_rematch
from games.web.views import _viewer, not_found


@require_POST
def rematch(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = services.get_game(game_id)
        seat = _viewer(request, game)
        created, side = play_rematch(game.id, seat[0] if seat else None,
                                     preset=(request.POST.get("preset") or "")[:60], user=request.user)
    except services.NotFound as exc:
        return not_found(request, exc.message)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("game", game_id)
    if side is not None:
        seatsession.remember(request.session, created.game.id, side, created.tokens[side])
    signals.game_created.send(sender=Game, game_id=created.game.id, user=request.user,
                              options={"rematch_of": game.id})
    if request.headers.get("HX-Request"):  # htmx: the whole page goes to the new game
        response = HttpResponse("")
        response["HX-Redirect"] = created.game.get_absolute_url()
        return response
    return redirect(created.game)


urlpatterns = [path("games/<str:game_id>/rematch", rematch, name="rematch")]
