"""The lobby: the home page's catalogue and lists of games, each game's start page (play the computer, play a
friend, watch the computer play, and the full form one click away), and making a game from the lobby's form.

Every game is made from a ``NewGameForm`` (``create``): the start page's one-click starts fill it with the
game's defaults, so they are checked, made and remembered exactly as the full form's games are."""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from games.bots import LEVEL_WORDS, levels_for
from games.engine import load_game, registered_names
from games.engine.ui import ui_for
from games.models import Game
from games.play import seatsession, services, signals
from games.read import gamelog, presenters
from games.web import catalogue
from games.web.forms import NewGameForm, default_level, quick_data

LIST_LIMIT = 20
# A game nobody has touched for this long is left out of the lists: a live game with no move in 10 minutes
# (its players have gone: a game with a clock would have ended), an open game nobody joined within the hour.
LIVE_WITHIN = timedelta(minutes=10)
OPEN_WITHIN = timedelta(hours=1)
HOW = ("computer", "friend", "watch")
WATCH_PACE = 1.0  # seconds between two moves of a game of bots made here: people watch it (API games: no pace)


# --- the home page -----------------------------------------------------------------------------------------

def home_context(request: HttpRequest) -> dict:
    """The catalogue, and the lists of games: this account's, this browser's, open and live ones."""
    own_ids = seatsession.game_ids(request.session)
    now = timezone.now()
    played = Game.objects.filter(source=Game.Source.PLAYED).prefetch_related("seats")
    # A rematch waits for the players of its game, not for anyone: it is not listed.
    open_games = (played.filter(status=Game.Status.WAITING, updated__gte=now - OPEN_WITHIN, rematch_of__isnull=True)
                  .order_by("-created"))
    live_games = played.filter(status=Game.Status.ACTIVE, updated__gte=now - LIVE_WITHIN).order_by("-updated")
    mine = []
    if own_ids:
        mine = list(Game.objects.filter(pk__in=own_ids).prefetch_related("seats").order_by("-updated")[:LIST_LIMIT])
    user_games = []
    if request.user.is_authenticated:
        user_games = list(Game.objects.filter(seats__user=request.user).distinct()
                          .prefetch_related("seats").order_by("-updated")[:LIST_LIMIT])
    return {
        "cards": catalogue.cards(),
        "open_games": [game_row(g, own_ids) for g in open_games[:LIST_LIMIT]],
        "live_games": [game_row(g, own_ids) for g in live_games[:LIST_LIMIT]],
        "my_games": [game_row(g, own_ids) for g in mine],
        "user_games": [game_row(g, own_ids) for g in user_games],
    }


def game_row(game: Game, own_ids) -> dict:
    """One game of a list: its title, its players and where it stands."""
    ui = ui_for(services.engine_for(game))
    seats = {s.side: s for s in game.seats.all()}
    players = [{"side": side, "name": ui.seat_name(side), "label": seats[side].label if side in seats else "",
                "open": side in seats and not seats[side].is_claimed}
               for side in ui.game.info.players]
    result = presenters.result_info(game, ui, observation={}) if game.is_over else None
    age = (timezone.now() - game.created).total_seconds()
    return {
        "age": "just now" if age < 60 else None,
        "game": game,
        "title": ui.game.info.title,
        "players": players,
        "open_sides": [p for p in players if p["open"]],
        "mine": game.id in own_ids,
        "result": result,
        "moves": gamelog.moves_made(game) if game.status == Game.Status.ACTIVE else 0,
    }


def start_url(name: str, query: dict | None = None) -> str:
    """A game's start page; with a query (the old lobby's ``?game=...`` links), its options shown."""
    url = reverse("play", args=[name])
    return f"{url}?{urlencode(query)}" if query else url


# --- a game's start page -----------------------------------------------------------------------------------

