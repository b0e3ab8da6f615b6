"""Staff admin for tournaments: entrants and pairings read-only (they are made by the services), the
games linked, and an action that advances a tournament now (idempotent)."""
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from . import services
from .models import Entrant, Pairing, Tournament, TournamentGame


class EntrantInline(admin.TabularInline):
    model = Entrant
    fields = ("seed", "name", "user", "bot_level", "status")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "format", "status", "games_per_pairing", "rounds", "created_by", "created")
    list_filter = ("status", "format", "kind", "created")
    search_fields = ("name", "entrants__name")
    readonly_fields = ("kind", "params", "format", "rounds", "games_per_pairing", "turn_seconds", "bot_seconds",
                       "created_by", "created", "finished", "page")
    fields = ("name", "status", *readonly_fields)
    inlines = [EntrantInline]
    actions = ["advance_now"]

    @admin.display(description="Standings")
    def page(self, obj):
        return format_html('<a href="{}">standings</a> · <a href="{}">results.csv</a>', obj.get_absolute_url(),
                           reverse("tournament_csv", args=[obj.pk])) if obj.pk else "—"

    @admin.action(description="Advance: create the games that can start now")
    def advance_now(self, request, queryset):
        made = 0
        for t in queryset:
            try:
                made += len(services.advance(t.pk))
            except services.ServiceError as exc:
                self.message_user(request, f"{t}: {exc.message}", messages.ERROR)
        self.message_user(request, f"{made} game{'s' if made != 1 else ''} created.")


@admin.register(TournamentGame)
class TournamentGameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "game_link", "status")
    list_filter = ("pairing__tournament",)
    list_select_related = ("pairing__tournament", "pairing__first", "pairing__second", "game")
    readonly_fields = ("pairing", "number", "game", "first_side")

    def has_add_permission(self, request):
        return False

    @admin.display(description="Tournament")
    def tournament(self, obj):
        return obj.pairing.tournament

    @admin.display(description="Game")
    def game_link(self, obj):
        return format_html('<a href="{}">{}</a>', obj.game.get_absolute_url(), obj.game.id) if obj.game else "—"

    @admin.display(description="Status")
    def status(self, obj):
        return obj.game.get_status_display() if obj.game else "deleted"


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "round", "board")
    list_filter = ("tournament",)
    list_select_related = ("tournament", "first", "second")
    readonly_fields = ("tournament", "round", "board", "first", "second")

    def has_add_permission(self, request):
        return False
