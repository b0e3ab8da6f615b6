"""The replay viewer, its embed, its fragments and the JSON export (the referee log is ``api.log_txt``).

Routes (``urlpatterns``, added to the site's by ``games/web/urls.py``):

    /games/<id>/replay[?turn=N&flip=1]          the viewer (server-rendered at turn N; default: the last turn)
    /games/<id>/replay/board?turn=N[&flip=1]    the position after turn N: the shared board SVG and a caption
    /games/<id>/replay/panel                    status, move list and material chart (a live replay refreshes them)
    /games/<id>/export.json                     every turn's actions, battles and the state after it
    /embed/games/<id>[?turn=N]                  the viewer without the site's chrome, frameable

Beside them: the board as a picture (``games/web/previews.py``), animated (``games/web/replaygif.py``), the
analysis (``games/web/analysis.py``) and importing a log (``games/web/imports.py``). What the pages show
comes from the read model, ``games/read/replay.py``.
"""
from __future__ import annotations

from csp.decorators import csp_replace
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from games.engine.ui import ui_for
from games.models import Game
from games.play import services
from games.read import analysis, gamelog, replay
from games.web.previews import share_meta
from games.web.replayparams import flip_param, game_or_404, turn_param

SPEEDS = ((0.5, "0.5×"), (1, "1×"), (2, "2×"), (4, "4×"), (8, "8×"))


def _viewer_context(request, game: Game, *, embed: bool) -> dict:
    n, _ = turn_param(request, game)
    flipped = flip_param(request)
    names = replay.seat_names(game)
    ui = ui_for(services.engine_for(game))
    turns, states = replay.history(game)
    moves = replay.move_window(ui, turns, states, n)
    replay_path = reverse("replay", args=[game.id])
    live = game.status in (Game.Status.WAITING, Game.Status.ACTIVE)
    return {
        "game": game, "ui": ui, "title": ui.game.info.title, "names": names, "n": n, "total": game.turn,
        "total_moves": gamelog.moves_made(game),
        "players_title": " vs ".join(names[s] for s in ui.game.info.players),
        "live": live, "embed": embed,
        "pos": replay.position(game, n, states[n], turns[n - 1] if n else None, names, flipped=flipped,
                               before=states[n - 1] if n else None),
        "moves": moves, "chapters": replay.chapters(ui, states), "chart": replay.material_chart(ui, states, n),
        "outcome": replay.outcome_line(game),
        "summary": replay.summary_line(game, names), "speeds": SPEEDS,
        "share": share_meta(request, game, n, page_url=f"{replay_path}?turn={n}"),
        "urls": {
            "replay": replay_path,
            "replay_abs": request.build_absolute_uri(replay_path),
            "game": game.get_absolute_url(),
            "board": reverse("replay_board", args=[game.id]),
            "panel": reverse("replay_panel", args=[game.id]),
            "api": reverse("api_game", args=[game.id]),
            "log": reverse("log_txt", args=[game.id]),
            "json": reverse("export_json", args=[game.id]),
            "png": reverse("preview_png", args=[game.id]),
            "embed": reverse("embed", args=[game.id]),
            "embed_abs": request.build_absolute_uri(reverse("embed", args=[game.id])),
            "gif": reverse("replay_gif", args=[game.id]),
            "analysis": reverse("replay_analysis", args=[game.id]),
            "analysis_game": reverse("replay_analysis_game", args=[game.id]),
        },
        "analysis": analysis.page_context(game),
    }


@require_safe
def replay_page(request, game_id):
    game = game_or_404(game_id)
    return render(request, "games/replay.html", _viewer_context(request, game, embed=False))


@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})  # any site may frame the embed
@require_safe
def embed_page(request, game_id):
    game = game_or_404(game_id)
    return render(request, "games/embed.html", _viewer_context(request, game, embed=True))


@require_safe
def board_fragment(request, game_id):
    """The position after turn N (the shared board SVG and its caption), for the viewer's navigation."""
    game = game_or_404(game_id)
    n, exact = turn_param(request, game)
    pos = replay.position_at(game, n, flip_param(request))
    response = render(request, "games/replay_position.html",
                      {"pos": pos, "game": game, "ui": ui_for(services.engine_for(game))})
    # A resolved turn never changes, so its position can be cached; the last one of a live game may yet
    # get an outcome line.
    if exact and (game.is_over or n < game.turn):
        response["Cache-Control"] = "public, max-age=86400"
    else:
        response["Cache-Control"] = "no-cache"
    return response


@require_safe
def panel_fragment(request, game_id):
    """Status, move list and chart, which a live replay swaps in when turns arrive."""
    game = game_or_404(game_id)
    n, _ = turn_param(request, game)
    ui = ui_for(services.engine_for(game))
    turns, states = replay.history(game)
    response = render(request, "games/replay_panel.html", {
        "game": game, "ui": ui, "names": replay.seat_names(game), "n": n, "total": game.turn,
        "total_moves": gamelog.moves_made(game),
        "moves": replay.move_window(ui, turns, states, n),
        "chart": replay.material_chart(ui, states, n), "outcome": replay.outcome_line(game),
        "live": game.status in (Game.Status.WAITING, Game.Status.ACTIVE),
    })
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def export_json(request, game_id):
    """The full turn log with the state after every turn (and before the first)."""
    game = game_or_404(game_id)
    turns, states = replay.history(game)
    seats = {s.side: {"kind": s.kind, "bot": s.bot_level or None, "name": s.label} for s in game.seats.all()}
    body = {
        "id": game.id, "game": game.kind, "params": game.params, "source": game.source, "status": game.status,
        "result": game.result or None, "outcome": game.outcome, "ending": game.ending or None,
        "note": game.note or None,
        "turn": game.turn, "seats": seats,
        "replay_url": request.build_absolute_uri(reverse("replay", args=[game.id])),
        "log_url": request.build_absolute_uri(reverse("log_txt", args=[game.id])),
        "initial_state": states[0],
        "turns": [{"number": t["number"], "actions": t["actions"], "events": t["events"], "state": states[i + 1]}
                  for i, t in enumerate(turns)],
    }
    response = JsonResponse(body, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="{game.kind}-{game.id}.json"'
    return response


urlpatterns = [
    path("games/<str:game_id>/replay", replay_page, name="replay"),
    path("games/<str:game_id>/replay/board", board_fragment, name="replay_board"),
    path("games/<str:game_id>/replay/panel", panel_fragment, name="replay_panel"),
    path("games/<str:game_id>/export.json", export_json, name="export_json"),
    path("embed/games/<str:game_id>", embed_page, name="embed"),
]
