"""Middleware: static files (WhiteNoise, made async-capable), a 400 for any request carrying NUL (which
PostgreSQL cannot store or compare), rate limits on the requests that change things (``games.guard.ratelimit``),
answered with 429 and ``Retry-After`` before any view runs, and 503 with ``Retry-After`` when the database is
too busy to answer (a lock or a pool that timed out under load: nothing was changed).

Every middleware here must be async-capable: one sync-only middleware makes Django run the whole chain in the
one thread that serves sync code, and an async view under it (a challenge's long-poll, held up to 30 s) then holds
that thread, stalling every other request of the process.
"""
from __future__ import annotations

import hashlib
import logging

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpResponse, JsonResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.urls import Resolver404, resolve
from django.utils.html import escape
from whitenoise.middleware import WhiteNoiseMiddleware

from games.guard import ratelimit
from games.guard.refusals import database_busy, refuse, too_many
from games.play import seatsession

log = logging.getLogger(__name__)
BUSY_RETRY_SECONDS = 2

# URL name -> the kind of limit its POSTs count against
KINDS = {
    "new_game": "create", "api_games": "create", "api_challenges": "create", "challenge_create": "create",
    "act": "act", "api_actions": "act", "resign": "act", "api_resign": "act", "join": "act",
    "import_log": "import", "hint": "hint",
}


def _seat_key(request, kwargs) -> str | None:
    """The seat a move comes from: the API's token (hashed) or this browser's seat in the game."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Seat "):
        return "token:" + hashlib.sha256(header[5:].strip().encode()).hexdigest()
    game_id = kwargs.get("game_id")
    seat = seatsession.recall(request.session, game_id) if game_id and hasattr(request, "session") else None
    return f"seat:{game_id}:{seat[0]}" if seat else None


class Limited:
    """One limited request: refused before its view if its client is over a limit; counted before its view
    (creations, imports, hints) or, for moves, after it and only if it did not move the game."""

    def __init__(self, kind: str, address: str, seat: str | None = None):
        self.kind, self.address, self.seat = kind, address, seat

    def refusal(self, request) -> HttpResponse | None:
        if self.kind != "act":
            wait = ratelimit.hit(self.kind, self.address)
        else:
            wait = ratelimit.over("act-address", self.address) or (self.seat and ratelimit.over("act", self.seat))
        return too_many(request, wait) if wait else None

    def settle(self, request, response) -> None:
        """A move, join or resignation that moved nothing costs its address and its seat one request (the
        seat only if it exists: a made-up token makes no entry in the counts)."""
        if self.kind != "act" or getattr(request, "advanced_game", False):
            return
        ratelimit.hit("act-address", self.address)
        if self.seat and response.status_code not in (403, 404):
            ratelimit.hit("act", self.seat)


class AsyncCapable:
    """Runs ``__acall__`` in an async chain and ``sync_call`` in a sync one (Django picks by the flags)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        return self.__acall__(request) if self.is_async else self.sync_call(request)


class StaticFilesMiddleware(AsyncCapable, WhiteNoiseMiddleware):
    """WhiteNoise's middleware, async-capable: a static file is found in a dict and answered at once; any other
    request goes on down the chain without a thread hop."""

    def __init__(self, get_response):
        WhiteNoiseMiddleware.__init__(self, get_response)
        AsyncCapable.__init__(self, get_response)

    def sync_call(self, request):
        return WhiteNoiseMiddleware.__call__(self, request)

    async def __acall__(self, request):
        static_file = self.find_file(request.path_info) if self.autorefresh else self.files.get(request.path_info)
        if static_file is not None:
            return self.serve(static_file, request)
        return await self.get_response(request)


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
NUL = "\x00"


def _any_nul(pairs) -> bool:
    return any(NUL in key or any(NUL in value for value in values) for key, values in pairs)


def _is_form(request) -> bool:
    return request.method == "POST" and request.content_type in FORM_TYPES


def _form_holds_nul(request) -> bool:
    """Whether a form field's name or value holds NUL. A body Django cannot parse is left to the view, which
    meets the same error (or, for a multipart body, an empty form) as without this check."""
    if not _is_form(request):
        return False
    try:
        return _any_nul(request.POST.lists()) or any(NUL in (f.name or "") for f in request.FILES.values())
    except (BadRequest, SuspiciousOperation, MultiPartParserError, UnreadablePostError):
        return False


