"""Rate limits: what costs the server without moving a game (refused and invalid requests, reads beyond what
play needs, creations, imports, hints, WebSocket messages), per client address and per seat.

A move that a seat's turn accepts is never counted: a seat resolves at most one move a turn, so legal play
limits itself, however fast a program plays. A request over a limit gets 429 with ``Retry-After`` (the
seconds until its window ends) and changes nothing. ``RATE_LIMITS`` scales every limit (``2``: twice as
many) and ``0`` turns them off (benchmarks and tests of other things).

Fixed-window counters in the ``ratelimit`` cache (settings.CACHES): a cache of their own, so that nothing
else stored can push a count out, and keyed only by what a client cannot mint at will (its address, a seat
that exists): a flood of made-up seat tokens makes no new entries. With Redis, ``incr`` is atomic and every
process shares the counts; the embedded default counts per process.

The client address is ``REMOTE_ADDR``, or behind ``TRUSTED_PROXIES`` reverse proxies the address they saw
(the last entries of ``X-Forwarded-For`` are theirs).
"""
from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import caches

# kind -> (requests, window in seconds)
LIMITS = {
    "create": (60, 60),  # games and challenges created, per address
    "act": (30, 10),  # moves, resignations, joins refused or not needed (invalid, stale, duplicate): per seat
    "act-address": (300, 10),  # ... and per address, whatever the seat
    "read": (300, 10),  # reads of a game beyond one a turn per seat (or tokenless address), per address
    "import": (10, 60),  # log imports, per address
    "hint": (20, 60),  # hints, per address
    "ws": (40, 10),  # WebSocket messages, per address
}
SEEN_SECONDS = 600  # how long a reader's latest read turn is remembered (``first_read``)


def scale() -> float:
    return float(getattr(settings, "RATE_LIMITS", 1.0))


def counts():
    return caches["ratelimit"]


def _window(kind: str, key: str) -> tuple[str, float, int, float]:
    count, window = LIMITS[kind]
    now = time.time()
    start = math.floor(now / window) * window
    name = f"rl:{kind}:{_digest(key)}:{int(start)}"
    return name, start + window - now, window, count * scale()


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def hit(kind: str, key: str) -> float:
    """Count one request of ``kind`` from ``key``: 0 if allowed, else the seconds to wait."""
    if scale() <= 0:
        return 0.0
    name, left, window, allowed = _window(kind, key)
    cache = counts()
    if cache.add(name, 1, timeout=window + 1):
        used = 1
    else:
        try:
            used = cache.incr(name)
        except ValueError:  # expired between add and incr: a new window
            cache.add(name, 1, timeout=window + 1)
            used = 1
    return max(1.0, left) if used > allowed else 0.0


def refund(kind: str, key: str) -> None:
    """Take back one ``hit`` of this window: the request it counted moved a game (a WebSocket's accepted
    move). Nothing if the window has ended meanwhile."""
    if scale() <= 0:
        return
    try:
        counts().decr(_window(kind, key)[0])
    except ValueError:  # no count in this window
        pass


def over(kind: str, key: str) -> float:
    """The seconds to wait if ``key`` has used up ``kind`` in this window, else 0; counts nothing (and makes
    no entry: a made-up key costs a lookup only)."""
    if scale() <= 0:
        return 0.0
    name, left, _, allowed = _window(kind, key)
    return max(1.0, left) if (counts().get(name) or 0) >= allowed else 0.0


def first_read(reader: str, turn: int) -> bool:
    """True the first time ``reader`` (a game's seat, or an address in a game: keys a client cannot mint at
    will) reads turn ``turn`` or later: the one read a turn that play needs, never counted. Its entry holds the
    latest such turn."""
    if scale() <= 0:
        return True
    name = f"rl:seen:{_digest(reader)}"
    cache = counts()
    seen = cache.get(name)
    if seen is not None and seen >= turn:
        return False
    cache.set(name, turn, timeout=SEEN_SECONDS)
    return True


def client_address(meta: dict) -> str:
    """The client's address from a request's META (or an ASGI scope turned into one)."""
    trusted = int(getattr(settings, "TRUSTED_PROXIES", 0))
    if trusted:
        chain = [a.strip() for a in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
        if len(chain) >= trusted:
            return chain[-trusted]
    return meta.get("REMOTE_ADDR") or "?"


def scope_address(scope) -> str:
    """``client_address`` for a WebSocket's ASGI scope."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
    return client_address({"REMOTE_ADDR": (scope.get("client") or ["?"])[0],
                           "HTTP_X_FORWARDED_FOR": headers.get("x-forwarded-for", "")})


def advanced(request) -> None:
    """Mark ``request`` as having moved its game (a move accepted, a seat taken, a resignation): the
    middleware then counts it against no limit."""
    request.advanced_game = True
