"""The rematch button of a finished game (and a puzzle's "Next puzzle"): a new game by
``games.play.rematch`` (or a seat in the one another player offers), this browser's seat in it remembered in
the session as for a new game. Refused where the page offers none (a tournament's game: it makes the
pairings); a browser already seated in the offered rematch goes there."""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.views.decorators.http import require_POST

from games.engine.ui import ui_for
from games.models import Game
from games.play import seatsession, services, signals
from games.play.rematch import open_rematch, rematch as play_rematch
from games.read.aftergame import after_game
from games.web.views import _viewer, not_found


@require_POST
def rematch(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = services.get_game(game_id)
        seat = _viewer(request, game)
        if not after_game(game, ui_for(services.engine_for(game)), seat[0] if seat else None)["rematch_url"]:
            raise services.Conflict("no rematch here: the game goes on, or what comes next is not up to its players")
        offered = open_rematch(game)
        if offered is not None and seatsession.recall(request.session, offered.id):
            return _to(request, offered)
        created, side = play_rematch(game.id, seat[0] if seat else None,
                                     preset=(request.POST.get("preset") or "")[:60], user=request.user)
    except services.NotFound as exc:
        return not_found(request, exc.message)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("game", game_id)
    if side is not None:
        seatsession.remember(request.session, created.game.id, side, created.tokens[side])
    if offered is None or created.game.id != offered.id:  # made now, not a seat taken in another's rematch
        signals.game_created.send(sender=Game, game_id=created.game.id, user=request.user,
                                  options={"rematch_of": game.id})
    return _to(request, created.game)


def _to(request: HttpRequest, game: Game) -> HttpResponse:
    if request.headers.get("HX-Request"):  # htmx: the whole page goes to the new game
        response = HttpResponse("")
        response["HX-Redirect"] = game.get_absolute_url()
        return response
    return redirect(game)


urlpatterns = [path("games/<str:game_id>/rematch", rematch, name="rematch")]
