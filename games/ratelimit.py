"""Rate limits per client address and per seat: game creation, moves, imports, hints and WebSocket messages.

Fixed-window counters in Django's cache (``cache.incr`` is atomic in the Redis cache the scaled-out site uses,
so several processes share one count; the embedded default counts per process). A request over a limit gets
429 with ``Retry-After`` (the seconds until its window ends) and changes nothing. ``RATE_LIMITS`` scales every
limit (``2``: twice as many) and ``0`` turns them off (benchmarks and tests of other things).

The client address is ``REMOTE_ADDR``, or behind ``TRUSTED_PROXIES`` reverse proxies the address they saw
(the last entries of ``X-Forwarded-For`` are theirs).
"""
from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache

# kind -> (requests, window in seconds)
LIMITS = {
    "create": (30, 60),  # games created, per address
    "act": (30, 10),  # moves, resignations, joins: per seat
    "act-address": (300, 10),  # ... and per address, whatever the seat
    "import": (10, 60),  # log imports, per address
    "hint": (20, 60),  # hints, per address
    "ws": (40, 10),  # WebSocket messages, per address
}


def scale() -> float:
    return float(getattr(settings, "RATE_LIMITS", 1.0))


def hit(kind: str, key: str) -> float:
    """Count one request of ``kind`` from ``key``: 0 if allowed, else the seconds to wait."""
    factor = scale()
    if factor <= 0:
        return 0.0
    count, window = LIMITS[kind]
    now = time.time()
    start = math.floor(now / window) * window
    name = f"rl:{kind}:{hashlib.sha256(key.encode()).hexdigest()[:32]}:{int(start)}"
    if cache.add(name, 1, timeout=window + 1):
        used = 1
    else:
        try:
            used = cache.incr(name)
        except ValueError:  # expired between add and incr: a new window
            cache.add(name, 1, timeout=window + 1)
            used = 1
    if used > count * factor:
        return max(1.0, start + window - now)
    return 0.0


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
