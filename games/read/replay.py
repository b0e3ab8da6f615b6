"""The replay viewer, its embed, exports (JSON; the referee log is ``api.log_txt``), the board preview
image for link previews, and importing referee logs (the upload page; ``manage.py importlog``).

Routes (``urlpatterns`` below, appended by ``games/web/urls.py`` after its own ``games/<id>/replay``):

    /games/<id>/replay[?turn=N&flip=1]          the viewer (server-rendered at turn N; default: the last turn)
    /games/<id>/replay/board?turn=N[&flip=1]    the position after turn N: the shared board SVG and a caption
    /games/<id>/replay/panel                    status, move list and material chart (a live replay refreshes them)
    /games/<id>/export.json                     every turn's actions, battles and the state after it
    /games/<id>/preview.png?turn=N[&flip=1]     the board as a 1200x630 PNG (Open Graph / Twitter card image)
    /games/<id>/preview.svg?turn=N[&flip=1]     the same picture as SVG
    /games/<id>/replay.gif[?flip=1]             every turn's picture, animated (games/web/replaygif.py)
    /games/<id>/replay/analysis?turn=N          the strong bot's analysis of a position (games/read/analysis.py)
    /embed/games/<id>[?turn=N]                  the viewer without the site's chrome, frameable
    /import                                     upload (or paste) a game log

Every game through its UI adapter (``games.engine.ui``); viewers see positions as a spectator does
(``observation(None)``, ``redact_record(..., None, over)``): a live game's replay leaks nothing.
"""
from __future__ import annotations

import logging
import textwrap

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from csp.decorators import csp_replace
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_http_methods, require_safe

from games.read import gamelog
from games.play import importer, services
from games.web import previewcss
from games.engine.api import CHANCE
from games.models import Game
from games.engine.ui import ui_for
from games.play import turnlog

log = logging.getLogger(__name__)

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


def history(game: Game) -> tuple[list[dict], list]:
    """All resolved turns as a spectator sees them (number, actions, events), and the spectator's observation
    after 0..T turns, folded once (through the position cache)."""
    turns = gamelog.visible_records(game)
    states = [services.state_at(game, 0)]
    eg = services.engine_for(game)
    from games.engine.history import apply_record
    raw = turnlog.records(game)
    state = states[0].clone()
    observations = [state.observation(None)]
    for record in raw:
        apply_record(eg, state, record)
        observations.append(state.observation(None))
    return turns, observations


def seat_names(game: Game) -> dict[str, str]:
    ui = ui_for(services.engine_for(game))
    names = {side: ui.seat_name(side) for side in ui.game.info.players}
    for seat in game.seats.all():
        if seat.display_name or seat.kind == seat.Kind.BOT:
            names[seat.side] = seat.label
    return names


# --- words ------------------------------------------------------------------------------------------

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


def who(ui, side: str, name: str) -> str:
    """``alice (Upper)``, or just ``Upper`` when the seat has no name of its own."""
    label = ui.seat_name(side)
    return label if name.strip().lower() in (side, label.lower()) else f"{name} ({label})"


def summary_line(game: Game, names: dict[str, str] | None = None) -> str:
    ui = ui_for(services.engine_for(game))
    names = names or seat_names(game)
    title = ui.game.info.title
    source = f"imported log ({title})" if game.source == Game.Source.IMPORTED else title
    players = " vs ".join(who(ui, s, names[s]) for s in ui.game.info.players)
    return f"{players}, {source}: {outcome_line(game)}."


MOVES_PER_PAGE = 50  # the move list shows this many turns around the one viewed; the page script loads others


def move_window(ui, turns: list[dict], observations: list, n: int) -> dict:
    """The page of the move list that holds turn ``n`` (turn 0, the start, is on the first): its rows and the
    turns of the pages before and after, so that a long game's page stays small."""
    page = max(0, n - 1) // MOVES_PER_PAGE
    first, last = page * MOVES_PER_PAGE + 1, min(len(turns), (page + 1) * MOVES_PER_PAGE)
    return {"rows": move_rows(ui, turns[first - 1:last], observations[first - 1:last]), "start": page == 0,
            "earlier": (first - MOVES_PER_PAGE, first - 1) if page else None,
            "later": (last + 1, min(len(turns), last + MOVES_PER_PAGE)) if last < len(turns) else None}


