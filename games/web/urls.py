from django.urls import path

from games.web import analysis, imports, previews, rematch, replay, replaygif, rules, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("games/new", views.new_game, name="new_game"),
    path("games/new/options", views.new_game_options, name="new_game_options"),
    path("games/<str:game_id>", views.game_page, name="game"),
    path("games/<str:game_id>/join", views.join, name="join"),
    path("games/<str:game_id>/act", views.act, name="act"),
    path("games/<str:game_id>/resign", views.resign, name="resign"),
    path("games/<str:game_id>/hint", views.hint, name="hint"),
    path("library/<str:name>", views.library, name="library"),
    path("rules/<str:name>", rules.rules, name="rules"),
] + replay.urlpatterns + previews.urlpatterns + imports.urlpatterns + analysis.urlpatterns + replaygif.urlpatterns
from games.web import lobby  # noqa: E402  (each game's start page)
urlpatterns += lobby.urlpatterns + rematch.urlpatterns
