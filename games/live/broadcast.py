"""Telling every open page of a game that it changed: one message to the game's channel group
(``announce.group_name``), after commit. Each consumer then sends what its own viewer may see, rendered once
per kind of viewer: here, before the message goes, for the kinds watching in this process (``fanout``), while
the committing thread has the database at hand; by the consumers themselves in other processes.

A broadcast that fails (Redis slow or down) is logged and retried a few times; it never fails the request
that changed the game, which is stored already. Pages resynchronise on reconnect and on ``?wait_turn``.
"""
from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.live import fanout, loop
from games.play.announce import group_name

log = logging.getLogger(__name__)

RETRY_DELAYS = (0.5, 2.0, 5.0)  # seconds before each further try on the server loop
SEND_TIMEOUT = 5.0


async def _send(game_id: str, turn: int, version: str | None = None) -> None:
    layer = get_channel_layer()
    message = {"type": "game.changed", "turn": turn, "version": version}
    await asyncio.wait_for(layer.group_send(group_name(game_id), message), SEND_TIMEOUT)


async def _send_with_retries(game_id: str, turn: int, version: str | None) -> None:
    for attempt, delay in enumerate((0.0, *RETRY_DELAYS)):
        if delay:
            await asyncio.sleep(delay)
        try:
            await _send(game_id, turn, version)
            return
        except Exception as exc:  # the channel layer's own errors (Redis timeouts, refused connections)
            log.warning("broadcast of game %s turn %s failed (try %d): %r", game_id, turn, attempt + 1, exc)
    log.error("broadcast of game %s turn %s given up; pages resynchronise when they reconnect", game_id, turn)


def _render_for_watchers(game_id: str, version: str | None, game=None) -> None:
    """From a sync thread only (it reads the database): never on an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        fanout.render_for_watchers(game_id, version, game)


def broadcast(game_id: str, turn: int, version: str | None = None, game=None) -> None:
    """Announce a committed change of ``game_id`` (``version``: ``Game.version`` as committed, which lets the
    pages' consumers share one render of it; ``game``: the game as committed, if at hand); never raises."""
    if get_channel_layer() is None:
        return
    _render_for_watchers(game_id, version, game)
    if loop.running():
        loop.spawn(lambda: _send_with_retries(game_id, turn, version))
        return
    try:
        async_to_sync(_send)(game_id, turn, version)
    except Exception as exc:
        log.error("broadcast of game %s turn %s failed: %r", game_id, turn, exc)


def on_game_changed(sender, game_id, turn, version=None, game=None, **kwargs) -> None:
    broadcast(game_id, turn, version, game)
