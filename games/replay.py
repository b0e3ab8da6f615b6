"""The replay viewer, its embed, exports (JSON; the referee log is ``api.log_txt``), the board preview
image for link previews, and importing referee logs (the upload page; ``manage.py importlog``).

Routes (``urlpatterns`` below, appended by ``games/urls.py`` after its own ``games/<id>/replay``):

    /games/<id>/replay[?turn=N&flip=1]          the viewer (server-rendered at turn N; default: the last turn)
    /games/<id>/replay/board?turn=N[&flip=1]    the position after turn N: the shared board SVG and a caption
    /games/<id>/replay/panel                    status, move list and material chart (a live replay refreshes them)
    /games/<id>/export.json                     every turn's actions, battles and the state after it
    /games/<id>/preview.png?turn=N[&flip=1]     the board as a 1200x630 PNG (Open Graph / Twitter card image)
    /games/<id>/preview.svg?turn=N[&flip=1]     the same picture as SVG
    /embed/games/<id>[?turn=N]                  the viewer without the site's chrome, frameable
    /import                                     upload (or paste) a referee log
"""
from __future__ import annotations

import logging
import os
import textwrap

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_http_methods, require_safe

from . import board, importer, services
from .models import Game

log = logging.getLogger(__name__)

SIDES = ("upper", "lower")
SYMBOL_NAMES = board.SYMBOL_NAMES
MATERIAL_MAX = 9  # tokens on the board plus throws left start at 9 and never grow
PREVIEW_SIZE = (1200, 630)
SPEEDS = ((0.5, "0.5×"), (1, "1×"), (2, "2×"), (4, "4×"), (8, "8×"))


# --- reading a game -----------------------------------------------------------------------------------

def _game_or_404(game_id: str) -> Game:
    try:
        return services.get_game(game_id)
    except services.NotFound:
        raise Http404(f"no game {game_id!r}") from None


def _turn_param(request, game: Game) -> tuple[int, bool]:
    """The ``turn`` asked for, clamped to 0..game.turn (default: the last); and whether it was in range."""
    raw = request.GET.get("turn")
    if raw is None or raw == "":
        return game.turn, True
    try:
        n = int(raw)
    except (TypeError, ValueError):
        return game.turn, False
    clamped = max(0, min(n, game.turn))
    return clamped, clamped == n


def _flip_param(request) -> bool:
    return request.GET.get("flip", "") in ("1", "true", "yes", "on")


def history(game: Game) -> tuple[list[dict], list[dict]]:
    """All resolved turns (number, actions, events) and the states after 0..T turns, folded once."""
    eg = services.engine_for(game)
    state = eg.new_initial_state()
    states = [state.to_json()]
    turns = list(game.turns.order_by("number").values("number", "actions", "events"))
    for t in turns:
        state.apply_actions({side: eg.action_from_json(a, side) for side, a in t["actions"].items()})
        states.append(state.to_json())
    return turns, states


def seat_names(game: Game) -> dict[str, str]:
    names = {side: side for side in SIDES}
    for seat in game.seats.all():
        names[seat.side] = seat.label
    return names


# --- words ------------------------------------------------------------------------------------------

def hex_text(h) -> str:
    return f"({h[0]}, {h[1]})"


def action_parts(side: str, action) -> dict:
    """A canonical JSON action as words for the move list: verb, symbol letter (throws), from, to."""
    kind = action[0]
    if kind == "THROW":
        symbol = action[1]
        return {"verb": "throw", "symbol": symbol.upper() if side == "upper" else symbol,
                "symbol_name": SYMBOL_NAMES.get(symbol, symbol), "src": None, "dst": hex_text(action[2])}
    return {"verb": kind.lower(), "symbol": None, "symbol_name": None, "src": hex_text(action[1]),
            "dst": hex_text(action[2])}


def action_words(side: str, action) -> str:
    p = action_parts(side, action)
    if p["verb"] == "throw":
        return f"throws {p['symbol_name']} to {p['dst']}"
    return f"{p['verb']}s {p['src']} → {p['dst']}"


def battle_words(event: dict) -> str:
    lost = ", ".join(f"{board.PLAYER_NAMES.get(d['player'], d['player'])} {SYMBOL_NAMES.get(d['symbol'], d['symbol'])}"
                     + (f" ×{d['count']}" if d.get("count", 1) > 1 else "") for d in event.get("defeated", []))
    return f"battle on {hex_text(event['hex'])}: {lost} defeated"


