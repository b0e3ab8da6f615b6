"""Waiting for a game to change, whoever changes it (a client's move here, a bot's move or a turn clock in any
process): listen on the game's channel group first, then read, so no change slips between the read and the
wait (as the API's long-poll does). Without a working channel layer it reads again every half second."""
from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import close_old_connections
from django.utils import timezone

from games.play import services
from games.play.announce import group_name

log = logging.getLogger(__name__)


async def db(fn, *args, **kwargs):
    """``fn`` (which reads or writes the database) in a worker thread, its connection tidied after."""
    def run():
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()
    return await sync_to_async(run, thread_sensitive=False)()


class Watch:
    """``async with Watch(game_id) as watch: game = await watch.until(done)``."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.layer = get_channel_layer()
        self.channel = None

    async def __aenter__(self) -> "Watch":
        try:
            self.channel = await self.layer.new_channel()
            await self.layer.group_add(group_name(self.game_id), self.channel)
        except Exception as exc:
            log.warning("watching game %s without the channel layer: %r", self.game_id, exc)
            self.channel = None
        return self

    async def __aexit__(self, *exc_info) -> None:
        if self.channel is not None:
            try:
                await self.layer.group_discard(group_name(self.game_id), self.channel)
            except Exception:
                pass

    async def until(self, done):
        """The game (its turn clock applied) once ``done(game)`` holds or it is over."""
        while True:
            game = await db(services.check_timeout, self.game_id)
            if game.is_over or done(game):
                return game
            wait = 60.0
            if game.turn_deadline is not None:  # wake up for the turn clock too
                wait = max(0.05, min(wait, (game.turn_deadline - timezone.now()).total_seconds() + 0.1))
            if self.channel is None:
                await asyncio.sleep(min(wait, 0.5))
                continue
            try:
                await asyncio.wait_for(self.layer.receive(self.channel), wait)
            except asyncio.TimeoutError:
                pass
            except Exception:  # the layer failed while waiting: read again by polling
                self.channel = None
