"""The long-poll (``?wait_turn=N``): a request held until the game reaches turn N, ends, or 30 s pass, on the
server's loop (a waiting client holds no thread), waking on the game's channel group; the slots that cap how
many wait at once per seat and per address."""
from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections import Counter

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import prefetch_related_objects
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.api.http import seat_token
from games.api.payloads import game_payload
from games.play import services
from games.play.announce import group_name

log = logging.getLogger(__name__)

WAIT_SECONDS = 30


def _load_payload_and_let_go(game_id: str, request) -> dict:
    """``load_payload`` for a long-poll: its database connection is closed at once, not held through the wait
    (hundreds of waiting clients would otherwise hold as many PostgreSQL connections)."""
    try:
        return load_payload(game_id, request)
    finally:
        if not connection.in_atomic_block:
            connection.close()


def load_payload(game_id: str, request) -> dict:
    game = services.check_timeout(game_id)
    prefetch_related_objects([game], "seats")  # read once for the token check and the payload
    token = seat_token(request)
    seat = services.seat_for_token(game, token).side if token else None
    return game_payload(game, request, seat)


class Slots:
    """Long-polls held open in this process, counted per key (a seat, an address). A slot is taken at the
    check, in the request's thread, so that simultaneous requests cannot all pass it, and given back when
    the wait ends (on the loop) or when its body is dropped unread: under a lock, as two threads use it."""

    def __init__(self):
        self._lock = threading.Lock()
        self.held = Counter()

    def take(self, keys: list[tuple[str, int]]):
        """A function that gives the slots back (once, however often called), or None if a key is full."""
        with self._lock:
            if any(self.held[key] >= cap for key, cap in keys):
                return None
            for key, _ in keys:
                self.held[key] += 1
        given = []

        def give_back():
            with self._lock:
                if not given:
                    given.append(True)
                    for key, _ in keys:
                        self.held[key] -= 1
                        if self.held[key] <= 0:
                            del self.held[key]
        return give_back


polls = Slots()


def reached(payload: dict, target: int) -> bool:
    return payload["turn"] >= target or payload["status"] in ("finished", "aborted")


async def waiting(game_id: str, target: int, request, give_back):
    """The body of a long-poll: the game once ``target`` turns have resolved (or it ended, or the wait
    timed out); its slots are given back when it ends. A game that became unreadable meanwhile (deleted)
    gives ``{"error": ...}``."""
    try:
        try:
            payload = await wait_for_turn(game_id, target, request)
        except services.ServiceError as exc:
            payload = {"error": exc.message}
        yield json.dumps(payload, cls=DjangoJSONEncoder).encode()
    finally:
        give_back()


async def wait_for_turn(game_id: str, target: int, request, timeout: float = WAIT_SECONDS) -> dict:
    """Listen on the game's group first, then read: no change can slip between the read and the wait.
    Without a working channel layer (Redis down) it reads again every half second instead."""
    layer = get_channel_layer()
    group = group_name(game_id)
    channel = None
    try:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
    except Exception as exc:
        log.warning("wait_turn on game %s without the channel layer: %r", game_id, exc)
        channel = None
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            payload = await sync_to_async(_load_payload_and_let_go)(game_id, request)
            if reached(payload, target):
                return payload
            remaining = deadline - loop.time()
            if remaining <= 0:
                return payload
            if payload["deadline"]:  # wake up for the turn clock too
                until = (parse_datetime(payload["deadline"]) - timezone.now()).total_seconds() + 0.1
                remaining = max(0.05, min(remaining, until))
            if channel is None:
                await asyncio.sleep(min(remaining, 0.5))
                continue
            try:
                await asyncio.wait_for(layer.receive(channel), remaining)
            except asyncio.TimeoutError:
                pass
            except Exception:  # the layer failed while waiting: read again by polling
                channel = None
    finally:
        if channel is not None:
            try:
                await layer.group_discard(group, channel)
            except Exception:
                pass