def chapters(ui, observations: list) -> list[dict]:
    """Where each part of the game starts (poker's hands): ``{"label", "turn"}``, the first turn after which a
    position of that part is shown; [] for games without parts."""
    out, last = [], ""
    for n, observation in enumerate(observations):
        label = ui.chapter(observation)
        if label and label != last:
            out.append({"label": label, "turn": n})
        last = label or last
    return out


def move_rows(ui, turns: list[dict], observations: list) -> list[dict]:
    """The moves list: each turn in words, read against the position it was played in (``observations[n]``
    is the spectator's view after ``n`` turns)."""
    rows = []
    for i, t in enumerate(turns):
        before = observations[i] if i < len(observations) else None
        rows.append({
            "number": t["number"],
            "moves": [{"side": side, "label": ui.seat_name(side), "words": ui.action_words(side, action, before)}
                      if side != CHANCE else {"side": side, "label": "Chance", "words": ui.chance_words(action)}
                      for side, action in t["actions"].items() if side in ui.game.info.players or side == CHANCE],
            "battles": [w for w in (ui.event_words(e) for e in t["events"]) if w],
        })
    return rows


# --- the position after turn N ----------------------------------------------------------------------

def side_info(ui, observation, side: str, names: dict[str, str]) -> dict:
    return {"side": side, "label": ui.seat_name(side), "name": names[side],
            "stats": [{"label": label, "value": value} for label, value in ui.seat_stats(observation, side)]}


def position(game: Game, n: int, observation, turn: dict | None, names: dict[str, str], *,
             flipped: bool = False, before=None) -> dict:
    """What the board fragment shows: the board after turn ``n`` with that turn's moves drawn, and words
    (read against ``before``, the observation after turn ``n - 1``, where given)."""
    ui = ui_for(services.engine_for(game))
    bd = ui.board(observation, flipped=flipped, last=turn)
    sides = [side_info(ui, observation, s, names) for s in ui.game.info.players]
    if flipped:
        sides.reverse()  # the side whose home row is on top is listed first
    final = n == game.turn and game.is_over
    return {
        "n": n, "board": bd, "board_template": ui.board_template, "sides": sides,
        "top": sides[0], "bottom": sides[-1], "flipped": flipped,
        "row": move_rows(ui, [turn], [before])[0] if turn else None,
        "outcome": outcome_line(game) if final else "",
        "outcome_kind": ("result" if game.status == Game.Status.FINISHED else "stopped") if final else "",
    }


def _position_for(game: Game, n: int, flipped: bool) -> dict:
    observation = services.state_at(game, n).observation(None)
    turn = gamelog.visible_records(game, None, upto=n)[-1] if n else None
    before = services.state_at(game, n - 1).observation(None) if n else None
    return position(game, n, observation, turn, seat_names(game), flipped=flipped, before=before)


# --- the material chart -------------------------------------------------------------------------------

