from django.urls import path

from games.api import endpoints

urlpatterns = [
    path("api/games", endpoints.create, name="api_games"),
    path("api/games/<str:game_id>", endpoints.detail, name="api_game"),
    path("api/games/<str:game_id>/actions", endpoints.actions, name="api_actions"),
    path("api/games/<str:game_id>/resign", endpoints.resign, name="api_resign"),
    path("api/games/<str:game_id>/log.txt", endpoints.log_txt, name="log_txt"),
]