def outcome_line(game: Game) -> str:
    """How the game stands, in one line (the result, why it stopped, or that it goes on)."""
    turns = f"{game.turn} turn{'s' if game.turn != 1 else ''}"
    if game.status == Game.Status.FINISHED:
        how = "" if game.ending in ("", Game.Ending.RULES) else f" ({game.get_ending_display().lower()})"
        return f"{game.result or 'finished'}{how} after {turns}"
    if game.status == Game.Status.ABORTED:
        return game.note or f"aborted after {turns}"
    if game.status == Game.Status.ACTIVE:
        return f"in play: {turns} so far"
    return "waiting for a player"


def who(side: str, name: str) -> str:
    """``alice (Upper)``, or just ``Upper`` when the seat has no name of its own."""
    label = board.PLAYER_NAMES[side]
    return label if name.strip().lower() == side else f"{name} ({label})"


def summary_line(game: Game, names: dict[str, str] | None = None) -> str:
    names = names or seat_names(game)
    source = "imported referee log" if game.source == Game.Source.IMPORTED else "RoPaSci 360"
    return f"{who('upper', names['upper'])} vs {who('lower', names['lower'])}, {source}: {outcome_line(game)}."


def move_rows(turns: list[dict]) -> list[dict]:
    rows = []
    for t in turns:
        rows.append({
            "number": t["number"],
            "moves": [{"side": side, "label": board.PLAYER_NAMES[side], **action_parts(side, t["actions"][side]),
                       "words": action_words(side, t["actions"][side])}
                      for side in SIDES if side in t["actions"]],
            "battles": [battle_words(e) for e in t["events"]],
        })
    return rows


# --- the position after turn N ----------------------------------------------------------------------

def material(state: dict, side: str) -> int:
    return sum(t["count"] for t in state.get("tokens", []) if t["player"] == side) + \
        state.get("throws_left", {}).get(side, 0)


def side_info(state: dict, side: str, names: dict[str, str]) -> dict:
    on_board = sum(t["count"] for t in state.get("tokens", []) if t["player"] == side)
    lost = sum(state.get("defeated", {}).get(side, {}).values())
    return {"side": side, "label": board.PLAYER_NAMES[side], "name": names[side], "on_board": on_board,
            "throws_left": state.get("throws_left", {}).get(side, 0), "lost": lost}


def position(game: Game, n: int, state: dict, turn: dict | None, names: dict[str, str], *,
             flipped: bool = False) -> dict:
    """What the board fragment shows: the board after turn ``n`` with that turn's moves drawn, and words."""
    if turn:
        bd = board.board_context(state, flipped=flipped, moves=board.turn_moves(turn["actions"]),
                                 marks=board.turn_marks(turn["actions"], turn["events"]))
    else:
        bd = board.board_context(state, flipped=flipped)
    sides = [side_info(state, s, names) for s in SIDES]
    if flipped:
        sides.reverse()  # the side whose home row is on top is listed first
    final = n == game.turn and game.is_over
    return {
        "n": n, "board": bd, "top": sides[0], "bottom": sides[1], "flipped": flipped,
        "row": move_rows([turn])[0] if turn else None,
        "outcome": outcome_line(game) if final else "",
        "outcome_kind": ("result" if game.status == Game.Status.FINISHED else "stopped") if final else "",
    }


def _position_for(game: Game, n: int, flipped: bool) -> dict:
    state = services.replay_state(game, upto=n).to_json()
    turn = game.turns.filter(number=n).values("number", "actions", "events").first() if n else None
    return position(game, n, state, turn, seat_names(game), flipped=flipped)


# --- the material chart -------------------------------------------------------------------------------

