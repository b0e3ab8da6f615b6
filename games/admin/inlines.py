"""A game's page shows its seats, pending actions and turn log read-only: games change through play and
import only, and the log is append-only."""
from __future__ import annotations

from django.contrib import admin
from django.db.models import F
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from games.admin.texts import action_text, events_text, short_time
from games.models import PendingAction, Seat, Turn


def _can(request, action: str) -> bool:
    user = request.user
    return user.is_active and user.is_staff and user.has_perm(f"games.{action}_game")


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        # Seeing a game means seeing its seats and log (no separate Turn/Seat permissions needed).
        return _can(request, "view") or _can(request, "change")


class SeatInline(ReadOnlyInline):
    model = Seat
    verbose_name_plural = "seats"
    fields = ("side", "kind", "bot_level", "display_name", "user", "claimed")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")

    @admin.display(boolean=True)
    def claimed(self, seat):
        return seat.is_claimed


class PendingActionInline(ReadOnlyInline):
    """Submitted, unresolved actions: secret to the players, visible to staff only."""

    model = PendingAction
    verbose_name = "pending action"
    verbose_name_plural = "pending actions (secret to the players until the turn resolves)"
    fields = ("side", "turn", "action_text", "submitted")
    readonly_fields = fields

    def get_queryset(self, request):
        return (super().get_queryset(request).annotate(game_kind=F("game__kind"), game_params=F("game__params"))
                .order_by("turn", "side"))

    @admin.display(description="action")
    def action_text(self, pending):
        return action_text(pending.game_kind, pending.side, pending.action, pending.game_params)

    @admin.display(description="submitted")
    def submitted(self, pending):
        return short_time(pending.created)


class TurnInline(ReadOnlyInline):
    model = Turn
    verbose_name_plural = "turn log"
    fields = ("number", "actions_text", "events_text", "resolved")
    readonly_fields = fields
    classes = ("turn-log",)

    def get_queryset(self, request):
        return (super().get_queryset(request).annotate(game_kind=F("game__kind"), game_params=F("game__params"))
                .order_by("number"))

    @admin.display(description="actions")
    def actions_text(self, turn):
        return format_html_join(mark_safe("<br>"), "{}: {}", (
            (side, action_text(turn.game_kind, side, action, turn.game_params))
            for side, action in (turn.actions or {}).items()))

    @admin.display(description="events")
    def events_text(self, turn):
        return events_text(turn.game_kind, turn.events, turn.game_params) or "—"

    @admin.display(description="resolved")
    def resolved(self, turn):
        return short_time(turn.created)
