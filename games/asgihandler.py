"""Django's ASGI handler, with a sync view's whole request run in one thread.

Under ASGI Django runs every hook of every ``MiddlewareMixin`` middleware (sessions, CSRF, security,
messages, CSP...) through its own ``sync_to_async`` hop: about fifteen thread round trips a request, which
cost more CPU than most views (``/healthz`` took 4.6 ms of CPU, and 1.6 ms with the hops gone). Here a
request for a sync view goes through a second, sync, copy of the same middleware chain, in one hop, as under
WSGI; a request for an async view (``players``' challenge long-poll) keeps the async chain, so that its wait holds no
thread. The request is read and the response sent by Django's ASGI handler either way (same request object,
same body spooling and limits).
"""
from __future__ import annotations

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.urls import Resolver404, get_resolver


class OneHopASGIHandler(ASGIHandler):
    def __init__(self):
        super().__init__()
        self.sync_handler = BaseHandler()
        self.sync_handler.load_middleware(is_async=False)

    async def get_response_async(self, request):
        if self.is_async_view(request.path_info):
            return await super().get_response_async(request)
        return await sync_to_async(self.sync_handler.get_response, thread_sensitive=True)(request)

    @staticmethod
    def is_async_view(path: str) -> bool:
        try:
            match = get_resolver().resolve(path)
        except Resolver404:
            return False  # the 404 page: a sync view
        return iscoroutinefunction(match.func)


def get_asgi_application() -> OneHopASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with this handler."""
    import django

    django.setup(set_prefix=False)
    return OneHopASGIHandler()
