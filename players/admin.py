from django.contrib import admin

from .models import ApiKey, Challenge, Profile, RatedGame, RatedPlayer, RatingChange


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "is_bot", "created")
    list_filter = ("is_bot",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(RatedPlayer)
class RatedPlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "rating", "rd", "volatility", "games", "wins", "draws", "losses", "updated")
    list_filter = ("kind",)
    search_fields = ("user__username", "bot_level")
    raw_id_fields = ("user",)
    list_select_related = ("user",)


@admin.register(RatedGame)
class RatedGameAdmin(admin.ModelAdmin):
    list_display = ("game", "state", "note", "requested_by", "created", "rated_at")
    list_filter = ("state",)
    search_fields = ("game__id",)
    raw_id_fields = ("game", "requested_by")
    readonly_fields = ("rated_at",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    """The rating history is written by the rating service only."""

    list_display = ("game", "player", "score", "rating_before", "rating", "rd", "created")
    list_filter = ("player__kind",)
    search_fields = ("game__id", "player__user__username", "player__bot_level")
    list_select_related = ("player", "player__user")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    """Keys are made by their owners on their profile (shown once); staff can see and revoke them."""

    list_display = ("prefix", "user", "name", "created", "last_used", "revoked")
    list_filter = ("revoked",)
    search_fields = ("user__username", "prefix", "name")
    readonly_fields = ("user", "prefix", "created", "last_used")
    fields = ("user", "name", "prefix", "created", "last_used", "revoked")

    def has_add_permission(self, request):
        return False


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("id", "challenger", "challenger_name", "target", "kind", "rated", "status", "game", "created")
    list_filter = ("status", "kind", "rated")
    search_fields = ("id", "challenger__username", "target__username", "challenger_name")
    raw_id_fields = ("challenger", "target", "game")
    readonly_fields = ("challenger_side",)
