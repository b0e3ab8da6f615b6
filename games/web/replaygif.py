"""A replay as an animated GIF: ``GET /games/<id>/replay.gif[?flip=1]``, for any game.

Each frame is the share preview's picture of a position (``previews.preview_svg_text``: the game's own board
SVG, the flattened board stylesheet of ``games.web.previewcss``, the players and the turn), as a spectator sees
it (``observation(None)``: hidden information stays hidden). At most ``MAX_FRAMES`` frames (a longer game is
sampled evenly, the first and last position always in); the last frame is held longer; the GIF loops.

Rasterising holds the GIL, so the frames are drawn in the bot workers (``games.web.gifs`` through
``pool.submit_call``), ``CHUNK`` frames per call and one call at a time, so live games' bots are not kept
waiting; the view waits for them without blocking the server. One GIF is drawn at a time per server process
(another request meanwhile gets a 503 with Retry-After). The result is cached per (game, turns, status,
flip): a finished game's GIF never changes.
"""
from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_safe

from games.bots import pool
from games.models import Game
from games.play import services
from games.read import replay
from games.web import gifs, previews
from games.web.replayparams import flip_param

log = logging.getLogger(__name__)

VERSION = 1
MAX_FRAMES = 200
CHUNK = 10  # frames per worker call
WAIT_SECONDS = 120.0  # the longest a request waits for its GIF
TOTAL_MS = 30000  # aim for about this long an animation, within the frame bounds below
FRAME_MS = (250, 800)  # shortest and longest frame
LAST_MS = 3000  # the final position stays this long before the loop starts again
CACHE_SECONDS = 7 * 24 * 3600

_drawing = threading.Lock()


def frame_turns(total: int, limit: int = MAX_FRAMES) -> list[int]:
    """The positions shown: every one of 0..total, or ``limit`` of them evenly spread (0 and total in)."""
    if total + 1 <= limit:
        return list(range(total + 1))
    return sorted({round(i * total / (limit - 1)) for i in range(limit)})


def durations(count: int) -> list[int]:
    each = max(FRAME_MS[0], min(FRAME_MS[1], round(TOTAL_MS / max(count, 1))))
    return [each] * (count - 1) + [LAST_MS]


def _text(message: str, status: int, retry: bool = False) -> HttpResponse:
    response = HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")
    if retry:
        response["Retry-After"] = "10"
    return response


class _Frames:
    """The frames' SVG texts, built a chunk at a time from one fold of the log."""

    def __init__(self, game: Game, flipped: bool):
        self.game, self.flipped = game, flipped
        self.turns, self.observations = replay.history(game)
        self.names = replay.seat_names(game)

    def svgs(self, ns: list[int]) -> list[str]:
        out = []
        for n in ns:
            pos = replay.position(self.game, n, self.observations[n], self.turns[n - 1] if n else None, self.names,
                                  flipped=self.flipped, before=self.observations[n - 1] if n else None)
            out.append(previews.preview_svg_text(self.game, n, self.flipped, pos=pos, names=self.names))
        return out


async def draw(game: Game, flipped: bool = False) -> bytes:
    """The GIF's bytes (frames rasterised in the workers, a chunk at a time, the next chunk's SVG built
    while the last one is drawn)."""
    ns = frame_turns(game.turn)
    frames = await sync_to_async(_Frames)(game, flipped)
    width, height = previews.PREVIEW_SIZE
    pngs: list[bytes] = []
    drawing = None
    for i in range(0, len(ns), CHUNK):
        svgs = await sync_to_async(frames.svgs)(ns[i:i + CHUNK])
        if drawing is not None:
            pngs += await asyncio.wrap_future(drawing)
        drawing = pool.submit_call(gifs.rasterise, svgs, width, height)
    pngs += await asyncio.wrap_future(drawing)
    return await asyncio.wrap_future(pool.submit_call(gifs.assemble, pngs, durations(len(pngs))))


@require_safe
async def replay_gif(request, game_id: str):
    """The replay as an animated GIF (503 with a reason when it cannot be drawn now)."""
    try:
        game = await sync_to_async(services.get_game)(game_id)
    except services.NotFound:
        return _text(f"There is no game {game_id[:40]!r}.", 404)
    if not previews.preview_available():
        return _text("Animations are not available on this server (CairoSVG needs libcairo2).", 503)
    flipped = flip_param(request)
    key = f"ropasci:gif:v{VERSION}:{game.id}:{game.turn}:{game.status}:{int(flipped)}"
    body = await cache.aget(key)
    if body is None:
        if not _drawing.acquire(blocking=False):
            return _text("Another animation is being drawn: try again in a moment.", 503, retry=True)
        try:
            body = await cache.aget(key)  # drawn by the request that held the lock
            if body is None:
                body = await asyncio.wait_for(draw(game, flipped), WAIT_SECONDS)
                await cache.aset(key, body, CACHE_SECONDS)
        except asyncio.TimeoutError:
            return _text("The animation took too long to draw: try again in a moment.", 503, retry=True)
        except Exception:  # the rasteriser or the workers failed: say so, never a 500
            log.exception("the replay GIF of game %s could not be drawn", game.id)
            return _text("This animation could not be drawn.", 503)
        finally:
            _drawing.release()
    response = HttpResponse(body, content_type="image/gif")
    response["Content-Disposition"] = f'inline; filename="{game.kind}-{game.id}.gif"'
    response["Cache-Control"] = f"public, max-age={86400 if game.is_over else 60}"
    return response


urlpatterns = [
    path("games/<str:game_id>/replay.gif", replay_gif, name="replay_gif"),
]
