"""Tournament pages: the list and the create form (creations rate-limited per address as games' are), an
account's invitations and its answer, a tournament's live standings and rounds (an htmx fragment polled while
it runs), the results as CSV, and an account's way into its own games. Thin: parse, call one service, render."""
from __future__ import annotations

import csv

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.guard import ratelimit
from games.play import seatsession
from games.engine import load_game, registered_names
from games.guard.refusals import too_many
from games.web.views import not_found

from . import services
from .forms import TournamentForm
from .models import Entrant, Tournament

LIST_LIMIT = 50
POLL = "every 3s"  # the standings fragment, while the tournament runs


def _title(kind: str) -> str:
    return load_game(kind).info.title if kind in registered_names() else kind


def _list_page(request: HttpRequest, form: TournamentForm | None, status: int = 200) -> HttpResponse:
    accepted = Count("entrants", filter=Q(entrants__status=Entrant.Status.ACCEPTED))
    tournaments = list(Tournament.objects.annotate(entrant_count=accepted)[:LIST_LIMIT])
    for t in tournaments:
        t.title = _title(t.kind)
    invitations = []
    if request.user.is_authenticated:
        form = form or TournamentForm()
        invitations = list(Entrant.objects.filter(user=request.user, status=Entrant.Status.INVITED,
                                                  tournament__status=Tournament.Status.OPEN)
                           .select_related("tournament__created_by"))
    return render(request, "tournaments/list.html", {"tournaments": tournaments, "form": form,
                                                      "invitations": invitations}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_list(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _list_page(request, None)
    if not request.user.is_authenticated:
        messages.error(request, "Log in to create a tournament.")
        return _list_page(request, None, status=403)
    wait = ratelimit.hit("create", ratelimit.client_address(request.META))  # each one creates games
    if wait:
        return too_many(request, wait)
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _list_page(request, form, status=400)
    try:
        t = form.create(request.user)
    except services.ServiceError as exc:
        form.add_error(None, exc.message)
        return _list_page(request, form, status=exc.status)
    if t.status == Tournament.Status.OPEN:
        messages.success(request, f"Tournament “{t.name}” created: it starts once the accounts you invited have "
                                  "answered (or when you start it).")
    else:
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
    user = request.user
    ctx["title"] = _title(t.kind)
    ctx["entrants"] = list(t.entrants.all())
    ctx["invited"] = t.status == Tournament.Status.OPEN and any(
        e.user_id == user.pk and e.status == Entrant.Status.INVITED for e in ctx["entrants"])
    ctx["can_start"] = t.status == Tournament.Status.OPEN and user.is_authenticated and (
        t.created_by_id == user.pk or user.is_staff)
    return render(request, "tournaments/tournament.html", ctx)


def _answered(request: HttpRequest, pk: int, call, done: str) -> HttpResponse:
    """Run ``call()`` (a service); a program (``Accept: application/json``) gets JSON, a browser the page."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        t = call()
    except services.ServiceError as exc:
        if wants_json:
            return JsonResponse({"error": exc.message}, status=exc.status)
        if isinstance(exc, services.NotFound):
            return not_found(request, exc.message)
        messages.error(request, exc.message[:1].upper() + exc.message[1:] + ".")
        return redirect("tournament", pk)
    if wants_json:
        return JsonResponse({"tournament": t.pk, "status": t.status})
    messages.success(request, done)
    return redirect(t)


@require_POST
def answer(request: HttpRequest, pk: int, choice: str) -> HttpResponse:
    """An invited account accepts or declines (``choice``: ``accept`` or ``decline``)."""
    accept = choice == "accept"
    return _answered(request, pk, lambda: services.answer(pk, request.user, accept),
                     "You have entered the tournament." if accept else "You have declined the invitation.")


@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator starts an open tournament without waiting for the remaining answers."""
    return _answered(request, pk, lambda: services.start_now(pk, request.user), "The tournament has started.")


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
