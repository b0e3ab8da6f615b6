"""The server's event loop, once the ASGI wrapper has recorded it (``serverloop.ServerLoop``): work started
from other threads (broadcasts, bot moves, clocks) runs on it, so channel-layer calls never cross event loops.

Outside a server (management commands, tests) there is no loop: callers then work synchronously, and bot
moves and clocks do not run at all (a server resumes them on its first request).
"""
from __future__ import annotations

import asyncio
import contextvars

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