class NulRefusalMiddleware(AsyncCapable):
    """400 for a request whose path, query string or form holds NUL (``%00``): PostgreSQL refuses NUL in any
    string, so an id, a name or an admin filter with one made a 500 wherever it reached a query. No URL, name
    or form of the site needs NUL. JSON bodies are checked where they are decoded (``safejson``); a cookie
    holding NUL is ignored, as if not sent (refusing it would lock out a browser that was given one)."""

    MESSAGE = "a NUL character (%00) is not allowed in a URL, a name or a form"

    def sync_call(self, request):
        return self.refusal(request) or self.form_refusal(request) or self.get_response(request)

    async def __acall__(self, request):
        refused = self.refusal(request)
        if refused is None and _is_form(request):  # reading a form's body is blocking I/O
            refused = await sync_to_async(self.form_refusal)(request)
        return refused or await self.get_response(request)

    def refusal(self, request) -> HttpResponse | None:
        for name in [name for name, value in request.COOKIES.items() if NUL in name or NUL in value]:
            del request.COOKIES[name]
        if NUL in request.path or _any_nul(request.GET.lists()):
            return refuse(request, 400, self.MESSAGE)
        return None

    def form_refusal(self, request) -> HttpResponse | None:
        return refuse(request, 400, self.MESSAGE) if _form_holds_nul(request) else None


class NulCookieGuard:
    """ASGI middleware for WebSockets, between Channels' cookie parsing and its session: a cookie holding NUL
    is dropped, as ``NulRefusalMiddleware`` drops it for HTTP (its session lookup made a 500 on PostgreSQL)."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        cookies = scope.get("cookies") or {}
        if any(NUL in name or NUL in value for name, value in cookies.items()):
            scope = {**scope, "cookies": {name: value for name, value in cookies.items()
                                          if NUL not in name and NUL not in value}}
        return await self.inner(scope, receive, send)


class RateLimitMiddleware(AsyncCapable):
    """Async-capable, so that an async view (a challenge's long-poll) is never run inside the one thread that
    serves sync code; the checks (cache and session reads) run in that thread only for POSTs."""

    def sync_call(self, request):
        limited = self.limited(request)
        refused = limited and limited.refusal(request)
        if refused:
            return refused
        response = self.get_response(request)
        if limited:
            limited.settle(request, response)
        return response

    async def __acall__(self, request):
        limited = None
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            limited = await sync_to_async(self.limited)(request)
            refused = limited and await sync_to_async(limited.refusal)(request)
            if refused:
                return refused
        response = await self.get_response(request)
        if limited:
            await sync_to_async(limited.settle)(request, response)
        return response

    def limited(self, request) -> Limited | None:
        """What limits this request counts against (None: none)."""
        if request.method in ("GET", "HEAD", "OPTIONS") or ratelimit.scale() <= 0:
            return None
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        kind = KINDS.get(match.url_name)
        if kind is None:
            return None
        address = ratelimit.client_address(request.META)
        return Limited(kind, address, _seat_key(request, match.kwargs) if kind == "act" else None)


class OverloadMiddleware(AsyncCapable):
    """A view that failed because the database was too busy (SQLite's write lock not had within its timeout,
    PostgreSQL's pool exhausted) answers 503 and ``Retry-After`` instead of a 500: its transaction was rolled
    back, so trying again is safe."""

    def sync_call(self, request):
        return self.get_response(request)

    async def __acall__(self, request):
        return await self.get_response(request)

    def process_exception(self, request, exception):
        if not database_busy(exception):
            return None
        log.warning("%s %s: database busy: %s", request.method, request.path, exception)
        message = "the server is busy: try again in a moment"
        if request.path.startswith("/api/"):
            response = JsonResponse({"error": message}, status=503)
        else:
            response = HttpResponse(f"<!doctype html><title>Busy</title><p>{escape(message.capitalize())}.</p>",
                                    status=503)
        response["Retry-After"] = str(BUSY_RETRY_SECONDS)
        return response