def material_chart(ui, observations: list, current: int) -> dict | None:
    """Geometry of a small inline SVG chart: the game's material figure per seat over the turns, a rect per
    turn to click. None for a game without one."""
    sides = list(ui.game.info.players)
    if ui.material(observations[0], sides[0]) is None:
        return None
    values = [{s: ui.material(o, s) for s in sides} for o in observations]
    top_value = max([getattr(ui, "chart_max", 0)] + [v for row in values for v in row.values()]) or 1
    width, height = 360, 150
    left, right, top, bottom = 10 + 7 * len(str(round(top_value))), 10, 10, 22  # room for the axis' numbers
    last = max(len(observations) - 1, 1)
    dx = (width - left - right) / last

    def x(n):
        return left + n * dx

    def y(v):
        return top + (top_value - v) * (height - top - bottom) / top_value

    lines = {side: " ".join(f"{x(n):.1f},{y(row[side]):.1f}" for n, row in enumerate(values)) for side in sides}
    if len(values) == 1:  # a single point: draw a short flat line so it shows
        lines = {side: f"{x(0):.1f},{y(values[0][side]):.1f} {x(0) + 6:.1f},{y(values[0][side]):.1f}"
                 for side in sides}
    hits = []
    for n, row in enumerate(values):
        x1, x2 = max(left, x(n) - dx / 2), min(width - right, x(n) + dx / 2)
        hits.append({"n": n, "x": f"{x1:.1f}", "w": f"{x2 - x1:.1f}",
                     "title": f"after turn {n}: " + ", ".join(f"{ui.seat_name(s)} {row[s]:g}" for s in sides)})
    step = next(k for k in (1, 2, 5, 10, 20, 25, 50, 100, 1000, 10000) if last / k <= 6)
    ticks = [{"n": n, "x": f"{x(n):.1f}"} for n in range(0, len(values), step)]
    grid = [{"v": round(top_value * k / 3), "y": f"{y(top_value * k / 3):.1f}"} for k in range(4)]
    final = {side: values[-1][side] for side in sides}
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top,
            "base": height - bottom, "plot_h": height - bottom - top, "dx": f"{dx:.4f}", "x0": left,
            "lines": lines, "series": [{"side": s, "name": ui.seat_name(s), "points": lines[s], "final": final[s]}
                                       for s in sides],
            "hits": hits, "ticks": ticks, "grid": grid, "cursor_x": f"{x(current):.1f}",
            "label_y": height - 6, "final": final, "turns": len(values) - 1, "label": ui.chart_label}


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
    ui = ui_for(services.engine_for(game))
    n = game.turn if turn is None else turn
    image = reverse("preview_png", args=[game.id]) + f"?turn={n}"
    title = ui.game.info.title
    players = " vs ".join(who(ui, s, names[s]) for s in ui.game.info.players)
    return {
        "title": f"{' vs '.join(names[s] for s in ui.game.info.players)} · {title}",
        "description": summary_line(game, names),
        "url": request.build_absolute_uri(page_url or request.get_full_path()),
        "image": request.build_absolute_uri(image) if preview_available() else "",
        "image_alt": f"The {title} board after turn {n}: {players}",
        "image_width": PREVIEW_SIZE[0], "image_height": PREVIEW_SIZE[1],
    }


# --- pages ------------------------------------------------------------------------------------------

def _viewer_context(request, game: Game, *, embed: bool) -> dict:
    from games.read import analysis  # it builds on this module
    n, _ = _turn_param(request, game)
    flipped = _flip_param(request)
    names = seat_names(game)
    ui = ui_for(services.engine_for(game))
    turns, states = history(game)
    moves = move_window(ui, turns, states, n)
    replay_path = reverse("replay", args=[game.id])
    live = game.status in (Game.Status.WAITING, Game.Status.ACTIVE)
    return {
        "game": game, "ui": ui, "title": ui.game.info.title, "names": names, "n": n, "total": game.turn,
        "players_title": " vs ".join(names[s] for s in ui.game.info.players),
        "live": live, "embed": embed,
        "pos": position(game, n, states[n], turns[n - 1] if n else None, names, flipped=flipped,
                        before=states[n - 1] if n else None),
        "moves": moves, "chapters": chapters(ui, states), "chart": material_chart(ui, states, n),
        "outcome": outcome_line(game),
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
            "gif": reverse("replay_gif", args=[game.id]),
            "analysis": reverse("replay_analysis", args=[game.id]),
            "analysis_game": reverse("replay_analysis_game", args=[game.id]),
        },
        "analysis": analysis.page_context(game),
    }


@require_safe
def replay_page(request, game_id):
    game = _game_or_404(game_id)
    return render(request, "games/replay.html", _viewer_context(request, game, embed=False))


