"""WebSocket routes, wired into ``ropasci.asgi`` by Channels' URLRouter."""

websocket_urlpatterns: list = []