def _start_page(request: HttpRequest, form: NewGameForm, *, options_open: bool, status: int = 200) -> HttpResponse:
    name = form.game_name
    ui = ui_for(load_game(name))
    card = next(c for c in catalogue.cards() if c["name"] == name)
    levels = levels_for(ui.game)
    level = default_level(ui.game)
    return render(request, "games/start.html", {
        "form": form, "card": card, "ui": ui, "options_open": options_open, "solo": card["solo"],
        "levels": [{"value": lv, "words": LEVEL_WORDS.get(lv, lv), "chosen": lv == level} for lv in levels],
        "level_words": LEVEL_WORDS.get(level, level).split(":")[0].lower(),
        "first_seat": ui.seat_name(ui.game.info.players[0]), "others": len(ui.game.info.players) - 1,
        "open_games": _open_games_of(request, name),
    }, status=status)


def _open_games_of(request: HttpRequest, name: str) -> list[dict]:
    """Open games of this kind that someone else made, to join (the newest first)."""
    own_ids = seatsession.game_ids(request.session)
    since = timezone.now() - OPEN_WITHIN
    games = (Game.objects.filter(source=Game.Source.PLAYED, status=Game.Status.WAITING, kind=name,
                                 updated__gte=since, rematch_of__isnull=True).exclude(pk__in=own_ids)
             .prefetch_related("seats").order_by("-created")[:5])
    return [game_row(g, own_ids) for g in games]


@require_safe
def start(request: HttpRequest, name: str) -> HttpResponse:
    """A game's start page; a query (a shared setup, ``?preset=...``) fills the options and shows them."""
    if name not in registered_names():
        return render(request, "games/_not_found.html", {"message": f"There is no game “{name}”."}, status=404)
    initial = {**request.GET.dict(), "game": name}
    if request.user.is_authenticated:
        initial.setdefault("rated", True)
    return _start_page(request, NewGameForm(initial=initial), options_open=bool(request.GET))


@require_POST
def quick_start(request: HttpRequest, name: str) -> HttpResponse:
    """One click: ``how`` is ``computer`` (this browser plays the first seat, bots of ``level`` the others),
    ``friend`` (the first seat, the others by invite link) or ``watch`` (bots of ``level`` in every seat)."""
    if name not in registered_names():
        return render(request, "games/_not_found.html", {"message": f"There is no game “{name}”."}, status=404)
    how = request.POST.get("how", "computer")
    how = how if how in HOW else "computer"
    game = load_game(name)
    level = request.POST.get("level") or default_level(game)
    data = quick_data(name, how, level, rated=request.user.is_authenticated and how != "watch")
    return create(request, NewGameForm(data))


def create(request: HttpRequest, form: NewGameForm) -> HttpResponse:
    """A game from a bound lobby form: made, its creator's seat remembered by this browser, and the page of
    the new game; else the start page with the form and why. A game of bots only is paced for its watchers."""
    if not form.is_valid():
        return _start_page(request, form, options_open=True, status=400)
    data = form.cleaned_data
    side = form.creator_side()
    players = form.players()
    try:
        bots = [p != "human" for p in players.values()]
        created = services.create_game(
            form.game_name, players, data["turn_seconds"], params=data["params"], claim=side, user=request.user,
            name=data["name"], bot_seconds=data["bot_seconds"] if any(bots) else None,
            move_seconds=WATCH_PACE if all(bots) else None)
    except services.ServiceError as exc:
        form.add_error(None, exc.message)
        return _start_page(request, form, options_open=True, status=exc.status)
    if side is not None:
        seatsession.remember(request.session, created.game.id, side, created.tokens[side])
    signals.game_created.send(sender=Game, game_id=created.game.id, user=request.user, options=data)
    return redirect(created.game)


@require_safe
def board_picture(request: HttpRequest, name: str) -> HttpResponse:
    """The catalogue's picture of a game's board at the start (the same until the site is updated)."""
    if name not in registered_names():
        return HttpResponse("No such game.\n", status=404, content_type="text/plain; charset=utf-8")
    response = HttpResponse(catalogue.board_picture(name), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=3600"
    return response


urlpatterns = [
    path("play/<str:name>", start, name="play"),
    path("play/<str:name>/start", quick_start, name="quick_start"),
    path("play/<str:name>/board.svg", board_picture, name="board_picture"),
]
