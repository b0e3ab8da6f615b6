"""The server's event loop, recorded by the ASGI wrapper, so that work started from other threads
(broadcasts, bot moves, clocks) runs on it and channel-layer calls never cross event loops.

Outside a server (management commands, tests) there is no loop: callers then work synchronously, and bot
moves and clocks do not run at all (a server resumes them on its first request). Every server also sweeps
every few seconds for expired clocks and stalled bot moves, so a process that dies with work in hand
(SIGKILL) stalls nothing for long while any other process lives. Every server beats (``clocks.beat``), and
the first to start after none ran stops the turn clocks for that time (``clocks.resume``) before it answers
its first request.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import os
from datetime import timedelta

from asgiref.sync import sync_to_async

log = logging.getLogger(__name__)

MAIN_LOOP: asyncio.AbstractEventLoop | None = None
_STARTING: asyncio.Task | None = None  # clocks.resume on the first request; requests wait for it


def running() -> bool:
    return MAIN_LOOP is not None and MAIN_LOOP.is_running()


def call_soon(callback, *args) -> None:
    """Run ``callback(*args)`` on the server loop, from any thread, in a fresh context (asgiref's executor
    context must not leak into it: it would refuse to use the executor again, "would deadlock")."""
    MAIN_LOOP.call_soon_threadsafe(callback, *args, context=contextvars.Context())


def spawn(coro_factory) -> None:
    """Start the coroutine ``coro_factory()`` as a task on the server loop, from any thread."""
    call_soon(lambda: MAIN_LOOP.create_task(coro_factory()))


def _seconds(name: str, default: float) -> float:
    try:
        return max(0.2, float(os.environ.get(name, default)))
    except ValueError:
        return default


SWEEP_SECONDS = _seconds("SWEEP_SECONDS", 5.0)  # how often a server looks for work that nobody is doing
BOT_STALL_SECONDS = _seconds("BOT_STALL_SECONDS", 20.0)  # a bot to act this long after the last change: retry


def sweep() -> None:
    """Pick up what a dead process left: expired turn clocks, and bot moves due for longer than
    ``BOT_STALL_SECONDS`` (computed here; if the first process still delivers, the service refuses the
    second move for the turn: never a double move)."""
    from django.db import close_old_connections
    from django.utils import timezone

    from games.live import botrunner
    from games.play import services
    from games.models import Game, Seat
    now = timezone.now()
    try:
        for game_id, started, seconds in (Game.objects.filter(status=Game.Status.ACTIVE, turn_seconds__isnull=False)
                                          .values_list("id", "turn_started", "turn_seconds")):
            if started is not None and started + timedelta(seconds=seconds) <= now:
                services.check_timeout(game_id)
        stalled = (Seat.objects.filter(kind=Seat.Kind.BOT, game__status=Game.Status.ACTIVE,
                                       game__updated__lt=now - timedelta(seconds=BOT_STALL_SECONDS))
                   .values_list("game_id", "side", "game__to_act"))
        for game_id in {game_id for game_id, side, to_act in stalled if side in (to_act or [])}:
            botrunner.schedule_bots(game_id)
    except Exception:  # a sweep must never stop the next one
        log.exception("sweep failed")
    finally:
        close_old_connections()


async def _sweep_forever() -> None:
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        await sync_to_async(sweep, thread_sensitive=False)()


async def _beat_forever() -> None:
    from games.live import clocks
    while True:
        await asyncio.sleep(clocks.BEAT_SECONDS)
        try:
            await sync_to_async(clocks.beat, thread_sensitive=False)()
        except Exception:  # a beat must never stop the next one
            log.exception("beat failed")


async def _start() -> None:
    """Stop the turn clocks for the time no server ran, then beat, sweep and resume live games."""
    from games.live import clocks
    try:
        await sync_to_async(clocks.resume, thread_sensitive=False)()
    except Exception:  # e.g. a database not migrated yet: serve anyway
        log.exception("resuming the turn clocks failed")
    MAIN_LOOP.create_task(sync_to_async(resume_all, thread_sensitive=False)())
    MAIN_LOOP.create_task(_sweep_forever())
    MAIN_LOOP.create_task(_beat_forever())


def resume_all() -> None:
    """After a restart: restart bot moves and clocks of every live game."""
    from django.db import close_old_connections

    from games.live import botrunner, clocks
    from games.models import Game
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
        global MAIN_LOOP, _STARTING
        if MAIN_LOOP is None:
            MAIN_LOOP = asyncio.get_running_loop()
            _STARTING = MAIN_LOOP.create_task(_start())
        if not _STARTING.done() and MAIN_LOOP is asyncio.get_running_loop():
            await asyncio.shield(_STARTING)  # no clock is read before it is set right
        return await self.app(scope, receive, send)
