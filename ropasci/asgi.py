"""ASGI entry point: ``python -m ropasci.server ropasci.asgi:application`` (Daphne, request bodies bounded).

HTTP goes to Django; WebSockets go through Channels (cookies, then ``NulCookieGuard`` dropping a cookie that holds
NUL, then session and user: Channels' ``AuthMiddlewareStack`` with the guard inside) to the routes in
``games.live.routing.websocket_urlpatterns``, whose consumer checks the Origin against ALLOWED_HOSTS (``games.live.consumers``).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ropasci.settings")

from games.runtime.asgihandler import get_asgi_application  # noqa: E402  (a sync view's request in one thread)

# Set Django up (apps, models) before anything that imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ChannelNameRouter, ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402

from games.runtime.middleware import NulCookieGuard  # noqa: E402
from games.runtime.requestthreads import RequestThreads  # noqa: E402
from games.live.serverloop import ServerLoop  # noqa: E402
from games.live.routing import channel_routes, websocket_urlpatterns  # noqa: E402

application = ServerLoop(ProtocolTypeRouter(
    {
        "http": RequestThreads(django_asgi_app),
        "websocket": CookieMiddleware(NulCookieGuard(SessionMiddleware(AuthMiddleware(
            URLRouter(websocket_urlpatterns))))),
        "channel": ChannelNameRouter(channel_routes),
    }
))
