"""Pages: sign up, profiles (games by kind, results, the rating chart, replays; keys on one's own), the
leaderboards, challenges to bot accounts. Thin: read, or call one service, render."""
from __future__ import annotations

from collections import OrderedDict

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from games.play import services as games
from games.bots import LEVEL_WORDS
from games.engine import load_game, registered_names
from games.models import Game, Seat
from games.play.services import ServiceError
from games.engine.ui import ui_for
from games.web.views import not_found

from . import charts, services
from .forms import ApiKeyForm, ChallengeForm, SignUpForm, game_titles
from .models import ApiKey, Challenge, Profile, RatedGame, RatedPlayer, RatingChange

PROFILE_GAMES = 300  # most recent games on a profile (all kinds)
GAMES_PER_KIND = 25
BOARD_SIZE = 100
INDEX_TOP = 5
CHART_POINTS = 300


def _title(kind: str) -> str:
    try:
        return load_game(kind).info.title
    except Exception:  # a kind no longer registered
        return kind


def bot_words(level: str) -> str:
    words = LEVEL_WORDS.get(level, level)
    return f"Bot · {words.split(':')[0]}"


def _board_row(rank: int, player: RatedPlayer) -> dict:
    profile = getattr(player.user, "player_profile", None) if player.user_id else None
    return {"rank": rank, "player": player, "rating": round(player.rating), "rd": round(player.rd),
            "provisional": player.provisional,
            "name": player.user.get_username() if player.user_id else bot_words(player.bot_level),
            "url": reverse("profile", args=[player.user.get_username()]) if player.user_id else "",
            "bot_account": bool(profile and profile.is_bot), "server_bot": not player.user_id}


def _board(kind: str, limit: int) -> list[dict]:
    players = (RatedPlayer.objects.filter(kind=kind, games__gt=0)
               .select_related("user", "user__player_profile").order_by("-rating", "id")[:limit])
    return [_board_row(i, p) for i, p in enumerate(players, 1)]


@require_safe
def leaderboards(request: HttpRequest) -> HttpResponse:
    kinds = [name for name, _ in game_titles(2)]
    kinds += sorted(set(RatedPlayer.objects.exclude(kind__in=kinds).values_list("kind", flat=True)))
    boards = [{"kind": kind, "title": _title(kind), "rows": _board(kind, INDEX_TOP),
               "count": RatedPlayer.objects.filter(kind=kind, games__gt=0).count()} for kind in kinds]
    bots = Profile.objects.filter(is_bot=True, user__is_active=True).select_related("user").order_by(
        "user__username")[:50]
    return render(request, "players/leaderboards.html", {"boards": boards, "bot_accounts": bots})


