"""What happens after a game changes, in this server process: broadcast to open pages, run bot moves in
the worker pool, and arm the turn clock.

Broadcasts and follow-ups are funnelled through the server's event loop (recorded by ``ServerLoop``, the
ASGI wrapper in ``ropasci/asgi.py``), so channel-layer calls never cross event loops. Outside a server
(management commands, tests) they run synchronously instead.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import threading

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

MAIN_LOOP: asyncio.AbstractEventLoop | None = None
_inflight: set[tuple[str, str, int]] = set()  # (game id, side, turn) bot moves being computed here
_clocks: dict[str, asyncio.TimerHandle] = {}
_failures: dict[tuple[str, str, int], int] = {}  # failed attempts per bot move, to retry a few times
_lock = threading.Lock()


def group_name(game_id: str) -> str:
    return f"game-{game_id}"


def game_changed(game_id: str, turn: int) -> None:
    """Called after a committed change to a game. Bot moves and clocks run only in server processes
    (a management command that changes a game only broadcasts; servers resume bots on their own)."""
    broadcast(game_id, turn)
    if MAIN_LOOP is not None and MAIN_LOOP.is_running():
        schedule_bots(game_id)
        arm_clock(game_id)


def broadcast(game_id: str, turn: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "game.changed", "turn": turn}
    if MAIN_LOOP is not None and MAIN_LOOP.is_running():
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is MAIN_LOOP:
            MAIN_LOOP.create_task(layer.group_send(group_name(game_id), message))
        else:
            asyncio.run_coroutine_threadsafe(layer.group_send(group_name(game_id), message), MAIN_LOOP).result(10)
        return
    async_to_sync(layer.group_send)(group_name(game_id), message)


# --- bots ---------------------------------------------------------------------------------------------

def schedule_bots(game_id: str) -> None:
    """Start computing every bot seat's move for the turn in play, unless already under way here."""
    from . import services
    from .models import Game
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE:
        return
    waiting = set(services.waiting_on(game))
    bots = [s for s in game.seats.all() if s.kind == s.Kind.BOT and s.side in waiting]
    if not bots:
        return
    turns = [t.actions for t in game.turns.order_by("number")]
    for seat in bots:
        key = (game.id, seat.side, game.turn + 1)
        with _lock:
            if key in _inflight:
                continue
            _inflight.add(key)
        from .bots import pool
        seconds = getattr(settings, "BOT_SECONDS", None)
        future = pool.submit(game.kind, turns, seat.side, seat.bot_level, seconds=seconds)
        future.add_done_callback(lambda f, key=key: _delivered(key, f))


def requeue_bots(game_id: str) -> int:
    """Compute a game's bot moves again (staff action for a stuck move): forget this process's in-flight
    keys for the game and schedule again. Returns how many keys were forgotten. If the old computation
    still finishes, the service refuses the second move for that turn: never a double move."""
    with _lock:
        stale = {key for key in _inflight if key[0] == game_id}
        _inflight.difference_update(stale)
    schedule_bots(game_id)
    return len(stale)


def _delivered(key, future) -> None:
    """Runs in the pool's callback thread: hand the move to a worker thread (or the server loop)."""
    if MAIN_LOOP is not None and MAIN_LOOP.is_running():
        # A fresh context: this callback may run in a thread of asgiref's executor, whose context must not
        # leak into the new task (it would refuse to use the executor again: "would deadlock").
        MAIN_LOOP.call_soon_threadsafe(lambda: MAIN_LOOP.create_task(sync_to_async(_submit_bot_move)(key, future)),
                                       context=contextvars.Context())
    else:
        threading.Thread(target=_submit_bot_move, args=(key, future), daemon=True).start()


def _submit_bot_move(key, future) -> None:
    from . import services
    game_id, side, turn = key
    try:
        action = future.result()
        services.submit_bot_action(game_id, side, turn, action)
    except services.ServiceError as exc:  # the game moved on (aborted, resigned, timed out)
        log.info("bot move for %s not used: %s", key, exc.message)
    except Exception:
        log.exception("bot move for %s failed", key)
        failed = True
    else:
        failed = False
    finally:
        with _lock:
            _inflight.discard(key)
        close_old_connections()
    if failed:  # e.g. a database lock timeout under load: try again, a few times
        _failures[key] = _failures.get(key, 0) + 1
        if _failures[key] <= 3:
            schedule_bots(game_id)
            close_old_connections()


def resume_all() -> None:
    """After a restart: restart bot moves and clocks of every live game."""
    from .models import Game
    for game_id in Game.objects.filter(status=Game.Status.ACTIVE).values_list("id", flat=True):
        schedule_bots(game_id)
        arm_clock(game_id)
    close_old_connections()


# --- the turn clock -----------------------------------------------------------------------------------

def arm_clock(game_id: str) -> None:
    """Wake up when the turn clock of the game runs out, to end it by timeout even if nobody looks."""
    if MAIN_LOOP is None or not MAIN_LOOP.is_running():
        return
    from django.utils import timezone

    from .models import Game
    game = Game.objects.filter(pk=game_id).first()
    deadline = game.turn_deadline if game else None
    if deadline is None:
        return
    delay = max(0.0, (deadline - timezone.now()).total_seconds()) + 0.05

    def fire():
        _clocks.pop(game_id, None)
        MAIN_LOOP.create_task(sync_to_async(_expire)(game_id))

    def arm():
        old = _clocks.pop(game_id, None)
        if old:
            old.cancel()
        _clocks[game_id] = MAIN_LOOP.call_later(delay, fire)

    MAIN_LOOP.call_soon_threadsafe(arm, context=contextvars.Context())


def _expire(game_id: str) -> None:
    from . import services
    try:
        services.check_timeout(game_id)
    finally:
        close_old_connections()


class ServerLoop:
    """ASGI wrapper that records the server's event loop and resumes live games on the first request."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        global MAIN_LOOP
        if MAIN_LOOP is None:
            MAIN_LOOP = asyncio.get_running_loop()
            asyncio.get_running_loop().create_task(sync_to_async(resume_all, thread_sensitive=False)())
        return await self.app(scope, receive, send)
