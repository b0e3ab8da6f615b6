"""The server's event loop, recorded by the ASGI wrapper, so that work started from other threads
(broadcasts, bot moves, clocks) runs on it and channel-layer calls never cross event loops.

Outside a server (management commands, tests) there is no loop: callers then work synchronously, and bot
moves and clocks do not run at all (a server resumes them on its first request).
"""
from __future__ import annotations

import asyncio
import contextvars
import logging

from asgiref.sync import sync_to_async

log = logging.getLogger(__name__)

MAIN_LOOP: asyncio.AbstractEventLoop | None = None


def running() -> bool:
    return MAIN_LOOP is not None and MAIN_LOOP.is_running()


def call_soon(callback, *args) -> None:
    """Run ``callback(*args)`` on the server loop, from any thread, in a fresh context (asgiref's executor
    context must not leak into it: it would refuse to use the executor again, "would deadlock")."""
    MAIN_LOOP.call_soon_threadsafe(callback, *args, context=contextvars.Context())


def spawn(coro_factory) -> None:
    """Start the coroutine ``coro_factory()`` as a task on the server loop, from any thread."""
    call_soon(lambda: MAIN_LOOP.create_task(coro_factory()))


def resume_all() -> None:
    """After a restart: restart bot moves and clocks of every live game."""
    from django.db import close_old_connections

    from . import botrunner, clocks
    from .models import Game
    for game_id in Game.objects.filter(status=Game.Status.ACTIVE).values_list("id", flat=True):
        botrunner.schedule_bots(game_id)
        clocks.arm_clock(game_id)
    close_old_connections()


class ServerLoop:
    """ASGI wrapper that records the server's event loop and resumes live games on the first request."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        global MAIN_LOOP
        if MAIN_LOOP is None:
            MAIN_LOOP = asyncio.get_running_loop()
            MAIN_LOOP.create_task(sync_to_async(resume_all, thread_sensitive=False)())
        return await self.app(scope, receive, send)
