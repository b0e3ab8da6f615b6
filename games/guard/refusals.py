"""The answers of refusal every entry point gives alike: 429 with ``Retry-After`` (too many requests), 400 for
a request that cannot be read, and whether an error means the database was too busy (then 503: nothing was
changed, trying again is safe). JSON for the API, a short page for the rest."""
from __future__ import annotations

from django.db import OperationalError, connection
from django.http import HttpResponse, JsonResponse
from django.utils.html import escape


def refuse(request, status: int, message: str) -> HttpResponse:
    """``{"error": message}`` for the API, a short page for the rest."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": message}, status=status)
    return HttpResponse(f"<!doctype html><title>Bad request</title><p>{escape(message[0].upper() + message[1:])}."
                        f"</p>", status=status)


def database_busy(exception: BaseException) -> bool:
    """The database could not answer in time or at all: a lock or a pool that timed out, a lost connection
    (SQLite's other OperationalErrors, such as a missing table, are bugs: they stay 500s)."""
    if not isinstance(exception, OperationalError):
        return False
    return connection.vendor != "sqlite" or "locked" in str(exception) or "busy" in str(exception)


def too_many(request, wait: float) -> HttpResponse:
    seconds = int(wait + 0.999)
    message = f"too many requests: try again in {seconds} s"
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": message}, status=429)
    else:  # a page, or htmx (whose page script shows the wait from Retry-After)
        response = HttpResponse(f"<!doctype html><title>Too many requests</title><p>{escape(message.capitalize())}."
                                f"</p>", status=429)
    response["Retry-After"] = str(seconds)
    return response
