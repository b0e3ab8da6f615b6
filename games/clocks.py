"""Turn clocks: wake up when a game's turn clock runs out and end it by timeout, even if nobody looks.
Reads check the clock too (``services.check_timeout``), so a clock lost with its process still ends the
game at the next look."""
from __future__ import annotations

import asyncio

from asgiref.sync import sync_to_async
from django.db import close_old_connections
from django.utils import timezone

from . import serverloop

_clocks: dict[str, asyncio.TimerHandle] = {}


UNKNOWN = object()


def arm_clock(game_id: str, deadline=UNKNOWN) -> None:
    """Wake up at the game's turn deadline (read from the database unless given; None: no clock runs)."""
    if not serverloop.running():
        return
    if deadline is UNKNOWN:
        from .models import Game
        game = Game.objects.filter(pk=game_id).first()
        deadline = game.turn_deadline if game else None
    if deadline is None:
        return
    delay = max(0.0, (deadline - timezone.now()).total_seconds()) + 0.05
    loop = serverloop.MAIN_LOOP

    def fire():
        _clocks.pop(game_id, None)
        loop.create_task(sync_to_async(_expire)(game_id))

    def arm():
        old = _clocks.pop(game_id, None)
        if old:
            old.cancel()
        _clocks[game_id] = loop.call_later(delay, fire)

    serverloop.call_soon(arm)


def _expire(game_id: str) -> None:
    from . import services
    try:
        services.check_timeout(game_id)
    finally:
        close_old_connections()


def on_game_changed(sender, game_id, turn, deadline=UNKNOWN, **kwargs) -> None:
    arm_clock(game_id, deadline)
