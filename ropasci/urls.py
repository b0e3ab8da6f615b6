"""URL configuration for ropasci."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("players.urls")),  # first: its account pages stand in for some of auth.urls'
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournaments.urls")),
    path("", include("games.api.urls")),
    path("", include("games.web.urls")),
]
