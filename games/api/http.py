"""HTTP plumbing of the API, shared by every app's endpoints: JSON errors, the allowed methods (no CSRF: the API
authenticates by seat token or API key, never by cookie), the request body as safe JSON, the seat token, and
absolute URLs."""
from __future__ import annotations

import asyncio

from django.http import JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from games.guard import safejson
from games.models import Game
from games.play import services

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


def replay_path(game: Game) -> str:
    return reverse("replay", args=[game.id])


def absolute(request, path: str) -> str:
    return request.build_absolute_uri(path) if request is not None else path
