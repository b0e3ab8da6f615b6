"""A game's board as a picture for link previews: ``/games/<id>/preview.svg`` and ``preview.png``
(``?turn=N[&flip=1]``, 1200x630, the Open Graph / Twitter card image), and the card's values for any page
about a game (``share_meta``, read by ``templates/games/replay_meta.html``). The animated GIF
(``games/web/replaygif.py``) draws its frames with ``preview_svg_text``.

The PNG is the SVG rasterised by CairoSVG, which needs the system's libcairo2; without it PNG previews are
off (503) and pages leave the card's image out.
"""
from __future__ import annotations

import logging
import textwrap

from django.core.cache import cache
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.views.decorators.http import require_safe

from games.engine.ui import ui_for
from games.models import Game
from games.play import importer, services
from games.read import replay
from games.web import previewcss
from games.web.replayparams import flip_param, game_or_404, turn_param

log = logging.getLogger(__name__)

PREVIEW_SIZE = (1200, 630)

_cairosvg_ok: bool | None = None


def preview_available() -> bool:
    """Whether PNG previews can be drawn here (CairoSVG needs the system's libcairo2)."""
    global _cairosvg_ok
    if _cairosvg_ok is None:
        try:
            import cairosvg  # noqa: F401
            _cairosvg_ok = True
        except (ImportError, OSError) as exc:
            log.warning("board previews as PNG are off: cannot load CairoSVG (%s); install libcairo2", exc)
            _cairosvg_ok = False
    return _cairosvg_ok


def share_meta(request, game: Game, turn: int | None = None, *, page_url: str | None = None) -> dict:
    """Open Graph / Twitter card values for a page about ``game`` (for templates/games/replay_meta.html)."""
    names = replay.seat_names(game)
    ui = ui_for(services.engine_for(game))
    n = game.turn if turn is None else turn
    image = reverse("preview_png", args=[game.id]) + f"?turn={n}"
    title = ui.game.info.title
    players = " vs ".join(replay.who(ui, s, names[s]) for s in ui.game.info.players)
    return {
        "title": f"{' vs '.join(names[s] for s in ui.game.info.players)} · {title}",
        "description": replay.summary_line(game, names),
        "url": request.build_absolute_uri(page_url or request.get_full_path()),
        "image": request.build_absolute_uri(image) if preview_available() else "",
        "image_alt": f"The {title} board after turn {n}: {players}",
        "image_width": PREVIEW_SIZE[0], "image_height": PREVIEW_SIZE[1],
    }


def preview_svg_text(game: Game, n: int, flipped: bool = False, *, pos: dict | None = None,
                     names: dict[str, str] | None = None) -> str:
    """A standalone 1200x630 SVG of the board after turn ``n`` with a title: colours are inlined (a
    ``<style>`` of literal values), since the site's CSS does not reach a rasteriser. ``pos`` and ``names``:
    the position and seat names if already at hand (``games.web.replaygif`` draws every turn)."""
    names = names or replay.seat_names(game)
    ui = ui_for(services.engine_for(game))
    sides = list(ui.game.info.players)
    pos = pos or replay.position_at(game, n, flipped)
    width, height = PREVIEW_SIZE
    legend = textwrap.wrap(ui.legend, 50)[:3]  # the whole legend: a preview without it cannot be read
    outcome = replay.outcome_line(game)
    lines = textwrap.wrap(outcome[:1].upper() + outcome[1:], 34)
    most = 4 if len(legend) < 3 else 3
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][:33] + "…"
    if len(sides) == 2:
        seat_lines = [{"text": _short(names[sides[0]]), "y": 210, "dot_y": 194},
                      {"text": _short(names[sides[1]]), "y": 322, "dot_y": 306}]
    else:
        shown = sides if len(sides) <= 4 else sides[:3]
        seat_lines = [{"text": _short(names[s]), "y": 200 + 44 * i, "dot_y": 188 + 44 * i} for i, s in enumerate(shown)]
        if len(sides) > len(shown):
            seat_lines.append({"text": f"and {len(sides) - len(shown)} more", "y": 200 + 44 * 3, "dot_y": 188 + 44 * 3})
    return render_to_string("games/replay_preview.html", {
        "pos": pos, "game": game, "n": n, "total": game.turn, "ui": ui, "seat_lines": seat_lines,
        "board_css": previewcss.board_css(ui.stylesheet),
        "outcome_lines": [{"text": text, "y": 450 + 32 * i} for i, text in enumerate(lines)],
        "legend_lines": [{"text": text, "y": height - 30 - 26 * (len(legend) - 1 - i)} for i, text in enumerate(legend)],
        "width": width, "height": height,
        "source": f"Imported log · {ui.game.info.title}" if game.source == Game.Source.IMPORTED else ui.game.info.title,
    })


def _short(name: str, limit: int = 17) -> str:
    name = importer.clean_name(name)
    return name if len(name) <= limit else name[:limit - 1] + "…"


def _preview_response(request, game_id, fmt: str):
    game = game_or_404(game_id)
    n, _ = turn_param(request, game)
    flipped = flip_param(request)
    if fmt == "png" and not preview_available():
        return HttpResponse("Board images are not available on this server (CairoSVG needs libcairo2).\n",
                            status=503, content_type="text/plain; charset=utf-8")
    key = f"ropasci:preview:{fmt}:{game.id}:{n}:{int(flipped)}:{game.turn}:{game.status}"
    body = cache.get(key)
    if body is None:
        svg = preview_svg_text(game, n, flipped)
        if fmt == "png":
            import cairosvg
            try:
                body = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=PREVIEW_SIZE[0],
                                        output_height=PREVIEW_SIZE[1])
            except Exception:  # a drawing the rasteriser cannot handle: say so, never a 500
                log.exception("preview of game %s turn %s could not be rasterised", game.id, n)
                return HttpResponse("This board image could not be drawn.\n", status=503,
                                    content_type="text/plain; charset=utf-8")
        else:
            body = svg.encode("utf-8")
        cache.set(key, body, 24 * 3600)
    response = HttpResponse(body, content_type="image/png" if fmt == "png" else "image/svg+xml")
    response["Cache-Control"] = f"public, max-age={86400 if game.is_over else 60}"
    return response


@require_safe
def preview_png(request, game_id):
    return _preview_response(request, game_id, "png")


@require_safe
def preview_svg(request, game_id):
    return _preview_response(request, game_id, "svg")


urlpatterns = [
    path("games/<str:game_id>/preview.png", preview_png, name="preview_png"),
    path("games/<str:game_id>/preview.svg", preview_svg, name="preview_svg"),
]