def material_chart(states: list[dict], current: int) -> dict:
    """Geometry of a small inline SVG chart: material per player over the turns, a rect per turn to click."""
    width, height = 360, 150
    left, right, top, bottom = 24, 10, 10, 22
    last = max(len(states) - 1, 1)
    dx = (width - left - right) / last

    def x(n):
        return left + n * dx

    def y(v):
        return top + (MATERIAL_MAX - v) * (height - top - bottom) / MATERIAL_MAX

    lines = {side: " ".join(f"{x(n):.1f},{y(material(s, side)):.1f}" for n, s in enumerate(states))
             for side in SIDES}
    if len(states) == 1:  # a single point: draw a short flat line so it shows
        lines = {side: f"{x(0):.1f},{y(9):.1f} {x(0) + 6:.1f},{y(9):.1f}" for side in SIDES}
    hits = []
    for n, s in enumerate(states):
        x1, x2 = max(left, x(n) - dx / 2), min(width - right, x(n) + dx / 2)
        hits.append({"n": n, "x": f"{x1:.1f}", "w": f"{x2 - x1:.1f}",
                     "title": f"after turn {n}: Upper {material(s, 'upper')}, Lower {material(s, 'lower')}"})
    step = next(k for k in (1, 2, 5, 10, 20, 25, 50, 100, 1000) if last / k <= 6)
    ticks = [{"n": n, "x": f"{x(n):.1f}"} for n in range(0, len(states), step)]
    grid = [{"v": v, "y": f"{y(v):.1f}"} for v in (0, 3, 6, 9)]
    final = {side: material(states[-1], side) for side in SIDES}
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top,
            "base": height - bottom, "plot_h": height - bottom - top, "dx": f"{dx:.4f}", "x0": left,
            "lines": lines, "hits": hits, "ticks": ticks, "grid": grid, "cursor_x": f"{x(current):.1f}",
            "label_y": height - 6, "final": final, "turns": len(states) - 1}


# --- sharing ----------------------------------------------------------------------------------------

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
    names = seat_names(game)
    n = game.turn if turn is None else turn
    image = reverse("preview_png", args=[game.id]) + f"?turn={n}"
    return {
        "title": f"{names['upper']} vs {names['lower']} · RoPaSci 360",
        "description": summary_line(game, names),
        "url": request.build_absolute_uri(page_url or request.get_full_path()),
        "image": request.build_absolute_uri(image) if preview_available() else "",
        "image_alt": f"The RoPaSci 360 board after turn {n}: {who('upper', names['upper'])} vs "
                     f"{who('lower', names['lower'])}",
        "image_width": PREVIEW_SIZE[0], "image_height": PREVIEW_SIZE[1],
    }


# --- pages ------------------------------------------------------------------------------------------

def _viewer_context(request, game: Game, *, embed: bool) -> dict:
    n, _ = _turn_param(request, game)
    flipped = _flip_param(request)
    names = seat_names(game)
    turns, states = history(game)
    rows = move_rows(turns)
    replay_path = reverse("replay", args=[game.id])
    live = game.status in (Game.Status.WAITING, Game.Status.ACTIVE)
    return {
        "game": game, "names": names, "n": n, "total": game.turn, "live": live, "embed": embed,
        "pos": position(game, n, states[n], turns[n - 1] if n else None, names, flipped=flipped),
        "rows": rows, "chart": material_chart(states, n), "outcome": outcome_line(game),
        "summary": summary_line(game, names), "speeds": SPEEDS,
        "share": share_meta(request, game, n, page_url=f"{replay_path}?turn={n}"),
        "urls": {
            "replay": replay_path,
            "replay_abs": request.build_absolute_uri(replay_path),
            "game": game.get_absolute_url(),
            "board": reverse("replay_board", args=[game.id]),
            "panel": reverse("replay_panel", args=[game.id]),
            "api": reverse("api_game", args=[game.id]),
            "log": reverse("log_txt", args=[game.id]),
            "json": reverse("export_json", args=[game.id]),
            "png": reverse("preview_png", args=[game.id]),
            "embed": reverse("embed", args=[game.id]),
            "embed_abs": request.build_absolute_uri(reverse("embed", args=[game.id])),
        },
    }


@require_safe
def replay_page(request, game_id):
    game = _game_or_404(game_id)
    return render(request, "games/replay.html", _viewer_context(request, game, embed=False))


@xframe_options_exempt
@require_safe
def embed_page(request, game_id):
    game = _game_or_404(game_id)
    return render(request, "games/embed.html", _viewer_context(request, game, embed=True))


@require_safe
def board_fragment(request, game_id):
    """The position after turn N (the shared board SVG and its caption), for the viewer's navigation."""
    game = _game_or_404(game_id)
    n, exact = _turn_param(request, game)
    pos = _position_for(game, n, _flip_param(request))
    response = render(request, "games/replay_position.html", {"pos": pos, "game": game})
    # A resolved turn never changes, so its position can be cached; the last one of a live game may yet
    # get an outcome line.
    if exact and (game.is_over or n < game.turn):
        response["Cache-Control"] = "public, max-age=86400"
    else:
        response["Cache-Control"] = "no-cache"
    return response


