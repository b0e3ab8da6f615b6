"""Rendering a committed change once for every kind of viewer holding a socket on the game in this process
(``watching``), into the render cache their consumers look in first (``presenters.cached_fragments``): from
the committing thread before the change is announced (``broadcast``), or in the first consumer's thread hop
when the change came from another process (``consumers``)."""
from __future__ import annotations

import asyncio
import copy
import json
import logging

from channels.db import database_sync_to_async
from django.db.models import JSONField

from games.live import watching
from games.models import Game
from games.read import presenters

log = logging.getLogger(__name__)

_rendering: dict[tuple[str, str], asyncio.Future] = {}  # (game id, version) -> its render under way (on the loop)


def as_stored(game: Game) -> Game:
    """A copy of a game just saved, as reading it back would give it: its JSON fields decoded from their
    JSON (a tuple becomes a list), its prefetched seats kept."""
    stored = copy.copy(game)
    for field in game._meta.concrete_fields:
        if isinstance(field, JSONField):
            value = field.value_from_object(game)
            if value is not None:
                setattr(stored, field.attname, json.loads(json.dumps(value, cls=field.encoder)))
    return stored


def render_for_watchers(game_id: str, version: str | None, game: Game | None = None) -> None:
    """Render ``version``'s fragments for each kind of viewer holding a socket on the game in this process
    into the cache their consumers look in first: one read of the database and one thread for them all;
    ``game``: that version as just saved, which spares reading the game and its seats again. A failure is
    logged: the consumers then render for themselves."""
    kinds = watching.kinds(game_id)
    if not kinds or version is None:
        return
    try:
        if game is not None and game.version == version:
            presenters.keep_reads(game_id, version, lambda: as_stored(game))
        for side in kinds:
            presenters.live_view(game_id, side, version)
    except Exception as exc:
        log.warning("rendering game %s for its viewers failed: %r", game_id, exc)


async def render_once(game_id: str, version: str) -> None:
    """On the event loop: have ``version`` rendered for every kind of viewer of the game in this process, in one
    thread hop shared by their consumers (the first to miss the cache starts it, the others wait for it)."""
    key = (game_id, version)
    rendering = _rendering.get(key)
    if rendering is None:
        rendering = asyncio.ensure_future(database_sync_to_async(render_for_watchers)(game_id, version))
        _rendering[key] = rendering
        rendering.add_done_callback(lambda _: _rendering.pop(key, None))
    await asyncio.shield(rendering)  # a consumer that goes away does not cancel the others' render
