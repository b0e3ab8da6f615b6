"""Tournament pages: the list and the create form, a tournament's live standings and rounds (an htmx
fragment polled while it runs), the results as CSV, and an account's way into its own games. Thin: parse,
call one service, render."""
from __future__ import annotations

import csv

from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import seatsession
from games.engine import load_game, registered_names
from games.views import not_found

from . import services
from .forms import TournamentForm
from .models import Tournament

LIST_LIMIT = 50
POLL = "every 3s"  # the standings fragment, while the tournament runs


def _title(kind: str) -> str:
    return load_game(kind).info.title if kind in registered_names() else kind


def _list_page(request: HttpRequest, form: TournamentForm | None, status: int = 200) -> HttpResponse:
    tournaments = list(Tournament.objects.annotate(entrant_count=Count("entrants"))[:LIST_LIMIT])
    for t in tournaments:
        t.title = _title(t.kind)
    if form is None and request.user.is_authenticated:
        form = TournamentForm()
    return render(request, "tournaments/list.html", {"tournaments": tournaments, "form": form}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_list(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _list_page(request, None)
    if not request.user.is_authenticated:
        messages.error(request, "Log in to create a tournament.")
        return _list_page(request, None, status=403)
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _list_page(request, form, status=400)
    try:
        t = form.create(request.user)
    except services.ServiceError as exc:
        form.add_error(None, exc.message)
        return _list_page(request, form, status=exc.status)
    messages.success(request, f"Tournament “{t.name}” started.")
    return redirect(t)


def _get(pk: int) -> Tournament | None:
    t = Tournament.objects.filter(pk=pk).select_related("created_by").first()
    return services.advance_if_stalled(t) if t is not None else None


def _live_context(request: HttpRequest, t: Tournament) -> dict:
    table = services.table(t)
    uid = request.user.pk if request.user.is_authenticated else None
    for rnd in table.rounds:
        for p in rnd["pairings"]:
            for item in p["games"]:
                game = item["game"]
                item["mine"] = bool(uid and game and any(s.user_id == uid for s in game.seats.all()))
    return {"t": t, "table": table, "poll": POLL if t.status == Tournament.Status.RUNNING else ""}


@require_safe
def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    t = _get(pk)
    if t is None:
        return not_found(request, f"There is no tournament {pk}.")
    ctx = _live_context(request, t)
    ctx["title"] = _title(t.kind)
    return render(request, "tournaments/tournament.html", ctx)


@require_safe
def live(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings and rounds (htmx polls this while the tournament runs)."""
    t = _get(pk)
    if t is None:
        return not_found(request, f"There is no tournament {pk}.")
    return render(request, "tournaments/_live.html", {**_live_context(request, t), "oob": True})


def _cell(value) -> str:
    """A CSV cell that a spreadsheet never reads as a formula."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def points(value: float) -> str:
    return f"{value:g}"


@require_safe
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    t = Tournament.objects.filter(pk=pk).first()
    if t is None:
        return not_found(request, f"There is no tournament {pk}.")
    table = services.table(t)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{t.pk}.csv"'
    writer = csv.writer(response)
    writer.writerow(["rank", "entrant", "type", "score", *table.tiebreaks, "played", "wins", "draws", "losses", "byes"])
    for row in table.rows:
        e = row["entrant"]
        writer.writerow([row["rank"], _cell(e.name), "bot" if e.is_bot else "account", points(row["score"]),
                         *(points(v) for v in row["tiebreaks"]), row["played"], row["wins"], row["draws"],
                         row["losses"], row["byes"]])
    return response


@require_POST
def play(request: HttpRequest, pk: int, game_id: str) -> HttpResponse:
    """Open one of your own tournament games in this browser: its seat goes into your session. A bot
    account's program (``Accept: application/json``, logged in by session) gets the seat token instead."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    t = Tournament.objects.filter(pk=pk).first()
    try:
        if t is None:
            raise services.NotFound(f"There is no tournament {pk}.")
        if not request.user.is_authenticated:
            raise services.Forbidden("Log in to play your tournament games.")
        game, side, token = services.take_seat(t.pk, game_id, request.user)
    except services.ServiceError as exc:
        if wants_json:
            return JsonResponse({"error": exc.message}, status=exc.status)
        if isinstance(exc, services.NotFound):
            return not_found(request, exc.message)
        if isinstance(exc, services.Conflict):
            return redirect("game", game_id)  # over: watch it
        messages.error(request, exc.message)
        return redirect(t)
    if wants_json:
        return JsonResponse({"game": game.id, "side": side, "token": token,
                             "api": reverse("api_game", args=[game.id])})
    seatsession.remember(request.session, game.id, side, token)
    return redirect(game)
