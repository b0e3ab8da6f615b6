"""The challenges API, for bot accounts' programs (``Authorization: Key <key>``) and their challengers.

A bot account's program lists the challenges addressed to it, accepts one (the game is made then; the answer
holds the game's id and the bot account's seat token) and plays through the games API with
``Authorization: Seat <token>``, as any seat. Errors: ``{"error": message}`` with 400/403/404/409; a
refused request changes nothing.
"""
from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from django.http import JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import reverse

from games.play import services as games
from games.engine.registry import default_name
from games.api.http import absolute, allow, error, read_json, replay_path

from . import services
from .models import Challenge

MAX_WAIT = 30
WAIT_POLL = 0.25
LIST_LIMIT = 50


def api_key(request) -> str | None:
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    return key.strip() if scheme == "Key" and key.strip() else None


def key_user(request):
    """The account of the request's key; Forbidden without a valid one."""
    return services.user_for_key(api_key(request))


def challenger_of(request):
    """Who makes a challenge: the key's account, else a logged-in browser (its CSRF token checked, as for
    any form: the API itself is exempt), else nobody (anonymous)."""
    if api_key(request):
        return key_user(request)
    if request.user.is_authenticated:
        if CsrfViewMiddleware(lambda r: None).process_view(request, None, (), {}) is not None:
            raise games.Forbidden("CSRF check failed: send the X-CSRFToken header, or use a key")
        return request.user
    return None


def challenge_payload(challenge: Challenge, request) -> dict:
    game = challenge.game
    return {
        "id": challenge.id,
        "status": challenge.status,
        "challenger": challenge.challenger_label,
        "challenger_account": challenge.challenger.get_username() if challenge.challenger_id else None,
        "target": challenge.target.get_username(),
        "game": challenge.kind,
        "params": challenge.params,
        "rated": challenge.rated,
        "turn_seconds": challenge.turn_seconds,
        "challenger_side": challenge.challenger_side,
        "side": services.bot_side(challenge),  # the bot account's seat
        "created": challenge.created.isoformat(),
        "url": absolute(request, reverse("challenge", args=[challenge.id])),
        "game_id": game.id if game else None,
        "game_url": absolute(request, game.get_absolute_url()) if game else None,
        "replay_url": absolute(request, replay_path(game)) if game else None,
    }


@allow("GET", "POST")
def challenges(request):
    """GET (with a key): the pending challenges addressed to the key's account, oldest first.
    POST ``{"target", "game", "params", "side", "rated", "turn_seconds", "name"}``: a new challenge; 201 with
    the challenger's ``seat`` and ``seat_token`` for the game to come (shown once)."""
    try:
        if request.method != "POST":
            user = key_user(request)
            pending = (Challenge.objects.filter(target=user, status=Challenge.Status.PENDING)
                       .select_related("challenger", "target", "game").order_by("created")[:LIST_LIMIT])
            return JsonResponse({"challenges": [challenge_payload(c, request) for c in pending]})
        challenger = challenger_of(request)
        data = read_json(request)
        if not isinstance(data, dict):
            raise games.BadRequest(f'expected a JSON object like {{"target": "some-bot", "game": "{default_name()}"}}')
        made = services.create_challenge(
            challenger, data.get("target"), data.get("game", default_name()), params=data.get("params"),
            side=data.get("side"), rated=False if data.get("rated") is None else data.get("rated"), turn_seconds=data.get("turn_seconds"),
            name=data.get("name") or "")
    except games.ServiceError as exc:
        return error(exc.status, exc.message)
    body = challenge_payload(made.challenge, request)
    body.update({"seat": made.challenge.challenger_side, "seat_token": made.seat_token})
    return JsonResponse(body, status=201)


def _load(challenge_id, request) -> dict:
    return challenge_payload(services.get_challenge(challenge_id), request)


@allow("GET")
async def challenge_detail(request, challenge_id: str):
    """A challenge (anyone with its id); ``?wait=S`` holds the answer up to S (at most 30) seconds while it
    is pending: a challenger's program learns the game's id as soon as the bot account accepts."""
    try:
        raw = request.GET.get("wait")
        try:
            wait = min(MAX_WAIT, max(0.0, float(raw))) if raw is not None and len(raw) < 12 else None
        except ValueError:
            wait = None
        if raw is not None and wait is None:
            return error(400, "wait must be a number of seconds (at most 30)")
        payload = await sync_to_async(_load)(challenge_id, request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (wait or 0)
        while payload["status"] == Challenge.Status.PENDING and loop.time() < deadline:
            await asyncio.sleep(min(WAIT_POLL, max(0.0, deadline - loop.time())))
            payload = await sync_to_async(_load)(challenge_id, request)
        return JsonResponse(payload)
    except games.ServiceError as exc:
        return error(exc.status, exc.message)


@allow("POST")
def accept(request, challenge_id: str):
    """The bot account accepts: 200 with the challenge (``game_id``) and its ``seat`` and ``seat_token``."""
    try:
        user = key_user(request)
        accepted = services.accept_challenge(user, challenge_id)
    except games.ServiceError as exc:
        return error(exc.status, exc.message)
    body = challenge_payload(accepted.challenge, request)
    body.update({"seat": accepted.side, "seat_token": accepted.seat_token})
    return JsonResponse(body)


@allow("POST")
def decline(request, challenge_id: str):
    try:
        challenge = services.decline_challenge(key_user(request), challenge_id)
    except games.ServiceError as exc:
        return error(exc.status, exc.message)
    return JsonResponse(challenge_payload(challenge, request))


@allow("POST")
def cancel(request, challenge_id: str):
    """The challenger (its key) withdraws a pending challenge."""
    try:
        challenge = services.cancel_challenge(key_user(request), challenge_id)
    except games.ServiceError as exc:
        return error(exc.status, exc.message)
    return JsonResponse(challenge_payload(challenge, request))
