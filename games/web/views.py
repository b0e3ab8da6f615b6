import json
import logging

from django.contrib import messages
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from games.read import hints, presenters
from games.guard import ratelimit, safejson
from games.play import seatsession, services
from games.bots import LEVEL_WORDS, levels_for
from games.engine import load_game, registered_names
from games.engine.registry import default_name
from games.web import lobby
from games.web.forms import ME, NewGameForm
from games.web.previews import share_meta
from games.models import Game
from games.engine.ui import ui_for

logger = logging.getLogger(__name__)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The lobby: the catalogue of games and the lists of games. The old lobby's ``?game=NAME`` links (with
    its options) lead to that game's start page, the options shown."""
    name = request.GET.get("game")
    if name:
        return redirect(lobby.start_url(name if name in registered_names() else default_name(), request.GET.dict()))
    return render(request, "games/home.html", lobby.home_context(request))


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness/readiness probe: answers 200 only if the database answers."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any database failure means "not ready"
        logger.warning("healthz: database check failed: %s", exc)
        return JsonResponse(
            {"status": "error", "detail": f"database: {exc.__class__.__name__}: {exc}"},
            status=503,
        )
    return JsonResponse({"status": "ok"})


def not_found(request: HttpRequest, message: str = "") -> HttpResponse:
    return render(request, "games/_not_found.html", {"message": message}, status=404)


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _viewer(request: HttpRequest, game: Game) -> tuple[str, str] | None:
    """(side, token) of the seat this browser holds in ``game``, checked against the seat's token."""
    seat = seatsession.recall(request.session, game.id)
    if seat and any(s.side == seat[0] and s.token_matches(seat[1]) for s in game.seats.all()):
        return seat
    return None


def new_game(request: HttpRequest) -> HttpResponse:
    """The lobby's full form, posted (also by programs): a new game, or the game's start page saying why not."""
    if request.method != "POST":
        return redirect("/#play")
    return lobby.create(request, NewGameForm(request.POST))


@require_safe
def new_game_options(request: HttpRequest) -> HttpResponse:
    """The lobby form's part that depends on the chosen game and its options (swapped in by htmx)."""
    form = NewGameForm(initial=request.GET.dict())
    return render(request, "games/_new_game_options.html", {"form": form})


@require_safe
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = services.check_timeout(game_id)
    except services.NotFound:
        return not_found(request, f"There is no game “{game_id}”.")
    seat = _viewer(request, game)
    side = seat[0] if seat else None
    flipped = request.GET.get("flip") == "1"
    ctx = presenters.game_context(game, side, flipped=flipped, request=request)
    ctx.update({"oob": False, "flipped": flipped, "server_now": timezone.now().isoformat(),
                "share": share_meta(request, game, page_url=game.get_absolute_url())})
    return render(request, "games/game.html", ctx)


def _done(request: HttpRequest, game_id: str, side: str | None) -> HttpResponse:
    """After a change: the live fragments for htmx (clearing the error line), else back to the page."""
    if _is_htmx(request):
        # Rendered exactly as the WebSocket renders them (no request: no CSRF inputs, htmx sends the header),
        # so the page script can tell that the same fragments arriving again change nothing.
        html = presenters.live_fragments(game_id, side) + presenters.error_fragment("")
        return HttpResponse(html)
    return redirect("game", game_id)


def _refused(request: HttpRequest, game_id: str, exc: services.ServiceError) -> HttpResponse:
    if isinstance(exc, services.NotFound):
        return not_found(request, exc.message)
    if _is_htmx(request):
        # 200 so that htmx swaps the message in; the message says what was refused and why.
        return HttpResponse(presenters.error_fragment(exc.message))
    messages.error(request, exc.message)
    return redirect("game", game_id)