@require_safe
def panel_fragment(request, game_id):
    """Status, move list and chart, which a live replay swaps in when turns arrive."""
    game = _game_or_404(game_id)
    n, _ = _turn_param(request, game)
    turns, states = history(game)
    response = render(request, "games/replay_panel.html", {
        "game": game, "names": seat_names(game), "n": n, "total": game.turn, "rows": move_rows(turns),
        "chart": material_chart(states, n), "outcome": outcome_line(game),
        "live": game.status in (Game.Status.WAITING, Game.Status.ACTIVE),
    })
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def export_json(request, game_id):
    """The full turn log with the state after every turn (and before the first)."""
    game = _game_or_404(game_id)
    turns, states = history(game)
    seats = {s.side: {"kind": s.kind, "bot": s.bot_level or None, "name": s.label} for s in game.seats.all()}
    body = {
        "id": game.id, "game": game.kind, "source": game.source, "status": game.status,
        "result": game.result or None, "ending": game.ending or None, "note": game.note or None,
        "turn": game.turn, "seats": seats,
        "replay_url": request.build_absolute_uri(reverse("replay", args=[game.id])),
        "log_url": request.build_absolute_uri(reverse("log_txt", args=[game.id])),
        "initial_state": states[0],
        "turns": [{"number": t["number"], "actions": t["actions"], "events": t["events"], "state": states[i + 1]}
                  for i, t in enumerate(turns)],
    }
    response = JsonResponse(body, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="ropasci-{game.id}.json"'
    return response


def preview_svg_text(game: Game, n: int, flipped: bool = False) -> str:
    """A standalone 1200x630 SVG of the board after turn ``n`` with a title: colours are inlined (a
    ``<style>`` of literal values), since the site's CSS does not reach a rasteriser."""
    names = seat_names(game)
    pos = _position_for(game, n, flipped)
    width, height = PREVIEW_SIZE
    outcome = outcome_line(game)
    lines = textwrap.wrap(outcome[:1].upper() + outcome[1:], 34)
    if len(lines) > 4:
        lines = lines[:4]
        lines[-1] = lines[-1][:33] + "…"
    return render_to_string("games/replay_preview.html", {
        "pos": pos, "game": game, "n": n, "total": game.turn,
        "upper_name": _short(names["upper"]), "lower_name": _short(names["lower"]),
        "outcome_lines": [{"text": text, "y": 450 + 32 * i} for i, text in enumerate(lines)],
        "width": width, "height": height,
        "source": "Imported referee log" if game.source == Game.Source.IMPORTED else "RoPaSci 360",
    })


def _short(name: str, limit: int = 17) -> str:
    name = importer.clean_name(name)
    return name if len(name) <= limit else name[:limit - 1] + "…"


def _preview_response(request, game_id, fmt: str):
    game = _game_or_404(game_id)
    n, _ = _turn_param(request, game)
    flipped = _flip_param(request)
    if fmt == "png" and not preview_available():
        return HttpResponse("Board images are not available on this server (CairoSVG needs libcairo2).\n",
                            status=503, content_type="text/plain; charset=utf-8")
    key = f"ropasci:preview:{fmt}:{game.id}:{n}:{int(flipped)}:{game.turn}:{game.status}"
    body = cache.get(key)
    if body is None:
        svg = preview_svg_text(game, n, flipped)
        if fmt == "png":
            import cairosvg
            body = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=PREVIEW_SIZE[0],
                                    output_height=PREVIEW_SIZE[1])
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


# --- import -----------------------------------------------------------------------------------------

def site_url() -> str:
    return os.environ.get("SITE_URL", "http://127.0.0.1:8000").strip().rstrip("/") or "http://127.0.0.1:8000"


# Room for the form's other fields and the multipart framing around a file at the limit.
MAX_REQUEST = 2 * importer.MAX_BYTES + 64 * 1024


@require_http_methods(["GET", "HEAD", "POST"])
def import_page(request):
    context = {"limit_kib": importer.MAX_BYTES // 1024, "error": "", "values": {}}
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
    names = {side: importer.clean_name(post.get(side, "")) for side in SIDES}
    context["values"] = {**names, "text": post.get("text", "")[:importer.MAX_BYTES]}
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
    path("games/<str:game_id>/replay/board", board_fragment, name="replay_board"),
    path("games/<str:game_id>/replay/panel", panel_fragment, name="replay_panel"),
    path("games/<str:game_id>/export.json", export_json, name="export_json"),
    path("games/<str:game_id>/preview.png", preview_png, name="preview_png"),
    path("games/<str:game_id>/preview.svg", preview_svg, name="preview_svg"),
    path("embed/games/<str:game_id>", embed_page, name="embed"),
    path("import", import_page, name="import_log"),
]
