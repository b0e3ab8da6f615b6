"""Long-lived threads for HTTP requests' sync code.

Django runs each HTTP request's sync code (views, the ORM) in a thread-sensitive context of its own, and
asgiref makes that context a new thread, then a second one to join it: two thread starts a request, and a
new database connection in each. This ASGI wrapper lends each request a single-thread executor from a pool
instead (``ThreadSensitiveContext(executor=...)``; Django's own context then reuses it), so threads and, on
SQLite, their connections (``CONN_MAX_AGE``) outlive the request. A request still has its thread to itself
while it runs, as before; the pool grows to as many as run at once. (A game's long-poll waits in its streamed
body on the loop, holding no thread: ``games.api.endpoints.detail``.)
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext

KEEP = 32  # idle executors kept for the next requests; more are shut down when given back


class RequestThreads:
    def __init__(self, app, keep: int = KEEP):
        self.app = app
        self.keep = keep
        self.idle: list[ThreadPoolExecutor] = []  # used from the event loop's thread only

    async def __call__(self, scope, receive, send):
        executor = self.idle.pop() if self.idle else ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                return await self.app(scope, receive, send)
        finally:
            if len(self.idle) < self.keep:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)
