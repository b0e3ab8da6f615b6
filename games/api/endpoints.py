"""The HTTP API for programs (external bots, scripts, the client in ``games/client.py``).

Thin views: parse and check the request's shape, call one service function, answer JSON. Errors are
``{"error": message}`` with the service's status code; nothing a rejected request sent is kept. Every game
is played the same way: ``"game"`` any registered name, seats named by the game; what a viewer sees of the
position is ``observation(seat)`` (the seat of the token sent, or a spectator's).
"""
from __future__ import annotations

import weakref

from django.conf import settings
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse

from games.api.http import absolute, allow, error, read_json, replay_path, seat_token
from games.api.longpoll import load_payload, polls, reached, waiting
from games.api.payloads import game_payload
from games.engine.registry import default_name
from games.guard import ratelimit
from games.guard.refusals import too_many
from games.play import services
from games.read import gamelog


@allow("POST")
def create(request):
    try:
        data = read_json(request)
        if not isinstance(data, dict):
            raise services.BadRequest(f'expected a JSON object like {{"game": "{default_name()}", "players": {{...}}}}')
        created = services.create_game(data.get("game", default_name()), data.get("players"),
                                       data.get("turn_seconds"), params=data.get("params"), claim="all",
                                       bot_seconds=data.get("bot_seconds"))
    except services.ServiceError as exc:
        return error(exc.status, exc.message)
    game = created.game
    seats = {s.side: ({"token": created.tokens[s.side]} if s.side in created.tokens else {"bot": s.bot_level})
             for s in game.seats.all()}
    return JsonResponse({"id": game.id, "url": absolute(request, game.get_absolute_url()),
                         "replay_url": absolute(request, replay_path(game)), "seats": seats}, status=201)


@allow("GET")
def detail(request, game_id: str):
    """The game; with ``?wait_turn=N``, held (up to 30 s) until N turns have resolved or the game ended.
    With ``Authorization: Seat <token>`` it is that seat's view (with its legal actions when it is to act).

    A sync view (its whole request is one thread hop, ``games.runtime.asgihandler``): what can be answered at once
    is; a wait is the body of a streamed response, produced on the server's loop (``longpoll.waiting``), so that a
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
        payload = load_payload(game_id, request)
    except services.ServiceError as exc:
        ratelimit.hit("read", address)
        return error(exc.status, exc.message)
    seat = payload.get("seat")
    if target is None or reached(payload, target):
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
    give_back = polls.take(caps)
    if give_back is None:
        response = error(429, f"too many waiting requests (at most {settings.LONG_POLLS_PER_SEAT} per seat and "
                              f"{settings.LONG_POLLS_PER_ADDRESS} per client address)")
        response["Retry-After"] = "1"
        return response
    body = waiting(game_id, target, request, give_back)
    weakref.finalize(body, give_back)  # a body never started (its client gone first) gives its slots back too
    return StreamingHttpResponse(body, content_type="application/json")


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
