"""The HTTP API for programs (external bots, scripts, the course-style client in ``games/client.py``).

Thin views: parse and check the request's shape, call one service function, answer JSON. Errors are
``{"error": message}`` with the service's status code; nothing a rejected request sent is kept. Every game
is played the same way: ``"game"`` any registered name, seats named by the game; what a viewer sees of the
position is ``observation(seat)`` (the seat of the token sent, or a spectator's).
"""
from __future__ import annotations

import asyncio
import itertools
import json
import logging
import math
import threading
import weakref
from collections import Counter

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import prefetch_related_objects
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt

from games.live import broadcast
from games.read import gamelog
from games.guard import ratelimit, safejson
from games.play import services
from games.runtime.middleware import too_many
from games.models import Game

log = logging.getLogger(__name__)

WAIT_SECONDS = 30
MAX_BODY = safejson.MAX_BYTES


def error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def allow(*methods: str):
    """Only ``methods`` (HEAD with GET); any other gets a 405 JSON error with ``Allow``, never CSRF's HTML
    page: the API authenticates by seat token, not by cookie, so it needs no CSRF check."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())

    def refuse(request):
        response = error(405, f"{request.method} is not allowed here; use {' or '.join(sorted(allowed))}")
        response["Allow"] = ", ".join(sorted(allowed))
        return response

    def decorate(view):
        if asyncio.iscoroutinefunction(view):
            async def checked(request, *args, **kwargs):
                if request.method not in allowed:
                    return refuse(request)
                return await view(request, *args, **kwargs)
        else:
            def checked(request, *args, **kwargs):
                if request.method not in allowed:
                    return refuse(request)
                return view(request, *args, **kwargs)
        checked.__name__, checked.__doc__ = view.__name__, view.__doc__
        return csrf_exempt(checked)
    return decorate


def read_json(request):
    """The request body as JSON (size, nesting and number limits), BadRequest otherwise."""
    if int(request.META.get("CONTENT_LENGTH") or 0) > MAX_BODY:
        raise services.BadRequest(f"request body too large (the limit is {MAX_BODY} bytes)")
    try:
        return safejson.loads(request.body, max_bytes=MAX_BODY)
    except safejson.BadJSON as exc:
        raise services.BadRequest(str(exc)) from None


def seat_token(request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme == "Seat" and token.strip() else None


def game_payload(game: Game, request=None, seat: str | None = None) -> dict:
    """A viewer's view of a game: ``seat`` (None: a spectator) sees ``observation(seat)``; the same for
    everyone with the same seat, whatever any seat has submitted but not resolved. The seat to act also
    gets its ``legal_actions``."""
    seats = {s.side: {"kind": s.kind, "bot": s.bot_level or None, "name": s.label, "claimed": s.is_claimed}
             for s in game.seats.all()}
    deadline = game.turn_deadline
    state = services.current_state(game)
    to_act = services.waiting_on(game)
    payload = {
        "id": game.id,
        "game": game.kind,
        "params": game.params,
        "status": game.status,
        "turn": game.turn,
        "to_act": to_act,
        "state": state.observation(seat),
        "result": game.result or None,
        "outcome": game.outcome,
        "ending": game.ending or None,
        "turns": gamelog.records_so_far(game, seat),
        "seats": seats,
        "turn_seconds": game.turn_seconds,
        "deadline": deadline.isoformat() if deadline else None,
        "url": absolute(request, game.get_absolute_url()),
        "replay_url": absolute(request, replay_path(game)),
        "created": game.created.isoformat(),
        "source": game.source,
    }
    if seat is not None:
        payload["seat"] = seat
        if seat in to_act:
            payload.update(legal_payload(services.engine_for(game), state, seat))
    return payload


LISTED_PRODUCT = 1000  # a product of parts with at most this many actions is also listed in "legal_actions"


def legal_payload(eg, state, seat: str) -> dict:
    """``legal_actions``; for a state whose legal actions are a product of parts, ``legal_action_parts`` (per
    part, its options' JSON) and ``legal_actions`` only when the product has at most ``LISTED_PRODUCT``."""
    parts = state.legal_action_parts(seat)
    if parts is None:
        return {"legal_actions": [eg.action_to_json(a) for a in state.legal_actions(seat)]}
    out = {"legal_action_parts": [[eg.part_to_json(p) for p in options] for options in parts]}
    if math.prod(len(options) for options in parts) <= LISTED_PRODUCT:
        out["legal_actions"] = [list(a) for a in itertools.product(*out["legal_action_parts"])]
    return out


def replay_path(game: Game) -> str:
    from django.urls import reverse
    return reverse("replay", args=[game.id])


def absolute(request, path: str) -> str:
    return request.build_absolute_uri(path) if request is not None else path


@allow("POST")
def create(request):
    try:
        data = read_json(request)
        if not isinstance(data, dict):
            raise services.BadRequest('expected a JSON object like {"game": "ropasci360", "players": {...}}')
        created = services.create_game(data.get("game", "ropasci360"), data.get("players"),
                                       data.get("turn_seconds"), params=data.get("params"), claim="all",
                                       bot_seconds=data.get("bot_seconds"))
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    game = created.game
    seats = {s.side: ({"token": created.tokens[s.side]} if s.side in created.tokens else {"bot": s.bot_level})
             for s in game.seats.all()}
    return JsonResponse({"id": game.id, "url": absolute(request, game.get_absolute_url()),
                         "replay_url": absolute(request, replay_path(game)), "seats": seats}, status=201)


def _load_payload_and_let_go(game_id: str, request) -> dict:
    """``_load_payload`` for a long-poll: its database connection is closed at once, not held through the wait
    (hundreds of waiting clients would otherwise hold as many PostgreSQL connections)."""
    try:
        return _load_payload(game_id, request)
    finally:
        if not connection.in_atomic_block:
            connection.close()


def _load_payload(game_id: str, request) -> dict:
    game = services.check_timeout(game_id)
    prefetch_related_objects([game], "seats")  # read once for the token check and the payload
    token = seat_token(request)
    seat = services.seat_for_token(game, token).side if token else None
    return game_payload(game, request, seat)


class Slots:
    """Long-polls held open in this process, counted per key (a seat, an address). A slot is taken at the
    check, in the request's thread, so that simultaneous requests cannot all pass it, and given back when
    the wait ends (on the loop) or when its body is dropped unread: under a lock, as two threads use it."""

    def __init__(self):
        self._lock = threading.Lock()
        self.held = Counter()

    def take(self, keys: list[tuple[str, int]]):
        """A function that gives the slots back (once, however often called), or None if a key is full."""
        with self._lock:
            if any(self.held[key] >= cap for key, cap in keys):
                return None
            for key, _ in keys:
                self.held[key] += 1
        given = []

        def give_back():
            with self._lock:
                if not given:
                    given.append(True)
                    for key, _ in keys:
                        self.held[key] -= 1
                        if self.held[key] <= 0:
                            del self.held[key]
        return give_back


_polls = Slots()


@allow("GET")
def detail(request, game_id: str):
    """The game; with ``?wait_turn=N``, held (up to 30 s) until N turns have resolved or the game ended.
    With ``Authorization: Seat <token>`` it is that seat's view (with its legal actions when it is to act).

    A sync view (its whole request is one thread hop, ``games.runtime.asgihandler``): what can be answered at once
    is; a wait is the body of a streamed response, produced on the server's loop (``_waiting``), so that a
    waiting client holds no thread. Every check (400, 403, 404, 429) is made before the wait. Not counted
    against the address's reads: a wait, and the first read of each turn (``wait_turn`` reached) by a seat, or
    by an address that sends no seat token."""
    address = ratelimit.client_address(request.META)
    wait = request.GET.get("wait_turn")
    refused = ratelimit.over("read", address) if wait is None else 0
    if refused:  # (a wait may be free: it is judged once read)
        return too_many(request, refused)
    try:
        target = None
        if wait is not None:
            try:
                target = int(wait) if len(wait) < 12 else None
            except ValueError:
                target = None
            if target is None:
                raise services.BadRequest("wait_turn must be a whole number of turns")
        payload = _load_payload(game_id, request)
    except services.ServiceError as exc:
        ratelimit.hit("read", address)
        return error(exc.status, exc.message)
    seat = payload.get("seat")
    if target is None or _reached(payload, target):
        # The first read of each new turn is free: a seat's, or (a program that sends no token) the address's
        # in this game. Both are keys a client cannot mint at will: a game and a seat or an address of its own.
        reader = f"{game_id}:{seat}" if seat is not None else f"{game_id}:@{address}"
        if target is None or not ratelimit.first_read(reader, target):
            refused = ratelimit.hit("read", address)
            if refused:
                return too_many(request, refused)
        return JsonResponse(payload)
    caps = [(f"address:{address}", settings.LONG_POLLS_PER_ADDRESS)]
    if seat is not None:
        caps.append((f"seat:{game_id}:{seat}", settings.LONG_POLLS_PER_SEAT))
    give_back = _polls.take(caps)
    if give_back is None:
        response = error(429, f"too many waiting requests (at most {settings.LONG_POLLS_PER_SEAT} per seat and "
                              f"{settings.LONG_POLLS_PER_ADDRESS} per client address)")
        response["Retry-After"] = "1"
        return response
    body = _waiting(game_id, target, request, give_back)
    weakref.finalize(body, give_back)  # a body never started (its client gone first) gives its slots back too
    return StreamingHttpResponse(body, content_type="application/json")


def _reached(payload: dict, target: int) -> bool:
    return payload["turn"] >= target or payload["status"] in ("finished", "aborted")


async def _waiting(game_id: str, target: int, request, give_back):
    """The body of a long-poll: the game once ``target`` turns have resolved (or it ended, or the wait
    timed out); its slots are given back when it ends. A game that became unreadable meanwhile (deleted)
    gives ``{"error": ...}``."""
    try:
        try:
            payload = await wait_for_turn(game_id, target, request)
        except services.ServiceError as exc:
            payload = {"error": exc.message}
        yield json.dumps(payload, cls=DjangoJSONEncoder).encode()
    finally:
        give_back()


async def wait_for_turn(game_id: str, target: int, request, timeout: float = WAIT_SECONDS) -> dict:
    """Listen on the game's group first, then read: no change can slip between the read and the wait.
    Without a working channel layer (Redis down) it reads again every half second instead."""
    layer = get_channel_layer()
    group = broadcast.group_name(game_id)
    channel = None
    try:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
    except Exception as exc:
        log.warning("wait_turn on game %s without the channel layer: %r", game_id, exc)
        channel = None
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            payload = await sync_to_async(_load_payload_and_let_go)(game_id, request)
            if _reached(payload, target):
                return payload
            remaining = deadline - loop.time()
            if remaining <= 0:
                return payload
            if payload["deadline"]:  # wake up for the turn clock too
                from django.utils.dateparse import parse_datetime
                from django.utils import timezone
                until = (parse_datetime(payload["deadline"]) - timezone.now()).total_seconds() + 0.1
                remaining = max(0.05, min(remaining, until))
            if channel is None:
                await asyncio.sleep(min(remaining, 0.5))
                continue
            try:
                await asyncio.wait_for(layer.receive(channel), remaining)
            except asyncio.TimeoutError:
                pass
            except Exception:  # the layer failed while waiting: read again by polling
                channel = None
    finally:
        if channel is not None:
            try:
                await layer.group_discard(group, channel)
            except Exception:
                pass


@allow("POST")
def actions(request, game_id: str):
    """Submit a seat's action: 202 accepted (waiting for the other seat), 200 when it resolved the turn."""
    token = seat_token(request)
    try:
        data = read_json(request)
        if not isinstance(data, dict) or "turn" not in data or "action" not in data:
            raise services.BadRequest('expected a JSON object {"turn": N, "action": ...}')
    except services.BadRequest as bad:
        try:  # the game and the token are judged before the body: 404 and 403 come first
            services.seat_for_token(services.get_game(game_id), token)
        except services.ServiceError as exc:
            return error(exc.status, exc.message)
        return error(bad.status, bad.message)
    try:
        game, resolved = services.submit_action(game_id, token, data["turn"], data["action"])
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    ratelimit.advanced(request)  # an accepted move is never counted: play limits itself
    seat = services.seat_for_token(game, token).side  # the game as saved, its seats read with the token check
    body = {"status": "resolved" if resolved else "accepted", "turn": game.turn,
            "game": game_payload(game, request, seat)}
    return JsonResponse(body, status=200 if resolved else 202)


@allow("POST")
def resign(request, game_id: str):
    token = seat_token(request)
    try:
        game = services.resign(game_id, token)
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    ratelimit.advanced(request)
    return JsonResponse(game_payload(game, request, services.seat_for_token(game, token).side))


@allow("GET")
def log_txt(request, game_id: str):
    """The game in its log format (a COMP30024 referee log where the game has one), for everyone: only
    what a spectator may see."""
    try:
        game = services.get_game(game_id)
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    return HttpResponse(gamelog.log_text(game), content_type="text/plain; charset=utf-8")
