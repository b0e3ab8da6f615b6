"""A small thread-safe least-recently-used map, for the per-process caches of things that never change once
made (positions after N turns, a game version's reads and fragments)."""
from __future__ import annotations

import threading
from collections import OrderedDict


class LRU:
    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, default=None):
        with self._lock:
            value = self._items.get(key, default)
            if key in self._items:
                self._items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def items(self) -> list:
        """A snapshot of the entries, least recently used first."""
        with self._lock:
            return list(self._items.items())

    def drop(self, keep) -> None:
        """Remove every entry whose key fails ``keep(key)``."""
        with self._lock:
            for key in [k for k in self._items if not keep(k)]:
                del self._items[key]

    def __len__(self) -> int:
        return len(self._items)
