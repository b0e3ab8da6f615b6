"""Django's ASGI handler, with a sync view's whole request run in one thread.

Under ASGI Django runs every hook of every ``MiddlewareMixin`` middleware (sessions, CSRF, security,
messages, CSP...) through its own ``sync_to_async`` hop: about fifteen thread round trips a request, which
cost more CPU than most views (``/healthz`` took 4.6 ms of CPU, and 1.6 ms with the hops gone). Here a
request for a sync view goes through a second, sync, copy of the same middleware chain, in one hop, as under
WSGI; a request for an async view (``players``' challenge long-poll) keeps the async chain, so that its wait
holds no thread. The URL is resolved once, on the loop, to tell the two apart. The request is read and the
response sent by Django's ASGI handler either way (same request object, same body spooling and limits).
"""
from __future__ import annotations

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.urls import Resolver404, get_resolver


class SyncHandler(BaseHandler):
    def resolve_request(self, request):
        """The URL as already resolved on the event loop (``OneHopASGIHandler``), not resolved twice."""
        if request.resolver_match is not None and not hasattr(request, "urlconf"):
            return request.resolver_match
        return super().resolve_request(request)


class OneHopASGIHandler(ASGIHandler):
    def __init__(self):
        super().__init__()
        self.sync_handler = SyncHandler()
        self.sync_handler.load_middleware(is_async=False)

    async def get_response_async(self, request):
        try:
            match = get_resolver().resolve(request.path_info)
        except Resolver404:
            match = None  # the 404 page: a sync view
        if match is not None and iscoroutinefunction(match.func):
            return await super().get_response_async(request)
        request.resolver_match = match
        return await sync_to_async(self.sync_handler.get_response, thread_sensitive=True)(request)


def get_asgi_application() -> OneHopASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with this handler."""
    import django

    django.setup(set_prefix=False)
    return OneHopASGIHandler()