@require_safe
def leaderboard(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in registered_names() and not RatedPlayer.objects.filter(kind=kind).exists():
        return not_found(request, f"There is no game “{kind[:40]}”.")
    return render(request, "players/leaderboard.html",
                  {"kind": kind, "title": _title(kind), "rows": _board(kind, BOARD_SIZE)})


# --- profiles -----------------------------------------------------------------------------------------

def _result_for(game: Game, side: str, sides: int) -> tuple[str, str]:
    """(word, css class) of how ``game`` went for ``side``."""
    if game.status == Game.Status.WAITING:
        return "Waiting", "pending"
    if game.status == Game.Status.ACTIVE:
        return "In play", "pending"
    if game.status == Game.Status.ABORTED:
        return "Aborted", "pending"
    if sides == 1:
        text = (game.outcome or {}).get("text") or game.result or "Over"
        return text[:1].upper() + text[1:60], "solo"
    winners = (game.outcome or {}).get("winners") or []
    if not winners:
        return "Draw", "draw"
    return ("Won", "win") if side in winners else ("Lost", "loss")


def _profile_games(user) -> list[dict]:
    """The account's games, newest first, grouped by kind (in order of the latest game of each kind)."""
    seats = list(Seat.objects.filter(user=user).select_related("game").order_by("-game__created")[:PROFILE_GAMES])
    ids = [s.game_id for s in seats]
    others = {}
    for seat in Seat.objects.filter(game_id__in=ids).select_related("user").order_by("id"):
        others.setdefault(seat.game_id, []).append(seat)
    rated = dict(RatedGame.objects.filter(game_id__in=ids).values_list("game_id", "state"))
    deltas = {c.game_id: c for c in RatingChange.objects.filter(game_id__in=ids, player__user=user)}
    groups: OrderedDict[str, dict] = OrderedDict()
    uis = {}
    for seat in seats:
        game = seat.game
        group = groups.setdefault(game.kind, {"kind": game.kind, "title": _title(game.kind), "rows": [],
                                              "count": 0, "wins": 0, "draws": 0, "losses": 0})
        group["count"] += 1
        table = others.get(game.id, [seat])
        word, css = _result_for(game, seat.side, len(table))
        tally = {"win": "wins", "draw": "draws", "loss": "losses"}.get(css)
        if tally:
            group[tally] += 1
        if len(group["rows"]) >= GAMES_PER_KIND:
            continue
        key = (game.kind, tuple(sorted(game.params.items())) if isinstance(game.params, dict) else ())
        try:
            ui = uis.get(key) or uis.setdefault(key, ui_for(games.engine_for(game)))
            side_name = ui.seat_name(seat.side)
        except Exception:  # a game whose kind or params no longer load: still listed
            side_name = seat.side
        change = deltas.get(game.id)
        group["rows"].append({
            "game": game, "side": side_name, "result": word, "css": css,
            "opponents": [{"label": s.label, "username": s.user.get_username() if s.user_id else ""}
                          for s in table if s.side != seat.side],
            "rated": rated.get(game.id), "delta": round(change.delta) if change else None,
            "rating": round(change.rating) if change else None,
            "replay_url": game.get_absolute_url() + "/replay",
        })
    return list(groups.values())


def _ratings(user) -> list[dict]:
    out = []
    for player in RatedPlayer.objects.filter(user=user, games__gt=0).order_by("-games", "kind"):
        history = list(RatingChange.objects.filter(player=player).order_by("-created", "-id")[:CHART_POINTS])[::-1]
        rank = RatedPlayer.objects.filter(kind=player.kind, games__gt=0, rating__gt=player.rating).count() + 1
        out.append({"player": player, "title": _title(player.kind), "rating": round(player.rating),
                    "rd": round(player.rd), "provisional": player.provisional, "rank": rank,
                    "chart": charts.rating_chart(history)})
    return out


def _titled(challenges) -> list[Challenge]:
    challenges = list(challenges)
    for challenge in challenges:
        challenge.title = _title(challenge.kind)
    return challenges


def _find_user(username: str):
    User = get_user_model()
    return User.objects.filter(**{User.USERNAME_FIELD: username[:150]}, is_active=True).first()


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    return _profile_page(request, username)


def _profile_page(request: HttpRequest, username: str, form: ChallengeForm | None = None,
                  status: int = 200) -> HttpResponse:
    """The profile; ``form``: the challenge form again with its errors (``status`` 400, 404 or 409)."""
    user = _find_user(username)
    if user is None:
        return not_found(request, f"There is no player “{username[:40]}”.")
    own = request.user.is_authenticated and request.user.pk == user.pk
    prof = services.profile_of(user)
    is_bot = bool(prof and prof.is_bot)
    ctx = {
        "person": user, "own": own, "is_bot": is_bot, "ratings": _ratings(user), "groups": _profile_games(user),
        "challenge_form": form or (ChallengeForm() if is_bot and not own else None),
    }
    if own:
        ctx["keys"] = list(ApiKey.objects.filter(user=user))
        ctx["key_form"] = ApiKeyForm()
        ctx["received"] = _titled(Challenge.objects.filter(target=user).select_related("challenger", "game")[:20])
        ctx["sent"] = _titled(Challenge.objects.filter(challenger=user).select_related("target", "game")[:20])
    elif request.user.is_authenticated:
        ctx["sent"] = _titled(Challenge.objects.filter(challenger=request.user, target=user)
                              .select_related("target", "game")[:10])
    return render(request, "players/profile.html", ctx, status=status)


# --- accounts -----------------------------------------------------------------------------------------

def _safe_next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return ""


def signup(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    if request.user.is_authenticated:
        return redirect("profile", request.user.get_username())
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        had = len(request.session.get("seats") or {}) if hasattr(request, "session") else 0
        login(request, user)  # user_logged_in: this browser's anonymous seats become the account's
        messages.success(request, f"Welcome, {user.get_username()}!" + (
            " The games you played in this browser are now on your profile." if had else ""))
        return redirect(_safe_next(request) or reverse("profile", args=[user.get_username()]))
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)},
                  status=400 if form.is_bound else 200)


