"""The channel layer of the embedded default (one process, nothing else running): Channels' in-memory layer,
with its sweep for expired messages and group memberships run at most once a second.

Channels' own layer sweeps every channel and every group on each send to a group and each receive, so a
message cost grew with the number of open sockets in the process (each waiting consumer is a channel): at a
few hundred games, most of the layer's time. A message now expires up to a second later than its ``expiry``
(60 s) at most; nothing else changes.
"""
from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer

SWEEP_SECONDS = 1.0


class InProcessChannelLayer(InMemoryChannelLayer):
    swept = float("-inf")  # time.monotonic() of the last sweep

    def _clean_expired(self):
        now = time.monotonic()
        if now - self.swept >= SWEEP_SECONDS:
            self.swept = now
            super()._clean_expired()
