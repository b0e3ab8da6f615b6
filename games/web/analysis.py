"""The replay's analysis pages (the analysis itself: ``games/read/analysis.py``).

Routes (``urlpatterns``, added to the site's by ``games/web/urls.py``):

    /games/<id>/replay/analysis?turn=N[&format=json]      the position after N turns (an htmx fragment;
                                                           a page without htmx; JSON with format=json)
    /games/<id>/replay/analysis/game[?turn=N&seat=S&format=json]  the values after every turn: a chart
                                                           from seat S's view (default: the seat this
                                                           browser played, else the first), the best
                                                           move beside each move played and the slips
                                                           (a quicker analysis per position)

Async views: a request waits for the bot workers without holding a thread.
"""
from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.views.decorators.http import require_safe

from games.engine.ui import ui_for
from games.models import Game
from games.play import seatsession, services
from games.read import analysis, analysisview, replay
from games.read.analysis import Refused


def _turn(raw: str | None, game: Game) -> int:
    if raw is None or raw.strip() == "":
        raise Refused(400, "say which position to analyse: ?turn=N (0 is the start)")
    raw = raw.strip()
    if len(raw) > 9 or not raw.lstrip("-").isdigit():
        raise Refused(400, f"turn must be a whole number from 0 to {game.turn}")
    n = int(raw)
    if not 0 <= n <= game.turn:
        raise Refused(404, f"there is no position after turn {n}: the game has {game.turn} turns")
    return n


def _load(game_id: str, raw_turn: str | None, whole: bool):
    game = analysis.finished_game(game_id)
    n = _turn(raw_turn, game) if not whole or raw_turn not in (None, "") else game.turn
    return (game, n, *analysis.plan(game, n, whole))


def _is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def _wants_json(request) -> bool:
    return request.GET.get("format") == "json"


def _refused(request, exc: Refused, *, target: str, game: Game | None = None) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"error": exc.message}, status=exc.status)
    context = {"error": exc.message, "target": target}
    if _is_htmx(request):
        response = HttpResponse(render_to_string("games/replay_analysis_error.html", context, request),
                                status=exc.status)
    else:
        context.update(_page_extra(game))
        response = render(request, "games/replay_analysis_page.html", context, status=exc.status)
    if exc.status == 503:
        response["Retry-After"] = "10"
    return response


def _page_extra(game: Game | None) -> dict:
    if game is None:
        return {"game": None}
    names = replay.seat_names(game)
    ui = ui_for(services.engine_for(game))
    return {"game": game, "ui": ui, "players_title": " vs ".join(names[s] for s in ui.game.info.players),
            "title": ui.game.info.title, "replay_url": reverse("replay", args=[game.id])}


def _render_position(request, game: Game, n: int, result: dict, hit: bool) -> HttpResponse:
    context = {"a": analysisview.position_context(game, n, result), "game": game}
    template = "games/replay_analysis.html"
    if _is_htmx(request):
        response = render(request, template, context)
    else:
        context.update(_page_extra(game), fragment=template, n=n)
        response = render(request, "games/replay_analysis_page.html", context)
    response["X-Analysis-Cache"] = "hit" if hit else "miss"
    return response


def _seat(request, game: Game) -> str | None:
    """The seat whose view the chart takes: ``?seat=``, else the one this browser played, else None."""
    asked = request.GET.get("seat")
    if asked:
        return asked[:40]
    mine = seatsession.recall(request.session, game.id)
    return mine[0] if mine else None


def _render_chart(request, game: Game, n: int, results: dict, missing: int) -> HttpResponse:
    context = {"c": analysisview.chart_context(game, results, missing, n, _seat(request, game)), "game": game,
               "replay_url": reverse("replay", args=[game.id]), "n": n,
               "analysis_game_url": reverse("replay_analysis_game", args=[game.id])}
    template = "games/replay_analysis_chart.html"
    if _is_htmx(request):
        return render(request, template, context)
    context.update(_page_extra(game), fragment=template, n=n)
    return render(request, "games/replay_analysis_page.html", context)


def _game_or_none(game_id: str) -> Game | None:
    try:
        return services.get_game(game_id)
    except services.NotFound:
        return None


def _refused_page(request, game_id: str, game: Game | None, exc: Refused, target: str) -> HttpResponse:
    return _refused(request, exc, target=target, game=game or _game_or_none(game_id))


@require_safe
async def position_view(request, game_id: str):
    """The analysis of the position after ``?turn=N``."""
    game = None
    try:
        game, n, records, keys, seconds = await sync_to_async(_load)(game_id, request.GET.get("turn"), False)
        result, hit = await analysis.position(game, n, records, keys, seconds)
    except Refused as exc:
        return await sync_to_async(_refused_page)(request, game_id, game, exc, "analysis")
    if _wants_json(request):
        response = JsonResponse({"game": game.id, "turn": n, "seconds": seconds, "cached": hit, **result})
        response["X-Analysis-Cache"] = "hit" if hit else "miss"
        return response
    return await sync_to_async(_render_position)(request, game, n, result, hit)


@require_safe
async def game_view(request, game_id: str):
    """The value after every turn (a quicker analysis per position) as a chart, and the biggest slips."""
    game = None
    try:
        game, n, records, keys, seconds = await sync_to_async(_load)(game_id, request.GET.get("turn"), True)
        results, missing = await analysis.whole_game(game, records, keys, seconds)
        if missing and len(results) == 0:
            raise Refused(503, "the bots are busy: ask again in a moment")
    except Refused as exc:
        return await sync_to_async(_refused_page)(request, game_id, game, exc, "analysis-chart")
    if _wants_json(request):
        players = list(services.engine_for(game).info.players)

        def per_seat(key):
            return {seat: [((results.get(k) or {}).get("actual") or {}).get(seat, {}).get(key)
                           for k in range(game.turn)] for seat in players}
        return JsonResponse({
            "game": game.id, "seconds": seconds, "turns": game.turn, "missing": missing,
            "values": [results[k]["value"] if k in results else None for k in range(game.turn + 1)],
            "seat_values": {seat: [((results.get(k) or {}).get("values") or {}).get(seat)
                                   for k in range(game.turn + 1)] for seat in players},
            "best": {seat: [((results.get(k) or {}).get("best") or {}).get(seat) for k in range(game.turn)]
                     for seat in players},
            "played": per_seat("action"), "gave_away": per_seat("gave_away"),
            "slips": [{"turn": n + 1, "seat": seat, "action": a, "gave_away": g}
                      for g, n, seat, a in analysisview.slips(results)],
        })
    return await sync_to_async(_render_chart)(request, game, n, results, missing)


urlpatterns = [
    path("games/<str:game_id>/replay/analysis", position_view, name="replay_analysis"),
    path("games/<str:game_id>/replay/analysis/game", game_view, name="replay_analysis_game"),
]
