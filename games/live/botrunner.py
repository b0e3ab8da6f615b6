"""Server bots: when a bot seat is to act, compute its move in the worker pool and submit it through the
services like any player. Runs only in server processes (``loop.running()``).

Each (game, seat, turn) is computed at most once at a time in this process; a move that arrives for a turn
that has moved on is refused by the service (never a double move). A failed move is retried a few times.
"""
from __future__ import annotations

import logging
import threading

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games.live import loop
from games.play import botmoves, turnlog

log = logging.getLogger(__name__)

_inflight: set[tuple[str, str, int]] = set()  # (game id, side, turn) bot moves being computed here
_failures: dict[tuple[str, str, int], int] = {}  # failed attempts per bot move, to retry a few times
_lock = threading.Lock()


def schedule_bots(game_id: str) -> None:
    """Start computing every bot seat's move for the turn in play, unless already under way here."""
    from games.bots import pool
    from games.models import Game
    game = Game.objects.filter(pk=game_id).first()
    bots = botmoves.due_bots(game) if game is not None else []
    if not bots:
        return
    if queued():
        for seat in bots:
            _enqueue({"type": "bot.move", "game_id": game.id, "side": seat.side, "turn": game.turn + 1})
        return
    turns = turnlog.records(game)
    for seat in bots:
        key = (game.id, seat.side, game.turn + 1)
        with _lock:
            if key in _inflight:
                continue
            _inflight.add(key)
        seconds = botmoves.bot_seconds(seat)
        future = pool.submit(game.kind, turns, seat.side, seat.bot_level, seconds=seconds, params=game.params)
        future.add_done_callback(lambda f, key=key: _delivered(key, f))


def queued() -> bool:
    """Whether bot moves go to the workers of the channel layer (``BOT_QUEUE=channels``), not the pool."""
    return getattr(settings, "BOT_QUEUE", "") == "channels"


def _enqueue(message: dict) -> None:
    from channels.layers import get_channel_layer

    from games.live.workers import CHANNEL
    layer = get_channel_layer()
    if loop.running():
        loop.spawn(lambda: layer.send(CHANNEL, message))
        return
    try:
        async_to_sync(layer.send)(CHANNEL, message)
    except Exception as exc:  # Redis down: the sweep sends it again later
        log.warning("bot move %s not queued: %r", message, exc)


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
    if loop.running():
        loop.spawn(lambda: sync_to_async(_submit_bot_move)(key, future))
    else:
        threading.Thread(target=_submit_bot_move, args=(key, future), daemon=True).start()


def _later(seconds: float, key, future) -> None:
    """Deliver the move again once ``seconds`` have passed (a watched game's pace), blocking no thread."""
    if loop.running():
        loop.call_soon(lambda: loop.MAIN_LOOP.call_later(seconds, _delivered, key, future))
    else:
        threading.Timer(seconds, _submit_bot_move, args=(key, future)).start()


def _submit_bot_move(key, future) -> None:
    from django.utils import timezone

    from games.models import Game
    from games.play import services
    game_id, side, turn = key
    wait = 0.0
    try:
        action = future.result()
        game = Game.objects.filter(pk=game_id).first()
        wait = botmoves.wait_before(game, timezone.now()) if game is not None else 0.0
        if wait > 0:
            _later(wait, key, future)  # still in flight: the same move, played when due
            return
        services.submit_bot_action(game_id, side, turn, action)
    except services.ServiceError as exc:  # the game moved on (aborted, resigned, timed out)
        log.info("bot move for %s not used: %s", key, exc.message)
        failed = False
    except Exception:
        log.exception("bot move for %s failed", key)
        failed = True
    else:
        failed = False
    finally:
        if not wait:
            with _lock:
                _inflight.discard(key)
        close_old_connections()
    if failed:  # e.g. a database lock timeout under load: try again, a few times
        _failures[key] = _failures.get(key, 0) + 1
        if _failures[key] <= 3:
            schedule_bots(game_id)
            close_old_connections()


def on_game_changed(sender, game_id, turn, bots_to_act=True, **kwargs) -> None:
    if not bots_to_act:  # no bot seat is to act: nothing to read
        return
    if loop.running() or queued():  # with the queue, any process that changed a game sends its bot move
        schedule_bots(game_id)
