"""The import page, ``/import``: upload (or paste) a game log and see its replay (``manage.py importlog`` does
the same from a shell; both through ``games/play/importer.py``).

The page lists the log formats it reads from the registry: every game whose package has a ``logs`` module,
by the game's title, with the format's ``EXAMPLE`` line and ``NOTE`` (both optional).
"""
from __future__ import annotations

from functools import lru_cache

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods

from games.engine import game_module, load_game
from games.engine.registry import names_in_order
from games.engine.ui import ui_for
from games.models import Game
from games.play import importer

# Room for the form's other fields and the multipart framing around a file at the limit.
MAX_REQUEST = 2 * importer.MAX_BYTES + 64 * 1024


@lru_cache(maxsize=1)
def log_formats() -> tuple[dict, ...]:
    """The games whose logs can be imported, in the registry's order: title, example line, note, and the
    names of the first two seats (the form names two players)."""
    found = []
    for name in names_in_order():
        logs = game_module(name, "logs")
        if logs is None:
            continue
        game = load_game(name)
        ui = ui_for(game)
        found.append({"title": game.info.title, "example": getattr(logs, "EXAMPLE", ""),
                      "note": getattr(logs, "NOTE", ""),
                      "seats": [ui.seat_name(side) for side in game.info.players[:2]]})
    return tuple(found)


def _page_context() -> dict:
    formats = log_formats()
    return {"limit_kib": importer.MAX_BYTES // 1024, "error": "", "values": {}, "formats": formats,
            "first_seats": ", ".join(f["seats"][0] for f in formats),
            "second_seats": ", ".join(f["seats"][-1] for f in formats)}


@require_http_methods(["GET", "HEAD", "POST"])
def import_page(request):
    context = _page_context()
    status = 200
    if request.method == "POST":
        try:
            imported = _import_from_request(request, context)
        except importer.LogImportError as exc:
            context["error"] = exc.message
            status = 413 if "too large" in exc.message else 400
        else:
            for message in imported.messages:
                messages.info(request, message)
            return redirect(reverse("replay", args=[imported.game.id]), permanent=False)
    context["recent"] = (Game.objects.filter(source=Game.Source.IMPORTED).prefetch_related("seats")
                         .order_by("-created")[:8])
    return render(request, "games/import.html", context, status=status)


def _import_from_request(request, context) -> importer.Imported:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > MAX_REQUEST:
        raise importer.LogImportError(f"the upload is too large ({length // 1024} KiB); "
                                      f"the limit is {importer.MAX_BYTES // 1024} KiB")
    try:
        post, files = request.POST, request.FILES
    except Exception as exc:  # malformed multipart, too many fields, ...
        raise importer.LogImportError(f"the upload could not be read ({exc.__class__.__name__})") from None
    names = [importer.clean_name(post.get(field, "")) for field in ("upper", "lower")]
    context["values"] = {"upper": names[0], "lower": names[1], "text": post.get("text", "")[:importer.MAX_BYTES]}
    upload = files.get("log")
    if upload is not None:
        if upload.size is not None and upload.size > importer.MAX_BYTES:
            raise importer.LogImportError(f"the file is too large ({upload.size // 1024} KiB); "
                                          f"the limit is {importer.MAX_BYTES // 1024} KiB")
        data = upload.read(importer.MAX_BYTES + 1)
        filename = upload.name
    elif post.get("text", "").strip():
        data = post["text"].encode("utf-8", "replace")
        filename = None
    else:
        raise importer.LogImportError("choose a referee log file to upload, or paste a log")
    try:
        return importer.import_bytes(data, filename=filename, names=names)
    except importer.LogImportError as exc:
        if upload is not None:
            raise importer.LogImportError(f"{importer.clean_name(upload.name) or 'the file'}: {exc.message}",
                                          line=exc.line) from None
        raise


urlpatterns = [
    path("import", import_page, name="import_log"),
]
