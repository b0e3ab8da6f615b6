import logging

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html")


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


def new_game(request):
    raise NotImplementedError


def game_page(request, game_id):
    raise NotImplementedError


def join(request, game_id):
    raise NotImplementedError


def act(request, game_id):
    raise NotImplementedError


def resign(request, game_id):
    raise NotImplementedError
