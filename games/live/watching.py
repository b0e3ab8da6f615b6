"""Who holds a game's WebSocket in this process, by kind of viewer: a seat's side, or None for spectators.

The announcement of a committed change reads it to render each kind's fragments while the committing thread
still has the database at hand (``fanout``), so that the consumers find them ready and send them from the
event loop, with no thread hop and no query of their own. Consumers of other processes are not here: they
render for themselves.
"""
from __future__ import annotations

import threading
from collections import Counter

_viewers: dict[str, Counter] = {}  # game id -> kind of viewer -> open sockets
_lock = threading.Lock()  # consumers change it on the event loop; announcements read it from other threads


def add(game_id: str, side: str | None) -> None:
    with _lock:
        _viewers.setdefault(game_id, Counter())[side] += 1


def remove(game_id: str, side: str | None) -> None:
    with _lock:
        kinds = _viewers.get(game_id)
        if kinds is None:
            return
        kinds[side] -= 1
        if kinds[side] <= 0:
            del kinds[side]
        if not kinds:
            del _viewers[game_id]


def kinds(game_id: str) -> list[str | None]:
    """The kinds of viewer of ``game_id`` with a socket open in this process."""
    with _lock:
        return list(_viewers.get(game_id, ()))
