from django.urls import path

from . import views

urlpatterns = [
    path("tournaments", views.tournament_list, name="tournaments"),
    path("tournaments/<int:pk>", views.tournament_page, name="tournament"),
    path("tournaments/<int:pk>/live", views.live, name="tournament_live"),
    path("tournaments/<int:pk>/accept", views.answer, {"choice": "accept"}, name="tournament_accept"),
    path("tournaments/<int:pk>/decline", views.answer, {"choice": "decline"}, name="tournament_decline"),
    path("tournaments/<int:pk>/start", views.start, name="tournament_start"),
    path("tournaments/<int:pk>/results.csv", views.results_csv, name="tournament_csv"),
    path("tournaments/<int:pk>/games/<str:game_id>/play", views.play, name="tournament_play"),
]
