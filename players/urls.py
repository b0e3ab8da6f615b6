from django.contrib.auth import views as auth_views
from django.urls import path
from django.views.generic import RedirectView

from . import api, views
from .forms import PasswordChange, PasswordSet

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    # Django's own views with forms that put a weak new password's error under it (before its auth.urls).
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(form_class=PasswordChange),
         name="password_change"),
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(form_class=PasswordSet),
         name="password_reset_confirm"),
    path("accounts/keys/new", views.key_create, name="key_create"),
    path("accounts/keys/<int:key_id>/revoke", views.key_revoke, name="key_revoke"),
    path("players/", RedirectView.as_view(pattern_name="leaderboards"), name="players"),
    path("players/leaderboard/", views.leaderboards, name="leaderboards"),
    path("players/leaderboard/<str:kind>", views.leaderboard, name="leaderboard"),
    path("players/challenges/<str:challenge_id>", views.challenge_page, name="challenge"),
    path("players/challenges/<str:challenge_id>/cancel", views.challenge_cancel, name="challenge_cancel"),
    path("players/<str:username>", views.profile, name="profile"),
    path("players/<str:username>/challenge", views.challenge_create, name="challenge_create"),
    path("api/challenges", api.challenges, name="api_challenges"),
    path("api/challenges/<str:challenge_id>", api.challenge_detail, name="api_challenge"),
    path("api/challenges/<str:challenge_id>/accept", api.accept, name="api_challenge_accept"),
    path("api/challenges/<str:challenge_id>/decline", api.decline, name="api_challenge_decline"),
    path("api/challenges/<str:challenge_id>/cancel", api.cancel, name="api_challenge_cancel"),
]
