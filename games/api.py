"""The HTTP API for programs (external bots, scripts, the course-style client in ``games/client.py``).

Thin views: parse and check the request's shape, call one service function, answer JSON. Errors are
``{"error": message}`` with the service's status code; nothing a rejected request sent is kept.
"""
from __future__ import annotations

import asyncio
import json

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import live, services
from .engine import refereelog
from .models import Game

WAIT_SECONDS = 30
MAX_BODY = 64 * 1024


def error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def read_json(request):
    if len(request.body) > MAX_BODY:
        raise services.BadRequest("request body too large")
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise services.BadRequest(f"malformed JSON: {exc}") from None


def seat_token(request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme == "Seat" and token.strip() else None


def game_payload(game: Game, request=None) -> dict:
    """The public view of a game: identical for everyone, whatever any seat has submitted but not resolved."""
    seats = {s.side: {"kind": s.kind, "bot": s.bot_level or None, "name": s.label, "claimed": s.is_claimed}
             for s in game.seats.all()}
    deadline = game.turn_deadline
    return {
        "id": game.id,
        "game": game.kind,
        "status": game.status,
        "turn": game.turn,
        "to_act": services.waiting_on(game),
        "state": game.state,
        "result": game.result or None,
        "ending": game.ending or None,
        "turns": [{"number": t.number, "actions": t.actions, "events": t.events}
                  for t in game.turns.order_by("number")],
        "seats": seats,
        "turn_seconds": game.turn_seconds,
        "deadline": deadline.isoformat() if deadline else None,
        "url": absolute(request, game.get_absolute_url()),
        "replay_url": absolute(request, replay_path(game)),
        "created": game.created.isoformat(),
        "source": game.source,
    }


def replay_path(game: Game) -> str:
    from django.urls import reverse
    return reverse("replay", args=[game.id])


def absolute(request, path: str) -> str:
    return request.build_absolute_uri(path) if request is not None else path


@csrf_exempt
@require_POST
def create(request):
    try:
        data = read_json(request)
        if not isinstance(data, dict):
            raise services.BadRequest('expected a JSON object like {"game": "ropasci360", "players": {...}}')
        created = services.create_game(data.get("game", "ropasci360"), data.get("players"),
                                       data.get("turn_seconds"), claim="all")
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    game = created.game
    seats = {s.side: ({"token": created.tokens[s.side]} if s.side in created.tokens else {"bot": s.bot_level})
             for s in game.seats.all()}
    return JsonResponse({"id": game.id, "url": absolute(request, game.get_absolute_url()),
                         "replay_url": absolute(request, replay_path(game)), "seats": seats}, status=201)


def _load_payload(game_id: str, request) -> dict:
    game = services.check_timeout(game_id)
    return game_payload(game, request)


@require_http_methods(["GET", "HEAD"])
async def detail(request, game_id: str):
    """The game; with ``?wait_turn=N``, held (up to 30 s) until N turns have resolved or the game ended."""
    wait = request.GET.get("wait_turn")
    try:
        if wait is None:
            return JsonResponse(await sync_to_async(_load_payload)(game_id, request))
        try:
            target = int(wait)
        except ValueError:
            return error(400, "wait_turn must be a whole number of turns")
        return JsonResponse(await wait_for_turn(game_id, target, request))
    except services.ServiceError as exc:
        return error(exc.status, exc.message)


async def wait_for_turn(game_id: str, target: int, request, timeout: float = WAIT_SECONDS) -> dict:
    """Listen on the game's group first, then read: no change can slip between the read and the wait."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    group = live.group_name(game_id)
    await layer.group_add(group, channel)
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            payload = await sync_to_async(_load_payload)(game_id, request)
            if payload["turn"] >= target or payload["status"] in ("finished", "aborted"):
                return payload
            remaining = deadline - loop.time()
            if remaining <= 0:
                return payload
            if payload["deadline"]:  # wake up for the turn clock too
                from django.utils.dateparse import parse_datetime
                from django.utils import timezone
                until = (parse_datetime(payload["deadline"]) - timezone.now()).total_seconds() + 0.1
                remaining = max(0.05, min(remaining, until))
            try:
                await asyncio.wait_for(layer.receive(channel), remaining)
            except asyncio.TimeoutError:
                pass
    finally:
        await layer.group_discard(group, channel)


@csrf_exempt
@require_POST
def actions(request, game_id: str):
    """Submit a seat's action: 202 accepted (waiting for the other seat), 200 when it resolved the turn."""
    try:
        game = services.get_game(game_id)
        token = seat_token(request)
        services.seat_for_token(game, token)  # 403 first, before looking at the body
        data = read_json(request)
        if not isinstance(data, dict) or "turn" not in data or "action" not in data:
            raise services.BadRequest('expected a JSON object {"turn": N, "action": [...]}')
        game, resolved = services.submit_action(game_id, token, data["turn"], data["action"])
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    game.refresh_from_db()
    body = {"status": "resolved" if resolved else "accepted", "turn": game.turn, "game": game_payload(game, request)}
    return JsonResponse(body, status=200 if resolved else 202)


@csrf_exempt
@require_POST
def resign(request, game_id: str):
    try:
        game = services.resign(game_id, seat_token(request))
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    return JsonResponse(game_payload(game, request))


@require_GET
def log_txt(request, game_id: str):
    """The game as a COMP30024 referee log: resolved turns, then the result line once finished."""
    try:
        game = services.get_game(game_id)
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    return HttpResponse(referee_log_text(game), content_type="text/plain; charset=utf-8")


def referee_log_text(game: Game) -> str:
    eg = services.engine_for(game)
    turns = [(eg.action_from_json(t["upper"], "upper"), eg.action_from_json(t["lower"], "lower"))
             for t in game.turns.order_by("number").values_list("actions", flat=True)]
    result = game.result if game.status == Game.Status.FINISHED else None
    return refereelog.write(turns, result) if turns or result else ""
