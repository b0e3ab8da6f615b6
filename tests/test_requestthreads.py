"""HTTP requests borrow long-lived threads (games.runtime.requestthreads): a request's sync code runs in one thread
of its own while it runs, and the next request reuses that thread (and, on SQLite, its connection)."""
from __future__ import annotations

import asyncio
import threading

from asgiref.sync import ThreadSensitiveContext, sync_to_async

from games.runtime.requestthreads import RequestThreads


class ThreadReporter:
    """An ASGI app whose requests run thread-sensitive sync code twice, in a context of their own as Django's
    handler does; with ``together``, each waits between the two calls until that many requests are in."""

    def __init__(self, together: int = 0):
        self.seen: list[tuple[int, int]] = []
        self.together = together
        self.started = 0
        self.all_in = asyncio.Event()

    async def __call__(self, scope, receive, send):
        async with ThreadSensitiveContext():  # nested in the lent one: it must reuse that thread
            first = await sync_to_async(threading.get_ident)()
            self.started += 1
            if self.started == self.together:
                self.all_in.set()
            if self.together:
                await self.all_in.wait()
            second = await sync_to_async(threading.get_ident)()
        self.seen.append((first, second))


async def test_one_request_keeps_one_thread_and_the_next_reuses_it():
    app = ThreadReporter()
    wrapped = RequestThreads(app)
    await wrapped({"type": "http"}, None, None)
    await wrapped({"type": "http"}, None, None)
    (a1, a2), (b1, b2) = app.seen
    assert a1 == a2 == b1 == b2 != threading.get_ident()


async def test_requests_at_once_get_threads_of_their_own_and_the_spare_ones_are_let_go():
    app = ThreadReporter(together=3)
    wrapped = RequestThreads(app, keep=1)
    await asyncio.gather(*(wrapped({"type": "http"}, None, None) for _ in range(3)))
    assert len({first for first, _ in app.seen}) == 3
    assert all(first == second for first, second in app.seen)
    assert len(wrapped.idle) == 1  # keep=1: the other two executors were shut down
