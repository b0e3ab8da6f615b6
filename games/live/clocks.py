"""Turn clocks: wake up when a game's turn clock runs out and end it by timeout, even if nobody looks.
Reads check the clock too (``services.check_timeout``), so a clock lost with its process still ends the
game at the next look.

Clocks stop while no server runs (nobody can move then): every server records a beat in the database each
``BEAT_SECONDS`` (``beat``), and a server starting finds how long the beat has been silent; longer than
``GAP_SECONDS`` means no server ran, and it moves every running turn clock on by that gap (``resume``)
before it answers any request. Since the last beat came no later than the last server's death, every seat
gets at least the time it had left. A compare-and-set on the beat makes exactly one of several processes
starting together apply the gap, and a process still running keeps the beat fresh, so none is applied."""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.db import close_old_connections, transaction
from django.db.models import F
from django.utils import timezone

from games.live import loop

log = logging.getLogger(__name__)

_clocks: dict[str, asyncio.TimerHandle] = {}

BEAT_SECONDS = 1.0  # how often every server records that it runs
# A beat older than this when a server starts: no server was running (half a beat of slack for a late beat;
# a restart takes longer than this, so even a quick one is made up).
GAP_SECONDS = 1.5 * BEAT_SECONDS


UNKNOWN = object()


def arm_clock(game_id: str, deadline=UNKNOWN) -> None:
    """Wake up at the game's turn deadline (read from the database unless given; None: no clock runs)."""
    if not loop.running():
        return
    if deadline is UNKNOWN:
        from games.models import Game
        game = Game.objects.filter(pk=game_id).first()
        deadline = game.turn_deadline if game else None
    if deadline is None:
        return
    delay = max(0.0, (deadline - timezone.now()).total_seconds()) + 0.05
    main = loop.MAIN_LOOP

    def fire():
        _clocks.pop(game_id, None)
        main.create_task(sync_to_async(_expire)(game_id))

    def arm():
        old = _clocks.pop(game_id, None)
        if old:
            old.cancel()
        _clocks[game_id] = main.call_later(delay, fire)

    loop.call_soon(arm)


def _expire(game_id: str) -> None:
    from games.play import services
    try:
        services.check_timeout(game_id)
    finally:
        close_old_connections()


def on_game_changed(sender, game_id, turn, deadline=UNKNOWN, **kwargs) -> None:
    arm_clock(game_id, deadline)


def beat() -> None:
    """Record that a server runs now."""
    from games.models import ServerBeat
    try:
        if not ServerBeat.objects.filter(pk=1).update(beat=timezone.now()):
            ServerBeat.objects.get_or_create(pk=1, defaults={"beat": timezone.now()})
    finally:
        close_old_connections()


def resume() -> timedelta:
    """On a server's start: if no server has beaten for longer than ``GAP_SECONDS``, move every running turn
    clock on by the time since the last beat (once, whichever process starts first). Returns that gap (zero
    when a server was running)."""
    from games.models import Game, ServerBeat
    now = timezone.now()
    try:
        with transaction.atomic():
            last = ServerBeat.objects.filter(pk=1).values_list("beat", flat=True).first()
            if last is None:  # the first server on this database
                ServerBeat.objects.get_or_create(pk=1, defaults={"beat": now})
                return timedelta(0)
            gap = now - last
            if gap <= timedelta(seconds=GAP_SECONDS) or not ServerBeat.objects.filter(pk=1, beat=last).update(beat=now):
                return timedelta(0)  # a server was running (or another one starting has just done this)
            moved = (Game.objects.filter(status=Game.Status.ACTIVE, turn_seconds__isnull=False,
                                         turn_started__isnull=False)
                     .update(turn_started=F("turn_started") + gap, updated=now))
        log.warning("no server ran for %.1f s: moved %d turn clock(s) on by that", gap.total_seconds(), moved)
        return gap
    finally:
        close_old_connections()