@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})  # any site may frame the embed
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
    response = render(request, "games/replay_position.html",
                      {"pos": pos, "game": game, "ui": ui_for(services.engine_for(game))})
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
    ui = ui_for(services.engine_for(game))
    turns, states = history(game)
    response = render(request, "games/replay_panel.html", {
        "game": game, "ui": ui, "names": seat_names(game), "n": n, "total": game.turn,
        "moves": move_window(ui, turns, states, n),
        "chart": material_chart(ui, states, n), "outcome": outcome_line(game),
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
        "id": game.id, "game": game.kind, "params": game.params, "source": game.source, "status": game.status,
        "result": game.result or None, "outcome": game.outcome, "ending": game.ending or None,
        "note": game.note or None,
        "turn": game.turn, "seats": seats,
        "replay_url": request.build_absolute_uri(reverse("replay", args=[game.id])),
        "log_url": request.build_absolute_uri(reverse("log_txt", args=[game.id])),
        "initial_state": states[0],
        "turns": [{"number": t["number"], "actions": t["actions"], "events": t["events"], "state": states[i + 1]}
                  for i, t in enumerate(turns)],
    }
    response = JsonResponse(body, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="{game.kind}-{game.id}.json"'
    return response


def preview_svg_text(game: Game, n: int, flipped: bool = False, *, pos: dict | None = None,
                     names: dict[str, str] | None = None) -> str:
    """A standalone 1200x630 SVG of the board after turn ``n`` with a title: colours are inlined (a
    ``<style>`` of literal values), since the site's CSS does not reach a rasteriser. ``pos`` and ``names``:
    the position and seat names if already at hand (``games.web.replaygif`` draws every turn)."""
    names = names or seat_names(game)
    ui = ui_for(services.engine_for(game))
    sides = list(ui.game.info.players)
    pos = pos or _position_for(game, n, flipped)
    width, height = PREVIEW_SIZE
    outcome = outcome_line(game)
    lines = textwrap.wrap(outcome[:1].upper() + outcome[1:], 34)
    if len(lines) > 4:
        lines = lines[:4]
        lines[-1] = lines[-1][:33] + "…"
    if len(sides) == 2:
        seat_lines = [{"text": _short(names[sides[0]]), "y": 210, "dot_y": 194},
                      {"text": _short(names[sides[1]]), "y": 322, "dot_y": 306}]
    else:
        shown = sides if len(sides) <= 4 else sides[:3]
        seat_lines = [{"text": _short(names[s]), "y": 200 + 44 * i, "dot_y": 188 + 44 * i} for i, s in enumerate(shown)]
        if len(sides) > len(shown):
            seat_lines.append({"text": f"and {len(sides) - len(shown)} more", "y": 200 + 44 * 3, "dot_y": 188 + 44 * 3})
    legend = textwrap.wrap(ui.legend, 44)
    if len(legend) > 2:
        legend = [legend[0], legend[1][:43] + "…"]
    return render_to_string("games/replay_preview.html", {
        "pos": pos, "game": game, "n": n, "total": game.turn, "ui": ui, "seat_lines": seat_lines,
        "board_css": previewcss.board_css(ui.stylesheet),
        "outcome_lines": [{"text": text, "y": 450 + 32 * i} for i, text in enumerate(lines)],
        "legend_lines": [{"text": text, "y": 562 + 30 * i} for i, text in enumerate(legend)],
        "width": width, "height": height,
        "source": f"Imported log · {ui.game.info.title}" if game.source == Game.Source.IMPORTED else ui.game.info.title,
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


# --- import -----------------------------------------------------------------------------------------

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
    path("games/<str:game_id>/replay/board", board_fragment, name="replay_board"),
    path("games/<str:game_id>/replay/panel", panel_fragment, name="replay_panel"),
    path("games/<str:game_id>/export.json", export_json, name="export_json"),
    path("games/<str:game_id>/preview.png", preview_png, name="preview_png"),
    path("games/<str:game_id>/preview.svg", preview_svg, name="preview_svg"),
    path("embed/games/<str:game_id>", embed_page, name="embed"),
    path("import", import_page, name="import_log"),
]
