"""The ASGI wrapper that records the server's event loop (``loop``) and starts a server's own work on it.

Every server sweeps every ``SWEEP_SECONDS`` for expired clocks and stalled bot moves, so a process that dies
with work in hand (SIGKILL) stalls nothing for long while any other process lives. Every server beats
(``clocks.beat``), and the first to start after none ran stops the turn clocks for that time
(``clocks.resume``) before it answers its first request.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from games.live import botrunner, clocks, loop
from games.models import Game
from games.play import botmoves, services

log = logging.getLogger(__name__)

_STARTING: asyncio.Task | None = None  # clocks.resume on the first request; requests wait for it


def sweep() -> None:
    """Pick up what a dead process left: expired turn clocks, and bot moves due for longer than
    ``BOT_STALL_SECONDS`` (computed here, even if this process still counts the move in flight: a move lost
    on its way here would otherwise block the game for good; if the first computation still delivers, the
    service refuses the second move for the turn: never a double move)."""
    now = timezone.now()
    try:
        for game_id, started, seconds in (Game.objects.filter(status=Game.Status.ACTIVE, turn_seconds__isnull=False)
                                          .values_list("id", "turn_started", "turn_seconds")):
            if started is not None and started + timedelta(seconds=seconds) <= now:
                services.check_timeout(game_id)
        for game_id in botmoves.stalled_games(now - timedelta(seconds=settings.BOT_STALL_SECONDS)):
            botrunner.requeue_bots(game_id)
    except Exception:  # a sweep must never stop the next one
        log.exception("sweep failed")
    finally:
        close_old_connections()


async def _sweep_forever() -> None:
    while True:
        await asyncio.sleep(settings.SWEEP_SECONDS)
        await sync_to_async(sweep, thread_sensitive=False)()


async def _beat_forever() -> None:
    while True:
        await asyncio.sleep(clocks.BEAT_SECONDS)
        try:
            await sync_to_async(clocks.beat, thread_sensitive=False)()
        except Exception:  # a beat must never stop the next one
            log.exception("beat failed")


async def _start() -> None:
    """Stop the turn clocks for the time no server ran, then beat, sweep and resume live games."""
    try:
        await sync_to_async(clocks.resume, thread_sensitive=False)()
    except Exception:  # e.g. a database not migrated yet: serve anyway
        log.exception("resuming the turn clocks failed")
    loop.MAIN_LOOP.create_task(sync_to_async(resume_all, thread_sensitive=False)())
    loop.MAIN_LOOP.create_task(_sweep_forever())
    loop.MAIN_LOOP.create_task(_beat_forever())


def resume_all() -> None:
    """After a restart: restart bot moves and clocks of every live game."""
    for game_id in Game.objects.filter(status=Game.Status.ACTIVE).values_list("id", flat=True):
        botrunner.schedule_bots(game_id)
        clocks.arm_clock(game_id)
    close_old_connections()


class ServerLoop:
    """ASGI wrapper that records the server's event loop and, on the first request, stops the turn clocks for
    the time no server ran (requests wait for that) and resumes live games."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        starting = ensure_started()
        if not starting.done() and loop.MAIN_LOOP is asyncio.get_running_loop():
            await asyncio.shield(starting)  # no clock is read before it is set right
        return await self.app(scope, receive, send)


def ensure_started() -> asyncio.Task:
    """Record the running loop as the server's and start its own work, once: on the first request, or when
    another entry point on this loop (the battleground) starts first. Returns the task that starts it."""
    global _STARTING
    if loop.MAIN_LOOP is None:
        loop.MAIN_LOOP = asyncio.get_running_loop()
        _STARTING = loop.MAIN_LOOP.create_task(_start())
    return _STARTING
