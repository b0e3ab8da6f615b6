from django.urls import path

from games.live import consumers, workers

websocket_urlpatterns = [
    path("ws/games/<str:game_id>", consumers.GameConsumer.as_asgi()),
]

# Background workers (``manage.py runworker bot-moves``), reached through the channel layer.
channel_routes = {
    workers.CHANNEL: workers.BotMoveWorker.as_asgi(),
}