@require_POST
def join(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = services.get_game(game_id)
        if _viewer(request, game):
            raise services.Conflict("you already play in this game")
        side = request.POST.get("side") or None
        name = (request.POST.get("name") or "").strip()[:60]
        game, side, token = services.claim_seat(game_id, side, user=request.user, name=name)
    except services.ServiceError as exc:
        return _refused(request, game_id, exc)
    ratelimit.advanced(request)
    seatsession.remember(request.session, game.id, side, token)
    messages.success(request, f"You play {ui_for(services.engine_for(game)).seat_name(side)}.")
    if _is_htmx(request):
        response = HttpResponse("")
        response["HX-Redirect"] = game.get_absolute_url()
        return response
    return redirect(game)


@require_POST
def act(request: HttpRequest, game_id: str) -> HttpResponse:
    seat = seatsession.recall(request.session, game_id)
    try:
        if seat is None:
            services.get_game(game_id)  # 404 first
            raise services.Forbidden("you have no seat in this game: only its players can act")
        try:
            turn = int(request.POST.get("turn", "")[:12])
        except ValueError:
            raise services.BadRequest("'turn' must be the number of the turn being played") from None
        services.submit_action(game_id, seat[1], turn, _posted_action(request.POST))
    except services.ServiceError as exc:
        return _refused(request, game_id, exc)
    ratelimit.advanced(request)  # an accepted move is never counted: play limits itself
    return _done(request, game_id, seat[0])


MAX_PARTS = 64  # action_part_0 ... : more than any game's parts


def _posted_action(post) -> object:
    """The action a form posted: ``action`` (JSON), or, from the page without its script, the lists of a
    product of parts (``action_part_0``, ``action_part_1``, ...: JSON each) joined into the list of parts."""
    raw = post.get("action", "")
    names = [k for k in post if k.startswith("action_part_")]
    if not raw and names:
        if len(names) > MAX_PARTS:
            raise services.BadRequest(f"at most {MAX_PARTS} parts")
        parts = []
        for i in range(len(names)):
            value = post.get(f"action_part_{i}", "")
            if not value:
                raise services.BadRequest(f"choose part {i + 1} of the action first (action_part_{i} is missing)")
            parts.append(_json_field(value, f"part {i + 1} of the action"))
        return parts
    if not raw:
        raise services.BadRequest("choose an action first")
    return _json_field(raw, "the action")


def _json_field(raw: str, what: str):
    try:
        return safejson.loads(raw, max_bytes=8 * 1024)
    except safejson.BadJSON as exc:
        raise services.BadRequest(f"{what} is not acceptable JSON: {exc}") from None


@require_POST
def resign(request: HttpRequest, game_id: str) -> HttpResponse:
    seat = seatsession.recall(request.session, game_id)
    try:
        game = services.get_game(game_id)
        if seat is None:
            raise services.Forbidden("you have no seat in this game: only its players can resign")
        if request.POST.get("confirm") != "yes":
            # Without JavaScript there was no confirmation dialog: ask on a page of its own.
            return render(request, "games/_resign_confirm.html",
                          {"game": game, "side_name": ui_for(services.engine_for(game)).seat_name(seat[0])})
        services.resign(game_id, seat[1])
    except services.ServiceError as exc:
        return _refused(request, game_id, exc)
    ratelimit.advanced(request)
    return _done(request, game_id, seat[0])


@require_POST
def hint(request: HttpRequest, game_id: str) -> HttpResponse:
    """The best bot's move for this browser's seat of a one-player game, as words the page shows (and chooses
    in the list of moves) or, without JavaScript, as a message on the game page."""
    seat = seatsession.recall(request.session, game_id)
    try:
        if seat is None:
            services.get_game(game_id)  # 404 first
            raise services.Forbidden("you have no seat in this game: only its player can ask for a hint")
        game, side, action = hints.hint(game_id, seat[1])
    except services.ServiceError as exc:
        if _is_htmx(request) and not isinstance(exc, services.NotFound):
            return render(request, "games/_hint.html", {"error": exc.message})
        return _refused(request, game_id, exc)
    ui = ui_for(services.engine_for(game))
    words = ui.action_words(side, action, services.current_state(game).observation(side))
    if not _is_htmx(request):
        messages.info(request, f"Hint: {words}")
        return redirect(game)
    return render(request, "games/_hint.html", {"words": words, "action_value": presenters.action_json_value(action)})


@require_safe
def library(request: HttpRequest, name: str) -> HttpResponse:
    """A game's ready-made setups (a puzzle library), easiest first, each to play, to watch the best bot
    play, or to share as a link to the lobby."""
    if name not in registered_names():
        return not_found(request, f"There is no game “{name}”.")
    ui = ui_for(load_game(name))
    presets = ui.presets()
    if not presets:
        return not_found(request, f"{ui.game.info.title} has no library.")
    level = levels_for(ui.game)[-1]
    bot_words = LEVEL_WORDS.get(level, level).split(":")[0].lower()
    rows = []
    for i, preset in enumerate(presets, 1):
        engine = load_game(name, **preset.params)
        seat = engine.info.players[0]
        stats = ui_for(engine).seat_stats(engine.new_initial_state().observation(seat), seat)
        rows.append({"number": i, "preset": preset, "stats": stats, "params": {
            f"param_{k}": v if isinstance(v, (int, str)) else json.dumps(v, separators=(",", ":"))
            for k, v in preset.params.items()}})
    # Figures that are the same for every entry (e.g. the turn, 0) say nothing here.
    varying = [j for j in range(len(rows[0]["stats"])) if len({str(r["stats"][j][1]) for r in rows}) > 1]
    for row in rows:
        row["stats"] = [row["stats"][j] for j in varying]
    return render(request, "games/library.html", {
        "ui": ui, "title": ui.game.info.title, "game_name": name, "rows": rows, "seats": ui.game.info.players,
        "bot_words": bot_words, "players": [
            {"seat": ME, "text": "Play", "label": "Play", "secondary": False},
            {"seat": f"bot:{level}", "text": "Watch the bot", "label": f"Watch the bot ({bot_words}) play",
             "secondary": True}]})