@never_cache
@login_required
@require_POST
def key_create(request: HttpRequest) -> HttpResponse:
    form = ApiKeyForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The key's name is too long (at most 60 characters).")
        return redirect("profile", request.user.get_username())
    try:
        made = services.create_api_key(request.user, form.cleaned_data["name"])
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("profile", request.user.get_username())
    # Shown once, on this response only: never stored, never in a redirect or a message.
    return render(request, "players/key_created.html", {"key": made.key, "secret": made.secret})


@login_required
@require_POST
def key_revoke(request: HttpRequest, key_id: int) -> HttpResponse:
    try:
        key = services.revoke_api_key(request.user, key_id)
        messages.success(request, f"Key {key.prefix}… is revoked: programs using it are refused from now on.")
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("profile", request.user.get_username())


# --- challenges ---------------------------------------------------------------------------------------

@require_POST
def challenge_create(request: HttpRequest, username: str) -> HttpResponse:
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _profile_page(request, username, form, 400)
    data = form.cleaned_data
    try:
        made = services.create_challenge(request.user, username, data["game"], side=form.side_name(),
                                         rated=bool(data["rated"]) and request.user.is_authenticated,
                                         name=data["name"])
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _profile_page(request, username, form, exc.status)
    services.remember_challenge(request.session, made.challenge.id)
    messages.success(request, f"Challenge sent to {made.challenge.target.get_username()}: the game starts "
                              "when its program accepts.")
    return redirect("challenge", made.challenge.id)


def _is_challenger(request, challenge: Challenge) -> bool:
    if challenge.challenger_id:
        return request.user.is_authenticated and request.user.pk == challenge.challenger_id
    return challenge.id in services.challenges_in_session(request.session)


@require_safe
def challenge_page(request: HttpRequest, challenge_id: str) -> HttpResponse:
    try:
        challenge = services.get_challenge(challenge_id)
    except ServiceError as exc:
        return not_found(request, exc.message)
    if services.take_challenge_seat(challenge, request.user, request.session):
        return redirect(challenge.game)
    bot_side = services.bot_side(challenge)
    try:
        ui = ui_for(load_game(challenge.kind, **challenge.params))
        names = {challenge.challenger_side: ui.seat_name(challenge.challenger_side), bot_side: ui.seat_name(bot_side)}
    except Exception:
        names = {challenge.challenger_side: challenge.challenger_side, bot_side: bot_side}
    return render(request, "players/challenge.html", {
        "challenge": challenge, "title": _title(challenge.kind), "mine": _is_challenger(request, challenge),
        "challenger_seat": names[challenge.challenger_side], "bot_seat": names[bot_side],
        "refresh": challenge.status == Challenge.Status.PENDING,
    })


@require_POST
def challenge_cancel(request: HttpRequest, challenge_id: str) -> HttpResponse:
    try:
        services.cancel_challenge(request.user, challenge_id, request.session)
        messages.success(request, "Challenge cancelled.")
    except services.NotFound as exc:
        return not_found(request, exc.message)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("challenge", challenge_id)
